"""`bncbench bayes`: two classifiers compared by Bayesian tests with a region of practical equivalence."""

from __future__ import annotations

from typing import Annotated

import typer

from bncbench.cli.common import (
    CaptionOpt,
    DatasetsOpt,
    LabelOpt,
    NotesOpt,
    ResultsArg,
    TableFormat,
    check_latex,
    err,
    format_option,
    latex_text,
    metric_option,
    split,
)
from bncbench.evaluate.metrics import DEFAULT_ROPE, PERCENT

#: the default ropes, grouped by value, a metric in percent marked so (--rope's help)
ROPES = "; ".join(f"{r} for " + ", ".join(m + (" (%)" if m in PERCENT else "") for m, v in DEFAULT_ROPE.items()
                                          if v == r)
                  for r in dict.fromkeys(DEFAULT_ROPE.values()))


def bayes(results: ResultsArg,
          a: Annotated[str, typer.Option("--a", metavar="LABEL", help="classifier A")],
          b: Annotated[str, typer.Option("--b", metavar="LABEL", help="classifier B")],
          rope: Annotated[float | None, typer.Option(
              "--rope", metavar="R", help="half-width of the region of practical equivalence, in the metric's units "
                                          f"[default: {ROPES}]")
          ] = None,
          metric: Annotated[str | None, metric_option("a metric with a value per fold [default: the config's "
                                                      "wdl.metric, else zol]")] = None,
          datasets: DatasetsOpt = None,
          samples: Annotated[int | None, typer.Option(
              "--samples", metavar="N", help="Monte Carlo samples of the signed-rank posterior [default: 50000]")
          ] = None,
          seed: Annotated[int | None, typer.Option("--seed", metavar="S", help="seed of those samples [default: 0]")
                          ] = None,
          format: Annotated[TableFormat, format_option()] = "md",
          caption: CaptionOpt = None,
          label: LabelOpt = None,
          notes: NotesOpt = True):
    """A against B by Bayesian tests (Benavoli, Corani, Demšar, Zaffalon, JMLR 2017).

    Over the data sets: the Bayesian signed-rank test (Dirichlet process prior, baycomp)
    on the per-data-set mean differences; on each data set: the Bayesian correlated
    t-test on the paired fold differences, the folds' correlation
    rho = n_test/(n_train + n_test) (1/k for k-fold CV, 1/2 for 50x2 and petal-bv).
    Each gives P(A better), P(rope) and P(B better), "better" in the metric's sense
    (lower zol, higher accuracy); differences within +-rope count as practically
    equivalent. The same options give the same output (seeded samples). csv: one line
    per test, the notes on stderr. `bncbench figures --only bayes` draws the
    signed-rank posterior on the simplex (docs/statistics.md).

    \b
    Examples:
      bncbench bayes results/ait36 --a TAN-AIT --b TAN
      bncbench bayes results/aode22 --a AODE --b SP --rope 0.005 --samples 100000
      bncbench bayes results/stan70 --a TAN --b AODE --metric accuracy --rope 1
    """
    from bncbench.evaluate.bayes import format_bayes
    from bncbench.reporting.analyses import bayes as compare
    from bncbench.results import open as open_results

    check_latex(format, caption, label, notes)
    with open_results(results) as r:
        c = compare(r, a, b, metric or r.experiment.wdl.default_metric, rope, split(datasets), samples, seed)
    text, lines = format_bayes(c, format)
    typer.echo(latex_text(text, format, caption, label, notes), nl=False)
    for line in lines:
        err(line)
