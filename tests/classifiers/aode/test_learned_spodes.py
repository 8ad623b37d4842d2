"""What the AODE family reports as learned (docs/algorithms.md §11): the posteriors rebuilt from the
reported submodels alone (by plain counting) equal predict_proba, and the per-row shares equal a
slow loop over the rows with the classifiers' own per-row methods (RC.eliminated,
SR.deleted_attributes) and AODE's superparent rule counted in the test."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from bncbench.classifiers import AODE, CAA, CAE, IWAODE, NSR, PAA, PAE, RC, SP, SPRC, SR, TAODE
from bncbench.classifiers.learned import Submodel
from tests.classifiers.test_learned import fitted, fold
from tests.oracles.learned import Counts, spode_proba

DATASETS = ["wine", "house-votes-84", "pima-ind-diabetes", "car", "random-0", "random-1"]


def _kind(clf) -> str:
    return "rc" if isinstance(clf, RC | SPRC) else "sr" if isinstance(clf, SR | NSR) else "plain"


def per_row_rules(clf, cnt: Counts, rows: np.ndarray):
    """(used(t, p), kept(t, c), fallback(t), removed (rows, n) or None) of each row, from AODE's
    superparent rule counted here and the classifier's own public per-row methods."""
    codes = [cnt.code(r) for r in rows]
    skip = clf.missing == "skip"
    n = rows.shape[1]
    removed = None
    if _kind(clf) == "rc":
        removed = clf.eliminated(rows)
    elif _kind(clf) == "sr":
        removed = clf.deleted_attributes(rows)

    def qualifies(t: int, p: int) -> bool:
        v = codes[t][p]
        return cnt.freq(p, v) >= clf.min_freq and not (skip and v == cnt.K[p])

    def used(t: int, p: int) -> bool:
        if removed is not None and (_kind(clf) == "sr" or getattr(clf, "rc_remove_as_parent", False)):
            if removed[t, p]:
                return False
        return qualifies(t, p)

    def kept(t: int, c: int) -> bool:
        return removed is None or not removed[t, c]

    def fallback(t: int) -> list[int]:
        if hasattr(clf, "children_"):  # the wrappers: naive Bayes over C
            return [int(c) for c in clf.children_]
        if _kind(clf) == "rc":  # naive Bayes over the children the row kept
            return [c for c in range(n) if kept(t, c)]
        return list(range(n))

    return used, kept, fallback, removed


#: (id, constructor): min_freq and the RC/SR thresholds low enough for them to act on these data
ENSEMBLES = [
    ("AODE", AODE),
    ("AODE-minfreq10-laplace", lambda **kw: AODE(min_freq=10, estimator="laplace", **kw)),
    ("TAODE-uniform", lambda **kw: TAODE(taode_weight="uniform", min_freq=5, **kw)),
    ("SP", SP),
    ("SP-minfreq10", lambda **kw: SP(min_freq=10, estimator="laplace", **kw)),
    ("PAA", PAA), ("CAA", CAA),
    ("PAE", lambda **kw: PAE(min_freq=5, **kw)), ("CAE", lambda **kw: CAE(wrapper_loss="zol", **kw)),
    ("RC", lambda **kw: RC(rc_min_support=5, **kw)),
    ("RC-as-parent", lambda **kw: RC(rc_min_support=5, rc_remove_as_parent=True, min_freq=5, **kw)),
    ("SPRC", lambda **kw: SPRC(rc_min_support=5, estimator="laplace", **kw)),
    ("SR", lambda **kw: SR(sr_min_freq=5, **kw)),
    ("NSR", lambda **kw: NSR(sr_min_freq=5, nsr_ratio=0.95, min_freq=3, **kw)),
]


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("label,make", ENSEMBLES, ids=[e[0] for e in ENSEMBLES])
def test_reported_submodels_rebuild_the_posteriors(label, make, name):
    clf, X, y, Xt, cards, nc = fitted(make, name)
    learned = clf.learned_structure()
    n = X.shape[1]
    assert all(s.superparent not in s.children for s in learned.submodels)
    assert learned.arcs == tuple(sorted((s.superparent, c) for s in learned.submodels for c in s.children))
    cnt = Counts(X, y, cards, nc, clf.estimator, clf.m)
    rows = np.vstack([Xt, X[:40]])
    used, kept, fallback, _ = per_row_rules(clf, cnt, rows)
    want = spode_proba(cnt, rows, learned, used, kept, fallback)
    np.testing.assert_allclose(clf.predict_proba(rows), np.array(want), rtol=0, atol=1e-9)
    assert set(learned.attributes) == {s.superparent for s in learned.submodels} | {
        c for s in learned.submodels for c in s.children} or not learned.submodels
    assert set(learned.attributes) <= set(range(n))


