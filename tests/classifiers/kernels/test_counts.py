"""The counting kernel against plain loops (numpy-groupies style), on many random inputs."""

import itertools

import numpy as np
import pytest

from bncbench.classifiers.kernels.counts import config_counts, lookup, pair_counts
from bncbench.classifiers.kernels.infotheory import cond_mutual_info


@pytest.mark.parametrize("seed", range(8))
def test_pair_counts_match_loops(seed):
    rng = np.random.default_rng(seed)
    n, N, nc = rng.integers(1, 6), rng.integers(1, 80), rng.integers(1, 4)
    sizes = rng.integers(1, 5, size=n)
    X = np.column_stack([rng.integers(0, s, N) for s in sizes])
    y = rng.integers(0, nc, N)
    pc = pair_counts(X, y, sizes, nc)
    for i, j in itertools.product(range(n), repeat=2):
        for a, b, c in itertools.product(range(sizes[i]), range(sizes[j]), range(nc)):
            want = sum(1 for r in range(N) if X[r, i] == a and X[r, j] == b and y[r] == c) if i != j else \
                sum(1 for r in range(N) if X[r, i] == a and a == b and y[r] == c)
            assert pc.xxy[pc.offsets[i] + a, pc.offsets[j] + b, c] == want
    assert pc.class_counts.tolist() == np.bincount(y, minlength=nc).tolist()


def test_config_counts_dense_and_sparse_agree():
    rng = np.random.default_rng(0)
    cols = [rng.integers(0, 7, 500) for _ in range(3)]
    keys, counts = config_counts(cols, [7, 7, 7])
    big_keys, big_counts = config_counts(cols, [7, 7, 7 * 10 ** 6])  # forces np.unique
    q = (cols[0] * 7 + cols[1]) * 7 + cols[2]
    q2 = (cols[0] * 7 + cols[1]) * (7 * 10 ** 6) + cols[2]
    assert (lookup(keys, counts, q) == lookup(big_keys, big_counts, q2)).all()
    assert lookup(keys, counts, np.array([10 ** 6])).tolist() == [0]


def test_float32_cmi_close_to_float64():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, (300, 5))
    y = rng.integers(0, 3, 300)
    pc = pair_counts(X, y, np.full(5, 4), 3)
    a, b = cond_mutual_info(pc, "float32"), cond_mutual_info(pc, "float64")
    assert np.allclose(a, b, rtol=1e-6, atol=1e-7)
    assert (a.astype(np.float32).astype(np.float64) == a).all()
