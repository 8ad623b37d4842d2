"""The tie rule of docs/algorithms.md §0.3 in KDB, SKDB and FKDB: on `tied_data` (relabelled copies of
attributes, equal information values in exact arithmetic, float64 sums that differ in the last
bits) each learner chooses as the plain-Python reference and the smallest-index rule say
(the premise: tests/classifiers/kernels/test_tie_rule.py)."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import FKDB, KDB, SKDB
from tests.oracles.kdb.fkdb import ref_fkdb_structure
from tests.oracles.kdb.kdb import ref_kdb
from tests.oracles.kdb.skdb import ref_structure
from tests.oracles.rows import Data
from tests.support.data import TIED_SEEDS as SEEDS
from tests.support.data import tied_data


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("seed", SEEDS)
def test_kdb(seed, k):
    X, y, Xt, cards, nc, _ = tied_data(seed)
    clf = KDB(k=k, estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    want, parents = ref_kdb(X, y, Xt, nc, cards, k, False, "laplace", 1.0, "value")
    assert clf.parents_ == [parents[i] for i in range(len(cards))]
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_skdb_structure(seed):
    X, y, _, cards, nc, _ = tied_data(seed)
    clf = SKDB(k_max=2, cardinalities=cards, n_classes=nc).fit(X, y)
    order, parents = ref_structure(X.tolist(), y.tolist(), cards.tolist(), 2)
    assert clf.order_.tolist() == order and clf.parents_ == parents


@pytest.mark.parametrize("seed", SEEDS)
def test_fkdb_structure(seed):
    X, y, _, cards, nc, _ = tied_data(seed)
    clf = FKDB(k=2, cardinalities=cards, n_classes=nc).fit(X, y)
    order, parents = ref_fkdb_structure(Data(X.tolist(), y.tolist(), nc, cards.tolist(), "value"), 2)
    assert clf.order_.tolist() == list(order) and clf.parents_ == parents


