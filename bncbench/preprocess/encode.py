"""Missing values, imputation and discretisation of a data set into integer codes (§1.1–1.5)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bncbench.preprocess import discretize
from bncbench.data.dataset import Dataset


@dataclass(frozen=True)
class PreprocessSettings:
    missing: str = "distinct"          # distinct | impute | skip
    discretizer: str = "eqfreq"        # eqfreq | mdl
    bins: int = 5
    eqfreq_method: str = "petal"       # petal | weka
    mdl_method: str = "weka"           # weka | petal
    scope: str = "fold"                # fold | global


def fit_cuts(ds: Dataset, rows: np.ndarray, s: PreprocessSettings,
             numeric_override: dict[int, np.ndarray] | None = None) -> dict[int, np.ndarray]:
    """Cut points of every numeric attribute, fitted on `rows` (non-missing values only)."""
    cuts: dict[int, np.ndarray] = {}
    bins = s.bins
    y = ds.y[rows]
    for i, a in enumerate(ds.attributes):
        if a.nominal:
            continue
        col = numeric_override[i] if numeric_override and i in numeric_override else ds.columns[i][rows]
        known = ~np.isnan(col)
        v = col[known]
        if s.discretizer == "eqfreq":
            if s.eqfreq_method == "petal":
                # Quirk of the C++ system (§1.3): too few values lowers the bin count for this
                # attribute and every later one.
                if 0 < v.size < bins:
                    bins = v.size
                cuts[i] = discretize.eqfreq_petal(v, bins)
            else:
                cuts[i] = discretize.eqfreq_weka(v, s.bins)
        else:
            cuts[i] = discretize.mdl(v, y[known], ds.n_classes, s.mdl_method)
    return cuts


@dataclass
class Encoded:
    """Integer codes of the training and test rows of one fold and the cardinalities."""

    X_train: np.ndarray
    X_test: np.ndarray
    cardinalities: np.ndarray
    cuts: dict[int, np.ndarray]


def encode_fold(ds: Dataset, train: np.ndarray, test: np.ndarray, s: PreprocessSettings,
                global_cuts: dict[int, np.ndarray] | None = None) -> Encoded:
    """Impute (statistics from `train`), discretise (cuts from `train`, or `global_cuts` under
    scope global), and encode missing values per `s.missing`: an extra code under distinct
    (counted iff the attribute has a missing value anywhere in the data set, §1.5), −1 under skip."""
    imputed: dict[int, np.ndarray] = {}
    nominal_fill: dict[int, int] = {}
    if s.missing == "impute":
        for i, a in enumerate(ds.attributes):
            col = ds.columns[i]
            if a.nominal:
                tr = col[train]
                tr = tr[tr >= 0]
                counts = np.bincount(tr, minlength=len(a.values))
                nominal_fill[i] = int(np.argmax(counts)) if tr.size else 0
            else:
                tr = col[train]
                tr = tr[~np.isnan(tr)]
                mean = float(tr.mean()) if tr.size else 0.0
                filled = np.where(np.isnan(col), mean, col)
                imputed[i] = filled
    if global_cuts is not None:
        cuts = global_cuts
    else:
        cuts = fit_cuts(ds, train, s, {i: c[train] for i, c in imputed.items()})
    X, cards = encode_rows(ds, s, cuts, imputed, nominal_fill)
    return Encoded(X[train], X[test], cards, cuts)


def encode_rows(ds: Dataset, s: PreprocessSettings, cuts: dict[int, np.ndarray],
                imputed: dict[int, np.ndarray] | None = None,
                nominal_fill: dict[int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Codes of every row (int32, (N, n)) and the cardinalities, given the cut points and, under
    impute, the imputed numeric columns and the nominal fill values."""
    imputed, nominal_fill = imputed or {}, nominal_fill or {}
    n = ds.n_attributes
    X = np.empty((ds.n_instances, n), dtype=np.int32)
    cards = np.empty(n, dtype=np.int64)
    for i, a in enumerate(ds.attributes):
        col = imputed.get(i, ds.columns[i])
        has_missing = ds.has_missing(i) and s.missing == "distinct"
        if a.nominal:
            codes = col.copy()
            k = len(a.values)
            if s.missing == "impute":
                codes[codes < 0] = nominal_fill[i]
            elif s.missing == "distinct":
                codes[codes < 0] = k
        else:
            c = cuts[i]
            codes = discretize.apply_cuts(col, c)
            k = len(c) + 1
            if s.missing != "distinct":  # distinct: NaN is already the extra bin #cuts + 1
                codes[np.isnan(col)] = -1
        cards[i] = k + (1 if has_missing else 0)
        X[:, i] = codes
    return X, cards
