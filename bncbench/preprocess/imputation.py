"""Mode/mean imputation of missing values: what the runner and the scikit-learn MissingImputer both
compute, with numpy alone (docs/algorithms.md §1.1, §1.7)."""

from __future__ import annotations

import numpy as np

from bncbench.preprocess.columns import categorical_codes


def imputation_values(X: np.ndarray, categorical: np.ndarray) -> np.ndarray:
    """Each column's value for its missing ones (X float64, NaN = missing; `categorical` a mask):
    the mode of a categorical column's codes (the smallest of equal counts; negative = missing),
    the mean of a numeric one; 0 for a column with no known value."""
    values = np.zeros(X.shape[1], dtype=np.float64)
    for j in range(X.shape[1]):
        col = X[:, j]
        if categorical[j]:
            codes = categorical_codes(col, j)
            codes = codes[codes >= 0]
            if codes.size:
                found, counts = np.unique(codes, return_counts=True)
                values[j] = float(found[int(np.argmax(counts))])  # first maximum: smallest code
        else:
            v = col[~np.isnan(col)]
            values[j] = float(v.mean()) if v.size else 0.0
    return values


def impute(X: np.ndarray, values: np.ndarray, categorical: np.ndarray) -> np.ndarray:
    """X (float64) with each missing value (NaN; a negative code in a categorical column) replaced
    by its column's `values`."""
    out = np.empty(X.shape, dtype=np.float64)
    for j in range(X.shape[1]):
        col = X[:, j]
        missing = np.isnan(col) | (col < 0) if categorical[j] else np.isnan(col)
        out[:, j] = np.where(missing, values[j], col)
    return out
