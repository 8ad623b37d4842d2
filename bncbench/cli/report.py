"""`bncbench report` (a paper-style table, or the HTML page of everything a results store holds)
and `bncbench export` (the stored tasks as tables for pandas, R or a spreadsheet)."""

from __future__ import annotations

from pathlib import Path
from textwrap import indent
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from bncbench.cli.common import (
    CaptionOpt,
    NotesOpt,
    ResultsArg,
    ResultsOrFolderArg,
    WithOpt,
    check_decimals,
    check_latex,
    classifiers_option,
    datasets_option,
    decimals_option,
    err,
    format_option,
    label_option,
    latex_text,
    metric_option,
    out_option,
    split,
    warn_incomplete,
    write_text,
)
from bncbench.errors import UserError
from bncbench.evaluate.metrics import glossary

if TYPE_CHECKING:
    from bncbench.evaluate.wide_table import WideTable
    from bncbench.results import Results, Summary


def export(results: ResultsArg,
           out: Annotated[str, out_option("DIR", "folder to write the tables into")],
           format: Annotated[Literal["parquet", "csv"], format_option("parquet | csv")] = "parquet",
           predictions: bool = typer.Option(False, "--predictions",
                                            help="also write one table of per-instance predictions per data set")):
    """Write the results as tables for pandas, R or a spreadsheet.

    DIR/tasks.FORMAT has one row per stored task (dataset, label, run, fold, n_test,
    train_time, test_time, zol, rmse, rmse_all, cll, logloss, info, current, finished,
    key); with --predictions, DIR/predictions-<data set>.FORMAT has one row per test
    instance (label, run, fold, row, true, predicted, one column P(<class>) per class).
    The same tables in Python: bncbench.results.open(RESULTS).

    \b
    Examples:
      bncbench export results/stan70 --out exports/stan70
      bncbench export results/stan70 --format csv --predictions --out exports/stan70-csv
    """
    from bncbench.results import open as open_results

    with open_results(results) as r:
        files = r.export(format, out, predictions)
    err(f"wrote {len(files)} file(s) to {out}: {', '.join(f.name for f in files[:4])}"
        + (", ..." if len(files) > 4 else ""))


