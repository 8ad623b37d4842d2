"""Metrics against hand-worked values: Kohavi–Wolpert bias and variance, pooled ZOL and RMSE."""

import math

import numpy as np
import pytest

from bncbench.evaluate.metrics import FoldResult, bias_variance, summarize


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
