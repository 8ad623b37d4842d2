"""The tie rule of docs/algorithms.md §0.3 in SP's superparents: on `tied_data` (relabelled copies of
attributes, equal information values in exact arithmetic, float64 sums that differ in the last
bits) each learner chooses as the plain-Python reference and the smallest-index rule say
(the premise: tests/classifiers/kernels/test_tie_rule.py)."""

from __future__ import annotations

import pytest

from bncbench.classifiers import SP
from tests.oracles.aode.sp_rc import ref_cmi_matrix, sp_parents_from_weights
from tests.oracles.reference import Ref
from tests.support.data import TIED_SEEDS as SEEDS
from tests.support.data import tied_data


@pytest.mark.parametrize("seed", SEEDS)
def test_sp_superparents(seed):
    X, y, _, cards, nc, _ = tied_data(seed)
    clf = SP(cardinalities=cards, n_classes=nc).fit(X, y)
    R = Ref(X, y, nc, cards, "laplace", 1.0, "value")
    assert clf.parents_.tolist() == sp_parents_from_weights(ref_cmi_matrix(R))