def report(results: ResultsOrFolderArg,
           metric: Annotated[str, metric_option("what the cells show (metrics listed above)")] = "zol",
           datasets: Annotated[str | None, datasets_option("only these data sets [default: all in the "
                                                           "results]")] = None,
           classifiers: Annotated[str | None, classifiers_option("only these classifier labels [default: all in the "
                                                                 "results]")] = None,
           format: Annotated[Literal["md", "csv", "latex", "html"], format_option("md | csv | latex | html")] = "md",
           decimals: Annotated[int, decimals_option("decimals of the values, 0 to 10 (md, latex; csv keeps full "
                                                    "precision, html 4)")] = 4,
           label: Annotated[str | None, label_option("latex: the table's \\label [default: "
                                                     "tab:<experiment>-<metric>]")] = None,
           caption: CaptionOpt = None,
           notes: NotesOpt = True,
           label_metric: str | None = typer.Option(None, "--label-metric", metavar="L=M,...",
                                                   help="show these classifiers' columns in another metric (e.g. "
                                                        "SKDB=rmse_all: paper 004's Table A4); the column is labelled "
                                                        "'L (M)'"),
           out: Annotated[str | None, out_option("FILE", "write the report to FILE [default: standard output]")] = None,
           compare_table: str | None = typer.Option(None, "--compare", metavar="TABLE",
                                                    help="html: add the comparison with a published table (as "
                                                         "bncbench compare RESULTS TABLE)"),
           claims_file: str | None = typer.Option(None, "--claims", metavar="CLAIMS",
                                                  help="html: add a paper's claims beside our runs (as bncbench "
                                                       "claims CLAIMS, reading the results folders the file names)"),
           base: str | None = typer.Option(None, "--base", metavar="LABEL",
                                           help="mark each cell significantly better (∘) or worse (•) than this "
                                                "classifier on its data set, with a (better/equal/worse) row"),
           draw: str | None = typer.Option(None, "--draw", metavar="TEST",
                                           help="with --base: ttest[:ALPHA] (the corrected resampled t-test, as "
                                                "Weka's Experimenter) | wilcoxon[:ALPHA] on the folds; ALPHA 0.05 "
                                                "if not given [default: ttest]"),

           with_table: WithOpt = None):
    """A paper-style table: one row per data set, one column per classifier, mean ± sd.

    Only the classifiers that have the metric get a column. The md and latex tables end with a
    mean row and an average-rank row (Demšar 2006: per data set 1 = best, ties share the
    average rank), both over the data sets where every shown classifier has a value; no mean
    row for cll and selected, whose values grow with the data set. A data set whose version
    differs from the paper's is marked † and explained under the table; a line under it says
    how many of the data sets the results should cover it shows and why the others are missing
    (not available, not run, not finished). --format csv is the long form
    dataset,classifier,metric,mean,sd at full precision, without summary rows.

    --decimals N prints the values and the mean row at N decimals (default 4, correctly rounded
    as printf); the average ranks are still those of the values at 4 decimals, as in bncbench
    ranks, so --decimals changes what is printed, never a rank. --format latex is a table float
    for a paper (needing the booktabs package): its rules, a \\caption naming the metric in words
    (--caption CAPTION for another), a \\label (--label, default tab:<experiment>-<metric>), the best
    value of each row as printed in bold (ties all bold; the average-rank row: the lowest), the
    notes in small type under the table in a paper's words (--no-notes: none).

    RESULTS may be a folder holding several experiments (results/<name>/ each): one section
    per experiment, in name order (csv: a first column experiment).

    --with FILE adds a paper's printed columns (a wide table as wdl TABLE reads it: data set,
    then one column per classifier, the metric's values, 'mean ± sd' allowed) after ours, data
    sets matched by name exactly; the mean and rank rows leave out a data set a column lacks,
    and the notes name it. A fraction metric's column holding percentages (> 1) is refused,
    as is accuracy given as fractions (docs/cli.md: Published columns). With --format html the
    values are of the page's summary metric.

    --format html is one self-contained page (no network; open it in any browser) that leads
    with its findings: a summary (the experiment in one paragraph, the average ranks with the
    Friedman test, the critical-difference diagram, the pairs that differ, every judged metric
    at a glance; with --compare TABLE and --claims CLAIMS the reproduction status), then the
    table of every metric the results have (--metric is not needed; best values in bold),
    the W/D/L matrices with the significant records marked (the config's wdl: settings), the
    figures of bncbench figures as inline SVG, and collapsed: the comparison of bncbench
    compare, the claims of bncbench claims, the provenance (bncbench version, machine,
    config, data files and checksums). Click a column header to sort.

    --base LABEL marks each cell significantly better (∘) or worse (•) than the classifier
    LABEL on that data set, in the metric's direction, as Weka's Experimenter marks v and *:
    by the corrected resampled t-test on the pair's folds (Nadeau & Bengio 2003), two-tailed
    at α = 0.05, or --draw ttest:ALPHA, or --draw wilcoxon[:ALPHA] (Wilcoxon's signed-ranks
    test on the folds). md and latex add a legend and a (better/equal/worse) row counting
    each column's marks; html marks every metric's table that has per-fold values; csv gets a
    last column versus_base (better, worse or empty). A metric without per-fold values (bias,
    variance) is refused.

    \b
    METRICS_GLOSSARY

    \b
    Examples:
      bncbench report results/default
      bncbench report results/
      bncbench report results/stan70 --metric rmse --format latex
      bncbench report results/stan70 --format latex --decimals 2 --label tab:zol
      bncbench report results/stan70 --format latex --caption "Errors" --no-notes
      bncbench report results/stan70 --datasets iris,car --classifiers TAN,AODE
      bncbench report results/ait36/results.sqlite --metric bias
      bncbench report results/stan70 --format csv > stan70-zol.csv
      bncbench report results/default --base NB
      bncbench report results/default --base NB --draw ttest:0.01 --format latex
      bncbench report results/ait36 --metric rmse --label-metric SKDB=rmse_all
      bncbench report results/default --format html --out report.html
      bncbench report results/stan70 --format html --compare papers/stan70/dev.tsv
      bncbench report results/kban --format html --claims papers/kban/claims.yaml
      bncbench report results/default --with paper-table.tsv --format latex
    """
    from bncbench.cli.common import per_experiment
    from bncbench.evaluate.published import read
    from bncbench.evaluate.report import DECIMALS

    check_decimals(decimals)
    check_latex(format, caption, label, notes, results)
    _check_base_options(base, draw, label_metric)
    published = read(with_table) if with_table else None
    if format == "html":
        if label_metric:
            raise UserError("--label-metric is for md, csv and latex; the html report shows every metric")
        if decimals != DECIMALS:
            raise UserError("--decimals is for md, csv and latex; the html report prints 4 decimals")
        write_text(html_text(results, compare_table, split(datasets), split(classifiers), claims_file, base, draw,
                             published),
                   out)
        return
    if compare_table:
        raise UserError("--compare is for --format html; `bncbench compare RESULTS TABLE` prints the comparison")
    if claims_file:
        raise UserError("--claims is for --format html; `bncbench claims CLAIMS` prints the claims")
    per_experiment(results, format, lambda r: report_text(r, metric, split(datasets), split(classifiers), format,
                                                          label_metric, decimals, label, base, draw, published),
                   lambda text: write_text(latex_text(text, format, caption, None, notes), out))



report.__doc__ = (report.__doc__ or "").replace("METRICS_GLOSSARY", indent(glossary(), "    ").lstrip())

def _check_base_options(base: str | None, draw: str | None, label_metric: str | None) -> None:
    """The checks of --base and --draw that need no results: --draw a test, and only with --base."""
    from bncbench.reporting.versus_base import check_test

    if draw is not None and base is None:
        raise UserError("--draw is for --base LABEL (the test of each cell against the base classifier)")
    if draw is not None:
        check_test(draw)
    if base is not None and label_metric:
        raise UserError("--base compares every column in --metric; --label-metric shows columns in other metrics: "
                        "give one or the other")


