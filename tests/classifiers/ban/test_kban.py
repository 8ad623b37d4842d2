"""k-BAN (docs/algorithms.md §4.6) against the plain-Python reference of tests/oracles/ban/kban.py (every
candidate structure built, leave-one-out by refitting without each instance) and hand-worked
cases from the spec."""

import numpy as np
import pytest

import bncbench.classifiers.kernels.counts as counts_mod
from bncbench.classifiers.ban.kban import KBAN, _closes_cycle, edge_sets
from bncbench.classifiers.ban.kban_scorer import StructureScorer
from bncbench.classifiers.kernels.counts import parent_set_counts
from bncbench.classifiers.kernels.estimators import log_cond
from bncbench.classifiers.nb.nb import NB
from tests.oracles.ban.kban import (
    RefModel,
    internal_rows,
    ref_candidates,
    ref_correct,
    ref_edge_sets,
    ref_kban,
    ref_loo_scores,
    smoothing_cards,
)
from tests.support.data import random_data


@pytest.fixture(params=["dense", "sparse"])
def config_index(request, monkeypatch):
    """Run a test with dense parent-configuration indices and again with the sparse (rank of the
    occurring keys) indices."""
    if request.param == "sparse":
        monkeypatch.setattr(counts_mod, "_DENSE_CONFIGS", 0)
        monkeypatch.setattr(counts_mod, "_DENSE_PER_ROW", 0)
    return request.param


def random_structure(rng, n, max_parents):
    """A random DAG over n attributes (arcs from lower to higher rank of a random permutation)."""
    rank = rng.permutation(n)
    out = []
    for i in range(n):
        earlier = [j for j in range(n) if rank[j] < rank[i]]
        size = int(rng.integers(0, min(max_parents, len(earlier)) + 1))
        out.append(tuple(sorted(rng.choice(earlier, size=size, replace=False).tolist())) if size else ())
    return tuple(out)


# -- edge-set enumeration ------------------------------------------------------------------
def test_edge_set_order_of_the_spec():
    """§4.6's listing for c = 2 (candidates A_1, A_2 of A_i), without the empty set."""
    i, a1, a2 = 0, 7, 3
    want = [((a1, i),), ((i, a1),), ((a2, i),), ((i, a2),),
            ((a1, i), (a2, i)), ((a1, i), (i, a2)), ((i, a1), (a2, i)), ((i, a1), (i, a2))]
    assert edge_sets([a1, a2], i) == want


@pytest.mark.parametrize("c", [0, 1, 2, 3])
def test_edge_sets_equal_recursive_enumeration(c):
    cand = [5, 1, 4][:c]
    got = edge_sets(cand, 2)
    assert len(got) == 3 ** c - 1
    assert [list(e) for e in got] == ref_edge_sets(cand, 2)


