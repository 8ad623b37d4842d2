"""The earlier reconstruction of Cheng & Greiner's three-phase dependency analysis, kept as
`BAN(method="tpda", ban_test="epsilon")` (docs/algorithms.md §4.7, last paragraph): ML CMI in nats
against a fixed ε, drafting, thickening and one thinning pass with the cut-set routine, and an
orientation step that re-runs the cut-set search on the final skeleton. `tpda.py` holds the 2002
procedure the spec now prescribes."""

from __future__ import annotations

from bncbench.classifiers.ban.entropy_terms import EntropyTerms


def _component(adj: list[set[int]], a: int, avoid: int | None = None) -> set[int]:
    """The nodes joined to a by an undirected path (not passing through `avoid`)."""
    seen = {a}
    todo = [a]
    while todo:
        for w in adj[todo.pop()]:
            if w not in seen and w != avoid:
                seen.add(w)
                todo.append(w)
    return seen


def cut_set(adj: list[set[int]], i: int, j: int, cmi, eps: float,
            allow_empty: bool = False) -> tuple[bool, tuple[int, ...] | None]:
    """The cut-set routine (§4.7 step 4) on the undirected graph `adj` (the edge under test, if
    any, already removed). Returns (separated, separating set). `cmi(a, b, Z)` with a < b.
    `allow_empty` (orientation step): also test Z = ∅ when Z empties."""
    lo, hi = min(i, j), max(i, j)

    def test(Z) -> float:
        return cmi(lo, hi, tuple(sorted(Z)))

    for a, b in ((lo, hi), (hi, lo)):
        near_b = _component(adj, b, avoid=a)  # neighbours of a on a path to b that avoids a
        Z = {nb for nb in adj[a] if nb != b and nb in near_b}
        while True:
            if not Z:
                if allow_empty and test(()) <= eps:
                    return True, ()
                break
            cur = test(Z)
            if cur <= eps:
                return True, tuple(sorted(Z))
            best_val, best_z = min((test(Z - {z}), z) for z in Z)
            if best_val < cur:
                Z = Z - {best_z}
            else:
                break
    return False, None


def tpda_skeleton(n: int, cmi, eps: float) -> tuple[list[set[int]], dict]:
    """Drafting, thickening and thinning (§4.7 steps 1–3). Returns (adjacency, info)."""
    strong = []
    for i in range(n):
        for j in range(i + 1, n):
            v = cmi(i, j, ())
            if v > eps:
                strong.append((-v, i, j))
    strong.sort()
    adj: list[set[int]] = [set() for _ in range(n)]
    comp = list(range(n))  # union–find: the drafting graph is a forest

    def root(a: int) -> int:
        while comp[a] != a:
            comp[a] = comp[comp[a]]
            a = comp[a]
        return a

    added, rest = [], []
    for _, i, j in strong:
        ri, rj = root(i), root(j)
        if ri != rj:
            comp[ri] = rj
            adj[i].add(j)
            adj[j].add(i)
            added.append((i, j))
        else:
            rest.append((i, j))
    n_draft = len(added)
    for i, j in rest:  # thickening
        if not cut_set(adj, i, j, cmi, eps)[0]:
            adj[i].add(j)
            adj[j].add(i)
            added.append((i, j))
    removed = []
    for i, j in added:  # thinning: one pass in the order the edges were added
        adj[i].discard(j)
        adj[j].discard(i)
        if j in _component(adj, i) and cut_set(adj, i, j, cmi, eps)[0]:
            removed.append((i, j))
            continue
        adj[i].add(j)
        adj[j].add(i)
    info = {"draft_edges": n_draft, "thickening_edges": len(added) - n_draft, "thinning_removed": len(removed)}
    return adj, info


def _closes_cycle(children: list[set[int]], u: int, v: int) -> bool:
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


def tpda_orient(adj: list[set[int]], cmi, eps: float) -> tuple[list[list[int]], dict]:
    """Orientation (§4.7 step 5): collider proposals from the cut-set routine on the final
    skeleton, Meek's rules 1 and 2, then low → high index where no cycle. Returns (parents, info)."""
    n = len(adj)
    proposals = set()
    for a in range(n):
        for b in range(a + 1, n):
            if b in adj[a]:
                continue
            common = adj[a] & adj[b]
            if not common:
                continue
            sep, S = cut_set(adj, a, b, cmi, eps, allow_empty=True)
            if sep:
                for c in sorted(common - set(S)):
                    proposals.add((a, c))
                    proposals.add((b, c))
    children: list[set[int]] = [set() for _ in range(n)]
    undirected = {(min(u, v), max(u, v)) for u in range(n) for v in adj[u]}
    conflicts = 0
    n_collider = 0
    for u, v in sorted(proposals):
        if (v, u) in proposals:
            conflicts += u < v  # count each edge proposed both ways once
            continue
        if not _closes_cycle(children, u, v):
            children[u].add(v)
            undirected.discard((min(u, v), max(u, v)))
            n_collider += 1

    def arc(u: int, v: int) -> bool:
        return v in children[u]

    def adjacent(u: int, v: int) -> bool:
        return v in adj[u]

    def meek(u: int, v: int) -> bool:
        # rule 1: a → u − v, a and v not adjacent
        if any(arc(a, u) and a != v and not adjacent(a, v) for a in range(n)):
            return True
        # rule 2: u → a → v
        return any(arc(u, a) and arc(a, v) for a in range(n))

    n_meek = 0
    changed = True
    while changed:
        changed = False
        for u, v in sorted(undirected):
            for s, t in ((u, v), (v, u)):
                if meek(s, t) and not _closes_cycle(children, s, t):
                    children[s].add(t)
                    undirected.discard((u, v))
                    n_meek += 1
                    changed = True
                    break
    for u, v in sorted(undirected):
        if _closes_cycle(children, u, v):
            children[v].add(u)
        else:
            children[u].add(v)
    parents = [sorted(p for p in range(n) if c in children[p]) for c in range(n)]
    info = {"collider_arcs": n_collider, "conflicting_edges": conflicts, "meek_arcs": n_meek,
            "free_edges": len(undirected)}
    return parents, info


def tpda(T: EntropyTerms, eps: float) -> tuple[list[list[int]], dict]:
    """Cheng & Greiner's BAN structure (§4.7 steps 1–5) from the count tables."""
    n = T.Xc.shape[1]
    cache: dict[tuple, float] = {}

    def cmi(i: int, j: int, Z: tuple[int, ...]) -> float:
        key = (i, j, Z)
        v = cache.get(key)
        if v is None:
            v = T.cmi(i, j, Z)
            cache[key] = v
        return v

    adj, info = tpda_skeleton(n, cmi, eps)
    parents, info2 = tpda_orient(adj, cmi, eps)
    info.update(info2)
    info["distinct_tests"] = len(cache)
    return parents, info
