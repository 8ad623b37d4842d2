"""The counting kernel against plain loops (numpy-groupies style), on many random inputs."""

import itertools
import math
import struct
from collections import Counter

import numpy as np
import pytest

from bncbench.classifiers.kernels import infotheory
from bncbench.classifiers.kernels.counts import config_counts, lookup, pair_counts
from bncbench.classifiers.kernels.infotheory import cond_mutual_info
from bncbench.classifiers.kernels.ties import tie_key as tie_key_array
from tests.oracles.cmi_pairs import cond_mutual_info_pairs
from tests.oracles.ties import tie_key


@pytest.mark.parametrize("seed", range(8))
def test_pair_counts_match_loops(seed):
    rng = np.random.default_rng(seed)
    n, N, nc = rng.integers(1, 6), rng.integers(1, 80), rng.integers(1, 4)
    sizes = rng.integers(1, 5, size=n)
    X = np.column_stack([rng.integers(0, s, N) for s in sizes])
    y = rng.integers(0, nc, N)
    pc = pair_counts(X, y, sizes, int(nc))
    assert pc.xxy is not None
    for i, j in itertools.product(range(n), repeat=2):
        for a, b, c in itertools.product(range(sizes[i]), range(sizes[j]), range(nc)):
            want = sum(1 for r in range(N) if X[r, i] == a and X[r, j] == b and y[r] == c) if i != j else \
                sum(1 for r in range(N) if X[r, i] == a and a == b and y[r] == c)
            assert pc.xxy[pc.offsets[i] + a, pc.offsets[j] + b, c] == want
    assert pc.class_counts.tolist() == np.bincount(y, minlength=nc).tolist()


@pytest.mark.parametrize("N,n,nc", [(6000, 50, 2), (300, 90, 3), (7000, 9, 3), (0, 4, 2)])
def test_pair_counts_match_a_table_per_pair(N, n, nc):
    """Both ways `pair_counts` counts (several attributes j per bincount where the rows are few, one
    otherwise), runs of attributes ending mid-way included, against one np.add.at table per pair."""
    rng = np.random.default_rng(N + n)
    sizes = rng.integers(1, 7, size=n)
    X = np.column_stack([rng.integers(0, s, N) for s in sizes])
    y = rng.integers(0, nc, N)
    pc = pair_counts(X, y, sizes, nc)
    assert pc.xxy is not None and pc.xxy.dtype == np.int64
    for i in range(n):
        for j in range(n):
            want = np.zeros((sizes[i], sizes[j], nc), dtype=np.int64)
            if i != j:
                np.add.at(want, (X[:, i], X[:, j], y), 1)
            else:
                np.add.at(want, (X[:, i], X[:, i], y), 1)
            got = pc.xxy[pc.offsets[i]:pc.offsets[i] + sizes[i], pc.offsets[j]:pc.offsets[j] + sizes[j]]
            assert np.array_equal(got, want), (i, j)


@pytest.mark.parametrize("radices", [[7, 7, 7], [7, 7, 7 * 10 ** 6], [3, 1, 50000], [2]])
def test_config_counts_match_loops(radices):
    """Both paths of `config_counts` (dense bincount for a small key space, np.unique for a large
    one — the second and third radix lists force it) against a Counter of the configurations."""
    rng = np.random.default_rng(sum(radices))
    cols = [rng.integers(0, min(r, 7), 500) for r in radices]
    keys, counts = config_counts(cols, radices)
    want = Counter(zip(*(c.tolist() for c in cols)))

    def key_of(conf):
        k = 0
        for v, r in zip(conf, radices):
            k = k * r + v
        return k

    assert keys.tolist() == sorted(key_of(conf) for conf in want)
    assert dict(zip(keys.tolist(), counts.tolist())) == {key_of(conf): n for conf, n in want.items()}
    # lookup: the count of every occurring key, 0 for keys that never occur (also past the end)
    probe = [key_of(conf) for conf in want] + [key_of(conf) + 1 for conf in want] + [0, 10 ** 12]
    got = lookup(keys, counts, np.array(probe, dtype=np.int64)).tolist()
    by_key = {key_of(conf): n for conf, n in want.items()}
    assert got == [by_key.get(k, 0) for k in probe]


