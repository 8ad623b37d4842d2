"""TAN agrees with the plain-Python reference to 1e-12 on random data."""

import numpy as np
import pytest

from bncbench.classifiers import TAN
from tests.oracles.tan.tan import ref_tan
from tests.support.data import ESTIMATOR_CASES as CASES
from tests.support.data import random_data


@pytest.mark.parametrize("seed,est,miss", CASES)
def test_tan(seed, est, miss):
    X, y, Xt, cards, nc = random_data(seed)
    clf = TAN(estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
    want, parents = ref_tan(X, y, Xt, nc, cards, est, 1.0, miss)
    assert clf.parents_.tolist() == parents
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)
