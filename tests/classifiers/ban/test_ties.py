"""The tie rule of docs/algorithms.md §0.3 in k-BAN and BAN-MDL: on `tied_data` (relabelled copies of
attributes, equal information values in exact arithmetic, float64 sums that differ in the last
bits) each learner chooses as the plain-Python reference and the smallest-index rule say
(the premise: tests/classifiers/kernels/test_tie_rule.py)."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import BAN, KBAN
from tests.oracles.ban import ban as ref_ban
from tests.oracles.ban.kban import ref_kban
from tests.support.data import tied_data


@pytest.mark.parametrize("seed", range(5))
def test_kban(seed):
    X, y, Xt, cards, nc, _ = tied_data(seed, n_train=40, n_test=10, n_attr=4, p_missing=0.1)
    clf = KBAN(k=2, estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    parents, trace, post = ref_kban(X.tolist(), y.tolist(), cards.tolist(), nc, 2, "laplace", X_test=Xt.tolist())
    assert clf.parents_ == parents and clf.trace_ == trace
    np.testing.assert_allclose(clf.predict_proba(Xt), post, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_ban_hill_climbing(seed):
    """BAN-MDL's move scores are exact sums of terms that depend only on the cell counts, so the
    copies tie exactly; the search takes the first move in (add, delete, reverse; parent, child)."""
    X, y, _, cards, nc, _ = tied_data(seed, n_train=300, n_attr=4, n_classes=2)
    has_missing = (X < 0).any(axis=0)
    rows = [tuple(int(v) if v >= 0 else int(cards[i]) for i, v in enumerate(r)) for r in X]
    card = [int(c) + int(m) for c, m in zip(cards, has_missing)]
    clf = BAN(method="hc", cardinalities=cards, n_classes=nc).fit(X, y)
    assert clf.parents_ == ref_ban.hill_climb(rows, [int(c) for c in y], card, nc, 8)


