"""SKDB (docs/algorithms.md §4.12) against the brute-force plain-Python oracle of tests/oracles/kdb/skdb.py
and hand-worked cases."""

import math

import numpy as np
import pytest

from bncbench.classifiers.kdb.skdb import SKDB
from tests.oracles.kdb.skdb import (
    brute_force_loo_losses,
    ref_predict,
    ref_select,
    ref_skdb,
    ref_structure,
)
from tests.support.data import random_data as shared_random_data


def random_data(seed, n_train=50, n_test=20, n_attr=5, n_classes=3, p_missing=0.1):
    """Correlated attributes (so that parents matter) with −1 codes for missing values."""
    return shared_random_data(seed, n_train, n_test, n_attr, n_classes, p_missing)


# (a) incremental leave-one-out == leave-one-out with the counts refitted without each instance
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("k_max", [0, 1, 2, 3])
@pytest.mark.parametrize("variant", ["petal", "textbook"])
def test_incremental_loo_equals_brute_force(seed, k_max, variant):
    X, y, _, cards, nc = random_data(seed)
    clf = SKDB(k_max=k_max, skdb_variant=variant, cardinalities=cards, n_classes=nc).fit(X, y)
    order, parents = ref_structure(X.tolist(), y.tolist(), cards.tolist(), k_max)
    assert clf.order_.tolist() == order and clf.parents_ == parents
    want = brute_force_loo_losses(X.tolist(), y.tolist(), nc, cards.tolist(), order, parents, k_max, variant)
    assert clf.loo_losses_.shape == (X.shape[1] + 1, k_max + 1)
    np.testing.assert_allclose(clf.loo_losses_, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("est", ["mestimate", "laplace", "laplace_joint"])
@pytest.mark.parametrize("variant", ["petal", "textbook"])
def test_incremental_loo_other_estimators(est, variant):
    X, y, _, cards, nc = random_data(7, n_train=40, n_attr=4, n_classes=2)
    clf = SKDB(k_max=2, skdb_variant=variant, estimator=est, m=2.0, cardinalities=cards, n_classes=nc).fit(X, y)
    want = brute_force_loo_losses(X.tolist(), y.tolist(), nc, cards.tolist(), clf.order_.tolist(), clf.parents_,
                                  2, variant, est, 2.0)
    np.testing.assert_allclose(clf.loo_losses_, want, rtol=0, atol=1e-12)


def test_petal_back_off_is_exercised():
    """On these data the count test of the petal walk stops some instances early, so the two
    variants' leave-one-out tables differ beyond the first attributes (the oracle above checks
    each; this guards that the data make the back-off matter)."""
    X, y, _, cards, nc = random_data(0)
    a = SKDB(k_max=3, skdb_variant="petal", cardinalities=cards, n_classes=nc).fit(X, y)
    b = SKDB(k_max=3, skdb_variant="textbook", cardinalities=cards, n_classes=nc).fit(X, y)
    np.testing.assert_array_equal(a.loo_losses_[:2], b.loo_losses_[:2])  # no parent yet: identical
    assert np.abs(a.loo_losses_[2:, 1:] - b.loo_losses_[2:, 1:]).max() > 1e-6


# (b) selection and classification against the plain-Python reference
@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.parametrize("variant", ["petal", "textbook"])
@pytest.mark.parametrize("select_k", [True, False])
def test_selection_and_proba_match_reference(seed, variant, select_k):
    X, y, Xt, cards, nc = random_data(seed, n_train=60)
    # unseen combinations at test time: a value code never seen in training (→ missing slot)
    Xt = Xt.copy()
    Xt[0, 0] = cards[0] - 1 if (X[:, 0] == cards[0] - 1).any() else Xt[0, 0]
    clf = SKDB(k_max=3, select_k=select_k, skdb_variant=variant, cardinalities=cards, n_classes=nc).fit(X, y)
    ref = ref_skdb(X.tolist(), y.tolist(), Xt.tolist(), nc, cards.tolist(), 3, select_k, variant)
    np.testing.assert_allclose(clf.loo_losses_, ref["losses"], rtol=0, atol=1e-12)
    assert (clf.n_selected_, clf.k_) == (ref["s"], ref["k"])
    assert clf.info_ == {"n_selected": ref["s"], "k": ref["k"]}
    assert clf.selected_.tolist() == ref["order"][: ref["s"]]
    np.testing.assert_allclose(clf.predict_proba(Xt), ref["proba"], rtol=0, atol=1e-12)


@pytest.mark.parametrize("s,k", [(5, 0), (5, 3), (2, 1), (4, 2), (3, 3)])
def test_deepest_existing_node_classification(s, k):
    """Every (s, k) model, not only the selected one, classifies as the reference (back-off to
    the deepest parent prefix that occurred in training, plain m-estimates)."""
    X, y, Xt, cards, nc = random_data(8, n_train=30, p_missing=0.15)  # few rows: many unseen prefixes
    clf = SKDB(k_max=3, cardinalities=cards, n_classes=nc).fit(X, y)
    clf.n_selected_, clf.k_ = s, k
    clf.selected_ = clf.order_[:s]
    clf._tables = [clf._final_tables(np.where(X < 0, cards, X), y, int(a)) for a in clf.selected_]
    want = ref_predict(X.tolist(), y.tolist(), Xt.tolist(), nc, cards.tolist(), clf.order_.tolist(), clf.parents_, s, k)
    np.testing.assert_allclose(clf.predict_proba(Xt), want, rtol=0, atol=1e-12)


# (c) hand checks
def test_select_k_false_keeps_k_max():
    X, y, _, cards, nc = random_data(9)
    for variant in ("petal", "textbook"):
        clf = SKDB(k_max=2, select_k=False, skdb_variant=variant, cardinalities=cards, n_classes=nc).fit(X, y)
        assert clf.k_ == 2
        losses = clf.loo_losses_[1:, 2]  # only the k = k_max column competes
        if losses.min() < clf.loo_losses_[0, 2]:
            assert clf.n_selected_ == int(np.flatnonzero(losses == losses.min())[0]) + 1


def _nb_proba(X, y, Xt, nc, cards, attrs):
    """Naive Bayes over `attrs` with m-estimates (m = 1), worked directly from the formulas."""
    N = len(y)
    card = [cards[i] + (1 if (X[:, i] < 0).any() else 0) for i in range(len(cards))]
    out = []
    for r in Xt:
        sc = []
        for c in range(nc):
            ny = int((y == c).sum())
            v = math.log((ny + 1 / nc) / (N + 1))
            for a in attrs:
                num = int(((X[:, a] == r[a]) & (y == c)).sum())
                v += math.log((num + 1 / card[a]) / (ny + 1))
            sc.append(v)
        e = np.exp(np.array(sc) - max(sc))
        out.append(e / e.sum())
    return np.array(out)


def test_k_max_zero_is_selective_nb():
    X, y, Xt, cards, nc = random_data(10, n_train=80)
    clf = SKDB(k_max=0, cardinalities=cards, n_classes=nc).fit(X, y)
    assert clf.k_ == 0 and clf.loo_losses_.shape == (X.shape[1] + 1, 1)
    assert all(p == [] for p in clf.parents_)
    np.testing.assert_allclose(clf.predict_proba(Xt), _nb_proba(X, y, Xt, nc, cards, clf.selected_.tolist()),
                               rtol=0, atol=1e-12)


def test_class_only_best_petal_means_nb_over_all_textbook_means_prior():
    """Pure-noise attributes: no model beats the class prior in leave-one-out. The petal rule
    then selects naive Bayes over ALL attributes (the C++ quirk), the textbook rule the prior."""
    rng = np.random.default_rng(11)
    X = rng.integers(0, 4, size=(40, 4))
    y = np.array([0, 1] * 20)
    Xt = rng.integers(0, 4, size=(10, 4))
    order, parents = ref_structure(X.tolist(), y.tolist(), [4] * 4, 2)
    losses = brute_force_loo_losses(X.tolist(), y.tolist(), 2, [4] * 4, order, parents, 2, "petal")
    assert min(min(row) for row in losses[1:]) > losses[0][0]  # the premise of this test
    assert ref_select(losses, "petal") == (4, 0)
    p = SKDB(k_max=2, cardinalities=[4] * 4, n_classes=2).fit(X, y)
    assert (p.n_selected_, p.k_) == (4, 0)
    np.testing.assert_allclose(p.predict_proba(Xt), _nb_proba(X, y, Xt, 2, [4] * 4, [0, 1, 2, 3]), rtol=0, atol=1e-12)
    t = SKDB(k_max=2, skdb_variant="textbook", cardinalities=[4] * 4, n_classes=2).fit(X, y)
    assert t.n_selected_ == 0 and t.selected_.size == 0
    np.testing.assert_allclose(t.predict_proba(Xt), np.full((10, 2), 0.5), rtol=0, atol=1e-15)


def test_loo_by_hand():
    """Two instances, one attribute, two classes, m = 1: each held-out instance is predicted
    from the other alone. Instance 0 (x=0, y=0) sees the prior (0 + 1/2)/(1 + 1) = 1/4 for its
    class and 3/4 for class 1, and P(x=0 | y=0) = (0 + 1/2)/(0 + 1) = 1/2, P(x=0 | y=1) =
    (0 + 1/2)/(1 + 1) = 1/4: posterior of y=0 ∝ 1/8 vs 3/16 → 2/5. By symmetry the same for
    instance 1, so the loss with the attribute is sqrt((3/5)²) = 0.6, the class-only one 0.75."""
    X = np.array([[0], [1]])
    y = np.array([0, 1])
    clf = SKDB(k_max=1, n_classes=2).fit(X, y)
    np.testing.assert_allclose(clf.loo_losses_, [[0.75, 0.75], [0.6, 0.6]], rtol=0, atol=1e-15)
    assert (clf.n_selected_, clf.k_) == (1, 0)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2", None])
def test_invalid_k_max_raises(bad):
    X, y, _, cards, nc = random_data(0)
    with pytest.raises(ValueError, match="k_max"):
        SKDB(k_max=bad, cardinalities=cards, n_classes=nc).fit(X, y)


def test_invalid_variant_and_missing_skip_raise():
    X, y, _, cards, nc = random_data(0)
    with pytest.raises(ValueError, match="skdb_variant"):
        SKDB(skdb_variant="cpp", cardinalities=cards, n_classes=nc).fit(X, y)
    with pytest.raises(ValueError, match="missing='value'"):
        SKDB(missing="skip", cardinalities=cards, n_classes=nc).fit(X, y)


@pytest.mark.parametrize("space", [50, 1 << 16, 10 ** 9])
def test_occurring_keys_against_a_dictionary(space):
    """Issue 40: `_occurring` (dense below a key space, one sort above it) gives the sorted keys that
    occur, their counts and each row's position among them, as a plain dictionary count does."""
    from collections import Counter

    from bncbench.classifiers.kdb.skdb import _occurring

    rng = np.random.default_rng(space % 97)
    key = rng.integers(0, space, size=3000)
    key[::7] = key[0]  # repeated keys
    ids, keys, counts = _occurring(key, space)
    want = Counter(key.tolist())
    order = sorted(want)
    assert keys.tolist() == order and counts.tolist() == [want[k] for k in order]
    pos = {k: i for i, k in enumerate(order)}
    assert ids.tolist() == [pos[k] for k in key.tolist()]
