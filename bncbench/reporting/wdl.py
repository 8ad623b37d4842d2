"""What `bncbench wdl` prints for one results store or a wide table: the W/D/L matrix with the
sign, Wilcoxon or Holm-adjusted p-values and the notes under it (the data sets used, the settings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bncbench.errors import UserError
from bncbench.evaluate.metrics import LOWER_IS_BETTER, METRICS, in_words
from bncbench.evaluate.stats import Correction, Draws, Tails, Test, needs_folds
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    from bncbench.evaluate.stats import WDL
    from bncbench.evaluate.values import FoldValues, Summary
    from bncbench.evaluate.wide_table import WideTable
    from bncbench.results import Results


@dataclass
class WdlRequest:
    """The options of `bncbench wdl`; None: the config's `wdl:` setting, else its default."""

    metric: str | None = None
    draw: str | None = None
    draws: Draws | None = None
    tails: Tails | None = None
    higher_is_better: bool = False
    datasets: list[str] | None = None
    classifiers: list[str] | None = None
    rows: list[str] | None = None
    columns: list[str] | None = None
    format: str = "md"
    test: Test = "sign"
    correction: Correction = "none"
    decimals: int = 4
    published: WideTable | None = None  # --with: published columns beside the stored ones


def wdl_text(path: str, r: Results | None, q: WdlRequest, warn: Callable[[str], None]) -> str:
    """What `wdl` prints for one open results store `r` or, with None, the wide table `path`:
    the matrices and the notes under them (the data sets used of those the store should cover, the
    settings); what `q` leaves out comes from the store's `wdl:` section; `warn`: a line on stderr."""
    from bncbench.evaluate.report import difference_legend
    from bncbench.evaluate.wdl import coverage_notes, format_wdl, matrix, settings_notes, with_folds
    from bncbench.experiment import WdlSettings

    defaults = r.experiment.wdl if r is not None else WdlSettings()
    draw, draws, tails = q.draw or defaults.draw, q.draws or defaults.draws, q.tails or defaults.tails
    check_draw(draw)
    excluded: list[str] = []
    absent: dict[str, str] = {}
    if r is not None:
        metric = q.metric or defaults.default_metric
        s = r.summary(metric, q.datasets, q.classifiers)
        if s.status_line():
            warn(f"warning: {s.status_line()}")
        if q.published is not None:
            s = _joined(s, q.published, draw, q.draw is not None, warn)
        labels = s.with_metric()
        if len(labels) < len(s.labels):
            warn(f"wdl: left out, having no {metric} values: {', '.join(x for x in s.labels if x not in labels)}")
        ds, values = s.datasets, s.values
        absent = {d: why for d, why in s.coverage.missing.items() if d not in ds}
        lower = LOWER_IS_BETTER[metric]
    else:
        ds, labels, values, metric, lower = _wide_table_values(path, q)
    row_labels = _chosen_labels("--rows", q.rows, labels)
    col_labels = _chosen_labels("--columns", q.columns, labels)
    if r is not None:  # every pair on the same data sets: those finished for every classifier of the matrix
        excluded = s.unfinished(list(dict.fromkeys(row_labels + col_labels)))
        if excluded:
            warn(f"wdl: left out {len(excluded)} incomplete data set(s): {', '.join(excluded)}")
        ds = [d for d in ds if d not in excluded]
    folds, unpaired = None, dict[str, str]()
    if r is not None and needs_folds(draw):  # the t-test judges each data set on the pair's folds
        shown_labels = [x for x in labels if x in set(row_labels) | set(col_labels)]
        folds = fold_values(r, draw, q.draw is not None, metric, ds, shown_labels)
        ds, unpaired = with_folds(ds, folds)
        if unpaired:
            warn(f"wdl: left out {len(unpaired)} data set(s) without paired fold values for the t-test: "
                 + ", ".join(f"{d} ({why})" for d, why in unpaired.items()))
    mat = matrix(ds, labels, values, draw, lower, draws, tails, folds)
    notes = (coverage_notes(ds, values, row_labels, col_labels, excluded, absent=absent, unpaired=unpaired)
             + settings_notes(in_words(metric) if q.format == "latex" else metric, lower, draw, draws, tails))
    test_name, adjusted = "sign test", None
    if q.test == "wilcoxon" or q.correction == "holm":
        mat, notes, test_name, adjusted = _other_test(ds, values, row_labels, col_labels, mat, notes, q.test,
                                                      q.correction, draws, tails)
    if r is not None:
        notes += s.one_class_notes() + difference_legend(ds, r.differences(ds))
    return format_wdl(row_labels, col_labels, mat, q.format, metric, notes, test_name, adjusted, q.decimals)


Matrix = dict[tuple[str, str], tuple["WDL", float]]


