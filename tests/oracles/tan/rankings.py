"""Plain-Python reference of STAN's five attribute rankings (docs/algorithms.md §4.5.1, with the
measures of §3), from dict counts over the rows. It never imports or copies bncbench code.

Data without missing values (codes ≥ 0). Every measure is in bits from ML frequencies:

* MI `I(X; Y)`, SU `2·I(X; Y)/(H(X) + H(Y))` (0 when the denominator is 0);
* MRMR (ratio, eq. 14): first argmax I(X; Y), then argmax `I(X; Y) / ((1/k) Σ_{X' ∈ A_S} I(X; X') +
  offset)`; difference (eq. 10): `I(X; Y) − (1/k) Σ I(X; X')`;
* CMIM: first argmax I(X; Y), then argmax `min_{X' ∈ A_S} I(X; Y | X')`;
* JMI: first argmax I(X; Y), then argmax `Σ_{X' ∈ A_S} I(X, X'; Y)`, where `I(X, X'; Y)` is computed
  here directly as the MI of the joint variable (X, X') with the class (not through the identity
  `I(X'; Y) + I(X; Y | X')`).

Ties → the smallest attribute index. `rank(...)` also returns, per position, the gap between the
chosen score and the best other candidate's, so a test can check that no pick is a near tie
(where float summation order, not the rule, would decide).
"""

from __future__ import annotations

import math
from collections import Counter


def _h(labels) -> float:
    n = len(labels)
    return -sum(k / n * math.log2(k / n) for k in Counter(labels).values())


def mi(a, b) -> float:
    """I(A; B) in bits of two equally long label sequences (labels may be tuples)."""
    n = len(a)
    cab, ca, cb = Counter(zip(a, b)), Counter(a), Counter(b)
    return sum(k / n * math.log2(k * n / (ca[u] * cb[v])) for (u, v), k in cab.items())


def cmi(a, b, z) -> float:
    """I(A; B | Z) in bits: Σ P(a, b, z) log2 [P(z) P(a, b, z) / (P(a, z) P(b, z))]."""
    n = len(a)
    cabz, caz, cbz, cz = Counter(zip(a, b, z)), Counter(zip(a, z)), Counter(zip(b, z)), Counter(z)
    return sum(k / n * math.log2(cz[w] * k / (caz[(u, w)] * cbz[(v, w)])) for (u, v, w), k in cabz.items())


def su(a, b) -> float:
    d = _h(a) + _h(b)
    return 2 * mi(a, b) / d if d > 0 else 0.0


def _pick(scores: dict[int, float]) -> tuple[int, float]:
    """argmax over candidates in index order (strict: ties → smallest index) and the gap to the
    runner-up (inf with one candidate)."""
    items = sorted(scores.items())
    best, best_s = items[0]
    for a, s in items[1:]:
        if s > best_s:
            best, best_s = a, s
    rest = [s for a, s in items if a != best]
    return best, (best_s - max(rest)) if rest else math.inf


def rank(X, y, method: str, mrmr_form: str = "ratio", offset: float = 0.01) -> tuple[list[int], list[float]]:
    """(order, gaps): the full ranking of the columns of X (rows of codes) and, per position, the
    margin by which the pick won."""
    n = len(X[0])
    cols = [[r[i] for r in X] for i in range(n)]
    y = list(y)
    rel = {i: mi(cols[i], y) for i in range(n)}
    if method in ("mi", "su"):
        score = rel if method == "mi" else {i: su(cols[i], y) for i in range(n)}
        order, gaps, left = [], [], dict(score)
        while left:
            a, g = _pick(left)
            order.append(a)
            gaps.append(g)
            del left[a]
        return order, gaps
    a, g = _pick(rel)
    order, gaps = [a], [g]
    while len(order) < n:
        cand = [c for c in range(n) if c not in order]
        if method == "mrmr":
            red = {c: sum(mi(cols[c], cols[s]) for s in order) / len(order) for c in cand}
            if mrmr_form == "ratio":
                score = {c: rel[c] / (red[c] + offset) for c in cand}
            else:
                score = {c: rel[c] - red[c] for c in cand}
        elif method == "cmim":
            score = {c: min(cmi(cols[c], y, cols[s]) for s in order) for c in cand}
        elif method == "jmi":
            score = {c: sum(mi(list(zip(cols[c], cols[s])), y) for s in order) for c in cand}
        else:
            raise ValueError(method)
        a, g = _pick(score)
        order.append(a)
        gaps.append(g)
    return order, gaps
