"""Friedman's BAN structure search (paper 002's BAN-MDL baseline, docs/algorithms.md §4.7): greedy hill
climbing over arcs between attributes with the MDL/BIC score of the class-augmented network."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import repeat

import numpy as np

from bncbench.classifiers.ban.entropy_terms import EntropyTerms


def family_terms(T: Callable[[tuple[int, ...]], float], child: int, parents, card: np.ndarray,
                 n_classes: int) -> tuple[list[float], int]:
    """One family's MDL/BIC score (§4.7) as its signed entropy terms T and its integer parameter count."""
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


def _closure(adj: np.ndarray) -> np.ndarray:
    """reach[a, b]: a directed path of length ≥ 1 from a to b in the graph `adj` (by squaring:
    paths of length ≤ 2^k after k products)."""
    reach = adj.copy()
    while True:
        r = reach.astype(np.float64)
        nxt = reach | ((r @ r) > 0)
        if np.array_equal(nxt, reach):
            return reach
        reach = nxt


def hill_climb(T: EntropyTerms, card: np.ndarray, n_classes: int, max_parents: int) -> tuple[list[list[int]], int]:
    """Friedman's BAN by greedy hill climbing from NB (§4.7); returns (parents, number of moves)."""
    n = card.shape[0]
    if n < 2:  # no arc
        return [[] for _ in range(n)], 0
    half_log_n = math.log(T.n) / 2.0
    parents: list[set[int]] = [set() for _ in range(n)]
    fam = [family_terms(T, c, (), card, n_classes) for c in range(n)]  # current families' terms, cells
    adj = np.zeros((n, n), dtype=bool)  # adj[p, c]: p → c
    reach = np.zeros((n, n), dtype=bool)
    delta = np.full((3, n, n), -np.inf)  # score difference of add / delete / reverse of (p, c)
    known = np.zeros((3, n, n), dtype=bool)
    # An addition p → c gains N·I(X_p; X_c | π_c, Y) ≤ min(N·H(X_c | π_c, Y), N·H(X_p | Y)) in
    # log-likelihood; when that bound minus the added cells' penalty (`caps`) is below −`margin`
    # (far beyond the rounding error of the terms), the difference is ≤ 0: the move can never be
    # chosen, and its difference is left at −inf without counting.
    h_given_y = np.array([T(()) - T((p,)) for p in range(n)])  # N·H(X_p | Y)
    margin = 1e-9 * (1.0 + T.n * math.log(T.n))
    off_diagonal = ~np.eye(n, dtype=bool)
    cards = [int(k) for k in card]

    extensions: dict[int, float] = {}  # T(S) of the sets S counted as a numbered set's extensions, by S's bits
    bits = [1 << a for a in range(n)]
    top_card = max(cards)

    def extended(base: tuple[int, ...], ps: list[int]) -> list[float]:
        """T(base ∪ {p}) for each p ∉ base of `ps`, the uncached ones counted together from `T`'s
        numbering of base's configurations (`EntropyTerms.extensions`); the same floats as
        `T(base ∪ {p})` (a term's value does not depend on how the cells are numbered)."""
        key = sum(bits[a] for a in base)
        keys = list(map(key.__or__, map(bits.__getitem__, ps)))
        new = [p for p, k in zip(ps, keys) if k not in extensions]
        if new:
            extensions.update(zip(map(key.__or__, map(bits.__getitem__, new)), T.extensions(T.groups(base), new)))
        return list(map(extensions.__getitem__, keys))

    def term(key: tuple[int, ...]) -> float:
        """T(key), from the extensions counted (the same float as `T`'s) or else from `T`."""
        t = extensions.get(sum(bits[a] for a in key))
        return T(key) if t is None else t

    def additions(c: int, ps: np.ndarray) -> None:
        """Score differences of adding p → c for the parents p in `ps`: fsum(T(π ∪ {c, p}), −T(π ∪ {p}),
        −T(π ∪ {c}), T(π)) − (ln N / 2)·(added cells), one `math.fsum` per move as the family scores
        are summed, the penalties in one array (the same products: integers below 2^53 times a float)."""
        t_c, cells_c = fam[c]
        base = tuple(sorted(parents[c]))
        base_c = tuple(sorted(parents[c] | {c}))
        caps = np.minimum(-math.fsum(t_c), h_given_y[ps]) - half_log_n * (float(cells_c) * (card[ps] - 1.0))
        delta[0, ps[caps < -margin], c] = -np.inf
        known[0, ps, c] = True
        counted = ps[caps >= -margin]
        if not counted.size:
            return
        which = counted.tolist()
        with_c, without_c = extended(base_c, which), extended(base, which)
        gained = np.fromiter(map(math.fsum, zip(with_c, map(float.__neg__, without_c), repeat(-t_c[0]),
                                                repeat(-t_c[1]))), dtype=np.float64, count=len(which))
        if cells_c * top_card < 2 ** 53:  # each added cell count a float exactly, in int64 as in Python
            delta[0, counted, c] = gained - half_log_n * (cells_c * (card[counted] - 1)).astype(np.float64)
        else:
            delta[0, counted, c] = gained - np.array([half_log_n * (cells_c * (cards[p] - 1)) for p in which])

    def change(c: int, par: set[int]) -> tuple[list[float], int]:
        """Signed terms and cell difference of giving attribute c the parents `par`."""
        t_new, c_new = family_terms(term, c, par, card, n_classes)
        t_old, c_old = fam[c]
        return t_new + [-t for t in t_old], c_new - c_old

    moves = 0
    while True:
        free = np.array([len(par) < max_parents for par in parents], dtype=bool)
        longer_path = (adj.astype(np.float64) @ reach.astype(np.float64)) > 0  # p ⇝ c but not by p → c alone
        legal = np.stack([off_diagonal & ~adj & ~reach.T & free[None, :],
                          adj,
                          adj & free[:, None] & ~longer_path])
        todo = legal & ~known
        for c in np.flatnonzero(todo[0].any(axis=0)).tolist():
            additions(c, np.flatnonzero(todo[0, :, c]))
        for op, p, c in zip(*np.nonzero(todo[1:])):
            op, p, c = int(op) + 1, int(p), int(c)
            terms, cells = change(c, parents[c] - {p})
            if op == 2:
                t_p, cells_p = change(p, parents[p] | {c})
                terms += t_p
                cells += cells_p
            delta[op, p, c] = math.fsum(terms) - half_log_n * cells
            known[op, p, c] = True
        gain = np.where(legal, delta, -np.inf)
        best = int(np.argmax(gain))
        if not gain.flat[best] > 0.0:
            for c, par in enumerate(parents):  # the final families' terms, for `mdl_score` (the same floats)
                for key in (tuple(sorted(par | {c})), tuple(sorted(par))):
                    T.learn(key, term(key))
            return [sorted(par) for par in parents], moves
        op, p, c = (int(v) for v in np.unravel_index(best, gain.shape))
        if op == 0:
            parents[c].add(p)
            adj[p, c] = True
            into_p = reach[:, p].copy()
            into_p[p] = True
            from_c = reach[c].copy()
            from_c[c] = True
            reach |= np.outer(into_p, from_c)
            changed: tuple[int, ...] = (c,)
        else:
            parents[c].discard(p)
            adj[p, c] = False
            changed = (c,)
            if op == 2:
                parents[p].add(c)
                adj[c, p] = True
                changed = (c, p)
            reach = _closure(adj)
        for a in changed:
            fam[a] = family_terms(term, a, parents[a], card, n_classes)
            known[:, :, a] = False  # moves into a
            known[2, a, :] = False  # reversals of a → q give a a parent
        moves += 1
