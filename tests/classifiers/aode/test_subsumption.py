"""SR and NSR (docs/algorithms.md §4.8.5) against three independent oracles: Weka 3.6's AODEsr on
exported folds, the plain-Python reference of tests/oracles/aode/subsumption.py, and hand-worked
examples of the tie rule and of the scan's skip rule."""

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from bncbench.classifiers.aode import subsumption
from bncbench.classifiers.aode.subsumption import NSR, SR
from bncbench.cli.run import folds
from tests.oracles.aode.subsumption import ref_subsumption
from tests.support.data import correlated_codes

ESTIMATORS = ("mestimate", "laplace", "laplace_joint")


def _data(seed, n_train=80, n_test=20, p_missing=0.06):
    """Random correlated codes plus columns that make (near-)subsumption fire: a coarsening of an
    attribute (a generalisation of its values), an exact copy (values that always co-occur), a
    copy with 4 % noise (near-subsumption) and a mostly-constant attribute (its frequent value
    generalises rare ones); columns shuffled, then cells missing with `p_missing`."""
    rng = np.random.default_rng(seed)
    N = n_train + n_test
    X, y, cards = correlated_codes(rng, N, 4, 3, 0.0)
    coarse = (X[:, 0] >= 1).astype(np.int64)
    copy = X[:, 1].copy()
    near = np.where(rng.random(N) < 0.04, rng.integers(0, cards[2], N), X[:, 2])
    common = (rng.random(N) < 0.9).astype(np.int64)
    X = np.column_stack([X, coarse, copy, near, common])
    cards = np.concatenate([cards, [2, cards[1], cards[2], 2]])
    order = rng.permutation(X.shape[1])
    X, cards = X[:, order], cards[order]
    X[rng.random(X.shape) < p_missing] = -1
    return X[:n_train], y[:n_train], X[n_train:], cards, 3


# (label, class, our parameters, the reference's)
KINDS: list[tuple[str, type[SR | NSR], dict[str, Any], dict[str, Any]]] = [
    ("SR", SR, {"sr_min_freq": 4}, {"sr_min_freq": 4}),
    ("SR-nonstrict", SR, {"sr_min_freq": 8, "sr_strict": False}, {"sr_min_freq": 8, "sr_strict": False}),
    ("NSR", NSR, {"sr_min_freq": 5, "nsr_ratio": 0.9}, {"sr_min_freq": 5, "nsr_ratio": 0.9}),
]


@pytest.mark.parametrize("kind", KINDS, ids=[k[0] for k in KINDS])
@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("est", ESTIMATORS)
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_reference(seed, est, missing, kind):
    _, cls, ours, theirs = kind
    X, y, Xt, cards, nc = _data(seed)
    assert (X < 0).any() and (Xt < 0).any()
    clf = cls(estimator=est, missing=missing, cardinalities=cards, n_classes=nc, **ours).fit(X, y)
    want, gone = ref_subsumption(X, y, Xt, nc, cards, estimator=est, missing=missing, **theirs)
    deleted = clf.deleted_attributes(Xt)
    assert [set(np.flatnonzero(d).tolist()) for d in deleted] == gone
    assert sum(map(len, gone)) >= 5  # the rules fire
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)
    el = clf.prediction_info(Xt)["elimination"]
    assert el == pytest.approx(np.mean([len(g) / X.shape[1] for g in gone]), abs=1e-15)


@pytest.mark.parametrize("missing", ["value", "skip"])
def test_min_freq_and_m(missing):
    """AODE's superparent frequency limit and m ≠ 1 on top of SR and NSR."""
    X, y, Xt, cards, nc = _data(5)
    cases: list[tuple[type[SR | NSR], dict[str, Any], dict[str, Any]]] = [
        (SR, {"sr_min_freq": 3}, {"sr_min_freq": 3}),
        (NSR, {"sr_min_freq": 3, "nsr_ratio": 0.85}, {"sr_min_freq": 3, "nsr_ratio": 0.85})]
    for cls, ours, theirs in cases:
        clf = cls(m=2.5, missing=missing, min_freq=12, cardinalities=cards, n_classes=nc, **ours).fit(X, y)
        want, gone = ref_subsumption(X, y, Xt, nc, cards, m=2.5, missing=missing, min_freq=12, **theirs)
        assert [set(np.flatnonzero(d).tolist()) for d in clf.deleted_attributes(Xt)] == gone
        np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


