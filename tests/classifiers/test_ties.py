"""The tie rule for information values (docs/algorithms.md §0.3, bncbench/classifiers/kernels/ties.py)
in every learner that breaks ties, under float64: data with relabelled copies of attributes — a
copy of attribute a placed FIRST (so the copy has the smaller index) and one of attribute b placed
LAST — have equal MI, CMI, SU and conditional entropies in exact arithmetic, while their float64
sums differ in the last bits. Each learner must choose as the plain-Python reference (which
applies the same rule) and as the spec's smallest-index rule says.

Before the rule, TAN's parents differed from the reference on several of these seeds (the
float64 sums of the original and its copy differ by one ulp)."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import AIT, BAN, FKDB, KBAN, KDB, SKDB, SP, STAN, TAN
from bncbench.classifiers.kernels.counts import pair_counts
from bncbench.classifiers.kernels.infotheory import cond_mutual_info, mutual_info_class
from bncbench.classifiers.kernels.ties import tie_key
from bncbench.classifiers.tan.rankings import RANKINGS, rank
from tests.oracles import ban as ref_ban
from tests.oracles.ait import ref_ait
from tests.oracles.basic import Ref, ref_kdb, ref_tan
from tests.oracles.cfwnb_fkdb import Data, ref_fkdb_structure
from tests.oracles.kban import ref_kban
from tests.oracles.skdb import ref_structure
from tests.oracles.sp_rc import ref_cmi_matrix, sp_parents_from_weights
from tests.support.data import random_data

SEEDS = range(12)


def tied_data(seed: int, n_train: int = 60, n_test: int = 15, n_attr: int = 5, n_classes: int = 3,
              p_missing: float = 0.05):
    """(X, y, Xt, cards, n_classes, (a, b)): `random_data` with a relabelled copy of attribute a as
    column 0 and one of attribute b as the last column (original indices shifted by one)."""
    X, y, Xt, cards, nc = random_data(seed, n_train, n_test, n_attr, n_classes, p_missing)
    rng = np.random.default_rng(7919 + seed)
    a, b = (int(v) for v in rng.choice(n_attr, 2, replace=False))
    both = np.vstack([X, Xt])

    def relabel(i):
        perm = rng.permutation(int(cards[i]))
        return np.where(both[:, i] < 0, -1, perm[np.maximum(both[:, i], 0)])

    both = np.column_stack([relabel(a), both, relabel(b)])
    cards = np.concatenate([[cards[a]], cards, [cards[b]]])
    return both[:n_train], y, both[n_train:], cards, nc, (a + 1, b + 1)


def test_the_copies_tie_in_exact_arithmetic_and_the_rule_makes_them_equal():
    """The premise, not vacuous: on these data the raw float64 sums of an attribute and its copy
    differ for some seed (so `>` alone would be decided by rounding), and after the rule they are
    equal for every seed."""
    raw_differs = 0
    for seed in SEEDS:
        X, y, _, cards, nc, (a, b) = tied_data(seed)
        n = X.shape[1]
        pc = pair_counts(np.where(X < 0, cards, X), y, cards + 1, nc)
        mi, cmi = mutual_info_class(pc), cond_mutual_info(pc)
        assert mi[0] == mi[a] and mi[n - 1] == mi[b]
        others = [j for j in range(n) if j not in (0, a)]
        assert cmi[0, others].tolist() == cmi[a, others].tolist()
        raw = np.array([t for t in _raw_cmi_row_sums(pc, 0, a, others)])
        raw_differs += int((raw[0] != raw[1]).any())
    assert raw_differs > 0, "no seed produced a rounding difference: the test data exercise nothing"


def _raw_cmi_row_sums(pc, i, j, others):
    """The float64 CMI sums of attributes i and j with `others`, without the tie rule."""
    import bncbench.classifiers.kernels.infotheory as it

    saved = it.tie_key
    it.tie_key = lambda v: np.asarray(v, dtype=np.float64)
    try:
        cmi = it.cond_mutual_info(pc)
    finally:
        it.tie_key = saved
    return cmi[i, others], cmi[j, others]


@pytest.mark.parametrize("seed", SEEDS)
def test_tan(seed):
    X, y, Xt, cards, nc, _ = tied_data(seed)
    clf = TAN(estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    want, parents = ref_tan(X, y, Xt, nc, cards, "laplace", 1.0, "value")
    assert clf.parents_.tolist() == parents
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


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


@pytest.mark.parametrize("seed", SEEDS)
def test_sp_superparents(seed):
    X, y, _, cards, nc, _ = tied_data(seed)
    clf = SP(cardinalities=cards, n_classes=nc).fit(X, y)
    R = Ref(X, y, nc, cards, "laplace", 1.0, "value")
    assert clf.parents_.tolist() == sp_parents_from_weights(ref_cmi_matrix(R))


@pytest.mark.parametrize("base", ["TAN", "KDB"])
@pytest.mark.parametrize("seed", SEEDS)
def test_ait(seed, base):
    X, y, Xt, cards, nc, _ = tied_data(seed, n_test=8)
    clf = AIT(base=base, k=2, cardinalities=cards, n_classes=nc).fit(X, y)
    want, gpar, _, local = ref_ait(X, y, Xt, nc, cards, base=base, k=2)
    assert clf.parents_ == gpar
    st = clf.local_structures(Xt)
    for b, ref in enumerate(local):
        assert [[[int(p) for p in ps if p >= 0] for ps in net] for net in st["parents"][b]] == ref["parents"]
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


def test_tie_key_rule():
    """The rule itself: 10 significant digits, |v| < 1e-12 as 0, monotone, infinities kept."""
    assert tie_key(0.6720340938813815) == tie_key(0.6720340938813816) == 0.6720340939
    assert tie_key(3e-17) == tie_key(-2e-17) == 0.0
    assert tie_key(0.1234567891) != tie_key(0.1234567892)
    assert tie_key(np.array([np.inf, -np.inf])).tolist() == [np.inf, -np.inf]
    v = np.sort(np.random.default_rng(0).normal(size=1000))
    assert (np.diff(tie_key(v)) >= 0).all()


def test_derived_scores_compare_through_the_rule():
    """Scores computed from information values tie when equal in exact arithmetic, even if their
    floats differ: 0.3 − 0.1 = 0.19999999999999998 and 0.5 − 0.3 = 0.2 are both 0.2. A forward
    ranking (float64) and k-BAN's improved-MRMR candidates then take the smaller index; float32
    mode compares the C++ system's values as they are."""
    import bncbench.classifiers.tan.rankings as rankings

    score = {1: 0.3 - 0.1, 2: 0.5 - 0.3}
    assert score[1] < score[2]  # the premise: the floats differ
    first = np.array([1.0, 0.0, 0.0])
    assert rankings._forward(first, lambda a, sel: score[a], "float64") == [0, 1, 2]
    assert rankings._forward(first, lambda a, sel: score[a], "float32") == [0, 2, 1]

    clf = KBAN(k=2)
    clf.cmi_ = np.array([[0.0, 0.3, 0.5, 0.0],
                         [0.3, 0.0, 0.0, 0.1],
                         [0.5, 0.0, 0.0, 0.3],
                         [0.0, 0.1, 0.3, 0.0]])
    assert clf._candidates(0, (3,)) == [1]  # 0.3 − 0.1 ties 0.5 − 0.3: the smaller index
