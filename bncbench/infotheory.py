"""Information measures from maximum-likelihood counts (ALGORITHMS.md §3, §0.3).

`precision="float32"` reproduces the C++ system of paper 000: each pairwise CMI is
accumulated term by term in a 32-bit float (terms in double, loop order: value of the
higher-indexed attribute, value of the lower one, class; zero counts skipped), and MI is
accumulated in double then stored as float32.
"""

from __future__ import annotations

import numpy as np

from bncbench.counts import PairCounts


def _real_slots(pc: PairCounts, i: int, skip_missing: bool) -> slice:
    start = int(pc.offsets[i])
    size = int(pc.sizes[i]) - (1 if skip_missing else 0)
    return slice(start, start + size)


def mutual_info_class(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """I(X_i; Y) in bits for every attribute."""
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
    if precision == "float32":
        return out.astype(np.float32).astype(np.float64)
    return out


def cond_mutual_info(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """Symmetric matrix of I(X_i; X_j | Y) in bits (diagonal 0)."""
    n = pc.offsets.size
    cmi = np.zeros((n, n), dtype=np.float64)
    if n < 2:
        return cmi
    sizes = [int(pc.sizes[i]) - (1 if skip_missing else 0) for i in range(n)]
    kmax = max(sizes)
    ny = pc.class_counts.size
    hi, lo = np.tril_indices(n, k=-1)  # x1 = hi (larger index), x2 = lo
    P = hi.size
    # Padded tables: t[p, v1, v2, y] = N(x_hi = v1, x_lo = v2, y)
    t = np.zeros((P, kmax, kmax, ny), dtype=np.float64)
    a1 = np.zeros((P, kmax, ny))
    a2 = np.zeros((P, kmax, ny))
    for p in range(P):
        s1, s2 = _real_slots(pc, int(hi[p]), skip_missing), _real_slots(pc, int(lo[p]), skip_missing)
        block = pc.xxy[s1, s2]
        t[p, : block.shape[0], : block.shape[1]] = block
        a1[p, : sizes[hi[p]]] = block.sum(axis=1)
        a2[p, : sizes[lo[p]]] = block.sum(axis=0)
    total = t.sum(axis=(1, 2, 3))
    cy = t.sum(axis=(1, 2))  # (P, ny)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = (t / total[:, None, None, None]) * np.log2(
            cy[:, None, None, :] * t / (a1[:, :, None, :] * a2[:, None, :, :]))
    terms[t == 0] = 0.0
    if precision == "float32":
        acc = np.zeros(P, dtype=np.float32)
        flat = terms.reshape(P, -1)
        for step in np.flatnonzero(flat.any(axis=0)):  # an all-zero step leaves every sum unchanged
            acc = (acc.astype(np.float64) + flat[:, step]).astype(np.float32)
        vals = acc.astype(np.float64)
    else:
        vals = terms.reshape(P, -1).sum(axis=1)
    cmi[hi, lo] = vals
    cmi[lo, hi] = vals
    return cmi
