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


# Kohavi–Wolpert (§5.5) on a hand-worked table: 4 instances, 3 classes, 4 runs of 2-fold CV with
# different (and unequal, once empty) folds per run. Predictions per instance over the runs:
#
#   inst. true  run 0 1 2 3   P̂_H(0, 1, 2)     bias² = ½ Σ_y (δ − P̂)²       variance = ½ (1 − Σ P̂²)
#   0     0         0 0 0 0   (1, 0, 0)        ½ (0 + 0 + 0)         = 0     ½ (1 − 1)    = 0
#   1     1         1 0 2 1   (.25, .5, .25)   ½ (.0625+.25+.0625)   = .1875 ½ (1 − .375) = .3125
#   2     2         0 0 0 1   (.75, .25, 0)    ½ (.5625+.0625+1)     = .8125 ½ (1 − .625) = .1875
#   3     1         2 2 1 1   (0, .5, .5)      ½ (0 + .25 + .25)     = .25   ½ (1 − .5)   = .25
#
# bias = (0 + .1875 + .8125 + .25)/4 = 0.3125; variance = (0 + .3125 + .1875 + .25)/4 = 0.1875.
# Errors per run: 2, 3, 2, 1 of 4 → mean ZOL 8/16 = 0.5 = bias + variance.
BV_TRUE = [0, 1, 2, 1]
BV_PRED = {0: [0, 1, 0, 2], 1: [0, 0, 0, 2], 2: [0, 2, 0, 1], 3: [0, 1, 1, 1]}  # run → prediction per instance
BV_FOLDS = {0: [[0, 2], [1, 3]], 1: [[1, 2], [3, 0]], 2: [[3], [0, 1, 2]], 3: [[2, 0, 1, 3], []]}


def _bv_folds(tie_for_class_0=False):
    folds = []
    for run, parts in BV_FOLDS.items():
        for f, part in enumerate(parts):
            idx = np.array(part, dtype=np.int64)
            p = np.full((idx.size, 3), 0.1)
            for r, i in enumerate(idx.tolist()):
                p[r, BV_PRED[run][i]] = 0.8
                if tie_for_class_0 and BV_PRED[run][i] == 0:
                    p[r] = [0.45, 0.45, 0.1]  # an exact tie goes to the smallest class index (§0.2)
            folds.append(FoldResult(run, f, idx, np.array(BV_TRUE)[idx], p, 0.0, 0.0))
    return folds


@pytest.mark.parametrize("tie", [False, True])
def test_bias_variance_hand_worked_table(tie):
    folds = _bv_folds(tie)
    b, v = bias_variance(folds)
    assert b == pytest.approx(0.3125, abs=1e-15) and v == pytest.approx(0.1875, abs=1e-15)
    assert summarize("bias", folds)[0] == b and summarize("variance", folds)[0] == v
    assert summarize("zol", folds)[0] == pytest.approx(0.5, abs=1e-15)
    # per-run pooled ZOL 2/4, 3/4, 2/4, 1/4: mean 0.5, sample sd of the four
    assert summarize("zol", folds)[1] == pytest.approx(np.std([0.5, 0.75, 0.5, 0.25], ddof=1), abs=1e-15)


def test_bias_variance_instance_order_and_run_labels_do_not_matter():
    """The same table with the folds listed in another order and runs numbered 10, 20, 30, 40."""
    folds = [FoldResult(10 * (f.run + 1), f.fold, f.test_index, f.y_true, f.proba, 0.0, 0.0)
             for f in reversed(_bv_folds())]
    assert bias_variance(folds) == pytest.approx((0.3125, 0.1875), abs=1e-15)
