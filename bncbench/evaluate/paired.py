"""Paired comparisons of two classifiers over data sets beyond W/D/L: relative CLL (paper 004
eq. 11, Fig. 7) and goal-difference curves (eq. 9, Fig. 3)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from bncbench.evaluate.stats import goal_difference, round4
from bncbench.evaluate.wdl import outcomes

if TYPE_CHECKING:
    from bncbench.evaluate.ttest import PairedFolds


def relative_cll(cll_a: float, cll_b: float) -> float:
    """rCLL(A | B) = CLL(A) / CLL(B) (eq. 11). Both CLLs are negative, so rCLL < 1 means A has
    the higher (better) likelihood — the paper reads rCLL ≥ 1 as better (docs/algorithms.md §5.4)."""
    return cll_a / cll_b if cll_b != 0 else math.nan


def rcll_rows(datasets, values, pairs) -> tuple[list[str], list[list[str]], list[str]]:
    """(header, rows, notes) of the rCLL table: per data set and pair CLL(A), CLL(B), rCLL; the
    notes count, per pair, the data sets where A's CLL is higher and where rCLL ≥ 1."""
    header = ["dataset"]
    for a, b in pairs:
        header += [f"CLL {a}", f"CLL {b}", f"rCLL({a}|{b})"]
    rows, better, at_least_one, n = [], [0] * len(pairs), [0] * len(pairs), [0] * len(pairs)
    for ds in datasets:
        row = [ds]
        for p, (a, b) in enumerate(pairs):
            ca, cb = values[(ds, a)][0], values[(ds, b)][0]
            r = relative_cll(ca, cb) if not (math.isnan(ca) or math.isnan(cb)) else math.nan
            row += [_fmt(ca, 2), _fmt(cb, 2), _fmt(r, 4)]
            if not math.isnan(r):
                n[p] += 1
                better[p] += ca > cb
                at_least_one[p] += r >= 1
        rows.append(row)
    notes = [f"{a} vs {b}: higher CLL (better) on {better[p]} of {n[p]} data sets; rCLL ≥ 1 on {at_least_one[p]} "
             f"(the paper counts rCLL ≥ 1 as better, but with negative CLLs that means a lower likelihood)"
             for p, (a, b) in enumerate(pairs)]
    return header, rows, notes


def gd_rows(datasets, values, pairs, rule: str, lower_is_better: bool,
            folds: PairedFolds | None = None) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the goal-difference curves: t, data set, then GD(A; B | S_t) per pair,
    data sets in the given (the config's) order (`folds`: the per-fold values the ttest rule needs)."""
    header = ["t", "dataset"] + [f"GD({a};{b})" for a, b in pairs]
    curves = [goal_difference(outcomes(datasets, values, a, b, rule, lower_is_better, folds)) for a, b in pairs]
    rows = [[str(t + 1), ds] + [str(c[t]) for c in curves] for t, ds in enumerate(datasets)]
    return header, rows


def better_count(datasets, values, a: str, b: str, rule: str, lower_is_better: bool) -> tuple[int, int]:
    """(data sets where A beats B under `rule`, data sets where both have a value); a rule on means
    (claims files refuse the t-test rule)."""
    out = [o for o in outcomes(datasets, values, a, b, rule, lower_is_better) if o is not None]
    return out.count(1), len(out)


def _fmt(x: float, digits: int) -> str:
    if math.isnan(x):
        return "n/a"
    return round4(x) if digits == 4 else format(x, f".{digits}f")
