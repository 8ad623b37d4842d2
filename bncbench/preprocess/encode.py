"""A data set into a fold's integer codes: missing values, imputation, discretisation (docs/algorithms.md §1.7)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bncbench.data.dataset import Dataset
from bncbench.preprocess.equal_frequency import EqualFrequencyDiscretizer
from bncbench.preprocess.imputer import MissingImputer
from bncbench.preprocess.mdl import MDLDiscretizer
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


def nominal_indices(ds: Dataset) -> list[int]:
    """The attributes that are nominal (the transformers' ``categorical_features``)."""
    return [i for i, a in enumerate(ds.attributes) if a.nominal]


def fit_cuts(ds: Dataset, rows: np.ndarray, s: PreprocessSettings,
             X: np.ndarray | None = None) -> EqualFrequencyDiscretizer | MDLDiscretizer:
    """The settings' discretiser fitted on `rows` of `X` (default `dataset_matrix(ds)`), nominal attributes passed
    through; MDL sees the data set's declared classes."""
    Xm = dataset_matrix(ds) if X is None else X
    rows = np.asarray(rows)
    Xr = Xm if rows.shape[0] == Xm.shape[0] and np.array_equal(rows, np.arange(Xm.shape[0])) else Xm[rows]
    if s.discretizer == "eqfreq":
        return EqualFrequencyDiscretizer(bins=s.bins, method=s.eqfreq_method,
                                         categorical_features=nominal_indices(ds)).fit(Xr)
    return MDLDiscretizer(method=s.mdl_method, categorical_features=nominal_indices(ds)).fit(
        Xr, ds.y[rows], classes=np.arange(ds.n_classes))


def fit_imputer(ds: Dataset, rows: np.ndarray, X: np.ndarray | None = None) -> MissingImputer:
    """`MissingImputer` fitted on `rows`: modes of the nominal, means of the numeric attributes."""
    Xm = dataset_matrix(ds) if X is None else X
    return MissingImputer(categorical_features=nominal_indices(ds)).fit(Xm[np.asarray(rows)])


@dataclass
class Encoded:
    """Integer codes of the training and test rows of one fold, the cardinalities, and the cut
    points (`cuts[i]`: those of numeric attribute i, None for a nominal one)."""

    X_train: np.ndarray
    X_test: np.ndarray
    cardinalities: np.ndarray
    cuts: list


def encode_fold(ds: Dataset, train: np.ndarray, test: np.ndarray, s: PreprocessSettings,
                global_cuts: EqualFrequencyDiscretizer | MDLDiscretizer | None = None) -> Encoded:
    """Impute, discretise and encode missing values of one fold, all fitted on `train` (§1.4, §1.5)."""
    Xm = dataset_matrix(ds)
    imputer = None
    if s.missing == "impute":
        imputer = fit_imputer(ds, train, Xm)
        Xm = imputer.transform(Xm)
    disc = global_cuts if global_cuts is not None else fit_cuts(ds, train, s, Xm)
    X, cards = encode_rows(ds, s, disc, X=Xm)
    return Encoded(X[train], X[test], cards, disc.cuts_)


def encode_rows(ds: Dataset, s: PreprocessSettings, disc: EqualFrequencyDiscretizer | MDLDiscretizer,
                X: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Codes of every row (int32, (N, n)) and the cardinalities: the fitted discretiser's codes
    of `X` (default `dataset_matrix(ds)`; under impute the imputed matrix), with a missing value
    (−1) turned into the extra code #values under distinct."""
    codes = disc.transform(dataset_matrix(ds) if X is None else X)
    cards = np.empty(ds.n_attributes, dtype=np.int64)
    for i, a in enumerate(ds.attributes):
        k = len(a.values) if a.values is not None else len(disc.cuts_[i]) + 1
        has_missing = s.missing == "distinct" and ds.has_missing(i)
        if has_missing:
            col = codes[:, i]
            col[col < 0] = k
        cards[i] = k + (1 if has_missing else 0)
    return codes, cards
