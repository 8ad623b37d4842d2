"""Structure learning helpers: Prim's maximum spanning tree (TAN) and KDB parent choice."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.ordering import gcc_descending, stable_descending


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
    """KDB-k (Sahami 1996, §4.3): attribute order by I(X;Y) descending and, for each attribute,
    its parents in descending CMI order (ties → earlier in the MI order). The order is stable,
    or with `gcc_order` the one of GCC's `std::sort` (the C++ system's, §0.3; used with float32
    information values)."""
    order = gcc_descending(mi) if gcc_order else stable_descending(mi)
    parents: list[list[int]] = [[] for _ in range(mi.size)]
    for r, a in enumerate(order):
        preceding = order[:r]
        if preceding.size == 0 or k == 0:
            continue
        ranked = preceding[np.argsort(-cmi[a, preceding], kind="stable")]
        parents[int(a)] = [int(p) for p in ranked[:k]]
    return order, parents