def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def _loop_cmi(X, y, i, j, float32: bool) -> float:
    """I(X_i; X_j | Y) in bits from plain loops (§3): Σ (N(x_i, x_j, y)/N) log2 [N_y·N(x_i, x_j, y) /
    (N(x_i, y)·N(x_j, y))]. float32 as the C++ system accumulates it (§0.3): the terms in double, in
    the loop order value of the higher-indexed attribute, value of the other, class, zero counts
    skipped, and after each term m = float32(double(m) + term)."""
    N = len(y)
    hi, lo = max(i, j), min(i, j)
    n3 = Counter((r[hi], r[lo], c) for r, c in zip(X, y))
    n_hi = Counter((r[hi], c) for r, c in zip(X, y))
    n_lo = Counter((r[lo], c) for r, c in zip(X, y))
    ny = Counter(y)
    m = 0.0
    for a in range(max(r[hi] for r in X) + 1):
        for b in range(max(r[lo] for r in X) + 1):
            for c in range(max(y) + 1):
                k = n3.get((a, b, c), 0)
                if not k:
                    continue
                term = (k / N) * math.log2(ny[c] * k / (n_hi[(a, c)] * n_lo[(b, c)]))
                m = _f32(m + term) if float32 else m + term
    return m


@pytest.mark.parametrize("seed", range(4))
def test_cmi_float32_and_float64_match_loops(seed):
    """`cond_mutual_info` against plain loops: float64 to rounding, float32 bit for bit (the
    C++ system's accumulation, which decides TAN's trees in papers 000 and 004)."""
    rng = np.random.default_rng(seed)
    n, N = 6, int(rng.integers(150, 400))
    sizes = rng.integers(2, 6, size=n)
    y = rng.integers(0, 3, N)
    X = np.column_stack([(y * (i % 2) + rng.integers(0, s, N)) % s for i, s in enumerate(sizes)])
    pc = pair_counts(X, y, sizes, 3)
    a, b = cond_mutual_info(pc, "float32"), cond_mutual_info(pc, "float64")
    Xl, yl = X.tolist(), y.tolist()
    for i, j in itertools.permutations(range(n), 2):
        assert a[i, j] == _loop_cmi(Xl, yl, i, j, True), (i, j)
        # float64 values pass through the tie rule (docs/algorithms.md §0.3): 10 significant digits
        assert b[i, j] == pytest.approx(tie_key(_loop_cmi(Xl, yl, i, j, False)), rel=1e-12, abs=1e-15), (i, j)
    assert (np.diag(a) == 0).all() and (np.diag(b) == 0).all()


@pytest.mark.parametrize("seed", range(40))
def test_cmi_equals_pair_by_pair_bit_for_bit(seed):
    """All pairs' terms at once, summed per pair as numpy sums one pair alone: the same bits as the
    pair-by-pair reference, with and without the missing slots, on blocks of 1 to hundreds of cells."""
    rng = np.random.default_rng(seed)
    n, N, nc = int(rng.integers(2, 10)), int(rng.integers(1, 600)), int(rng.integers(1, 5))
    sizes = rng.integers(1, 12, size=n)
    y = rng.integers(0, nc, N)
    X = np.column_stack([(y * (i % 2) + rng.integers(0, s, N)) % s for i, s in enumerate(sizes)])
    pc = pair_counts(X, y, sizes, nc)
    hi, lo = np.tril_indices(n, k=-1)
    for skip in (False, True):
        with np.errstate(divide="ignore", invalid="ignore"):
            want = cond_mutual_info_pairs(pc, skip)
        got = infotheory._segment_sums(*infotheory._pair_terms(pc, skip))  # before the tie rule
        assert np.array_equal(got, want[hi, lo], equal_nan=True)
        assert np.array_equal(cond_mutual_info(pc, "float64", skip), tie_key_array(want), equal_nan=True)
