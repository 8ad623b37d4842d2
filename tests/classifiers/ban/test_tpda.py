"""The 2002 TPDA search of BAN(method="tpda") (docs/algorithms.md §4.7 "Sets", Greedy, EdgeNeeded_H,
EdgeNeeded, phases 1–5), hand-worked with a scripted CI test: each example states which tests the
spec makes, and the script answers only those (any other query fails the test)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

import numpy as np
import pytest

from bncbench.classifiers.ban.tpda import TPDA, adj_path, tpda


@dataclass(frozen=True)
class Outcome:
    """A scripted CI-test answer (tpda.Outcome): independence, and κ (smaller = less dependent)."""

    independent: bool
    key: tuple[float, float]


def dep(k: float) -> Outcome:
    return Outcome(False, (k, k))


IND = Outcome(True, (0.0, 0.0))


class Script:
    """A CI test answering the scripted (i, j, Z) only; records the order of the queries."""

    def __init__(self, table: dict):
        self.table = {(min(i, j), max(i, j), tuple(sorted(Z))): o for (i, j, Z), o in table.items()}
        self.asked: list = []

    def __call__(self, i, j, Z):
        key = (min(i, j), max(i, j), tuple(Z))
        assert key in self.table, f"unscripted test {key}"
        self.asked.append(key)
        return self.table[key]


def graph(n, edges):
    adj: list[set[int]] = [set() for _ in range(n)]
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return adj


# -- AdjPath -------------------------------------------------------------------------------------

def matrix(adj):
    """The boolean adjacency matrix of a graph given as neighbour sets."""
    m = np.zeros((len(adj), len(adj)), dtype=bool)
    for v, ws in enumerate(adj):
        m[v, sorted(ws)] = True
    return m


def _brute_adj_path(adj, x, y):
    """Nodes on some simple x–y path avoiding the edge x–y, by enumerating the paths."""
    out = set()

    def walk(v, path):
        if v == y:
            out.update(path[1:-1])
            return
        for w in adj[v]:
            if w not in path and not (v == x and w == y):
                walk(w, path + [w])

    walk(x, [x])
    return out


@pytest.mark.parametrize("seed", range(40))
def test_adj_path_equals_path_enumeration(seed):
    rnd = random.Random(seed)
    n = rnd.randint(3, 8)
    pairs = list(itertools.combinations(range(n), 2))
    adj = graph(n, rnd.sample(pairs, rnd.randint(0, len(pairs))))
    for x, y in pairs:
        g = [set(s) for s in adj]
        g[x].discard(y)
        g[y].discard(x)
        assert adj_path(matrix(g), x, y) == _brute_adj_path(g, x, y), (x, y)


def test_adj_path_hand_worked():
    # 0–1–2–3 and 1–4 (a pendant), 0–5–3: the x–y paths of (0, 3) pass 1, 2 and 5, never 4
    g = graph(6, [(0, 1), (1, 2), (2, 3), (1, 4), (0, 5), (5, 3)])
    assert adj_path(matrix(g), 0, 3) == {1, 2, 5}
    # to the pendant 4 every path ends 1–4, but reaches 1 either way round the cycle
    assert adj_path(matrix(g), 0, 4) == {1, 2, 3, 5}
    g[1].discard(2)
    g[2].discard(1)  # cut the cycle: 0–1–4 is the only path left from 0, and 2 reaches 4 via 3, 5, 0, 1
    assert adj_path(matrix(g), 0, 4) == {1}
    assert adj_path(matrix(g), 2, 4) == {0, 1, 3, 5}
    assert adj_path(matrix(graph(4, [(0, 1), (2, 3)])), 0, 3) == set()


# -- Greedy --------------------------------------------------------------------------------------

def test_greedy_removes_least_dependent_and_breaks_when_kappa_rises():
    # C = {1, 2, 3}: dependent with κ 10. Dropping 1, 2, 3 gives κ 8, 6, 6: the tie → smallest
    # removed node, 2 → C = {1, 3}, s = 6. Dropping 1 gives 7, dropping 3 gives 9: the least is
    # 7 > 6 → failed; ∅ is never tested.
    s = Script({(0, 4, (1, 2, 3)): dep(10), (0, 4, (2, 3)): dep(8), (0, 4, (1, 3)): dep(6),
                (0, 4, (1, 2)): dep(6), (0, 4, (3,)): dep(7), (0, 4, (1,)): dep(9)})
    run = TPDA(5, s)
    assert run.greedy(4, 0, {3, 1, 2}) is False
    assert run.cut_sets == {}
    assert s.asked == [(0, 4, (1, 2, 3)), (0, 4, (2, 3)), (0, 4, (1, 3)), (0, 4, (1, 2)), (0, 4, (3,)), (0, 4, (1,))]


def test_greedy_continues_on_equal_kappa_and_stores_the_separating_set():
    # κ(C) = 5; dropping 1 or 2 both give κ 5 (not larger: go on) → C = {2} (drop 1, the smaller);
    # |C| = 1 ends the loop: failed. With {2}'s sibling independent instead: separated by it.
    s = Script({(0, 3, (1, 2)): dep(5), (0, 3, (2,)): dep(5), (0, 3, (1,)): dep(5)})
    assert TPDA(4, s).greedy(0, 3, {1, 2}) is False
    # equal κ goes on to the next step, where a separating set is found: C = {1, 2, 4}, κ 5; the
    # three subsets all κ 5 → C = {2, 4}; then {4} is independent → separated by {4}
    s = Script({(0, 3, (1, 2, 4)): dep(5), (0, 3, (2, 4)): dep(5), (0, 3, (1, 4)): dep(5),
                (0, 3, (1, 2)): dep(5), (0, 3, (4,)): IND, (0, 3, (2,)): dep(6)})
    run = TPDA(5, s)
    assert run.greedy(0, 3, {1, 2, 4}) is True
    assert run.cut_sets == {(0, 3): (4,)}
    s = Script({(0, 3, (1, 2)): dep(5), (0, 3, (2,)): IND, (0, 3, (1,)): dep(4)})
    run = TPDA(4, s)
    assert run.greedy(0, 3, {1, 2}) is True
    assert run.cut_sets == {(0, 3): (2,)}
    # an independent first test stores C itself; an empty C tests Z = ∅
    run = TPDA(4, Script({(0, 3, (1, 2)): IND, (0, 3, ()): IND}))
    assert run.greedy(3, 0, {2, 1}) and run.cut_sets[(0, 3)] == (1, 2)
    assert run.greedy(0, 3, set()) and run.cut_sets[(0, 3)] == ()  # a later success overwrites


# -- EdgeNeeded_H and EdgeNeeded -----------------------------------------------------------------

def test_edge_needed_h_starts_from_the_neighbours_on_paths_x_side_first():
    # 0–1–2–3, 0–4 (pendant), 3–5 (pendant), 0–6–3. Pair (0, 3): S_0 = {1, 6} (not 4), S_3 = {2, 6}.
    g = graph(7, [(0, 1), (1, 2), (2, 3), (0, 4), (3, 5), (0, 6), (6, 3)])
    s = Script({(0, 3, (1, 6)): dep(3), (0, 3, (6,)): dep(4), (0, 3, (1,)): dep(5),
                (0, 3, (2, 6)): IND})
    run = TPDA(7, s)
    run.adj = g
    assert run.edge_needed_h(0, 3) is False
    assert s.asked[0] == (0, 3, (1, 6)) and s.asked[-1] == (0, 3, (2, 6))
    assert run.cut_sets == {(0, 3): (2, 6)}


def test_edge_needed_takes_the_smaller_two_hop_set():
    # path 0–1–2–3–4 and 1–5–3. Pair (0, 4) (edge absent): AdjPath = {1, 2, 3, 5}.
    # S_0 = {1}, S′_0 = (Ngbr(1) = {0, 2, 5}) ∖ S_0 ∖ {0, 4} = {2, 5} → A = {1, 2, 5};
    # S_4 = {3}, S′_4 = {2, 5} → B = {2, 3, 5}. |A| = |B| → C = B.
    g = graph(6, [(0, 1), (1, 2), (2, 3), (3, 4), (1, 5), (5, 3)])
    s = Script({(0, 4, (2, 3, 5)): IND})
    run = TPDA(6, s)
    run.adj = g
    assert run.edge_needed(0, 4) is False
    assert s.asked == [(0, 4, (2, 3, 5))]
    # with a pendant 6 on 3 (not on a path: S′ ignores it) and a node 7 on 0's side only
    g = graph(8, [(0, 1), (1, 2), (2, 3), (3, 4), (1, 5), (5, 3), (3, 6), (1, 7), (7, 2)])
    # AdjPath(0, 4) = {1, 2, 3, 5, 7}; A = {1} ∪ {2, 5, 7} (4 nodes), B = {3} ∪ {2, 5} (3) → C = B
    s = Script({(0, 4, (2, 3, 5)): dep(2), (0, 4, (3, 5)): dep(3), (0, 4, (2, 5)): dep(1),
                (0, 4, (2, 3)): dep(2), (0, 4, (5,)): dep(4), (0, 4, (2,)): dep(4)})
    run = TPDA(8, s)
    run.adj = g
    assert run.edge_needed(0, 4) is True
    assert s.asked[0] == (0, 4, (2, 3, 5))


# -- phases --------------------------------------------------------------------------------------

def test_drafting_order_thickening_and_thinning_pass_1():
    # I(0;1|Y) = .5, I(1;2|Y) = .4, I(0;2|Y) = .3, all dependent: drafting joins 0–1 and 1–2,
    # (0, 2) goes to R. Thickening: S_0 = {1}: {1} dependent → 0–2 added. Thinning pass 1, E order:
    # 0–1 removed, still a path 0–2–1, S_0 = {2}: I(0;1|2) independent → stays removed (cut-set
    # {2}); 1–2: no other path → back; 0–2: no other path → back. Pass 2: degrees < 3 → nothing.
    s = Script({(0, 1, ()): dep(50), (1, 2, ()): dep(40), (0, 2, ()): dep(30), (0, 2, (1,)): dep(20),
                (0, 1, (2,)): IND})
    key = {(0, 1): 0.5, (1, 2): 0.4, (0, 2): 0.3}
    run = TPDA(3, s)
    adj = run.skeleton(lambda pairs: [key[p] for p in pairs])
    assert adj == [{2}, {2}, {0, 1}]
    assert run.info == {"draft_edges": 2, "thickening_edges": 1, "thinning_removed": 1, "thinning2_removed": 0}
    assert run.cut_sets == {(0, 1): (2,)}
    # orientation: (0, 1) is not adjacent and its common neighbour 2 is in its cut-set → no
    # collider; the free edges low → high
    assert run.orient() == [[], [], [0, 1]]
    assert run.info["collider_arcs"] == 0 and run.info["free_edges"] == 2


def test_independent_pairs_are_never_reconsidered():
    # 1–2 dependent only: 0 stays isolated; no test beyond drafting
    s = Script({(0, 1, ()): IND, (0, 2, ()): IND, (1, 2, ()): dep(1)})
    parents, info = tpda(3, s, lambda pairs: [1.0] * len(pairs))
    assert parents == [[], [], [1]]
    assert len(s.asked) == 3 and info["draft_edges"] == 1


def _star_script(leaves):
    """A star 0–{1..leaves} drafted first, then (1, 2) and (3, 4) thickened (Greedy from {0}
    fails), every later test dependent."""
    t: dict[tuple[int, int, tuple[int, ...]], Outcome] = {(0, v, ()): dep(10 - v) for v in range(1, leaves + 1)}
    t.update({(1, 2, ()): dep(5), (3, 4, ()): dep(4), (1, 2, (0,)): dep(3), (3, 4, (0,)): dep(3)})
    for a, b in itertools.combinations(range(1, leaves + 1), 2):
        t.setdefault((a, b, ()), IND)
    # thinning (pass 1 from S_x, pass 2 from the smaller two-hop set): the other leaf of the triangle
    t.update({(0, 1, (2,)): dep(2), (0, 2, (1,)): dep(2), (0, 3, (4,)): dep(2), (0, 4, (3,)): dep(2)})
    return t


def test_pass_2_examines_edges_at_a_node_with_three_other_neighbours():
    # Star 0–{1, 2, 3, 4} plus 1–2 and 3–4. Pass 1 keeps every edge. Pass 2: 0 has 3 neighbours
    # besides each leaf → 0–1, 0–2, 0–3, 0–4 are removed and tested with EdgeNeeded. For 0–1,
    # AdjPath = {2}, A = S_0 ∪ S′_0 = {2} ∪ ∅, B = S_1 ∪ S′_1 = {2} ∪ ∅, |A| = |B| → C = B = {2}:
    # the test (0, 1 | 2) again, dependent → kept. 1–2 and 3–4 (2 neighbours at each end) are
    # never re-examined: the last four tests are pass 2's.
    t = _star_script(4)
    key = {k[:2]: v.key[0] for k, v in t.items() if not k[2]}
    s = Script(t)
    run = TPDA(5, s)
    adj = run.skeleton(lambda pairs: [key[p] for p in pairs])
    assert adj == graph(5, [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (3, 4)])
    assert run.info["thinning2_removed"] == 0
    assert s.asked[-4:] == [(0, 1, (2,)), (0, 2, (1,)), (0, 3, (4,)), (0, 4, (3,))]
    # the other side of the condition: with leaves 1..3 (0 has 2 neighbours besides each leaf)
    # pass 2 makes no test at all
    t3 = {k: v for k, v in _star_script(4).items() if 4 not in k[:2] and 4 not in k[2]}
    t3[(0, 3, ())] = dep(7)
    key3 = {k[:2]: v.key[0] for k, v in t3.items() if not k[2]}
    s3 = Script(t3)
    run3 = TPDA(4, s3)
    run3.skeleton(lambda pairs: [key3[p] for p in pairs])
    pass1 = [q for q in s3.asked if q[2]]
    # thickening (1, 2 | 0) twice (x's side then y's side), pass 1: 0–1 and 0–2 from each side,
    # 1–2 from each side; nothing after
    assert pass1 == [(1, 2, (0,))] * 2 + [(0, 1, (2,))] * 2 + [(0, 2, (1,))] * 2 + [(1, 2, (0,))] * 2


# -- orientation from stored cut-sets ------------------------------------------------------------

def _oriented(n, edges, cut_sets):
    run = TPDA(n, Script({}))  # no test may be made
    run.adj = graph(n, edges)
    run.cut_sets = dict(cut_sets)
    return run.orient(), run.info


def test_pair_without_cut_set_is_separated_by_the_empty_set():
    # 0–2–1, (0, 1) never got a cut-set (independent at drafting): 0 → 2 ← 1; then 2 – 3 with
    # (0, 3), (1, 3) separated by {2}: R2 orients 2 → 3.
    parents, info = _oriented(4, [(0, 2), (1, 2), (2, 3)], {(0, 3): (2,), (1, 3): (2,)})
    assert parents == [[], [], [0, 1], [2]]
    assert info["collider_arcs"] == 2 and info["r2_arcs"] == 1 and info["conflicting_edges"] == 0


def test_common_neighbour_in_the_cut_set_gives_no_collider():
    parents, info = _oriented(3, [(0, 2), (1, 2)], {(0, 1): (2,)})
    assert info["collider_arcs"] == 0 and info["free_edges"] == 2
    assert parents == [[], [], [0, 1]]  # free edges low → high


def test_conflicting_proposals_stay_undirected():
    # path 0–1–2–3 with (0, 2) and (1, 3) separated by ∅: 0 → 1 ← 2 and 1 → 2 ← 3: edge 1–2 is
    # proposed both ways and stays undirected (counted once); 0 → 1, 3 → 2 oriented; then R2:
    # for 1–2, try 1 → 2: some x → 1 (0) with 0 not adjacent to 2 → 1 → 2.
    parents, info = _oriented(4, [(0, 1), (1, 2), (2, 3)], {(0, 2): (), (1, 3): ()})
    assert info["conflicting_edges"] == 1
    assert parents == [[], [0], [1, 3], []]
    assert info["r2_arcs"] == 1


def test_rule_r3_follows_a_directed_path():
    # 0 → 2 ← 1 (collider; (0, 1) separated by ∅), 2 → 3 by R2 from 0; edge 0–3 with a
    # directed path 0 → 2 → 3: R3 orients 0 → 3 (R2 cannot: 0 has no parent, and for 3 → 0 the
    # parent 2 of 3 is adjacent to 0).
    parents, info = _oriented(4, [(0, 2), (1, 2), (2, 3), (0, 3)], {(1, 3): (0, 2)})
    assert parents == [[], [], [0, 1], [0, 2]]
    assert (info["r2_arcs"], info["r3_arcs"], info["free_edges"]) == (1, 1, 0)


def test_orientation_makes_no_test():
    # a 5-cycle, no cut-set stored: every non-adjacent pair proposes a collider at its common
    # neighbour, so every edge is proposed both ways (5 conflicts) and none is oriented; no rule
    # applies; the free edges go low → high (3 → 4 closes no cycle: 4's other arc is 0 → 4).
    parents, info = _oriented(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], {})
    assert info["conflicting_edges"] == 5 and info["collider_arcs"] == 0
    assert parents == [[], [0], [1], [2], [0, 3]]


def test_whole_search_on_data_is_a_dag_and_reports_counts():
    from bncbench.classifiers import BAN
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(600, 7))
    X[:, 1] = (X[:, 0] + (rng.random(600) < 0.2)) % 3
    X[:, 2] = (X[:, 1] + X[:, 3]) % 3
    y = (X[:, 0] + rng.integers(0, 2, 600)) % 2
    b = BAN(method="tpda", cardinalities=[3] * 7, n_classes=2).fit(X, y)
    assert {"distinct_tests", "tests_lacking_data", "conflicting_edges"} <= set(b.info_)
    assert b.info_["distinct_tests"] >= 21  # every pair is tested at least once (drafting)
    seen = set()

    def visit(v, stack=()):
        assert v not in stack, "cycle"
        if v in seen:
            return
        for p in b.parents_[v]:
            visit(p, stack + (v,))
        seen.add(v)

    for v in range(7):
        visit(v)
