"""The one counting kernel: `np.bincount` on flattened mixed-radix indices of internal codes (docs/algorithms.md §2)."""

# Attribute codes here are internal codes 0..K_i where K_i (the last slot) holds a missing value, so tables always
# have K_i + 1 slots per attribute.

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def count_flat(index: np.ndarray, size: int) -> np.ndarray:
    """Counts of each flat cell index in [0, size) as int64."""
    return np.bincount(index.ravel(), minlength=size).astype(np.int64, copy=False)


@dataclass
class PairCounts:
    """Count tables shared by NB, TAN, KDB-1, AODE (and the later families)."""

    offsets: np.ndarray       # offsets[i]: the first slot of attribute i on the concatenated value axis (size V)
    sizes: np.ndarray         # slots per attribute
    class_counts: np.ndarray  # class_counts[y]
    xy: np.ndarray            # xy[v, y] = N(x_i = v, y) on the value axis
    # xxy[v, w, y] = N(x_i, x_j, y) for slots v of attribute i and w of attribute j (i ≠ j; the i = i diagonal
    # blocks hold N(x_i, y) on their diagonal)
    xxy: np.ndarray | None

    @property
    def n(self) -> int:
        return int(self.class_counts.sum())

    @property
    def pairs(self) -> np.ndarray:
        """`xxy`, for a model that reads the pairwise counts (ValueError when they were not counted)."""
        if self.xxy is None:
            raise ValueError("these counts have no (x_i, x_j, y) table: count them with pairs=True")
        return self.xxy

    def __sub__(self, other: PairCounts) -> PairCounts:
        """Counts of a subset removed: the training counts of a fold are the counts of all rows
        minus those of its test rows (exact integer arithmetic)."""
        if not np.array_equal(self.sizes, other.sizes) or self.class_counts.size != other.class_counts.size:
            raise ValueError("count tables of different shapes")
        xxy = None
        if self.xxy is not None and other.xxy is not None:
            xxy = self.xxy - other.xxy
        return PairCounts(self.offsets, self.sizes, self.class_counts - other.class_counts, self.xy - other.xy, xxy)


_PAIR_BATCH = 1 << 18  # (row, attribute) cells that one bincount of `pair_counts` counts (a 2 MB index)


