"""The one counting kernel: `np.bincount` on flattened mixed-radix indices.

All count tables of every classifier come from `count_flat`. Attribute codes here are
internal codes 0..K_i where K_i (the last slot) holds a missing value, so tables always have
K_i + 1 slots per attribute.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

def count_flat(index: np.ndarray, size: int) -> np.ndarray:
    """Counts of each flat cell index in [0, size) as int64."""
    return np.bincount(index.ravel(), minlength=size).astype(np.int64, copy=False)


@dataclass
class PairCounts:
    """Count tables shared by NB, TAN, KDB-1, AODE (and the later families).

    `offsets[i]` is the first slot of attribute i in the concatenated value axis of size V;
    `class_counts[y]`; `xy[v, y]` = N(x_i = v, y) on that axis; `xxy[v, w, y]` = N(x_i, x_j, y)
    for slots v of attribute i and w of attribute j (i ≠ j; the i = i diagonal blocks hold
    N(x_i, y) on their diagonal).
    """

    offsets: np.ndarray
    sizes: np.ndarray
    class_counts: np.ndarray
    xy: np.ndarray
    xxy: np.ndarray | None

    @property
    def n(self) -> int:
        return int(self.class_counts.sum())

    def __sub__(self, other: "PairCounts") -> "PairCounts":
        """Counts of a subset removed: the training counts of a fold are the counts of all rows
        minus those of its test rows (exact integer arithmetic)."""
        if not np.array_equal(self.sizes, other.sizes) or self.class_counts.size != other.class_counts.size:
            raise ValueError("count tables of different shapes")
        xxy = None
        if self.xxy is not None and other.xxy is not None:
            xxy = self.xxy - other.xxy
        return PairCounts(self.offsets, self.sizes, self.class_counts - other.class_counts, self.xy - other.xy, xxy)


def pair_counts(X: np.ndarray, y: np.ndarray, sizes: np.ndarray, n_classes: int,
                pairs: bool = True) -> PairCounts:
    """Build class, (x_i, y) and (optionally) (x_i, x_j, y) counts.

    X: (N, n) internal codes in [0, sizes[i]); y: (N,) class codes. One `np.bincount` per
    attribute pair on the flattened index ((x_i·|Y| + y)·|X_j| + x_j): small, cache-friendly
    count vectors instead of one huge index array.
    """
    N, n = X.shape
    sizes = np.asarray(sizes, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    V = int(sizes.sum())
    yp = y.astype(np.intp)
    class_counts = count_flat(yp, n_classes)
    # one column at a time: no (N, n) int64 temporaries (memory stays O(N) beyond X itself)
    cols = [X[:, i].astype(np.intp) for i in range(n)] if N * n <= 1 << 24 else None
    col = (lambda i: cols[i]) if cols is not None else (lambda i: X[:, i].astype(np.intp))
    xy = np.zeros((V, n_classes), dtype=np.int64)
    for i in range(n):
        si, oi = int(sizes[i]), int(offsets[i])
        xy[oi:oi + si] = count_flat(col(i) * n_classes + yp, si * n_classes).reshape(si, n_classes)
    xxy = None
    if pairs and n > 0:
        xxy = np.zeros((V, V, n_classes), dtype=np.int64)
        for i in range(n):
            si, oi = int(sizes[i]), int(offsets[i])
            xi_y = col(i) * n_classes + yp
            for j in range(i + 1, n):
                sj, oj = int(sizes[j]), int(offsets[j])
                c = count_flat(xi_y * sj + col(j), si * n_classes * sj).reshape(si, n_classes, sj)
                block = c.transpose(0, 2, 1)  # [x_i, x_j, y]
                xxy[oi:oi + si, oj:oj + sj] = block
                xxy[oj:oj + sj, oi:oi + si] = block.transpose(1, 0, 2)
        diag = np.arange(V)
        xxy[diag, diag, :] = xy
    return PairCounts(offsets, sizes, class_counts, xy, xxy)


def config_counts(cols: list[np.ndarray], radices: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Counts of joint configurations of several code columns.

    Returns (keys, counts): the sorted distinct mixed-radix keys that occur and their counts.
    Dense `bincount` when the key space is small, `np.unique` otherwise.
    """
    key = np.zeros(cols[0].shape[0], dtype=np.int64)
    space = 1
    for c, r in zip(cols, radices):
        key = key * r + c.astype(np.int64)
        space *= r
    if space <= 1 << 22:
        counts = count_flat(key, space)
        nz = np.flatnonzero(counts)
        return nz.astype(np.int64), counts[nz]
    keys, counts = np.unique(key, return_counts=True)
    return keys, counts.astype(np.int64)


def lookup(keys: np.ndarray, counts: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Count of each query key (0 where it never occurred)."""
    if keys.size == 0:
        return np.zeros(query.shape, dtype=np.int64)
    pos = np.searchsorted(keys, query)
    pos_c = np.minimum(pos, keys.size - 1)
    hit = keys[pos_c] == query
    return np.where(hit, counts[pos_c], 0)


def mixed_key(cols: list[np.ndarray], radices: list[int]) -> np.ndarray:
    key = np.zeros(cols[0].shape[0] if cols else 0, dtype=np.int64)
    for c, r in zip(cols, radices):
        key = key * r + c.astype(np.int64)
    return key