def test_scan_in_several_blocks(monkeypatch):
    """The vectorised scan over blocks of 3 rows agrees with the reference."""
    monkeypatch.setattr(subsumption, "_SCAN_CELLS", 24)  # 8 attributes → 3 rows per block
    X, y, Xt, cards, nc = _data(3, n_test=17)
    clf = SR(sr_min_freq=4, missing="skip", cardinalities=cards, n_classes=nc).fit(X, y)
    want, gone = ref_subsumption(X, y, Xt, nc, cards, sr_min_freq=4, missing="skip")
    assert [set(np.flatnonzero(d).tolist()) for d in clf.deleted_attributes(Xt)] == gone
    np.testing.assert_allclose(clf.predict_proba(Xt), np.array(want), rtol=0, atol=1e-12)


# -- hand-worked examples ----------------------------------------------------------------------
# a0 and a1 always co-occur; every row with a2 = 0 has a3 = 0 (a3 = 0 generalises a2 = 0).
HAND_X = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1],
                   [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]])
HAND_Y = np.array([0, 1, 0, 1, 0, 0, 1, 1])
HAND_T = np.array([[0, 0, 0, 0]])


def test_tie_rule_by_hand():
    """x = (0, 0, 0, 0): N(a0=0) = N(a1=0) = N(a2=0) = 4, N(a3=0) = 6; N(a0, a1) = 4,
    N(a2, a3) = 4, N(a0, a2) = N(a1, a2) = 2, N(a0, a3) = N(a1, a3) = 3. With N(x_j) > 3 every
    value is a candidate. i = 0: j = 1 covers it but the two co-occur and 0 < 1 → passed over;
    kept. i = 1: j = 0 covers it, 1 > 0 → deleted. i = 2: nothing covers a2 = 0 (N(a2, a3) = 4 ≠ 6).
    i = 3: j = 2 covers it (N(a3, a2) = 4 = N(a2)) with N(a3) ≠ N(a2) → deleted. So {1, 3}: only the
    larger index of the co-occurring pair, and the generalisation a3."""
    kw: dict[str, Any] = {"estimator": "laplace", "cardinalities": [2, 2, 2, 2], "n_classes": 2}
    clf = SR(sr_min_freq=3, **kw).fit(HAND_X, HAND_Y)
    assert clf.deleted_attributes(HAND_T).tolist() == [[False, True, False, True]]
    assert clf.prediction_info(HAND_T) == {"elimination": 0.5}
    # AODE over a0 and a2 with Laplace (N = 8, |Y| = 2, binary attributes):
    # parent a0=0 (rows 0–3; y=0: rows 0, 2; y=1: rows 1, 3): P̂(y, a0) = 3/12 for both classes,
    #   P̂(a2=0 | y, a0=0) = (1+1)/(2+2) = 1/2 for both;
    # parent a2=0 (rows 0, 1, 4, 5; y=0: 0, 4, 5; y=1: 1): P̂(y=0, a2) = 4/12, P̂(y=1, a2) = 2/12,
    #   P̂(a0=0 | y=0, a2=0) = (1+1)/(3+2) = 2/5, P̂(a0=0 | y=1, a2=0) = (1+1)/(1+2) = 2/3.
    # y=0: 3/12·1/2 + 4/12·2/5 = 31/120; y=1: 3/12·1/2 + 2/12·2/3 = 17/72 → P(y=0|x) = 93/178.
    p0 = Fraction(31, 120) / (Fraction(31, 120) + Fraction(17, 72))
    assert p0 == Fraction(93, 178)
    np.testing.assert_allclose(clf.predict_proba(HAND_T), [[93 / 178, 85 / 178]], rtol=0, atol=1e-15)
    # strict N(x_j) > 4: only a3 = 0 (N = 6) is a candidate and it covers nothing → no deletion
    assert not SR(sr_min_freq=4, **kw).fit(HAND_X, HAND_Y).deleted_attributes(HAND_T).any()
    # non-strict N(x_j) ≥ 4: as with > 3
    got = SR(sr_min_freq=4, sr_strict=False, **kw).fit(HAND_X, HAND_Y).deleted_attributes(HAND_T)
    assert got.tolist() == [[False, True, False, True]]
    # NSR with ratio 1 and l = 4 is SR with the non-strict test
    got = NSR(sr_min_freq=4, nsr_ratio=1.0, **kw).fit(HAND_X, HAND_Y).deleted_attributes(HAND_T)
    assert got.tolist() == [[False, True, False, True]]


