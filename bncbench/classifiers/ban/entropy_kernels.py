"""Compiled kernel of BAN-MDL's search (docs/algorithms.md §4.7): the entropy terms T(S ∪ {a}) of a
set S's extensions by many attributes, from one numbering of S. Imported only where BAN fits."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.ban.common_kernels import bucket, pairwise_sum
from bncbench.classifiers.ban.jit import kernel


class Scratch:
    """`extension_terms`' working memory, allocated once per `EntropyTerms` and left zeroed
    between calls where the kernel relies on it (`cnt`, `hist`)."""

    def __init__(self, n_rows: int, cells: int):
        self.start = np.empty(n_rows + 2, dtype=np.int64)
        self.order = np.empty(max(n_rows, 1), dtype=np.int64)
        self.cnt = np.zeros(max(cells, 1), dtype=np.int64)
        self.touched = np.empty(max(cells, 1), dtype=np.int64)
        self.hist = np.zeros(n_rows + 1, dtype=np.int64)
        self.terms = np.empty(max(n_rows, 1))
        self.stack = np.empty((3, 128), dtype=np.int64)  # `pairwise_sum`'s segments
        self.sums = np.empty(128)  # … and partial sums


@kernel
def extension_terms(cols_y, rows, ids, g, attrs, xlogx, out, start, order, cnt, touched, hist, terms, stack, sums):
    """out[t] = T(S ∪ {attrs[t]}) = Σ_v m_v · v ln v over the cells of (S's configuration, x_a, y),
    for the numbering `ids` (g configurations) of S's rows `rows`, where cols_y[a] = x_a·|Y| + y;
    summed as `EntropyTerms.entropy` sums it (v ascending, numpy's pairwise order)."""
    m = rows.shape[0]
    bucket(ids, rows, m, g, start, order)
    for t in range(attrs.shape[0]):
        col = cols_y[attrs[t]]
        top = 0
        for s in range(g):  # a configuration of S at a time: its cells (x_a, y) counted, then cleared
            nt = 0
            for u in range(start[s], start[s + 1]):
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
