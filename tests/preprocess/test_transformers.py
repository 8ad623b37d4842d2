"""The scikit-learn transformers of bncbench.preprocess (EqualFrequencyDiscretizer, MDLDiscretizer,
MissingImputer): hand-worked vectors of docs/algorithms.md §8.2, Weka 3.6's cut points, sklearn's
SimpleImputer as the imputation oracle, check_estimator, and pipelines in cross_val_score."""

import bisect
import functools
import math
from collections import Counter
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from sklearn.base import TransformerMixin, clone
from sklearn.datasets import load_breast_cancer
from sklearn.exceptions import NotFittedError
from sklearn.impute import SimpleImputer
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import CategoricalNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import check_estimator

from bncbench.data import catalog
from bncbench.data.sources import SHIPPED_MIRROR
from bncbench.preprocess import (
    EqualFrequencyDiscretizer,
    MDLDiscretizer,
    MissingImputer,
)
from bncbench.preprocess.encode import (
    PreprocessSettings,
    dataset_matrix,
    encode_fold,
    nominal_mask,
)
from bncbench.preprocess.folds import make_folds
from tests.oracles import mdl as mdl_oracle
from tests.oracles.mdl import f32
from tests.oracles.nb.nb import ref_nb

# docs/algorithms.md §8.2 (Weka 3.6.14): a with one missing value, b, class c
A = np.array([1, 2, 2, 3, 3, 3, 4, 5, 6, 7, 8, np.nan, 9, 10], dtype=float)
B = np.array([1, 1, 2, 2, 3, 3, 4, 5, 5, 6, 7, 8, 9, 10], dtype=float)
C = np.array(list("ppppqqqqpqqqqq"))
AB = np.column_stack([A, B])

ALL = [EqualFrequencyDiscretizer(), EqualFrequencyDiscretizer(bins=3, method="weka"),
       EqualFrequencyDiscretizer(method="quantile"), MDLDiscretizer(),
       MDLDiscretizer(method="petal"), MissingImputer()]


# -- hand-worked vectors (§8.2) ------------------------------------------------------------
def test_eqfreq_weka_vector_cuts_and_codes():
    d = EqualFrequencyDiscretizer(method="weka").fit(AB)
    assert [c.tolist() for c in d.cuts_] == [[2.5, 3.5, 5.5, 8.5], [1.5, 3.5, 5.5, 8.5]]
    codes = d.transform(AB)
    assert codes.dtype == np.int32
    assert codes[:, 0].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3, -1, 4, 4]
    assert codes[:, 1].tolist() == [0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]
    assert d.n_bins_.tolist() == [5, 5]


def test_eqfreq_petal_vector_cuts_are_values_and_v_le_cut_goes_left():
    d = EqualFrequencyDiscretizer().fit(AB[:, :1])
    assert d.cuts_[0].dtype == np.float32 and d.cuts_[0].tolist() == [2, 3, 4, 7]
    assert d.transform(AB[:, :1])[:, 0].tolist() == [0, 0, 0, 1, 1, 1, 2, 3, 3, 3, 4, -1, 4, 4]
    # values outside the training range fall into the end bins
    assert d.transform([[-100.0], [100.0]])[:, 0].tolist() == [0, 4]


def test_mdl_vector_and_labels_of_any_type():
    d = MDLDiscretizer().fit(AB, C)
    assert [c.tolist() for c in d.cuts_] == [[], [2.5]]  # a: no cut ('All'), b: 2.5
    codes = d.transform(AB)
    assert codes[:, 0].tolist() == [0] * 11 + [-1] + [0, 0]
    assert codes[:, 1].tolist() == [0, 0, 0, 0] + [1] * 10
    assert d.classes_.tolist() == ["p", "q"]
    d2 = MDLDiscretizer().fit(AB, (C == "q").astype(int))
    assert [c.tolist() for c in d2.cuts_] == [[], [2.5]]


