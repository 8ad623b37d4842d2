"""numpy-only cores of the transformers: equal-frequency and MDL discretisation, mode/mean
imputation (docs/algorithms.md §1.1–1.3).

These classes hold the whole per-attribute fitting and transforming of the data protocol. The
benchmark runner (`preprocess/encode.py`) uses them directly, so a `bncbench run` process or a
Dask worker never imports scikit-learn. The public scikit-learn transformers of
`preprocess/transformers.py` (`EqualFrequencyDiscretizer`, `MDLDiscretizer`, `MissingImputer`)
subclass these cores and only replace the input checks (`_validate_X`, `_validate_Xy`,
`_check_fitted`) with scikit-learn's (`validate_data`, feature names, `check_is_fitted`) and add
the estimator interface (parameters, tags, ``set_output``). Fitting, cut points and codes are
this module's code in both, so a pipeline and the runner share one implementation.

Input: a 2-D numeric array, NaN for a missing value. Columns are numeric unless named in
``categorical_features`` (indices or a boolean mask; column names only through the
scikit-learn transformers, which know a DataFrame's names): a categorical column holds
integer codes ≥ 0, and NaN or any negative value means missing.

Output of the discretisers: int32 codes, one column per input column, −1 for a missing value;
a numeric column gets bin numbers 0..len(cuts), a categorical column keeps its codes. Output
of the imputer: float64 values without missing values.

This module must not import scikit-learn (nor pandas/scipy): tests/preprocess/test_transformers.py checks
that the runner's encoding path leaves ``sys.modules`` without any ``sklearn`` module.
"""

from __future__ import annotations

import numbers

import numpy as np

from bncbench.preprocess import discretize

EQFREQ_METHODS = ("petal", "weka", "quantile")
MDL_METHODS = ("weka", "petal")


class NotFittedCoreError(ValueError, AttributeError):
    """transform before fit (the same bases as scikit-learn's NotFittedError)."""


def _categorical_mask(est, n_features: int) -> np.ndarray:
    """Boolean mask of the categorical columns from `est.categorical_features` (validated)."""
    spec = est.categorical_features
    mask = np.zeros(n_features, dtype=bool)
    if spec is None:
        return mask
    if isinstance(spec, str):
        spec = [spec]
    arr = np.asarray(spec)
    if arr.ndim != 1:
        raise ValueError("categorical_features must be None or a 1-D list of indices, booleans or column names")
    if arr.size == 0:
        return mask
    if arr.dtype == bool:
        if arr.size != n_features:
            raise ValueError(f"categorical_features is a boolean mask of {arr.size} entries, X has {n_features} columns")
        return arr.copy()
    if arr.dtype.kind in "US" or arr.dtype == object and all(isinstance(a, str) for a in arr):
        names = getattr(est, "feature_names_in_", None)
        if names is None:
            raise ValueError("categorical_features holds column names, but X has no column names (not a DataFrame)")
        pos = {str(n): i for i, n in enumerate(names)}
        unknown = [str(a) for a in arr if str(a) not in pos]
        if unknown:
            raise ValueError(f"categorical_features names unknown columns: {', '.join(unknown)}")
        mask[[pos[str(a)] for a in arr]] = True
        return mask
    if arr.dtype.kind not in "iu":
        raise ValueError("categorical_features must be None or a 1-D list of indices, booleans or column names")
    if (arr < 0).any() or (arr >= n_features).any():
        raise ValueError(f"categorical_features holds an index outside [0, {n_features})")
    mask[arr] = True
    return mask


def _categorical_codes(col: np.ndarray, j: int) -> np.ndarray:
    """int64 codes of a categorical column: NaN or negative → −1; other values must be integers."""
    missing = np.isnan(col) | (col < 0)
    v = col[~missing]
    if v.size and ((v != np.floor(v)).any() or v.max() > np.iinfo(np.int32).max):
        raise ValueError(f"categorical column {j} holds a value that is not an integer code in [0, 2**31)")
    codes = np.full(col.shape[0], -1, dtype=np.int64)
    codes[~missing] = v.astype(np.int64)
    return codes


