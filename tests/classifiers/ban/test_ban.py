"""BAN (docs/algorithms.md §4.7): the MDL/BIC score and hill climbing against the plain-Python
reference, CMI in nats, Laplace predictions, and structure recovery on data drawn from a known
class-augmented network (the TPDA steps: test_tpda.py, test_tpda_x2.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bncbench.classifiers.ban.ban import BAN
from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.ban.hill_climbing import mdl_score
from tests.oracles.ban import ban as ref
from tests.support.data import correlated_codes


def _data(seed, n_rows, n_attr, n_classes, p_missing, parents=2):
    X, y, cards = correlated_codes(np.random.default_rng(seed), n_rows, n_attr, n_classes, p_missing, parents)
    has_missing = np.any(X < 0, axis=0)
    rows = [tuple(int(v) if v >= 0 else int(cards[i]) for i, v in enumerate(r)) for r in X]
    card = [int(c) + int(m) for c, m in zip(cards, has_missing)]  # |X_i| of §1.5 (missing = a value)
    return X, y, cards, rows, [int(c) for c in y], card


def _skeleton(parents):
    return {(min(p, c), max(p, c)) for c, par in enumerate(parents) for p in par}


def _v_structures(parents):
    edges = _skeleton(parents)
    out = set()
    for c, par in enumerate(parents):
        for a in par:
            for b in par:
                if a < b and (a, b) not in edges:
                    out.add((a, c, b))
    return out


# -- method "hc" ---------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1])
def test_mdl_score_equals_direct_computation(seed):
    X, y, cards, rows, ys, card = _data(seed, 120, 5, 3, 0.05)
    b = BAN(method="hc", cardinalities=cards, n_classes=3).fit(X, y)
    assert b.card_.tolist() == card
    assert b.score_ == pytest.approx(ref.mdl_score(rows, ys, b.parents_, card, 3), rel=1e-12, abs=1e-9)
    # an arbitrary DAG, scored by the module's function from the count tables
    Xc = np.array(rows)
    T = EntropyTerms(Xc, np.array(ys), np.asarray(cards) + 1, 3)
    dag = [[], [0], [0, 1], [1], [0, 2, 3]]
    assert mdl_score(T, dag, np.array(card), 3) == pytest.approx(ref.mdl_score(rows, ys, dag, card, 3), rel=1e-12)


@pytest.mark.parametrize("seed,max_parents", [(2, 8), (3, 8), (4, 1), (5, 2)])
def test_hill_climbing_matches_reference(seed, max_parents):
    # 800 rows, 6 attributes: 2–6 moves; adding a → b and b → a always tie in BIC (exactly, in
    # the code), so these cases also check the (parent, child) tie rule
    X, y, cards, rows, ys, card = _data(seed, 800, 6, 2, 0.04)
    b = BAN(method="hc", cardinalities=cards, n_classes=2, ban_max_parents=max_parents).fit(X, y)
    expect = ref.hill_climb(rows, ys, card, 2, max_parents)
    assert b.parents_ == expect and b.info_["moves"] >= 2
    assert all(len(p) <= max_parents for p in b.parents_)


def test_max_parents_zero_is_naive_bayes():
    X, y, cards, _, _, _ = _data(6, 100, 4, 2, 0.0)
    b = BAN(method="hc", cardinalities=cards, n_classes=2, ban_max_parents=0).fit(X, y)
    assert b.parents_ == [[], [], [], []]


def test_hc_ties_prefer_lower_parent_index():
    # X1 is a copy of X0 (same cardinality): adding 0→1 and 1→0 score exactly the same, so the
    # tie rule (parent, child) picks 0 → 1; the reversal then never strictly improves.
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    x0 = np.where(rng.random(300) < 0.7, y, rng.integers(0, 2, 300))
    X = np.column_stack([x0, x0, rng.integers(0, 2, 300)])
    b = BAN(method="hc", cardinalities=[2, 2, 2], n_classes=2).fit(X, y)
    assert b.parents_ == [[], [0], []]


def test_predictions_are_laplace_over_parent_sets():
    X, y, cards, rows, ys, card = _data(8, 140, 5, 3, 0.05)
    Xte, _, _ = correlated_codes(np.random.default_rng(99), 30, 5, 3, 0.05, 2)
    Xte = np.minimum(Xte, np.asarray(cards) - 1)
    b = BAN(method="hc", cardinalities=cards, n_classes=3).fit(X, y)
    test_rows = [tuple(int(v) if v >= 0 else int(cards[i]) for i, v in enumerate(r)) for r in Xte]
    jll = np.array(ref.joint_log_likelihood(rows, ys, b.parents_, card, 3, test_rows))
    expect = np.exp(jll - jll.max(axis=1, keepdims=True))
    expect /= expect.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(b.predict_proba(Xte), expect, rtol=1e-10, atol=1e-12)
    # the same with the tpda structure
    b2 = BAN(method="tpda", cardinalities=cards, n_classes=3).fit(X, y)
    jll = np.array(ref.joint_log_likelihood(rows, ys, b2.parents_, card, 3, test_rows))
    expect = np.exp(jll - jll.max(axis=1, keepdims=True))
    np.testing.assert_allclose(b2.predict_proba(Xte), expect / expect.sum(axis=1, keepdims=True), rtol=1e-10)



@pytest.mark.parametrize("seed", range(40))
def test_class_counts_equal_a_count_per_row_and_class(seed):
    """The prediction's counts N(prefix, y) of every class, found by one run of sorted keys per row,
    equal a plain dictionary lookup and `lookup` of every (row, class) key (absent: 0)."""
    from bncbench.classifiers.ban.ban import _class_counts
    from bncbench.classifiers.kernels.counts import config_counts, lookup

    rng = np.random.default_rng(seed)
    ny, space = int(rng.integers(1, 9)), int(rng.choice([1, 3, 50, 5000, 1 << 40]))
    train = rng.integers(0, space, size=int(rng.integers(0, 300)))
    cls = rng.integers(0, ny, size=train.size)
    keys, counts = config_counts([train, cls], [space, ny]) if train.size else (np.zeros(0, np.int64),) * 2
    prefix = np.concatenate([rng.choice(train, size=int(rng.integers(0, 60))) if train.size else train,
                             rng.integers(0, space, size=int(rng.integers(0, 60)))]).astype(np.int64)
    got = _class_counts(keys, counts, prefix, ny)
    want: dict[tuple[int, int], int] = {}
    for k, c in zip(train.tolist(), cls.tolist()):
        want[k, c] = want.get((k, c), 0) + 1
    assert got.dtype == np.int64 and got.shape == (prefix.size, ny)
    assert got.tolist() == [[want.get((k, c), 0) for c in range(ny)] for k in prefix.tolist()]
    np.testing.assert_array_equal(got, lookup(keys, counts, prefix[:, None] * ny + np.arange(ny)[None, :]))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("method", ["hc", "tpda"])
@pytest.mark.parametrize("estimator", ["laplace", "mestimate", "laplace_joint"])
def test_predictions_of_many_rows_equal_those_of_one_row_at_a_time(seed, method, estimator):
    """Where an attribute has fewer (parents, value) cells than rows to predict, its estimates are
    computed once per cell and read by the rows (else per row and class, from the counts): the
    same log-likelihoods bit for bit as one row at a time, which always takes the second way."""
    X, y, cards, _, _, _ = _data(300 + seed, 400, 6, int(np.random.default_rng(seed).integers(2, 6)), 0.05)
    b = BAN(method=method, estimator=estimator, cardinalities=cards, n_classes=int(y.max()) + 1).fit(X, y)
    Xte, _, _ = correlated_codes(np.random.default_rng(700 + seed), 300, 6, 3, 0.05, 2)
    X_in, lo, hi = b._validate_X(np.minimum(Xte, np.asarray(cards) - 1), reset=False)
    Xc = b._internal(X_in, lo, hi)
    sizes = [int(b.sizes_[i]) * int(np.prod([b.sizes_[p] for p in par])) for i, par in enumerate(b.parents_)]
    assert min(sizes) <= Xc.shape[0] and max(sizes) > 1  # both ways are met
    whole = b._joint_log_likelihood(Xc)
    for r in range(Xc.shape[0]):
        assert b._joint_log_likelihood(Xc[r:r + 1]).tobytes() == whole[r:r + 1].tobytes()

# -- the CI test ---------------------------------------------------------------------------------

def test_cmi_in_nats_equals_direct_computation():
    _, _, cards, rows, ys, _ = _data(9, 200, 5, 3, 0.05)
    T = EntropyTerms(np.array(rows), np.array(ys), np.asarray(cards) + 1, 3)
    for i, j, Z in [(0, 1, ()), (1, 3, (0,)), (0, 4, (1, 2)), (2, 3, (0, 1, 4))]:
        assert T.cmi(i, j, Z) == pytest.approx(ref.cmi_nats(rows, ys, i, j, Z), rel=1e-10, abs=1e-13)


# -- recovery of a known network -----------------------------------------------------------------

def _known_network(n_rows, seed=11):
    """Y → every X; X0 → X2 ← X1 (a v-structure), X2 → X3 → X4; strong dependencies."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n_rows)

    def noisy(value, card, keep):
        return np.where(rng.random(n_rows) < keep, value, rng.integers(0, card, n_rows))

    x0 = noisy(y, 2, 0.6)
    x1 = noisy(1 - y, 2, 0.6)
    x2 = noisy(x0 + x1, 3, 0.9)
    x3 = noisy((x2 + y) % 3, 3, 0.85)
    x4 = noisy(x3, 3, 0.85)
    return np.column_stack([x0, x1, x2, x3, x4]), y


