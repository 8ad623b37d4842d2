"""Compiled graph kernel of BAN's tpda search (docs/algorithms.md §4.7, AdjPath): imported only
where BAN fits."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.jit import kernel


@kernel
def adj_path(adj, x, y):
    """AdjPath(x, y) on the boolean adjacency matrix `adj`: a mask of the nodes other than x, y on
    some simple x–y path without the edge x–y — the biconnected block of adj + {x–y} holding that
    edge (Tarjan's block search from x with y as its first child; the block of x–y is the one left
    on the stack when the search returns to x)."""
    n = adj.shape[0]
    disc = np.full(n, -1, dtype=np.int64)
    low = np.empty(n, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    frame_v = np.empty(n, dtype=np.int64)
    frame_parent = np.empty(n, dtype=np.int64)
    frame_next = np.empty(n, dtype=np.int64)
    disc[x] = low[x] = 0
    disc[y] = low[y] = 1
    clock = 2
    top = 1
    stack[0] = y
    depth = 1
    frame_v[0], frame_parent[0], frame_next[0] = y, x, 0
    while depth > 0:
        v, parent = frame_v[depth - 1], frame_parent[depth - 1]
        descended = False
        w = frame_next[depth - 1]
        while w < n:
            # v's neighbours: adj plus the virtual edge x–y (x itself is never expanded)
            edge = adj[v, w] or (v == y and w == x)
            if edge and w != parent:
                if disc[w] >= 0:
                    low[v] = min(low[v], disc[w])
                else:
                    disc[w] = low[w] = clock
                    clock += 1
                    stack[top] = w
                    top += 1
                    frame_next[depth - 1] = w + 1
                    frame_v[depth], frame_parent[depth], frame_next[depth] = w, v, 0
                    depth += 1
                    descended = True
                    break
            w += 1
        if descended:
            continue
        depth -= 1
        if depth > 0:
            u = frame_v[depth - 1]
            low[u] = min(low[u], low[v])
            if low[v] >= disc[u]:  # v's subtree closes a block below u: not the block of x–y
                while True:
                    top -= 1
                    if stack[top] == v:
                        break
    out = np.zeros(n, dtype=np.bool_)
    for k in range(top):
        out[stack[k]] = True
    out[y] = False
    return out
