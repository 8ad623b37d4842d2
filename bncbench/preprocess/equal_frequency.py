"""Equal-frequency discretisation as a scikit-learn transformer (docs/algorithms.md §1.2, §1.7)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from bncbench.preprocess.columns import check_choice, validate_X
from bncbench.preprocess.discretize import Discretizer, eqfreq_petal, eqfreq_quantile, eqfreq_weka

METHODS = ("petal", "weka", "quantile")


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
        check_choice("method", self.method, METHODS)
        X = validate_X(self, X)
        bins = self.bins

        def cut(col: np.ndarray, known: np.ndarray) -> np.ndarray:
            nonlocal bins
            v = col[known]
            if self.method == "petal":
                if 0 < v.size < bins:  # the C++ system's quirk: also lowers later columns' bins
                    bins = v.size
                return eqfreq_petal(v, bins)
            if self.method == "quantile":
                return eqfreq_quantile(v, self.bins)
            return eqfreq_weka(v, self.bins)

        self._fit_cuts(X, lambda columns: [cut(col, known) for col, known in columns])
        return self
