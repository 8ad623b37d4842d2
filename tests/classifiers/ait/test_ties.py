"""The tie rule of docs/algorithms.md §0.3 in AIT: on `tied_data` (relabelled copies of
attributes, equal information values in exact arithmetic, float64 sums that differ in the last
bits) each learner chooses as the plain-Python reference and the smallest-index rule say
(the premise: tests/classifiers/kernels/test_tie_rule.py)."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import AIT
from tests.classifiers.ait.test_ait import local_structures
from tests.oracles.ait.ait import ref_ait
from tests.support.data import TIED_SEEDS as SEEDS
from tests.support.data import tied_data


@pytest.mark.parametrize("base", ["TAN", "KDB"])
@pytest.mark.parametrize("seed", SEEDS)
def test_ait(seed, base):
    X, y, Xt, cards, nc, _ = tied_data(seed, n_test=8)
    clf = AIT(base=base, k=2, cardinalities=cards, n_classes=nc).fit(X, y)
    want, gpar, _, local = ref_ait(X, y, Xt, nc, cards, base=base, k=2)
    assert clf.parents_ == gpar
    st = local_structures(clf, Xt)
    for b, ref in enumerate(local):
        assert [[[int(p) for p in ps if p >= 0] for ps in net] for net in st["parents"][b]] == ref["parents"]
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