def test_mdl_classes_argument_declares_absent_classes():
    d = MDLDiscretizer(method="petal").fit(AB, C, classes=["p", "q", "r"])
    assert d.classes_.tolist() == ["p", "q", "r"] and [c.tolist() for c in d.cuts_] == [[], [2.5]]
    with pytest.raises(ValueError, match="not in classes"):
        MDLDiscretizer().fit(AB, C, classes=["p"])


def test_mdl_needs_y():
    with pytest.raises(ValueError, match="requires y"):
        MDLDiscretizer().fit(AB)
    with pytest.raises(ValueError):
        MDLDiscretizer().fit(AB, np.linspace(0, 1, AB.shape[0]))  # a continuous target


def test_petal_quirk_lowers_bins_of_later_columns_only():
    """§1.3: a column with fewer non-missing values than bins lowers the bin count for it and
    every later numeric column (petal only)."""
    n = 10
    first = np.arange(1, n + 1, dtype=float)
    few = np.full(n, np.nan)
    few[:3] = [5.0, 1.0, 3.0]
    X = np.column_stack([first, few, first])
    petal = EqualFrequencyDiscretizer().fit(X)
    assert petal.cuts_[0].tolist() == [2, 4, 6, 8]        # before the short column: 5 bins
    assert petal.cuts_[1].tolist() == [1, 3]              # 3 values: k = 3
    assert petal.cuts_[2].tolist() == [3, 6]              # after it: 3 bins, s = 10/3
    weka = EqualFrequencyDiscretizer(method="weka").fit(X)
    assert weka.cuts_[2].tolist() == weka.cuts_[0].tolist() == [2.5, 4.5, 6.5, 8.5]
    # a nominal column in between neither triggers nor resets the quirk
    Xn = np.column_stack([first, few, np.zeros(n), first])
    assert EqualFrequencyDiscretizer(categorical_features=[2]).fit(Xn).cuts_[3].tolist() == [3, 6]


def test_bins_and_method_are_validated_in_fit():
    for bad in (EqualFrequencyDiscretizer(bins=0), EqualFrequencyDiscretizer(bins=2.5),  # type: ignore[arg-type]
                EqualFrequencyDiscretizer(method="x"), MDLDiscretizer(method="x")):
        with pytest.raises(ValueError):
            bad.fit(AB, C)
    assert [c.tolist() for c in EqualFrequencyDiscretizer(bins=1).fit(AB).cuts_] == [[], []]


# -- categorical (nominal) columns -----------------------------------------------------------
def test_categorical_columns_pass_through_with_minus_one_for_missing():
    X = np.column_stack([A, [0, 2, 1, np.nan, 1, 0, -1, 2, 2, 1, 0, 0, 1, 2]])
    for d in (EqualFrequencyDiscretizer(categorical_features=[1]), MDLDiscretizer(categorical_features=[False, True])):
        d.fit(X, C)
        out = d.transform(X)
        assert out[:, 1].tolist() == [0, 2, 1, -1, 1, 0, -1, 2, 2, 1, 0, 0, 1, 2]
        assert d.cuts_[1] is None and d.is_categorical_.tolist() == [False, True] and d.n_bins_[1] == 3
        assert d.transform([[1.0, 7.0]])[0, 1] == 7  # an unseen code passes through
    with pytest.raises(ValueError, match="integer code"):
        EqualFrequencyDiscretizer(categorical_features=[0]).fit(np.array([[0.5], [1.0]]))


def test_categorical_codes_in_blocks_are_the_whole_column_rule():
    """Codes of a column longer than a few blocks (missing values, negatives, a ragged last block)
    are those of the rule applied to the whole column at once; a non-integer value in a later block
    is refused as one in the first."""
    from bncbench.preprocess import columns

    rng = np.random.default_rng(5)
    n = 2 * columns._ROWS + 1234
    col = rng.integers(-2, 7, n).astype(np.float64)
    col[rng.random(n) < 0.05] = np.nan
    expected = np.where(np.isnan(col) | (col < 0), -1, np.nan_to_num(col)).astype(np.int64)
    got = columns.categorical_codes(col, 0)
    assert got.dtype == np.int64 and np.array_equal(got, expected)
    assert np.array_equal(columns.categorical_codes(col[:0], 0), np.empty(0, np.int64))
    col[n - 3] = 2.5
    with pytest.raises(ValueError, match="categorical column 4 holds a value that is not an integer code"):
        columns.categorical_codes(col, 4)


