"""Friedman's BAN structure search (paper 002's BAN-MDL baseline, ALGORITHMS.md §4.7): greedy hill
climbing over arcs between attributes with the MDL/BIC score of the class-augmented network."""

from __future__ import annotations

import math

import numpy as np

from bncbench.classifiers.entropy_terms import EntropyTerms


def family_terms(T: EntropyTerms, child: int, parents, card: np.ndarray, n_classes: int) -> tuple[list[float], int]:
    """One family's MDL/BIC score (§4.7)
    Σ N(x_i, π_i, y) ln(N(x_i, π_i, y) / N(π_i, y)) − (ln N / 2)·(|X_i| − 1)·|Y|·Π_{j∈π_i} |X_j|
    as (the signed log-likelihood terms T(π ∪ {i}), −T(π); the integer (|X_i| − 1)·|Y|·Π|X_j|).
    Keeping the parameter count an integer makes score differences of moves with the same
    terms exactly equal (e.g. adding a → b or b → a: the count differs by
    (|X_a| − 1)(|X_b| − 1)|Y| either way)."""
    par = tuple(sorted(parents))
    cells = (int(card[child]) - 1) * n_classes
    for p in par:
        cells *= int(card[p])
    return [T(par + (child,)), -T(par)], cells


def _combine(T: EntropyTerms, terms: list[float], cells: int) -> float:
    return math.fsum(terms) - (math.log(T.n) / 2.0) * cells


def mdl_score(T: EntropyTerms, parents: list, card: np.ndarray, n_classes: int) -> float:
    """MDL/BIC score of the class-augmented network whose attribute parents are `parents`."""
    terms, cells = [], 0
    for i, par in enumerate(parents):
        t, c = family_terms(T, i, par, card, n_classes)
        terms += t
        cells += c
    return _combine(T, terms, cells)


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


def hill_climb(T: EntropyTerms, card: np.ndarray, n_classes: int, max_parents: int) -> tuple[list[list[int]], int]:
    """Friedman's BAN by greedy hill climbing from NB (§4.7): add / delete / reverse one arc
    between attributes, acyclic, ≤ `max_parents` attribute parents; the best strictly improving
    move each step; ties → add < delete < reverse, then (parent, child) (for a reversal: the
    arc as it is before the move). Returns (parents, number of moves)."""
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
