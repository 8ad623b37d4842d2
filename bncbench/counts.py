"""The one counting kernel: `np.bincount` on flattened mixed-radix indices.

All count tables of every classifier come from `count_flat`. Attribute codes here are
internal codes 0..K_i where K_i (the last slot) holds a missing value, so tables always have
K_i + 1 slots per attribute.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_CHUNK_CELLS = 1 << 23  # index elements built per bincount call (bounds memory)


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


def global_codes(X: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Offsets of each attribute on the concatenated value axis and X shifted onto it."""
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return offsets, X.astype(np.int64) + offsets


def pair_counts(X: np.ndarray, y: np.ndarray, sizes: np.ndarray, n_classes: int,
                pairs: bool = True) -> PairCounts:
    """Build class, (x_i, y) and (optionally) (x_i, x_j, y) counts in one vectorised pass.

    X: (N, n) internal codes in [0, sizes[i]); y: (N,) class codes.
    """
    N, n = X.shape
    offsets, G = global_codes(X, sizes)
    V = int(sizes.sum())
    y64 = y.astype(np.int64)
    class_counts = count_flat(y64, n_classes)
    xy = count_flat(G * n_classes + y64[:, None], V * n_classes).reshape(V, n_classes)
    xxy = None
    if pairs and n > 0:
        iu, ju = np.triu_indices(n, k=1)
        xxy_flat = np.zeros(V * V * n_classes, dtype=np.int64)
        npairs = iu.size
        if npairs:
            rows_per_chunk = max(1, _CHUNK_CELLS // npairs)
            for start in range(0, N, rows_per_chunk):
                g = G[start:start + rows_per_chunk]
                idx = (g[:, iu] * V + g[:, ju]) * n_classes + y64[start:start + rows_per_chunk, None]
                xxy_flat += count_flat(idx, V * V * n_classes)
        xxy = xxy_flat.reshape(V, V, n_classes)
        xxy += xxy.transpose(1, 0, 2)  # fill the lower blocks (upper ones were counted)
        diag = np.arange(V)
        xxy[diag, diag, :] = xy
    return PairCounts(offsets, np.asarray(sizes, dtype=np.int64), class_counts, xy, xxy)


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
