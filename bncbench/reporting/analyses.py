"""The statistics of an open results store: the Bayesian comparison of two classifiers, the rank
test, the comparison with a published table and a paper's claims judged against its folders."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bncbench.data import catalog
from bncbench.errors import UserError
from bncbench.evaluate import options
from bncbench.evaluate.metrics import LOWER_IS_BETTER
from bncbench.results import Results
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    from bncbench.evaluate.bayes import BayesComparison
    from bncbench.evaluate.claims import PrintedTable, Verdict
    from bncbench.evaluate.compare import PublishedComparison
    from bncbench.evaluate.ranks import RankTest
    from bncbench.evaluate.values import Summary
    from bncbench.evaluate.wide_table import WideTable


def bayes(r: Results, a: str, b: str, metric: str = "zol", rope: float | None = None,
          datasets: list[str] | None = None, samples: int | None = None, seed: int | None = None) -> BayesComparison:
    """A against B by the Bayesian signed-rank test over the data sets' means and the correlated
    t-test on each data set's paired folds, ρ = n_test / (n_train + n_test) (docs/statistics.md)."""
    from bncbench.evaluate import bayes

    try:
        options.metric(metric)
    except ValueError as e:
        raise UserError(f"--metric: {e}") from None
    labels = r.summary(metric).labels
    for option, label in (("--a", a), ("--b", b)):
        if label not in labels:
            raise UserError(f"{option}: no classifier {label!r} in the results{did_you_mean(label, labels)}; "
                            f"available: {', '.join(labels)}")
    fv = r.fold_values(metric, datasets, [a, b])  # refuses a metric with no value per fold first
    width = bayes.rope_for(metric, rope)
    s = r.summary(metric, datasets, [a, b])
    folds = {ds: (fv.values[(ds, a)], fv.values[(ds, b)], fv.test_fraction(ds)) for ds in fv.datasets}
    left = {ds: why for ds, why in fv.left_out.items()  # unfinished: in neither test
            if ds in s.incomplete or (ds, a) in s.not_run or (ds, b) in s.not_run}
    return bayes.compare(a, b, metric, LOWER_IS_BETTER[metric],
                         {ds: (s.values[(ds, a)][0], s.values[(ds, b)][0]) for ds in s.datasets}, folds, width,
                         bayes.SAMPLES if samples is None else samples, bayes.SEED if seed is None else seed,
                         left_out=left, unpaired=fv.left_out)


def rank_test(r: Results, metric: str = "zol", datasets: list[str] | None = None,
              classifiers: list[str] | None = None, control: str | None = None, alpha: float = 0.05,
              published: WideTable | None = None, warn: Callable[[str], None] = lambda line: None) -> RankTest:
    """The Friedman test and its post-hoc tests of the store, as `bncbench ranks` prints them (§6.8);
    with the `published` table's columns joined (`warn` gets what the join says)."""
    from bncbench.evaluate.published import join
    from bncbench.evaluate.ranks import compare_classifiers

    s = r.summary(metric, datasets, classifiers)
    if published is not None:
        joined = join(s, published)
        s = joined.summary
        for line in joined.notes:
            warn(line)
    if control is not None and control not in s.labels:
        raise UserError(f"--control: no classifier {control!r}{did_you_mean(control, s.labels)}; "
                        f"available: {', '.join(s.labels)}")
    try:
        return compare_classifiers(s.datasets, s.labels, s.values, LOWER_IS_BETTER[metric], alpha, control)
    except ValueError as e:
        raise UserError(f"ranks: {e}") from None


def _resolve(name: str) -> str | None:
    """The catalog's name of a data set (an alias resolved), None when it is not in the catalog."""
    try:
        return catalog.resolve(name)
    except UserError:
        return None


def comparison(r: Results, table: str, metrics: list[str] | None, only: list[str] | None,
               mapping: dict[str, str], warn: Callable[[str], None] = lambda line: None) -> PublishedComparison:
    """`evaluate.compare.compare` of the store and a published table (`bncbench compare`, the
    HTML report's comparison); `warn` gets a line per metric the store does not show in full."""
    from bncbench.evaluate import compare as cmp

    published = cmp.read_published(table)
    first = (metrics or ["zol"])[0]
    summary = r.summary(first, None, only)
    plan = cmp.plan_columns(published, metrics, mapping, summary.labels, only)
    ours = {}
    for m in plan.metrics:
        s = r.summary(m, None, only)
        if s.status_line():
            warn(f"warning ({m}): {s.status_line()}")
        ours[m] = (s.datasets, s.labels, s.values)
    c = cmp.compare(published, plan, ours, _resolve)
    coverage = summary.coverage
    c.coverage = coverage.line()
    for name in c.missing_datasets:
        own = name if name in coverage.datasets else _resolve(name)
        c.missing_reasons[name] = coverage.missing.get(own or name, "not in the configs run here")
    c.flags = r.classifier_flags([label for _, label, _ in plan.columns])
    c.differences = r.differences(list(dict.fromkeys(row.dataset for row in c.rows)))
    return c


def judge_claims(claims_file: str, overrides: dict[str, str] | None = None,
                 opened: tuple[Results, ...] = ()) -> tuple[str, list[Verdict], list[PrintedTable], list[str]]:
    """A claims file judged against the results folders it names, as `bncbench claims` prints it:
    (caption, verdicts, printed tables beside ours, lines on what is missing)."""
    from bncbench.evaluate import claims as cl

    spec = cl.load(claims_file, overrides or {})
    handles = {Path(r.location).resolve(): r for r in opened}
    mine: list[Results] = []
    summaries: dict[tuple[str, str], Summary] = {}

    def summary(name: str, metric: str) -> Summary | None:
        folder = Path(spec["results"][name])
        if not folder.exists():
            return None
        if folder.resolve() not in handles:
            handles[folder.resolve()] = r = Results(folder)
            mine.append(r)
        summaries.setdefault((name, metric), handles[folder.resolve()].summary(metric))
        return summaries[(name, metric)]

    try:
        verdicts = cl.evaluate(spec, summary)
        tables = cl.table_comparison(spec, summary)
    finally:
        for r in mine:
            r.close()
    lines = cl.summary_lines(spec, verdicts, summaries)
    return f"Claims of paper {spec.get('paper', '')}", verdicts, tables, lines
