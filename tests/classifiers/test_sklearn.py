"""Every classifier is a scikit-learn estimator: the whole `check_estimator` suite, clone,
model selection, class labels of any type, input checking, unseen value codes, one-class
training, float codes from scikit-learn's encoders, and the engine's fast path."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
import pytest
import sklearn.utils.validation
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import KBinsDiscretizer, OrdinalEncoder
from sklearn.utils.estimator_checks import parametrize_with_checks

from bncbench.classifiers import NB, REGISTRY, TAN
from bncbench.classifiers.estimator_api import ClassifierAPI

#: every registered classifier
CLASSES = list(REGISTRY.values())

#: checks of scikit-learn's suite that contradict the discrete-codes contract, with the reason
EXPECTED_FAILED_CHECKS = {
    "check_fit_non_negative": "−1 is the missing-value code: the check's X = [[-1, 1], [-1, 1]] is valid "
                              "input (attribute 0 missing in every row); codes below −1 raise "
                              "'Negative values in data' (checked by test_negative_codes)",
}

#: the parameter settings the check suite runs per registered classifier (other code paths: sparse
#: parent configurations, skip mode, other estimators); a classifier not listed runs at its defaults
SETTINGS: dict[str, list[dict]] = {
    "KDB": [{}, dict(k=2, backoff=True, missing="skip")],
    "AODE": [{}, dict(missing="skip", estimator="laplace", min_freq=2)],
    "STAN": [{}, dict(ranking="cmim", estimator="laplace_joint", loo_backoff=True, include_empty=True)],
    "SKDB": [{}, dict(k_max=2, select_k=False, skdb_variant="textbook", estimator="laplace")],
    "AIT": [{}, dict(base="KDB", k=2, info_precision="float32"),
            dict(base="KDB", k=1, cip_structure="per_label", missing="skip", estimator="laplace")],
    "CFWNB": [{}, dict(cfwnb_mi="smoothed", missing="skip")],
    "FKDB": [{}, dict(k=3, missing="skip")],
    "TAODE": [{}, dict(taode_weight="log_likelihood", missing="skip")],
    "IWAODE": [{}, dict(iwaode_weight_power="once", estimator="laplace_joint")],
    "CAA": [dict(wrapper_loss="zol", missing="skip")],
    "PAE": [dict(estimator="laplace_joint")],
    "CAE": [dict(min_freq=3)],
    "SR": [{}, dict(sr_min_freq=2, sr_strict=False, missing="skip", estimator="laplace")],
    "NSR": [dict(sr_min_freq=2)],
    "RC": [dict(rc_min_support=3)],
    "SPRC": [dict(rc_min_support=2, rc_remove_as_parent=True, missing="skip")],
    "KBAN": [{}, dict(k=1, kban_eval="train")],
    "BAN": [dict(method="hc"), {}],
}
assert set(SETTINGS) <= set(REGISTRY), set(SETTINGS) - set(REGISTRY)
ESTIMATORS = [cls(**params) for name, cls in REGISTRY.items() for params in SETTINGS.get(name, [{}])]


# The classifiers implement scikit-learn's estimator API themselves (classifiers/estimator_api.py:
# a run imports no scikit-learn), so the suite warns once per estimator that it does not inherit
# BaseEstimator; every check runs all the same.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*does not inherit from `sklearn.base.BaseEstimator`",
                            category=UserWarning)
    CHECKS = parametrize_with_checks(ESTIMATORS, expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS,
                                     xfail_strict=True)


@CHECKS
def test_check_estimator(estimator, check):
    check(estimator)


def test_expected_failures_are_few():
    assert len(EXPECTED_FAILED_CHECKS) <= 5


# -- data ---------------------------------------------------------------------------------
def discrete_data(seed=0, n=240, n_attr=6, n_classes=3, p_missing=0.0):
    """Value codes that depend on the class (and on the previous attribute)."""
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 5, size=n_attr)
    y = rng.integers(0, n_classes, size=n)
    X = np.empty((n, n_attr), dtype=np.int64)
    for i in range(n_attr):
        base = (y + (X[:, i - 1] if i else 0)) % cards[i]
        X[:, i] = np.where(rng.random(n) < 0.75, base, rng.integers(0, cards[i], size=n))
    X[rng.random(X.shape) < p_missing] = -1
    return X, y


def _non_default_params(cls) -> dict:
    """A value other than the default for every constructor parameter."""
    out = {}
    for name, p in inspect.signature(cls.__init__).parameters.items():
        if name == "self":
            continue
        d = p.default
        if name == "missing":  # the other mode where the model has one
            out[name] = next((c for c in cls.SUPPORTED_MISSING if c != d), d)
        elif name in cls.PARAMS and cls.PARAMS[name].choices:  # another choice where there is one
            out[name] = next((c for c in cls.PARAMS[name].choices if c != d), d)
        elif isinstance(d, bool):
            out[name] = not d
        elif isinstance(d, int):
            out[name] = d + 1
        elif name == "nsr_ratio":  # NSR: a ratio in (0, 1]
            out[name] = 0.9
        elif isinstance(d, float):
            out[name] = d + 0.5
        elif name == "cardinalities":
            out[name] = [4, 4, 4, 4, 4, 4]
        elif name == "n_classes":
            out[name] = 3
        elif name == "local_k":  # AIT: the local KDB's k (None = the global k)
            out[name] = 1
        else:
            raise AssertionError(f"no test value for {cls.__name__}({name}=...)")
    if out.get("cii") is False and out.get("cip") is False:  # AIT needs one of its two networks
        out["cip"] = True
    return out


# -- estimator API ------------------------------------------------------------------------
@pytest.mark.parametrize("cls", CLASSES)
def test_params_stored_unchanged_and_clone(cls):
    params = _non_default_params(cls)
    est = cls(**params)
    got = est.get_params()
    assert got == params and all(got[k] is v for k, v in params.items())
    c = clone(est)
    assert c is not est and c.get_params() == params
    X, y = discrete_data()
    c.fit(X, y)
    assert not hasattr(clone(c), "classes_")  # a clone is unfitted
    assert c.set_params(m=3.0) is c and c.m == 3.0 and est.m == params["m"]


def _sklearn_twin(est):
    """An object of a scikit-learn estimator class (ClassifierMixin, BaseEstimator) with `est`'s
    class name, constructor signature and attributes: scikit-learn's own API on the same values."""
    twin = type(type(est).__name__, (ClassifierMixin, BaseEstimator), {"__init__": type(est).__init__})
    out: Any = object.__new__(twin)
    out.__dict__.update(vars(est))
    return out