def test_categorical_features_by_name_mask_index_and_errors():
    df = pd.DataFrame({"a": A, "colour": [0, 1] * 7, "b": B})
    by_name = EqualFrequencyDiscretizer(categorical_features=["colour"]).fit(df)
    by_mask = EqualFrequencyDiscretizer(categorical_features=[False, True, False]).fit(df)
    by_index = EqualFrequencyDiscretizer(categorical_features=np.array([1])).fit(df)
    for d in (by_name, by_mask, by_index):
        assert d.is_categorical_.tolist() == [False, True, False]
        np.testing.assert_array_equal(d.transform(df), by_name.transform(df))
    for bad in (["nope"], [3], [-1], [True, False], [0.5]):
        with pytest.raises(ValueError):
            EqualFrequencyDiscretizer(categorical_features=bad).fit(df)
    with pytest.raises(ValueError, match="no column names"):
        EqualFrequencyDiscretizer(categorical_features=["colour"]).fit(df.to_numpy())


# -- MissingImputer ------------------------------------------------------------------------
def test_imputer_hand_example():
    X = np.array([[0, 1.0, np.nan], [1, np.nan, np.nan], [1, 3.0, np.nan], [0, 4.0, np.nan],
                  [np.nan, 2.0, np.nan], [-1, np.nan, np.nan]])
    imp = MissingImputer(categorical_features=[0]).fit(X)
    assert imp.statistics_.tolist() == [0.0, 2.5, 0.0]  # mode tie 0/1 → 0; mean; all missing → 0
    out = imp.transform(X)
    assert out.dtype == np.float64 and not np.isnan(out).any()
    assert out[:, 0].tolist() == [0, 1, 1, 0, 0, 0] and out[:, 1].tolist() == [1, 2.5, 3, 4, 2, 2.5]
    assert imp.transform([[np.nan, np.nan, 7.0]]).tolist() == [[0.0, 2.5, 7.0]]


@pytest.mark.parametrize("seed", range(3))
def test_imputer_equals_simple_imputer(seed):
    """Independent oracle: sklearn's SimpleImputer (mean; most_frequent takes the smallest of
    tied values, as §1.1 asks; keep_empty_features fills an all-missing column with 0)."""
    rng = np.random.default_rng(seed)
    num = rng.normal(size=(80, 3)) * 10
    cat = rng.integers(0, 4, size=(80, 2)).astype(float)
    X = np.column_stack([num, cat])
    X[rng.random(X.shape) < 0.2] = np.nan
    X[:, 2] = np.nan
    imp = MissingImputer(categorical_features=[3, 4]).fit(X[:60])
    mean = SimpleImputer(strategy="mean", keep_empty_features=True).fit(X[:60, :3])
    mode = SimpleImputer(strategy="most_frequent").fit(X[:60, 3:])
    out = imp.transform(X)
    np.testing.assert_allclose(out[:, :3], mean.transform(X[:, :3]), rtol=1e-13, atol=0)  # summation order
    np.testing.assert_array_equal(out[:, 3:], mode.transform(X[:, 3:]))