def _joined(s: Summary, published: WideTable, draw: str, given: bool, warn: Callable[[str], None]) -> Summary:
    """Summary `s` with the published columns joined (--with; its notes to `warn`); refused under
    the t-test draw rule, which needs per-fold values a published column does not have."""
    from bncbench.evaluate.published import join

    if needs_folds(draw):
        source = "--draw" if given else "the config's wdl.draw"
        raise UserError(f"{source} {draw}: the t-test needs per-fold values, which a published column (--with "
                        f"{published.path}) does not have; compare on the means with --draw exact4 or relative:F")
    joined = join(s, published)
    for line in joined.notes:
        warn(f"note: {line}")
    return joined.summary


def _other_test(ds: list[str], values: dict, rows: list[str], cols: list[str], mat: Matrix, notes: list[str],
                test: str, correction: str, draws: str,
                tails: str) -> tuple[Matrix, list[str], str, dict[tuple[str, str], float] | None]:
    """wdl's matrix with Wilcoxon p-values (--test wilcoxon) and Holm-adjusted ones
    (--correction holm): (matrix, notes, the test's name, {(row, col): adjusted p} or None)."""
    from bncbench.evaluate.ranks import holm, wilcoxon_matrix, wilcoxon_notes

    order = rows + cols

    def unordered(a: str, b: str) -> tuple[str, str]:
        return (a, b) if order.index(a) <= order.index(b) else (b, a)

    pairs = list(dict.fromkeys(unordered(a, b) for a in rows for b in cols if a != b))

    name = "sign test"
    if test == "wilcoxon":
        name = "Wilcoxon"
        tested = wilcoxon_matrix(ds, pairs, values, draws, tails)
        mat = {(a, b): (mat[(a, b)][0], tested[unordered(a, b)].p) for a in rows for b in cols if a != b}
        notes = notes[:-1] + wilcoxon_notes(draws, tails)  # in place of the sign test's line
    if correction != "holm":
        return mat, notes, name, None
    adjusted = dict(zip(pairs, holm([mat[p][1] for p in pairs])))
    notes = notes + [(f"Holm: p-values adjusted by Holm's step-down procedure over the {len(pairs)} distinct pairs "
                      f"of the matrix (--correction holm)")]
    return mat, notes, name, {(a, b): adjusted[unordered(a, b)] for a in rows for b in cols if a != b}


def fold_values(r: Results, draw: str, given: bool, metric: str, datasets: list[str] | None,
                labels: list[str]) -> FoldValues:
    """`r.fold_values` of the t-test draw rule (`given`: by --draw, else the config's); a metric
    without per-fold values is refused naming the rule."""
    source = "--draw" if given else "the config's wdl.draw"
    try:
        return r.fold_values(metric, datasets, labels)
    except UserError as e:
        raise UserError(f"{source} {draw}: {e}") from None


def check_draw(draw: str | None) -> None:
    """UserError for a --draw that is given and not a draw rule."""
    from bncbench.evaluate.stats import parse_draw

    if draw:
        try:
            parse_draw(draw)
        except ValueError as e:
            raise UserError(f"--draw: {e}") from None


def _wide_table_values(path: str, q: WdlRequest) -> tuple[list[str], list[str], dict, str, bool]:
    """(data sets, classifiers, values, metric name, lower is better) of the wide table wdl compares,
    with --datasets / --classifiers applied."""
    from bncbench.evaluate.wide_table import read_wide_table

    ds, labels, values = read_wide_table(path)
    metric = q.metric
    if metric in METRICS and q.higher_is_better and LOWER_IS_BETTER[metric]:
        raise UserError(f"--higher-is-better contradicts --metric {metric} (lower is better)")
    lower = LOWER_IS_BETTER[metric] if metric in METRICS else not q.higher_is_better
    name = metric or f"values of {Path(path).name}"
    for opt, wanted, available in (("--datasets", q.datasets, ds), ("--classifiers", q.classifiers, labels)):
        for w in wanted or []:
            if w not in available:
                raise UserError(f"{opt}: {w!r} is not in {path}{did_you_mean(w, available)}; "
                                f"available: {', '.join(available)}")
    ds = [d for d in ds if not q.datasets or d in q.datasets]
    labels = [lab for lab in labels if not q.classifiers or lab in q.classifiers]
    return ds, labels, values, name, lower


def _chosen_labels(option: str, chosen: list[str] | None, labels: list[str]) -> list[str]:
    """The classifiers --rows or --columns names (default: all `labels`), each checked to be one of them."""
    for lab in chosen or []:
        if lab not in labels:
            raise UserError(f"{option}: no classifier {lab!r}{did_you_mean(lab, labels)}; "
                            f"available: {', '.join(labels)}")
    return chosen or labels
