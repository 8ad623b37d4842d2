"""IWAODE (docs/algorithms.md §4.14) and TAODE (§4.13) against the plain-Python references of
tests/oracles/aode/iwaode_taode.py, a hand-worked IWAODE example, and TAODE's relation to AODE."""

from typing import Any

import numpy as np
import pytest

from bncbench.classifiers import AODE
from bncbench.classifiers.aode.iwaode import IWAODE
from bncbench.classifiers.aode.taode import TAODE, inverse_normalise
from tests.oracles.aode.iwaode_taode import ref_iwaode, ref_taode
from tests.support.data import random_data

ESTIMATORS = ("mestimate", "laplace", "laplace_joint")


# (seed, n_attr, n_classes): several shapes, including one attribute (weights all equal)
SHAPES = [(0, 5, 3), (1, 4, 2), (2, 6, 5), (4, 1, 3), (3, 3, 4)]


# -- IWAODE ------------------------------------------------------------------------------------
@pytest.mark.parametrize("power", ["children", "once"])
@pytest.mark.parametrize("est", ESTIMATORS)
@pytest.mark.parametrize("seed,n_attr,n_classes", SHAPES)
def test_iwaode_matches_reference(seed, n_attr, n_classes, est, power):
    X, y, Xt, cards, nc = random_data(seed, n_attr=n_attr, n_classes=n_classes)
    assert (X < 0).any() and (Xt < 0).any()
    clf = IWAODE(estimator=est, iwaode_weight_power=power, cardinalities=cards, n_classes=nc).fit(X, y)
    want, W = ref_iwaode(X, y, Xt, nc, cards, est, 1.0, power)
    np.testing.assert_allclose(clf.global_entropy_, W, rtol=0, atol=1e-12)
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


def test_iwaode_m_unseen_class_and_class_labels():
    """m ≠ 1, a class absent from training, no cardinalities given, string labels."""
    X, y, Xt, cards, _ = random_data(7, n_classes=3)
    y = np.where(y == 2, 0, y)
    got = IWAODE(m=2.5, cardinalities=cards, n_classes=3).fit(X, y).predict_proba(Xt)
    want, _ = ref_iwaode(X, y, Xt, 3, cards, "mestimate", 2.5)
    np.testing.assert_allclose(got, np.array(want), rtol=0, atol=1e-12)
    X, y, Xt, _, _ = random_data(8, p_missing=0.0)
    labels = np.array(["a", "b", "c"])[y]
    clf = IWAODE().fit(X, labels)
    cards = X.max(axis=0) + 1
    want, _ = ref_iwaode(X, y, np.minimum(Xt, cards - 1), 3, cards)
    np.testing.assert_allclose(clf.predict_proba(np.minimum(Xt, cards - 1)), np.array(want), rtol=0, atol=1e-12)


