"""Mode/mean imputation of missing values as a scikit-learn transformer (docs/algorithms.md §1.1, §1.7)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin

from bncbench.preprocess.columns import categorical_mask
from bncbench.preprocess.imputation import imputation_values, impute
from bncbench.preprocess.transformer_base import validate_X


class MissingImputer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Missing values replaced by the training mode (categorical) or mean (numeric) (docs/algorithms.md §1.7)."""

    def __init__(self, *, categorical_features: Any = None):
        self.categorical_features = categorical_features

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def fit(self, X: Any, y: Any = None) -> MissingImputer:
        """Compute the mode or mean of every column on its non-missing values (y is ignored)."""
        X = validate_X(self, X)
        mask = categorical_mask(self, X.shape[1])
        stats = imputation_values(X, mask)
        self.is_categorical_ = mask
        self.statistics_ = stats
        return self

    def transform(self, X: Any) -> np.ndarray:
        """X (float64) with each missing value replaced by its column's statistic."""
        return impute(validate_X(self, X, reset=False), self.statistics_, self.is_categorical_)
