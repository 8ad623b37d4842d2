"""AIT (paper 004, docs/algorithms.md §4.9) against independent oracles:
(a) the knee threshold against hand-worked lists and the plain-Python `ref_threshold`;
(b) the batched per-instance local networks against a per-instance Python loop;
(c) predict_proba of the whole method against the plain-Python `ref_ait` (1e-12)."""

import math

import numpy as np
import pytest

from bncbench.classifiers.ait import ait as ait_module
from bncbench.classifiers.ait import deep_counts
from bncbench.classifiers.ait.ait import AIT
from bncbench.classifiers.ait.thresholding import knee_threshold, knee_thresholds, lowest
from tests.oracles.ait.ait import ref_ait, ref_threshold
from tests.support.data import correlated_codes


def local_structures(clf: AIT, X) -> dict:
    """The local networks of the test rows of X that `clf.predict_proba` uses (§4.9.3): `parents`,
    `threshold` and `pruned`."""
    X, lo, hi = clf._validate_X(X, reset=False)
    return clf._structures(clf._internal(X, lo, hi))


def random_data(seed, n_train=60, n_test=20, n_attr=5, n_classes=3, p_missing=0.08, n_const=0, n_dup=0,
                unseen=False):
    """Correlated discrete attributes (so that structures are not all ties), optionally with constant
    and duplicated columns (ties in the local scores), missing values (−1) and (`unseen`) a value of
    two attributes that occurs in test rows only (parent values never seen: back-off)."""
    rng = np.random.default_rng(seed)
    X, y, cards = correlated_codes(rng, n_train + n_test, n_attr, n_classes, p_missing)
    for c in range(n_const):
        X[:, n_attr - 1 - c] = 0
    for d in range(n_dup):
        X[:, d + 1] = X[:, 0]
        cards[d + 1] = cards[0]
    if unseen:
        for i in (0, 2):
            rows = n_train + np.flatnonzero(rng.random(n_test) < 0.3)
            X[rows, i] = cards[i]
            cards[i] += 1
    return X[:n_train], y[:n_train], X[n_train:], cards, n_classes


# -- (a) threshold routine ---------------------------------------------------------------------
HAND = [
    # clear knee: boxes means 0.02 and 3 → L_1; the largest angle is at 0.04 (before the rise)
    ([0.0, 0.01, 0.02, 0.03, 0.04, 1.0, 2.0, 3.0, 4.0, 5.0], "last", 0.04),
    # rises of 1 % only: no jump; CII's default box L_m (knee at its first value) …
    ([1.0] * 5 + [1.01] * 5 + [1.02] * 5, "last", 1.02),
    # … and CIP's default box L_1 (knee at its last value)
    ([1.0] * 5 + [1.01] * 5 + [1.02] * 5, "first", 1.0),
    # a run of zeros over two boxes is no jump: L_T = the last box of the run, T = 0
    ([0.0] * 10 + [0.1, 0.2, 0.3, 0.4, 0.5], "last", 0.0),
    ([0.0] * 7 + [0.1, 0.2, 0.3], "first", 0.0),
    # negative values: jump from −0.84 to 3 → L_1; angles 0, 0.32, 0.37, ~0, 0.82 → −0.3
    ([-2.0, -1.0, -0.5, -0.4, -0.3, 1.0, 2.0, 3.0, 4.0, 5.0], "last", -0.3),
    # means −1 → −0.98: a rise of 2 % of |−1| is no jump (without |·| it would be one → −1.0)
    ([-1.0] * 5 + [-0.98] * 5, "last", -0.98),
    ([-1.0] * 5 + [-0.98] * 5, "first", -1.0),
    # M = 3: one box; only the middle value has two neighbours (θ = 0.69 there)
    ([1.1, 0.1, 0.0], "last", 0.1),
    # M < 3: no removal
    ([], "last", -math.inf),
    ([0.3], "first", -math.inf),
    ([0.1, 0.2], "last", -math.inf),
]


@pytest.mark.parametrize("values,default,want", HAND)
def test_threshold_hand_worked(values, default, want):
    assert ref_threshold(values, default) == want  # the oracle itself on the hand-worked lists
    assert knee_threshold(values, default) == want


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("default", ["first", "last"])
def test_threshold_batched_vs_reference(seed, default):
    rng = np.random.default_rng(seed)
    for M in [3, 4, 5, 6, 9, 10, 11, 14, 23, 37, 60]:
        rows = []
        for kind in range(4):
            if kind == 0:
                v = rng.normal(size=M)
            elif kind == 1:  # ties and runs of zeros
                v = rng.choice([0.0, 0.0, 0.0, 0.01, 0.02, 0.5], size=M)
            elif kind == 2:  # small negatives, like pooled CLMIs
                v = rng.exponential(0.01, size=M) - 0.003
            else:
                v = np.round(rng.exponential(0.1, size=M), 2)
            rows.append(v)
        got = knee_thresholds(np.array(rows), default)
        want = [ref_threshold(list(v), default) for v in rows]
        assert got.tolist() == want


