"""BAN-MDL's compiled kernel (`EntropyTerms.extensions`, bncbench/classifiers/ban/entropy_kernels.py)
against `EntropyTerms.entropy`'s numpy counting and summation, bit for bit, and against the entropy
term written out cell by cell (docs/algorithms.md §4.7)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from bncbench.classifiers.ban.entropy_terms import EntropyTerms


@pytest.mark.parametrize("seed", range(30))
def test_extensions_equal_numpy_entropy_bit_for_bit(seed):
    """Dense and sparse configuration spaces, sets of 0–3 attributes (rows of configurations met
    once dropped or not), 1–4 classes, counts up to hundreds (numpy's pairwise blocks)."""
    rng = np.random.default_rng(seed)
    N, n, C = int(rng.integers(1, 700)), int(rng.integers(2, 9)), int(rng.integers(1, 5))
    sizes = rng.integers(1, 9, size=n)
    y = rng.integers(0, C, N)
    X = np.column_stack([(y * (a % 2) + rng.integers(0, s, N) * (a % 3 > 0)) % s for a, s in enumerate(sizes)])
    T = EntropyTerms(X, y, sizes, C)
    for _ in range(6):
        S = tuple(sorted(rng.choice(n, size=int(rng.integers(0, min(3, n - 1) + 1)), replace=False).tolist()))
        groups = T.groups(S)
        rest = [a for a in range(n) if a not in S]
        got = T.extensions(groups, rest)
        assert got == [T.entropy(groups, a) for a in rest]  # floats compared exactly


def test_extensions_equal_the_cell_by_cell_sum():
    """Σ over the cells of (X_0, X_a, Y) of N ln N, written out with a Counter (to rounding: the
    order of that sum is not numpy's)."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 4, (300, 4))
    y = rng.integers(0, 3, 300)
    T = EntropyTerms(X, y, np.full(4, 4), 3)
    got = T.extensions(T.groups((0,)), [1, 2, 3])
    for a, value in zip([1, 2, 3], got):
        cells = Counter(zip(X[:, 0].tolist(), X[:, a].tolist(), y.tolist()))
        assert value == pytest.approx(math.fsum(c * math.log(c) for c in cells.values()), rel=1e-13)