# -- improved-MRMR candidate parents ---------------------------------------------------------
@pytest.mark.parametrize("seed", range(20))
def test_candidates_equal_reference_under_ties(seed):
    """`_candidates` against the plain loop of the reference on CMI matrices full of exact ties
    (values on a coarse grid) and of near-ties that the tie rule merges (noise of 1e-14 relative
    off attribute i's own row, whose first pick compares raw values): smallest index wins."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    cmi = rng.integers(0, 6, size=(n, n)) / 8.0
    for i in range(n):
        noisy = rng.random((n, n)) < 0.5
        noise = np.where(noisy, 1.0 + rng.choice([-1e-14, 1e-14], size=(n, n)), 1.0)
        noise[i, :] = noise[:, i] = 1.0
        m = np.triu(cmi * noise, 1)
        m = m + m.T
        clf = KBAN(k=4)
        clf.cmi_ = m
        for _ in range(5):
            parents = tuple(sorted(rng.choice([j for j in range(n) if j != i],
                                              size=int(rng.integers(0, min(3, n - 1) + 1)), replace=False).tolist()))
            assert clf._candidates(i, parents) == ref_candidates(i, parents, m.tolist(), 4)


# -- the counting kernel --------------------------------------------------------------------
def test_parent_set_counts_equal_plain_counting():
    X, y, _, cards, nc = random_data(4, n_train=80, n_attr=5)
    rows = internal_rows(X.tolist(), cards.tolist())
    Xc = np.array(rows)
    sizes = cards + 1
    for child, parents in [(0, ()), (2, (4,)), (1, (4, 0)), (3, (0, 1, 2))]:
        table, cfg = parent_set_counts(Xc, y, child, parents, sizes, nc)
        assert table.shape == (int(np.prod([sizes[p] for p in parents])), sizes[child], nc)
        for r, (row, c) in enumerate(zip(rows, y.tolist())):
            want = sum(1 for rr, cc in zip(rows, y.tolist())
                       if cc == c and rr[child] == row[child] and all(rr[p] == row[p] for p in parents))
            assert table[cfg.ids[r], row[child], c] == want
        assert table.sum() == len(rows)


# -- (b) fast leave-one-out == refitting without each instance ------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("est", ["laplace", "mestimate", "laplace_joint"])
@pytest.mark.parametrize("evaluation", ["loo", "train"])
def test_structure_scores_equal_brute_force(seed, est, evaluation, config_index):
    X, y, _, cards, nc = random_data(seed, n_train=45, n_attr=6, p_missing=0.1)
    rows = internal_rows(X.tolist(), cards.tolist())
    card = smoothing_cards(X.tolist(), cards.tolist())
    scorer = StructureScorer(np.array(rows), y, cards + 1, np.array(card), nc, est, 1.0, loo=evaluation == "loo")
    rng = np.random.default_rng(100 + seed)
    scorer.set_base(random_structure(rng, len(cards), 3))  # correct() swaps factors from this base
    for _ in range(6):
        structure = random_structure(rng, len(cards), 3)
        if evaluation == "loo":
            want = ref_loo_scores(rows, y.tolist(), structure, card, nc, est, 1.0)
        else:
            model = RefModel(rows, y.tolist(), structure, card, nc, est, 1.0)
            want = [model.log_scores(r) for r in rows]
        np.testing.assert_allclose(scorer.scores(structure), want, rtol=0, atol=1e-12)
        assert scorer.correct(structure) == ref_correct(rows, y.tolist(), structure, card, nc, est, 1.0,
                                                         evaluation)


# -- (a) the whole learner == the plain-Python reference k-BAN -------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_kban_equals_reference(seed, k):
    X, y, Xt, cards, nc = random_data(seed, n_train=40, n_test=15, n_attr=6, p_missing=0.1)
    clf = KBAN(k=k, estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    parents, trace, post = ref_kban(X.tolist(), y.tolist(), cards.tolist(), nc, k, "laplace", X_test=Xt.tolist())
    assert clf.parents_ == parents
    assert clf.trace_ == trace
    np.testing.assert_allclose(clf.predict_proba(Xt), post, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", [5, 6])
@pytest.mark.parametrize("est", ["mestimate", "laplace_joint"])
@pytest.mark.parametrize("evaluation", ["loo", "train"])
def test_kban_equals_reference_other_estimators(seed, est, evaluation, config_index):
    X, y, Xt, cards, nc = random_data(seed, n_train=35, n_test=15, n_attr=5, p_missing=0.1)
    clf = KBAN(k=2, estimator=est, kban_eval=evaluation, cardinalities=cards, n_classes=nc).fit(X, y)
    parents, trace, post = ref_kban(X.tolist(), y.tolist(), cards.tolist(), nc, 2, est, 1.0, evaluation,
                                    X_test=Xt.tolist())
    assert clf.parents_ == parents
    assert clf.trace_ == trace
    np.testing.assert_allclose(clf.predict_proba(Xt), post, rtol=0, atol=1e-12)


def test_sparse_configs_with_unseen_test_configurations(monkeypatch):
    """Sparse configuration indices: a test row whose parent values never occurred together in
    training gets the zero-count (uniform) estimate, as the reference does."""
    monkeypatch.setattr(counts_mod, "_DENSE_CONFIGS", 0)
    monkeypatch.setattr(counts_mod, "_DENSE_PER_ROW", 0)
    X, y, Xt, cards, nc = random_data(8, n_train=40, n_test=40, n_attr=6, p_missing=0.1)
    clf = KBAN(k=3, estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    assert all(cfg.keys is not None for cfg, _ in clf._tables if cfg.parents)
    unseen = 0
    for cfg, _ in clf._tables:
        unseen += int((cfg.index(np.where(Xt < 0, cards, Xt)) < 0).sum())
    assert unseen > 0
    _, _, post = ref_kban(X.tolist(), y.tolist(), cards.tolist(), nc, 3, "laplace", X_test=Xt.tolist())
    np.testing.assert_allclose(clf.predict_proba(Xt), post, rtol=0, atol=1e-12)


def test_numpy_log_is_elementwise():
    """What the final tables and the scorer's batched estimates rely on: numpy's log of a float is
    the same wherever it stands in a contiguous array (its position, the array's length and
    alignment), on estimate-like ratios (n + 1) / (d + c) and on random floats, bit for bit."""
    rng = np.random.default_rng(11)
    num, den = rng.integers(0, 60, 20000), rng.integers(0, 60, 20000)
    for v in ((num + 1.0) / (num + den + rng.integers(2, 40, 20000)), rng.random(20000) * 1e3, rng.random(20000)):
        whole = np.log(v)
        for _ in range(200):
            a = int(rng.integers(0, v.size))
            b = int(rng.integers(a, min(v.size, a + 70))) + 1
            assert np.log(v[a:b]).tobytes() == whole[a:b].tobytes()
            pick = rng.choice(v.size, size=int(rng.integers(1, 40)))
            assert np.log(v.take(pick)).tobytes() == whole.take(pick).tobytes()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_final_tables_equal_dense_tables(seed):
    """The final tables index only the parent configurations that occur where most would not: at
    every configuration (seen or not) and child value, their estimates equal those of the dense table
    over all configurations (one `log_cond` over the whole table, as before), bit for bit."""
    X, y, _, cards, nc = random_data(seed, n_train=60, n_attr=6, p_missing=0.1)
    clf = KBAN(k=3, estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    Xc = np.array(internal_rows(X.tolist(), cards.tolist()))
    assert any(cfg.keys is not None for cfg, _ in clf._tables)
    for i, (cfg, logs) in enumerate(clf._tables):
        par = list(cfg.parents)
        table, dense = parent_set_counts(Xc, y, i, par, clf.sizes_, nc)
        assert dense.keys is None
        cells = nc * float(np.prod([clf.card_[p] for p in par])) if par else float(nc)
        want = log_cond(table, table.sum(axis=1, keepdims=True), clf.card_[i], "laplace", 1.0, ctx_cells=cells,
                        tot_num=float(y.size), tot_den=float(y.size))
        every = np.zeros((dense.n_configs, Xc.shape[1]), dtype=Xc.dtype)  # a row of each configuration
        if par:
            for p, values in zip(par, np.unravel_index(np.arange(dense.n_configs), dense.radices)):
                every[:, p] = values
        got = logs[cfg.index(every)]
        assert got.tobytes() == want.tobytes()


# -- k = 0 is naive Bayes; limits of the search ----------------------------------------------
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("est", ["laplace", "mestimate"])
def test_k0_is_naive_bayes(seed, est):
    X, y, Xt, cards, nc = random_data(seed, n_train=60, n_test=30, n_attr=6)
    clf = KBAN(k=0, estimator=est, cardinalities=cards, n_classes=nc).fit(X, y)
    assert clf.parents_ == [[] for _ in range(6)] and clf.arcs_ == [] and clf.steps_ == []
    assert len(clf.trace_) == 1
    nb = NB(estimator=est, cardinalities=cards, n_classes=nc).fit(X, y)
    np.testing.assert_allclose(clf.predict_proba(Xt), nb.predict_proba(Xt), rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_search_respects_k_acyclicity_and_strict_improvement(k):
    X, y, _, cards, nc = random_data(11, n_train=300, n_attr=9, p_missing=0.05)
    clf = KBAN(k=k, estimator="laplace", cardinalities=cards, n_classes=nc).fit(X, y)
    assert all(len(p) <= k for p in clf.parents_)
    assert np.all(np.diff(clf.trace_) > 0) and len(clf.trace_) == len(clf.steps_) + 1
    handled = [a for a, _ in clf.steps_]
    assert len(set(handled)) == len(handled)
    # a topological order exists
    left = set(range(9))
    while left:
        free = [v for v in left if not set(clf.parents_[v]) & left]
        assert free
        left -= set(free)
    assert sorted(clf.arcs_) == sorted((p, c) for c, ps in enumerate(clf.parents_) for p in ps)


@pytest.mark.parametrize("bad", [{"k": -1}, {"k": 1.5}, {"k": True}, {"kban_eval": "cv"}, {"missing": "skip"}])
def test_invalid_parameters(bad):
    X, y, _, _, _ = random_data(0)
    with pytest.raises(ValueError, match=next(iter(bad))):
        KBAN(**bad).fit(X, y)


# -- the wrapper's cycle test against a plain depth-first search ------------------------------
def _plain_has_cycle(parents) -> bool:
    n = len(parents)
    state = [0] * n  # 0 new, 1 on the path, 2 done

    def visit(v) -> bool:
        state[v] = 1
        for p in parents[v]:
            if state[p] == 1 or (state[p] == 0 and visit(p)):
                return True
        state[v] = 2
        return False

    return any(state[v] == 0 and visit(v) for v in range(n))


@pytest.mark.parametrize("seed", range(30))
def test_closes_cycle_equals_depth_first_search(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 9))
    order = rng.permutation(n)  # a random DAG: arcs only from earlier to later in `order`
    rank = {int(v): r for r, v in enumerate(order)}
    parents = [tuple(sorted(int(p) for p in range(n) if rank[p] < rank[c] and rng.random() < 0.3))
               for c in range(n)]
    for i in range(n):
        children = [c for c in range(n) if i in parents[c]]
        reach: dict = {}
        free = [j for j in range(n) if j != i and j not in parents[i] and i not in parents[j]]
        for _ in range(10):
            picks: np.ndarray | list[int] = []
            if free:  # no draw when nothing is free: the later draws stay as they were
                picks = rng.choice(free, size=min(len(free), int(rng.integers(1, 4))), replace=False)
            into = [int(j) for j in picks if rng.random() < 0.5]
            out = [int(j) for j in picks if int(j) not in into]
            new = [set(par) for par in parents]
            new[i] |= set(into)
            for j in out:
                new[j].add(i)
            assert _closes_cycle(parents, i, into, out, children, reach) == _plain_has_cycle(new)


# -- the wrapper's pruning: bounds never undercut the exact count ------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("est", ["laplace", "mestimate"])
def test_upper_bounds_and_early_stop_against_exact_counts(seed, est):
    """`upper_bounds` is at least the exact count of each candidate, and `correct(..., beat=b)`
    is the exact count when that exceeds b, otherwise some number ≤ b."""
    X, y, _, cards, nc = random_data(seed, n_train=120, n_attr=7, p_missing=0.1)
    rows = internal_rows(X.tolist(), cards.tolist())
    card = smoothing_cards(X.tolist(), cards.tolist())
    scorer = StructureScorer(np.array(rows), y, cards + 1, np.array(card), nc, est, 1.0, loo=True)
    rng = np.random.default_rng(200 + seed)
    base = random_structure(rng, len(cards), 2)
    scorer.set_base(base)
    changes, structures = [], []
    for _ in range(40):  # candidates: a few nodes each get one or two more parents
        structure = list(base)
        for j in rng.choice(len(cards), size=int(rng.integers(1, 4)), replace=False).tolist():
            extra = [p for p in range(len(cards)) if p != j and p not in base[j]]
            add = rng.choice(extra, size=min(len(extra), int(rng.integers(1, 3))), replace=False).tolist()
            structure[j] = tuple(sorted(base[j] + tuple(add)))
        changes.append([(j, par) for j, par in enumerate(structure) if par != base[j]])
        structures.append(tuple(structure))
    bounds = scorer.upper_bounds(changes)
    for candidate, bound in zip(structures, bounds.tolist()):
        exact = scorer.correct(candidate)
        assert exact == int(np.count_nonzero(scorer.scores(candidate).argmax(axis=1) == y))
        assert bound >= exact
        for beat in (exact - 3, exact - 1, exact, exact + 2):
            got = scorer.correct(candidate, beat=beat)
            assert got == exact if exact > beat else got <= beat
