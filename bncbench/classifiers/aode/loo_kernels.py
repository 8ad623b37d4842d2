"""The compiled inner loop of the wrappers' leave-one-out engine (docs/algorithms.md §4.8.4): the SPODE sums
of CAA's and CAE's candidate children (`loo_engine.LooEngine`), imported only where CAA or CAE fits (it
loads numba, through BAN's compiler and its disk cache)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.ban.jit import kernel


@kernel
def child_sums(other: np.ndarray, own: np.ndarray, g: np.ndarray, gV: np.ndarray, E: np.ndarray,
               cands: np.ndarray, yrow: np.ndarray, out: np.ndarray) -> None:
    """out[t, j, y] = Σ_p F[p, t, y] · E[p, t, y], F the factor of child cands[j] under superparent p for row t
    (`other[gV[p, t] + g[cands[j], t], y]`, from `own[y, ·]` for the row's class y = yrow[t]): every term
    rounded, then added in the order of p to 0.0, as numpy's einsum "ptk,ptk->tk" sums (no fused
    multiply-add, no reassociation), so the sums are those of the einsum bit for bit."""
    n, m, ny = E.shape
    K = cands.size
    out[:] = 0.0
    for p in range(n):  # superparents outermost: the rows of `other` met stay few at a time
        for t in range(m):
            base = gV[p, t]
            k = yrow[t]
            e = E[p, t]
            ek = e[k]
            for j in range(K):
                idx = base + g[cands[j], t]
                row = other[idx]
                o = out[t, j]
                s = o[k]
                for y in range(ny):  # every class (vectorised); the own class's term then redone
                    o[y] += row[y] * e[y]
                o[k] = s + own[k, idx] * ek
