"""Win/draw/loss records and binomial sign tests (ALGORITHMS.md §6)."""

from __future__ import annotations

import math
from dataclasses import dataclass



def round4(x: float) -> str:
    """Correctly rounded 4-decimal text of a double (as printf("%.4f"); not numpy.round)."""
    return format(float(x), ".4f")


def parse_draw(rule: str) -> tuple[str, float]:
    if rule == "exact4":
        return "exact4", 0.0
    if rule.startswith("relative:"):
        try:
            f = float(rule.split(":", 1)[1])
        except ValueError:
            f = -1.0
        if f >= 0:
            return "relative", f
    raise ValueError(f"draw rule {rule!r} is not 'exact4' or 'relative:F' (e.g. relative:0.05)")


def compare(a: float, b: float, rule: str, lower_is_better: bool = True) -> int:
    """+1 if a wins over b, 0 for a draw, −1 if a loses."""
    kind, f = parse_draw(rule)
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


def wdl(a: list[float], b: list[float], rule: str = "exact4", lower_is_better: bool = True) -> WDL:
    """W/D/L of A against B over paired data sets (pairs with a NaN are left out)."""
    w = d = l = 0
    for x, y in zip(a, b):
        if math.isnan(x) or math.isnan(y):
            continue
        c = compare(x, y, rule, lower_is_better)
        w += c == 1
        d += c == 0
        l += c == -1
    return WDL(w, d, l)


def sign_test(r: WDL, draws: str = "split", tails: str = "one") -> float:
    """Binomial sign test p-value.

    draws="split": half the draws to each side, one ignored if odd (paper 000, verified);
    "ignore": draws left out. tails="one": P(X ≥ max(W, L)) (tail of the larger count);
    "two": min(1, 2·P(X ≤ min(W, L))).
    """
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


def goal_difference(a: list[float], b: list[float], rule: str = "exact4", lower_is_better: bool = True) -> list[int]:
    """GD(A; B | S_t) for t = 1..len (paper 004 eq. 9): cumulative wins minus losses."""
    out, gd = [], 0
    for x, y in zip(a, b):
        if not (math.isnan(x) or math.isnan(y)):
            gd += compare(x, y, rule, lower_is_better)
        out.append(gd)
    return out
