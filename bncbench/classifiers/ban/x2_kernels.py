"""Compiled kernels of BAN's X² test (docs/algorithms.md §4.7, "The compiled kernel"): the strata of
a batch of tests, their tables, X², df and n_inf with sums in one fixed order, and the rows of a
frame. Imported only where BAN fits (numba's import and compile are paid there alone)."""

from __future__ import annotations

import numpy as np
from numba import njit


class Scratch:
    """The kernels' working memory, allocated once per fit and left zeroed between calls where a
    kernel relies on it (`occ`, `nab`, `na`, `nb`)."""

    def __init__(self, n_rows: int, n_classes: int, max_size: int):
        rows = max(n_rows, 1)
        self.occ = np.zeros(max(rows, n_classes) * max(max_size, 1) + 1, dtype=np.int64)
        self.ids = np.empty(rows, dtype=np.int64)
        self.ids2 = np.empty(rows, dtype=np.int64)
        self.items = np.empty(rows, dtype=np.int64)
        self.items2 = np.empty(rows, dtype=np.int64)
        self.code = np.empty(rows, dtype=np.int64)
        self.start = np.empty(rows + max(n_classes, 1) + 1, dtype=np.int64)
        self.order = np.empty(rows, dtype=np.int64)
        self.nab = np.zeros(max(max_size, 1) ** 2, dtype=np.int64)
        self.na = np.zeros(max(max_size, 1), dtype=np.int64)
        self.nb = np.zeros(max(max_size, 1), dtype=np.int64)


@njit(cache=True, nogil=True)
def _extend(X, rows, a, r, ids, items, m, g, occ, code, ids2, items2, keep_single):
    """Refine the numbering `ids` of `items[:m]` (g strata) by attribute a (r values): the new strata
    numbered in ascending (old stratum, value) order; with `keep_single` False, the items of
    configurations met once (strata that can hold no dependence) are dropped. Returns (m, g)."""
    G = g * r
    for k in range(m):
        c = ids[k] * r + X[a, rows[items[k]]]
        code[k] = c
        occ[c] += 1
    least = 1 if keep_single else 2
    nxt = 0
    for c in range(G):
        if occ[c] >= least:
            occ[c] = nxt
            nxt += 1
        else:
            occ[c] = -1
    m2 = 0
    for k in range(m):
        s = occ[code[k]]
        if s >= 0:
            items2[m2] = items[k]
            ids2[m2] = s
            m2 += 1
    for c in range(G):
        occ[c] = 0
    return m2, nxt


@njit(cache=True, nogil=True)
def x2_statistics(X, y, n_classes, sizes, rows, weights, i, j, zs, z_start, out,
                  occ, ids, ids2, items, items2, code, start, order, nab, na, nb):
    """For each test t, conditioning set zs[z_start[t]:z_start[t+1]] (with the class), counted over
    `rows` with `weights`: out[t] = (X², df, n_inf, 1 if some stratum is active else 0).

    Strata in ascending (y, z_1, …, z_k) order, each stratum's cells in ascending (x_i, x_j) order;
    X² = Σ strata (Σ cells (n_s·n_ab − n_a·n_b)² / (n_s·n_a·n_b)), every sum in that order."""
    ri = sizes[i]
    rj = sizes[j]
    M = rows.shape[0]
    for t in range(z_start.shape[0] - 1):
        m = M
        g = n_classes
        for k in range(M):
            items[k] = k
            ids[k] = y[rows[k]]
        for q in range(z_start[t], z_start[t + 1]):
            a = zs[q]
            m, g = _extend(X, rows, a, sizes[a], ids, items, m, g, occ, code, ids2, items2, False)
            ids, ids2 = ids2, ids
            items, items2 = items2, items
        # the items of each stratum, strata in order (a counting sort)
        for s in range(g + 1):
            start[s] = 0
        for k in range(m):
            start[ids[k] + 1] += 1
        for s in range(g):
            start[s + 1] += start[s]
        for k in range(m):
            s = ids[k]
            order[start[s]] = items[k]
            start[s] += 1
        x2 = 0.0
        df = 0.0
        n_inf = 0.0
        active = 0
        lo = 0
        for s in range(g):
            hi = start[s]
            ns = 0
            for k in range(lo, hi):
                row = rows[order[k]]
                w = weights[order[k]]
                a = X[i, row]
                b = X[j, row]
                nab[a * rj + b] += w
                na[a] += w
                nb[b] += w
                ns += w
            oa = 0
            for a in range(ri):
                if na[a] > 0:
                    oa += 1
            ob = 0
            for b in range(rj):
                if nb[b] > 0:
                    ob += 1
            d = (oa - 1) * (ob - 1)
            if d > 0:
                nsf = float(ns)
                x2s = 0.0
                for a in range(ri):
                    if na[a] > 0:
                        for b in range(rj):
                            if nb[b] > 0:
                                e = float(na[a]) * float(nb[b])
                                dev = nsf * float(nab[a * rj + b]) - e
                                x2s += dev * dev / (nsf * e)
                x2 += x2s
                df += nsf / max(nsf - 1.0, 1.0) * d
                n_inf += nsf
                active = 1
            for k in range(lo, hi):
                row = rows[order[k]]
                a = X[i, row]
                b = X[j, row]
                nab[a * rj + b] = 0
                na[a] = 0
                nb[b] = 0
            lo = hi
        out[t, 0] = x2
        out[t, 1] = df
        out[t, 2] = n_inf
        out[t, 3] = active


@njit(cache=True, nogil=True)
def frame_rows(X, y, n_classes, sizes, C0, i, j, occ, ids, ids2, items, items2, code):
    """The distinct rows of (Y, C0, X_i, X_j) in ascending order of that configuration: (one
    representative row of each, its number of rows)."""
    n = X.shape[1]
    m = n
    g = n_classes
    for k in range(n):
        items[k] = k
        ids[k] = y[k]
    every = np.arange(n)
    for q in range(C0.shape[0] + 2):
        a = C0[q] if q < C0.shape[0] else i if q == C0.shape[0] else j
        m, g = _extend(X, every, a, sizes[a], ids, items, m, g, occ, code, ids2, items2, True)
        ids, ids2 = ids2, ids
        items, items2 = items2, items
    rep = np.empty(g, dtype=np.int64)
    weight = np.zeros(g, dtype=np.int64)
    for k in range(m - 1, -1, -1):  # the first row of each configuration represents it
        rep[ids[k]] = items[k]
        weight[ids[k]] += 1
    return rep, weight
