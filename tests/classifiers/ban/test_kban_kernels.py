"""k-BAN's compiled scorer kernels (bncbench/classifiers/ban/kban_kernels.py, docs/algorithms.md §4.6
code notes) against the numpy expressions they replaced, bit for bit, on random values with NaN,
infinities and signed zeros."""

import numpy as np
import pytest

from bncbench.classifiers.ban import kban_kernels


def _values(rng, size):
    """Log-estimate-like floats with a few NaN, ±inf and ±0.0."""
    v = rng.normal(-2.0, 1.5, size)
    flat = v.reshape(-1)
    odd = rng.choice(flat.size, size=max(1, flat.size // 8), replace=False)
    flat[odd] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0], size=odd.size)
    return v


@pytest.mark.parametrize("seed", range(6))
def test_lead_equals_numpy_log_odds_less_base(seed):
    """out = (own[y·cells + cell] − table[o·cells + cell]) − base at the watched rows."""
    rng = np.random.default_rng(seed)
    n_classes, cells, n = int(rng.integers(2, 6)), int(rng.integers(1, 40)), 200
    y = rng.integers(0, n_classes, n)
    cell = rng.integers(0, cells, n)
    own, table = _values(rng, n_classes * cells), _values(rng, n_classes * cells)
    rows = rng.choice(n, size=60, replace=False)
    other = (y[rows] + rng.integers(1, n_classes, rows.size)) % n_classes
    base = _values(rng, rows.size)
    with np.errstate(invalid="ignore"):  # inf − inf: NaN, as in the kernel
        odds = own[y[rows] * cells + cell[rows]] - table[other * cells + cell[rows]]
        want = odds - base
    out = np.empty(rows.size)
    kban_kernels.lead(y * cells + cell, np.concatenate([own, table]), cells, rows, other - y[rows] + n_classes,
                      base, out)
    assert out.tobytes() == want.tobytes()
    zero = np.zeros(rows.size)  # the base's own log-odds: less 0.0, which leaves every float as it is
    kban_kernels.lead(y * cells + cell, np.concatenate([own, table]), cells, rows, other - y[rows] + n_classes,
                      zero, out)
    assert out.tobytes() == odds.tobytes()


@pytest.mark.parametrize("seed", range(6))
def test_bounds_equal_numpy_sums_and_counts(seed):
    """Per candidate, the leads summed left to right in its change order, then the wrong rows
    reaching their gaps counted up and the right rows falling below their runner-up counted down."""
    rng = np.random.default_rng(100 + seed)
    n_keys, n_wrong, n_right, width, n_cand = 7, 30, 25, int(rng.integers(1, 4)), 50
    leads = np.vstack([_values(rng, (n_keys, n_wrong + n_right)), np.zeros((1, n_wrong + n_right))])
    idx = rng.integers(0, n_keys + 1, (n_cand, width))
    gap_wrong, lost_below = _values(rng, n_wrong), _values(rng, n_right)
    lead = leads[idx[:, 0]]
    with np.errstate(invalid="ignore"):  # inf − inf: NaN, as in the kernel
        for w in range(1, width):
            lead = lead + leads[idx[:, w]]
    want = (17 + np.count_nonzero(gap_wrong <= lead[:, :n_wrong], axis=1)
            - np.count_nonzero(lead[:, n_wrong:] < lost_below, axis=1))
    got = np.empty(n_cand, dtype=np.int64)
    kban_kernels.bounds(leads, idx, n_wrong, gap_wrong, lost_below, 17, got)
    np.testing.assert_array_equal(got, want)
