"""Compiled kernels of BAN's X² test (docs/algorithms.md §4.7, "The compiled kernel"): the strata of
a batch of tests, their tables, X², df and n_inf with sums in one fixed order, the rows of a
frame, and the tests' outcomes. Imported only where BAN fits (numba's import and compile are paid
there alone)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from llvmlite import binding
from numba import types
from numba.extending import get_cython_function_address

from bncbench.classifiers.ban.common_kernels import bucket, number_repeated, pairwise_sum
from bncbench.classifiers.kernels.jit import kernel
from bncbench.classifiers.kernels.ties import SIGNIFICANT_DIGITS, ZERO

LOG_P_DIRECT = 1e-250  # below this p, ln p comes from the continued fraction (no underflow), in Python
SCALE_LOW = -330  # `x2_outcomes`' scales: 10^e for e = SCALE_LOW … SCALE_LOW + len − 1

# scipy's own C functions of `scipy.special.cython_special` (the ones its Python-level calls run: the same
# bits), named as symbols, so that a kernel calling them is cached on disk (their address is resolved at load)
for _name in ("gammaincc", "gammainc"):
    binding.add_symbol("bncbench_" + _name, get_cython_function_address("scipy.special.cython_special", _name))
_gammaincc: Any = types.ExternalFunction("bncbench_gammaincc", types.float64(types.float64, types.float64, types.intc))
_gammainc: Any = types.ExternalFunction("bncbench_gammainc", types.float64(types.float64, types.float64, types.intc))


class Scratch:
    """The kernels' working memory, allocated once per fit and left zeroed between calls where a
    kernel relies on it (`occ`, `nab`, `na`, `nb`)."""

    def __init__(self, n_rows: int, n_classes: int, max_size: int, n_attrs: int):
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
        self.la = np.empty(max(max_size, 1), dtype=np.int64)
        self.lb = np.empty(max(max_size, 1), dtype=np.int64)
        self.cells = np.zeros(max(n_classes, 1) * max(max_size, 1) ** 2, dtype=np.int64)
        self.hist = np.zeros(rows + 1, dtype=np.int64)
        self.terms = np.empty(rows, dtype=np.float64)
        self.values = np.empty((4, rows), dtype=np.int64)  # x_i, x_j, weight (and suffix stratum) in stratum order
        self.item_values = np.empty((3, rows), dtype=np.int64)  # x_i, x_j and weight of the items in their order
        self.pstart = np.empty(rows + max(n_classes, 1) + 1, dtype=np.int64)  # a Greedy step's prefix bounds
        self.n_prefix = np.empty(n_attrs + 2, dtype=np.int64)  # the number of strata of each prefix numbering
        self.n_suffix = np.empty(n_attrs + 2, dtype=np.int64)  # … and of each suffix numbering
        self.prefix = np.empty((n_attrs + 1, rows), dtype=np.int64)  # a Greedy step's prefix numberings
        self.suffix = np.empty((n_attrs + 1, rows), dtype=np.int64)  # … and suffix numberings
        self.stack = np.empty((3, 128), dtype=np.int64)  # `pairwise_sum`'s segments
        self.sums = np.empty(128)  # … and partial sums


@kernel
def _extend(X, rows, a, r, ids, items, m, g, occ, code, ids2, items2):
    """Refine the numbering `ids` of `items[:m]` (g strata) by attribute a (r values): the new strata
    numbered in ascending (old stratum, value) order, the items of configurations met once (strata
    that can hold no dependence) dropped. Returns (m, g)."""
    G = g * r
    for k in range(m):
        c = ids[k] * r + X[a, rows[items[k]]]
        code[k] = c
        occ[c] += 1
    nxt = number_repeated(occ, G)
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


@kernel
def _sum_strata(SA, SB, SW, rj, los, his, g, nab, na, nb, la, lb, out, t):
    """out[t] = (X², df, n_inf, active) of the strata los[s]:his[s], s < g, of the items whose x_i,
    x_j and weight are SA, SB, SW (in stratum order)."""
    x2 = 0.0
    df = 0.0
    n_inf = 0.0
    active = 0
    for s in range(g):
        lo = los[s]
        hi = his[s]
        if hi - lo < 2:
            continue
        a0 = SA[lo]
        b0 = SB[lo]
        seen_a = False
        seen_b = False
        for k in range(lo + 1, hi):
            seen_a = seen_a or SA[k] != a0
            seen_b = seen_b or SB[k] != b0
            if seen_a and seen_b:
                break
        if not (seen_a and seen_b):
            continue
        ns = 0
        oa = 0
        ob = 0
        for k in range(lo, hi):
            w = SW[k]
            a = SA[k]
            b = SB[k]
            if na[a] == 0:
                la[oa] = a
                oa += 1
            if nb[b] == 0:
                lb[ob] = b
                ob += 1
            nab[a * rj + b] += w
            na[a] += w
            nb[b] += w
            ns += w
        _sort_small(la, oa)
        _sort_small(lb, ob)
        nsf = float(ns)
        x2s = 0.0
        for p in range(oa):
            a = la[p]
            naf = float(na[a])
            for q in range(ob):
                b = lb[q]
                e = naf * float(nb[b])
                dev = nsf * float(nab[a * rj + b]) - e
                x2s += dev * dev / (nsf * e)
        x2 += x2s
        df += nsf / max(nsf - 1.0, 1.0) * ((oa - 1) * (ob - 1))
        n_inf += nsf
        active = 1
        for p in range(oa):
            na[la[p]] = 0
        for q in range(ob):
            nb[lb[q]] = 0
        for k in range(lo, hi):
            nab[SA[k] * rj + SB[k]] = 0
    out[t, 0] = x2
    out[t, 1] = df
    out[t, 2] = n_inf
    out[t, 3] = active


@kernel
def _sort_small(v, n):
    """Insertion sort of v[:n] (a stratum's observed values: a handful)."""
    for k in range(1, n):
        x = v[k]
        m = k - 1
        while m >= 0 and v[m] > x:
            v[m + 1] = v[m]
            m -= 1
        v[m + 1] = x


@kernel
def x2_statistics(X, y, n_classes, sizes, rows, weights, i, j, zs, z_start, out,
                  occ, ids, ids2, items, items2, code, start, order, nab, na, nb, la, lb, values):
    """For each test t, conditioning set zs[z_start[t]:z_start[t+1]] (with the class), counted over
    `rows` with `weights`: out[t] = (X², df, n_inf, 1 if some stratum is active else 0).

    Strata in ascending (y, z_1, …, z_k) order, each stratum's cells in ascending (x_i, x_j) order;
    X² = Σ strata (Σ cells (n_s·n_ab − n_a·n_b)² / (n_s·n_a·n_b)), every sum in that order."""
    M = rows.shape[0]
    SA, SB, SW = values[0], values[1], values[2]
    for t in range(z_start.shape[0] - 1):
        m = M
        g = n_classes
        for k in range(M):
            items[k] = k
            ids[k] = y[rows[k]]
        for q in range(z_start[t], z_start[t + 1]):
            a = zs[q]
            m, g = _extend(X, rows, a, sizes[a], ids, items, m, g, occ, code, ids2, items2)
            ids, ids2 = ids2, ids
            items, items2 = items2, items
        bucket(ids, items, m, g, start, order)
        _gather(X, rows, weights, i, j, order, m, SA, SB, SW)
        _sum_strata(SA, SB, SW, sizes[j], start[:g], start[1:g + 1], g, nab, na, nb, la, lb, out, t)


@kernel
def _gather(X, rows, weights, i, j, order, n, SA, SB, SW):
    """SA, SB, SW[:n] = x_i, x_j and weight of the items order[:n] (a stratum's values in order)."""
    for u in range(n):
        row = rows[order[u]]
        SA[u] = X[i, row]
        SB[u] = X[j, row]
        SW[u] = weights[order[u]]


@kernel
def _refine(X, rows, a, r, prev, g, nxt, occ, code, major):
    """nxt = the numbering `prev` (g strata, −1: dropped) refined by attribute a (r values), in
    ascending (old, value) order, or (value, old) with `major`; configurations met once dropped.
    Returns the new number of strata."""
    M = rows.shape[0]
    for t in range(M):
        if prev[t] >= 0:
            v = X[a, rows[t]]
            c = v * g + prev[t] if major else prev[t] * r + v
            code[t] = c
            occ[c] += 1
    G = g * r
    k = 0
    for c in range(G):
        if occ[c] >= 2:
            occ[c] = k
            k += 1
        else:
            occ[c] = -1
    for t in range(M):
        nxt[t] = occ[code[t]] if prev[t] >= 0 else -1
    for c in range(G):
        occ[c] = 0
    return k


@kernel
def _dense_strata(p, s, H, R, M, A, B, W, occ, code, los, his, SA, SB, SW):
    """The strata of the M items numbered p (prefix) and s (suffix: H numbers; R = the prefix's number
    · H pairs) by one counting sort over the pairs: SA, SB, SW = the items' A, B, W in ascending
    (p, s) order (the order of `x2_statistics`' strata), each pair of two or more items a stratum
    los[g]:his[g]; `occ` (zero on entry, R + 1 long at least) left zeroed. Returns their number."""
    for u in range(M):  # an item outside either numbering counted at R, after every pair
        c = p[u] * H + s[u] if p[u] >= 0 and s[u] >= 0 else R
        code[u] = c
        occ[c] += 1
    pos = 0
    g = 0
    for c in range(R):
        n = occ[c]
        los[g] = pos
        his[g] = pos + n
        g += n >= 2
        occ[c] = pos
        pos += n
    occ[R] = pos
    for u in range(M):
        c = code[u]
        q = occ[c]
        SA[q] = A[u]
        SB[q] = B[u]
        SW[q] = W[u]
        occ[c] = q + 1
    for c in range(R + 1):
        occ[c] = 0
    return g


@kernel
def x2_leave_one_out(X, y, n_classes, sizes, rows, weights, i, j, C, drop, out, occ, ids, items, code, start,
                     pstart, order, nab, na, nb, la, lb, values, item_values, prefix, suffix, gP, gS, reuse,
                     dense_per_item, alpha, per_df, scales, keys, flags):
    """out[t] = the statistic of `x2_statistics` for the set C without C[drop[t]] (a Greedy step),
    and its outcome in keys[:, t] and flags[:, t] (`x2_outcomes`, whose count it returns):
    each subset's strata from the numbering of its prefix (with the class) and of its suffix,
    in the same order as `x2_statistics`, so the values are the same bits. With reuse = b ≥ 0,
    `prefix`, `suffix`, `gP` and `gS` hold the numberings of the previous call, on the same rows,
    for C with an attribute inserted at position b (the step before): those C shares are kept; with
    reuse = −2, `prefix` and `gP` hold those of C on these rows (`x2_whole_set`'s). A subset whose
    (prefix, suffix) pairs number at most `dense_per_item` · M is grouped by `_dense_strata`, another
    by a bucket sort on the suffix then a stable counting sort on the prefix (the same strata)."""
    k = C.shape[0]
    M = rows.shape[0]
    SA, SB, SW = values[0], values[1], values[2]
    P = prefix  # P[m][:M]: strata of (y, C[:m]); gP[m] their number
    S = suffix  # S[m][:M]: strata of C[m:]
    if reuse < 0:
        for t in range(M):
            S[k, t] = 0
        gS[k] = 1
        if reuse == -1:
            for t in range(M):
                P[0, t] = y[rows[t]]
            gP[0] = n_classes
        first_p, last_s = (1 if reuse == -1 else k), k - 1
    else:  # C[:b] is the old C[:b]; C[m:] for m ≥ b is the old C[m + 1:]
        for m in range(max(reuse, 1), k + 1):
            for t in range(M):
                S[m, t] = S[m + 1, t]
            gS[m] = gS[m + 1]
        first_p, last_s = reuse + 1, reuse - 1
    for m in range(first_p, k):
        gP[m] = _refine(X, rows, C[m - 1], sizes[C[m - 1]], P[m - 1], gP[m - 1], P[m], occ, code, False)
    for m in range(min(last_s, k - 1), 0, -1):
        gS[m] = _refine(X, rows, C[m], sizes[C[m]], S[m + 1], gS[m + 1], S[m], occ, code, True)
    A, B, W = item_values[0], item_values[1], item_values[2]
    for u in range(M):  # each item's x_i, x_j and weight, read once per step
        A[u] = X[i, rows[u]]
        B[u] = X[j, rows[u]]
        W[u] = weights[u]
    SS = values[3]
    dense = min(dense_per_item * M, occ.shape[0] - 2)
    for t in range(drop.shape[0]):
        m = drop[t]
        p, s = P[m], S[m + 1]
        if gP[m] * gS[m + 1] <= dense:
            g = _dense_strata(p, s, gS[m + 1], gP[m] * gS[m + 1], M, A, B, W, occ, code, start, order, SA, SB, SW)
            _sum_strata(SA, SB, SW, sizes[j], start, order, g, nab, na, nb, la, lb, out, t)
            continue
        n = 0
        for u in range(M):  # the items of both numberings, in stratum-of-suffix order
            if p[u] >= 0 and s[u] >= 0:
                items[n] = u
                ids[n] = s[u]
                n += 1
        bucket(ids, items, n, gS[m + 1], start, order)
        G = gP[m]  # then stably by prefix (a counting sort), each item's values and suffix stratum carried
        for q in range(G + 1):
            pstart[q] = 0
        for u in range(n):
            ids[u] = p[order[u]]
            pstart[ids[u] + 1] += 1
        for q in range(G):
            pstart[q + 1] += pstart[q]
        for u in range(n):
            it = order[u]
            pos = pstart[ids[u]]
            pstart[ids[u]] = pos + 1
            SA[pos] = A[it]
            SB[pos] = B[it]
            SW[pos] = W[it]
            SS[pos] = s[it]
        g = 0
        lo = 0
        for q in range(G):  # a stratum is a run of equal suffix strata within a prefix stratum: those of
            hi = pstart[q]  # two or more items kept (start, order: their bounds)
            u = lo
            while u < hi:
                e = u + 1
                while e < hi and SS[e] == SS[u]:
                    e += 1
                if e - u >= 2:
                    start[g] = u
                    order[g] = e
                    g += 1
                u = e
            lo = hi
        _sum_strata(SA, SB, SW, sizes[j], start, order, g, nab, na, nb, la, lb, out, t)
    return x2_outcomes(out, alpha, per_df, scales, keys, flags)


@kernel
def x2_whole_set(X, y, n_classes, sizes, rows, weights, i, j, C, out, occ, ids, items, code, start, order, nab, na,
                 nb, la, lb, values, prefix, gP, alpha, per_df, scales, keys, flags):
    """out[0] = the statistic of `x2_statistics` for the set C (two or more attributes) and its
    outcome (`x2_outcomes`, as `x2_leave_one_out` gives it), its strata
    from the prefix numberings of (y, C) that `x2_leave_one_out` builds (the same order, the same
    bits); those numberings are left in `prefix` and `gP` for a Greedy's first step on C."""
    k = C.shape[0]
    M = rows.shape[0]
    P = prefix
    for t in range(M):
        P[0, t] = y[rows[t]]
    gP[0] = n_classes
    for m in range(1, k + 1):
        gP[m] = _refine(X, rows, C[m - 1], sizes[C[m - 1]], P[m - 1], gP[m - 1], P[m], occ, code, False)
    p = P[k]
    n = 0
    for u in range(M):
        if p[u] >= 0:
            items[n] = u
            ids[n] = p[u]
            n += 1
    g = gP[k]
    bucket(ids, items, n, g, start, order)
    _gather(X, rows, weights, i, j, order, n, values[0], values[1], values[2])
    _sum_strata(values[0], values[1], values[2], sizes[j], start[:g], start[1:g + 1], g, nab, na, nb, la, lb, out, 0)
    return x2_outcomes(out, alpha, per_df, scales, keys, flags)


@kernel
def _number_by(X, a, r, ids, out, occ):
    """out = the numbering `ids` of the rows refined by attribute a (r values), configurations
    numbered in the order of their first row (all kept). Returns their number."""
    col = X[a]
    nxt = 0
    for k in range(ids.shape[0]):
        c = ids[k] * r + col[k]
        v = occ[c]
        if v == 0:
            nxt += 1
            occ[c] = v = nxt
        out[k] = v - 1
    for k in range(ids.shape[0]):
        occ[ids[k] * r + col[k]] = 0
    return nxt


@kernel
def number_rows(X, sizes, ids, attrs, out, occ):
    """out[q] = the numbering `ids` of the rows refined by attrs[0], …, attrs[q] (`_number_by`);
    returns the number of configurations after each."""
    g = np.empty(attrs.shape[0], dtype=np.int64)
    for q in range(attrs.shape[0]):
        g[q] = _number_by(X, attrs[q], sizes[attrs[q]], ids if q == 0 else out[q - 1], out[q], occ)
    return g


@kernel
def frame_rows(X, sizes, ids, i, j, occ, ids2, ids3):
    """The distinct rows of (the numbering `ids` of the rows, X_i, X_j) in the order of their first
    row: (that row, the number of rows). The order is free: the tests number strata by value."""
    _number_by(X, i, sizes[i], ids, ids2, occ)
    g = _number_by(X, j, sizes[j], ids2, ids3, occ)
    rep = np.empty(g, dtype=np.int64)
    weight = np.zeros(g, dtype=np.int64)
    for k in range(ids3.shape[0]):
        if weight[ids3[k]] == 0:
            rep[ids3[k]] = k
        weight[ids3[k]] += 1
    return rep, weight


@kernel
def x2_pairs(X, y, n_classes, sizes, pairs, out, entropy, xlogx,
             start, order, nab, na, nb, la, lb, cells, hist, terms, values, stack, sums):
    """The drafting tests T(i, j | ∅) of each pair (i, j) in `pairs`, over the training rows, the same
    bits as `x2_statistics`; and entropy[t] = Σ N(y, x_i, x_j) ln N(y, x_i, x_j) over the cells,
    summed as `EntropyTerms` sums it (Σ_v m_v · v ln v, v ascending, numpy's pairwise order)."""
    N = X.shape[1]
    every = np.arange(N)
    bucket(y, every, N, n_classes, start, order)
    SW = values[2]
    SW[:] = 1
    Xo = np.empty((X.shape[0], N), dtype=np.int64)  # each attribute's column in class order, gathered once
    for a in range(X.shape[0]):
        for u in range(N):
            Xo[a, u] = X[a, order[u]]
    for t in range(pairs.shape[0]):
        i, j = pairs[t, 0], pairs[t, 1]
        rj = sizes[j]
        R = sizes[i] * rj
        SA, SB = Xo[i], Xo[j]
        _sum_strata(SA, SB, SW, rj, start[:n_classes], start[1:n_classes + 1], n_classes, nab, na, nb, la, lb, out, t)
        for c in range(n_classes):
            for u in range(start[c], start[c + 1]):
                cells[c * R + SA[u] * rj + SB[u]] += 1
        top = 0
        for q in range(n_classes * R):
            v = cells[q]
            if v > 0:
                hist[v] += 1
                top = max(top, v)
                cells[q] = 0
        for v in range(1, top + 1):
            terms[v - 1] = float(hist[v]) * xlogx[v]
            hist[v] = 0
        entropy[t] = pairwise_sum(terms, top, stack, sums)


@kernel
def _tie(v, scales):
    """`ties.tie_value` of v, with 10^e read from `scales` (computed as `tie_value` computes it)."""
    if abs(v) < ZERO:
        return 0.0
    if not math.isfinite(v):
        return v
    e = SIGNIFICANT_DIGITS - 1 - math.floor(math.log10(abs(v)))
    scale = scales[e - SCALE_LOW]
    return np.rint(v * scale) / scale


@kernel
def x2_outcomes(stats, alpha, per_df, scales, keys, flags):
    """Items 4–6 of each test t of `stats` (rows X², df, n_inf, active): flags[:, t] = (independent,
    informative), keys[:, t] = (tie(−ln p), tie(X²), ln p), with p = scipy's Q(df/2, X²/2) and ln p
    as `x2_independence.log_gamma_sf` takes it (math's log1p and log: libm's, as Python's). Where
    p < `LOG_P_DIRECT` (ln p from the continued fraction) keys[0, t] and keys[2, t] are left NaN,
    for Python. Returns the number of those."""
    deep = 0
    for t in range(stats.shape[0]):
        x2 = stats[t, 0]
        df = stats[t, 1]
        informative = stats[t, 3] > 0.0 and stats[t, 2] >= per_df * df * (1.0 - 1e-12)
        if informative and x2 > 0.0:
            a = 0.5 * df
            x = 0.5 * x2
            q = _gammaincc(a, x, 0)
            flags[0, t] = q >= alpha
            if q > 0.5:  # near 1: from the lower tail, so that ln p keeps its digits
                log_p = math.log1p(-_gammainc(a, x, 0))
            elif q >= LOG_P_DIRECT:
                log_p = math.log(q)
            else:
                log_p = np.nan
                deep += 1
            keys[0, t] = _tie(-log_p, scales)  # NaN stays NaN
            keys[2, t] = log_p
        else:  # p = 1: independent, κ = (0, tie(X²))
            flags[0, t] = 1.0 >= alpha
            keys[0, t] = 0.0
            keys[2, t] = 0.0
        flags[1, t] = informative
        keys[1, t] = _tie(x2, scales)
    return deep
