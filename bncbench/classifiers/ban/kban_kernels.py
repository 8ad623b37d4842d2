"""Compiled kernels of k-BAN's structure scorer (docs/algorithms.md §4.6, code notes): the watched
rows' leads of a candidate's changed factors and the bounds they give. Imported only where k-BAN
fits (numba's import and compile are paid there alone)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.jit import inner_kernel, kernel


@kernel
def lead(flat, both, cells, rows, shift, base, out):
    """out[r] = (own estimate − other class's estimate) − base[r] at watched row rows[r]: the row's
    entry flat[rows[r]] of `both` (own estimates, then the table) less the entry cells · shift[r]
    after it, in the order numpy would compute them."""
    for r in range(rows.size):
        at = flat[rows[r]]
        out[r] = (both[at] - both[at + cells * shift[r]]) - base[r]


@kernel
def bounds(flats, arena, slot, off, cells, base_of, rows, shift, idx, n_wrong, gap_wrong, lost_below, base_correct,
           out):
    """Per candidate c, base_correct + the wrong rows whose summed lead reaches their gap − the
    watched right rows it drops below their runner-up (`StructureScorer.upper_bounds`). Key k's
    estimates are `both` (own estimates, then the table) at arena[off[k]:], its rows' entries in
    flats[slot[k]]; its log-odds at watched row rows[r] are computed as `lead` computes them, and its
    lead is those less the log-odds of key base_of[k] (its child's base parents; −1: a base key,
    no lead); candidate c's leads are keys idx[c, 0], idx[c, 1], … (−1: none) added in that order."""
    n_keys, n_rows = slot.size, rows.size
    odds = np.empty((n_keys, n_rows))
    for k in range(n_keys):
        flat, o, width = flats[slot[k]], off[k], cells[k]
        for r in range(n_rows):
            at = o + flat[rows[r]]
            odds[k, r] = arena[at] - arena[at + width * shift[r]]
    for k in range(n_keys):
        b = base_of[k]
        if b >= 0:
            for r in range(n_rows):
                odds[k, r] = odds[k, r] - odds[b, r]
    n_right = n_rows - n_wrong
    s = np.empty(n_rows)
    for c in range(idx.shape[0]):  # contiguous passes over the rows, which the compiler vectorises
        lead = odds[idx[c, 0]]
        if idx.shape[1] > 1 and idx[c, 1] >= 0:
            for r in range(n_rows):
                s[r] = lead[r] + odds[idx[c, 1], r]
            for w in range(2, idx.shape[1]):
                k = idx[c, w]
                if k >= 0:
                    for r in range(n_rows):
                        s[r] += odds[k, r]
            lead = s
        got = base_correct
        for r in range(n_wrong):
            if gap_wrong[r] <= lead[r]:
                got += 1
        for r in range(n_right):
            if lead[n_wrong + r] < lost_below[r]:
                got -= 1
        out[c] = got


@kernel
def ranks(head, size, col, n, out):
    """out[r] = the index of key head[r] · size + col[r] (in [0, n · size)) in a range of about the
    keys' distinct values, and that range's size returned (`kban_scorer._ranks`): the key itself
    where the range is at most a quarter of the rows, else its rank among the distinct keys."""
    space = n * size
    for r in range(head.size):
        out[r] = head[r] * size + col[r]
    if 4 * space <= head.size:
        return space
    if space <= max(4 * head.size, 1 << 20):  # ranks by a presence vector
        rank = np.zeros(space, dtype=np.int64)
        for r in range(head.size):
            rank[out[r]] = 1
        distinct = 0
        for v in range(space):
            if rank[v]:
                rank[v] = distinct
                distinct += 1
        for r in range(head.size):
            out[r] = rank[out[r]]
        return distinct
    order = np.argsort(out)  # ranks by sorting
    distinct, last = -1, -1
    for q in range(order.size):
        v = out[order[q]]
        if q == 0 or v != last:
            distinct += 1
            last = v
        out[order[q]] = distinct
    return distinct + 1


@kernel
def entries(cell, n_cells, ctx, y, n_classes, ctx_counts, flat, num, den):
    """One estimate's counts (`StructureScorer._estimate_many`): per row r its (own class, cell)
    entry flat[r] = y[r] · n_cells + cell[r]; num[e] += 1 per row at entry e (num zero before: the
    counts N(π, x, y) as floats); den[c · n_cells + k] = ctx_counts[c, the configuration of cell k]
    (N(π, y); a cell no row has: configuration 0)."""
    cell_ctx = np.zeros(n_cells, dtype=np.int64)
    for r in range(cell.size):
        e = y[r] * n_cells + cell[r]
        flat[r] = e
        num[e] += 1.0
        cell_ctx[cell[r]] = ctx[r]
    for c in range(n_classes):
        for k in range(n_cells):
            den[c * n_cells + k] = ctx_counts[c, cell_ctx[k]]


@inner_kernel
def _top_and_first_nan(a, top, first_nan):
    """Per column r of the (|Y|, m) scores a: top[r] = the max folded class by class from class 0
    (`a[c, r] if a[c, r] > top[r] else top[r]`: a NaN is passed over), first_nan[r] = the first class
    whose score is NaN (−1: none)."""
    n_classes, m = a.shape
    for r in range(m):
        top[r] = a[0, r]
        first_nan[r] = -1
    for c in range(n_classes):
        ac = a[c]
        for r in range(m):
            top[r] = ac[r] if ac[r] > top[r] else top[r]
            if first_nan[r] < 0 and np.isnan(ac[r]):
                first_nan[r] = c


@kernel
def swapped(flats, arena, slot, off, cells, base_sum, rows, y, tie_tol, hit, close):
    """Per row rows[r], the base's in-order scores base_sum[:, rows[r]] with changed factors swapped
    (`StructureScorer._hits`): keys 2j (a changed child's base parents) and 2j + 1 (its new ones),
    for j = 0, 1, …, read as `lead` reads them (own class: arena[off + flat]; class c: |Y| + c − y
    tables further), each score less the old factor then plus the new one, in that order; then, as
    numpy computes them, the best score top (NaN if any is), hit[r] = the true class's score == top
    (NaN top: the first NaN class is the true one, argmax's rule), and close[r] = more than one class
    at or above top − tie_tol · max(1, |top|). Class by class, in passes over the rows."""
    n_classes, n_keys, m = base_sum.shape[0], slot.size, rows.size
    own = np.empty(m, dtype=np.int64)
    for r in range(m):
        own[r] = y[rows[r]]
    mine = np.empty((n_keys, m), dtype=np.int64)  # each key's entry of the row's own class
    tab = np.empty((n_keys, m), dtype=np.int64)  # and of class 0 (class c: c tables further)
    for k in range(n_keys):
        flat, o, width = flats[slot[k]], off[k], cells[k]
        for r in range(m):
            e = o + flat[rows[r]]
            mine[k, r] = e
            tab[k, r] = e + width * (n_classes - own[r])
    a = np.empty((n_classes, m))
    for c in range(n_classes):
        sums, ac = base_sum[c], a[c]
        for r in range(m):
            ac[r] = sums[rows[r]]
        for k in range(0, n_keys, 2):
            old, new, old_mine, new_mine = tab[k], tab[k + 1], mine[k], mine[k + 1]
            old_c, new_c = c * cells[k], c * cells[k + 1]
            for r in range(m):
                if c == own[r]:
                    ac[r] = (ac[r] - arena[old_mine[r]]) + arena[new_mine[r]]
                else:
                    ac[r] = (ac[r] - arena[old[r] + old_c]) + arena[new[r] + new_c]
    top = np.empty(m)
    first_nan = np.empty(m, dtype=np.int64)
    _top_and_first_nan(a, top, first_nan)
    low = np.empty(m)
    for r in range(m):
        if first_nan[r] >= 0:
            top[r] = np.nan
        low[r] = top[r] - tie_tol * max(1.0, abs(top[r]))
    near = np.zeros(m, dtype=np.int64)
    for c in range(n_classes):
        ac = a[c]
        for r in range(m):
            if ac[r] >= low[r]:
                near[r] += 1
    for r in range(m):
        if first_nan[r] >= 0:
            hit[r] = first_nan[r] == own[r]
            close[r] = False
        else:
            hit[r] = a[own[r], r] == top[r]
            close[r] = near[r] > 1


@kernel
def context_counts(ids, y, n, n_classes):
    """The (|Y|, n) counts N(π, y) of rows with configuration index ids[r] and class y[r]
    (`StructureScorer._context`: `np.bincount(y · n + ids)` in one pass)."""
    out = np.zeros((n_classes, n), dtype=np.int64)
    for r in range(ids.size):
        out[y[r], ids[r]] += 1
    return out


@kernel
def best_two(scores, pred, top, second):
    """Per column r of the (|Y|, N) scores, as numpy gives them (`StructureScorer.set_base`):
    top[r] = the column's max (NaN if it holds a NaN), pred[r] = the first class of the maximum
    (of the first NaN where there is one: argmax's rule), second[r] = the max of the other classes
    (NaN if one of them is NaN, −∞ if there is none). Class by class, in passes along the rows. A
    zero maximum's sign may differ from numpy's, which the gaps made of them do not see (±0 − x − tol
    are the same floats for tol > 0)."""
    n_classes, n = scores.shape
    first_nan = np.empty(n, dtype=np.int64)
    _top_and_first_nan(scores, top, first_nan)
    for c in range(n_classes - 1, -1, -1):  # later classes first: the smallest class of the maximum wins
        row = scores[c]
        for r in range(n):
            if row[r] == top[r]:
                pred[r] = c
    other_nan = np.zeros(n, dtype=np.bool_)
    for r in range(n):
        if first_nan[r] >= 0:
            top[r] = np.nan
            pred[r] = first_nan[r]
        second[r] = -np.inf
    for c in range(n_classes):
        row = scores[c]
        for r in range(n):
            if c != pred[r]:
                if np.isnan(row[r]):
                    other_nan[r] = True
                second[r] = row[r] if row[r] > second[r] else second[r]
    for r in range(n):
        if other_nan[r]:
            second[r] = np.nan
