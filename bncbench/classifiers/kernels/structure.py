"""Prim's maximum spanning tree and KDB's parent choice, for one weight set and batched (docs/algorithms.md §4.2)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.ordering import gcc_descending, stable_descending


def prim_tree(weights: np.ndarray, root: int = 0) -> np.ndarray:
    """Parent of each attribute in the maximum weighted spanning tree grown from `root`
    (Petal convention, §4.2: strict improvements only, ties → smallest attribute index).
    The root's parent is −1."""
    n = weights.shape[0]
    parent = np.full(n, -1, dtype=np.int64)
    if n <= 1:
        return parent
    in_tree = np.zeros(n, dtype=bool)
    in_tree[root] = True
    best = weights[root].astype(np.float64).copy()
    source = np.full(n, root, dtype=np.int64)
    for _ in range(n - 1):
        cand = -1
        cand_w = -np.inf
        for j in range(n):
            if not in_tree[j] and best[j] > cand_w:
                cand, cand_w = j, best[j]
        in_tree[cand] = True
        parent[cand] = source[cand]
        better = (~in_tree) & (weights[cand] > best)
        best[better] = weights[cand][better]
        source[better] = cand
    return parent


def kdb_parents(mi: np.ndarray, cmi: np.ndarray, k: int, gcc_order: bool = False) -> tuple[np.ndarray, list[list[int]]]:
    """KDB-k's attribute order and each attribute's parents in descending CMI order (§4.3)."""
    order = gcc_descending(mi) if gcc_order else stable_descending(mi)
    parents: list[list[int]] = [[] for _ in range(mi.size)]
    for r, a in enumerate(order):
        preceding = order[:r]
        if preceding.size == 0 or k == 0:
            continue
        ranked = preceding[np.argsort(-cmi[a, preceding], kind="stable")]
        parents[int(a)] = [int(p) for p in ranked[:k]]
    return order, parents


def prim_trees(w: np.ndarray, pidx: np.ndarray) -> np.ndarray:
    """Prim's maximum spanning tree from attribute 0 for each row of pair weights w (R, P) (§4.2)."""
    R, n = w.shape[0], pidx.shape[0]
    parent = np.full((R, n), -1, dtype=np.int64)
    if n <= 1:
        return parent
    P = w.shape[1]
    wflat = w.ravel()
    row_start = (np.arange(R) * P)[:, None]
    base = np.arange(R) * n
    outside = np.ones((R, n), dtype=bool)
    outside[:, 0] = False
    best = np.take(wflat, row_start + pidx[0])  # best weight to the tree of each node outside it (−inf inside)
    best[:, 0] = -np.inf
    source = np.zeros((R, n), dtype=np.int64)
    better = np.empty((R, n), dtype=bool)
    for _ in range(n - 1):
        cand = best.argmax(axis=1)
        flat = base + cand
        parent.ravel()[flat] = source.ravel()[flat]
        outside.ravel()[flat] = False
        best.ravel()[flat] = -np.inf
        wc = np.take(wflat, row_start + pidx[cand])  # weights of the added node
        np.greater(wc, best, out=better)
        better &= outside
        np.copyto(best, wc, where=better)
        np.copyto(source, cand[:, None], where=better)
    return parent


def kdb_parents_batch(order: np.ndarray, w: np.ndarray, pidx: np.ndarray, k: int) -> np.ndarray:
    """KDB parents of each row of pair weights (R, n, k; −1 padded, in descending weight order) (§4.3)."""
    R, n = order.shape
    par = np.full((R, n, k), -1, dtype=np.int64)
    if k == 0:
        return par
    rows = np.arange(R)
    for r in range(1, n):
        a = order[:, r]
        cand = w[rows[:, None], pidx[a[:, None], order[:, :r]]]
        for t in range(min(k, r)):
            j = cand.argmax(axis=1)
            par[rows, a, t] = order[rows, j]
            cand[rows, j] = -np.inf
    return par
