"""Fayyad–Irani MDL discretisation as a scikit-learn transformer (docs/algorithms.md §1.3, §1.7)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from bncbench.preprocess.columns import categorical_mask, check_choice
from bncbench.preprocess.discretize import MDL_METHODS, mdl_cuts
from bncbench.preprocess.transformer_base import Discretizer


class MDLDiscretizer(Discretizer):
    """Each numeric column cut by the MDL criterion on the class labels (parameters: docs/algorithms.md §1.7)."""

    def __init__(self, *, method: str = "weka", categorical_features: Any = None):
        self.method = method
        self.categorical_features = categorical_features

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def fit(self, X: Any, y: Any = None, classes: Any = None) -> MDLDiscretizer:
        """Fit every numeric column's cut points on the rows where it is known; `classes`: every label y may lack."""
        check_choice("method", self.method, MDL_METHODS)
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        check_classification_targets(y)
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
        mask = categorical_mask(self, X.shape[1])
        self._set_cuts(X, mask, mdl_cuts(X, mask, y_idx, self.classes_.shape[0], self.method))
        return self
