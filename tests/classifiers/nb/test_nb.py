"""NB agrees with the plain-Python reference to 1e-12 on random data."""

import numpy as np
import pytest

from bncbench.classifiers import NB
from tests.oracles.nb.nb import ref_nb
from tests.support.data import ESTIMATOR_CASES as CASES
from tests.support.data import random_data


@pytest.mark.parametrize("seed,est,miss", CASES)
def test_nb(seed, est, miss):
    X, y, Xt, cards, nc = random_data(seed)
    got = NB(estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    want = np.array(ref_nb(X, y, Xt, nc, cards, est, 1.0, miss))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
