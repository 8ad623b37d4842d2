"""Plain-Python reference of Friedman's BAN by hill climbing (`BAN(method="hc")`), written from
docs/algorithms.md §4.7. It never imports or copies bncbench code.

Spec: greedy hill climbing over arcs between attributes, from naive Bayes (no attribute parents);
operators add, delete or reverse one arc; acyclic; at most `max_parents` attribute parents; score
the MDL/BIC of the class-augmented network

    Σ_i [ Σ_{x_i, π_i, y} N(x_i, π_i, y) ln (N(x_i, π_i, y)/N(π_i, y)) − (ln N / 2)·(|X_i| − 1)·|Y|·Π_{j∈π_i} |X_j| ];

each step applies the best strictly improving move; ties → add < delete < reverse, then (parent,
child) index (for a reversal, the arc as it was).

Exact ties. Twice a family's score is `2·Σ_cells n ln n (over (π ∪ {i}, y)) − 2·Σ_cells n ln n
(over (π, y)) − cells·ln N`, an integer combination of logarithms of integers, so every score
difference has an exact canonical form over the logarithms of primes (`tests/oracles/exact.py`).
Moves are compared on these forms: "equal" means equal in exact arithmetic (Markov-equivalent moves,
relabelled copies of a column), not equal floats, and "strictly improving" means an exactly
positive difference. Floats only pre-select: differences further apart than `TOL` are compared as
floats, closer ones exactly.
"""

from __future__ import annotations

import math
from collections import Counter

from tests.oracles.exact import Form

TOL = 1e-7  # nats; far above the float error of the sums, far below any real score difference


class Scores:
    """Family scores of one data set, counted from the rows with dicts and cached by attribute set."""

    def __init__(self, X, y, card, n_classes: int):
        self.cols = [[int(v) for v in col] for col in zip(*X)] if len(X) else []
        self.y = [int(c) for c in y]
        self.N = len(self.y)
        self.card = [int(c) for c in card]
        self.Y = n_classes
        self._T: dict[frozenset, tuple[Form, float]] = {}
        self._fam: dict[tuple[int, frozenset], tuple[Form, float]] = {}

    def T(self, attrs: frozenset) -> tuple[Form, float]:
        """Σ N(s, y) ln N(s, y) over the configurations s of `attrs` with the class (form, float)."""
        t = self._T.get(attrs)
        if t is None:
            cols = [self.cols[a] for a in sorted(attrs)] + [self.y]
            f = Form.xlnx(Counter(zip(*cols)).values())
            t = self._T[attrs] = (f, f.value())
        return t

    def family(self, child: int, parents: frozenset) -> tuple[Form, float]:
        """Twice the family's score (exact form and float)."""
        key = (child, parents)
        t = self._fam.get(key)
        if t is None:
            cells = (self.card[child] - 1) * self.Y
            for p in parents:
                cells *= self.card[p]
            joint, ctx = self.T(parents | {child}), self.T(parents)
            f = joint[0] * 2 - ctx[0] * 2 - Form.ln(self.N, cells)
            t = self._fam[key] = (f, f.value())
        return t

    def network(self, parents) -> float:
        """The MDL/BIC score of a network (float), as §4.7 defines it."""
        return sum(self.family(i, frozenset(p))[1] for i, p in enumerate(parents)) / 2


def _descendants(parents: list[set], a: int, skip: tuple[int, int] | None = None) -> set:
    """The nodes reachable from a by a directed path of length ≥ 1 (ignoring the arc `skip`)."""
    children = [[c for c in range(len(parents)) if p in parents[c] and (p, c) != skip] for p in range(len(parents))]
    seen, stack = set(), [a]
    while stack:
        for v in children[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def hill_climb(X, y, card, n_classes: int, max_parents: int, scores: Scores | None = None):
    """(parents, number of moves): the sorted attribute parents of each attribute."""
    S = scores or Scores(X, y, card, n_classes)
    n = len(S.card)
    parents: list[set] = [set() for _ in range(n)]
    moves = 0
    while True:
        cands = []  # (difference form thunk, float), in tie order

        def change(fams):
            """The score difference (twice) of giving each (child, new parent set) in `fams`."""
            new = [S.family(c, frozenset(par)) for c, par in fams]
            old = [S.family(c, frozenset(parents[c])) for c, _ in fams]
            value = math.fsum([v for _, v in new] + [-v for _, v in old])

            def form(new=new, old=old):
                f = Form()
                for g, _ in new:
                    f = f + g
                for g, _ in old:
                    f = f - g
                return f
            return form, value

        below = [_descendants(parents, a) for a in range(n)]
        for p in range(n):  # add p → c: legal if c does not already reach p
            for c in range(n):
                if p != c and p not in parents[c] and len(parents[c]) < max_parents and p not in below[c]:
                    cands.append(("add", p, c) + change([(c, parents[c] | {p})]))
        for p in range(n):  # delete p → c
            for c in range(n):
                if p in parents[c]:
                    cands.append(("delete", p, c) + change([(c, parents[c] - {p})]))
        for p in range(n):  # reverse p → c into c → p: legal if no other path p ⇝ c remains
            for c in range(n):
                if p in parents[c] and len(parents[p]) < max_parents:
                    if c not in _descendants(parents, p, skip=(p, c)):
                        cands.append(("reverse", p, c) + change([(c, parents[c] - {p}), (p, parents[p] | {c})]))
        best = None
        for cand in cands:  # the first exact maximum
            if best is None:
                best = cand
                continue
            d = cand[4] - best[4]
            if d > TOL or (abs(d) <= TOL and (cand[3]() - best[3]()).sign() > 0):
                best = cand
        if best is None:
            break
        v = best[4]
        if not (v > TOL or (abs(v) <= TOL and best[3]().sign() > 0)):
            break
        op, p, c = best[:3]
        if op == "add":
            parents[c].add(p)
        elif op == "delete":
            parents[c].discard(p)
        else:
            parents[c].discard(p)
            parents[p].add(c)
        moves += 1
    return [sorted(par) for par in parents], moves
