"""Friedman's BAN hill climbing (docs/algorithms.md §4.7): the incremental `hill_climb` against the
original loop (every move's delta re-evaluated each step, kept here as the reference) on seeded
random data — dependencies drawn from a random network so that many moves happen, duplicated
columns so that moves tie exactly — with 1, 2 and 8 attribute parents at most."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.ban.hill_climbing import _combine, family_terms, hill_climb


def _reach(parents: list[set[int]]) -> np.ndarray:
    """reach[a, b]: a directed path of length ≥ 1 from a to b."""
    n = len(parents)
    adj = np.zeros((n, n), dtype=bool)
    for c, par in enumerate(parents):
        for p in par:
            adj[p, c] = True
    reach = adj.copy()
    while True:
        nxt = reach | ((reach.astype(np.int64) @ adj.astype(np.int64)) > 0)
        if np.array_equal(nxt, reach):
            return reach
        reach = nxt


def reference_hill_climb(T: EntropyTerms, card: np.ndarray, n_classes: int,
                         max_parents: int) -> tuple[list[list[int]], int]:
    """The original implementation of `hill_climb`: all moves' deltas evaluated at every step."""
    n = card.shape[0]
    parents: list[set[int]] = [set() for _ in range(n)]
    fam_cache: dict[tuple[int, frozenset], tuple[list[float], int]] = {}

    def fam(c: int, par) -> tuple[list[float], int]:
        key = (c, frozenset(par))
        t = fam_cache.get(key)
        if t is None:
            t = family_terms(T, c, par, card, n_classes)
            fam_cache[key] = t
        return t

    def delta(changes) -> float:
        terms, cells = [], 0
        for c, new in changes:
            t_new, c_new = fam(c, new)
            t_old, c_old = fam(c, parents[c])
            terms += t_new + [-t for t in t_old]
            cells += c_new - c_old
        return _combine(T, terms, cells)

    moves = 0
    while True:
        reach = _reach(parents)
        best, best_delta = None, 0.0
        for p in range(n):  # add p → c
            for c in range(n):
                if p == c or p in parents[c] or reach[c, p] or len(parents[c]) >= max_parents:
                    continue
                d = delta([(c, parents[c] | {p})])
                if d > best_delta:
                    best, best_delta = ("add", p, c), d
        for p in range(n):  # delete p → c
            for c in range(n):
                if p in parents[c]:
                    d = delta([(c, parents[c] - {p})])
                    if d > best_delta:
                        best, best_delta = ("delete", p, c), d
        for p in range(n):  # reverse p → c into c → p
            for c in range(n):
                if p not in parents[c] or len(parents[p]) >= max_parents:
                    continue
                # another path p ⇝ c would close a cycle with c → p
                if any(reach[q, c] for q in range(n) if q != c and p in parents[q]):
                    continue
                d = delta([(c, parents[c] - {p}), (p, parents[p] | {c})])
                if d > best_delta:
                    best, best_delta = ("reverse", p, c), d
        if best is None:
            return [sorted(par) for par in parents], moves
        op, p, c = best
        if op == "add":
            parents[c].add(p)
        elif op == "delete":
            parents[c].discard(p)
        else:
            parents[c].discard(p)
            parents[p].add(c)
        moves += 1


def network_data(seed: int, n_rows: int, n_attr: int, n_classes: int, n_copies: int, alpha: float = 0.3,
                 max_net_parents: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, cardinalities) drawn from a random class-augmented network: each attribute has the
    class and up to `max_net_parents` earlier attributes as parents, with peaked conditional
    tables (Dirichlet `alpha`), so that hill climbing makes many moves; then `n_copies` extra
    columns, each a copy of a random earlier column with its values relabelled, so that some
    moves tie exactly."""
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 5, size=n_attr)
    y = rng.integers(0, n_classes, size=n_rows)
    X = np.empty((n_rows, n_attr), dtype=np.int64)
    for i in range(n_attr):
        par = rng.choice(i, size=min(i, int(rng.integers(0, max_net_parents + 1))), replace=False) if i else np.zeros(0, dtype=int)
        config = y.copy()
        n_config = n_classes
        for q in par:
            config = config * cards[q] + X[:, q]
            n_config *= int(cards[q])
        cpt = np.cumsum(rng.dirichlet(np.full(cards[i], alpha), size=n_config), axis=1)
        X[:, i] = np.minimum((rng.random(n_rows)[:, None] > cpt[config]).sum(axis=1), cards[i] - 1)
    for _ in range(n_copies):
        src = int(rng.integers(0, X.shape[1]))
        X = np.column_stack([X, rng.permutation(int(cards[src]))[X[:, src]]])
        cards = np.append(cards, cards[src])
    return X, y, cards


CASES = [(seed, n_rows, n_attr, n_copies, alpha, max_net_parents, max_parents)
         for seed, n_rows, n_attr, n_copies, alpha, max_net_parents in [
             (0, 300, 6, 0, 0.3, 3), (1, 1500, 8, 0, 0.3, 3), (2, 800, 10, 2, 0.3, 3), (3, 400, 7, 3, 0.3, 3),
             (4, 2000, 12, 1, 0.3, 3), (6, 1200, 11, 4, 0.3, 3), (7, 600, 5, 5, 0.3, 3),
             (9, 3000, 20, 3, 0.15, 4), (10, 5000, 16, 2, 0.15, 4),
             (14, 1819, 8, 1, 0.2, 4), (25, 2235, 12, 2, 0.2, 4),  # these two reverse an arc
             (12, 80, 8, 2, 0.1, 3)]  # few rows: most additions are ruled out by the bound
         for max_parents in (1, 2, 8)]


@pytest.mark.parametrize("seed,n_rows,n_attr,n_copies,alpha,max_net_parents,max_parents", CASES)
def test_hill_climb_equals_original_loop(seed, n_rows, n_attr, n_copies, alpha, max_net_parents, max_parents):
    X, y, cards = network_data(seed, n_rows, n_attr, 3 if seed % 2 else 2, n_copies, alpha, max_net_parents)
    n_classes = int(y.max()) + 1

    def terms() -> EntropyTerms:
        return EntropyTerms(X, y, cards, n_classes)

    got = hill_climb(terms(), cards, n_classes, max_parents)
    expect = reference_hill_climb(terms(), cards, n_classes, max_parents)
    assert got == expect
    assert expect[1] >= n_attr // 2
    assert all(len(par) <= max_parents for par in got[0])


def test_duplicated_columns_tie_exactly():
    # three relabelled copies of one column: the additions among them have exactly equal
    # score differences, so the (parent, child) tie rule decides, in both implementations
    X, y, cards = network_data(11, 500, 3, 2, 0)
    X = np.column_stack([X, X[:, 2], (X[:, 2] + 1) % cards[2], X[:, 2]])
    cards = np.append(cards, [cards[2]] * 3)
    got = hill_climb(EntropyTerms(X, y, cards, 2), cards, 2, 8)
    assert got == reference_hill_climb(EntropyTerms(X, y, cards, 2), cards, 2, 8)
    assert got[0][3] == [2]