class _Nested(NB):
    """A classifier with an estimator among its parameters (scikit-learn's nested `inner__m` keys)."""

    def __init__(self, *, inner=None, m: float = 1.0):
        super().__init__(m=m)
        self.inner = inner


@pytest.mark.parametrize("cls", [*CLASSES, _Nested])
def test_estimator_api_is_scikit_learns(cls):
    """classifiers/estimator_api.py against scikit-learn's BaseEstimator and ClassifierMixin (the
    oracle): get_params (deep or not), set_params (nested keys; the error for an unknown name), the
    repr of changed parameters (scikit-learn's line breaks aside) and a classifier's tags."""
    params = {"inner": TAN(m=2.0), "m": 3.0} if cls is _Nested else _non_default_params(cls)
    for est in (cls(), cls(**params), cls(m=0.5)):
        twin = _sklearn_twin(est)
        for deep in (True, False):
            assert list(est.get_params(deep).items()) == list(twin.get_params(deep).items())
        assert repr(est).split() == repr(twin).split()
        with pytest.raises(ValueError) as ours:
            est.set_params(nope=1)
        with pytest.raises(ValueError) as theirs:
            twin.set_params(nope=1)
        assert str(ours.value).split() == str(theirs.value).split() and "Invalid parameter 'nope'" in str(ours.value)
    assert ClassifierAPI.__sklearn_tags__(cls()) == _sklearn_twin(cls()).__sklearn_tags__()
    if cls is _Nested:
        est = cls(**params)
        assert est.set_params(inner__m=5.0, m=4.0) is est and est.inner.m == 5.0 and est.m == 4.0
        assert est.get_params()["inner__m"] == 5.0 and est.inner is params["inner"]


