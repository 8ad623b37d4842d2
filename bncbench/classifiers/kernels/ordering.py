"""Attribute orders by a score: the spec's stable order and GCC `std::sort`'s (docs/algorithms.md §0.3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import numpy as np

T = TypeVar("T")
_THRESHOLD = 16  # libstdc++'s _S_threshold


def stable_descending(scores: np.ndarray) -> np.ndarray:
    """Indices by descending score; equal scores keep index order (§0.3)."""
    return np.argsort(-np.asarray(scores), kind="stable")


def gcc_descending(scores: np.ndarray) -> np.ndarray:
    """Indices 0..n−1 sorted as `std::sort(a, a + n, [&](int i, int j) { return s[i] > s[j]; })`
    does with GCC's libstdc++ (§0.3). For n ≤ 16 this is the stable order."""
    s = [float(v) for v in np.asarray(scores).ravel()]
    a = list(range(len(s)))
    gcc_sort(a, lambda i, j: s[i] > s[j])
    return np.asarray(a, dtype=np.int64)


def gcc_sort(a: list[T], less: Callable[[T, T], bool]) -> None:
    """Sort the list `a` in place exactly as libstdc++'s `std::sort(first, last, comp)`."""
    n = len(a)
    if n < 2:
        return
    _introsort_loop(a, 0, n, 2 * (n.bit_length() - 1), less)
    _final_insertion_sort(a, 0, n, less)


def _introsort_loop(a: list, first: int, last: int, depth: int, less) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _partition_pivot(a: list, first: int, last: int, less) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _move_median_to_first(a: list, result: int, x: int, y: int, z: int, less) -> None:
    """libstdc++'s median of a[x], a[y], a[z] to a[result]; its two mirrored branches (x, y swapped)
    as one, with the same comparisons in the same order."""
    lo, hi = (x, y) if less(a[x], a[y]) else (y, x)
    if less(a[hi], a[z]):
        pick = hi
    elif less(a[lo], a[z]):
        pick = z
    else:
        pick = lo
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a: list, first: int, last: int, pivot: int, less) -> int:
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _insertion_sort(a: list, first: int, last: int, less) -> None:
    for i in range(first + 1, last):
        val = a[i]
        if less(val, a[first]):
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            j = i
            while less(val, a[j - 1]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = val


def _final_insertion_sort(a: list, first: int, last: int, less) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):  # __unguarded_insertion_sort
            val, j = a[i], i
            while less(val, a[j - 1]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = val
    else:
        _insertion_sort(a, first, last, less)


def _heap_sort(a: list, first: int, last: int, less) -> None:
    """`std::__partial_sort(first, last, last)`: make_heap, then sort_heap."""
    length = last - first
    if length >= 2:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(a, first, parent, length, a[first + parent], less)
            if parent == 0:
                break
            parent -= 1
    while last - first > 1:
        last -= 1
        value = a[last]
        a[last] = a[first]
        _adjust_heap(a, first, 0, last - first, value, less)


def _adjust_heap(a: list, first: int, hole: int, length: int, value, less) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def gcc_descending_rows(scores: np.ndarray) -> np.ndarray:
    """`gcc_descending` of each row of `scores` (R, n), the rows at once: libstdc++'s introsort steps
    (median-of-three pivot, unguarded partition) run in lockstep over every segment of every row
    longer than 16, then its final insertion sort, which on the partitioned rows is the stable order.
    A row that reaches the depth limit (heap sort) or holds a NaN is sorted by `gcc_descending`."""
    s = np.asarray(scores, dtype=np.float64)
    R, n = s.shape
    a = np.tile(np.arange(n, dtype=np.int64), R)  # each row's arrangement, flat
    v = s.ravel().copy()                          # the score at each place of `a`
    slow = np.isnan(s).sum(axis=1) > 0
    row = np.flatnonzero(~slow)
    first = np.zeros(row.size, dtype=np.int64)
    last = np.full(row.size, n, dtype=np.int64)
    depth = np.full(row.size, 2 * (n.bit_length() - 1), dtype=np.int64)
    while True:
        big = last - first > _THRESHOLD
        row, first, last, depth = row[big], first[big], last[big], depth[big]
        slow[row[depth == 0]] = True  # the depth limit: the whole row by `gcc_descending`
        keep = ~slow[row]
        row, first, last, depth = row[keep], first[keep], last[keep], depth[keep]
        if not row.size:
            break
        base = row * n
        cut = _partition_rows(a, v, base + first, base + last) - base
        row, first, last, depth = (np.concatenate([row, row]), np.concatenate([cut, first]),
                                   np.concatenate([last, cut]), np.concatenate([depth, depth]) - 1)
    order = np.take_along_axis(a.reshape(R, n), np.argsort(-v.reshape(R, n), axis=1, kind="stable"), axis=1)
    for r in np.flatnonzero(slow):
        order[r] = gcc_descending(s[r])
    return order


def _partition_rows(a: np.ndarray, v: np.ndarray, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """`_partition_pivot` on the flat segments [first, last) of `a` (and their scores `v`), all at
    once, one comparison of each segment per step; returns each segment's cut."""
    x, y, z = first + 1, first + (last - first) // 2, last - 1
    xy = v[x] > v[y]  # less(a[x], a[y]) with less(i, j) = s[i] > s[j]
    lo, hi = np.where(xy, x, y), np.where(xy, y, x)
    pick = np.where(v[hi] > v[z], hi, np.where(v[lo] > v[z], z, lo))
    _swap(a, v, first, pick)
    pv = v[first]
    f, l = first + 1, last.copy()
    back = np.zeros(first.size, dtype=bool)  # False: moving f up; True: moving l down
    cut = np.empty(first.size, dtype=np.int64)
    act = np.arange(first.size)
    while act.size:
        up, down = act[~back[act]], act[back[act]]
        more = v[f[up]] > pv[up]
        f[up[more]] += 1
        turn = up[~more]
        back[turn] = True
        l[turn] -= 1
        more = pv[down] > v[l[down]]
        l[down[more]] -= 1
        met = down[~more]
        cross = f[met] < l[met]
        sw = met[cross]
        _swap(a, v, f[sw], l[sw])
        f[sw] += 1
        back[sw] = False
        done = met[~cross]
        cut[done] = f[done]
        alive = np.ones(first.size, dtype=bool)
        alive[done] = False
        act = act[alive[act]]
    return cut


def _swap(a: np.ndarray, v: np.ndarray, i: np.ndarray, j: np.ndarray) -> None:
    """Swap places i and j of `a` and `v` (pairs of distinct places, no place in two pairs)."""
    a[i], a[j] = a[j], a[i].copy()
    v[i], v[j] = v[j], v[i].copy()


def descending_orders(scores: np.ndarray, gcc: bool) -> np.ndarray:
    """Attribute order of each row by descending score: stable, or with `gcc` the order of GCC's
    `std::sort` (§0.3), which differs from the stable one only for > 16 attributes with ties
    (`gcc_descending_rows` on the rows with ties)."""
    order = np.argsort(-scores, axis=1, kind="stable")
    R, n = scores.shape
    if not gcc or n <= 16 or R == 0:
        return order
    sv = np.take_along_axis(scores, order, axis=1)
    tied = np.flatnonzero((sv[:, 1:] == sv[:, :-1]).any(axis=1))
    if tied.size:
        order[tied] = gcc_descending_rows(scores[tied])
    return order
