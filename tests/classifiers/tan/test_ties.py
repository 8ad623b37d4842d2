"""The tie rule of docs/algorithms.md §0.3 in TAN and STAN's rankings: on `tied_data` (relabelled copies of
attributes, equal information values in exact arithmetic, float64 sums that differ in the last
bits) each learner chooses as the plain-Python reference and the smallest-index rule say
(the premise: tests/classifiers/kernels/test_tie_rule.py)."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import STAN, TAN
from bncbench.classifiers.kernels.counts import pair_counts
from bncbench.classifiers.tan.rankings import RANKINGS, rank
from tests.oracles.tan.tan import ref_tan
from tests.support.data import TIED_SEEDS as SEEDS
from tests.support.data import tied_data


@pytest.mark.parametrize("seed", SEEDS)
def test_tan(seed):
    X, y, Xt, cards, nc, _ = tied_data(seed)
    clf = TAN(estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    want, parents = ref_tan(X, y, Xt, nc, cards, "laplace", 1.0, "value")
    assert clf.parents_.tolist() == parents
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


@pytest.mark.parametrize("ranking", RANKINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_rankings_put_an_original_before_its_later_copy(seed, ranking):
    """An attribute and its copy have equal scores at every step where both are candidates (all
    their values with every other attribute are equal), so the one with the smaller index comes
    first: the copy in column 0 precedes its original a; the original b precedes its copy in the
    last column. MRMR in both forms."""
    X, y, _, cards, nc, (a, b) = tied_data(seed)
    n = X.shape[1]
    pc = pair_counts(np.where(X < 0, cards, X), y, cards + 1, nc)
    for form in (("ratio", "difference") if ranking == "mrmr" else ("ratio",)):
        order = rank(pc, ranking, mrmr_form=form)
        assert order.index(0) < order.index(a) and order.index(b) < order.index(n - 1), (form, order)
    clf = STAN(ranking=ranking, cardinalities=cards, n_classes=nc).fit(X, y)
    assert clf.ranking_ == rank(pc, ranking)


