"""`bncbench summary`: the HTML report's summary (the experiment, the ranks, the pairs that differ) as text."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from bncbench.cli.common import (
    ClassifiersOpt,
    DatasetsOpt,
    ResultsArg,
    checked,
    err,
    format_option,
    metric_option,
    out_option,
    split,
    warn_incomplete,
    write_text,
)


def summary(results: ResultsArg,
            metric: Annotated[str | None, metric_option("the metric of the ranks and the pairs [default: the "
                                                        "HTML report's: the config's wdl.metric, else zol]")] = None,
            datasets: DatasetsOpt = None,
            classifiers: ClassifiersOpt = None,
            format: Annotated[Literal["md", "latex", "text"], format_option("md | latex | text")] = "text",
            out: Annotated[str | None, out_option("FILE", "write the summary to FILE [default: standard "
                                                          "output]")] = None,
            compare_table: str | None = typer.Option(None, "--compare", metavar="TABLE",
                                                     help="add the reproduction status against a published table "
                                                          "(as report --format html --compare)"),
            claims_file: str | None = typer.Option(None, "--claims", metavar="CLAIMS",
                                                   help="add how many of a paper's claims hold (as report --format "
                                                        "html --claims)")):
    """The findings in words: the summary of report --format html as text a paper can start from.

    The experiment in one paragraph (classifiers, data sets, cross-validation, missing values,
    discretisation, probability estimates), the data sets covered, the average ranks and the
    Friedman test, the pairs that differ (Nemenyi, Holm, the sign test on the wins and losses
    under the config's wdl: settings), every judged metric at a glance and, with --compare TABLE
    and --claims CLAIMS, the reproduction status: the same sentences as the HTML page's summary,
    from the same code. --format text wraps the paragraphs at 88 columns; md keeps a paragraph on
    one line; latex is paragraphs, an itemize list and booktabs tables to paste into a paper
    (needing the booktabs package).

    \b
    Examples:
      bncbench summary results/default
      bncbench summary results/stan70 --metric rmse --format latex --out summary.tex
      bncbench summary results/default --classifiers NB,TAN,AODE --format md
      bncbench summary results/stan70 --compare papers/stan70/dev.tsv
    """
    from bncbench.errors import UserError
    from bncbench.evaluate import options
    from bncbench.evaluate.findings import render
    from bncbench.evaluate.html import summary_blocks
    from bncbench.reporting.page import summary_input
    from bncbench.results import experiment_folders
    from bncbench.results import open as open_results

    if metric is not None:
        checked("--metric", options.metric, metric)
    folders = experiment_folders(results)
    if folders is not None:
        raise UserError(f"summary takes one experiment's results; {results} holds "
                        f"{', '.join(str(f) for f in folders)}: give one of them")
    with open_results(results) as r:
        inp = summary_input(r, split(datasets), split(classifiers), metric, compare_table, claims_file, err)
        warn_incomplete(next(s for s in inp.summaries if s.metric == inp.primary))
        text = render(summary_blocks(inp), format, r.name)
    write_text(text, out)