def test_scan_skip_rule_by_hand():
    """100 rows (a0=0, a1=0), 1 row (1, 0), 99 rows (1, 1); x = (0, 0): N(a0=0) = 100,
    N(a1=0) = 101, N(a0, a1) = 100.
    SR (l = 1): i = 0: N(a0, a1) = 100 ≠ N(a1) = 101, kept; i = 1: N(a1, a0) = 100 = N(a0) and
    the frequencies differ → a1 deleted (a1 = 0 generalises a0 = 0).
    NSR (l = 1, r = 0.99): i = 0: 100 ≥ 0.99·101 = 99.99 → a0 deleted as a near-generalisation of
    a1; i = 1: j = 0 is marked as a generalisation of 1 → skipped, so a1 stays (without the rule
    both would go)."""
    X = np.array([[0, 0]] * 100 + [[1, 0]] + [[1, 1]] * 99)
    y = np.arange(200) % 2
    T = np.array([[0, 0]])
    kw: dict[str, Any] = {"cardinalities": [2, 2], "n_classes": 2}
    assert SR(sr_min_freq=1, **kw).fit(X, y).deleted_attributes(T).tolist() == [[False, True]]
    assert NSR(sr_min_freq=1, nsr_ratio=0.99, **kw).fit(X, y).deleted_attributes(T).tolist() == [[True, False]]
    # ratio 0.995 > 100/101: no near-generalisation either way except the exact one (a1 ⊇ a0)
    assert NSR(sr_min_freq=1, nsr_ratio=0.995, **kw).fit(X, y).deleted_attributes(T).tolist() == [[False, True]]


@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("lim", [1, 4, 9])
def test_nsr_ratio_one_is_sr_nonstrict(lim, missing):
    fired = 0
    for seed in (0, 2):
        X, y, Xt, cards, nc = _data(seed, n_train=150, n_test=60, p_missing=0.01)
        kw = {"missing": missing, "cardinalities": cards, "n_classes": nc, "sr_min_freq": lim}
        sr = SR(sr_strict=False, **kw).fit(X, y)
        nsr = NSR(nsr_ratio=1.0, **kw).fit(X, y)
        d = sr.deleted_attributes(Xt)
        fired += int(d.sum())
        np.testing.assert_array_equal(nsr.deleted_attributes(Xt), d)
        np.testing.assert_array_equal(nsr.predict_proba(Xt), sr.predict_proba(Xt))
    assert fired > 0


# -- parameters and the estimator API ----------------------------------------------------------
@pytest.mark.parametrize("bad", [0.0, -0.5, 1.01, 2, True, "0.9", float("nan")])
def test_nsr_ratio_validated(bad):
    X, y, _, cards, nc = _data(0)
    with pytest.raises(ValueError, match="nsr_ratio"):
        NSR(nsr_ratio=bad, cardinalities=cards, n_classes=nc).fit(X, y)


@pytest.mark.parametrize("cls,param,bad", [(SR, "sr_min_freq", -1), (SR, "sr_min_freq", 2.5),
                                           (NSR, "sr_min_freq", True), (SR, "sr_strict", "yes")])
def test_other_parameters_validated(cls, param, bad):
    X, y, _, cards, nc = _data(0)
    with pytest.raises(ValueError, match=param):
        cls(cardinalities=cards, n_classes=nc, **{param: bad}).fit(X, y)


