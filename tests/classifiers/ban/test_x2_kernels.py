"""BAN's compiled X² kernels (ban/x2_kernels.py, through X2Test) against the numpy X² test they
replaced (tests/oracles/ban/x2_numpy.py; docs/algorithms.md §4.7, "The compiled kernel"): every
test's decision, ranking key, n_inf and informative flag identical, X² and df within 1e-12
relative (the reference sums by numpy's pairwise `reduceat`, the kernel in one fixed order), on
random data and on whole BAN(method="tpda") fits (random and bundled data sets, whose `parents_`
and `info_` must be identical); and the fixed summing order itself: a test's statistic is the same
bits in any batch, over the rows or a frame, and after permuting the training rows."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import bncbench.classifiers.ban.ban as ban_module
import bncbench.classifiers.ban.x2_independence as x2_module
from bncbench.classifiers.ban.ban import BAN
from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.ban.x2_independence import X2Outcome, X2Test
from tests.oracles.ban.x2_numpy import NumpyX2Test
from tests.support.data import correlated_codes

Test = tuple[int, int, tuple[int, ...]]


def random_data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(X, y, sizes, n_classes): n from 1 to 400 rows, 3–7 attributes of 2–12 values (some never
    used), 1–4 classes (some without rows), pairs of dependent attributes, often duplicate rows."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, 4, 6, 10, 25, 60, 150, 400]))
    d = int(rng.integers(3, 8))
    n_classes = int(rng.integers(1, 5))
    sizes = rng.integers(2, 13, size=d)
    used = np.maximum(sizes - rng.integers(0, 3, size=d), 1)  # the values met: some sizes unused
    y = rng.integers(0, n_classes, size=n)
    if n_classes > 1 and rng.random() < 0.4:
        y[y == rng.integers(0, n_classes)] = 0 if rng.random() < 0.5 else n_classes - 1  # a class without rows
    X = rng.integers(0, used, size=(n, d))
    for a, b in rng.integers(0, d, size=(int(rng.integers(0, 3)), 2)):  # dependent pairs (and on the class)
        if a != b:
            X[:, b] = np.where(rng.random(n) < 0.7, (X[:, a] + y) % used[b], X[:, b])
    if rng.random() < 0.5:  # duplicate rows: every row one of a few
        pick = rng.integers(0, max(1, n // 4), size=n)
        X, y = X[pick], y[pick]
    return X.astype(np.int64), y.astype(np.int64), sizes.astype(np.int64), n_classes


def some_tests(rng: np.random.Generator, d: int, per_pair: int = 6) -> dict[tuple[int, int], list[tuple[int, ...]]]:
    """Conditioning sets of every size (0 to d − 2) for a few pairs: pair → sorted sets."""
    pairs = list(itertools.combinations(range(d), 2))
    out: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for k in rng.permutation(len(pairs))[:6]:
        i, j = pairs[k]
        rest = [a for a in range(d) if a not in (i, j)]
        sets = [tuple(sorted(rng.choice(rest, size=int(rng.integers(0, len(rest) + 1)), replace=False).tolist()))
                for _ in range(per_pair)]
        out[(i, j)] = list(dict.fromkeys([(), tuple(rest), *sets]))
    return out


def assert_same_statistic(got, want, where) -> None:
    """(X², df, n_inf, active): n_inf and active identical, X² and df within 1e-12 relative."""
    assert got[2:] == want[2:], where
    assert got[:2] == pytest.approx(want[:2], rel=1e-12, abs=0), where


def assert_same_outcome(got: X2Outcome, want: X2Outcome, where) -> None:
    """Decision, key and informative flag identical, X² and df within 1e-12 relative."""
    assert (got.independent, got.key, got.informative) == (want.independent, want.key, want.informative), where
    assert (got.x2, got.df) == pytest.approx((want.x2, want.df), rel=1e-12, abs=0), where
    assert got.log_p == pytest.approx(want.log_p, rel=1e-9, abs=0), where


def assert_same_cache(got: dict[Test, X2Outcome], want: dict[Test, X2Outcome]) -> None:
    assert got.keys() == want.keys()
    for test, o in want.items():
        assert_same_outcome(got[test], o, test)


# -- random data: statistics and outcomes -----------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_statistics_equal_the_reference(seed):
    X, y, sizes, C = random_data(seed)
    T = EntropyTerms(X, y, sizes, C)
    rng = np.random.default_rng(1000 + seed)
    for (i, j), Zs in some_tests(rng, X.shape[1]).items():
        for frame in (False, True):  # a fresh pair of tests each time: no frame left from before
            got = X2Test(T).statistics(i, j, Zs, frame=frame)
            want = NumpyX2Test(T).statistics(i, j, Zs, frame=frame)
            for Z, g, w in zip(Zs, got, want):
                assert_same_statistic(g, w, (seed, i, j, Z, frame))
        one = X2Test(T)
        for Z in Zs:  # one at a time, over the training rows, the pair given as (j, i)
            assert_same_statistic(one.statistic(j, i, Z), NumpyX2Test(T).statistic(i, j, Z), (seed, i, j, Z))


@pytest.mark.parametrize("seed", range(40))
def test_outcomes_and_greedy_steps_equal_the_reference(seed):
    # the calls a TPDA run makes: single tests, batches, and Greedy's steps (the leave-one-out
    # subsets of a set C, which the kernel computes in one call), on one pair of test objects so
    # that frames are made, kept and left as in a fit; the caches must agree test by test
    X, y, sizes, C = random_data(seed)
    T = EntropyTerms(X, y, sizes, C)
    rng = np.random.default_rng(2000 + seed)
    alpha, rows_per_df = [(0.01, 5.0), (0.05, 1.0), (0.2, 0.5)][seed % 3]  # varied: more informative tests
    got, want = X2Test(T, alpha, rows_per_df), NumpyX2Test(T, alpha, rows_per_df)
    for (i, j), Zs in some_tests(rng, X.shape[1]).items():
        for Z in Zs:
            assert_same_outcome(got(i, j, Z), want(i, j, Z), (seed, i, j, Z))
            if len(Z) >= 2:
                subs = [Z[:k] + Z[k + 1:] for k in range(len(Z))]
                for Zk, g, w in zip(subs, got.leave_one_out(j, i, Z), want.many(i, j, subs)):
                    assert_same_outcome(g, w, (seed, i, j, Zk, "step"))
        for g, w in zip(got.many(i, j, Zs[::-1]), want.many(i, j, Zs[::-1])):
            assert_same_outcome(g, w, (seed, i, j))
    assert_same_cache(got.cache, want.cache)
    assert (got.distinct_tests, got.tests_lacking_data) == (want.distinct_tests, want.tests_lacking_data)


@pytest.mark.parametrize("dense", [0, 10**9])
@pytest.mark.parametrize("seed", range(20))
def test_greedy_steps_grouped_either_way_equal_the_reference(seed, dense, monkeypatch):
    # a Greedy step groups each subset's rows by one counting sort over its (prefix, suffix) pairs
    # when they are few, else by two sorts: each way alone (0: never the first; 10**9: the first
    # wherever the scratch holds the pairs) must give the reference's outcomes
    monkeypatch.setattr(X2Test, "DENSE_PAIRS", dense)
    X, y, sizes, C = random_data(3000 + seed)
    T = EntropyTerms(X, y, sizes, C)
    rng = np.random.default_rng(4000 + seed)
    got, want = X2Test(T, 0.05, 1.0), NumpyX2Test(T, 0.05, 1.0)
    for (i, j), Zs in some_tests(rng, X.shape[1]).items():
        for Z in Zs:
            if len(Z) >= 2:
                subs = [Z[:k] + Z[k + 1:] for k in range(len(Z))]
                for Zk, g, w in zip(subs, got.leave_one_out(i, j, Z), want.many(i, j, subs)):
                    assert_same_outcome(g, w, (seed, i, j, Zk, dense))
    assert_same_cache(got.cache, want.cache)


def drafting_data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """`random_data` for odd seeds; for even ones 50–3000 rows of 5 correlated attributes (cells of
    many rows: long sums of entropy terms)."""
    if seed % 2:
        return random_data(seed)
    rng = np.random.default_rng(seed)
    X, y, cards = correlated_codes(rng, int(rng.integers(50, 3000)), 5, 3, 0.0, parents=2)
    return X, y, cards, 3


@pytest.mark.parametrize("seed", range(30))
def test_drafting_equals_the_reference_and_entropy_terms(seed):
    # the drafting phase's tests T(i, j | ∅) of every pair in one call, against the reference's
    # tests one by one; the (Y, X_i, X_j) entropy term it leaves in the EntropyTerms cache for the
    # drafting key I(X_i; X_j | Y) is the one EntropyTerms computes itself, to the bit
    X, y, sizes, C = drafting_data(seed)
    pairs = list(itertools.combinations(range(X.shape[1]), 2))
    T, fresh = EntropyTerms(X, y, sizes, C), EntropyTerms(X, y, sizes, C)
    got, want = X2Test(T), NumpyX2Test(fresh)
    for (i, j), g in zip(pairs, got.drafting(pairs)):
        assert_same_outcome(g, want(i, j, ()), (seed, i, j))
        assert T.cmi(i, j, ()).approx == fresh.cmi(i, j, ()).approx, (seed, i, j)
        assert T._cache[(i, j)] == fresh._cache[(i, j)], (seed, i, j)
    assert_same_cache(got.cache, want.cache)


def test_leave_one_out_of_a_cold_test_object_equals_the_reference():
    # a Greedy step as the first call on a pair (no frame yet) and after a step of another pair
    X, y, cards = correlated_codes(np.random.default_rng(3), 300, 6, 3, 0.0, parents=2)
    T = EntropyTerms(X, y, cards, 3)
    got, want = X2Test(T, 0.05, 1.0), NumpyX2Test(T, 0.05, 1.0)
    for i, j, Cset in [(0, 1, (2, 3, 4, 5)), (4, 5, (0, 1, 2, 3)), (0, 1, (2, 4)), (2, 3, (0, 1, 4, 5))]:
        for g, w in zip(got.leave_one_out(i, j, Cset), want.leave_one_out(i, j, Cset)):
            assert_same_outcome(g, w, (i, j, Cset))
    assert_same_cache(got.cache, want.cache)


# -- the fixed summing order (§4.7): the same bits whatever the batch, domain or row order -----------

@pytest.mark.parametrize("seed", range(12))
def test_statistic_does_not_depend_on_batch_domain_or_row_order(seed):
    X, y, sizes, C = random_data(100 + seed)
    rng = np.random.default_rng(3000 + seed)
    T = EntropyTerms(X, y, sizes, C)
    perm = rng.permutation(X.shape[0])
    Tp = EntropyTerms(X[perm], y[perm], sizes, C)
    for (i, j), Zs in some_tests(rng, X.shape[1]).items():
        alone = [X2Test(T).statistic(i, j, Z) for Z in Zs]  # each over the training rows, by itself
        order = rng.permutation(len(Zs))
        batches = {
            "batch": X2Test(T).statistics(i, j, Zs),
            "batch reordered": [dict(zip(order.tolist(), X2Test(T).statistics(i, j, [Zs[k] for k in order])))[k]
                                for k in range(len(Zs))],
            "frame": X2Test(T).statistics(i, j, Zs, frame=True),
            "frame of one set": [X2Test(T).statistics(i, j, [Z], frame=True)[0] for Z in Zs],
            "rows permuted": [X2Test(Tp).statistic(i, j, Z) for Z in Zs],
        }
        every = list(itertools.combinations(range(X.shape[1]), 2))
        o = X2Test(T).drafting(every)[every.index((i, j))]  # the drafting phase's call: every pair
        assert (o.x2, o.df) == alone[Zs.index(())][:2], (seed, i, j, "drafting")
        for name, got in batches.items():
            assert got == alone, (seed, i, j, name)  # bit for bit: == on the floats
        for Z, stat in zip(Zs, alone):  # inside Greedy's steps (over the frame of the larger set)
            rest = [a for a in range(X.shape[1]) if a not in (i, j, *Z)]
            if rest:
                Cset = tuple(sorted((*Z, int(rng.choice(rest)))))
                o = X2Test(T).leave_one_out(i, j, Cset)[[Cset[:k] + Cset[k + 1:] for k in range(len(Cset))].index(Z)]
                assert (o.x2, o.df) == stat[:2], (seed, i, j, Z, Cset)


@pytest.mark.parametrize("seed", range(40))
def test_a_greedy_calls_first_test_and_first_step_are_the_same_bits(seed):
    # a Greedy call's first test T(i, j | C) (two or more attributes) counts its strata from the
    # prefix numberings of (Y, C) that its first step T(i, j | C without C[k]) then reuses: the
    # first test is the bits of the same test counted alone over the training rows, and the step's
    # tests are those of a cold step (no numbering kept) and of each subset counted alone; the
    # values against the numpy reference (the X² of every stratum's table, scipy's p)
    X, y, sizes, C = random_data(200 + seed)
    rng = np.random.default_rng(4000 + seed)
    T = EntropyTerms(X, y, sizes, C)
    d = X.shape[1]
    for _ in range(6):
        i, j = sorted(rng.choice(d, size=2, replace=False).tolist())
        rest = [a for a in range(d) if a not in (i, j)]
        if len(rest) < 2:
            continue
        Cset = tuple(sorted(rng.choice(rest, size=int(rng.integers(2, len(rest) + 1)), replace=False).tolist()))
        subs = [Cset[:k] + Cset[k + 1:] for k in range(len(Cset))]
        test = X2Test(T)
        first = test(j, i, Cset)
        assert (first.x2, first.df) == X2Test(T).statistic(i, j, Cset)[:2], (seed, i, j, Cset)
        step = test.leave_one_out(i, j, Cset)
        cold = X2Test(T).leave_one_out(i, j, Cset)
        for Z, g, c in zip(subs, step, cold):
            assert (g.x2, g.df, g.log_p, g.key) == (c.x2, c.df, c.log_p, c.key), (seed, i, j, Z)
            assert (g.x2, g.df) == X2Test(T).statistic(i, j, Z)[:2], (seed, i, j, Z)
        want = NumpyX2Test(T)
        assert_same_outcome(first, want(i, j, Cset), (seed, i, j, Cset))
        for Z, g in zip(subs, step):
            assert_same_outcome(g, want(i, j, Z), (seed, i, j, Z))


# -- whole fits: BAN(method="tpda") on the kernel and on the reference --------------------------------

def fit_with(monkeypatch, cls, X, y, **params) -> tuple[BAN, X2Test | NumpyX2Test]:
    """A BAN(method="tpda") fit whose X² test is `cls`, and that test object (its cache)."""
    made: list = []

    class Recorded(cls):  # type: ignore[valid-type, misc]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    with monkeypatch.context() as m:  # the class BAN builds, wherever ban.py takes it from
        m.setattr(x2_module, "X2Test", Recorded)
        if hasattr(ban_module, "X2Test"):
            m.setattr(ban_module, "X2Test", Recorded)
        clf = BAN(method="tpda", **params).fit(X, y)
    assert len(made) == 1, "the fit did not build the X² test patched in"
    return clf, made[0]


def assert_same_fit(monkeypatch, X, y, **params) -> BAN:
    got, got_test = fit_with(monkeypatch, X2Test, X, y, **params)
    want, want_test = fit_with(monkeypatch, NumpyX2Test, X, y, **params)
    assert got.parents_ == want.parents_
    assert got.info_ == want.info_
    assert_same_cache(got_test.cache, want_test.cache)
    return got


@pytest.mark.parametrize("seed", range(10))
def test_fits_equal_the_reference_on_random_networks(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    n_attr, n_classes = int(rng.integers(4, 9)), int(rng.integers(1, 5))
    X, y, cards = correlated_codes(rng, int(rng.choice([30, 200, 800])), n_attr, n_classes, 0.05, parents=2)
    clf = assert_same_fit(monkeypatch, X, y, cardinalities=cards, n_classes=n_classes,
                          ban_alpha=[0.01, 0.05][seed % 2], ban_min_rows_per_df=[5.0, 1.0][seed % 2])
    assert clf.info_["distinct_tests"] > 0


# small data sets and three with longer Greedy calls (soybean, kr-vs-kp: sets of up to 22 attributes)
BUNDLED = ["zoo", "lymphography", "primary-tumor", "house-votes-84", "soybean", "kr-vs-kp", "splice-c4.5"]


@pytest.mark.mirror
@pytest.mark.parametrize("name", BUNDLED)
def test_fits_equal_the_reference_on_bundled_data(name, mirror, monkeypatch):
    """Fold 0 of run 0 of configs/kban.yaml's protocol (its preprocessing: MDL cuts per fold)."""
    from bncbench.config import load
    from bncbench.engine.units import preprocessed_fold

    exp = load("configs/kban.yaml")
    spec = next(d for d in exp.datasets if d.name == name)
    p = preprocessed_fold(spec, exp.preprocess, exp.cv, 0, 0)
    e = p.encoded
    clf = assert_same_fit(monkeypatch, e.X_train, p.dataset.y[p.train], cardinalities=e.cardinalities,
                          n_classes=len(p.dataset.classes))
    assert clf.info_["distinct_tests"] > 0


# -- bounds checks (.ci/run: make test-boundscheck) -----------------------------------------------

def test_out_of_bounds_access_is_caught_when_bounds_checked():
    # under NUMBA_BOUNDSCHECK=1 the kernels are compiled with bounds checks: a scratch table too
    # small for the pair's cells must raise IndexError, not write past its end
    from numba.core import config  # its settings are read from the environment at import

    if not getattr(config, "BOUNDSCHECK", None):
        pytest.skip("numba is not bounds-checking: the NUMBA_BOUNDSCHECK=1 run (make test-boundscheck) runs this")
    X = np.array([[0, 0], [1, 1], [0, 1], [1, 0], [1, 1]], dtype=np.int64)
    t = X2Test(EntropyTerms(X, np.zeros(5, dtype=np.int64), np.array([2, 2]), 1))
    t._scratch.nab = np.zeros(1, dtype=np.int64)
    with pytest.raises(IndexError):
        t.statistic(0, 1, ())
