"""PAA, CAA, PAE, CAE (docs/algorithms.md §4.8.4) against a plain-Python oracle that refits without
each training instance (tests/oracles/aode/wrappers.py), and hand-worked checks of the start
models, the frequency test with the held-out instance removed and the strict stopping rule."""

import functools
import math
from typing import Any

import numpy as np
import pytest

import bncbench.classifiers.aode.loo_engine as aw
from bncbench.classifiers import AODE
from bncbench.classifiers.aode.loo_engine import LooEngine
from bncbench.classifiers.aode.spode import logsumexp
from bncbench.classifiers.aode.wrappers import CAA, CAE, PAA, PAE
from tests.oracles.aode import wrappers as ref
from tests.oracles.tan.stan import brute_force_loo_risks
from tests.support.data import correlated_codes, random_data

WRAPPERS = {"PAA": PAA, "CAA": CAA, "PAE": PAE, "CAE": CAE}
ESTIMATORS = ("mestimate", "laplace", "laplace_joint")
CASES = [(seed, est, miss) for seed in (0, 1, 2) for est in ESTIMATORS for miss in ("value", "skip")]


def _data(seed: int, n_attr: int = 5, constant: bool = False, dup: bool = False):
    """random_data, optionally with an attribute of one value (its factors are exactly 1) and
    with repeated training rows (the engine scores each distinct row once, weighted)."""
    X, y, Xt, cards, nc = random_data(seed, n_attr=n_attr)
    if constant:
        X = np.column_stack([X[:, :2], np.zeros(len(X), dtype=np.int64), X[:, 2:]])
        Xt = np.column_stack([Xt[:, :2], np.zeros(len(Xt), dtype=np.int64), Xt[:, 2:]])
        cards = np.concatenate([cards[:2], [1], cards[2:]])
    if dup:
        X, y = np.vstack([X, X[:20]]), np.concatenate([y, y[:20]])
    return X, y, Xt, cards, nc


@functools.cache
def _factors(seed, est, miss, min_freq=1, n_attr=5, constant=False, dup=False):
    X, y, _, cards, nc = _data(seed, n_attr, constant, dup)
    return ref.loo_factors(X.tolist(), y.tolist(), nc, cards.tolist(), est, 1.0, miss, min_freq)


def _engine(X, y, cards, nc, est, miss, min_freq=1, loss="rmse"):
    model = AODE(estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc, min_freq=min_freq).fit(X, y)
    return LooEngine(model, np.where(X < 0, cards, X), y, loss)


def _loss_of(eng: LooEngine, parents, children) -> float:
    """The engine's LOO loss of the model (parents, children), from scratch in log space for every block (no
    incremental update of the search): the engine's per-row terms, the SPODEs over P where a superparent qualifies,
    NB over C where none does."""
    P = sorted(parents)
    total = 0.0
    for b in eng.blocks:
        st = eng._build(b, sorted(children))
        terms = eng._terms_log(st.Bn, b.k)
        if P:
            has = np.any(b.Q[P], axis=0)
            A = logsumexp(st.S[P], axis=0)  # S is −inf where p does not qualify
            with np.errstate(invalid="ignore"):
                terms = np.where(has, eng._terms_log(np.where(has[:, None], A, 0.0), b.k), terms)
        total += float((terms * b.w).sum())
    return eng._value(total)


# -- (a) the LOO loss of a given (P, C) = refitting without each instance ------------------------
@pytest.mark.parametrize("loss", ["rmse", "zol"])
@pytest.mark.parametrize("min_freq", [1, 4])
@pytest.mark.parametrize("seed,est,miss", CASES)
def test_loo_loss_equals_refits(seed, est, miss, min_freq, loss):
    X, y, _, cards, nc = _data(seed)
    eng = _engine(X, y, cards, nc, est, miss, min_freq, loss)
    F = _factors(seed, est, miss, min_freq)
    rng = np.random.default_rng(100 + seed)
    n = X.shape[1]
    models = [([], list(range(n))), (list(range(n)), []), (list(range(n)), list(range(n))), ([], [])]
    models += [(sorted(rng.choice(n, k, replace=False).tolist()), sorted(rng.choice(n, j, replace=False).tolist()))
               for k, j in ((1, 2), (2, 3), (3, 1), (4, 4), (2, 5))]
    for P, C in models:
        want = ref.loo_loss(F, y.tolist(), nc, P, C, loss)
        assert abs(_loss_of(eng, P, C) - want) <= 1e-12, (P, C)


