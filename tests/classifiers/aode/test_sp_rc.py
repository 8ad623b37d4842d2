"""Paper 003's SP, RC and SP+RC (docs/algorithms.md §4.8.1–§4.8.3) against the plain-Python references
of tests/oracles/aode/sp_rc.py (brute-force spanning trees, FDs by scanning the training rows, cover
and eliminations by attribute closure on sets) and against examples worked by hand."""

import pickle

import numpy as np
import pytest

from bncbench.classifiers.aode import fds as fds_module
from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.fds import instance_fds
from bncbench.classifiers.aode.rc import RC, SPRC
from bncbench.classifiers.aode.sp import SP, kruskal_tree, select_superparents
from bncbench.models.fitting import fitted_state
from tests.oracles.aode.sp_rc import (
    brute_force_tree,
    ref_rc,
    ref_sp,
    sp_parents_from_weights,
)
from tests.oracles.aode.sp_rc import canonical_cover as ref_cover
from tests.oracles.aode.sp_rc import eliminate as ref_eliminate
from tests.oracles.aode.sp_rc import instance_fds as ref_fds
from tests.oracles.reference import Ref, _code
from tests.support.data import random_data


def fd_data(seed, n_train=80, n_test=30, n_classes=3, p_missing=0.05, noise=0.04):
    """Data with planted dependencies that hold for some values only: x2 = x0 // 2 (many-one),
    x3 = (x0 + x1) mod 3 (a two-attribute LHS), x4 = x1 (a one-one loop), x5 nearly constant;
    then random cells replaced by noise and by missing values (−1)."""
    rng = np.random.default_rng(seed)
    N = n_train + n_test
    y = rng.integers(0, n_classes, N)
    x0 = (y + rng.integers(0, 2, N)) % 4
    x1 = rng.integers(0, 3, N)
    X = np.column_stack([x0, x1, x0 // 2, (x0 + x1) % 3, x1, np.where(rng.random(N) < 0.85, 0, 1)])
    cards = np.array([4, 3, 2, 3, 3, 2])
    hit = rng.random(X.shape) < noise
    X[hit] = rng.integers(0, 10, X.shape)[hit] % cards[np.nonzero(hit)[1]]
    X[rng.random(X.shape) < p_missing] = -1
    return X[:n_train], y[:n_train], X[n_train:], cards, n_classes


# -- SP ------------------------------------------------------------------------------------------
def test_sp_worked_example():
    """§4.8.1 / §8.5, the paper's Figure 2: branch nodes ②, ③, ⑥; leaves ①, ④, ⑤ with CMIs 7, 6, 2
    → 85 % of 15 = 12.75 < 7 + 6: ① and ④ join, ⑤ does not (0-based: P = {0, 1, 2, 3, 5})."""
    w = np.ones((6, 6))
    for (i, j), v in {(0, 1): 7, (2, 3): 6, (4, 5): 2, (1, 2): 10, (2, 5): 9}.items():
        w[i, j] = w[j, i] = v
    np.fill_diagonal(w, 0)
    assert sorted(kruskal_tree(w)) == [(0, 1), (1, 2), (2, 3), (2, 5), (4, 5)]
    assert select_superparents(w).tolist() == [0, 1, 2, 3, 5]
    # "greater than 85 %" is strict: leaves 17 and 3 (17 = 0.85 · 20 exactly) → both; 18 and 2 → one
    w3 = np.array([[0, 17, 0], [17, 0, 3], [0, 3, 0]], dtype=float)
    assert select_superparents(w3).tolist() == [0, 1, 2]
    w3[0, 1] = w3[1, 0] = 18
    w3[1, 2] = w3[2, 1] = 2
    assert select_superparents(w3).tolist() == [0, 1]


def test_sp_edge_cases():
    """n = 1 → P = {X_1}; n = 2 → both leaves selected; total leaf CMI 0 → every leaf."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 40)
    X1 = ((y + rng.integers(0, 2, 40)) % 3)[:, None]
    sp = SP(cardinalities=[3], n_classes=2).fit(X1, y)
    assert sp.parents_.tolist() == [0] and sp.info_["elimination"] == 0.0
    np.testing.assert_allclose(sp.predict_proba(X1), AODE(cardinalities=[3], n_classes=2).fit(X1, y).predict_proba(X1),
                               rtol=0, atol=1e-12)
    X2 = np.column_stack([X1[:, 0], (y + rng.integers(0, 3, 40)) % 2])
    assert SP(cardinalities=[3, 2], n_classes=2).fit(X2, y).parents_.tolist() == [0, 1]
    assert select_superparents(np.zeros((2, 2))).tolist() == [0, 1]
    assert select_superparents(np.zeros((5, 5))).tolist() == [0, 1, 2, 3, 4]  # star at 0, all leaves 0
    # leaves of zero CMI beside a leaf of positive CMI: the zero ones are left out
    w = np.zeros((4, 4))
    w[0, 1] = w[1, 0] = 2.0
    assert sorted(kruskal_tree(w)) == [(0, 1), (0, 2), (0, 3)]
    assert select_superparents(w).tolist() == [0, 1]
    # constant attributes (I = 0 with everything) in data: they become zero-CMI leaves and go
    Xc = np.column_stack([X2, np.zeros(40, dtype=int), np.zeros(40, dtype=int)])
    sp = SP(cardinalities=[3, 2, 1, 1], n_classes=2).fit(Xc, y)
    assert sp.parents_.tolist() == [0, 1] and sp.info_["elimination"] == 0.5


@pytest.mark.parametrize("seed", range(8))
def test_kruskal_brute_force_with_ties(seed):
    """Random integer weights (many ties) on 3–7 nodes: Kruskal's tree and P agree with the brute
    force over all spanning trees."""
    rng = np.random.default_rng(seed)
    n = 3 + seed % 5
    w = rng.integers(0, 3, (n, n)).astype(float)
    w = np.triu(w, 1) + np.triu(w, 1).T
    assert sorted(kruskal_tree(w)) == brute_force_tree(w.tolist())
    assert select_superparents(w).tolist() == sp_parents_from_weights(w.tolist())


@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("est", ["laplace_joint", "mestimate"])
@pytest.mark.parametrize("seed", range(3))
def test_sp_matches_reference(seed, est, missing):
    """CMI, P (via the brute-force tree; constant columns give exact zero-CMI ties) and posteriors."""
    X, y, Xt, cards, nc = random_data(seed, n_attr=5)
    X = np.column_stack([X, np.zeros(len(y), dtype=int)])
    Xt = np.column_stack([Xt, np.zeros(len(Xt), dtype=int)])
    cards = np.append(cards, 1)
    clf = SP(estimator=est, missing=missing, cardinalities=cards, n_classes=nc).fit(X, y)
    want, P, w = ref_sp(X, y, Xt, nc, cards, estimator=est, missing=missing)
    np.testing.assert_allclose(clf.cmi_, np.array(w), rtol=0, atol=1e-12)
    assert clf.parents_.tolist() == P
    assert clf.info_["elimination"] == (6 - len(P)) / 6
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


def test_sp_drops_parents_and_float32():
    """On data where SP eliminates superparents, the posterior still matches; float32 runs."""
    X, y, Xt, cards, nc = fd_data(9)
    clf = SP(estimator="laplace_joint", cardinalities=cards, n_classes=nc).fit(X, y)
    want, P, _ = ref_sp(X, y, Xt, nc, cards, estimator="laplace_joint")
    assert clf.parents_.tolist() == P and len(P) < 6
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)
    f32 = SP(info_precision="float32", cardinalities=cards, n_classes=nc).fit(X, y)
    assert np.isfinite(f32.predict_proba(Xt)).all()
    with pytest.raises(ValueError, match="info_precision"):
        SP(info_precision="half").fit(X, y)


# -- RC and SP+RC ------------------------------------------------------------------------------------
CASES = [(seed, missing, cover, rap) for seed in range(3) for missing in ("value", "skip")
         for cover in (True, False) for rap in (False, True)]


@pytest.mark.parametrize("cls", [RC, SPRC])
@pytest.mark.parametrize("seed,missing,cover,rap", CASES)
def test_rc_matches_reference(cls, seed, missing, cover, rap):
    """Eliminated sets identical, posteriors to 1e-12 (l_FD = 3 so that FDs fire)."""
    X, y, Xt, cards, nc = fd_data(seed)
    sp = cls is SPRC
    clf = cls(estimator="laplace_joint", missing=missing, cardinalities=cards, n_classes=nc, rc_min_support=3,
              rc_canonical_cover=cover, rc_remove_as_parent=rap).fit(X, y)
    want, gone, P = ref_rc(X, y, Xt, nc, cards, 3, cover, rap, sp=sp, estimator="laplace_joint", missing=missing)
    E = clf.eliminated(Xt)
    assert [np.flatnonzero(e).tolist() for e in E] == gone
    assert sum(map(len, gone)) >= 10  # the dependencies fire
    assert clf.parents_.tolist() == P
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)
    assert clf.prediction_info(Xt) == {"elimination": pytest.approx(sum(map(len, gone)) / (6 * len(gone)), abs=1e-15)}


def test_rc_mestimate_and_large_support():
    """Another estimator; and with l_FD above N nothing is removed: RC = AODE, SP+RC = SP."""
    X, y, Xt, cards, nc = fd_data(7, p_missing=0.1)
    clf = RC(m=2.0, missing="skip", cardinalities=cards, n_classes=nc, rc_min_support=4).fit(X, y)
    want, gone, _ = ref_rc(X, y, Xt, nc, cards, 4, m=2.0, missing="skip")
    assert [np.flatnonzero(e).tolist() for e in clf.eliminated(Xt)] == gone
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)
    big = dict(cardinalities=cards, n_classes=nc, rc_min_support=1000)
    np.testing.assert_allclose(RC(**big).fit(X, y).predict_proba(Xt),
                               AODE(cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt), rtol=0, atol=1e-12)
    np.testing.assert_allclose(SPRC(**big).fit(X, y).predict_proba(Xt),
                               SP(cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt), rtol=0, atol=1e-12)
    assert RC(**big).fit(X, y).prediction_info(Xt) == {"elimination": 0.0}


def test_sprc_restricts_lhs_to_sp_parents():
    """The LHS of every FD SP+RC uses lies in P, while RC on the same data uses others as well."""
    X, y, Xt, cards, nc = fd_data(9)
    sprc = SPRC(cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    rc = RC(cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    Xc = np.where(Xt < 0, cards, Xt)
    lhs_sp = set(instance_fds(sprc.fd_tables_, Xc).a.tolist()) | set(instance_fds(sprc.fd_tables_, Xc).b.tolist())
    lhs_rc = set(instance_fds(rc.fd_tables_, Xc).a.tolist()) | set(instance_fds(rc.fd_tables_, Xc).b.tolist())
    assert lhs_sp <= set(sprc.parents_.tolist()) and not lhs_rc <= set(sprc.parents_.tolist())


def test_chunks_agree(monkeypatch):
    """Test rows processed in chunks of 7 give the same eliminations as one block."""
    X, y, Xt, cards, nc = fd_data(1, n_test=60)
    clf = RC(cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    whole = clf.eliminated(Xt)
    monkeypatch.setattr(fds_module, "_CHUNK_BYTES", 8 * 36 * 7)
    clf.fit(X, y)  # a new fit computes the rows' eliminations afresh
    np.testing.assert_array_equal(clf.eliminated(Xt), whole)


@pytest.mark.parametrize("n", [5, 64, 70])
def test_eliminate_random_fds(n):
    """Deletions of random FD sets (chains, loops, two-attribute LHS; up to 70 attributes: two
    64-bit words of targets) against the closure of sets, row by row."""
    rng = np.random.default_rng(n)
    rows, R = 40, 40 * n
    row, a, t = rng.integers(0, rows, R), rng.integers(0, n, R), rng.integers(0, n, R)
    b = np.where(rng.random(R) < 0.3, rng.integers(0, n, R), a)
    ok = (t != a) & (t != b)
    row, a, b, t = row[ok], np.minimum(a[ok], b[ok]), np.maximum(a[ok], b[ok]), t[ok]
    one = a == b
    single = np.zeros((rows, n, n), dtype=bool)
    single[row[one], a[one], t[one]] = True
    got = fds_module.eliminate(single, (row[~one], a[~one], b[~one], t[~one]), rows, n)
    for r in range(rows):
        mine = row == r
        fds = [((int(x),) if x == z else (int(x), int(z)), int(w)) for x, z, w in zip(a[mine], b[mine], t[mine])]
        assert np.flatnonzero(got[r]).tolist() == ref_eliminate(fds, n), r
    assert 0 < got.sum() < got.size


def test_rows_memo_is_exact():
    """The eliminations kept for the last rows serve only the same rows, and a new fit forgets them."""
    X, y, Xt, cards, nc = fd_data(4, n_test=40)
    clf = RC(cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    fresh = RC(cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    clf.predict_proba(Xt)
    np.testing.assert_array_equal(clf.eliminated(Xt[5:20]), fresh.eliminated(Xt[5:20]))
    swapped = Xt[::-1].copy()
    np.testing.assert_array_equal(clf.eliminated(swapped), fresh.eliminated(Xt)[::-1])
    E = clf.eliminated(Xt)
    E[:] = True  # the caller's copy
    np.testing.assert_array_equal(clf.eliminated(Xt), fresh.eliminated(Xt))
    X2, y2, _, _, _ = fd_data(5)
    clf.fit(X2, y2)
    np.testing.assert_array_equal(clf.eliminated(Xt), RC(cardinalities=cards, n_classes=nc, rc_min_support=3)
                                  .fit(X2, y2).eliminated(Xt))


@pytest.mark.parametrize("cls", [RC, SPRC])
def test_rows_kept_outside_the_model_state(cls):
    """What prediction keeps of the test rows is no part of the state a model file saves, and a model
    restored from that state (as `bncbench predict` restores one) predicts as the original."""
    X, y, Xt, cards, nc = fd_data(4, n_test=40)
    clf = cls(cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    saved = pickle.dumps(fitted_state(clf))
    proba = clf.predict_proba(Xt)
    clf.prediction_info(Xt)
    assert pickle.dumps(fitted_state(clf)) == saved
    restored = cls(cardinalities=cards, n_classes=nc, rc_min_support=3)
    for k, v in pickle.loads(saved).items():
        setattr(restored, k, v)
    np.testing.assert_array_equal(restored.predict_proba(Xt), proba)
    np.testing.assert_array_equal(restored.eliminated(Xt), clf.eliminated(Xt))


def _fd_sets(clf, X, cover):
    """Per row of X, the FDs of `clf.dependencies` as sorted (LHS tuple, target) pairs."""
    clf.set_params(rc_canonical_cover=cover)
    fd = clf.dependencies(np.asarray(X))
    out: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(len(X))]
    for r, a, b, t in zip(fd.row, fd.a, fd.b, fd.t):
        out[r].append((tuple(sorted({int(a), int(b)})), int(t)))
    return [sorted(f) for f in out]


def _fd_set(clf, x, cover):
    return _fd_sets(clf, [x], cover)[0]


@pytest.mark.parametrize("cls", [RC, SPRC])
@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("seed", range(3))
def test_dependencies_match_reference(seed, missing, cls):
    """The FDs of every test row — left-reduced, and after the canonical cover — equal the
    reference's (FDs by scanning training rows, cover by attribute closure on sets)."""
    X, y, Xt, cards, nc = fd_data(seed)
    clf = cls(missing=missing, cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    R = Ref(X, y, nc, cards, "mestimate", 1.0, missing)
    lhs = clf.parents_.tolist()
    rows = [[_code(i, v, R.K) for i, v in enumerate(r)] for r in Xt]
    full = [sorted(ref_fds(R, r, 3, lhs)) for r in rows]
    assert _fd_sets(clf, Xt, cover=False) == full
    assert _fd_sets(clf, Xt, cover=True) == [sorted(ref_cover(ref_fds(R, r, 3, lhs))) for r in rows]
    assert sum(len(f) for f in full if any(len(S) == 2 for S, _ in f)) > 0  # pair LHSs occur


def test_spec_example_transitive():
    """§4.8.2's example {x1→x2, x2→x3, x1→x3}, by hand: x1 ∈ 0..5, x2 = x1 // 2, x3 = [x2 ≥ 1];
    for x = (4, 2, 1) exactly those FDs hold (x2 = 2 has x1 ∈ {4, 5}; x3 = 1 has x2 ∈ {1, 2}; the
    pair {x2, x3} determines nothing new). The cover keeps x1→x2, x2→x3; the closure rule deletes
    x2 (x1 determines it) and then x3 (closure of {x1} reaches x3 through the deleted x2)."""
    x1 = np.repeat(np.arange(6), 4)
    X = np.column_stack([x1, x1 // 2, (x1 // 2 >= 1).astype(int)])
    y = np.arange(24) % 2
    clf = RC(estimator="laplace_joint", cardinalities=[6, 3, 2], n_classes=2, rc_min_support=2).fit(X, y)
    x = [4, 2, 1]
    assert _fd_set(clf, x, cover=False) == [((0,), 1), ((0,), 2), ((1,), 2)]
    assert _fd_set(clf, x, cover=True) == [((0,), 1), ((1,), 2)]
    for cover in (True, False):
        clf.set_params(rc_canonical_cover=cover)
        assert np.flatnonzero(clf.eliminated(np.array([x]))[0]).tolist() == [1, 2]
    # x = (0, 0, 0): x3 = 0 ↔ x2 = 0 is one-one and x1 = 0 does not follow from x2 = 0
    assert _fd_set(clf, [0, 0, 0], cover=False) == [((0,), 1), ((0,), 2), ((1,), 2), ((2,), 1)]
    assert np.flatnonzero(clf.eliminated(np.array([[0, 0, 0]]))[0]).tolist() == [1, 2]
    want, gone, _ = ref_rc(X, y, np.array([x, [0, 0, 0]]), 2, [6, 3, 2], 2, estimator="laplace_joint")
    assert gone == [[1, 2], [1, 2]]
    np.testing.assert_allclose(clf.predict_proba(np.array([x, [0, 0, 0]])), np.array(want), rtol=0, atol=1e-12)


def test_one_one_loop_and_pairs_by_hand():
    """x1 ↔ x2 (a copy), x3 random, x4 = (x1 + x3) mod 2; for a row with x1 ∈ {0, 2} the FDs are
    x2→x1, x1→x2, {x1,x3}→x4, {x2,x3}→x4, {x1,x4}→x3, {x2,x4}→x3 ({x3,x4} leaves x1 ∈ {0, 2}).
    Cover (in the order target, |S|, LHS): {x1,x4}→x3 goes (closure of {x1,x4} reaches x2, then
    x3 by {x2,x4}→x3), likewise {x1,x3}→x4. Deletions: x1 (x2 determines it), x2 stays (x1 is
    gone), x3 (from {x2,x4}); x4 stays (closure of {x2} is {x1,x2})."""
    rng = np.random.default_rng(3)
    x1 = np.tile(np.arange(3), 30)
    x3 = rng.integers(0, 2, 90)
    X = np.column_stack([x1, x1, x3, (x1 + x3) % 2])
    y = rng.integers(0, 2, 90)
    clf = RC(cardinalities=[3, 3, 2, 2], n_classes=2, rc_min_support=5).fit(X, y)
    rows = X[x1 != 1][:8]
    assert [np.flatnonzero(e).tolist() for e in clf.eliminated(rows)] == [[0, 2]] * 8
    x = rows[0].tolist()
    assert _fd_set(clf, x, cover=False) == [((0,), 1), ((0, 2), 3), ((0, 3), 2), ((1,), 0), ((1, 2), 3),
                                            ((1, 3), 2)]
    assert _fd_set(clf, x, cover=True) == [((0,), 1), ((1,), 0), ((1, 2), 3), ((1, 3), 2)]
    _, gone, _ = ref_rc(X, y, rows, 2, [3, 3, 2, 2], 5)
    assert gone == [[0, 2]] * 8


def test_parameters_and_sklearn_rules():
    X, y, Xt, cards, nc = fd_data(2)
    with pytest.raises(ValueError, match="rc_min_support"):
        RC(rc_min_support=0).fit(X, y)
    clf = SPRC(cardinalities=cards, n_classes=nc, rc_min_support=3).fit(X, y)
    before = {k: v for k, v in vars(clf).items()}
    clf.predict_proba(Xt)
    clf.prediction_info(Xt)
    assert vars(clf).keys() == before.keys() and all(vars(clf)[k] is before[k] for k in before)
    assert set(clf.get_params()) >= {"rc_min_support", "rc_canonical_cover", "rc_remove_as_parent",
                                     "info_precision", "min_freq"}
    assert "parent_elimination" in clf.info_


def test_missing_values_by_hand():
    """X_2 is missing exactly when x1 = 0. With missing="value" the missing value is a value:
    x1 = 0 → x2 = missing and x2 = missing → x1 = 0, so of the loop only x1 goes (x2 then stays).
    With missing="skip" a missing value takes part in no FD: nothing goes."""
    x1 = np.tile(np.arange(2), 20)
    x2 = np.where(x1 == 0, -1, np.arange(40) % 3)
    X = np.column_stack([x1, x2])
    y = np.arange(40) % 2
    row = np.array([[0, -1]])
    for missing, want in (("value", [[0]]), ("skip", [[]])):
        clf = RC(missing=missing, cardinalities=[2, 3], n_classes=2, rc_min_support=5).fit(X, y)
        assert [np.flatnonzero(e).tolist() for e in clf.eliminated(row)] == want
        probs, gone, _ = ref_rc(X, y, row, 2, [2, 3], 5, missing=missing)
        assert gone == want
        np.testing.assert_allclose(clf.predict_proba(row), np.array(probs), rtol=0, atol=1e-12)


def _per_pair_parts(Xc, pc, lhs, min_support, skip, single_det, Xt):
    """The two-attribute FDs of each test row as the code before the flat tables computed them: per
    LHS pair, N(x_a, x_b, x_j) counted over the training rows, compared with N(x_a, x_b), then per
    pair the rows whose value pair has support, left-reduced by the single FDs. A set of (row, a, b, t)."""
    n = Xc.shape[1]
    sizes, offsets = pc.sizes.astype(np.int64), pc.offsets.astype(np.int64)
    V = int(sizes.sum())
    attr_of_slot = np.repeat(np.arange(n), sizes)
    missing_slot = np.zeros(V, dtype=bool)
    missing_slot[offsets + sizes - 1] = True
    pair_n = pc.pairs.sum(axis=2)
    G = Xc + offsets[None, :]
    single = single_det[Xt + offsets[None, :]] == Xt[:, None, :]
    out = set()
    for a in np.flatnonzero(lhs).tolist():
        for b in np.flatnonzero(lhs).tolist():
            if b <= a:
                continue
            sa, sb = int(sizes[a]), int(sizes[b])
            n_ab = pair_n[offsets[a]:offsets[a] + sa, offsets[b]:offsets[b] + sb].reshape(-1)
            ok = n_ab >= min_support
            if skip:
                ok = (ok.reshape(sa, sb) & (np.arange(sa) < sa - 1)[:, None]
                      & (np.arange(sb) < sb - 1)[None, :]).ravel()
            key = Xc[:, a] * sb + Xc[:, b]
            slab = np.bincount((key[:, None] * V + G).ravel(), minlength=sa * sb * V).reshape(sa * sb, V)
            hit = (slab == n_ab[:, None]) & ok[:, None]
            hit[:, (attr_of_slot == a) | (attr_of_slot == b)] = False
            if skip:
                hit[:, missing_slot] = False
            det = np.full((sa * sb, n), -1)
            k, v = np.nonzero(hit)
            det[k, attr_of_slot[v]] = v - offsets[attr_of_slot[v]]
            tkey = Xt[:, a] * sb + Xt[:, b]
            sel = np.flatnonzero(ok[tkey])
            hold = (det[tkey[sel]] == Xt[sel]) & ~(single[sel, a] | single[sel, b])
            out |= {(int(sel[r]), a, b, int(t)) for r, t in zip(*np.nonzero(hold))}
    return out


@pytest.mark.parametrize("cells", [1 << 21, 8])
@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("seed", range(12))
def test_pair_fds_as_counted_per_pair(seed, missing, cells, monkeypatch):
    """The two-attribute FDs of the flat tables (bit sets of training rows, sparse entries per key)
    are those the per-pair counting found, on data with planted and random dependencies, several
    l_FD, RC's and SP+RC's LHS attributes, and work arrays cut into pieces of 8 cells."""
    monkeypatch.setattr(fds_module, "_PAIR_CELLS", cells)
    rng = np.random.default_rng(seed)
    if seed % 2:
        X, y, Xt, cards, nc = fd_data(seed, n_train=70 + 30 * seed, noise=0.02 * (seed % 3))
    else:
        X, y, Xt, cards, nc = random_data(seed, n_train=150, n_test=40, n_attr=6 + seed // 2, p_missing=0.05)
        known = (X[:, 0] >= 0) & (X[:, 3] >= 0)  # x1 = x0 mod 2, x2 = (x0 + x3) mod K_2 where known
        X[:, 1] = np.where(X[:, 0] >= 0, X[:, 0] % 2, -1)
        X[:, 2] = np.where(known, (X[:, 0] + X[:, 3]) % cards[2], -1)
        X[:, -1] = np.where(X[:, 0] == 0, -1, X[:, -1])  # x0 = 0 → x_last missing (no FD under skip)
        Xt[:, -1] = np.where(Xt[:, 0] == 0, -1, Xt[:, -1])
    found = 0
    for cls in (RC, SPRC):
        for support in (1, 2, 5, int(rng.integers(3, 30))):
            clf = cls(cardinalities=cards, n_classes=nc, missing=missing, rc_min_support=support).fit(X, y)
            Xc, Xtc = np.where(X < 0, cards, X), np.where(Xt < 0, cards, Xt)
            _, (r, a, b, t) = fds_module._instance_parts(clf.fd_tables_, Xtc)
            got = set(zip(r.tolist(), a.tolist(), b.tolist(), t.tolist()))
            assert len(got) == r.size
            want = _per_pair_parts(Xc, clf.counts_, clf.parent_mask_, support, missing == "skip",
                                   clf.fd_tables_.single, Xtc)
            assert got == want, (cls.__name__, support)
            found += len(want)
    assert found > 0
