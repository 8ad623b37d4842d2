"""Information measures from maximum-likelihood counts (docs/algorithms.md §3, §0.3)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts
from bncbench.classifiers.kernels.ties import info_values, tie_key


def _real_slots(pc: PairCounts, i: int, skip_missing: bool) -> slice:
    start = int(pc.offsets[i])
    size = int(pc.sizes[i]) - (1 if skip_missing else 0)
    return slice(start, start + size)


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


def cond_mutual_info(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """Symmetric matrix of I(X_i; X_j | Y) in bits (diagonal 0), in the C++ system's term order (§3)."""
    n = pc.offsets.size
    cmi = np.zeros((n, n), dtype=np.float64)
    if n < 2:
        return cmi
    hi, lo = np.tril_indices(n, k=-1)  # x1 = hi (larger index), x2 = lo
    terms = []
    for i, j in zip(hi.tolist(), lo.tolist()):
        block = pc.pairs[_real_slots(pc, i, skip_missing), _real_slots(pc, j, skip_missing)].astype(np.float64)
        v1, v2, c = np.nonzero(block)
        cnt = block[v1, v2, c]
        total = cnt.sum()
        cy = block.sum(axis=(0, 1))
        a1 = block.sum(axis=1)
        a2 = block.sum(axis=0)
        terms.append((cnt / total) * np.log2(cy[c] * cnt / (a1[v1, c] * a2[v2, c])))
    if precision == "float32":
        width = max(t.size for t in terms)
        padded = np.zeros((len(terms), width))
        for p, t in enumerate(terms):
            padded[p, : t.size] = t
        acc = np.zeros(len(terms), dtype=np.float32)
        for step in range(width):  # padding adds 0.0, which leaves a float32 sum unchanged
            acc = (acc.astype(np.float64) + padded[:, step]).astype(np.float32)
        vals = acc.astype(np.float64)
    else:
        vals = tie_key(np.array([t.sum() for t in terms]))
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
    for i in range(n):
        for j in range(i + 1, n):
            c = pc.pairs[_real_slots(pc, i, skip_missing), _real_slots(pc, j, skip_missing)].sum(axis=2) \
                .astype(np.float64)
            t = c.sum()
            if t <= 0:
                continue
            a, b = c.sum(axis=1, keepdims=True), c.sum(axis=0, keepdims=True)
            nz = c > 0
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = (c / t) * np.log2(c * t / (a * b))
            out[i, j] = out[j, i] = terms[nz].sum()
    return info_values(out, precision)


def class_mi_given_attribute(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """M[i, j] = I(X_i; Y | X_j) in bits (the conditioning variable is attribute j; M[i, i] = 0)."""
    n = pc.offsets.size
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            # [x, x', y]
            c = pc.pairs[_real_slots(pc, i, skip_missing), _real_slots(pc, j, skip_missing)].astype(np.float64)
            t = c.sum()
            if t <= 0:
                continue
            pxx = c.sum(axis=2, keepdims=True)      # N(x, x')
            pyx = c.sum(axis=0, keepdims=True)      # N(x', y)
            px = c.sum(axis=(0, 2), keepdims=True)  # N(x')
            nz = c > 0
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = (c / t) * np.log2(px * c / (pxx * pyx))
            out[i, j] = terms[nz].sum()
    return info_values(out, precision)
