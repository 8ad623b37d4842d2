"""Equal-frequency discretisation as a scikit-learn transformer (docs/algorithms.md §1.2, §1.7)."""

from __future__ import annotations

import numbers
from typing import Any

from bncbench.preprocess.columns import categorical_mask, check_choice
from bncbench.preprocess.discretize import EQFREQ_METHODS, eqfreq_cuts
from bncbench.preprocess.transformer_base import Discretizer, validate_X


class EqualFrequencyDiscretizer(Discretizer):
    """Each numeric column into at most `bins` equal-frequency bins (parameters: docs/algorithms.md §1.7)."""

    def __init__(self, *, bins: int = 5, method: str = "petal", categorical_features: Any = None):
        self.bins = bins
        self.method = method
        self.categorical_features = categorical_features

    def fit(self, X: Any, y: Any = None) -> EqualFrequencyDiscretizer:
        """Fit the cut points of every numeric column on its non-missing values (y is ignored)."""
        if isinstance(self.bins, bool) or not isinstance(self.bins, numbers.Integral) or self.bins < 1:
            raise ValueError(f"bins must be an integer ≥ 1, got {self.bins!r}")
        check_choice("method", self.method, EQFREQ_METHODS)
        X = validate_X(self, X)
        mask = categorical_mask(self, X.shape[1])
        self._set_cuts(X, mask, eqfreq_cuts(X, mask, self.bins, self.method))
        return self
