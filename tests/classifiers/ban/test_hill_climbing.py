"""Friedman's BAN hill climbing (docs/algorithms.md §4.7): the incremental `hill_climb` against the
plain-Python reference `tests/oracles/ban/hill_climbing.py` (written from the spec: dict counts, every
move's score difference re-evaluated at every step, ties decided in exact arithmetic) on seeded
random data — dependencies drawn from a random network so that many moves happen, duplicated
columns so that moves tie exactly — with 1, 2 and 8 attribute parents at most."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from bncbench.classifiers.ban.compiled_terms import CompiledTerms
from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.ban.hill_climbing import hill_climb
from tests.oracles.ban import hill_climbing as oracle


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
        par = (rng.choice(i, size=min(i, int(rng.integers(0, max_net_parents + 1))), replace=False)
               if i else np.zeros(0, dtype=int))
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


@functools.cache
def _case(seed, n_rows, n_attr, n_copies, alpha, max_net_parents):
    """The data of a case and the oracle's family scores (shared by the three parent caps)."""
    X, y, cards = network_data(seed, n_rows, n_attr, 3 if seed % 2 else 2, n_copies, alpha, max_net_parents)
    n_classes = int(y.max()) + 1
    return X, y, cards, n_classes, oracle.Scores(X.tolist(), y.tolist(), cards.tolist(), n_classes)


@pytest.mark.parametrize("terms", [EntropyTerms, CompiledTerms])  # numpy's numbering and BAN's compiled one
@pytest.mark.parametrize("seed,n_rows,n_attr,n_copies,alpha,max_net_parents,max_parents", CASES)
def test_hill_climb_equals_the_plain_reference(seed, n_rows, n_attr, n_copies, alpha, max_net_parents, max_parents,
                                               terms):
    X, y, cards, n_classes, scores = _case(seed, n_rows, n_attr, n_copies, alpha, max_net_parents)
    got = hill_climb(terms(X, y, cards, n_classes), cards, n_classes, max_parents)
    expect = oracle.hill_climb(None, None, None, n_classes, max_parents, scores=scores)
    assert got == expect
    assert expect[1] >= n_attr // 2
    assert all(len(par) <= max_parents for par in got[0])


def test_duplicated_columns_tie_exactly():
    # three copies of one column (one relabelled): the additions among them have exactly equal
    # score differences, so the (parent, child) tie rule decides, in both implementations
    X, y, cards = network_data(11, 500, 3, 2, 0)
    X = np.column_stack([X, X[:, 2], (X[:, 2] + 1) % cards[2], X[:, 2]])
    cards = np.append(cards, [cards[2]] * 3)
    got = hill_climb(EntropyTerms(X, y, cards, 2), cards, 2, 8)
    assert got == oracle.hill_climb(X.tolist(), y.tolist(), cards.tolist(), 2, 8)
    assert got[0][3] == [2]
