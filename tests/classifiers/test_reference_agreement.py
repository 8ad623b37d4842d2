"""The vectorised classifiers agree with the plain-Python reference to 1e-12 on random data."""

import numpy as np
import pytest

from bncbench.classifiers import AODE, KDB, NB, TAN
from tests.oracles.basic import ref_aode, ref_kdb, ref_nb, ref_tan
from tests.support.data import random_data

CASES = [(seed, est, miss) for seed in (0, 1, 2) for est in ("mestimate", "laplace", "laplace_joint")
         for miss in ("value", "skip")]


@pytest.mark.parametrize("seed,est,miss", CASES)
def test_nb(seed, est, miss):
    X, y, Xt, cards, nc = random_data(seed)
    got = NB(estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    want = np.array(ref_nb(X, y, Xt, nc, cards, est, 1.0, miss))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed,est,miss", CASES)
def test_tan(seed, est, miss):
    X, y, Xt, cards, nc = random_data(seed)
    clf = TAN(estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
    want, parents = ref_tan(X, y, Xt, nc, cards, est, 1.0, miss)
    assert clf.parents_.tolist() == parents
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("backoff", [False, True])
@pytest.mark.parametrize("seed,est,miss", CASES)
def test_kdb(seed, est, miss, k, backoff):
    X, y, Xt, cards, nc = random_data(seed)
    clf = KDB(k=k, backoff=backoff, estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
    want, parents = ref_kdb(X, y, Xt, nc, cards, k, backoff, est, 1.0, miss)
    assert clf.parents_ == [parents[i] for i in range(len(cards))]
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


@pytest.mark.parametrize("min_freq", [1, 4])
@pytest.mark.parametrize("seed,est,miss", CASES)
def test_aode(seed, est, miss, min_freq):
    X, y, Xt, cards, nc = random_data(seed)
    got = AODE(min_freq=min_freq, estimator=est, m=1.0, missing=miss, cardinalities=cards,
               n_classes=nc).fit(X, y).predict_proba(Xt)
    want = np.array(ref_aode(X, y, Xt, nc, cards, min_freq, est, 1.0, miss))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_m_weight_and_unseen_class():
    """m ≠ 1 and a class absent from training still get the right estimates."""
    X, y, Xt, cards, _ = random_data(5, n_classes=3)
    y = np.where(y == 2, 0, y)  # class 2 never seen in training
    for cls, ref in ((NB, ref_nb), (AODE, ref_aode)):
        got = cls(m=2.5, cardinalities=cards, n_classes=3).fit(X, y).predict_proba(Xt)
        want = np.array(ref(X, y, Xt, 3, cards, estimator="mestimate", m=2.5, missing="value"))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
