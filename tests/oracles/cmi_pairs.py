"""I(X_i; X_j | Y) pair by pair, as numpy sums each pair's terms alone: the reference that the sums of
`kernels.infotheory.cond_mutual_info` (all pairs' terms at once) must equal bit for bit."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts


def cond_mutual_info_pairs(pc: PairCounts, skip_missing: bool = False) -> np.ndarray:
    """float64 I(X_i; X_j | Y) in bits before the tie rule, one pair's block at a time."""
    n = pc.offsets.size
    cmi = np.zeros((n, n))
    for i in range(n):
        for j in range(i):
            si = slice(pc.offsets[i], pc.offsets[i] + pc.sizes[i] - skip_missing)
            sj = slice(pc.offsets[j], pc.offsets[j] + pc.sizes[j] - skip_missing)
            block = pc.pairs[si, sj].astype(np.float64)
            v1, v2, c = np.nonzero(block)
            cnt = block[v1, v2, c]
            cy, a1, a2 = block.sum(axis=(0, 1)), block.sum(axis=1), block.sum(axis=0)
            terms = (cnt / cnt.sum()) * np.log2(cy[c] * cnt / (a1[v1, c] * a2[v2, c]))
            cmi[i, j] = cmi[j, i] = terms.sum()
    return cmi
