"""I(X_i; X_j) and I(X_i; Y | X_j) pair by pair, as numpy sums each pair's terms alone: the
references that `kernels.infotheory.attribute_mutual_info` and `class_mi_given_attribute` (a row
of pairs at once) must equal bit for bit."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts


def _real(pc: PairCounts, i: int, skip_missing: bool) -> slice:
    return slice(int(pc.offsets[i]), int(pc.offsets[i] + pc.sizes[i]) - skip_missing)


def attribute_mi_pairs(pc: PairCounts, skip_missing: bool = False) -> np.ndarray:
    """float64 I(X_i; X_j) in bits before the tie rule, one pair's (x_i, x_j) block at a time."""
    n = pc.offsets.size
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            c = pc.pairs[_real(pc, i, skip_missing), _real(pc, j, skip_missing)].sum(axis=2).astype(np.float64)
            t = c.sum()
            if t <= 0:
                continue
            a, b = c.sum(axis=1, keepdims=True), c.sum(axis=0, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = (c / t) * np.log2(c * t / (a * b))
            out[i, j] = out[j, i] = terms[c > 0].sum()
    return out


def class_mi_given_pairs(pc: PairCounts, skip_missing: bool = False) -> np.ndarray:
    """float64 M[i, j] = I(X_i; Y | X_j) in bits before the tie rule, one pair's (x_i, x_j, y) block at a time."""
    n = pc.offsets.size
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            c = pc.pairs[_real(pc, i, skip_missing), _real(pc, j, skip_missing)].astype(np.float64)
            t = c.sum()
            if t <= 0:
                continue
            pxx = c.sum(axis=2, keepdims=True)      # N(x, x')
            pyx = c.sum(axis=0, keepdims=True)      # N(x', y)
            px = c.sum(axis=(0, 2), keepdims=True)  # N(x')
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = (c / t) * np.log2(px * c / (pxx * pyx))
            out[i, j] = terms[c > 0].sum()
    return out
