"""Base class of every classifier: scikit-learn's estimator API (estimator_api.py), input checking, internal codes, and
predict / predict_proba from the joint log-likelihood each model supplies (docs/algorithms.md §0)."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from bncbench.classifiers.estimator_api import ClassifierAPI, check_fitted
from bncbench.classifiers.kernels.counts import PairCounts, pair_counts
from bncbench.classifiers.kernels.params import MISSING_MODES, SHARED_PARAMS, Param
from bncbench.classifiers.learned import Learned


class BayesNetClassifier(ClassifierAPI):
    """Common machinery of every classifier: a scikit-learn classifier on discrete value codes (docs/algorithms.md §4).

    Parameters
    ----------
    estimator : {"mestimate", "laplace", "laplace_joint"}, default="mestimate"
        Probability estimator (§2).
    m : float, default=1.0
        Weight of the prior of the m-estimate.
    missing : {"value", "skip"}, default="value"
        How a missing value (−1) is treated.
    cardinalities : array-like of int of shape (n_features,), default=None
        K_i of each attribute; None: the largest code seen in training plus one.
    n_classes : int, default=None
        If given, y holds the class codes 0..n_classes−1.
    """

    #: whether fit uses the pairwise (x_i, x_j, y) counts (NB needs only (x_i, y))
    NEEDS_PAIRS = True
    #: the memory fit and predict_proba take beyond the count tables they are given, in sets of the
    #: (x_i, x_j, y) tables (V² × classes 8-byte values, whether counted or not), measured on wide
    #: data and rounded up (docs/cli.md: run); the run's memory estimate adds it (engine/memory.py).
    #: The default: one set, what a model deriving one table from the pair counts builds (TAN's
    #: conditional mutual information); a model building more declares more
    WORKING_TABLES: ClassVar[float] = 1.0
    #: each constructor parameter's type, range and choices (the one declaration: checked by `fit`,
    #: by the config validator and against docs/cli.md's table); a subclass adds its own with
    #: `{**Parent.PARAMS, "p": Param(...)}`
    PARAMS: ClassVar[dict[str, Param]] = {
        "estimator": SHARED_PARAMS["estimator"], "m": SHARED_PARAMS["m"], "missing": Param(str, MISSING_MODES),
        "cardinalities": Param(object, none=True), "n_classes": Param(int, low=1, none=True)}
    #: the `missing` modes the model defines (the config validator refuses a preprocessing
    #: with `missing: skip` for a classifier without "skip")
    SUPPORTED_MISSING: ClassVar[tuple[str, ...]] = MISSING_MODES

    def __init__(self, *, estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities: Any = None, n_classes: int | None = None):
        self.estimator = estimator
        self.m = m
        self.missing = missing
        self.cardinalities = cardinalities
        self.n_classes = n_classes

    @classmethod
    def prepare_kernels(cls, params: dict, notify: Callable[[str], None], check: bool = False) -> bool:
        """Load the compiled kernels a fit with `params` uses, compiling them into the disk cache first
        where this machine has none (`notify` says so); with `check`, load none: only import their modules
        and say whether the cache lacks one (`jit.prepare`). True where it lacked one; none by default
        (docs/architecture.md)."""
        return False

    @classmethod
    def param_constraints(cls) -> dict[str, Param]:
        """Each constructor parameter's `Param`, in signature order: the declared one, or (a plug-in's
        undeclared parameter) one inferred from its default's type."""
        out = {}
        for name, p in inspect.signature(cls.__init__).parameters.items():
            if name == "self":
                continue
            kind = type(p.default) if isinstance(p.default, (bool, int, float, str)) else object
            out[name] = cls.PARAMS.get(name) or Param(kind, low=0 if kind in (int, float) else None,
                                                      none=p.default is None)
        return out

    def __sklearn_tags__(self):
        """A classifier's tags with the inputs of value codes of discrete attributes."""
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True  # codes ≥ 0 (−1 = missing is our one exception)
        tags.input_tags.sparse = False
        return tags

    # -- input handling -------------------------------------------------------------
    def _check_params(self) -> None:
        """The declared constraints (`param_constraints`) and `SUPPORTED_MISSING`; a model with rules
        across parameters adds them after calling this."""
        for name, param in self.param_constraints().items():
            param.check(name, getattr(self, name))
        if self.missing not in self.SUPPORTED_MISSING:
            raise ValueError(f"{type(self).__name__} supports missing={self.SUPPORTED_MISSING[0]!r} only, "
                             f"got missing={self.missing!r}")

    def _validate_X(self, X, reset: bool) -> tuple[np.ndarray, int, int]:
        """(integer codes, smallest code, largest code), X checked once (docs/algorithms.md §4)."""
        if type(X) is np.ndarray and X.ndim == 2 and X.dtype.kind in "iu" and X.size:
            self._no_categories(reset)
            if reset:  # an ndarray has no feature names
                if hasattr(self, "feature_names_in_"):
                    del self.feature_names_in_
                self.n_features_in_ = X.shape[1]
            elif getattr(self, "feature_names_in_", None) is not None \
                    or getattr(self, "n_features_in_", X.shape[1]) != X.shape[1]:
                from sklearn.utils.validation import validate_data

                validate_data(self, X, reset=reset, skip_check_array=True)  # warns / raises
        else:  # other input than integer codes: scikit-learn's checks
            from sklearn.utils.validation import validate_data

            if _is_dataframe(X):
                X = self._frame_codes(X, reset)
            else:
                self._no_categories(reset)
            try:
                X = validate_data(self, X, reset=reset, dtype="numeric", accept_sparse=False, ensure_all_finite=True)
            except ValueError as e:
                if "string" not in str(e):  # numpy's "could not convert string", scikit-learn's "bytes/strings"
                    raise
                raise ValueError(f"{type(self).__name__} needs value codes in X, got strings; pass a pandas "
                                 f"DataFrame with string or Categorical columns (coded by category), or code X "
                                 f"first (scikit-learn's OrdinalEncoder; continuous columns: "
                                 f"bncbench.preprocess.MDLDiscretizer or EqualFrequencyDiscretizer)") from None
            if X.dtype.kind == "f":
                Xi = X.astype(np.int64)
                bad = (Xi != X).any(axis=0)
                if bad.any():
                    names = getattr(self, "feature_names_in_", None)
                    j = int(np.argmax(bad))
                    column = f"column {names[j]!r}" if names is not None else f"column {j}"
                    raise ValueError(f"{type(self).__name__} needs integer value codes in X; {column} holds "
                                     f"non-integer values: discretise continuous attributes first with "
                                     f"bncbench.preprocess.MDLDiscretizer or EqualFrequencyDiscretizer, e.g. "
                                     f"make_pipeline(MDLDiscretizer(), {type(self).__name__}())")
                X = Xi
            elif X.dtype.kind not in "iu":
                X = X.astype(np.int64)  # bool
        lo, hi = int(X.min()), int(X.max())  # whole-array reductions: ~8× faster than per column
        if lo < -1:
            raise ValueError(f"Negative values in data passed to {type(self).__name__} (input X): value codes must be "
                             f"≥ 0, with −1 for a missing value; got {lo}")
        return X, lo, hi

    def _no_categories(self, reset: bool) -> None:
        """X is not a DataFrame: forget the categories of an earlier fit (reset), or refuse X
        when this fit coded categories (predict needs the same DataFrame columns)."""
        if reset:
            if hasattr(self, "categories_"):
                del self.categories_
        elif getattr(self, "categories_", None) is not None:
            raise ValueError(f"{type(self).__name__} was fitted on a DataFrame with Categorical or string columns; "
                             f"pass a DataFrame with the same columns")

    def _frame_codes(self, X, reset: bool):
        """The DataFrame X with its Categorical and string columns replaced by value codes (−1 =
        missing): at fit the categories are found and kept in `categories_`, at predict those
        of the fit are used, by value. Columns of value codes are left as they are."""
        import pandas as pd
        from pandas.api.types import infer_dtype, is_string_dtype

        def kind(col) -> str:
            if isinstance(col.dtype, pd.CategoricalDtype):
                return "categorical"
            if col.dtype.kind == "O" or is_string_dtype(col.dtype):
                inferred = infer_dtype(col, skipna=True)
                if inferred in ("string", "empty"):
                    return "string"
                if inferred not in ("integer", "floating", "mixed-integer-float", "boolean", "decimal"):
                    raise ValueError(f"{type(self).__name__}: column {col.name!r} holds values of several types "
                                     f"({inferred}); make it strings, a pandas Categorical or value codes")
            return "codes"

        kinds = [kind(X.iloc[:, j]) for j in range(X.shape[1])]
        if reset:
            if all(k == "codes" for k in kinds):
                self._no_categories(reset)
                return X
            cats: list = []
            for j, k in enumerate(kinds):
                col = X.iloc[:, j]
                if k == "categorical":
                    cats.append(np.asarray(col.cat.categories, dtype=object))
                elif k == "string":
                    cats.append(np.array(sorted(pd.unique(col.dropna())), dtype=object))
                else:
                    cats.append(None)
            self.categories_ = cats
        else:
            cats = getattr(self, "categories_", None) or [None] * X.shape[1]
            if len(cats) != X.shape[1]:
                return X  # validate_data reports the number of features
            for j, (k, c) in enumerate(zip(kinds, cats)):
                if (k == "codes") != (c is None):
                    what = "value codes" if c is None else "Categorical or string values"
                    raise ValueError(f"{type(self).__name__}: column {X.columns[j]!r} held {what} in fit; got "
                                     f"{'value codes' if k == 'codes' else 'Categorical or string values'}")
        if all(c is None for c in cats):
            return X
        out = X.copy(deep=False)
        for j, c in enumerate(cats):
            if c is not None:  # by value: a missing or unseen value gets −1
                values = np.asarray(X.iloc[:, j], dtype=object)
                out.isetitem(j, pd.Index(c, dtype=object).get_indexer(values).astype(np.int64))
        return out

    @staticmethod
    def _validate_y(X: np.ndarray, y) -> np.ndarray:
        """y as a 1-D array of as many rows as X (scikit-learn's column_or_1d and
        check_consistent_length; numpy alone for a 1-D integer ndarray)."""
        if not (type(y) is np.ndarray and y.ndim == 1 and y.dtype.kind in "iu"):
            from sklearn.utils.validation import column_or_1d

            y = column_or_1d(y, warn=True)
        if y.shape[0] != X.shape[0]:
            from sklearn.utils.validation import check_consistent_length

            check_consistent_length(X, y)  # raises
        return y

    def _encode_y(self, y) -> np.ndarray:
        """Class codes 0..C−1 of a 1-D y; sets `classes_` and `n_classes_`."""
        if self.n_classes is not None:  # y holds the codes already (the engine's way)
            if y.dtype.kind not in "iu":
                yi = y.astype(np.int64) if y.dtype.kind == "f" and np.isfinite(y).all() else None
                if yi is None or (yi != y).any():
                    raise ValueError(f"with n_classes={self.n_classes}, y must hold the class codes "
                                     f"0..{self.n_classes - 1} (leave n_classes=None for class labels)")
                y = yi
            if y.size and (y.min() < 0 or y.max() >= self.n_classes):
                raise ValueError(f"y holds a class code outside 0..{self.n_classes - 1} (n_classes={self.n_classes})")
            self.classes_ = np.arange(self.n_classes)
            self.n_classes_ = int(self.n_classes)
            return y.astype(np.int64, copy=False)
        if y.dtype.kind not in "iu":  # integer labels are always binary or multiclass targets
            from sklearn.utils.multiclass import check_classification_targets
            from sklearn.utils.validation import assert_all_finite

            if y.dtype.kind in "fc":
                assert_all_finite(y, input_name="y")
            check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if y.dtype.kind in "iu" and y.size > 20 and self.classes_.size > max(2, round(0.5 * y.size)):
            # check_classification_targets' warning, without scikit-learn
            warnings.warn("The number of unique classes is greater than 50% of the number of samples. `y` could "
                          "represent a regression problem, not a classification problem.", UserWarning, stacklevel=2)
        self.n_classes_ = int(self.classes_.size)
        return codes.reshape(-1).astype(np.int64, copy=False)

    def _internal(self, X: np.ndarray, lo: int, hi: int) -> np.ndarray:
        """Internal codes: −1 and codes ≥ K_i (unseen) → the missing slot K_i; no copy when
        there is neither."""
        cards = self.cardinalities_
        if lo >= 0 and (hi < self._min_card or (X.max(axis=0) < cards).all()):
            return X
        return np.where((X < 0) | (X >= cards), cards, X).astype(np.int64, copy=False)

    def fit(self, X, y, counts: PairCounts | None = None):
        """Fit on X (value codes, −1 = missing) and y (class labels); `counts` may pass these rows' `PairCounts`."""
        self._check_params()
        if y is None:
            raise ValueError(f"This {type(self).__name__} estimator requires y to be passed, but the target y is None.")
        X, lo, hi = self._validate_X(X, reset=True)
        y = self._encode_y(self._validate_y(X, y))
        n_features = X.shape[1]
        if self.cardinalities is not None:
            cards = np.asarray(self.cardinalities, dtype=np.int64)
            if cards.shape != (n_features,):
                raise ValueError(f"cardinalities has shape {cards.shape}; X has {n_features} attributes")
            if hi >= cards.min() and (X.max(axis=0) >= cards).any():
                raise ValueError("X holds codes ≥ the given cardinalities")
        else:
            cards = np.maximum(X.max(axis=0) + 1, 1).astype(np.int64)
            for j, c in enumerate(getattr(self, "categories_", None) or ()):
                if c is not None:  # a column coded by category: all its categories, used or not
                    cards[j] = max(len(c), 1)
        self.cardinalities_ = cards
        self._min_card = int(cards.min())
        has_missing = X.min(axis=0) < 0 if lo < 0 else np.zeros(n_features, dtype=bool)
        Xc = X if lo >= 0 else np.where(X < 0, cards, X).astype(np.int64, copy=False)
        self.sizes_ = cards + 1  # table slots per attribute (last = missing)
        if self.missing == "value":
            self.card_ = cards + has_missing.astype(np.int64)
        else:
            self.card_ = cards.copy()
        if counts is not None:
            if not np.array_equal(counts.sizes, self.sizes_) or counts.n != Xc.shape[0] \
                    or counts.class_counts.size != self.n_classes_:
                raise ValueError("counts do not match X, y and the cardinalities")
        self._counts_in = counts
        self.info_: dict[str, Any] = {}  # what the model reports of its fit, kept with each result (`_fit` sets it)
        try:
            self._fit(Xc, y)
        finally:
            self._counts_in = None
        return self

    def _pair_counts(self, Xc: np.ndarray, y: np.ndarray, pairs: bool = True) -> PairCounts:
        """The count tables of the training data: the ones passed to `fit`, or counted now."""
        given = self._counts_in
        if given is not None and (given.xxy is not None or not pairs):
            return given
        return pair_counts(Xc, y, self.sizes_, self.n_classes_, pairs=pairs)

    # -- prediction -----------------------------------------------------------------
    def predict_proba(self, X) -> np.ndarray:
        """P(y | x) of each class of `classes_`, shape (n_samples, n_classes_)."""
        check_fitted(self)
        X, lo, hi = self._validate_X(X, reset=False)
        jll = self._joint_log_likelihood(self._internal(X, lo, hi))
        jll = jll - jll.max(axis=1, keepdims=True)
        p = np.exp(jll)
        return p / p.sum(axis=1, keepdims=True)

    def prediction_info(self, X) -> dict[str, Any]:
        """What the model did on the rows of X, kept with each result beside `info_` (none by default)."""
        return {}

    def learned_structure(self, X=None) -> Learned | None:
        """What this fitted model learned (docs/algorithms.md §11); with X (value codes of test rows),
        the parts it decides per row summarised over them. None: the model reports no structure
        (a researcher's classifier that does not define it)."""
        return None

    def predict_log_proba(self, X) -> np.ndarray:
        """ln P(y | x) (−inf where the probability underflows to 0)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X) -> np.ndarray:
        """The most probable class label (ties → the first class of `classes_`)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def _fit(self, Xc: np.ndarray, y: np.ndarray) -> None:
        raise NotImplementedError

    def _joint_log_likelihood(self, Xc: np.ndarray) -> np.ndarray:
        """(n, n_classes) log P(x, y) up to a per-row constant; each model supplies it."""
        raise NotImplementedError


def _is_dataframe(X) -> bool:
    """Whether X is a pandas DataFrame (without importing pandas)."""
    return type(X).__module__.startswith("pandas") and hasattr(X, "iloc") and hasattr(X, "columns")


def fit_counts(X, y, cardinalities, n_classes: int, pairs: bool = True) -> PairCounts:
    """The `PairCounts` that `fit(X, y)` would build (missing −1 → the extra slot K_i)."""
    cards = np.asarray(cardinalities, dtype=np.int64)
    Xc = np.asarray(X)
    if Xc.size and Xc.min() < 0:
        Xc = Xc.astype(np.int64, copy=True)
        miss = Xc < 0
        Xc[miss] = np.broadcast_to(cards, Xc.shape)[miss]
    return pair_counts(Xc, np.asarray(y), cards + 1, n_classes, pairs=pairs)
