"""`bncbench figures`: the papers' figures of a results store as PNG, SVG or PDF files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bncbench.cli.common import (
    ResultsArg,
    alpha_option,
    check_format,
    checked,
    err,
    format_option,
    metric_option,
    out_option,
    pairs_option,
    rows_option,
    split,
)
from bncbench.errors import UserError
from bncbench.evaluate.figures import FIGURES, UNASKED

# --only's help, from the figures' declaration (evaluate/figures.py KINDS)
ONLY_HELP = (f"{' | '.join(FIGURES)}, or several: wdl,gd [default: the config's figures: section, else all but "
             f"{', '.join(k for k in FIGURES if k not in UNASKED)}]")


def figures(results: ResultsArg,
            out: Annotated[str | None, out_option("DIR", "folder to write into [default: RESULTS/figures]")] = None,
            format: Annotated[str, format_option("png | svg | pdf, or several: png,svg")] = "png",
            only: Annotated[str | None, typer.Option(
                "--only", metavar="NAME", help=ONLY_HELP)] = None,
            a: Annotated[str | None, typer.Option(
                "--a", metavar="LABEL", help="scatter: classifier on the x axis [default: the config's, else the "
                                             "first]")] = None,
            b: Annotated[str | None, typer.Option(
                "--b", metavar="LABEL", help="scatter: classifier on the y axis [default: the config's, else the "
                                             "second]")] = None,
            metric: Annotated[str | None, metric_option("scatter, wdl, gd, cd: metric(s), one file each [default: the "
                                                        "config's figures:, else its wdl.metric, else zol]",
                                                        "M[,M2]")] = None,
            rows: Annotated[str | None, rows_option("wdl: classifiers compared against each other one [default: the "
                                                    "config's, else the first]")] = None,
            pairs: Annotated[str | None, pairs_option("gd: GD(A; B) curves; bayes: A against B [default: the config's, "
                                                      "else the first two labels]")] = None,
            alpha: Annotated[float | None, alpha_option("cd: significance level of the Nemenyi test [default: the "
                                                        "config's, else 0.05]")] = None,
            rope: Annotated[float | None, typer.Option(
                "--rope", metavar="R", help="bayes: the region of practical equivalence, in the metric's units "
                                            "[default: the config's, else as for bncbench bayes]")] = None,
            with_table: Annotated[str | None, typer.Option(
                "--with", metavar="FILE", help="cd: published columns beside the stored ones, a wide table as wdl "
                                               "TABLE reads it [default: the config's figures: cd: with:]")] = None,
            style: Annotated[str | None, typer.Option(
                "--style", metavar="STYLE", help="default (titled, for the screen) | paper (no title, serif, a "
                                                 "column's width, vector PDF) [default: the config's figures: "
                                                 "style, else default]")] = None,
            width: Annotated[str | None, typer.Option(
                "--width", metavar="COLUMN", help="paper style: single (3.3 in) | double (7 in) for every figure "
                                                  "[default: the config's, else double for scatter, times, wdl, "
                                                  "gd, stability and single for biasvar, cd, bayes]")] = None):
    """The papers' figures as PNG, SVG or PDF files (matplotlib).

    \b
    Figures (--only NAME; files NAME.FORMAT, NAME-METRIC.FORMAT for several metrics;
    a character of a label but letters, digits, + - . _ is written as %XX):
      scatter  A's metric (x) against B's (y) per data set with the diagonal,
               beside B - A by instances; points coloured by the better one, up
               to 12 data sets named where a name overlaps nothing (else a
               number, which the legend's key gives), the better side said in
               words (paper 000 Fig. 2)
      times    training and test time per fold on one shared scale: per
               classifier a box over the data sets and the mean (paper 000
               Fig. 3, paper 004 Fig. 8)
      wdl      wins/draws/losses of --rows against each other classifier, data
               sets with < 2000 and >= 2000 instances, a panel per group that has
               data sets (paper 004 Figs. 4-6; the draw rule of the config's
               wdl: section)
      gd       goal-difference curves GD(A; B | S_t), the x axis naming the data
               sets (paper 004 Fig. 3)
      biasvar  bias and variance stacked per classifier (repeated runs only;
               skipped with a note when making all figures)
      cd       critical-difference diagram: average ranks, bars joining the
               classifiers the Nemenyi test does not tell apart (Demšar 2006
               Fig. 1(a); the numbers of bncbench ranks)
      bayes    the Bayesian signed-rank test's posterior samples of (P(A better),
               P(rope), P(B better)) on the simplex, one file per pair
               (bayes-A-vs-B; Benavoli et al. 2017; the numbers of bncbench bayes)
      stability  data sets x classifiers shaded by the structure stability (mean
               pairwise Jaccard of the folds' arc sets; the numbers of bncbench
               structure --stability); only when asked for
    Options override the figures: section of the config the results were run
    with (docs/cli.md: figures). The same results give byte-identical files.
    --with FILE (with --only cd) draws a paper's printed columns in the CD diagram
    beside ours (docs/cli.md: Published columns).
    --style paper: no title (the caption is the paper's), metrics in words, a
    serif font, the page exactly a column wide, fonts embedded in the PDF.

    \b
    Examples:
      bncbench figures results/default
      bncbench figures results/stan70 --format png,svg --out results/stan70/figures
      bncbench figures results/stan70 --only scatter --a TAN --b STAN-MRMR --metric rmse
      bncbench figures results/ait36 --only gd --pairs TAN-AIT:TAN,KDB-AIT:KDB
      bncbench figures results/ait36 --only cd --metric zol,rmse --format svg
      bncbench figures results/ait36 --only bayes --pairs TAN-AIT:TAN --rope 0.01
      bncbench figures results/default --only stability
      bncbench figures results/default --only cd --with paper-table.tsv
      bncbench figures results/default --style paper --format pdf
      bncbench figures results/default --only cd --style paper --width double
    """
    from bncbench.evaluate import options
    from bncbench.evaluate.figures import FORMATS, render
    from bncbench.reporting import figures as fg
    from bncbench.results import open as open_results
    from bncbench.utils.names import case_clash, file_name

    formats = split(format) or []
    for f in formats:
        check_format(f, FORMATS)
    metrics = split(metric)
    for m in metrics or []:
        checked("--metric", options.metric, m)
    pair_list = checked("--pairs", options.pairs, pairs) if pairs else None
    if not formats:
        raise UserError("--format: give png, svg or pdf")
    if alpha is not None:
        checked("--alpha", options.alpha, alpha)
    if rope is not None:
        checked("--rope", options.rope, rope)
    settings = fg.Options(a, b, metrics, split(rows), pair_list, alpha, rope, with_table)
    wanted = split(only)
    if with_table and wanted != ["cd"]:
        raise UserError("--with is for the critical-difference diagram: give --only cd")
    made = []
    with open_results(results) as r:
        src = fg.Source(r)
        look = fg.figure_style(src, style, width)
        for kind in fg.kinds(src, wanted):
            try:
                made += fg.plots(src, [kind], settings)
            except fg.NotApplicable as e:
                if wanted:
                    raise
                err(f"skipped {e}")
    folder = Path(out) if out else (Path(results) if Path(results).is_dir() else Path(results).parent) / "figures"
    clash = case_clash(p.name for p in made)
    if clash:
        raise UserError(f"figures {clash[0]!r} and {clash[1]!r} would be one file where case is ignored (macOS, "
                        f"Windows): {file_name(clash[1])}.{formats[0]}; draw one of them into another --out folder")
    written = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for p in made:
            for f in formats:
                (folder / f"{file_name(p.name)}.{f}").write_bytes(render(p, f, style=look))
                written.append(f"{file_name(p.name)}.{f}")
    except OSError as e:
        raise UserError(f"--out {folder}: cannot write the figures ({e.strerror})") from None
    for note in dict.fromkeys(n for p in made for n in p.notes):
        err(note)
    err(f"wrote {len(written)} file(s) to {folder}: {', '.join(written)}")
