"""What BAN's compiled kernels share, called only from kernels (docs/algorithms.md §4.7): a stable
bucket sort, the numbering of configurations met more than once, and numpy's pairwise summation (so
the kernels' sums of v ln v terms equal `EntropyTerms`' numpy sums to the bit)."""

from __future__ import annotations

from bncbench.classifiers.kernels.jit import inner_kernel


@inner_kernel
def bucket(ids, items, m, g, start, order):
    """order[:m] = items[:m] stably sorted by ids (g values); start[:g + 1] = the bounds."""
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
    for s in range(g, 0, -1):
        start[s] = start[s - 1]
    start[0] = 0


@inner_kernel
def number_repeated(occ, n):
    """occ[:n] (how often each configuration was met) becomes each configuration's number, in
    ascending order among those met more than once, and −1 for the others; returns how many."""
    nxt = 0
    for c in range(n):
        if occ[c] > 1:
            occ[c] = nxt
            nxt += 1
        else:
            occ[c] = -1
    return nxt


@inner_kernel
def _block_sum(a, lo, n):
    """a[lo:lo + n] summed as numpy sums a block of at most 128 values (8 accumulators)."""
    if n < 8:
        res = 0.0
        for k in range(lo, lo + n):
            res += a[k]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    k = 8
    while k < n - n % 8:
        r0 += a[lo + k]
        r1 += a[lo + k + 1]
        r2 += a[lo + k + 2]
        r3 += a[lo + k + 3]
        r4 += a[lo + k + 4]
        r5 += a[lo + k + 5]
        r6 += a[lo + k + 6]
        r7 += a[lo + k + 7]
        k += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while k < n:
        res += a[lo + k]
        k += 1
    return res


@inner_kernel
def pairwise_sum(a, n, stack, vals):
    """a[0] + … + a[n − 1] in numpy's pairwise order (np.sum of a contiguous float64 array: blocks of
    at most 128 values, halves above, the left half first), so the sum is numpy's to the bit. An
    explicit stack: numba's disk cache does not take recursive functions."""
    seg_lo, seg_n, seg_open = stack[0], stack[1], stack[2]  # a segment: start, length, halves summed
    seg_lo[0], seg_n[0], seg_open[0] = 0, n, 0
    top = 1
    nv = 0
    while top > 0:
        top -= 1
        lo, m, opened = seg_lo[top], seg_n[top], seg_open[top] > 0
        if m <= 128:
            vals[nv] = _block_sum(a, lo, m)
            nv += 1
        elif opened:  # both halves summed: left + right
            nv -= 1
            vals[nv - 1] = vals[nv - 1] + vals[nv]
        else:
            half = m // 2
            half -= half % 8
            seg_lo[top], seg_n[top], seg_open[top] = lo, m, 1
            seg_lo[top + 1], seg_n[top + 1], seg_open[top + 1] = lo + half, m - half, 0
            seg_lo[top + 2], seg_n[top + 2], seg_open[top + 2] = lo, half, 0
            top += 3
    return vals[0]
