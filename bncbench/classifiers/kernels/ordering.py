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


def descending_orders(scores: np.ndarray, gcc: bool) -> np.ndarray:
    """Attribute order of each row by descending score: stable, or with `gcc` the order of GCC's
    `std::sort` (§0.3), which differs from the stable one only for > 16 attributes with ties. The
    GCC order depends only on the pattern of ties, so it is computed once per distinct pattern."""
    order = np.argsort(-scores, axis=1, kind="stable")
    R, n = scores.shape
    if not gcc or n <= 16 or R == 0:
        return order
    sv = np.take_along_axis(scores, order, axis=1)
    tied = np.flatnonzero((sv[:, 1:] == sv[:, :-1]).any(axis=1))
    if not tied.size:
        return order
    sub = sv[tied]
    dense = np.concatenate([np.zeros((tied.size, 1), dtype=np.int64),
                            np.cumsum(sub[:, 1:] != sub[:, :-1], axis=1)], axis=1)
    ranks = np.empty_like(dense)
    np.put_along_axis(ranks, order[tied], dense, axis=1)
    _, first, inv = np.unique(ranks, axis=0, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    for p, f in enumerate(first):
        order[tied[inv == p]] = gcc_descending(scores[tied[f]])
    return order