def test_defaults_and_prediction_leaves_state():
    assert SR().get_params() == {"estimator": "mestimate", "m": 1.0, "missing": "value", "cardinalities": None,
                                      "n_classes": None, "min_freq": 1, "sr_min_freq": 50, "sr_strict": True}
    assert NSR().get_params()["nsr_ratio"] == 0.99 and NSR().get_params()["sr_min_freq"] == 50
    X, y, Xt, cards, nc = _data(1)
    clf = SR(sr_min_freq=4, cardinalities=cards, n_classes=nc).fit(X, y)
    before = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in vars(clf).items()}
    clf.predict_proba(Xt)
    clf.prediction_info(Xt)
    assert vars(clf).keys() == before.keys()
    for k, v in vars(clf).items():
        assert (np.array_equal(v, before[k]) if isinstance(v, np.ndarray) else v is before[k]), k


# -- Weka 3.6 AODEsr ---------------------------------------------------------------------------
WEKA_CONFIG = """
name: weka-sr
datasets: [{name}]
preprocess: {{missing: skip, discretizer: mdl, mdl_method: weka, scope: fold}}
cv: {{scheme: stratified, folds: 3, runs: 1, seed: 1}}
estimator: mestimate
classifiers: [NB]
"""

# (Weka options, our parameters): the m-estimate default (m = 1), another m, Laplace (-L); the
# default critical value 50 and 5 (more deletions)
WekaCase = tuple[tuple[str, ...], dict[str, Any]]
WEKA_CASES: list[WekaCase] = [
    ((), {}),
    (("-C", "5"), {"sr_min_freq": 5}),
    (("-C", "5", "-M", "2.5"), {"sr_min_freq": 5, "m": 2.5}),
    (("-L", "-C", "5"), {"sr_min_freq": 5, "estimator": "laplace"}),
]
# data sets where subsumption fires (all but hypothyroid with missing values): (has missing
# values, extra cases); soybean's -F 300 sends rows with deletions to the naive-Bayes fallback
# (Weka's: every known attribute)
WEKA_DATASETS: dict[str, tuple[bool, list[WekaCase]]] = {
    "house-votes-84": (True, []),
    "soybean": (True, [(("-C", "5", "-F", "300"), {"sr_min_freq": 5, "min_freq": 300})]),
    "hypothyroid": (False, []), "mushrooms": (True, [])}


def _load(path):
    from bncbench.data.loaders import build_dataset, parse_arff

    return build_dataset("t", parse_arff(path.read_text(), str(path)), -1)


@pytest.mark.weka
@pytest.mark.parametrize("name", list(WEKA_DATASETS))
def test_posteriors_equal_weka_aodesr(weka, mirror, tmp_path, monkeypatch, name):
    monkeypatch.setenv("BNCBENCH_MIRROR", str(mirror))
    cfg = tmp_path / "weka.yaml"
    cfg.write_text(WEKA_CONFIG.format(name=name))
    out = tmp_path / "folds"
    folds(str(cfg), dataset=name, out=str(out))  # `bncbench folds`, in this process
    deleted: dict[tuple[str, ...], int] = {}
    for f in range(3):
        train, test = out / f"{name}-r0-f{f}-train.arff", out / f"{name}-r0-f{f}-test.arff"
        tr, te = _load(train), _load(test)
        cards = [len(a.values) for a in tr.attributes]
        Xtr, Xte = np.column_stack(tr.columns), np.column_stack(te.columns)
        has_missing, extra = WEKA_DATASETS[name]
        assert (Xtr < 0).any() == has_missing
        for opts, kw in WEKA_CASES + extra:
            want = np.loadtxt(weka("dist", "AODEsr", str(train), str(test), *opts).splitlines(), ndmin=2)
            clf = SR(missing="skip", cardinalities=cards, n_classes=len(tr.classes), **kw).fit(Xtr, tr.y)
            np.testing.assert_allclose(clf.predict_proba(Xte), want, rtol=0, atol=1e-6, err_msg=f"{opts} fold {f}")
            deleted[opts] = deleted.get(opts, 0) + int(clf.deleted_attributes(Xte).sum())
    assert deleted[("-C", "5")] > 0  # subsumption fired
    if name != "house-votes-84":
        assert deleted[()] > 0  # also at Weka's default critical value