# -- (b) local networks: batched = per-instance loop --------------------------------------------
def _lists(par):
    return [[int(p) for p in row if p >= 0] for row in par]


STRUCT_CASES = [(seed, base, k, cs) for seed in (0, 1, 2) for base, k in (("TAN", 1), ("KDB", 1), ("KDB", 2))
                for cs in ("instance", "per_label")]


@pytest.mark.parametrize("seed,base,k,cs", STRUCT_CASES)
@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_local_structures_vs_loop(seed, base, k, cs, precision):
    X, y, Xt, cards, nc = random_data(seed, n_attr=6, n_test=30)
    clf = AIT(base=base, k=k, cip_structure=cs, info_precision=precision, cardinalities=cards, n_classes=nc).fit(X, y)
    st = local_structures(clf, Xt)
    _, _, _, local = ref_ait(X, y, Xt, nc, cards, base=base, k=k, cip_structure=cs, info_precision=precision)
    for b, ref in enumerate(local):
        assert [_lists(net) for net in st["parents"][b]] == ref["parents"]
        assert st["threshold"][b] == ref["threshold"]
        assert [_lists(net) for net in st["pruned"][b]] == ref["pruned"]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("cs", ["instance", "per_label"])
def test_local_kdb_gcc_order_many_attributes(seed, cs):
    """18 attributes, constant and duplicated columns: tied LMIs, ordered by GCC's std::sort
    (float32) — the per-pattern batching equals one std::sort per instance."""
    X, y, Xt, cards, nc = random_data(seed, n_train=40, n_test=8, n_attr=18, n_classes=2, n_const=3, n_dup=2)
    clf = AIT(base="KDB", k=2, cip_structure=cs, info_precision="float32", cardinalities=cards, n_classes=nc).fit(X, y)
    st = local_structures(clf, Xt)
    _, _, _, local = ref_ait(X, y, Xt, nc, cards, base="KDB", k=2, cip_structure=cs, info_precision="float32")
    for b, ref in enumerate(local):
        assert [_lists(net) for net in st["parents"][b]] == ref["parents"]
        assert [_lists(net) for net in st["pruned"][b]] == ref["pruned"]


# -- (c) the whole method = plain-Python reference -------------------------------------------------
PROBA_CASES = [
    dict(base="TAN"),
    dict(base="TAN", info_precision="float32"),
    dict(base="TAN", cip_structure="per_label"),
    dict(base="TAN", ait=False),
    dict(base="TAN", cii=False),
    dict(base="TAN", cip=False),
    dict(base="TAN", ait_default_interval="last"),
    dict(base="TAN", ait_default_interval="first"),
    dict(base="KDB", k=2),
    dict(base="KDB", k=2, info_precision="float32"),
    dict(base="KDB", k=1),
    dict(base="KDB", k=3),
    dict(base="KDB", k=2, backoff=False, local_kdb_backoff=False),
    dict(base="KDB", k=2, local_kdb_order="global"),
    dict(base="KDB", k=2, cip_structure="per_label"),
    dict(base="KDB", k=2, ait=False),
    dict(base="KDB", k=2, cii=False),
    dict(base="KDB", k=0),
    dict(base="KDB", k=2, local_k=1),
    dict(base="KDB", k=1, local_k=2),
]


