"""Win/draw/loss records and binomial sign tests (docs/algorithms.md §6)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

#: the W/D/L settings where a config's or a claims file's `wdl:` section sets none
#: (docs/cli.md: wdl): values equal at 4 decimals draw; draws split; a one-tailed sign test
WDL_DEFAULTS = {"draw": "exact4", "draws": "split", "tails": "one"}
Draws = Literal["split", "ignore"]  # draws in the sign test: half a win and half a loss each, or left out
Tails = Literal["one", "two"]       # the sign test's tails
Test = Literal["sign", "wilcoxon"]  # the test of a W/D/L pair's p-value
Correction = Literal["none", "holm"]  # the adjustment of the p-values for the pairs of a W/D/L matrix
DRAWS: tuple[str, ...] = get_args(Draws)
TAILS: tuple[str, ...] = get_args(Tails)


def round4(x: float) -> str:
    """Correctly rounded 4-decimal text of a double (as printf("%.4f"); not numpy.round)."""
    return format(float(x), ".4f")


def parse_draw(rule: str) -> tuple[str, float]:
    """("exact4", 0), ("relative", F) or ("ttest", ALPHA) of a draw rule (docs/algorithms.md §6.1)."""
    if rule == "exact4":
        return "exact4", 0.0
    kind, sep, arg = rule.partition(":")
    if kind == "ttest" and not sep:
        return "ttest", 0.05
    if kind in ("relative", "ttest") and sep:
        try:
            f = float(arg)
        except ValueError:
            f = math.nan
        if kind == "relative" and f >= 0:
            return "relative", f
        if kind == "ttest" and 0 < f < 1:
            return "ttest", f
    raise ValueError(f"draw rule {rule!r} is not 'exact4', 'relative:F' (F ≥ 0, e.g. relative:0.05) or "
                     f"'ttest[:ALPHA]' (0 < ALPHA < 1, e.g. ttest:0.01)")


def needs_folds(rule: str) -> bool:
    """Whether the draw rule judges a data set on its per-fold values (the t-test) rather than the means."""
    return parse_draw(rule)[0] == "ttest"


def draw_words(rule: str) -> str:
    """When two values draw under `rule`, in words: 'equal at 4 decimals' (exact4), 'at most 5 %
    apart' (relative:0.05: |a − b| ≤ 0.05·max(|a|, |b|)), 'equal' (relative:0), 'no significant
    difference on the folds (corrected resampled t-test, α = 0.05)' (ttest:0.05)."""
    kind, f = parse_draw(rule)
    if kind == "exact4":
        return "equal at 4 decimals"
    if kind == "ttest":
        return f"no significant difference on the folds (corrected resampled t-test, α = {format(f, 'g')})"
    return "equal" if f == 0 else f"at most {format(100 * f, 'g')} % apart"


def compare(a: float, b: float, rule: str, lower_is_better: bool = True) -> int:
    """+1 if a wins over b, 0 for a draw, −1 if a loses (exact4, relative: the t-test needs the folds)."""
    kind, f = parse_draw(rule)
    if kind == "ttest":
        raise ValueError("the ttest draw rule compares per-fold values, not means")
    if kind == "exact4":
        ra, rb = float(round4(a)), float(round4(b))
        if ra == rb:
            return 0
    else:
        if abs(a - b) <= f * max(abs(a), abs(b)):
            return 0
        ra, rb = a, b
    better = ra < rb if lower_is_better else ra > rb
    return 1 if better else -1


@dataclass
class WDL:
    wins: int
    draws: int
    losses: int

    def __str__(self) -> str:
        return f"{self.wins}-{self.draws}-{self.losses}"


def tally(outcomes: Iterable[int | None]) -> WDL:
    """W/D/L of per-data-set outcomes (+1 win, 0 draw, −1 loss; None: not compared)."""
    out = [o for o in outcomes if o is not None]
    return WDL(out.count(1), out.count(0), out.count(-1))


def wdl(a: list[float], b: list[float], rule: str = "exact4", lower_is_better: bool = True) -> WDL:
    """W/D/L of A against B over paired data sets (pairs with a NaN are left out)."""
    return tally(None if math.isnan(x) or math.isnan(y) else compare(x, y, rule, lower_is_better)
                 for x, y in zip(a, b))


def sign_test(r: WDL, draws: str = "split", tails: str = "one") -> float:
    """Binomial sign test p-value (docs/algorithms.md §6.2–6.4)."""
    if draws == "split":
        W, L = r.wins + r.draws // 2, r.losses + r.draws // 2
    elif draws == "ignore":
        W, L = r.wins, r.losses
    else:
        raise ValueError(f"draws must be 'split' or 'ignore', got {draws!r}")
    n = W + L
    if n == 0:
        return 1.0
    if tails == "one":
        return _upper_tail(max(W, L), n)
    if tails == "two":
        return min(1.0, 2.0 * _upper_tail(max(W, L), n))
    raise ValueError(f"tails must be 'one' or 'two', got {tails!r}")


def _upper_tail(k: int, n: int) -> float:
    """P(X ≥ k) for X ~ Binomial(n, 1/2), exact in integers (= P(X ≤ n − k))."""
    return sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n


def goal_difference(outcomes: list[int | None]) -> list[int]:
    """GD(A; B | S_t) for t = 1..len (paper 004 eq. 9): cumulative wins minus losses of per-data-set
    outcomes (+1, 0, −1; None: not compared)."""
    out, gd = [], 0
    for o in outcomes:
        gd += o or 0
        out.append(gd)
    return out


def ranks(values: list[float], lower_is_better: bool = True) -> list[float]:
    """Ranks 1..k of k values, 1 = best; tied values share the average of the ranks they span
    (Demšar 2006, §3.2.2). A NaN is an error: leave such data sets out before ranking."""
    if any(math.isnan(v) for v in values):
        raise ValueError("cannot rank a NaN value")
    order = sorted(range(len(values)), key=lambda i: values[i] if lower_is_better else -values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for t in range(i, j + 1):
            out[order[t]] = (i + j) / 2 + 1  # positions i..j hold ranks i+1..j+1
        i = j + 1
    return out


def average_ranks(table: list[list[float]], lower_is_better: bool = True) -> tuple[list[float], int]:
    """Average ranks of the columns (classifiers) over the rows (data sets) of `table`
    (Demšar 2006): each row ranked by `ranks`, rows holding a NaN left out. Returns (the average
    rank of each column, the number of rows used); the ranks are NaN when no row is usable."""
    k = len(table[0]) if table else 0
    used = [row for row in table if not any(math.isnan(v) for v in row)]
    if not used:
        return [math.nan] * k, 0
    totals = [0.0] * k
    for row in used:
        for c, r in enumerate(ranks(row, lower_is_better)):
            totals[c] += r
    return [t / len(used) for t in totals], len(used)
