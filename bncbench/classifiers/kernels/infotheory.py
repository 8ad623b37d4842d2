"""Information measures from maximum-likelihood counts (docs/algorithms.md §3, §0.3)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts
from bncbench.classifiers.kernels.ties import info_values, tie_key


def _real_slots(pc: PairCounts, i: int, skip_missing: bool) -> slice:
    start = int(pc.offsets[i])
    size = int(pc.sizes[i]) - (1 if skip_missing else 0)
    return slice(start, start + size)


def _slots(pc: PairCounts, skip_missing: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each slot of the value axis: its attribute, and whether it is a real value (not the missing
    slot that `skip_missing` leaves out)."""
    starts = pc.offsets.astype(np.int64)
    attr = np.repeat(np.arange(pc.offsets.size), pc.sizes)
    return attr, np.arange(attr.size) - starts[attr] < pc.sizes[attr] - (1 if skip_missing else 0)


def mutual_info_class(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """I(X_i; Y) in bits for every attribute."""
    return info_values(_mutual_info_class(pc, skip_missing), precision)


def _mutual_info_class(pc: PairCounts, skip_missing: bool) -> np.ndarray:
    """I(X_i; Y) as float64 sums (before any precision rule)."""
    n = pc.offsets.size
    out = np.zeros(n, dtype=np.float64)
    for i in range(n):
        c = pc.xy[_real_slots(pc, i, skip_missing)].astype(np.float64)
        total = c.sum()
        if total <= 0:
            continue
        cx = c.sum(axis=1, keepdims=True)
        cy = c.sum(axis=0, keepdims=True)
        nz = c > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = (c / total) * np.log2(c / ((cx / total) * cy))
        out[i] = terms[nz].sum()
    return out


def _pair_terms(pc: PairCounts, skip_missing: bool) -> tuple[np.ndarray, np.ndarray]:
    """The terms of I(X_i; X_j | Y) of every pair i > j in `np.tril_indices` order, each pair's
    consecutive in its block's row-major (x_i, x_j, y) order over the non-zero cells, and their
    number per pair. Counts and marginals are exact integers, so each term is the float of the
    per-pair formula (`cond_mutual_info`), computed a row block of attribute i at a time."""
    n = pc.offsets.size
    starts = pc.offsets.astype(np.int64)
    real = pc.sizes - (1 if skip_missing else 0)
    attr = np.repeat(np.arange(n), pc.sizes)
    is_real = np.arange(attr.size) - starts[attr] < real[attr]
    terms, lengths = [], []
    for i in range(1, n):
        rows = slice(int(starts[i]), int(starts[i] + real[i]))
        end = int(starts[i])  # the columns of attributes j < i
        block = pc.pairs[rows, :end] * is_real[:end, None]  # (x_i, slots of j < i, y), missing slots zeroed
        a1 = np.add.reduceat(block, starts[:i], axis=1)  # N(x_i, y) within each j's real slots: (x_i, j, y)
        a2 = block.sum(axis=0)  # N(x_j, y) within i's real slots: (slot, y)
        cy = a1.sum(axis=0)  # (j, y)
        total = cy.sum(axis=1)  # (j,)
        v, w, c = np.nonzero(block)
        j = attr[w]
        order = np.argsort(j, kind="stable")  # each pair's cells together, in the block's order
        v, w, c, j = v[order], w[order], c[order], j[order]
        cnt = block[v, w, c].astype(np.float64)
        terms.append((cnt / total[j]) * np.log2(cy[j, c].astype(np.float64) * cnt
                                                / (a1[v, j, c].astype(np.float64) * a2[w, c])))
        lengths.append(np.bincount(j, minlength=i))
    return np.concatenate(terms), np.concatenate(lengths)


def _segment_sums(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The sum of each consecutive segment of `values` as numpy sums it alone (pairwise, so the same
    bits): the segments of one length summed together, one per row."""
    out = np.zeros(lengths.size)
    start = np.cumsum(lengths) - lengths
    for size in np.unique(lengths[lengths > 0]).tolist():
        seg = np.flatnonzero(lengths == size)
        out[seg] = values[start[seg][:, None] + np.arange(size)].sum(axis=1)
    return out


def cond_mutual_info(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """Symmetric matrix of I(X_i; X_j | Y) in bits (diagonal 0), in the C++ system's term order (§3)."""
    n = pc.offsets.size
    cmi = np.zeros((n, n), dtype=np.float64)
    if n < 2:
        return cmi
    hi, lo = np.tril_indices(n, k=-1)  # x1 = hi (larger index), x2 = lo
    values, lengths = _pair_terms(pc, skip_missing)
    if precision == "float32":
        width = int(lengths.max())
        padded = np.zeros((lengths.size, width))
        padded[np.arange(width) < lengths[:, None]] = values  # each pair's terms, then 0.0
        acc = np.zeros(lengths.size, dtype=np.float32)
        for step in range(width):  # padding adds 0.0, which leaves a float32 sum unchanged
            acc = (acc.astype(np.float64) + padded[:, step]).astype(np.float32)
        vals = acc.astype(np.float64)
    else:
        vals = tie_key(_segment_sums(values, lengths))
    cmi[hi, lo] = vals
    cmi[lo, hi] = vals
    return cmi


def _entropy_bits(c: np.ndarray) -> float:
    t = c.sum()
    p = c[c > 0] / t
    return float(-(p * np.log2(p)).sum()) if t > 0 else 0.0


def symmetrical_uncertainty(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """SU(X_i; Y) = 2·I(X_i;Y) / (H(X_i) + H(Y)), 0 when the denominator is 0."""
    mi = _mutual_info_class(pc, skip_missing)
    out = np.zeros_like(mi)
    for i in range(mi.size):
        c = pc.xy[_real_slots(pc, i, skip_missing)].astype(np.float64)
        h = _entropy_bits(c.sum(axis=1)) + _entropy_bits(c.sum(axis=0))
        out[i] = 2.0 * mi[i] / h if h > 0 else 0.0
    return info_values(out, precision)


def attribute_mutual_info(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """Symmetric matrix of the unconditional I(X_i; X_j) in bits (diagonal 0)."""
    n = pc.offsets.size
    out = np.zeros((n, n))
    attr, is_real = _slots(pc, skip_missing)
    for i in range(n - 1):
        # [x, slot of j > i]: N(x_i, x_j) over the classes, other attributes' and missing slots zeroed
        block = pc.pairs[_real_slots(pc, i, skip_missing)].sum(axis=2) * (is_real & (attr > i))
        a = np.add.reduceat(block, pc.offsets, axis=1).astype(np.float64)  # N(x_i) within j's slots: (x, j)
        b = block.sum(axis=0).astype(np.float64)  # N(x_j) within i's slots
        t = np.bincount(attr, weights=b, minlength=n)  # N per attribute j (exact: integer counts)
        v, w = np.nonzero(block)
        j = attr[w]
        order = np.argsort(j, kind="stable")  # each pair's cells together, in its block's order
        v, w, j = v[order], w[order], j[order]
        c = block[v, w].astype(np.float64)
        terms = (c / t[j]) * np.log2(c * t[j] / (a[v, j] * b[w]))
        out[i] = _segment_sums(terms, np.bincount(j, minlength=n))
    lower = np.tril_indices(n, -1)
    out[lower] = out.T[lower]
    return info_values(out, precision)


def class_mi_given_attribute(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """M[i, j] = I(X_i; Y | X_j) in bits (the conditioning variable is attribute j; M[i, i] = 0)."""
    n = pc.offsets.size
    out = np.zeros((n, n))
    attr, is_real = _slots(pc, skip_missing)
    for i in range(n):
        # [x, slot of j ≠ i, y]: N(x_i, x_j, y), attribute i's own and missing slots zeroed
        block = pc.pairs[_real_slots(pc, i, skip_missing)] * (is_real & (attr != i))[:, None]
        pxx = block.sum(axis=2)  # N(x, x')
        pyx = block.sum(axis=0)  # N(x', y)
        px = pyx.sum(axis=1)  # N(x')
        t = np.bincount(attr, weights=px, minlength=n)  # N per attribute j (exact: integer counts)
        v, w, y = np.nonzero(block)
        j = attr[w]
        order = np.argsort(j, kind="stable")  # each pair's cells together, in its block's row-major order
        v, w, y, j = v[order], w[order], y[order], j[order]
        c = block[v, w, y].astype(np.float64)
        terms = (c / t[j]) * np.log2(px[w].astype(np.float64) * c
                                     / (pxx[v, w].astype(np.float64) * pyx[w, y].astype(np.float64)))
        out[i] = _segment_sums(terms, np.bincount(j, minlength=n))
    return info_values(out, precision)