# -- (b) the greedy selections and the final model ------------------------------------------------
def _check_wrapper(kind, seed, est, miss, loss="rmse", min_freq=1, n_attr=5, constant=False, dup=False):
    X, y, Xt, cards, nc = _data(seed, n_attr, constant, dup)
    clf = WRAPPERS[kind](estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc,
                         min_freq=min_freq, wrapper_loss=loss).fit(X, y)
    F = _factors(seed, est, miss, min_freq, n_attr, constant, dup)
    P, C, path = ref.greedy(kind, F, y.tolist(), nc, X.shape[1], loss)
    assert clf.parents_.tolist() == P and clf.children_.tolist() == C
    np.testing.assert_allclose(clf.loss_path_, path, rtol=0, atol=1e-12)
    want = ref.ref_predict(X.tolist(), y.tolist(), Xt.tolist(), nc, cards.tolist(), P, C, est, 1.0, miss, min_freq)
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)
    kept = len(P) if kind in ("PAA", "PAE") else len(C)
    assert clf.info_["elimination"] == (X.shape[1] - kept) / X.shape[1]
    return clf


@pytest.mark.parametrize("kind", list(WRAPPERS))
@pytest.mark.parametrize("seed,est,miss", CASES)
def test_selection_matches_reference(kind, seed, est, miss):
    _check_wrapper(kind, seed, est, miss)


@pytest.mark.parametrize("kind", list(WRAPPERS))
@pytest.mark.parametrize("est", ESTIMATORS)
@pytest.mark.parametrize("variant", ["zol", "min_freq", "constant", "duplicates", "wide"])
def test_selection_variants(kind, est, variant):
    """ZOL as the loss; a frequency limit that rows fail once held out; an attribute of one value
    (adding / removing it as a child is an exact tie: never taken); repeated rows; 7 attributes."""
    miss = "skip" if est == "laplace" else "value"
    variants: dict[str, dict[str, Any]] = {"zol": dict(loss="zol"), "min_freq": dict(min_freq=4),
                                           "constant": dict(constant=True), "duplicates": dict(dup=True),
                                           "wide": dict(n_attr=7)}
    clf = _check_wrapper(kind, 3, est, miss, **variants[variant])
    if variant == "constant" and kind in ("CAA", "CAE"):
        assert (2 in clf.children_.tolist()) == (kind == "CAE")


@pytest.mark.parametrize("kind", list(WRAPPERS))
def test_blocks_and_no_cache(kind, monkeypatch):
    """Rows scored in many small blocks, the block states rebuilt at every step and the
    own-class column patched into every gather instead of kept per class (the paths for data
    too large to cache) give the same selection."""
    monkeypatch.setattr(aw, "_BLOCK_BYTES", 8 * 5 * 3 * 7)  # 7 rows per block
    monkeypatch.setattr(aw, "_CACHE_BYTES", 0)
    monkeypatch.setattr(aw, "_TABLE_BYTES", 0)
    for seed, est, miss in [(0, "laplace_joint", "value"), (1, "mestimate", "skip")]:
        _check_wrapper(kind, seed, est, miss, dup=True)


@pytest.mark.parametrize("kind", list(WRAPPERS))
def test_log_space_rescoring(kind, monkeypatch):
    """Every row's shifted class sums count as underflowed (`_TINY` above any of them), so every
    candidate term is scored again in log space from scratch (`_exact`, `_rows_S`): the same
    selection, losses and posteriors as the oracle."""
    monkeypatch.setattr(aw, "_TINY", 1e300)
    for seed, est, miss in [(0, "laplace_joint", "value"), (1, "mestimate", "skip"), (2, "laplace", "value")]:
        _check_wrapper(kind, seed, est, miss, dup=True)
    _check_wrapper(kind, 3, "laplace_joint", "value", loss="zol", min_freq=4)


@pytest.mark.parametrize("kind", ["CAA", "CAE"])
def test_rows_shifted_again_after_drift(kind, monkeypatch):
    """CAA / CAE multiply each row's shifted probabilities by the accepted child's factors; rows
    whose largest value leaves [_FAR, 1/_FAR] are shifted again from scratch. With _FAR close to
    1 almost every row is, at every step; with the own-class column patched into every gather
    (_TABLE_BYTES = 0) as well: the same selection as the oracle."""
    monkeypatch.setattr(aw, "_FAR", 0.999)
    monkeypatch.setattr(aw, "_TABLE_BYTES", 0)
    cases: list[tuple[int, str, str, dict[str, Any]]] = [
        (0, "laplace_joint", "value", {"n_attr": 7}), (1, "laplace_joint", "value", {"dup": True}),
        (1, "mestimate", "skip", {}), (0, "laplace", "value", {"n_attr": 7})]
    for seed, est, miss, kw in cases:  # each takes at least one step (so rows are shifted again)
        assert len(_check_wrapper(kind, seed, est, miss, **kw).loss_path_) > 1


# -- (c) hand checks ------------------------------------------------------------------------------
# One attribute, two classes, five instances; Laplace, N − 1 = 4 after holding one out, so
# P̂₋(y, x) = (N₋(x, y) + 1) / (4 + 2·2) and P̂₋(y) = (N₋(y) + 1) / (4 + 2).
X1 = np.array([[0], [0], [1], [1], [0]])
Y1 = np.array([0, 0, 1, 1, 1])


