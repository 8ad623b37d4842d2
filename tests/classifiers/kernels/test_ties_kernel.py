"""`tie_value`, the scalar form of the tie rule (docs/algorithms.md §0.3), against the vectorised
`tie_key` it must equal, on random values across magnitudes and at the edges (powers of ten,
halves at the 10th digit, zero, the flush threshold, infinities)."""

from __future__ import annotations

import math

import numpy as np

from bncbench.classifiers.kernels.ties import tie_key, tie_value


def test_tie_value_equals_tie_key():
    rng = np.random.default_rng(0)
    values = list(rng.standard_normal(5000) * 10.0 ** rng.integers(-15, 15, 5000))
    values += [10.0 ** k for k in range(-14, 15)] + [-(10.0 ** k) for k in range(-3, 4)]
    values += [1.2345678905, 2.0000000005, 0.0, -0.0, 1e-12, 9.99e-13, -1e-13, math.inf, -math.inf]
    values += [math.nextafter(10.0 ** k, 0.0) for k in range(-5, 6)]
    want = tie_key(np.array(values))
    got = [tie_value(float(v)) for v in values]
    assert got == want.tolist()