# -- the runner encodes with the same objects ----------------------------------------------------
@pytest.mark.mirror
@pytest.mark.parametrize("method", ["weka", "petal"])
def test_runner_fold_encoding_is_the_transformer(mirror, isolated_cache, monkeypatch, method):
    monkeypatch.setenv("BNCBENCH_MIRROR", str(mirror))
    ds = catalog.load("hepatitis")  # nominal and numeric attributes, missing values
    folds = make_folds(ds.y, "petal", 10, 0, 0)
    train, test = np.flatnonzero(folds != 3), np.flatnonzero(folds == 3)
    X = dataset_matrix(ds)
    enc = encode_fold(ds, train, test, PreprocessSettings(missing="skip", discretizer="mdl", mdl_method=method), None)
    d = MDLDiscretizer(method=method, categorical_features=nominal_mask(ds)).fit(X[train], ds.y[train])
    np.testing.assert_array_equal(enc.X_train, d.transform(X[train]))
    np.testing.assert_array_equal(enc.X_test, d.transform(X[test]))
    assert all(c is None if a.nominal else np.array_equal(c, enc.cuts[i])
               for i, (a, c) in enumerate(zip(ds.attributes, d.cuts_)))
    s = PreprocessSettings(missing="impute", discretizer="eqfreq", eqfreq_method=method)
    enc = encode_fold(ds, train, test, s, None)
    imp = MissingImputer(categorical_features=nominal_mask(ds)).fit(X[train])
    e = EqualFrequencyDiscretizer(method=method, categorical_features=nominal_mask(ds)).fit(imp.transform(X[train]))
    np.testing.assert_array_equal(enc.X_test, e.transform(imp.transform(X[test])))


# -- Weka's cut points (independent oracle) ----------------------------------------------------
@pytest.mark.weka
@pytest.mark.parametrize("file", ["iris.arff", "diabetes.arff", "labor.arff"])
@pytest.mark.parametrize("method", ["eqfreq", "mdl"])
def test_weka_cut_points(weka, tmp_path, file, method):
    from bncbench.data.loaders import build_dataset, parse_arff

    path = tmp_path / file
    path.write_text((SHIPPED_MIRROR / "arff" / file).read_text())
    ds = build_dataset("t", parse_arff(path.read_text(), str(path)), -1)  # class = last attribute
    want = {int(p[0]): [float(x) for x in p[1:]] for p in map(str.split, weka("cuts", method, str(path)).splitlines())}
    nominal = nominal_mask(ds)
    X = dataset_matrix(ds)
    if method == "eqfreq":
        d = EqualFrequencyDiscretizer(method="weka", categorical_features=nominal).fit(X)
    else:
        d = MDLDiscretizer(method="weka", categorical_features=nominal).fit(X, ds.y)
    got = {i: c.tolist() for i, c in enumerate(d.cuts_) if c is not None}
    assert got and got == want
    codes = d.transform(X)
    assert ((codes == -1) == np.isnan(X)).all()


# -- scikit-learn API ----------------------------------------------------------------------
@pytest.mark.parametrize("est", ALL, ids=repr)
def test_check_estimator(est):
    # No expected failures: MDLDiscretizer declares its need for y (target_tags.required), so
    # the checks pass y to it and test that fit(X, None) raises.
    check_estimator(est, on_skip=None)  # check_array_api_input skips without SCIPY_ARRAY_API


@pytest.mark.parametrize("est", ALL, ids=repr)
def test_not_fitted_params_and_feature_names(est):
    with pytest.raises(NotFittedError):
        est.transform(AB)
    with pytest.raises(NotFittedError):
        est.get_feature_names_out()
    params = est.get_params()
    assert clone(est).get_params() == params and est.set_params(**params) is est
    df = pd.DataFrame(AB, columns=["width", "height"])
    est.fit(df, C)
    assert est.get_feature_names_out().tolist() == ["width", "height"]
    est.fit(AB, C)
    assert est.get_feature_names_out().tolist() == ["x0", "x1"]
    out = clone(est).set_output(transform="pandas").fit(df, C).transform(df)
    assert list(out.columns) == ["width", "height"]
    with pytest.raises(ValueError):
        est.transform(np.array([[1.0, np.inf]]))  # NaN is missing, infinity an error
    with pytest.raises(ValueError):
        est.transform(AB[:, :1])


