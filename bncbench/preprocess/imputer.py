"""Mode/mean imputation of missing values as a scikit-learn transformer (docs/algorithms.md §1.1, §1.7)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin

from bncbench.preprocess.columns import categorical_codes, categorical_mask, transform_columns, validate_X


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
        stats = np.zeros(X.shape[1], dtype=np.float64)
        for j in range(X.shape[1]):
            col = X[:, j]
            if mask[j]:
                codes = categorical_codes(col, j)
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

    def transform(self, X: Any) -> np.ndarray:
        """X (float64) with each missing value replaced by its column's statistic."""
        def column(j: int, col: np.ndarray) -> np.ndarray:
            missing = np.isnan(col) | (col < 0) if self.is_categorical_[j] else np.isnan(col)
            return np.where(missing, self.statistics_[j], col)

        return transform_columns(self, X, np.float64, column)