def test_caa_starts_from_prior_only_spodes_by_hand():
    """CAA's start model is Σ_p P̂(y, x_p) (C = ∅). Held out (x=0, y=0): N₋(0,0) = 1, N₋(0,1) = 1
    → p = 2/4; held out (x=1, y=1): N₋(1,1) = 1, N₋(1,0) = 0 → p = 2/3; held out (x=0, y=1):
    N₋(0,0) = 2, N₋(0,1) = 0 → p = 1/4. With one attribute, adding it as a child changes no
    SPODE (a superparent is no child of itself): an exact tie, so CAA stops with C = ∅."""
    clf = CAA(estimator="laplace", cardinalities=[2], n_classes=2).fit(X1, Y1)
    sse = 2 * (1 - 2 / 4) ** 2 + 2 * (1 - 2 / 3) ** 2 + (1 - 1 / 4) ** 2
    assert clf.loss_path_.tolist() == pytest.approx([math.sqrt(sse / 5)], abs=1e-15)
    assert clf.children_.tolist() == [] and clf.info_["elimination"] == 1.0


def test_min_freq_counts_without_the_held_out_instance_by_hand():
    """min_freq = 2: x = 1 occurs twice, so held out it occurs once < 2 and the row falls back to
    NB over C = ∅, the prior: P̂₋(y=1) = (3 − 1 + 1)/6 = 1/2; x = 0 (three times) still
    qualifies. A test row with x = 1 does use the superparent (N(x) = 2 ≥ 2)."""
    clf = CAA(estimator="laplace", cardinalities=[2], n_classes=2, min_freq=2).fit(X1, Y1)
    sse = 2 * (1 - 2 / 4) ** 2 + 2 * (1 - 1 / 2) ** 2 + (1 - 1 / 4) ** 2
    assert clf.loss_path_[0] == pytest.approx(math.sqrt(sse / 5), abs=1e-15)
    # full data: P̂(y, x=1) = (N(1, y) + 1)/(5 + 4): 1/9 and 3/9
    np.testing.assert_allclose(clf.predict_proba(np.array([[1]])), [[0.25, 0.75]], rtol=0, atol=1e-15)


@pytest.mark.parametrize("seed,est,miss", CASES[:6])
def test_paa_starts_from_naive_bayes(seed, est, miss):
    """PAA's start model (P = ∅) is NB over all attributes: its loss is the LOO RMSE of NB that
    STAN's brute-force oracle computes (all attributes parentless, model s = n)."""
    X, y, _, cards, nc = random_data(seed)
    clf = PAA(estimator=est, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
    n = X.shape[1]
    want = brute_force_loo_risks(X.tolist(), y.tolist(), nc, cards.tolist(), [-1] * n, list(range(n)), est, 1.0,
                                 miss)[n]
    assert abs(clf.loss_path_[0] - want) <= 1e-12


def test_stops_on_a_tie():
    """Zero LOO errors for NB already: every PAA candidate ties (ZOL 0), none is strictly better,
    so P stays empty; CAE keeps every child (removing one cannot be strictly better than 0
    errors either)."""
    X = np.array([[0, 0], [0, 1], [1, 1], [1, 0]] * 3)
    y = X[:, 0].copy()
    paa = PAA(estimator="laplace", wrapper_loss="zol", cardinalities=[2, 2], n_classes=2).fit(X, y)
    assert paa.loss_path_.tolist() == [0.0] and paa.parents_.tolist() == []
    assert paa.info_["elimination"] == 1.0
    cae = CAE(estimator="laplace", wrapper_loss="zol", cardinalities=[2, 2], n_classes=2).fit(X, y)
    assert cae.children_.tolist() == [0, 1] and cae.info_["elimination"] == 0.0


def test_strictly_decreasing_path_and_stopping_rules():
    X, y, cards = correlated_codes(np.random.default_rng(7), 150, 6, 3, 0.05)
    for kind, cls in WRAPPERS.items():
        clf = cls(estimator="laplace_joint", cardinalities=cards, n_classes=3).fit(X, y)
        assert all(b < a for a, b in zip(clf.loss_path_, clf.loss_path_[1:]))
        steps = len(clf.loss_path_) - 1
        size = {"PAA": clf.parents_.size, "PAE": 6 - clf.parents_.size,
                "CAA": clf.children_.size, "CAE": 6 - clf.children_.size}[kind]
        assert size == steps
        assert clf.parents_.size >= 1 or kind == "PAA"
        assert clf.children_.size >= 1 or kind == "CAA"


def test_parameters():
    X, y, _, cards, nc = random_data(0)
    with pytest.raises(ValueError, match="wrapper_loss"):
        PAA(wrapper_loss="auc", cardinalities=cards, n_classes=nc).fit(X, y)
    clf = CAE(wrapper_loss="zol", min_freq=3)
    assert clf.get_params()["wrapper_loss"] == "zol" and clf.get_params()["min_freq"] == 3
    assert PAA.PARAMS["wrapper_loss"].choices == ("rmse", "zol")
    assert set(PAA.SUPPORTED_MISSING) == {"value", "skip"}