def test_discretizer_output_is_int32_with_minus_one_only_for_nan():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4))
    X[rng.random(X.shape) < 0.3] = np.nan
    y = rng.integers(0, 2, 50)
    for d in (EqualFrequencyDiscretizer(), EqualFrequencyDiscretizer(method="weka"), MDLDiscretizer(),
              MDLDiscretizer(method="petal")):
        out = d.fit_transform(X, y)
        assert out.dtype == np.int32 and ((out == -1) == np.isnan(X)).all()
        assert (out.max(axis=0) < d.n_bins_).all()
        np.testing.assert_array_equal(out, d.fit(X.astype(np.float32), y).transform(X.astype(np.float32)))


# -- pipelines on raw numeric data with missing values ------------------------------------------
def _breast_cancer_with_nan(seed=0, rate=0.1):
    X, y = load_breast_cancer(return_X_y=True)
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < rate] = np.nan
    return X, y


def _categorical_nb():
    """sklearn's CategoricalNB after the transformers: −1 (missing) becomes code 0."""
    return make_pipeline(FunctionTransformer(lambda Z: Z + 1), CategoricalNB(min_categories=8))


def _oracle_eqfreq_petal(values):
    """§1.2 (a) from the spec: sorted float32 values v[0..m−1], k = min(5, m), s = m/k; for
    i = 1..k−1 the cut v[⌊s·i⌋ − 1] if it differs from the last kept cut and lies below the maximum."""
    v = sorted(f32(x) for x in values)
    m = len(v)
    k = min(5, m)
    cuts: list[float] = []
    for i in range(1, k):
        c = v[math.floor(m / k * i) - 1]
        if (not cuts or c != cuts[-1]) and c < v[-1]:
            cuts.append(c)
    return cuts


def _oracle_codes(kind, Xtr, ytr, Xte):
    """Codes of the training and test rows after `kind` ("mdl-weka", "mdl-petal", "impute-eqfreq"),
    fitted on the training rows, from the plain-Python references: MDL cuts from
    tests/oracles/mdl.py, equal-frequency cuts from the spec, the imputer's mean as an exact sum;
    a value goes to the first bin with v ≤ cut (float32 comparison for the petal rules), a missing
    value to −1."""
    out_tr, out_te = np.empty(Xtr.shape, dtype=np.int64), np.empty(Xte.shape, dtype=np.int64)
    for j in range(Xtr.shape[1]):
        col_tr, col_te = Xtr[:, j].tolist(), Xte[:, j].tolist()
        known = [v for v in col_tr if not math.isnan(v)]
        if kind == "impute-eqfreq":
            mean = math.fsum(known) / len(known)
            col_tr = [mean if math.isnan(v) else v for v in col_tr]
            col_te = [mean if math.isnan(v) else v for v in col_te]
            cuts, as32 = _oracle_eqfreq_petal(col_tr), True
        else:
            ys = [int(c) for v, c in zip(col_tr, ytr) if not math.isnan(v)]
            cuts, as32 = mdl_oracle.mdl_cuts(known, ys, 2, kind[4:]), kind == "mdl-petal"
        for out, col in ((out_tr, col_tr), (out_te, col_te)):
            out[:, j] = [-1 if math.isnan(v) else bisect.bisect_left(cuts, f32(v) if as32 else v) for v in col]
    return out_tr, out_te


PIPES: dict[str, Callable[[], list[TransformerMixin]]] = {
    "mdl-weka": lambda: [MDLDiscretizer()], "mdl-petal": lambda: [MDLDiscretizer(method="petal")],
    "impute-eqfreq": lambda: [MissingImputer(), EqualFrequencyDiscretizer()]}


@functools.cache
def _expected_folds():
    """Per pipe kind: [(train index, test index, oracle train codes, oracle test codes)] of the
    5 folds used below."""
    X, y = _breast_cancer_with_nan()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    return {kind: [(tr, te, *_oracle_codes(kind, X[tr], y[tr], X[te])) for tr, te in cv.split(X, y)]
            for kind in PIPES}


