"""scikit-learn transformers: equal-frequency and MDL discretisation, mode/mean imputation.

Each class IS its numpy-only core of `preprocess/core.py` (`EqualFrequencyDiscretizerCore`,
`MDLDiscretizerCore`, `MissingImputerCore`), the data protocol's only implementation of the
per-attribute fitting (docs/algorithms.md §1.1–1.3), plus the scikit-learn interface: input
validation (`validate_data`: DataFrames, feature names, n_features_in_), `check_is_fitted`,
parameters, tags and ``set_output``. The benchmark runner (`preprocess/encode.py` `fit_cuts`,
`encode_fold`, `encode_rows`) fits the cores, so that it never imports scikit-learn; a
pipeline such as

    make_pipeline(MDLDiscretizer(method="petal"), TAN())

discretises exactly as a `bncbench run` with `discretizer: mdl, mdl_method: petal, scope: fold`.
The per-column cut-point algorithms themselves are in `preprocess/discretize.py`.
This module imports scikit-learn; import it (or the names from `bncbench.preprocess`) only
when you want the scikit-learn transformers.

Input: a 2-D numeric array or DataFrame, NaN for a missing value. Columns are numeric unless
named in ``categorical_features`` (indices, a boolean mask, or column names of a DataFrame):
a categorical column holds integer codes ≥ 0, and NaN or any negative value means missing.
String columns are not accepted: code them first (e.g. sklearn's OrdinalEncoder).

Output of the discretisers: int32 codes, one column per input column (same names), −1 for a
missing value; a numeric column gets bin numbers 0..len(cuts), a categorical column keeps its
codes. Output of the imputer: float64 values without missing values.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from bncbench.preprocess.core import (
    EQFREQ_METHODS,
    MDL_METHODS,
    EqualFrequencyDiscretizerCore,
    MDLDiscretizerCore,
    MissingImputerCore,
)

__all__ = ["EqualFrequencyDiscretizer", "MDLDiscretizer", "MissingImputer", "EQFREQ_METHODS", "MDL_METHODS"]


class _SklearnInterface(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """The scikit-learn side of a transformer: placed before its core in the MRO, it replaces
    the core's input checks with scikit-learn's and adds parameters, tags, feature names and
    ``set_output``. fit/transform themselves are the core's."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def _validate_X(self, X, reset: bool = True) -> np.ndarray:
        return validate_data(self, X, reset=reset, dtype=np.float64, ensure_all_finite="allow-nan")

    def _validate_Xy(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        check_classification_targets(y)
        return X, y

    def _check_fitted(self) -> None:
        check_is_fitted(self)

    def transform(self, X):
        """The core's transform (discretisers: int32 codes, −1 for missing; imputer: float64
        values with missing values filled), in the container chosen by ``set_output``."""
        # defined here, not only inherited from the core, so that set_output wraps it
        return super().transform(X)


class _Discretizer(_SklearnInterface):
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []  # the output is int32 codes
        return tags


class EqualFrequencyDiscretizer(_Discretizer, EqualFrequencyDiscretizerCore):
    """Equal-frequency discretisation of each numeric column into at most `bins` bins
    (docs/algorithms.md §1.2), fitted on the non-missing values of the training data.

    Parameters
    ----------
    bins : int ≥ 1, default 5
    method : "petal" (default), "weka" or "quantile"
        "petal": the Webb-group C++ system's quantile cuts on float32 values (the cut points
        are data values; tied values merge bins), including its quirk: a column with fewer
        non-missing values than `bins` lowers the bin count for that column **and every later
        numeric column** (§1.3; what paper 000's verified results need). "weka": Weka 3.6
        ``unsupervised.attribute.Discretize -F -B bins`` (midpoint cuts, float64). "quantile":
        the petal rule on float64 values, without the quirk (§1.2 c).
    categorical_features : None, indices, boolean mask or column names, default None
        Columns that are nominal: integer codes ≥ 0 (NaN or a negative value = missing) passed
        through unchanged. None: every column is numeric.

    Attributes
    ----------
    cuts_ : list
        Per column the sorted cut points (float32 under "petal", float64 otherwise; empty
        when the column gets one bin), None for a categorical column.
    n_bins_ : ndarray of int64
        Per column the number of codes: len(cuts) + 1 for a numeric column, max code seen in
        fit + 1 for a categorical one (a test code may exceed it).
    is_categorical_ : ndarray of bool
    n_features_in_, feature_names_in_ : as in scikit-learn

    ``transform`` returns int32 codes with −1 for a missing value; ``get_feature_names_out``
    the input column names.
    """


class MDLDiscretizer(_Discretizer, MDLDiscretizerCore):
    """Fayyad–Irani MDL discretisation of each numeric column (docs/algorithms.md §1.3), supervised:
    ``fit`` needs the class labels y; a column's cuts are fitted on the rows where it is known.

    Parameters
    ----------
    method : "weka" (default) or "petal"
        "weka": Weka 3.6 ``supervised.attribute.Discretize`` (float64 midpoints, leftmost cut
        among equal entropies). "petal": the Webb-group C++ system (float32 values and
        midpoints, rightmost cut among ties, recursion only into sides of > 2 instances;
        what paper 004's verified results need).
    categorical_features : None, indices, boolean mask or column names, default None
        As in `EqualFrequencyDiscretizer`: those columns are passed through as codes.

    Attributes
    ----------
    cuts_, n_bins_, is_categorical_, n_features_in_, feature_names_in_ :
        as in `EqualFrequencyDiscretizer` (float32 cuts under "petal", float64 under "weka").
    classes_ : ndarray, the class labels (y's distinct values, or the `classes` given to fit).

    ``transform`` returns int32 codes with −1 for a missing value.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


class MissingImputer(_SklearnInterface, MissingImputerCore):
    """Replaces missing values with statistics of the training data (docs/algorithms.md §1.1
    `missing: impute`): the mode of a categorical column (ties → the smallest code), the mean
    of a numeric one; a column missing in every training row gets 0 (Weka's behaviour).

    Parameters
    ----------
    categorical_features : None, indices, boolean mask or column names, default None
        Categorical columns (integer codes ≥ 0; NaN or a negative value = missing) get their
        mode; all others their mean. None: every column is numeric.

    Attributes
    ----------
    statistics_ : ndarray of float64, the fill value of each column.
    is_categorical_ : ndarray of bool
    n_features_in_, feature_names_in_ : as in scikit-learn

    ``transform`` returns float64 values with every missing value filled (so the result can go
    on to a discretiser with the same `categorical_features`).
    """