@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("label,make", ENSEMBLES, ids=[e[0] for e in ENSEMBLES])
def test_per_row_shares_equal_a_loop_over_the_rows(label, make, name, missing):
    clf, X, y, Xt, cards, nc = fitted(lambda **kw: make(missing=missing, **kw), name)
    rows = np.vstack([Xt, X])
    learned = clf.learned_structure(rows)
    assert learned.arcs == clf.learned_structure().arcs and learned.submodels == clf.learned_structure().submodels
    cnt = Counts(X, y, cards, nc, clf.estimator, clf.m)
    used, kept, _, removed = per_row_rules(clf, cnt, rows)
    R = len(rows)
    want = {(p, c): sum(not (used(t, p) and kept(t, c)) for t in range(R)) / R for p, c in learned.arcs}
    assert learned.arc_dropped.keys() == want.keys()
    for arc, share in want.items():
        assert learned.arc_dropped[arc] == pytest.approx(share, abs=1e-12), arc
    if removed is None:
        assert learned.attribute_dropped == {}
    else:
        assert learned.attribute_dropped == pytest.approx(
            {a: sum(bool(removed[t, a]) for t in range(R)) / R for a in learned.attributes}, abs=1e-12)


def test_the_per_row_parts_act_on_these_data():
    # the loops above compare something: superparents left out, children removed, attributes deleted
    def dropped(make, name):
        clf, X, _y, Xt, _cards, _nc = fitted(make, name)
        return clf.learned_structure(np.vstack([Xt, X]))

    assert max(dropped(lambda **kw: AODE(min_freq=10, **kw), "house-votes-84").arc_dropped.values()) > 0
    assert max(dropped(lambda **kw: AODE(missing="skip", **kw), "random-0").arc_dropped.values()) > 0
    for label, make in ENSEMBLES:
        if label.startswith(("RC", "SPRC", "SR", "NSR")):
            assert any(max(dropped(make, n).attribute_dropped.values()) > 0 for n in DATASETS), label
    # and the wrappers select: a strict subset of the parents or of the children somewhere
    for cls in (PAA, CAA, PAE, CAE):
        subs = [fitted(cls, n)[0] for n in DATASETS]
        assert any(c.parents_.size < fold(n)[0].shape[1] or c.children_.size < fold(n)[0].shape[1]
                   for c, n in zip(subs, DATASETS)), cls.__name__


def test_taode_reports_aodes_spodes_whatever_its_weights():
    for weight in ("likelihood", "log_likelihood"):
        taode, _X, _y, Xt, _cards, _nc = fitted(functools.partial(TAODE, taode_weight=weight, min_freq=5), "wine")
        aode = fitted(lambda **kw: AODE(min_freq=5, **kw), "wine")[0]
        assert taode.learned_structure(Xt) == aode.learned_structure(Xt)


def test_iwaode_by_hand():
    # three attributes: every attribute a superparent, the two others its children; every row
    # weights every SPODE and leaves none out
    X = np.array([[0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1]])
    y = np.array([0, 1, 0, 1, 1])
    clf = IWAODE().fit(X, y)
    want = (Submodel(0, (1, 2)), Submodel(1, (0, 2)), Submodel(2, (0, 1)))
    for learned in (clf.learned_structure(), clf.learned_structure(X)):
        assert learned.submodels == want
        assert learned.arcs == ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))
        assert learned.attributes == (0, 1, 2) and learned.arc_dropped == {} and learned.attribute_dropped == {}


def test_aode_by_hand():
    # attribute 0's value 1 occurs once in training: with min_freq 2, a row holding it leaves
    # SPODE 0 out (both its arcs), a row holding 0 keeps it
    X = np.array([[0, 0], [0, 1], [0, 1], [1, 0]])
    y = np.array([0, 1, 1, 0])
    clf = AODE(min_freq=2).fit(X, y)
    learned = clf.learned_structure(np.array([[1, 0], [0, 1], [0, 0], [1, 1]]))
    assert learned.submodels == (Submodel(0, (1,)), Submodel(1, (0,)))
    assert dict(learned.arc_dropped) == {(0, 1): 0.5, (1, 0): 0.0}