def html_text(results: str, table: str | None, datasets: list[str] | None, classifiers: list[str] | None,
              claims_file: str | None, base: str | None = None, draw: str | None = None,
              published: WideTable | None = None) -> str:
    """The page of `report --format html` of one experiment's results (`published`: --with's table)."""
    from bncbench.reporting.page import page
    from bncbench.results import open_all

    found = open_all(results)
    try:
        if len(found) > 1 or Path(found[0].location) != Path(results):
            raise UserError(f"--format html takes one experiment's results; {results} holds "
                            f"{', '.join(r.location for r in found)}: give one of them")
        return page(found[0], table, datasets, classifiers, claims_file, err, base, draw, published)
    finally:
        for r in found:
            r.close()


def report_text(r: Results, metric: str, datasets: list[str] | None, classifiers: list[str] | None, fmt: str,
                label_metric: str | None, decimals: int, label: str | None, base: str | None = None,
                draw: str | None = None, published: WideTable | None = None) -> str:
    """The table `report` prints for one results store: the classifiers that have `metric` (those
    that have none are named under it), the `published` table's columns after them (--with), with
    the store's coverage under it (csv: on stderr); with `base`, each cell marked against that
    column by the test `draw` (reporting/versus_base.py)."""
    from bncbench.evaluate.metrics import NO_MEAN, REPEATED_RUN_METRICS, in_words
    from bncbench.evaluate.published import join
    from bncbench.evaluate.report import format_report, spread_words, table_label

    s = r.summary(metric, datasets, classifiers)
    warn_incomplete(s)
    swaps = _label_swaps(s, label_metric)
    joined = join(s, published) if published is not None else None
    if joined is not None:
        s = joined.summary
    shown = s.with_metric()
    labels, values = _label_metrics(r, s, [lab for lab in s.labels if lab in shown or lab in swaps], swaps)
    if not labels:
        raise UserError(f"--metric {metric}: no classifier of {r.location} has {metric} values "
                        f"({', '.join(s.labels)} have none)")
    notes = [s.coverage.line(), *s.one_class_notes()]
    dropped = [lab for lab in s.labels if lab not in shown and lab not in swaps]
    if dropped:
        notes.append(f"not shown, having no {in_words(metric) if fmt == 'latex' else metric} values: "
                     f"{', '.join(dropped)}")
    if fmt == "csv":
        for line in notes if not s.coverage.complete or dropped else []:
            err(f"note: {line}")
    if joined is not None:
        notes += joined.notes
        for line in joined.notes if fmt == "csv" else []:
            err(f"note: {line}")
    no_mean = "; ".join(f"{m}: {NO_MEAN[m]}" for m in dict.fromkeys([metric, *swaps.values()]) if m in NO_MEAN)
    marks = r.differences(s.datasets) if fmt != "csv" else {}
    versus = None
    if base is not None:
        from bncbench.reporting.versus_base import DEFAULT_TEST, against_base

        versus = against_base(r, s, labels, base, draw or DEFAULT_TEST, joined.published if joined else [])
    cv = r.experiment.cv
    spread = spread_words(cv.scheme, cv.folds, cv.runs, sd=metric not in REPEATED_RUN_METRICS)
    caption = f"{in_words(metric, heading=True)}, {spread}"
    text = format_report(s.datasets, labels, values, metric, fmt, marks, notes=notes, no_mean=no_mean,
                         decimals=decimals, label=label or table_label(r.name, metric),
                         caption=caption if fmt == "latex" else "", versus=versus)
    if fmt != "csv" or versus is None:
        return text
    from bncbench.evaluate.versus_base import csv_column

    for line in versus.untested_lines():
        err(f"note: {line}")
    return csv_column(text, versus)


def _label_swaps(s: Summary, label_metric: str | None) -> dict[str, str]:
    """{label: metric} of --label-metric L=M,..., each checked against summary `s`."""
    from bncbench.evaluate.metrics import METRICS

    swaps = {}
    for item in split(label_metric) or []:
        lab, sep, m = item.partition("=")
        if not sep or lab not in s.labels or m not in METRICS:
            raise UserError(f"--label-metric: {item!r} is not LABEL=METRIC with a label of the results "
                            f"({', '.join(s.labels)}) and a metric ({', '.join(METRICS)})")
        swaps[lab] = m
    return swaps


def _label_metrics(r: Results, s: Summary, shown: list[str], swaps: dict[str, str]):
    """(labels, values) of the `shown` labels of summary `s`, those of `swaps` ({label: metric},
    --label-metric) shown in their metric and labelled 'L (M)'."""
    labels, values = [], dict(s.values)
    for lab in shown:
        if lab not in swaps:
            labels.append(lab)
            continue
        other = r.summary(swaps[lab], s.datasets, [lab])
        column = f"{lab} ({swaps[lab]})"
        labels.append(column)
        for d in s.datasets:
            values[(d, column)] = other.values[(d, lab)]
    return labels, values
