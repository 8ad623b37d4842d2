"""What each one-network classifier reports as learned (docs/algorithms.md §11) is the network it
predicts with: posteriors rebuilt from the reported arcs and attributes alone, by plain counting,
equal predict_proba; a plug-in reports none; every report survives its JSON form."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from bncbench.classifiers import (
    AIT,
    AODE,
    BAN,
    CAA,
    CAE,
    CFWNB,
    FKDB,
    IWAODE,
    KBAN,
    KDB,
    NB,
    NSR,
    PAA,
    PAE,
    RC,
    SKDB,
    SP,
    SPRC,
    SR,
    STAN,
    TAN,
    TAODE,
)
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.learned import Learned
from tests.oracles.learned import Counts, all_parents_seen, network_proba
from tests.support.data import random_data

#: configs/default.yaml's data sets used (fold 0 of run 0), and random data with missing values (−1)
DATASETS = ["wine", "house-votes-84", "pima-ind-diabetes", "car", "random-0", "random-1"]


@functools.cache
def fold(name: str):
    """(X_train, y_train, X_test, cardinalities, n_classes) of one data set."""
    if name.startswith("random-"):
        X, y, Xt, cards, nc = random_data(int(name.split("-")[1]), n_train=300, n_test=80, n_attr=7)
        return X, y, Xt, np.asarray(cards), nc
    from bncbench.config import load
    from bncbench.engine.units import preprocessed_fold

    exp = load("configs/default.yaml")
    spec = next(d for d in exp.datasets if d.name == name)
    p = preprocessed_fold(spec, exp.preprocess, exp.cv, 0, 0)
    e = p.encoded
    return e.X_train, p.dataset.y[p.train], e.X_test, np.asarray(e.cardinalities), len(p.dataset.classes)


def fitted(make, name: str):
    X, y, Xt, cards, nc = fold(name)
    return make(cardinalities=cards, n_classes=nc).fit(X, y), X, y, Xt, cards, nc


#: (id, constructor, whether a back-off may change an estimate where a parent configuration is unseen)
NETWORKS = [
    ("NB-m", NB, False),
    ("NB-laplace", lambda **kw: NB(estimator="laplace", **kw), False),
    ("NB-joint", lambda **kw: NB(estimator="laplace_joint", **kw), False),
    ("TAN", TAN, False),
    ("TAN-f32-joint", lambda **kw: TAN(info_precision="float32", estimator="laplace_joint", **kw), False),
    ("STAN-MRMR", STAN, False),
    ("STAN-MI-laplace", lambda **kw: STAN(ranking="mi", estimator="laplace", **kw), False),
    ("KDB1", lambda **kw: KDB(k=1, **kw), False),
    ("KDB2", lambda **kw: KDB(k=2, **kw), False),
    ("KDB3-joint", lambda **kw: KDB(k=3, estimator="laplace_joint", **kw), False),
    ("KDB2-backoff", lambda **kw: KDB(k=2, backoff=True, **kw), True),
    ("KDB1-backoff", lambda **kw: KDB(k=1, backoff=True, **kw), True),
    ("FKDB", FKDB, True),
    ("FKDB-no-backoff", lambda **kw: FKDB(backoff=False, **kw), False),
    ("SKDB", SKDB, True),
    ("SKDB-k2-textbook", lambda **kw: SKDB(k_max=2, skdb_variant="textbook", **kw), True),
    ("BAN-tpda", BAN, False),
    ("BAN-hc", lambda **kw: BAN(method="hc", **kw), False),
    ("KBAN2", lambda **kw: KBAN(k=2, estimator="laplace", **kw), False),
    ("TAN-AIT-global", lambda **kw: AIT(cip=False, **kw), False),
    ("KDB-AIT-global", lambda **kw: AIT(base="KDB", cip=False, backoff=False, **kw), False),
    ("KDB-AIT-global-backoff", lambda **kw: AIT(base="KDB", cip=False, **kw), True),
]


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("label,make,backoff", NETWORKS, ids=[n[0] for n in NETWORKS])
def test_reported_network_is_the_one_predicting(label, make, backoff, name):
    clf, X, y, Xt, cards, nc = fitted(make, name)
    learned = clf.learned_structure()
    assert learned.submodels == () and learned.arc_dropped == {} and learned.attribute_dropped == {}
    assert list(learned.arcs) == sorted(set(learned.arcs))
    cnt = Counts(X, y, cards, nc, clf.estimator, clf.m)
    rows = np.vstack([Xt, X[:60]])
    if backoff:  # a back-off changes the estimate only where a full parent configuration is unseen
        rows = rows[[all_parents_seen(cnt, r, learned) for r in rows]]
        assert len(rows) >= 20
    want = network_proba(cnt, rows, learned)
    np.testing.assert_allclose(clf.predict_proba(rows), np.array(want), rtol=0, atol=1e-9)


def test_the_oracle_tells_a_wrong_structure():
    # the check above can fail: one arc fewer, or one attribute fewer, gives other posteriors
    clf, X, y, Xt, cards, nc = fitted(lambda **kw: KDB(k=2, **kw), "car")
    learned = clf.learned_structure()
    cnt = Counts(X, y, cards, nc, clf.estimator, clf.m)
    got = clf.predict_proba(Xt)
    fewer_arcs = Learned(arcs=learned.arcs[1:], attributes=learned.attributes)
    fewer_attrs = Learned(arcs=tuple(a for a in learned.arcs if 0 not in a), attributes=learned.attributes[1:])
    for wrong in (fewer_arcs, fewer_attrs):
        assert np.abs(got - np.array(network_proba(cnt, Xt, wrong))).max() > 1e-3


def test_cfwnb_reports_naive_bayes_and_predicts_with_its_weights():
    for name in ("wine", "car", "random-0"):
        clf, X, y, Xt, cards, nc = fitted(CFWNB, name)
        learned = clf.learned_structure()
        assert learned.arcs == () and learned.attributes == tuple(range(X.shape[1]))
        want = network_proba(Counts(X, y, cards, nc, clf.estimator, clf.m), Xt, learned, weights=clf.weights_)
        np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-9)


def test_the_structures_are_not_trivial():
    # the data sets give the oracle something to check: arcs, selections below all attributes
    arcs = {name: fitted(TAN, name)[0].learned_structure().arcs for name in DATASETS}
    assert all(len(a) == fold(n)[0].shape[1] - 1 for n, a in arcs.items())
    selected = [len(fitted(STAN, n)[0].learned_structure().attributes) for n in DATASETS]
    assert min(s - fold(n)[0].shape[1] for s, n in zip(selected, DATASETS)) < 0
    skdb = [fitted(SKDB, n)[0].learned_structure() for n in DATASETS]
    assert any(len(s.attributes) < fold(n)[0].shape[1] for s, n in zip(skdb, DATASETS))
    assert any(max((sum(c == a for _, c in s.arcs) for a in s.attributes), default=0) >= 2 for s in skdb)
    ait = [fitted(lambda **kw: AIT(base="KDB", cip=False, **kw), n)[0] for n in DATASETS]
    assert sum(a.info_["cii_arcs_removed"] for a in ait) > 0  # the threshold removed arcs: reported ones are fewer


def test_a_plug_in_reports_none():
    class Mine(BayesNetClassifier):
        NEEDS_PAIRS = False

        def _fit(self, Xc, y):
            self.log_prior_ = np.log(np.bincount(y, minlength=self.n_classes_) + 1.0)

        def _joint_log_likelihood(self, Xc):
            return np.tile(self.log_prior_, (Xc.shape[0], 1))

    X, y, Xt, cards, nc = fold("random-0")
    clf = Mine(cardinalities=cards, n_classes=nc).fit(X, y)
    assert clf.learned_structure() is None and clf.learned_structure(Xt) is None


#: every built-in classifier, for the JSON round trip (per-row parts filled where it has some)
EVERY = [NB, CFWNB, TAN, STAN, KDB, SKDB, FKDB, lambda **kw: AIT(base="TAN", **kw),
         lambda **kw: AIT(base="KDB", **kw), AODE, TAODE, IWAODE, SP,
         lambda **kw: RC(rc_min_support=5, **kw), lambda **kw: SPRC(rc_min_support=5, **kw),
         PAA, CAA, PAE, CAE, lambda **kw: SR(sr_min_freq=5, **kw), lambda **kw: NSR(sr_min_freq=5, **kw),
         lambda **kw: KBAN(k=2, **kw), BAN, lambda **kw: BAN(method="hc", **kw)]


@pytest.mark.parametrize("make", EVERY)
def test_every_report_survives_its_json_form(make):
    clf, X, _y, Xt, _cards, _nc = fitted(make, "random-1")
    for learned in (clf.learned_structure(), clf.learned_structure(Xt)):
        assert isinstance(learned, Learned)
        text = json.dumps(learned.to_json())
        assert Learned.from_json(json.loads(text)) == learned
        n = X.shape[1]
        assert all(0 <= p < n and 0 <= c < n and p != c for p, c in learned.arcs)
        assert set(learned.arc_dropped) <= set(learned.arcs)
        assert all(0.0 <= s <= 1.0 for s in [*learned.arc_dropped.values(), *learned.attribute_dropped.values()])
    assert clf.learned_structure().arc_dropped == {} and clf.learned_structure().attribute_dropped == {}
