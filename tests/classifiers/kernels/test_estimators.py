"""The estimates (docs/algorithms.md §2) with m ≠ 1 and a class absent from training, through NB and
AODE against their plain-Python references."""

import numpy as np

from bncbench.classifiers import AODE, NB
from tests.oracles.aode.aode import ref_aode
from tests.oracles.nb.nb import ref_nb
from tests.support.data import random_data


def test_m_weight_and_unseen_class():
    """m ≠ 1 and a class absent from training still get the right estimates."""
    X, y, Xt, cards, _ = random_data(5, n_classes=3)
    y = np.where(y == 2, 0, y)  # class 2 never seen in training
    for cls, ref in ((NB, ref_nb), (AODE, ref_aode)):
        got = cls(m=2.5, cardinalities=cards, n_classes=3).fit(X, y).predict_proba(Xt)
        want = np.array(ref(X, y, Xt, 3, cards, estimator="mestimate", m=2.5, missing="value"))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
