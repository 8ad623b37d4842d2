"""Each cell of a report against a base classifier, from one open results store: the pairs'
per-fold values and the option checks of `report --base LABEL --draw TEST` (evaluate/versus_base.py)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from bncbench.errors import UserError
from bncbench.evaluate.metrics import LOWER_IS_BETTER, REPEATED_RUN_METRICS
from bncbench.evaluate.versus_base import VersusBase, parse_test, versus_base
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    from bncbench.evaluate.values import Summary
    from bncbench.results import Results

DEFAULT_TEST = "ttest"  # Weka's Experimenter's test, at its α = 0.05


def check_test(rule: str) -> tuple[str, float]:
    """(test, ALPHA) of --draw `rule`, or a UserError naming the option."""
    try:
        return parse_test(rule)
    except ValueError as e:
        raise UserError(f"--draw: {e}") from None


def check_base(base: str, labels: list[str], metric: str) -> None:
    """UserError unless the base is one of the table's columns (`labels`) and `metric` has per-fold values."""
    if base not in labels:
        raise UserError(f"--base: no column {base!r} in the {metric} table{did_you_mean(base, labels)}; "
                        f"its classifiers: {', '.join(labels)}")
    if metric in REPEATED_RUN_METRICS:
        raise UserError(f"--base: {metric} has no value per fold (Kohavi–Wolpert over runs), which the test against "
                        f"the base needs; choose a per-fold metric such as zol, accuracy, rmse or logloss")


def against_base(r: Results, s: Summary, labels: list[str], base: str, rule: str,
                 published: Collection[str] = ()) -> VersusBase:
    """Every cell of summary `s`'s `labels` columns against the column `base` on its data set, by
    --draw `rule`; each pair on its own paired folds (`Results.fold_values` of the two labels). The
    `published` columns (--with: means only) are not tested, and say why."""
    test, alpha = check_test(rule)
    check_base(base, labels, s.metric)
    if base in published:
        raise UserError(f"--base {base}: a published column has no per-fold values, which the test against the base "
                        f"needs; choose a classifier of the results")
    stored = [lab for lab in labels if lab not in published]
    folds = {lab: r.fold_values(s.metric, s.datasets, [base, lab]) for lab in stored if lab != base}
    out = versus_base(base, stored, s.datasets, folds, test, alpha, LOWER_IS_BETTER[s.metric])
    out.published = [lab for lab in labels if lab in published]
    return out
