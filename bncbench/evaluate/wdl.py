"""W/D/L matrices and sign-test p-values over data sets (paper 000 Tables 2–3, paper 004 Table 2)."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bncbench.evaluate.coverage import Coverage
from bncbench.evaluate.metrics import in_words
from bncbench.evaluate.report import format_grid
from bncbench.evaluate.stats import compare, parse_draw, sign_test, tally

if TYPE_CHECKING:
    from bncbench.evaluate.ttest import PairedFolds


def outcomes(datasets, values, a: str, b: str, rule: str, lower_is_better: bool,
             folds: PairedFolds | None = None) -> list[int | None]:
    """Per data set, A against B under the draw rule: +1 (A wins), 0 (draw), −1 (A loses) or None
    (not compared: a value is missing; under ttest, the data set has no paired fold values in
    `folds`, which the t-test rule needs)."""
    kind, alpha = parse_draw(rule)
    if kind != "ttest":
        return [None if math.isnan(values[(d, a)][0]) or math.isnan(values[(d, b)][0])
                else compare(values[(d, a)][0], values[(d, b)][0], rule, lower_is_better) for d in datasets]
    if folds is None:
        raise ValueError("the ttest draw rule needs the per-fold values")
    from bncbench.evaluate.ttest import verdict

    fv = folds.values
    return [verdict(fv[(d, a)], fv[(d, b)], folds.test_train_ratio(d), alpha, lower_is_better)
            if (d, a) in fv and (d, b) in fv else None for d in datasets]


def with_folds(datasets: list[str], folds: PairedFolds | None) -> tuple[list[str], dict[str, str]]:
    """(the data sets the t-test can judge, {data set: why not} of the others); all of them and {}
    when the rule needs no folds (`folds` None)."""
    if folds is None:
        return datasets, {}
    return ([d for d in datasets if d in folds.datasets],
            {d: folds.left_out.get(d, "no paired fold values") for d in datasets if d not in folds.datasets})


def matrix(datasets, labels, values, rule: str, lower_is_better: bool, draws: str, tails: str,
           folds: PairedFolds | None = None):
    """{(row, col): (WDL, p)} for every ordered pair of different classifiers. A pair is compared
    on the data sets where both have a value (wins + draws + losses = data sets used); under the
    ttest rule, on those where both have paired fold values in `folds`."""
    out = {}
    for a in labels:
        for b in labels:
            if a == b:
                continue
            r = tally(outcomes(datasets, values, a, b, rule, lower_is_better, folds))
            out[(a, b)] = (r, sign_test(r, draws, tails))
    return out


def left_out(datasets, values, a: str, b: str) -> list[str]:
    """The data sets a pair is not compared on: a value missing (NaN) in either column."""
    return [d for d in datasets if math.isnan(values[(d, a)][0]) or math.isnan(values[(d, b)][0])]


def coverage_notes(datasets, values, rows, cols, excluded: Sequence[str] = (), why: str = "incomplete",
                   absent: dict[str, str] | None = None, unpaired: dict[str, str] | None = None) -> list[str]:
    """Which data sets the W/D/L matrix is computed on, in words (docs/algorithms.md §6.1);
    `unpaired`: {data set: why} of those the t-test rule left out for want of paired fold values."""
    absent, unpaired = absent or {}, unpaired or {}
    total = len(datasets) + len(excluded) + len(absent) + len(unpaired)
    pairs = []
    for a in rows:
        for b in cols:
            if a != b and (b, a) not in pairs:
                pairs.append((a, b))
    miss = {p: left_out(datasets, values, *p) for p in pairs}
    dropped = f"; left out as {why} for every pair: {', '.join(excluded)}" if excluded else ""
    if unpaired:
        reasons = {reason: [d for d in unpaired if unpaired[d] == reason] for reason in unpaired.values()}
        dropped += ("; left out for every pair, no paired fold values for the t-test: "
                    + "; ".join(f"{', '.join(ds)} ({reason})" for reason, ds in reasons.items()))
    if absent:
        dropped += "; not in the results: " + Coverage(list(absent), absent).missing_text()
    distinct = {tuple(m) for m in miss.values()}
    if len(distinct) <= 1:
        common = list(next(iter(distinct))) if distinct else []
        n = len(datasets) - len(common)
        lines = [f"data sets: {n} of {total} used{dropped}" if n != total else f"data sets: {total}, all used"]
        if common:
            lines[0] += f"; left out for a missing value: {', '.join(common)}"
        return lines
    lines = [f"data sets: {total}{dropped}; a pair leaves out the data sets where either has a missing value:"]
    for (a, b), m in miss.items():
        if m:
            lines.append(f"  {a} vs {b}: {len(datasets) - len(m)} used; left out: {', '.join(m)}")
    if not all(miss.values()):
        lines.append(f"  every other pair: {len(datasets)} used")
    return lines


def draw_words(rule: str) -> str:
    """When two classifiers draw on a data set under the draw `rule`, in words."""
    kind, f = parse_draw(rule)
    if kind == "ttest":
        return (f"a win or loss only where the corrected resampled t-test on the data set's paired folds "
                f"rejects equality (two-tailed, α = {format(f, 'g')}; Nadeau & Bengio 2003, as Weka's "
                f"PairedCorrectedTTester), else a draw")
    if kind == "exact4":
        return "equal after rounding to 4 decimals"
    return f"|a−b| ≤ {format(f, 'g')}·max(|a|, |b|)"


def settings_notes(metric: str, lower_is_better: bool, rule: str, draws: str, tails: str) -> list[str]:
    """The metric and its direction, the draw rule and the sign test, in words."""
    draw = draw_words(rule)
    treat = ("draws split evenly between W and L, one dropped if odd" if draws == "split"
             else "draws ignored")
    tail = ("one-tailed, p = P(X ≥ max(W, L))" if tails == "one" else "two-tailed, p = min(1, 2·P(X ≥ max(W, L)))")
    return [f"metric: {metric} ({'lower' if lower_is_better else 'higher'} is better)",
            f"draw: {draw} (--draw {rule})",
            f"sign test: {tail} with X ∼ B(W + L, 1/2) (--tails {tails}); {treat} (--draws {draws})"]


def format_wdl(rows, cols, mat, fmt: str, metric: str, notes: list[str] | None = None, test: str = "sign test",
               adjusted: dict | None = None, decimals: int = 4) -> str:
    """The W/D/L matrix of `rows` against `cols` and its p-values (of `test`, at `decimals` decimals),
    `notes` under them (csv: one line per pair, n = the data sets the pair was compared on; no notes;
    p at full precision). `adjusted` ({(row, col): p}, e.g. Holm's) adds a matrix of adjusted
    p-values (csv: a column p_holm)."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["row", "column", "wins", "draws", "losses", "p", "n"] + (["p_holm"] if adjusted else []))
        for a in rows:
            for b in cols:
                if a != b:
                    r, p = mat[(a, b)]
                    w.writerow([a, b, r.wins, r.draws, r.losses, repr(p), r.wins + r.draws + r.losses]
                               + ([repr(adjusted[(a, b)])] if adjusted else []))
        return buf.getvalue()
    rows_w = [[a] + ["—" if a == b else str(mat[(a, b)][0]) for b in cols] for a in rows]
    rows_p = [[a] + ["—" if a == b else format(mat[(a, b)][1], f".{decimals}f") for b in cols] for a in rows]
    name = in_words(metric, heading=True) if fmt == "latex" else metric  # a paper's caption names it in words
    caption = f"{name}: {'sign-test' if test == 'sign test' else test} p-values"
    out = format_grid(["W-D-L (row vs column)"] + list(cols), rows_w, fmt,
                      caption=f"{name}: wins-draws-losses of the row against the column") + "\n"
    if not adjusted:
        return out + format_grid([f"p ({test})"] + list(cols), rows_p, fmt, caption=caption, notes=notes)
    rows_h = [[a] + ["—" if a == b else format(adjusted[(a, b)], f".{decimals}f") for b in cols] for a in rows]
    return (out + format_grid([f"p ({test})"] + list(cols), rows_p, fmt, caption=caption) + "\n"
            + format_grid([f"p ({test}, Holm)"] + list(cols), rows_h, fmt,
                          caption=f"{caption} adjusted by Holm's procedure", notes=notes))
