"""Plain-Python reference k-BAN (docs/algorithms.md §4.6), written from the spec without bncbench code.

Every candidate structure is built explicitly and its leave-one-out accuracy is computed by
refitting the network's counts on the training rows without each instance in turn (the
smoothing cardinalities |X_i| stay those of the whole training set).
"""

from __future__ import annotations

import math
from collections import Counter

from tests.oracles.ties import tie_key


def internal_rows(X, cards):
    """−1 → K_i (the missing slot, one more value)."""
    return [[(v if v >= 0 else cards[i]) for i, v in enumerate(r)] for r in X]


def smoothing_cards(X, cards):
    """|X_i| = K_i, plus 1 if the attribute has a missing value in the training rows."""
    return [cards[i] + (1 if any(r[i] < 0 for r in X) else 0) for i in range(len(cards))]


def ref_cmi(rows, y, n):
    """I(X_i; X_j | Y) in bits from ML frequencies (§3)."""
    N = len(y)
    cmi = [[0.0] * n for _ in range(n)]
    cy = Counter(y)
    for i in range(n):
        for j in range(i + 1, n):
            cij = Counter((r[i], r[j], c) for r, c in zip(rows, y))
            ci = Counter((r[i], c) for r, c in zip(rows, y))
            cj = Counter((r[j], c) for r, c in zip(rows, y))
            s = 0.0
            for (a, b, c), v in cij.items():
                s += (v / N) * math.log2(cy[c] * v / (ci[(a, c)] * cj[(b, c)]))
            cmi[i][j] = cmi[j][i] = tie_key(s)
    return cmi


def log_est(num, den, card, est, m, cells, total):
    if est == "mestimate":
        return math.log((num + m / card) / (den + m))
    if est == "laplace":
        return math.log((num + 1) / (den + card))
    # laplace_joint: P̂(x, π, y) / P̂(π, y), each Laplace-smoothed over its cells
    return math.log((num + 1) / (total + cells * card)) - math.log((den + 1) / (total + cells))


class RefModel:
    """Counts of one structure (tuple of parent tuples) fitted on the given rows."""

    def __init__(self, rows, y, structure, card, C, est, m):
        self.structure, self.card, self.C, self.est, self.m = structure, card, C, est, m
        self.N = len(y)
        self.cy = Counter(y)
        self.joint: Counter[tuple] = Counter()
        self.ctx: Counter[tuple] = Counter()
        for r, c in zip(rows, y):
            for i, par in enumerate(structure):
                pv = tuple(r[p] for p in par)
                self.joint[(i, pv, r[i], c)] += 1
                self.ctx[(i, pv, c)] += 1

    def log_scores(self, r):
        out = []
        for c in range(self.C):
            if self.est == "mestimate":
                s = math.log((self.cy[c] + self.m / self.C) / (self.N + self.m))
            else:
                s = math.log((self.cy[c] + 1) / (self.N + self.C))
            for i, par in enumerate(self.structure):
                pv = tuple(r[p] for p in par)
                cells = self.C
                for p in par:
                    cells *= self.card[p]
                s += log_est(self.joint[(i, pv, r[i], c)], self.ctx[(i, pv, c)], self.card[i], self.est, self.m,
                             cells, self.N)
            out.append(s)
        return out


def argmax_first(v):
    best = 0
    for c in range(1, len(v)):
        if v[c] > v[best]:
            best = c
    return best


def ref_loo_scores(rows, y, structure, card, C, est, m):
    """Per training row, its log scores under the structure refitted without it."""
    out = []
    for t in range(len(y)):
        rest = rows[:t] + rows[t + 1:]
        yr = y[:t] + y[t + 1:]
        out.append(RefModel(rest, yr, structure, card, C, est, m).log_scores(rows[t]))
    return out


def ref_correct(rows, y, structure, card, C, est, m, evaluation):
    if evaluation == "loo":
        scores = ref_loo_scores(rows, y, structure, card, C, est, m)
    else:
        model = RefModel(rows, y, structure, card, C, est, m)
        scores = [model.log_scores(r) for r in rows]
    return sum(1 for s, c in zip(scores, y) if argmax_first(s) == c)


def ref_candidates(i, parents, cmi, k):
    """Improved MRMR (paper 002 eq. 1), redundancy 0 while parents and candidates are empty."""
    n = len(cmi)
    cand: list[int] = []
    while len(cand) + len(parents) < k:
        others = sorted(parents) + cand
        best, best_v = None, None
        for j in range(n):
            if j == i or j in others:
                continue
            red = 0.0
            for a in others:
                red += cmi[a][j]
            v = tie_key(cmi[i][j] - (red / len(others) if others else 0.0))
            if best_v is None or v > best_v:
                best, best_v = j, v
        if best is None:
            break
        cand.append(best)
    return cand


def ref_edge_sets(cand, i):
    """Edge sets of each size s = 1..c, each size in lexicographic order of (candidate position,
    direction 'in' < 'out'), generated recursively (first arc, then arcs of later candidates)."""
    def rec(start, s):
        if s == 0:
            yield []
            return
        for pos in range(start, len(cand)):
            for d in ("in", "out"):
                arc = (cand[pos], i) if d == "in" else (i, cand[pos])
                for rest in rec(pos + 1, s - 1):
                    yield [arc] + rest
    out = []
    for s in range(1, len(cand) + 1):
        out.extend(rec(0, s))
    return out


def acyclic(parents):
    """Kahn: repeatedly remove nodes all of whose parents are removed."""
    left = set(range(len(parents)))
    changed = True
    while changed:
        changed = False
        for v in sorted(left):
            if not (set(parents[v]) & left):
                left.discard(v)
                changed = True
    return not left


def ref_kban(X, y, cards, C, k, est="laplace", m=1.0, evaluation="loo", X_test=()):
    """(parents per attribute, trace of accuracies, test posteriors)."""
    rows = internal_rows(X, cards)
    y = list(y)
    card = smoothing_cards(X, cards)
    n = len(cards)
    N = len(y)
    cmi = ref_cmi(rows, y, n)
    parents: list[frozenset[int]] = [frozenset() for _ in range(n)]
    cur = ref_correct(rows, y, tuple(tuple(sorted(p)) for p in parents), card, C, est, m, evaluation)
    trace = [cur / N]
    handled = set()
    while True:
        best = None
        best_correct = cur
        best_i = None
        for i in range(n):
            if i in handled:
                continue
            for arcs in ref_edge_sets(ref_candidates(i, parents[i], cmi, k), i):
                if any(a in parents[b] or b in parents[a] for a, b in arcs):
                    continue
                new = list(parents)
                for a, b in arcs:
                    new[b] = new[b] | {a}
                if any(len(p) > k for p in new) or not acyclic(new):
                    continue
                got = ref_correct(rows, y, tuple(tuple(sorted(p)) for p in new), card, C, est, m, evaluation)
                if got > best_correct:
                    best, best_correct, best_i = new, got, i
        if best is None:
            break
        parents, cur = best, best_correct
        handled.add(best_i)
        trace.append(cur / N)
    structure = tuple(tuple(sorted(p)) for p in parents)
    model = RefModel(rows, y, structure, card, C, est, m)
    post = []
    for r in internal_rows(X_test, cards):
        s = model.log_scores(r)
        mx = max(s)
        e = [math.exp(v - mx) for v in s]
        z = sum(e)
        post.append([v / z for v in e])
    return [list(p) for p in structure], trace, post
