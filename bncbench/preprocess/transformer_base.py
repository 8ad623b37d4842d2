"""What the scikit-learn transformers share: their input checked (`validate_data`) and the
discretisers' base class (docs/algorithms.md §1.7). The runner never imports this module."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from bncbench.preprocess.columns import categorical_codes
from bncbench.preprocess.discretize import discretize


def validate_X(est: Any, X: Any, reset: bool = True) -> np.ndarray:
    """X as a 2-D float64 array (NaN allowed, infinity refused), recording (`reset`) or checking
    its columns against the fit (`est` fitted)."""
    if not reset:
        check_is_fitted(est)
    return validate_data(est, X, reset=reset, dtype=np.float64, ensure_all_finite="allow-nan")


class Discretizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """The discretisers' shared part: fitted cut points and int32 codes (docs/algorithms.md §1.7)."""

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.transformer_tags.preserves_dtype = []  # the output is int32 codes
        return tags

    def _set_cuts(self, X: np.ndarray, mask: np.ndarray, cuts: list[np.ndarray | None]) -> None:
        """Keep the cut points of each column of X (None: categorical, `mask`) and the number of
        codes of each."""
        self.is_categorical_ = mask
        self.cuts_ = cuts
        n_bins = np.empty(X.shape[1], dtype=np.int64)
        for j, c in enumerate(cuts):
            if c is None:
                codes = categorical_codes(X[:, j], j)
                n_bins[j] = int(codes.max()) + 1 if codes.size else 0
            else:
                n_bins[j] = len(c) + 1
        self.n_bins_ = n_bins

    def transform(self, X: Any) -> np.ndarray:
        """int32 codes: v to the first bin whose cut c has v ≤ c, categorical codes kept, −1 for missing."""
        return discretize(validate_X(self, X, reset=False), self.cuts_)
