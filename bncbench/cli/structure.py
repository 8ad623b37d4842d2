"""`bncbench structure`: what a classifier learned on the folds of a results store, as a table of
arc shares or a drawn network, and the stability of the arcs across folds (docs/statistics.md:
Structure stability)."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from bncbench.cli.common import (
    CaptionOpt,
    LabelOpt,
    NotesOpt,
    ResultsArg,
    check_latex,
    err,
    format_option,
    latex_text,
    out_option,
    warn_incomplete,
    write_file,
    write_text,
)
from bncbench.errors import UserError

StructureFormat = Literal["md", "csv", "latex", "dot", "svg", "png", "pdf"]
BINARY = ("svg", "png", "pdf")  # drawn by Graphviz's dot: written to --out only


def structure(results: ResultsArg,
              dataset: str | None = typer.Option(None, "--dataset", metavar="NAME",
                                                 help="the data set [--stability: only this one]"),
              classifier: str | None = typer.Option(None, "--classifier", metavar="LABEL",
                                                    help="the classifier's label [--stability: only this one]"),
              format: Annotated[StructureFormat, format_option(
                  "md | csv | latex (tables), dot (Graphviz text), svg | png | pdf (drawn by Graphviz, "
                  "need --out)")] = "md",
              out: Annotated[str | None, out_option("FILE", "write to FILE [default: standard output; svg, png "
                                                            "and pdf need it]")] = None,
              fold: str | None = typer.Option(None, "--fold", metavar="RUN:FOLD",
                                              help="only the model of this run and fold (numbered from 0, as "
                                                   "stored)"),
              stability: bool = typer.Option(False, "--stability",
                                             help="the table of every data set × classifier's stability (mean "
                                                  "pairwise Jaccard of the folds' arc sets)"),
              caption: CaptionOpt = None,
              label: LabelOpt = None,
              notes: NotesOpt = True):
    """The arcs a classifier learned on the stored folds, and how stable they are.

    With --dataset and --classifier: one row per attribute → attribute arc learned in any
    fold × run, columns parent, child, share (the fraction of the stored folds × runs that
    learned it), attributes named as in the data set, rows by share (highest first), then the
    parent's and the child's column order; arcs from the class are left out. md and latex add,
    for a classifier that selects attributes (STAN, SKDB), each attribute's share of the folds
    whose class is its parent. --format dot prints the network in Graphviz's DOT language: the
    class, every attribute (one never selected: dashed), arcs as thick as their share and
    labelled with it, the class's arcs thin and grey; svg, png and pdf draw it with Graphviz's
    `dot` layout into --out (Graphviz must be installed: apt-get install graphviz). --fold
    RUN:FOLD shows one fold's model (every arc's share 1).

    --stability: a table of data sets × classifiers, each cell the mean over every pair of the
    cell's folds × runs of the Jaccard similarity |A ∩ B| / |A ∪ B| of their arc sets (1 = every
    fold learned the same arcs; docs/statistics.md). n/a where there is none, the reason under
    the table: a classifier that reports no structure, one fold only. csv: the long form
    dataset,classifier,stability,models,pairs. --dataset and --classifier keep one of each.

    A classifier that reports no structure (a scikit-learn baseline, a classifier of your own
    without learned_structure) gets one line saying so on standard output, and nothing is
    written (exit 0).

    \b
    Examples:
      bncbench structure results/default --dataset car --classifier TAN
      bncbench structure results/default --dataset car --classifier TAN --format csv
      bncbench structure results/default --dataset car --classifier KDB2 --format png --out kdb2-car.png
      bncbench structure results/default --dataset car --classifier TAN --fold 0:3 --format dot
      bncbench structure results/default --stability
      bncbench structure results/default --stability --classifier STAN-MRMR --format latex
    """
    from bncbench.evaluate import structure as st
    from bncbench.reporting import structure as rs
    from bncbench.results import open as open_results

    check_latex(format, caption, label, notes)
    if stability:
        if fold is not None:
            raise UserError("--fold is for one classifier's structure; --stability compares all the folds")
        if format in st.DRAWINGS:
            raise UserError(f"--stability is a table: --format md, csv or latex, not {format} (`bncbench figures "
                            f"RESULTS --only stability` draws it)")
        with open_results(results) as r:
            datasets, labels, cells = rs.stability_cells(r, [dataset] if dataset else None,
                                                          [classifier] if classifier else None)
            summary = r.summary("zol", datasets if dataset else None, labels if classifier else None)
        warn_incomplete(summary)
        coverage = [summary.coverage.line()]
        if format == "csv" and not summary.coverage.complete:
            err(f"note: {coverage[0]}")
        write_text(latex_text(st.stability_text(datasets, labels, cells, format, coverage), format, caption, label,
                              notes), out)
        return
    if dataset is None or classifier is None:
        raise UserError("structure: name the cell with --dataset NAME --classifier LABEL (or give --stability for "
                        "the table of every cell)")
    if format in BINARY and out is None:
        raise UserError(f"--format {format} is drawn into a file: give --out FILE (--format dot prints the "
                        f"DOT text)")
    at = rs.parse_fold(fold) if fold is not None else None
    with open_results(results) as r:
        found, names = rs.cell_structures(r, dataset, classifier, at)
        warn_incomplete(r.summary("zol", [dataset], [classifier]))
    shares = st.shares(found, names)
    if shares is None:
        typer.echo(st.none_line(classifier, dataset))
        return
    one = f"run {at[0]}, fold {at[1]}" if at else ""
    if len(found) > shares.n:
        err(f"note: {len(found) - shares.n} of {len(found)} stored models of {classifier} on {dataset} report no "
            f"structure and are not counted")
    if format in ("md", "csv", "latex"):
        write_text(latex_text(st.shares_text(shares, format, classifier, dataset, one), format, caption, label,
                              notes), out)
        return
    title = f"{classifier} on {dataset}: " + (f"the model of {one}" if one else
                                               f"arcs by share of {shares.n} folds × runs")
    dot = st.dot_text(shares, title)
    if format == "dot":
        write_text(dot, out)
    else:
        assert out is not None
        write_file(st.render_dot(dot, format), out)
