"""Discretisers against the spec's test vectors (docs/algorithms.md §8.2, produced with Weka 3.6.14)."""

import math

import numpy as np
import pytest

from bncbench.preprocess import EqualFrequencyDiscretizer
from bncbench.preprocess.discretize import (
    apply_cuts,
    eqfreq_petal,
    eqfreq_quantile,
    eqfreq_weka,
    mdl,
)

A = np.array([1, 2, 2, 3, 3, 3, 4, 5, 6, 7, 8, np.nan, 9, 10], dtype=float)
B = np.array([1, 1, 2, 2, 3, 3, 4, 5, 5, 6, 7, 8, 9, 10], dtype=float)
C = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1])


def test_eqfreq_weka_vectors():
    assert eqfreq_weka(A[~np.isnan(A)]).tolist() == [2.5, 3.5, 5.5, 8.5]
    assert eqfreq_weka(B).tolist() == [1.5, 3.5, 5.5, 8.5]


def test_eqfreq_petal_vector():
    assert eqfreq_petal(A[~np.isnan(A)]).tolist() == [2, 3, 4, 7]


def _oracle_quantile(values, bins=5):
    """§1.2 (c) from the spec in plain Python floats: sorted values v[0..m-1], k = min(bins, m),
    s = m/k; for i = 1..k-1 the cut v[floor(s*i) - 1] if it differs from the last kept cut and
    lies below the maximum."""
    v = sorted(float(x) for x in values)
    m = len(v)
    cuts: list[float] = []
    if m == 0:
        return cuts
    k = min(bins, m)
    for i in range(1, k):
        c = v[math.floor(m / k * i) - 1]
        if (not cuts or c != cuts[-1]) and c < v[-1]:
            cuts.append(c)
    return cuts


@pytest.mark.parametrize("seed", range(6))
def test_eqfreq_quantile_is_the_rule_on_float64_values(seed):
    rng = np.random.default_rng(seed)
    for m in (0, 1, 2, 3, 4, 7, 23, 100):
        for bins in (2, 5, 7):
            # one-decimal values with ties, and values closer than float32 can tell apart
            v = np.round(rng.normal(30, 8, m), 1) if seed % 2 else 16777216 + rng.integers(0, 6, m).astype(float)
            got = eqfreq_quantile(v, bins)
            assert got.dtype == np.float64 and got.tolist() == _oracle_quantile(v, bins), (m, bins)
    # float32 values fall together where float64 ones do not: 2^24 and 2^24 + 1
    v = np.array([16777216.0, 16777217.0] * 5)
    assert eqfreq_quantile(v, 2).tolist() == [16777216.0] and eqfreq_petal(v, 2).tolist() == []


def test_quantile_has_no_bin_count_quirk():
    X = np.column_stack([[1.0, 2.0] + [np.nan] * 8, np.arange(10.0)])  # 2 values < 5 bins, then 10
    quantile = EqualFrequencyDiscretizer(method="quantile").fit(X).cuts_
    petal = EqualFrequencyDiscretizer(method="petal").fit(X).cuts_
    assert quantile[1].tolist() == _oracle_quantile(range(10)) == [1, 3, 5, 7]
    assert petal[1].tolist() == [4]  # the C++ system's quirk: the bin count 2 carries over


def test_eqfreq_petal_merges_ties_and_drops_max():
    assert eqfreq_petal(np.array([1.0] * 10)).tolist() == []
    assert eqfreq_petal(np.array([1, 1, 1, 1, 1, 1, 1, 1, 2, 3.0])).tolist() == [1.0]
    assert eqfreq_petal(np.array([4.0, 2.0])).tolist() == [2.0]  # k = min(5, m)


def test_mdl_vectors():
    known = ~np.isnan(A)
    assert mdl(A[known], C[known], 2).tolist() == []
    assert mdl(B, C, 2).tolist() == [2.5]


def test_mdl_symmetric_data_finds_both_cuts():
    v = np.arange(1, 46.0)
    y = np.array([0] * 15 + [1] * 15 + [0] * 15)
    assert mdl(v, y, 2, "weka").tolist() == [15.5, 30.5]
    assert mdl(v, y, 2, "petal").tolist() == [15.5, 30.5]


def test_apply_cuts_left_closed_and_missing_bin():
    codes = apply_cuts(np.array([0.5, 1.0, 1.5, 3.0, 9.0, np.nan]), np.array([1.0, 3.0]))
    assert codes.tolist() == [0, 0, 1, 1, 2, 3]


def test_apply_cuts_float32_comparison():
    cut = np.array([0.1], dtype=np.float32)
    # 0.1 as float64 is above float32(0.1)... compared in float32 it equals the cut → left bin
    assert apply_cuts(np.array([0.1]), cut).tolist() == [0]


def test_petal_mdl_top_level_test_counts_the_declared_classes():
    """§1.3 rule (5), worked by hand: values 1..4 with classes 0,0,1,1 split perfectly (gain 1
    bit). MDLP threshold (log2(N−1) + Δ)/N with Δ = log2(3^k − 2) − k·1: k = 2 present classes
    gives (1.585 + 0.807)/4 = 0.598 < 1 (cut 2.5); k = 5 declared gives (1.585 + 2.913)/4 =
    1.12 > 1 (no cut). Weka's MDL counts present classes whatever is declared."""
    from bncbench.preprocess import discretize

    v, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 1, 1])
    assert discretize.mdl(v, y, 2, "petal").tolist() == [2.5]
    assert discretize.mdl(v, y, 5, "petal").tolist() == []
    assert discretize.mdl(v, y, 5, "weka").tolist() == [2.5]
    # the recursive tests count the classes present: with 7 declared the top-level cut 4.5 is
    # accepted (gain 0.971 > (log2 9 + log2 2185 − 7·1.371 + 2)/10 = 0.666), and the left side
    # 1..4 (classes 0,0,1,1) is cut at 2.5 only because its test counts its 2 classes (with
    # k = 7 there: (1.585 + log2 2185 − 7)/4 = 1.42 > 1, no cut)
    v2, y2 = np.arange(1.0, 11.0), np.array([0, 0, 1, 1, 2, 2, 2, 2, 2, 2])
    assert discretize.mdl(v2, y2, 7, "petal").tolist() == [2.5, 4.5]
