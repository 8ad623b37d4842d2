"""Three-phase dependency analysis (Cheng et al. 2002), the class in each conditioning set (docs/algorithms.md §4.7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from bncbench.classifiers.ban import tpda_kernels


class Outcome(Protocol):
    @property
    def independent(self) -> bool: ...
    @property
    def key(self) -> tuple[float, float]: ...


CITest = Callable[[int, int, tuple[int, ...]], Outcome]
DraftKeys = Callable[[list[tuple[int, int]]], list[float]]  # the drafting keys of pairs i < j, in their order
Graph = list[set[int]]


def adj_path(adj: np.ndarray, x: int, y: int) -> set[int]:
    """AdjPath(x, y): the nodes other than x, y on some simple x–y path of the graph with boolean
    adjacency matrix `adj`, without the edge x–y (the compiled block search of `tpda_kernels`)."""
    return set(np.flatnonzero(tpda_kernels.adj_path(adj, x, y)).tolist())


class TPDA:
    """One run of the search on n attributes with the CI test `test` (§4.7 "Sets", Greedy,
    EdgeNeeded_H, EdgeNeeded and phases 1–5). `cut_sets[(a, b)]` holds the last separating set
    found for the pair a < b."""

    def __init__(self, n: int, test: CITest):
        self.n = n
        self.test = test
        self.leave_one_out = getattr(test, "leave_one_out", None)  # a test that computes a step's tests together
        self.drafting = getattr(test, "drafting", None)  # … and the drafting phase's
        self.adj = [set() for _ in range(n)]
        self.cut_sets: dict[tuple[int, int], tuple[int, ...]] = {}
        self.info: dict = {}

    @property
    def adj(self) -> Graph:
        """The current graph as neighbour sets (also held as `adj_matrix`, for `adj_path`)."""
        return self._adj

    @adj.setter
    def adj(self, graph: Graph) -> None:
        self._adj = graph
        self.adj_matrix = np.zeros((self.n, self.n), dtype=np.bool_)
        for v, ws in enumerate(graph):
            self.adj_matrix[v, sorted(ws)] = True

    # -- sets -------------------------------------------------------------------------------------

    def _side_sets(self, x: int, y: int, two_hop: bool) -> tuple[set[int], set[int]]:
        """(S_x, S_y), or with `two_hop` (S_x ∪ S′_x, S_y ∪ S′_y)."""
        path = adj_path(self.adj_matrix, x, y)
        out = []
        for v in (x, y):
            s = self.adj[v] & path
            if two_hop:
                s = s | ((set().union(*(self.adj[w] for w in s)) - s - {x, y}) & path)
            out.append(s)
        return out[0], out[1]

    # -- the cut-set search -----------------------------------------------------------------------

    def greedy(self, x: int, y: int, C: set[int]) -> bool:
        """Greedy(x, y, C): whether some subset of C reached by removing the node of least κ, one at
        a time, separates x and y (storing it as their cut-set)."""
        x, y = min(x, y), max(x, y)
        cur = tuple(sorted(C))
        out = self.test(x, y, cur)
        if out.independent:
            self.cut_sets[(x, y)] = cur
            return True
        s = out.key
        while len(cur) > 1:
            if self.leave_one_out:  # removing cur[k], ascending
                outs = self.leave_one_out(x, y, cur)
            else:
                outs = [self.test(x, y, cur[:k] + cur[k + 1:]) for k in range(len(cur))]
            keys = [o.key for o in outs]
            best = keys.index(min(keys))  # the first of the least κ: ties → the smallest dropped node
            o, sub = outs[best], cur[:best] + cur[best + 1:]
            if o.independent:
                self.cut_sets[(x, y)] = sub
                return True
            if o.key > s:
                return False
            cur, s = sub, o.key
        return False

    def edge_needed_h(self, x: int, y: int) -> bool:
        """EdgeNeeded_H (Fig. 6): false iff x's side S_x, or else y's side S_y, separates."""
        sx, sy = self._side_sets(x, y, two_hop=False)
        if sx and self.greedy(x, y, sx):
            return False
        return not (sy and self.greedy(x, y, sy))

    def edge_needed(self, x: int, y: int) -> bool:
        """EdgeNeeded (Fig. 8): Greedy from the smaller of S_x ∪ S′_x and S_y ∪ S′_y (ties → y's)."""
        a, b = self._side_sets(x, y, two_hop=True)
        return not self.greedy(x, y, a if len(a) < len(b) else b)

    # -- phases -----------------------------------------------------------------------------------

    def _link(self, i: int, j: int) -> None:
        self.adj[i].add(j)
        self.adj[j].add(i)
        self.adj_matrix[i, j] = self.adj_matrix[j, i] = True

    def _unlink(self, i: int, j: int) -> None:
        self.adj[i].discard(j)
        self.adj[j].discard(i)
        self.adj_matrix[i, j] = self.adj_matrix[j, i] = False

    def skeleton(self, draft_keys: DraftKeys) -> Graph:
        """Phases 1–4: drafting (pairs dependent given Y by their `draft_keys` descending, ties
        lexicographic), thickening, thinning passes 1 and 2."""
        n = self.n
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        outs = self.drafting(pairs) if self.drafting else [self.test(i, j, ()) for i, j in pairs]
        dependent = [p for p, o in zip(pairs, outs) if not o.independent]
        negated = dict(zip(dependent, [-k for k in draft_keys(dependent)]))
        dependent.sort(key=negated.__getitem__)  # stable: lexicographic among ties
        comp = list(range(n))  # union–find: the drafting graph is a forest

        def root(a: int) -> int:
            while comp[a] != a:
                comp[a] = comp[comp[a]]
                a = comp[a]
            return a

        edges, rest = [], []
        for i, j in dependent:
            ri, rj = root(i), root(j)
            if ri != rj:
                comp[ri] = rj
                self._link(i, j)
                edges.append((i, j))
            else:
                rest.append((i, j))
        n_draft = len(edges)
        for i, j in rest:  # thickening
            if self.edge_needed_h(i, j):
                self._link(i, j)
                edges.append((i, j))
        removed1 = 0
        for i, j in edges:  # thinning, pass 1
            self._unlink(i, j)
            if adj_path(self.adj_matrix, i, j) and not self.edge_needed_h(i, j):
                removed1 += 1
            else:
                self._link(i, j)
        removed2 = 0
        for i, j in edges:  # thinning, pass 2
            if j not in self.adj[i] or (len(self.adj[i]) < 4 and len(self.adj[j]) < 4):
                continue
            self._unlink(i, j)
            if self.edge_needed(i, j):
                self._link(i, j)
            else:
                removed2 += 1
        self.info.update(draft_edges=n_draft, thickening_edges=len(edges) - n_draft,
                         thinning_removed=removed1, thinning2_removed=removed2)
        return self.adj

    def orient(self) -> list[list[int]]:
        """Phase 5 (Fig. 9) from the stored cut-sets, no new test: colliders, then rules R2 and R3
        until nothing changes, then the remaining edges low → high where no cycle."""
        n, adj = self.n, self.adj
        proposals = set()
        for a in range(n):
            for b in range(a + 1, n):
                if b in adj[a]:
                    continue
                cut = self.cut_sets.get((a, b), ())
                for c in sorted(adj[a] & adj[b]):
                    if c not in cut:
                        proposals.add((a, c))
                        proposals.add((b, c))
        children: Graph = [set() for _ in range(n)]
        undirected = {(min(u, v), max(u, v)) for u in range(n) for v in adj[u]}
        conflicts = colliders = 0
        for u, v in sorted(proposals):
            if (v, u) in proposals:
                conflicts += u < v  # each edge proposed both ways counted once
                continue
            if not _closes_cycle(children, u, v):
                children[u].add(v)
                undirected.discard((min(u, v), max(u, v)))
                colliders += 1

        def r2(s: int, t: int) -> bool:  # some x → s, x ≠ t, x not adjacent to t
            return any(s in children[x] and x != t and x not in adj[t] for x in range(n))

        def r3(s: int, t: int) -> bool:  # a directed path s ⇝ t
            return _closes_cycle(children, t, s)

        counts = {"r2_arcs": 0, "r3_arcs": 0}
        changed = True
        while changed:
            changed = False
            for name, rule in (("r2_arcs", r2), ("r3_arcs", r3)):
                for u, v in sorted(undirected):
                    for s, t in ((u, v), (v, u)):
                        if rule(s, t) and not _closes_cycle(children, s, t):
                            children[s].add(t)
                            undirected.discard((u, v))
                            counts[name] += 1
                            changed = True
                            break
        for u, v in sorted(undirected):
            if _closes_cycle(children, u, v):
                children[v].add(u)
            else:
                children[u].add(v)
        self.info.update(collider_arcs=colliders, conflicting_edges=conflicts, **counts,
                         free_edges=len(undirected))
        return [sorted(p for p in range(n) if c in children[p]) for c in range(n)]


def _closes_cycle(children: Graph, u: int, v: int) -> bool:
    """Whether the arc u → v closes a directed cycle (a directed path v ⇝ u exists)."""
    seen = {v}
    todo = [v]
    while todo:
        a = todo.pop()
        if a == u:
            return True
        for w in children[a]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return False


def tpda(n: int, test: CITest, draft_keys: DraftKeys) -> tuple[list[list[int]], dict]:
    """Phases 1–5 of §4.7 on n attributes: (parents, info)."""
    run = TPDA(n, test)
    run.skeleton(draft_keys)
    parents = run.orient()
    return parents, run.info