def _plain_nb_predict(Ztr, ytr, Zte, alpha=1.0, n_cat=8):
    """CategoricalNB(alpha=1, min_categories=8) on codes + 1, written out: argmax_y ln P(y) +
    Σ_i ln (N(x_i, y) + 1)/(N_y + 8) with P(y) = N_y/N (ties → the smaller class)."""
    N = len(ytr)
    ny = Counter(ytr.tolist())
    cnt = Counter((i, int(v), int(c)) for r, c in zip(Ztr, ytr) for i, v in enumerate(r))
    out = []
    for r in Zte:
        scores = [math.log(ny[c] / N) + sum(math.log((cnt[(i, int(v), c)] + alpha) / (ny[c] + alpha * n_cat))
                                            for i, v in enumerate(r)) for c in (0, 1)]
        out.append(0 if scores[0] >= scores[1] else 1)
    return np.array(out)


def test_pipelines_with_sklearn_classifier():
    """MDL (or imputer + equal frequency) → sklearn's CategoricalNB: each fold's transformed data
    equal the plain-Python references' codes, and the predictions those of a naive Bayes written
    out from them; cross_val_score is their accuracy."""
    X, y = _breast_cancer_with_nan()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    for kind in ("mdl-weka", "impute-eqfreq"):
        pipe = make_pipeline(*PIPES[kind](), _categorical_nb())
        accuracy = []
        for tr, te, Ztr, Zte in _expected_folds()[kind]:
            pipe.fit(X[tr], y[tr])
            np.testing.assert_array_equal(pipe[:-1].transform(X[te]), Zte, err_msg=kind)
            pred = _plain_nb_predict(Ztr + 1, y[tr], Zte + 1)
            np.testing.assert_array_equal(pipe.predict(X[te]), pred, err_msg=kind)
            accuracy.append(np.mean(pred == y[te]))
        scores = cross_val_score(pipe, X, y, cv=cv, error_score="raise")
        np.testing.assert_allclose(scores, accuracy, rtol=0, atol=1e-15)
        assert scores.mean() > 0.9


@pytest.mark.parametrize("name", ["NB", "TAN", "KDB", "AODE", "STAN"])
def test_pipelines_with_every_classifier(name):
    """Raw numeric data with NaN → MDL (weka, petal) or imputer + equal frequency → each bncbench
    classifier, in scikit-learn's cross_val_score: in every fold the pipeline's codes equal the
    plain-Python references' and its predictions those of the classifier fitted on those codes;
    the scores are their accuracies. NB's probabilities also equal the NB reference's
    (tests/oracles/nb/nb.py) on the first fold."""
    from bncbench.classifiers import REGISTRY

    cls = REGISTRY[name]
    X, y = _breast_cancer_with_nan()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    for kind, steps in PIPES.items():
        pipe = make_pipeline(*steps(), cls())
        accuracy = []
        for f, (tr, te, Ztr, Zte) in enumerate(_expected_folds()[kind]):
            pipe.fit(X[tr], y[tr])
            np.testing.assert_array_equal(pipe[:-1].transform(X[te]), Zte, err_msg=kind)
            direct = cls().fit(Ztr, y[tr])
            np.testing.assert_array_equal(pipe.predict_proba(X[te]), direct.predict_proba(Zte), err_msg=kind)
            pred = pipe.predict(X[te])
            accuracy.append(np.mean(pred == y[te]))
            if name == "NB" and f == 0:
                cards = Ztr.max(axis=0) + 1
                want = ref_nb(Ztr.tolist(), y[tr].tolist(), Zte.tolist(), 2, cards.tolist())
                np.testing.assert_allclose(pipe.predict_proba(X[te]), want, rtol=1e-9, atol=1e-12)
        scores = cross_val_score(pipe, X, y, cv=cv, error_score="raise")
        np.testing.assert_allclose(scores, accuracy, rtol=0, atol=1e-15)
        assert scores.mean() > 0.9, (name, kind)


