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


@pytest.mark.parametrize("seed", range(12))
def test_extensions_on_skewed_configurations(seed):
    """Each way the kernel counts (all rows into one table where a set's cells are few; a
    configuration at a time, its cells either tabled or touched, where they are many): one large
    configuration among many small ones, attributes of up to 40 values, against numpy's counting."""
    rng = np.random.default_rng(100 + seed)
    N, n, C = int(rng.integers(50, 3000)), 6, int(rng.integers(1, 4))
    sizes = np.array([int(rng.integers(2, 41)) for _ in range(n)])
    y = rng.integers(0, C, N)
    X = np.column_stack([rng.integers(0, s, N) for s in sizes])
    heavy = rng.random(N) < rng.uniform(0.2, 0.9)  # one configuration of attributes 0 and 1 holds these rows
    X[heavy, 0], X[heavy, 1] = 0, 0
    X[:, 5] = np.where(rng.random(N) < 0.5, 0, X[:, 5])  # a skewed extension
    T = EntropyTerms(X, y, sizes, C)
    for S in [(), (0,), (0, 1), (0, 1, 2), (2, 3), (0, 1, 2, 3)]:
        groups = T.groups(S)
        rest = [a for a in range(n) if a not in S]
        assert T.extensions(groups, rest) == [T.entropy(groups, a) for a in rest]


@pytest.mark.parametrize("seed", range(20))
def test_compiled_numbering_equals_numpy(seed):
    """`CompiledTerms.extend` numbers a set's configurations as `EntropyTerms.extend` does: the same
    rows, numbers and count, along chains of up to 5 attributes (rows of configurations met once
    dropped at each step, none left at the end of some)."""
    from bncbench.classifiers.ban.compiled_terms import CompiledTerms

    rng = np.random.default_rng(seed)
    N, n, C = int(rng.integers(0, 900)), 7, int(rng.integers(1, 4))
    sizes = rng.integers(1, 12, size=n)
    y = rng.integers(0, C, N)
    X = np.column_stack([rng.integers(0, s, N) * (rng.random(N) < 0.7) for s in sizes])
    slow, fast = EntropyTerms(X, y, sizes, C), CompiledTerms(X, y, sizes, C)
    a_slow = a_fast = slow.groups(())
    for a in rng.permutation(n)[:5].tolist():
        a_slow, a_fast = slow.extend(a_slow, a), fast.extend(a_fast, a)
        assert a_fast[2] == a_slow[2]
        assert a_fast[0].dtype == a_slow[0].dtype and np.array_equal(a_fast[0], a_slow[0])
        assert np.array_equal(a_fast[1], a_slow[1])
    key = tuple(sorted(rng.choice(n, 3, replace=False).tolist()))
    assert fast(key) == slow(key) and fast.cmi(0, 1, key[:1]) == slow.cmi(0, 1, key[:1])
