"""Slow plain-Python references for BAN (docs/algorithms.md §4.7), written from the spec with dict
counts over the rows; they never call bncbench's BAN code."""

from __future__ import annotations

import math
from collections import Counter


def _counts(rows, ys, attrs):
    return Counter((tuple(r[a] for a in attrs), c) for r, c in zip(rows, ys))


def family_loglik(rows, ys, child, parents):
    """Σ N(x_i, π, y) ln(N(x_i, π, y) / N(π, y))."""
    joint = _counts(rows, ys, list(parents) + [child])
    ctx = _counts(rows, ys, list(parents))
    return sum(n * math.log(n / ctx[(key[:-1], c)]) for (key, c), n in joint.items())


def mdl_score(rows, ys, parents, card, n_classes):
    """MDL/BIC score of §4.7 of the class-augmented network."""
    N = len(rows)
    total = 0.0
    for i, par in enumerate(parents):
        cells = (card[i] - 1) * n_classes
        for p in par:
            cells *= card[p]
        total += family_loglik(rows, ys, i, par) - math.log(N) / 2 * cells
    return total


def _acyclic(parents):
    n = len(parents)
    state = [0] * n

    def visit(u):
        state[u] = 1
        for p in parents[u]:
            if state[p] == 1 or (state[p] == 0 and not visit(p)):
                return False
        state[u] = 2
        return True

    return all(state[u] or visit(u) for u in range(n))


def hill_climb(rows, ys, card, n_classes, max_parents, tol=1e-9):
    """§4.7 hc with full rescoring of every candidate network; a candidate must beat the best so
    far by more than `tol` (float noise of the summation), so ties keep the first candidate in
    the order add < delete < reverse, then (parent, child)."""
    n = len(card)
    parents: list[list[int]] = [[] for _ in range(n)]
    cur = mdl_score(rows, ys, parents, card, n_classes)
    while True:
        best, best_score = None, cur
        cands = []
        for p in range(n):
            for c in range(n):
                if p != c and p not in parents[c] and c not in parents[p] and len(parents[c]) < max_parents:
                    new = [list(x) for x in parents]
                    new[c] = sorted(new[c] + [p])
                    cands.append(new)
        for p in range(n):
            for c in range(n):
                if p in parents[c]:
                    new = [list(x) for x in parents]
                    new[c].remove(p)
                    cands.append(new)
        for p in range(n):
            for c in range(n):
                if p in parents[c] and len(parents[p]) < max_parents:
                    new = [list(x) for x in parents]
                    new[c].remove(p)
                    new[p] = sorted(new[p] + [c])
                    cands.append(new)
        for new in cands:
            if not _acyclic(new):
                continue
            s = mdl_score(rows, ys, new, card, n_classes)
            if s > best_score + tol:
                best, best_score = new, s
        if best is None:
            return parents
        parents, cur = best, best_score


def cmi_nats(rows, ys, i, j, Z):
    """I(X_i; X_j | Z, Y) in nats from ML frequencies."""
    N = len(rows)
    Z = list(Z)
    nijz = _counts(rows, ys, [i, j] + Z)
    niz = _counts(rows, ys, [i] + Z)
    njz = _counts(rows, ys, [j] + Z)
    nz = _counts(rows, ys, Z)
    total = 0.0
    for (key, c), n in nijz.items():
        xi, xj, z = key[0], key[1], key[2:]
        total += n / N * math.log(nz[(z, c)] * n / (niz[((xi,) + z, c)] * njz[((xj,) + z, c)]))
    return total


def joint_log_likelihood(rows, ys, parents, card, n_classes, test_rows):
    """ln P̂(y) + Σ_i ln P̂(x_i | π_i, y) with plain Laplace (§2.2 first bullet)."""
    N = len(rows)
    ny = Counter(ys)
    out = []
    for r in test_rows:
        row = []
        for c in range(n_classes):
            s = math.log((ny[c] + 1) / (N + n_classes))
            for i, par in enumerate(parents):
                num = sum(1 for t, yc in zip(rows, ys) if yc == c and t[i] == r[i] and all(t[p] == r[p] for p in par))
                den = sum(1 for t, yc in zip(rows, ys) if yc == c and all(t[p] == r[p] for p in par))
                s += math.log((num + 1) / (den + card[i]))
            row.append(s)
        out.append(row)
    return out