@pytest.mark.parametrize("params", PROBA_CASES, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("seed,est,miss", [(0, "mestimate", "value"), (1, "laplace", "skip"),
                                           (2, "laplace_joint", "value"), (3, "laplace_joint", "skip")])
def test_predict_proba_vs_reference(params, seed, est, miss):
    X, y, Xt, cards, nc = random_data(seed)
    clf = AIT(estimator=est, missing=miss, cardinalities=cards, n_classes=nc, **params).fit(X, y)
    want, gpar, TI, _ = ref_ait(X, y, Xt, nc, cards, estimator=est, missing=miss, **params)
    assert clf.parents_ == gpar
    assert clf.threshold_ == pytest.approx(TI, rel=1e-12)  # the same CMI, summed in another order
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


@pytest.mark.parametrize("params", [dict(base="TAN"), dict(base="KDB", k=1), dict(base="KDB", k=2),
                                    dict(base="KDB", k=2, cip_structure="per_label"),
                                    dict(base="KDB", k=2, backoff=False, local_kdb_backoff=False)],
                         ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("seed,miss", [(0, "value"), (1, "skip"), (2, "value")])
def test_predict_proba_unseen_parent_values(params, seed, miss):
    X, y, Xt, cards, nc = random_data(seed, unseen=True)
    clf = AIT(missing=miss, cardinalities=cards, n_classes=nc, **params).fit(X, y)
    want, _, _, _ = ref_ait(X, y, Xt, nc, cards, missing=miss, **params)
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


@pytest.mark.parametrize("miss", ["value", "skip"])
def test_sparse_count_tables(monkeypatch, miss):
    """The sparse path for parent sets whose dense count table would be too large."""
    monkeypatch.setattr(deep_counts, "_DENSE_CELLS", 0)
    X, y, Xt, cards, nc = random_data(4)
    for est in ("mestimate", "laplace_joint"):
        clf = AIT(base="KDB", k=2, estimator=est, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
        want, _, _, _ = ref_ait(X, y, Xt, nc, cards, base="KDB", k=2, estimator=est, missing=miss)
        np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_lowest_values_of_long_rows(seed):
    """Issue 40: `lowest` (the smallest values found through the blocks with the smallest minima) gives
    the first `head` values of each fully sorted row, bit for bit, on rows long enough for the blocks,
    with ties, repeated minima, a row's minima in one block and NaN."""
    rng = np.random.default_rng(seed)
    for _ in range(20):
        B, M = int(rng.integers(1, 20)), int(rng.integers(3, 6000))
        head = int(rng.integers(1, min(M, 25) + 1))
        v = rng.integers(-6, 40, size=(B, M)).astype(np.float64) / 7
        if seed % 2:
            v[:, int(rng.integers(0, M - 2)):][:, :3] = -9.0  # several minima side by side
        if seed == 9:
            v[0, int(rng.integers(0, M))] = np.nan
        assert lowest(v, head).tobytes() == np.sort(v, axis=1)[:, :head].tobytes()


@pytest.mark.parametrize("miss", ["value", "skip"])
@pytest.mark.parametrize("seed", range(4))
def test_count_tables_in_every_layout(monkeypatch, miss, seed):
    """Issue 40: the estimates with two or more parents are the same whichever way their tables are
    held (dense pooled tables counted many sets at once or one block per set, group codes indexed by
    an array or a dict, some tables sparse so the call runs group by group), and match the reference."""
    X, y, Xt, cards, nc = random_data(10 + seed, n_attr=7, n_const=1, n_dup=1)
    sizes = np.asarray(cards) + 1
    mid = int(np.sort(sizes)[-3:].prod()) * nc  # the largest attribute triples' tables are sparse below
    layouts = [{}, {"_BLOCK": 1}, {"_DENSE_CODES": 0}, {"_DENSE_CELLS": mid - 1}, {"_DENSE_CELLS": 0}]
    for est in ("mestimate", "laplace_joint"):
        for k in (2, 3):
            want, _, _, _ = ref_ait(X, y, Xt, nc, cards, base="KDB", k=k, estimator=est, missing=miss)
            got = []
            for layout in layouts:
                for name, value in layout.items():
                    monkeypatch.setattr(deep_counts, name, value)
                clf = AIT(base="KDB", k=k, estimator=est, missing=miss, cardinalities=cards, n_classes=nc)
                got.append(clf.fit(X, y).predict_proba(Xt))
                monkeypatch.undo()
            np.testing.assert_allclose(got[0], np.array(want), rtol=0, atol=1e-12)
            for other in got[1:]:
                np.testing.assert_array_equal(other, got[0])


def test_chunks_equal_one_block(monkeypatch):
    X, y, Xt, cards, nc = random_data(5, n_test=40)
    for base in ("TAN", "KDB"):
        whole = AIT(base=base, cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
        monkeypatch.setattr(ait_module, "_CHUNK_ELEMENTS", 50)  # a few rows per chunk
        chunked = AIT(base=base, cardinalities=cards, n_classes=nc).fit(X, y).predict_proba(Xt)
        monkeypatch.undo()
        np.testing.assert_array_equal(whole, chunked)


# -- parameters ------------------------------------------------------------------------------------
def test_invalid_parameters():
    X, y, _, _, _ = random_data(0)
    with pytest.raises(ValueError, match="base"):
        AIT(base="NB").fit(X, y)
    with pytest.raises(ValueError, match="cii"):
        AIT(cii=False, cip=False).fit(X, y)
    with pytest.raises(ValueError, match="cip_structure"):
        AIT(cip_structure="pooled").fit(X, y)
    with pytest.raises(ValueError, match="k"):
        AIT(base="KDB", k=-1).fit(X, y)


def test_info_and_attributes():
    X, y, Xt, cards, nc = random_data(1)
    clf = AIT(base="KDB", cardinalities=cards, n_classes=nc).fit(X, y)
    removed = sum(len(a) - len(b) for a, b in zip(clf.base_parents_, clf.parents_))
    assert clf.info_["cii_arcs_removed"] == removed
    before = dict(clf.info_)
    clf.predict_proba(Xt)
    assert clf.info_ == before  # predicting does not change the estimator
    local = local_structures(clf, Xt)
    assert local["threshold"].shape == (len(Xt),) and local["pruned"].shape[:2] == (len(Xt), nc)
    assert AIT(ait=False).fit(X, y).threshold_ == -math.inf