@pytest.mark.parametrize("cls", CLASSES)
def test_not_fitted(cls):
    X, _ = discrete_data()
    for method in ("predict", "predict_proba", "predict_log_proba", "score"):
        args = (X, np.zeros(len(X))) if method == "score" else (X,)
        with pytest.raises(NotFittedError):
            getattr(cls(), method)(*args)


@pytest.mark.parametrize("cls", CLASSES)
def test_cross_val_score_and_score(cls):
    X, y = discrete_data()
    scores = cross_val_score(cls(), X, y, cv=5)
    assert scores.shape == (5,) and scores.mean() > 0.6
    clf = cls().fit(X, y)
    assert clf.score(X, y) == np.mean(clf.predict(X) == y)
    assert clf.n_features_in_ == X.shape[1]


@pytest.mark.parametrize("cls", CLASSES)
def test_grid_search_over_m_and_estimator(cls):
    X, y = discrete_data(1)
    grid: dict[str, list[float] | list[str]] = {"m": [0.5, 2.0], "estimator": ["mestimate", "laplace", "laplace_joint"]}
    gs = GridSearchCV(cls(), grid, cv=3).fit(X, y)
    assert gs.best_params_["m"] in grid["m"] and gs.best_params_["estimator"] in grid["estimator"]
    assert np.isfinite(gs.cv_results_["mean_test_score"]).all()
    # the m-estimate's m changes the fit; the Laplace estimators ignore it
    s = gs.cv_results_["mean_test_score"].reshape(3, 2)  # [estimator, m] (ParameterGrid: sorted keys)
    assert s[1, 0] == s[1, 1]
    assert gs.best_estimator_.predict(X).shape == y.shape


# -- class labels -------------------------------------------------------------------------
@pytest.mark.parametrize("cls", CLASSES)
def test_string_labels(cls):
    X, y = discrete_data(2, n_classes=2)
    labels = np.array(["no", "yes"])[y]
    clf = cls().fit(X, labels.tolist())
    assert clf.classes_.tolist() == ["no", "yes"]
    pred = clf.predict(X)
    assert set(pred) <= {"no", "yes"} and pred.dtype.kind == "U"
    ref = cls().fit(X, y)  # the same model on the codes 0/1
    np.testing.assert_array_equal(clf.predict_proba(X), ref.predict_proba(X))
    np.testing.assert_array_equal(pred, np.array(["no", "yes"])[ref.predict(X)])
    assert clf.score(X, labels) == ref.score(X, y)


@pytest.mark.parametrize("cls", CLASSES)
def test_labels_of_other_types(cls):
    X, y = discrete_data(3)
    for labels in ([2.0, -1.0, 7.0], [10, 20, 30], ["b", "c", "a"]):
        yl = np.array(labels)[y]
        clf = cls().fit(X, yl)
        np.testing.assert_array_equal(clf.classes_, np.sort(labels))
        order = np.argsort(labels)  # classes_ is sorted: column c of the proba is label sorted(labels)[c]
        ref = cls().fit(X, np.argsort(order)[y])
        np.testing.assert_array_equal(clf.predict_proba(X), ref.predict_proba(X))
        assert set(clf.predict(X)) <= set(labels)


@pytest.mark.parametrize("cls", CLASSES)
def test_engine_path_class_codes(cls):
    """n_classes given (the runner): y holds codes, classes_ = arange(n_classes) even for a
    class absent from y, and the probabilities have a column for it."""
    X, y = discrete_data(4, n_classes=3)
    y = np.where(y == 2, 0, y).astype(np.int32)
    clf = cls(cardinalities=X.max(axis=0) + 1, n_classes=4).fit(X, y)
    np.testing.assert_array_equal(clf.classes_, np.arange(4))
    assert clf.predict_proba(X).shape == (len(X), 4)
    with pytest.raises(ValueError, match="class code"):
        cls(n_classes=1).fit(X, y)
    with pytest.raises(ValueError, match="n_classes"):
        cls(n_classes=3).fit(X, np.array(["a", "b", "c"])[y])


@pytest.mark.parametrize("cls", CLASSES)
def test_one_class(cls):
    X, _ = discrete_data(5)
    clf = cls().fit(X, ["yes"] * len(X))
    assert clf.classes_.tolist() == ["yes"]
    assert (clf.predict(X) == "yes").all()
    np.testing.assert_array_equal(clf.predict_proba(X), np.ones((len(X), 1)))