def test_both_methods_recover_a_known_network():
    """Criterion: the learnt attribute skeleton equals the true one exactly (both methods); for
    tpda also the set of v-structures (a → c ← b, a and b not adjacent) equals the true set
    {0 → 2 ← 1} and every arc points as in the true network (the others follow by Meek's rule 1)."""
    X, y = _known_network(20000)
    true = [[], [], [0, 1], [2], [3]]
    for method in ("hc", "tpda"):
        b = BAN(method=method, cardinalities=[2, 2, 3, 3, 3], n_classes=2).fit(X, y)
        assert _skeleton(b.parents_) == _skeleton(true), method
    b = BAN(method="tpda", cardinalities=[2, 2, 3, 3, 3], n_classes=2).fit(X, y)
    assert _v_structures(b.parents_) == _v_structures(true) == {(0, 2, 1)}
    assert b.parents_ == true


# -- parameters ----------------------------------------------------------------------------------

def test_parent_cap_in_tpda_keeps_strongest():
    X, y = _known_network(5000)
    b = BAN(method="tpda", cardinalities=[2, 2, 3, 3, 3], n_classes=2, ban_max_parents=1).fit(X, y)
    assert all(len(p) <= 1 for p in b.parents_)
    rows, ys = [tuple(int(v) for v in r) for r in X], [int(c) for c in y]
    kept = b.parents_[2][0]
    assert ref.cmi_nats(rows, ys, kept, 2, ()) >= ref.cmi_nats(rows, ys, 1 - kept, 2, ())
    assert b.info_["parent_cap_cuts"] == [(2, [1 - kept])]


@pytest.mark.parametrize("kw", [{"method": "bic"}, {"missing": "skip"}, {"ban_max_parents": -1}, {"ban_alpha": 1.5},
                                {"ban_test": "epsilon"}])
def test_invalid_parameters(kw):
    X, y = _known_network(50)
    with pytest.raises(ValueError, match=next(iter(kw))):
        BAN(**kw).fit(X, y)
    assert math.isfinite(BAN().fit(X, y).predict_proba(X).sum())