def _check_bins(bins) -> None:
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral) or bins < 1:
        raise ValueError(f"bins must be an integer ≥ 1, got {bins!r}")


def _check_choice(name: str, value, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")


class _Core:
    """Input checks of the cores (overridden by the scikit-learn transformers) and fit_transform."""

    _fitted_attr = "n_features_in_"

    def _validate_X(self, X, reset: bool = True) -> np.ndarray:
        """X as a 2-D float64 array (NaN allowed, infinity refused); `reset`: record the
        number of columns, else check it."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"X must be a 2-D array, got {X.ndim} dimension(s)")
        if np.isinf(X).any():
            raise ValueError("X holds infinity (NaN means missing; infinity is not accepted)")
        if reset:
            self.n_features_in_ = X.shape[1]
        elif X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        return X

    def _validate_Xy(self, X, y) -> tuple[np.ndarray, np.ndarray]:
        """X as in `_validate_X` (reset) and the class labels y (required, 1-D, one per row)."""
        if y is None:
            raise ValueError(f"This {type(self).__name__} estimator requires y to be passed, but the target y is None.")
        X = self._validate_X(X)
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must be 1-D with one label per row of X ({X.shape[0]}), got shape {y.shape}")
        return X, y

    def _check_fitted(self) -> None:
        if not hasattr(self, self._fitted_attr):
            raise NotFittedCoreError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' first.")

    def fit_transform(self, X, y=None, **fit_params):
        return self.fit(X, y, **fit_params).transform(X)


class _DiscretizerCore(_Core):
    """Shared transform of the discretisers; subclasses fit `cuts_` and call `_finish_fit`."""

    _fitted_attr = "cuts_"

    def _finish_fit(self, X: np.ndarray, mask: np.ndarray, cuts: list) -> None:
        self.is_categorical_ = mask
        self.cuts_ = cuts
        n_bins = np.empty(X.shape[1], dtype=np.int64)
        for j in range(X.shape[1]):
            if mask[j]:
                codes = _categorical_codes(X[:, j], j)
                n_bins[j] = int(codes.max()) + 1 if codes.size else 0
            else:
                n_bins[j] = len(cuts[j]) + 1
        self.n_bins_ = n_bins

    def transform(self, X) -> np.ndarray:
        """int32 codes: bin numbers for numeric columns, the codes for categorical ones, −1 for
        a missing value. A value v goes to the first bin whose cut c satisfies v ≤ c."""
        self._check_fitted()
        X = self._validate_X(X, reset=False)
        out = np.empty(X.shape, dtype=np.int32)
        for j in range(X.shape[1]):
            col = X[:, j]
            if self.is_categorical_[j]:
                out[:, j] = _categorical_codes(col, j)
            else:
                codes = discretize.apply_cuts(col, self.cuts_[j])
                codes[np.isnan(col)] = -1
                out[:, j] = codes
        return out


class EqualFrequencyDiscretizerCore(_DiscretizerCore):
    """Equal-frequency discretisation of each numeric column into at most `bins` bins
    (docs/algorithms.md §1.2); see `transformers.EqualFrequencyDiscretizer` for the parameters and
    attributes (this is that class without the scikit-learn interface)."""

    def __init__(self, bins: int = 5, method: str = "petal", categorical_features=None):
        self.bins = bins
        self.method = method
        self.categorical_features = categorical_features

    def fit(self, X, y=None):
        """Fit the cut points of every numeric column on its non-missing values (y is ignored)."""
        _check_bins(self.bins)
        _check_choice("method", self.method, EQFREQ_METHODS)
        X = self._validate_X(X)
        mask = _categorical_mask(self, X.shape[1])
        bins = self.bins
        cuts: list = []
        for j in range(X.shape[1]):
            if mask[j]:
                cuts.append(None)
                continue
            col = X[:, j]
            v = col[~np.isnan(col)]
            if self.method == "petal":
                if 0 < v.size < bins:  # the C++ system's quirk: also lowers later columns' bins
                    bins = v.size
                cuts.append(discretize.eqfreq_petal(v, bins))
            elif self.method == "quantile":
                cuts.append(discretize.eqfreq_quantile(v, self.bins))
            else:
                cuts.append(discretize.eqfreq_weka(v, self.bins))
        self._finish_fit(X, mask, cuts)
        return self


class MDLDiscretizerCore(_DiscretizerCore):
    """Fayyad–Irani MDL discretisation of each numeric column (docs/algorithms.md §1.3), supervised;
    see `transformers.MDLDiscretizer` for the parameters and attributes (this is that class
    without the scikit-learn interface)."""

    def __init__(self, method: str = "weka", categorical_features=None):
        self.method = method
        self.categorical_features = categorical_features

    def fit(self, X, y=None, classes=None):
        """Fit the cut points of every numeric column on X and the class labels y (required:
        without y, ValueError).

        `classes` (optional): every class label, when y may lack some (default: the labels
        in y). An absent class counts zero instances; the runner passes the data set's
        declared classes so that its per-fold fits use the data set's class table."""
        _check_choice("method", self.method, MDL_METHODS)
        X, y = self._validate_Xy(X, y)
        if classes is None:
            self.classes_, y_idx = np.unique(y, return_inverse=True)
        else:
            self.classes_ = np.asarray(classes)
            order = np.argsort(self.classes_, kind="stable")
            ranked = self.classes_[order]
            pos = np.searchsorted(ranked, y).clip(0, max(ranked.size - 1, 0))
            if ranked.size == 0 or (ranked[pos] != y).any():
                raise ValueError("y holds a label that is not in classes")
            y_idx = order[pos]
        n_classes = self.classes_.shape[0]
        mask = _categorical_mask(self, X.shape[1])
        cuts: list = []
        for j in range(X.shape[1]):
            if mask[j]:
                cuts.append(None)
                continue
            col = X[:, j]
            known = ~np.isnan(col)
            cuts.append(discretize.mdl(col[known], y_idx[known], n_classes, self.method))
        self._finish_fit(X, mask, cuts)
        return self


class MissingImputerCore(_Core):
    """Replaces missing values with statistics of the training data (docs/algorithms.md §1.1
    `missing: impute`): the mode of a categorical column (ties → the smallest code), the mean
    of a numeric one; a column missing in every training row gets 0. See
    `transformers.MissingImputer` (this is that class without the scikit-learn interface)."""

    _fitted_attr = "statistics_"

    def __init__(self, categorical_features=None):
        self.categorical_features = categorical_features

    def fit(self, X, y=None):
        """Compute the mode or mean of every column on its non-missing values (y is ignored)."""
        X = self._validate_X(X)
        mask = _categorical_mask(self, X.shape[1])
        stats = np.zeros(X.shape[1], dtype=np.float64)
        for j in range(X.shape[1]):
            col = X[:, j]
            if mask[j]:
                codes = _categorical_codes(col, j)
                codes = codes[codes >= 0]
                if codes.size:
                    values, counts = np.unique(codes, return_counts=True)
                    stats[j] = float(values[int(np.argmax(counts))])  # first maximum: smallest code
            else:
                v = col[~np.isnan(col)]
                stats[j] = float(v.mean()) if v.size else 0.0
        self.is_categorical_ = mask
        self.statistics_ = stats
        return self

    def transform(self, X) -> np.ndarray:
        """X (float64) with each missing value replaced by its column's statistic."""
        self._check_fitted()
        X = self._validate_X(X, reset=False)
        out = np.empty(X.shape, dtype=np.float64)
        for j in range(X.shape[1]):
            col = X[:, j]
            missing = np.isnan(col) | (col < 0) if self.is_categorical_[j] else np.isnan(col)
            out[:, j] = np.where(missing, self.statistics_[j], col)
        return out
