"""AODE agrees with the plain-Python reference to 1e-12 on random data."""

import numpy as np
import pytest

from bncbench.classifiers import AODE
from tests.oracles.aode.aode import ref_aode
from tests.support.data import ESTIMATOR_CASES as CASES
from tests.support.data import random_data


@pytest.mark.parametrize("min_freq", [1, 4])
@pytest.mark.parametrize("seed,est,miss", CASES)
def test_aode(seed, est, miss, min_freq):
    X, y, Xt, cards, nc = random_data(seed)
    got = AODE(min_freq=min_freq, estimator=est, m=1.0, missing=miss, cardinalities=cards,
               n_classes=nc).fit(X, y).predict_proba(Xt)
    want = np.array(ref_aode(X, y, Xt, nc, cards, min_freq, est, 1.0, miss))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