@pytest.mark.mirror
def test_pipeline_on_hepatitis_from_the_mirror(mirror, isolated_cache, monkeypatch):
    """A mirror data set with nominal and numeric attributes and missing values, as a float matrix."""
    monkeypatch.setenv("BNCBENCH_MIRROR", str(mirror))
    ds = catalog.load("hepatitis")
    X, y, cat = dataset_matrix(ds), ds.y, nominal_mask(ds)
    assert np.isnan(X).any() and cat.any()
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    pipes = [make_pipeline(MDLDiscretizer(categorical_features=cat), _categorical_nb()),
             make_pipeline(MissingImputer(categorical_features=cat),
                           EqualFrequencyDiscretizer(categorical_features=cat), _categorical_nb())]
    from bncbench.classifiers import TAN

    pipes.append(make_pipeline(MDLDiscretizer(categorical_features=cat), TAN()))
    for pipe in pipes:
        assert cross_val_score(pipe, X, y, cv=cv, error_score="raise").mean() > 0.7


# -- one implementation: the runner and the transformers call the same functions -----------------
def test_runner_computes_what_the_public_transformers_fit():
    """encode.py computes the cut points and imputed values with the functions the exported
    transformers call (preprocess/discretize.py, imputation.py: no second copy), without their
    scikit-learn side; each transformer stays in its own module, named lazily by the package."""
    import bncbench.preprocess as pp
    from bncbench.data.dataset import Attribute, Dataset
    from bncbench.preprocess.encode import fit_cuts, fit_imputation

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 120)
    a, c = y + rng.normal(0, 0.7, 120), np.round(rng.normal(0, 1, 120) - y, 1)
    a[rng.random(120) < 0.1] = np.nan
    b = np.where(rng.random(120) < 0.1, -1, (y + rng.integers(0, 2, 120)) % 2).astype(np.int32)
    ds = Dataset(name="t", attributes=[Attribute("a"), Attribute("b", ["u", "v"]), Attribute("c")],
                 columns=[a, b, c], y=y, classes=["p", "q", "r"])
    rows, X, nominal = np.arange(100), dataset_matrix(ds), [1]

    def listed(cuts):
        return [None if c is None else c.tolist() for c in cuts]

    for method in ("petal", "weka", "quantile"):
        want = EqualFrequencyDiscretizer(bins=4, method=method, categorical_features=nominal).fit(X[rows]).cuts_
        assert listed(fit_cuts(ds, rows, PreprocessSettings(bins=4, eqfreq_method=method))) == listed(want)
    for method in ("weka", "petal"):
        mdl = MDLDiscretizer(method=method, categorical_features=nominal)
        want = mdl.fit(X[rows], y[rows], classes=[0, 1, 2]).cuts_
        assert listed(fit_cuts(ds, rows, PreprocessSettings(discretizer="mdl", mdl_method=method))) == listed(want)
        assert len(want[0]) and len(want[2])  # cut on both numeric attributes
    np.testing.assert_array_equal(fit_imputation(ds, rows),
                                  MissingImputer(categorical_features=nominal).fit(X[rows]).statistics_)
    for cls, module in ((EqualFrequencyDiscretizer, "equal_frequency"), (MDLDiscretizer, "mdl"),
                        (MissingImputer, "imputer")):
        assert cls.__module__ == f"bncbench.preprocess.{module}"
    assert (pp.EqualFrequencyDiscretizer, pp.MDLDiscretizer, pp.MissingImputer) == \
        (EqualFrequencyDiscretizer, MDLDiscretizer, MissingImputer)


def test_encoding_does_not_import_scikit_learn():
    """The runner's preprocessing (encode.py and what it imports) loads no scikit-learn."""
    import subprocess
    import sys

    code = ("import sys, numpy as np; from bncbench.preprocess import encode, folds\n"
            "assert not [m for m in sys.modules if m.startswith(('sklearn', 'scipy', 'pandas'))], sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)