def test_iwaode_several_blocks():
    """Rows in different score blocks (the block here is 4369 rows) agree with the reference."""
    X, y, Xt, cards, nc = random_data(11, n_train=80, n_test=9000, n_attr=6, n_classes=5)
    got = IWAODE(cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    rows = np.r_[0:3, 4366:4372, 8735:8741, 8997:9000]
    want, _ = ref_iwaode(X, y, Xt[rows], nc, cards)
    np.testing.assert_allclose(got[rows], np.array(want), rtol=0, atol=1e-12)


def test_inverse_normalise_by_hand():
    """§4.14 step 3 — normalise, 1 − value, normalise — on numbers worked by hand."""
    # [1, 2, 5]: sum 8 → [0.125, 0.25, 0.625] → 1 − · = [0.875, 0.75, 0.375] (sum 2)
    #            → [0.4375, 0.375, 0.1875]
    # [3, 3, 2]: sum 8 → [0.375, 0.375, 0.25] → [0.625, 0.625, 0.75] (sum 2) → [0.3125, 0.3125, 0.375]
    v = np.array([[1.0, 3.0], [2.0, 3.0], [5.0, 2.0]])  # one column per instance (axis 0 = superparents)
    np.testing.assert_allclose(inverse_normalise(v), [[0.4375, 0.3125], [0.375, 0.3125], [0.1875, 0.375]],
                               rtol=0, atol=1e-15)
    # [1, 1, 3, 5]: sum 10 → [0.1, 0.1, 0.3, 0.5] → [0.9, 0.9, 0.7, 0.5] (sum 3) → [0.3, 0.3, 7/30, 1/6]
    np.testing.assert_allclose(inverse_normalise(np.array([1.0, 1, 3, 5])), [0.3, 0.3, 7 / 30, 1 / 6],
                               rtol=0, atol=1e-15)
    # two superparents: [1, 3] → [0.25, 0.75] → [0.75, 0.25] (sum 1): the values swap
    np.testing.assert_allclose(inverse_normalise(np.array([1.0, 3.0])), [0.75, 0.25], rtol=0, atol=1e-15)
    # one superparent: 1 − 1 = 0 cannot be normalised → weight 1 (our convention)
    np.testing.assert_allclose(inverse_normalise(np.array([4.0])), [1.0])
    # masked (TAODE's Q(x)): [1, ·, 3] over the two kept entries → [0.75, 0, 0.25]
    np.testing.assert_allclose(inverse_normalise(np.array([1.0, 9.0, 3.0]), np.array([True, False, True])),
                               [0.75, 0.0, 0.25], rtol=0, atol=1e-15)


def test_iwaode_hand_worked():
    """Two training rows, m-estimate m = 1, natural logs; X_2 has one value.

    Data: x = (0, 0, 0), y = 0 and x = (1, 1, 0), y = 1; |X| = (2, 2, 1), |Y| = 2, N = 2.
    P̂(y) = (1 + 1/2)/3 = 1/2            → H(Y) = ln 2 = 0.6931471805599453
    X_0, X_1: P̂(x, y) = (1 + 1/4)/3 = 5/12 (seen) or 1/12; P̂(x|y) = 1.5/2 = 3/4 or 0.5/2 = 1/4
      H(X_p|Y) = −2 (5/12 ln 3/4 + 1/12 ln 1/4) = 0.4707841205631325
    X_2: P̂(x_2 = 0 | ·) = (N + 1)/(N + 1) = 1 → H(X_2|Y) = H(X_2|X_p,Y) = 0
    H(X_1|X_0,Y) = H(X_0|X_1,Y): per class, (x_p, x_c) = (seen, seen): joint (1 + 1/8)/3 = 3/8,
      cond 1.5/2 = 3/4; (seen, other): 1/24, 1/4; the unseen x_p (N(x_p, y) = 0): 1/24, 1/2 twice
      → 2 (3/8 ln 4/3 + 1/24 ln 4 + 2/24 ln 2) = 0.4468106145254841
    H(X_c|X_2,Y) = H(X_c|Y) (X_2 constant) = 0.4707841205631325
    W = [H(Y) + 0.47078 + 0.44681 + 0, same, H(Y) + 0 + 2·0.47078]
      = [1.6107419156485618, 1.6107419156485618, 1.6347154216862103]
    step 3: / 4.8561992529833339 → [0.33168777, 0.33168777, 0.33662445]; 1 − · (sum 2) → / 2
      → W = [0.3341561134812347, 0.3341561134812347, 0.3316877730375306]
    Local, at x = (0, 0, 0): h(x_p|Y) = −(5/12 ln 3/4 + 1/12 ln 1/4) = 0.23539206028156626 (p = 0, 1),
      0 for X_2; h(x_c|x_p,Y) = 3/8 ln 4/3 + 1/24 ln 2 = 0.1367619096927489 (c, p ∈ {0, 1}),
      h(x_2|x_p,Y) = 0, h(x_c|x_2,Y) = h(x_c|Y) = 0.23539206028156626
    w = [H(Y) + 0.23539 + 0.13676, same, H(Y) + 2·0.23539]
      = [1.0653011505342604, 1.0653011505342604, 1.1639313011230779]
    step 3: → [0.32335416, 0.32335416, 0.35329168] → [0.67664584, 0.67664584, 0.64670832] / 2
      → w = [0.3383229192402837, 0.3383229192402837, 0.32335416151943264]
    W + w = c = [0.6724790327215184, 0.6724790327215184, 0.6550419345569632]
    SPODEs at x = (0, 0, 0): y = 0: p = 0, 1: 5/12 · 3/4 · 1 = 0.3125; p = 2: P̂(x_2, y) = 1.5/3 = 1/2,
      · 3/4 · 3/4 = 0.28125; y = 1: p = 0, 1: 1/12 · 0.5/1 · 1 = 1/24; p = 2: 1/2 · 1/4 · 1/4 = 0.03125
    children (c²): y0 ∝ 0.625 c0² + 0.28125 c2², y1 ∝ c0²/12 + 0.03125 c2²
      → P(y=0|x) = 0.8875601770675124
    once (c): y0 ∝ 0.625 c0 + 0.28125 c2, y1 ∝ c0/12 + 0.03125 c2 → P(y=0|x) = 0.8876571289440633
    """
    X = np.array([[0, 0, 0], [1, 1, 0]])
    y = np.array([0, 1])
    x = np.array([[0, 0, 0]])
    clf = IWAODE(cardinalities=[2, 2, 1], n_classes=2).fit(X, y)
    np.testing.assert_allclose(clf.global_entropy_, [1.6107419156485618, 1.6107419156485618, 1.6347154216862103],
                               rtol=0, atol=1e-14)
    np.testing.assert_allclose(clf.global_weight_, [0.3341561134812347, 0.3341561134812347, 0.3316877730375306],
                               rtol=0, atol=1e-14)
    np.testing.assert_allclose(clf.predict_proba(x)[0, 0], 0.8875601770675124, rtol=0, atol=1e-14)
    once = IWAODE(iwaode_weight_power="once", cardinalities=[2, 2, 1], n_classes=2).fit(X, y)
    np.testing.assert_allclose(once.predict_proba(x)[0, 0], 0.8876571289440633, rtol=0, atol=1e-14)


def test_iwaode_parameters():
    X, y, _, _, _ = random_data(0)
    with pytest.raises(ValueError, match="missing='value' only"):
        IWAODE(missing="skip").fit(X, y)
    with pytest.raises(ValueError, match="iwaode_weight_power"):
        IWAODE(iwaode_weight_power="twice").fit(X, y)
    assert IWAODE().get_params()["iwaode_weight_power"] == "children"


# -- TAODE ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("weight", ["likelihood", "log_likelihood", "uniform"])
@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("est", ESTIMATORS)
@pytest.mark.parametrize("seed,n_attr,n_classes", SHAPES[:3])
def test_taode_matches_reference(seed, n_attr, n_classes, est, missing, weight):
    X, y, Xt, cards, nc = random_data(seed, n_attr=n_attr, n_classes=n_classes)
    for min_freq in (1, 8):  # 8 leaves some test rows without a superparent (naive Bayes)
        got = TAODE(min_freq=min_freq, taode_weight=weight, estimator=est, missing=missing, cardinalities=cards,
                    n_classes=nc).fit(X, y).predict_proba(Xt)
        want = ref_taode(X, y, Xt, nc, cards, min_freq, weight, est, 1.0, missing)
        np.testing.assert_allclose(got, np.array(want), rtol=0, atol=1e-12)


def test_taode_several_blocks():
    X, y, Xt, cards, nc = random_data(12, n_train=80, n_test=9000, n_attr=6, n_classes=5)
    got = TAODE(min_freq=3, cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    rows = np.r_[0:3, 4366:4372, 8735:8741, 8997:9000]
    want = ref_taode(X, y, Xt[rows], nc, cards, 3)
    np.testing.assert_allclose(got[rows], np.array(want), rtol=0, atol=1e-12)


def test_taode_identical_spodes_reduce_to_aode():
    """Sanity relation: three copies of one attribute (missing in the same places) give every
    SPODE the same likelihood at a test row whose copies agree, so the weights are equal and
    TAODE is AODE. On ordinary data the likelihoods differ and so do the two."""
    rng = np.random.default_rng(5)
    col = rng.integers(0, 4, size=70)
    col[rng.random(70) < 0.1] = -1
    y = (col + (rng.random(70) < 0.3)) % 3
    X = np.repeat(col[:, None], 3, axis=1)
    Xtr, ytr, Xt = X[:50], y[:50], X[50:]
    for est in ESTIMATORS:
        for missing in ("value", "skip"):
            kw: dict[str, Any] = {"estimator": est, "missing": missing, "cardinalities": [4, 4, 4], "n_classes": 3}
            t = TAODE(**kw).fit(Xtr, ytr).predict_proba(Xt)
            np.testing.assert_allclose(t, AODE(**kw).fit(Xtr, ytr).predict_proba(Xt), rtol=0, atol=1e-12)
            np.testing.assert_allclose(t, np.array(ref_taode(Xtr, ytr, Xt, 3, [4, 4, 4], 1, "likelihood", est, 1.0,
                                                             missing)), rtol=0, atol=1e-12)
    X, y, Xt, cards, nc = random_data(0)
    aode = AODE(cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    assert np.abs(TAODE(cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt) - aode).max() > 1e-3
    uniform = TAODE(taode_weight="uniform", cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    np.testing.assert_allclose(uniform, aode, rtol=0, atol=1e-12)


def test_taode_parameters():
    X, y, _, _, _ = random_data(0)
    with pytest.raises(ValueError, match="taode_weight"):
        TAODE(taode_weight="max").fit(X, y)
    assert TAODE().get_params() == {"cardinalities": None, "estimator": "mestimate", "m": 1.0, "min_freq": 1,
                                    "missing": "value", "n_classes": None, "taode_weight": "likelihood"}
