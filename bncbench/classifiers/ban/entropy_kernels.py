"""Compiled kernel of BAN-MDL's search (docs/algorithms.md §4.7): the entropy terms T(S ∪ {a}) of a
set S's extensions by many attributes, from one numbering of S. Imported only where BAN fits."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.ban.common_kernels import bucket, number_repeated, pairwise_sum
from bncbench.classifiers.kernels.jit import inner_kernel, kernel


class Scratch:
    """`extension_terms`' working memory, allocated once per `EntropyTerms` and left zeroed
    between calls where the kernel relies on it (`cnt`, `hist`, `tables`, `small`)."""

    def __init__(self, n_rows: int, cells: int):
        self.start = np.empty(n_rows + 2, dtype=np.int64)
        self.order = np.empty(max(n_rows, 1), dtype=np.int64)
        self.cnt = np.zeros(max(cells, 1), dtype=np.int64)
        self.touched = np.empty(max(cells, 1), dtype=np.int64)
        self.hist = np.zeros(n_rows + 1, dtype=np.int64)
        self.terms = np.empty(max(n_rows, 1))
        self.stack = np.empty((3, 128), dtype=np.int64)  # `pairwise_sum`'s segments
        self.sums = np.empty(128)  # … and partial sums
        self.tables = np.zeros(4 * max(n_rows, 1), dtype=np.int32)  # 4 interleaved count tables, ≤ n cells each
        self.small = np.zeros(4 * max(cells, 1), dtype=np.int64)  # … of one configuration's cells


@inner_kernel
def _tally(tables, cells, hist, top):
    """The counts of `cells` cells, split over 4 interleaved tables of `tables`, added to the
    histogram `hist` (count → cells) and cleared; returns the largest count and `top`'s maximum."""
    for c in range(cells):
        v = tables[c] + tables[cells + c] + tables[2 * cells + c] + tables[3 * cells + c]
        if v > 0:
            tables[c] = 0
            tables[cells + c] = 0
            tables[2 * cells + c] = 0
            tables[3 * cells + c] = 0
            hist[v] += 1
            top = max(top, v)
    return top


@kernel
def extension_terms(cols_y, rows, ids, g, attrs, xlogx, out, start, order, cnt, touched, hist, terms, stack, sums,
                    tables, small, radix):
    """out[t] = T(S ∪ {attrs[t]}) = Σ_v m_v · v ln v over the cells of (S's configuration, x_a, y),
    for the numbering `ids` (g configurations) of S's rows `rows`, where cols_y[a] = x_a·|Y| + y
    (radix[a] = |X_a|·|Y| values); summed as `EntropyTerms.entropy` sums it (v ascending, numpy's
    pairwise order). The histogram m_v does not depend on how the cells are counted: where the g·|X_a|·|Y|
    cells are at most the rows, all rows are counted at once into 4 interleaved tables (consecutive
    increments of one cell do not wait for each other); otherwise a configuration at a time, its
    rows bucketed once, into 4 interleaved tables of its cells where it has at least twice as many
    rows as cells, else into the cells it touches."""
    m = rows.shape[0]
    bucketed = False
    for t in range(attrs.shape[0]):
        col = cols_y[attrs[t]]
        r = radix[attrs[t]]
        top = 0
        if g * r <= m:
            gr = g * r
            k = 0
            while k + 4 <= m:
                tables[ids[k] * r + col[rows[k]]] += 1
                tables[gr + ids[k + 1] * r + col[rows[k + 1]]] += 1
                tables[2 * gr + ids[k + 2] * r + col[rows[k + 2]]] += 1
                tables[3 * gr + ids[k + 3] * r + col[rows[k + 3]]] += 1
                k += 4
            while k < m:
                tables[ids[k] * r + col[rows[k]]] += 1
                k += 1
            top = _tally(tables, gr, hist, top)
        else:
            if not bucketed:
                bucket(ids, rows, m, g, start, order)
                bucketed = True
            for s in range(g):  # a configuration of S at a time: its cells (x_a, y) counted, then cleared
                lo, hi = start[s], start[s + 1]
                if hi - lo >= 2 * r:
                    u = lo
                    while u + 4 <= hi:
                        small[col[order[u]]] += 1
                        small[r + col[order[u + 1]]] += 1
                        small[2 * r + col[order[u + 2]]] += 1
                        small[3 * r + col[order[u + 3]]] += 1
                        u += 4
                    while u < hi:
                        small[col[order[u]]] += 1
                        u += 1
                    top = _tally(small, r, hist, top)
                    continue
                nt = 0
                for u in range(lo, hi):
                    c = col[order[u]]
                    if cnt[c] == 0:
                        touched[nt] = c
                        nt += 1
                    cnt[c] += 1
                for q in range(nt):
                    v = cnt[touched[q]]
                    hist[v] += 1
                    top = max(top, v)
                    cnt[touched[q]] = 0
        for v in range(1, top + 1):
            terms[v - 1] = float(hist[v]) * xlogx[v]
            hist[v] = 0
        out[t] = pairwise_sum(terms, top, stack, sums)


@kernel
def number_extension(rows, prev, g, col, r, occ, rows_out, ids_out):
    """`EntropyTerms.extend` compiled: the configurations (prev·r + col[row]) of the rows `rows`
    numbered in ascending order among those met more than once (occ: g·r zeros, left zeroed),
    their rows and numbers written to rows_out and ids_out; returns (rows kept, configurations)."""
    m = rows.shape[0]
    for k in range(m):
        occ[prev[k] * r + col[rows[k]]] += 1
    g_out = number_repeated(occ, g * r)
    kept = 0
    for k in range(m):
        c = prev[k] * r + col[rows[k]]
        if occ[c] >= 0:
            rows_out[kept] = rows[k]
            ids_out[kept] = occ[c]
            kept += 1
    for c in range(g * r):
        occ[c] = 0
    return kept, g_out