def pair_counts(X: np.ndarray, y: np.ndarray, sizes: np.ndarray, n_classes: int,
                pairs: bool = True) -> PairCounts:
    """Class, (x_i, y) and (optionally) (x_i, x_j, y) counts of internal codes X (N, n) and class codes y (N,)."""
    # one np.bincount per attribute pair on the flat index ((x_i·|Y| + y)·|X_j| + x_j): small, cache-friendly
    # count vectors instead of one huge index array
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
        # on a small data set the calls, not the rows, cost: the attributes j > i are then counted
        # `step` at a time, one bincount on their slots (of the value axis: `slots`) per run (measured
        # on kban's folds: faster up to about 12,000 (row, class) cells, slower beyond)
        step = max(1, _PAIR_BATCH // max(N, 1))
        slots = X.astype(np.intp) + offsets if step > 1 and N * n_classes <= 12_000 and N * n <= 1 << 20 else None
        for i in range(n):
            si, oi = int(sizes[i]), int(offsets[i])
            xi_y = col(i) * n_classes + yp
            for j in range(i + 1, n, step if slots is not None else 1):
                stop = min(n, j + step) if slots is not None else j + 1
                oj, end = int(offsets[j]), int(offsets[stop - 1] + sizes[stop - 1])
                w = end - oj
                index = (xi_y * w)[:, None] + (slots[:, j:stop] - oj) if slots is not None else xi_y * w + col(j)
                c = count_flat(index, si * n_classes * w).reshape(si, n_classes, w)
                block = c.transpose(0, 2, 1)  # [x_i, x_j, y] over the slots x_j of attributes j..stop − 1
                xxy[oi:oi + si, oj:end] = block
                xxy[oj:end, oi:oi + si] = block.transpose(1, 0, 2)
        diag = np.arange(V)
        xxy[diag, diag, :] = xy
    return PairCounts(offsets, sizes, class_counts, xy, xxy)


#: (sorted keys that occur, their counts): a sparse count table of `config_counts`, read with `lookup`
KeyCounts = tuple[np.ndarray, np.ndarray]


def config_counts(cols: list[np.ndarray], radices: list[int]) -> KeyCounts:
    """(keys, counts): the sorted distinct mixed-radix keys of several code columns that occur, and their counts."""
    # dense bincount when the key space is small against the rows (scanning a key space much larger than the rows
    # for its non-zero cells costs more than sorting the rows), np.unique otherwise
    n = cols[0].shape[0]
    key = np.zeros(n, dtype=np.int64)
    space = 1
    for c, r in zip(cols, radices):
        key = key * r + c.astype(np.int64)
        space *= r
    if space <= min(1 << 22, max(1 << 16, 4 * n)):
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


# -- k-dependence counts: (parent configuration × child value × class) tables ------------------
# parent-configuration spaces up to max(_DENSE_CONFIGS, _DENSE_PER_ROW · N) are indexed densely
_DENSE_CONFIGS = 1 << 16
_DENSE_PER_ROW = 1


@dataclass
class ParentConfigs:
    """The configurations of one parent set on the training rows."""

    parents: tuple[int, ...]
    radices: tuple[int, ...]  # the code radices of `parents`
    ids: np.ndarray           # row r's configuration index in [0, n_configs)
    n_configs: int
    # None (dense): the index is the mixed-radix key of the parent codes (every configuration has a slot);
    # sparse: the sorted distinct keys that occur, the index a key's rank (small tables for large parent spaces)
    keys: np.ndarray | None

    def index(self, X: np.ndarray) -> np.ndarray:
        """Configuration index of each row of X (same internal codes); −1 for a configuration
        absent from the training rows (sparse case only)."""
        if not self.parents:
            return np.zeros(X.shape[0], dtype=np.int64)
        key = mixed_key([X[:, p] for p in self.parents], list(self.radices))
        if self.keys is None:
            return key
        pos = np.minimum(np.searchsorted(self.keys, key), self.keys.size - 1)
        return np.where(self.keys[pos] == key, pos, -1)


def parent_configs(X: np.ndarray, parents, sizes) -> ParentConfigs:
    """`ParentConfigs` of the attribute columns `parents` (any order; kept as given) of X."""
    parents = tuple(int(p) for p in parents)
    radices = tuple(int(sizes[p]) for p in parents)
    N = X.shape[0]
    if not parents:
        return ParentConfigs(parents, radices, np.zeros(N, dtype=np.int64), 1, None)
    space = 1
    for r in radices:
        space *= r
    if space >= 1 << 62:
        raise ValueError(f"parent set {parents}: {space} configurations overflow a 64-bit key")
    key = mixed_key([X[:, p] for p in parents], list(radices))
    if space <= max(_DENSE_CONFIGS, _DENSE_PER_ROW * N):
        return ParentConfigs(parents, radices, key, space, None)
    keys, ids = np.unique(key, return_inverse=True)
    return ParentConfigs(parents, radices, ids.reshape(-1).astype(np.int64), int(keys.size), keys)


def parent_set_counts(X: np.ndarray, y: np.ndarray, child: int, parents, sizes, n_classes: int,
                      configs: ParentConfigs | None = None) -> tuple[np.ndarray, ParentConfigs]:
    """N(π, x_child, y) as an int64 array (n_configs, sizes[child], n_classes) and the
    `ParentConfigs` of π: one `count_flat` on the flat index (config·|X_child| + x)·|Y| + y.
    Pass `configs` (of the same parents on the same rows) to reuse them."""
    if configs is None:
        configs = parent_configs(X, parents, sizes)
    sc = int(sizes[child])
    flat = (configs.ids * sc + X[:, child].astype(np.int64)) * n_classes + y.astype(np.int64)
    table = count_flat(flat, configs.n_configs * sc * n_classes).reshape(configs.n_configs, sc, n_classes)
    return table, configs

