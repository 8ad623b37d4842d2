"""FKDB (docs/algorithms.md §4.11) against the plain-Python oracle of tests/oracles/kdb/fkdb.py,
and its structure rules."""

import numpy as np
import pytest

from bncbench.classifiers.kdb.fkdb import FKDB
from tests.oracles.kdb.fkdb import ref_fkdb
from tests.oracles.rows import Data
from tests.support.data import TIE_CASES as DATA
from tests.support.data import random_data_with_ties as random_data

ESTIMATORS = ("mestimate", "laplace", "laplace_joint")
MISSING = ("value", "skip")
FKDB_CASES = [(d, est, miss) for d in range(len(DATA)) for est in ESTIMATORS for miss in MISSING]


@pytest.mark.parametrize("d,est,miss", FKDB_CASES)
@pytest.mark.parametrize("k,backoff", [(2, True), (2, False), (3, True), (1, True), (1, False)])
def test_fkdb_matches_oracle(d, est, miss, k, backoff):
    X, y, Xt, cards, nc = random_data(**DATA[d])
    clf = FKDB(k=k, backoff=backoff, estimator=est, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
    want, order, parents = ref_fkdb(X.tolist(), y.tolist(), Xt.tolist(), nc, cards.tolist(), k, backoff, est, 1.0, miss)
    assert clf.order_.tolist() == order
    assert clf.parents_ == parents
    np.testing.assert_allclose(clf.predict_proba(Xt), want, rtol=0, atol=1e-12)


def test_fkdb_backoff_changes_predictions():
    # the oracle comparison above is only meaningful if back-off is exercised: on these data some
    # test instances have parent values that never occurred together in training
    X, y, Xt, cards, nc = random_data(5, n_attr=8, p_missing=0.2)
    on = FKDB(k=3, backoff=True, cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    off = FKDB(k=3, backoff=False, cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
    assert np.abs(on - off).max() > 1e-3


def test_fkdb_ties_copy_and_constant():
    # attribute 2 is an exact copy of attribute 1: equal MI (stable order keeps 1 first), and
    # H(X_1 | X_2, Y) = H(X_2 | X_1, Y) = 0, a tie → the earlier attribute in the MI order, 1,
    # is the parent; their CMI is the largest, so the arc 1 → 2 is the first one added.
    X, y, _, cards, nc = random_data(3, extras=True)
    clf = FKDB(k=2, cardinalities=cards, n_classes=nc).fit(X, y)
    pos = {int(a): p for p, a in enumerate(clf.order_)}
    assert pos[2] == pos[1] + 1
    assert clf.cond_entropy_[1, 2] == clf.cond_entropy_[2, 1] == 0.0
    assert clf.parents_[2][0] == 1
    # the constant attribute 3 has MI 0 (last in the order) and H(X_3 | ·, Y) = 0: it is a child
    # of every pair it is in, never a parent
    assert pos[3] == len(pos) - 1 or clf.mi_[clf.order_[pos[3]:]].max() == 0
    assert all(3 not in par for par in clf.parents_)


def test_fkdb_pair_ties_follow_the_mi_order():
    # A (index 0) is weakly relevant, B (index 1) strongly, C (index 2) constant: MI order B, A, C.
    # CMI(A, C) = CMI(B, C) = 0 tie; C is the child of both pairs (H(C | ·, Y) = 0). With k = 1 the
    # pair taken first gives C its parent: (B, C) at MI positions (0, 2) before (A, C) at (1, 2),
    # so C's parent is B (by attribute index, (A, C) = (0, 2) would come first and give A).
    y = np.array([0] * 10 + [1] * 10)
    B = y.copy()
    B[[0, 10]] = 1 - B[[0, 10]]
    A = y.copy()
    A[[0, 1, 2, 10, 11, 12, 13]] = 1 - A[[0, 1, 2, 10, 11, 12, 13]]
    X = np.column_stack([A, B, np.zeros(20, dtype=np.int64)])
    clf = FKDB(k=1).fit(X, y)
    assert clf.order_.tolist() == [1, 0, 2]
    assert clf.cmi_[0, 2] == clf.cmi_[1, 2] == 0.0
    assert clf.parents_[2] == [1]
    _, order, parents = ref_fkdb(X.tolist(), y.tolist(), X[:1].tolist(), 2, [2, 2, 1], k=1)
    assert (order, parents) == (clf.order_.tolist(), clf.parents_)


def _acyclic(parents):
    state: dict[int, int] = {}

    def visit(v):
        if state.get(v) == 1:
            return False
        if state.get(v) == 2:
            return True
        state[v] = 1
        ok = all(visit(p) for p in parents[v])
        state[v] = 2
        return ok
    return all(visit(v) for v in range(len(parents)))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("k", (1, 2, 3, 5))
@pytest.mark.parametrize("precision", ("float64", "float32"))
def test_fkdb_structure_rules(seed, k, precision):
    rng = np.random.default_rng(100 + seed)
    n_attr = int(rng.integers(3, 25))
    X, y, _, cards, nc = random_data(seed, n_train=150, n_attr=n_attr, p_missing=0.05)
    clf = FKDB(k=k, info_precision=precision, cardinalities=cards, n_classes=nc).fit(X, y)
    parents = clf.parents_
    assert all(len(p) <= k and len(set(p)) == len(p) and i not in p for i, p in enumerate(parents))
    assert _acyclic(parents)
    # every arc goes from the attribute with the larger H(· | other, Y) to the one with the smaller
    # (ties: the earlier one in the MI order is the parent)
    pos = {int(a): p for p, a in enumerate(clf.order_)}
    H = clf.cond_entropy_
    for c, par in enumerate(parents):
        for p in par:
            assert H[c, p] < H[p, c] or (H[c, p] == H[p, c] and pos[p] < pos[c])
    # greedy maximality: a pair without an arc was rejected, and what rejected it still holds in
    # the final graph (its child has k parents, or a path child → … → parent exists)
    for a in range(n_attr):
        for b in range(a + 1, n_attr):
            if a in parents[b] or b in parents[a]:
                continue
            first, second = (a, b) if pos[a] < pos[b] else (b, a)
            parent, child = (second, first) if H[first, second] < H[second, first] else (first, second)
            assert len(parents[child]) == k or _path(parents, child, parent)


def _path(parents, src, dst):
    stack, seen = [src], set()
    while stack:
        v = stack.pop()
        if v == dst:
            return True
        if v not in seen:
            seen.add(v)
            stack.extend(c for c in range(len(parents)) if v in parents[c])
    return False


def test_fkdb_k0_is_nb_and_info_precision():
    X, y, Xt, cards, nc = random_data(0)
    clf = FKDB(k=0, cardinalities=cards, n_classes=nc).fit(X, y)
    assert clf.parents_ == [[] for _ in range(X.shape[1])]
    D = Data(X.tolist(), y.tolist(), nc, cards.tolist(), "value")
    for r, p in zip(Xt.tolist(), clf.predict_proba(Xt)):
        r = D.code(r)
        s = [D.log_prior(c, "mestimate", 1.0) + sum(D.log_cond(i, r[i], c, [], [], "mestimate", 1.0)
                                                    for i in range(D.n)) for c in range(nc)]
        np.testing.assert_allclose(p, D.softmax(s), rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="info_precision"):
        FKDB(info_precision="half").fit(X, y)
