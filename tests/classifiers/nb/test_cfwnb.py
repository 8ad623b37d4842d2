"""CFWNB (docs/algorithms.md §4.10) against the plain-Python oracle of tests/oracles/nb/cfwnb.py
and a hand-worked example."""

import math

import numpy as np
import pytest

from bncbench.classifiers.nb.cfwnb import CFWNB
from tests.oracles.nb.cfwnb import ref_cfwnb, ref_cfwnb_weights
from tests.support.data import TIE_CASES as DATA
from tests.support.data import random_data_with_ties as random_data

ESTIMATORS = ("mestimate", "laplace", "laplace_joint")
MISSING = ("value", "skip")


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("mi", ("ml", "smoothed"))
@pytest.mark.parametrize("miss", MISSING)
@pytest.mark.parametrize("est", ESTIMATORS)
def test_cfwnb_matches_oracle(data, mi, miss, est):
    X, y, Xt, cards, nc = random_data(**data)
    clf = CFWNB(cfwnb_mi=mi, estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
    want, w = ref_cfwnb(X.tolist(), y.tolist(), Xt.tolist(), nc, cards.tolist(), mi, est, 1.0, miss)
    np.testing.assert_allclose(clf.weights_, w, rtol=0, atol=1e-12)
    np.testing.assert_allclose(clf.predict_proba(Xt), want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("mi", ("ml", "smoothed"))
def test_cfwnb_relevance_and_redundancy(mi):
    X, y, _, cards, nc = random_data(1)
    clf = CFWNB(cfwnb_mi=mi, cardinalities=cards, n_classes=nc).fit(X, y)
    _, rel, red = ref_cfwnb_weights(X.tolist(), y.tolist(), nc, cards.tolist(), mi)
    np.testing.assert_allclose(clf.relevance_, rel, rtol=0, atol=1e-12)
    np.testing.assert_allclose(clf.redundancy_, red, rtol=0, atol=1e-12)


def test_cfwnb_hand_worked():
    # Four instances, two binary attributes, binary class:
    #   y  = 0 0 1 1
    #   A1 = 0 0 1 1   (a copy of the class)
    #   A2 = 0 1 1 1
    # Relevance: I(A1;C) = H(C) = 1 bit.
    # I(A2;C): P(A2=0,c=0) = 1/4, P(A2=1,c=0) = 1/4, P(A2=1,c=1) = 1/2; P(A2=0) = 1/4, P(A2=1) = 3/4,
    #   P(c) = 1/2:  1/4·log2(1/4 / (1/4·1/2)) + 1/4·log2(1/4 / (3/4·1/2)) + 1/2·log2(1/2 / (3/4·1/2))
    #   = 1/4 + 1/4·log2(2/3) + 1/2·log2(4/3) = 3/2 − (3/4)·log2 3 = r ≈ 0.311278124459.
    # Redundancy: A1 is the class, so I(A1;A2) = I(A2;C) = r.
    # Means: relevance (1 + r)/2, so NI(A1;C) = 2/(1+r) ≈ 1.525226, NI(A2;C) = 2r/(1+r) ≈ 0.474774;
    #   redundancy over the ordered pairs (r + r)/2 = r, so NI(A1;A2) = NI(A2;A1) = 1.
    # D1 = 2/(1+r) − 1 ≈ 0.525226, D2 = 2r/(1+r) − 1 = −D1;  w1 = 1/(1+e^−D1) ≈ 0.628369, w2 = 1 − w1.
    X = np.array([[0, 0], [0, 1], [1, 1], [1, 1]])
    y = np.array([0, 0, 1, 1])
    r = 1.5 - 0.75 * math.log2(3)
    d1 = 2 / (1 + r) - 1
    w1 = 1 / (1 + math.exp(-d1))
    assert abs(r - 0.311278124459) < 1e-12 and abs(w1 - 0.628369) < 1e-6
    clf = CFWNB().fit(X, y)
    np.testing.assert_allclose(clf.relevance_, [1.0, r], rtol=0, atol=1e-12)
    np.testing.assert_allclose(clf.weights_, [w1, 1 - w1], rtol=0, atol=1e-12)
    # Posterior of x = (0, 0) with the m-estimate (m = 1): P̂(c) = (2 + 1/2)/(4 + 1) = 1/2 for both;
    # P̂(A1=0|0) = (2 + 1/2)/3 = 5/6, P̂(A1=0|1) = (0 + 1/2)/3 = 1/6, P̂(A2=0|0) = (1 + 1/2)/3 = 1/2,
    # P̂(A2=0|1) = 1/6. Ratio c=0 : c=1 = (5/6)^w1 (1/2)^w2 : (1/6)^w1 (1/6)^w2 = 5^w1 3^w2 : 1.
    ratio = 5 ** w1 * 3 ** (1 - w1)
    np.testing.assert_allclose(clf.predict_proba(np.array([[0, 0]]))[0], [ratio / (1 + ratio), 1 / (1 + ratio)],
                               rtol=0, atol=1e-12)


def test_cfwnb_zero_mean_rules():
    # Both attributes independent of the class (relevance mean 0 → NI(A_i;C) = 0) and copies of
    # each other: I(A1;A2) = H(A1) = 1, mean redundancy 1, so D = 0 − 1 and w = 1/(1+e) for both.
    X = np.array([[0, 0], [1, 1], [0, 0], [1, 1]])
    y = np.array([0, 0, 1, 1])
    np.testing.assert_allclose(CFWNB().fit(X, y).weights_, [1 / (1 + math.e)] * 2, rtol=0, atol=1e-15)
    # Constant attributes: every MI is 0, both means are 0, D = 0 and w = 1/2.
    Xc = np.zeros((4, 3), dtype=np.int64)
    np.testing.assert_allclose(CFWNB().fit(Xc, y).weights_, [0.5] * 3, rtol=0, atol=0)
    # One attribute: w = 1/(1 + e^−NI) with NI = I/I = 1.
    np.testing.assert_allclose(CFWNB().fit(X[:, :1] * 0 + y[:, None], y).weights_, [1 / (1 + math.exp(-1))],
                               rtol=0, atol=1e-15)


def test_cfwnb_parameter_checked():
    with pytest.raises(ValueError, match="cfwnb_mi"):
        CFWNB(cfwnb_mi="smooth").fit(np.zeros((3, 2), dtype=np.int64), np.array([0, 1, 0]))