# -- input checking -----------------------------------------------------------------------
@pytest.mark.parametrize("cls", CLASSES)
def test_bad_input_raises_clear_errors(cls):
    X, y = discrete_data(6)
    Xf = X.astype(float)
    for bad, match in ((np.nan, "NaN"), (np.inf, "infinity"), (1.5, "integer value codes"),
                       (-2, "Negative values in data")):
        Xb = Xf.copy()
        Xb[3, 2] = bad
        with pytest.raises(ValueError, match=match):
            cls().fit(Xb, y)
        with pytest.raises(ValueError, match=match):
            cls().fit(X, y).predict_proba(Xb)
    with pytest.raises(ValueError, match="requires y to be passed"):
        cls().fit(X, None)
    with pytest.raises(ValueError, match="Unknown label type"):
        cls().fit(X, np.linspace(0, 1, len(X)))  # a continuous target
    with pytest.raises(ValueError, match="features"):
        cls().fit(X, y).predict(X[:, :-1])
    with pytest.raises(ValueError, match="m must be"):
        cls(m=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="cardinalities"):
        cls(cardinalities=[2] * X.shape[1]).fit(X, y)


def test_negative_codes():
    """The one expected failure: −1 (missing) is valid, below −1 is not."""
    X = np.array([[-1, 1], [-1, 1], [-1, 0]])
    for cls in CLASSES:
        assert cls().fit(X, [1, 2, 1]).predict(X).shape == (3,)
        with pytest.raises(ValueError, match="Negative values in data"):
            cls().fit(X - 1, [1, 2, 1])


# -- unseen value codes -------------------------------------------------------------------
@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("estimator", ["mestimate", "laplace", "laplace_joint"])
@pytest.mark.parametrize("missing", ["value", "skip"])
def test_unseen_codes_are_missing_values(cls, estimator, missing):
    """A code never seen in training is a missing value at predict time (documented in
    BayesNetClassifier): never an exception, and the same posterior as −1."""
    X, y = discrete_data(7, p_missing=0.05)
    X[:, 1] = np.where(X[:, 1] < 0, 0, X[:, 1])  # attribute 1: no missing value in training
    if missing not in cls.SUPPORTED_MISSING:  # refused with a clear message
        with pytest.raises(ValueError, match="missing"):
            cls(estimator=estimator, missing=missing).fit(X, y)
        return
    clf = cls(estimator=estimator, missing=missing).fit(X, y)
    Xt = X[:40].copy()
    unseen = np.zeros(Xt.shape, dtype=bool)
    unseen[::3, 1] = unseen[1::4, 4] = unseen[2::5, 0] = True
    Xt[unseen] = (clf.cardinalities_ + np.arange(Xt.shape[1]))[np.nonzero(unseen)[1]]  # codes ≥ K_i
    as_missing = np.where(unseen, -1, Xt)
    got = clf.predict_proba(Xt)
    assert np.isfinite(got).all()
    np.testing.assert_array_equal(got, clf.predict_proba(as_missing))
    np.testing.assert_array_equal(clf.predict(Xt), clf.predict(as_missing))


def test_unseen_code_in_value_mode_is_a_zero_count_value():
    """missing="value", no missing value of the attribute in training: NB's factor of an
    unseen code is the m-estimate of a zero count, (0 + m/|X_i|) / (N_y + m)."""
    X, y = discrete_data(8, n_attr=3)
    clf = NB(m=1.0).fit(X, y)
    Xt = np.array([[0, int(clf.cardinalities_[1]) + 3, 1]])
    counts = np.bincount(y, minlength=3).astype(float)
    jll = clf.log_prior_.copy()
    for i, v in enumerate(Xt[0]):
        if i == 1:
            jll += np.log((0 + 1.0 / clf.card_[1]) / (counts + 1.0))
        else:
            jll += clf.log_cond_[i][v]
    want = np.exp(jll - jll.max())
    np.testing.assert_allclose(clf.predict_proba(Xt)[0], want / want.sum(), rtol=0, atol=1e-15)


