"""KDB agrees with the plain-Python reference to 1e-12 on random data."""

import numpy as np
import pytest

from bncbench.classifiers import KDB
from tests.oracles.kdb.kdb import ref_kdb
from tests.support.data import ESTIMATOR_CASES as CASES
from tests.support.data import random_data


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("backoff", [False, True])
@pytest.mark.parametrize("seed,est,miss", CASES)
def test_kdb(seed, est, miss, k, backoff):
    X, y, Xt, cards, nc = random_data(seed)
    clf = KDB(k=k, backoff=backoff, estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
    want, parents = ref_kdb(X, y, Xt, nc, cards, k, backoff, est, 1.0, miss)
    assert clf.parents_ == [parents[i] for i in range(len(cards))]
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)
