"""A data set into a fold's integer codes: missing values, imputation, discretisation (docs/algorithms.md §1.7)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bncbench.data.dataset import Dataset
from bncbench.preprocess.discretize import discretize, eqfreq_cuts, mdl_cuts
from bncbench.preprocess.imputation import imputation_values, impute
from bncbench.preprocess.settings import PreprocessSettings


def dataset_matrix(ds: Dataset) -> np.ndarray:
    """(N, n) float64 matrix of a data set: numeric values, nominal codes as numbers, NaN for a
    missing value — the transformers' input."""
    X = np.empty((ds.n_instances, ds.n_attributes), dtype=np.float64)
    for i, a in enumerate(ds.attributes):
        col = ds.columns[i]
        if a.nominal:
            X[:, i] = col
            X[col < 0, i] = np.nan
        else:
            X[:, i] = col
    return X


def nominal_mask(ds: Dataset) -> np.ndarray:
    """Which attributes are nominal (the transformers' ``categorical_features``, as a mask)."""
    return np.array([a.nominal for a in ds.attributes], dtype=bool)


def fit_cuts(ds: Dataset, rows: np.ndarray, s: PreprocessSettings,
             X: np.ndarray | None = None) -> list[np.ndarray | None]:
    """The settings' cut points of each attribute fitted on `rows` of `X` (default `dataset_matrix(ds)`),
    None for a nominal one, as the scikit-learn discretiser fits its `cuts_`; MDL sees the data set's
    declared classes."""
    Xm = dataset_matrix(ds) if X is None else X
    rows = np.asarray(rows)
    Xr = Xm if rows.shape[0] == Xm.shape[0] and np.array_equal(rows, np.arange(Xm.shape[0])) else Xm[rows]
    if s.discretizer == "eqfreq":
        return eqfreq_cuts(Xr, nominal_mask(ds), s.bins, s.eqfreq_method)
    return mdl_cuts(Xr, nominal_mask(ds), ds.y[rows], ds.n_classes, s.mdl_method)


def fit_imputation(ds: Dataset, rows: np.ndarray, X: np.ndarray | None = None) -> np.ndarray:
    """The value of each attribute for its missing ones fitted on `rows` (the scikit-learn
    MissingImputer's `statistics_`): modes of the nominal, means of the numeric attributes."""
    Xm = dataset_matrix(ds) if X is None else X
    return imputation_values(Xm[np.asarray(rows)], nominal_mask(ds))


@dataclass
class Encoded:
    """Integer codes of the training and test rows of one fold, the cardinalities, and the cut
    points (`cuts[i]`: those of numeric attribute i, None for a nominal one)."""

    X_train: np.ndarray
    X_test: np.ndarray
    cardinalities: np.ndarray
    cuts: list


def encode_fold(ds: Dataset, train: np.ndarray, test: np.ndarray, s: PreprocessSettings,
                global_cuts: list | None = None) -> Encoded:
    """Impute, discretise and encode missing values of one fold, all fitted on `train` (§1.4, §1.5)."""
    Xm = dataset_matrix(ds)
    if s.missing == "impute":
        Xm = impute(Xm, fit_imputation(ds, train, Xm), nominal_mask(ds))
    cuts = global_cuts if global_cuts is not None else fit_cuts(ds, train, s, Xm)
    X, cards = encode_rows(ds, s, cuts, X=Xm)
    return Encoded(X[train], X[test], cards, cuts)


def encode_rows(ds: Dataset, s: PreprocessSettings, cuts: list,
                X: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Codes of every row (int32, (N, n)) and the cardinalities: the codes of `X` under the fitted
    `cuts` (default `dataset_matrix(ds)`; under impute the imputed matrix), with a missing value
    (−1) turned into the extra code #values under distinct."""
    codes = discretize(dataset_matrix(ds) if X is None else X, cuts)
    cards = np.empty(ds.n_attributes, dtype=np.int64)
    for i, a in enumerate(ds.attributes):
        k = len(a.values) if a.values is not None else len(cuts[i]) + 1
        has_missing = s.missing == "distinct" and ds.has_missing(i)
        if has_missing:
            col = codes[:, i]
            col[col < 0] = k
        cards[i] = k + (1 if has_missing else 0)
    return codes, cards
