"""Folds, sign tests, W/D/L rules and metrics against published or hand-worked values."""

import math

import numpy as np
import pytest

from bncbench.preprocess.folds import petal_folds, stratified_folds
from bncbench.evaluate.metrics import FoldResult, bias_variance, summarize
from bncbench.evaluate.stats import WDL, compare, goal_difference, round4, sign_test, wdl

# The 14 published p-values of paper 000 (docs/algorithms.md §6.2)
PUBLISHED = [((34, 22, 14), 0.0112), ((38, 17, 15), 0.0038), ((26, 22, 22), 0.3601), ((29, 20, 21), 0.2015),
             ((22, 29, 19), 0.4050), ((28, 21, 21), 0.2352), ((32, 19, 19), 0.0740), ((34, 20, 16), 0.0207),
             ((30, 21, 19), 0.1142), ((34, 18, 18), 0.0361), ((33, 1, 36), 0.4050), ((40, 7, 23), 0.0266),
             ((45, 1, 24), 0.0077), ((31, 0, 39), 0.2015)]


@pytest.mark.parametrize("wdl_,p", PUBLISHED)
def test_published_sign_test_p_values(wdl_, p):
    assert round4(sign_test(WDL(*wdl_), "split", "one")) == format(p, ".4f")


def test_sign_test_variants():
    assert round4(sign_test(WDL(34, 22, 14), "ignore", "one")) == "0.0028"
    assert sign_test(WDL(0, 5, 0), "ignore", "two") == 1.0
    two = sign_test(WDL(10, 0, 3), "ignore", "two")
    assert two == pytest.approx(2 * sum(math.comb(13, i) for i in range(4)) / 2 ** 13)


@pytest.mark.parametrize("w,d,l", [(34, 22, 14), (33, 1, 36), (5, 0, 0), (0, 3, 9), (12, 7, 12)])
def test_sign_test_equals_scipy(w, d, l):
    from scipy.stats import binomtest

    W, L = w + d // 2, l + d // 2
    want_one = binomtest(max(W, L), W + L, 0.5, alternative="greater").pvalue
    assert sign_test(WDL(w, d, l), "split", "one") == pytest.approx(want_one, rel=1e-12)
    want_two = binomtest(w, w + l, 0.5).pvalue
    assert sign_test(WDL(w, d, l), "ignore", "two") == pytest.approx(want_two, rel=1e-12)


def test_round4_is_correctly_rounded():
    assert round4(3883 / 20000) == "0.1941"  # numpy.round would give 0.1942


def test_draw_rules():
    assert compare(0.12341, 0.12344, "exact4") == 0
    assert compare(0.1234, 0.1235, "exact4") == 1
    assert compare(0.100, 0.104, "relative:0.05") == 0
    assert compare(0.100, 0.110, "relative:0.05") == 1
    assert compare(0.9, 0.8, "exact4", lower_is_better=False) == 1
    assert str(wdl([0.1, 0.2, 0.3, 0.4], [0.2, 0.2, 0.25, 0.4001], "exact4")) == "2-1-1"
    assert str(wdl([0.1, 0.2, 0.3, 0.4], [0.2, 0.2, 0.25, 0.4001], "relative:0.2")) == "1-3-0"
    assert goal_difference([0.1, 0.3, 0.2], [0.2, 0.2, 0.2]) == [1, 0, 0]


def test_petal_folds_are_mt19937_of_the_cpp_standard():
    import numpy as np

    bg = np.random.MT19937(0)
    bg._legacy_seeding(5489)  # std::mt19937's default seed: first outputs are published
    assert bg.random_raw(3).tolist() == [3499211612, 581869302, 3890346734]
    raw = np.random.MT19937(0)
    raw._legacy_seeding(0)
    assert petal_folds(50, 10, 0).tolist() == (raw.random_raw(50) % 10).tolist()


def test_stratified_folds_balanced():
    y = np.array([0] * 37 + [1] * 13 + [2] * 5)
    f = stratified_folds(y, 10, 1)
    sizes = np.bincount(f, minlength=10)
    assert sizes.max() - sizes.min() <= 1
    for c in range(3):
        per = np.bincount(f[y == c], minlength=10)
        assert per.max() - per.min() <= 1


def test_bias_variance_worked_example():
    # m = 4 runs predicting t, t, a, b for one instance of class t = 0 (3 classes) → 0.1875 / 0.3125
    folds = []
    for run, pred in enumerate([0, 0, 1, 2]):
        p = np.zeros((1, 3))
        p[0, pred] = 1.0
        folds.append(FoldResult(run, 0, np.array([0]), np.array([0]), p, 0.0, 0.0))
    b, v = bias_variance(folds)
    assert b == pytest.approx(0.1875) and v == pytest.approx(0.3125)


def test_bias_plus_variance_is_mean_zol():
    rng = np.random.default_rng(3)
    n, runs = 40, 6
    y = rng.integers(0, 3, n)
    folds = []
    for r in range(runs):
        fold_of = rng.integers(0, 2, n)
        for f in range(2):
            idx = np.flatnonzero(fold_of == f)
            folds.append(FoldResult(r, f, idx, y[idx], rng.dirichlet(np.ones(3), idx.size), 0, 0))
    b, v = bias_variance(folds)
    assert b + v == pytest.approx(summarize("zol", folds)[0])


def test_pooled_zol_and_fold_sd():
    # 24 instances in 3 folds with 3, 3, 3 errors... pooled 9/24 = 0.375 (contact-lenses style)
    folds = []
    for f, (n, e) in enumerate([(8, 3), (10, 4), (6, 2)]):
        p = np.tile([0.9, 0.1], (n, 1))
        y = np.array([1] * e + [0] * (n - e))
        folds.append(FoldResult(0, f, np.arange(n) + 100 * f, y, p, 0, 0))
    mean, sd = summarize("zol", folds)
    assert mean == 9 / 24
    assert sd == pytest.approx(np.std([3 / 8, 4 / 10, 2 / 6], ddof=1))
    rmse, _ = summarize("rmse", folds)
    assert rmse == pytest.approx(math.sqrt((9 * 0.81 + 15 * 0.01) / 24))
