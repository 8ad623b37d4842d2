"""The compiled inner loop of the wrappers' leave-one-out engine (docs/algorithms.md §4.8.4): the SPODE sums
of CAA's and CAE's candidate children (`loo_engine.LooEngine`), imported only where CAA or CAE fits (it
loads numba, through BAN's compiler and its disk cache)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bncbench.classifiers.kernels import jit
from bncbench.classifiers.kernels.jit import kernel


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
    for p in range(0, n - 1, 2):  # superparents outermost, two at a time: each (row, candidate) loaded once
        for t in range(m):
            b1, b2, k = gV[p, t], gV[p + 1, t], yrow[t]
            e1, e2 = E[p, t], E[p + 1, t]
            for j in range(K):
                a = g[cands[j], t]
                r1, r2 = other[b1 + a], other[b2 + a]
                o = out[t, j]
                s = o[k]
                for y in range(ny):  # every class (vectorised); the own class's terms then redone
                    o[y] = (o[y] + r1[y] * e1[y]) + r2[y] * e2[y]
                o[k] = (s + own[k, b1 + a] * e1[k]) + own[k, b2 + a] * e2[k]
    if n % 2:  # the last superparent alone
        p = n - 1
        for t in range(m):
            b1, k = gV[p, t], yrow[t]
            e1 = E[p, t]
            for j in range(K):
                a = g[cands[j], t]
                r1 = other[b1 + a]
                o = out[t, j]
                s = o[k]
                for y in range(ny):
                    o[y] += r1[y] * e1[y]
                o[k] = s + own[k, b1 + a] * e1[k]


def prepare(notify: Callable[[str], None], check: bool = False) -> bool:
    """Load `child_sums` for the argument types of a fit, compiling it into the disk cache first where this
    machine has none (`notify` hears of it; with `check` nothing loaded: `jit.prepare`)."""

    def load() -> None:
        rows = np.zeros((1, 1), dtype=np.intp)
        child_sums(np.ones((1, 2)), np.ones((2, 1)), rows, rows, np.ones((1, 1, 2)), np.zeros(1, dtype=np.intp),
                   np.zeros(1, dtype=np.intp), np.empty((1, 1, 2)))

    return jit.prepare(load, notify, check)
