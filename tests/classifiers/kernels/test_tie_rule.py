"""The tie rule for information values (docs/algorithms.md §0.3, bncbench/classifiers/kernels/ties.py)
in every learner that breaks ties, under float64: data with relabelled copies of attributes — a
copy of attribute a placed FIRST (so the copy has the smaller index) and one of attribute b placed
LAST — have equal MI, CMI, SU and conditional entropies in exact arithmetic, while their float64
sums differ in the last bits. Each learner must choose as the plain-Python reference (which
applies the same rule) and as the spec's smallest-index rule says: tests/classifiers/<family>/test_ties.py.
Here: the premise (`tied_data` of tests/support/data.py), the rule itself, and derived scores.

Before the rule, TAN's parents differed from the reference on several of these seeds (the
float64 sums of the original and its copy differ by one ulp)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers import KBAN
from bncbench.classifiers.kernels.counts import pair_counts
from bncbench.classifiers.kernels.infotheory import cond_mutual_info, mutual_info_class
from bncbench.classifiers.kernels.ties import tie_key
from tests.support.data import TIED_SEEDS as SEEDS
from tests.support.data import tied_data


def test_the_copies_tie_in_exact_arithmetic_and_the_rule_makes_them_equal():
    """The premise, not vacuous: on these data the raw float64 sums of an attribute and its copy
    differ for some seed (so `>` alone would be decided by rounding), and after the rule they are
    equal for every seed."""
    raw_differs = 0
    for seed in SEEDS:
        X, y, _, cards, nc, (a, b) = tied_data(seed)
        n = X.shape[1]
        pc = pair_counts(np.where(X < 0, cards, X), y, cards + 1, nc)
        mi, cmi = mutual_info_class(pc), cond_mutual_info(pc)
        assert mi[0] == mi[a] and mi[n - 1] == mi[b]
        others = [j for j in range(n) if j not in (0, a)]
        assert cmi[0, others].tolist() == cmi[a, others].tolist()
        raw = np.array([t for t in _raw_cmi_row_sums(pc, 0, a, others)])
        raw_differs += int((raw[0] != raw[1]).any())
    assert raw_differs > 0, "no seed produced a rounding difference: the test data exercise nothing"


def _raw_cmi_row_sums(pc, i, j, others):
    """The float64 CMI sums of attributes i and j with `others`, without the tie rule."""
    import bncbench.classifiers.kernels.infotheory as it

    saved = it.tie_key
    it.tie_key = lambda values: np.asarray(values, dtype=np.float64)
    try:
        cmi = it.cond_mutual_info(pc)
    finally:
        it.tie_key = saved
    return cmi[i, others], cmi[j, others]

def test_tie_key_rule():
    """The rule itself: 10 significant digits, |v| < 1e-12 as 0, monotone, infinities kept."""
    assert tie_key(0.6720340938813815) == tie_key(0.6720340938813816) == 0.6720340939
    assert tie_key(3e-17) == tie_key(-2e-17) == 0.0
    assert tie_key(0.1234567891) != tie_key(0.1234567892)
    assert tie_key(np.array([np.inf, -np.inf])).tolist() == [np.inf, -np.inf]
    v = np.sort(np.random.default_rng(0).normal(size=1000))
    assert (np.diff(tie_key(v)) >= 0).all()


def test_derived_scores_compare_through_the_rule():
    """Scores computed from information values tie when equal in exact arithmetic, even if their
    floats differ: 0.3 − 0.1 = 0.19999999999999998 and 0.5 − 0.3 = 0.2 are both 0.2. A forward
    ranking (float64) and k-BAN's improved-MRMR candidates then take the smaller index; float32
    mode compares the C++ system's values as they are."""
    from bncbench.classifiers.tan import rankings

    score = {1: 0.3 - 0.1, 2: 0.5 - 0.3}
    assert score[1] < score[2]  # the premise: the floats differ
    first = np.array([1.0, 0.0, 0.0])
    assert rankings._forward(first, lambda a, sel: score[a], "float64") == [0, 1, 2]
    assert rankings._forward(first, lambda a, sel: score[a], "float32") == [0, 2, 1]

    clf = KBAN(k=2)
    clf.cmi_ = np.array([[0.0, 0.3, 0.5, 0.0],
                         [0.3, 0.0, 0.0, 0.1],
                         [0.5, 0.0, 0.0, 0.3],
                         [0.0, 0.1, 0.3, 0.0]])
    assert clf._candidates(0, (3,)) == [1]  # 0.3 − 0.1 ties 0.5 − 0.3: the smaller index