# -- encoders and pipelines ---------------------------------------------------------------
@pytest.mark.parametrize("cls", CLASSES)
def test_float_codes_from_ordinal_encoder(cls):
    X, y = discrete_data(9)
    words = np.array(["red", "green", "blue", "grey", "pink"], dtype=object)
    Xs = words[X]
    enc = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
    Xf = enc.fit_transform(Xs)
    assert Xf.dtype == np.float64
    a = cls().fit(Xf, y)
    b = cls().fit(Xf.astype(np.int64), y)
    np.testing.assert_array_equal(a.predict_proba(Xf), b.predict_proba(Xf.astype(np.int64)))
    pipe = make_pipeline(OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1), cls())
    assert cross_val_score(pipe, Xs, np.array(["p", "q", "r"])[y], cv=4).mean() > 0.6
    unknown = Xs[:5].copy()
    unknown[:, 0] = "violet"  # an unknown category: the encoder's −1, a missing value
    assert pipe.fit(Xs, y).predict(unknown).shape == (5,)


def test_kbins_discretizer_pipeline():
    """sklearn's KBinsDiscretizer → TAN in cross_val_score: each fold's probabilities equal the
    plain-Python TAN reference's (tests/oracles/tan/tan.py) on the discretizer's codes, and the
    scores are the accuracies of the reference's predictions."""
    from tests.oracles.tan.tan import ref_tan

    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(KBinsDiscretizer(n_bins=5, encode="ordinal", strategy="uniform"), TAN())
    accuracy = []
    for tr, te in StratifiedKFold(5).split(X, y):
        pipe.fit(X[tr], y[tr])
        Ztr, Zte = (pipe[0].transform(Z).astype(np.int64) for Z in (X[tr], X[te]))
        want, _ = ref_tan(Ztr.tolist(), y[tr].tolist(), Zte.tolist(), 3, (Ztr.max(axis=0) + 1).tolist())
        want = np.array(want)
        np.testing.assert_allclose(pipe.predict_proba(X[te]), want, rtol=1e-9, atol=1e-12)
        top = np.sort(want, axis=1)
        assert (top[:, -1] - top[:, -2] > 1e-9).all()  # no near tie: the argmax is the reference's
        accuracy.append(np.mean(np.argmax(want, axis=1) == y[te]))
    scores = cross_val_score(pipe, X, y, cv=5)
    np.testing.assert_allclose(scores, accuracy, rtol=0, atol=1e-15)
    assert scores.mean() > 0.85


# -- the engine's fast path ---------------------------------------------------------------
@pytest.mark.parametrize("cls", CLASSES)
def test_int_codes_fast_path(cls, monkeypatch):
    """Integer codes without missing values reach the model as they are (no copy, no
    conversion) and check_array never runs inside predict_proba."""
    X, y = discrete_data(10)
    X = X.astype(np.int32)
    clf = cls(cardinalities=X.max(axis=0) + 1, n_classes=3).fit(X, y)
    seen = []
    inner = clf._joint_log_likelihood

    def recording_jll(Xc):
        seen.append(Xc)
        return inner(Xc)

    monkeypatch.setattr(clf, "_joint_log_likelihood", recording_jll)
    calls = []
    real = sklearn.utils.validation.check_array

    def counting_check_array(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(sklearn.utils.validation, "check_array", counting_check_array)
    clf.predict_proba(X)
    assert seen[0] is X and not calls
    Xm = X.copy()
    Xm[0, 0] = -1
    clf.predict_proba(Xm)
    assert seen[1][0, 0] == clf.cardinalities_[0] and Xm[0, 0] == -1 and not calls  # input left unchanged


def test_importing_the_package_does_not_import_sklearn():
    """`import bncbench.classifiers` and listing REGISTRY import no classifier module (so not
    scikit-learn, over a second); looking a name up imports its module only."""
    import subprocess
    import sys
    code = ("import sys; import bncbench.classifiers as c; names = list(c.REGISTRY); "
            "assert not [m for m in sys.modules if m.startswith(('sklearn', 'scipy'))], sorted(sys.modules); "
            "assert 'bncbench.classifiers.base' not in sys.modules; "
            "from bncbench.classifiers import NB; assert c.REGISTRY['NB'] is NB and NB.__name__ == 'NB'; "
            "assert 'bncbench.classifiers.tan.tan' not in sys.modules and len(names) == 22")
    subprocess.run([sys.executable, "-c", code], check=True)
