"""The transformers' input columns: which are categorical, a categorical column's codes (docs/algorithms.md §1.7)."""

from __future__ import annotations

from typing import Any

import numpy as np

_BAD_SPEC = "categorical_features must be None or a 1-D list of indices, booleans or column names"
_ROWS = 1 << 18  # rows per block of `categorical_codes`


def categorical_mask(est: Any, n_features: int) -> np.ndarray:
    """Boolean mask of the columns `est.categorical_features` names (indices, a mask or column names)."""
    spec = est.categorical_features
    mask = np.zeros(n_features, dtype=bool)
    if spec is None:
        return mask
    if isinstance(spec, str):
        spec = [spec]
    arr = np.asarray(spec)
    if arr.ndim != 1:
        raise ValueError(_BAD_SPEC)
    if arr.size == 0:
        return mask
    if arr.dtype == bool:
        if arr.size != n_features:
            raise ValueError(f"categorical_features is a boolean mask of {arr.size} entries, "
                             f"X has {n_features} columns")
        return arr.copy()
    if arr.dtype.kind in "US" or (arr.dtype == object and all(isinstance(a, str) for a in arr)):
        names = getattr(est, "feature_names_in_", None)
        if names is None:
            raise ValueError("categorical_features holds column names, but X has no column names (not a DataFrame)")
        pos = {str(n): i for i, n in enumerate(names)}
        unknown = [str(a) for a in arr if str(a) not in pos]
        if unknown:
            raise ValueError(f"categorical_features names unknown columns: {', '.join(unknown)}")
        mask[[pos[str(a)] for a in arr]] = True
        return mask
    if arr.dtype.kind not in "iu":
        raise ValueError(_BAD_SPEC)
    if (arr < 0).any() or (arr >= n_features).any():
        raise ValueError(f"categorical_features holds an index outside [0, {n_features})")
    mask[arr] = True
    return mask


def categorical_codes(col: np.ndarray, j: int) -> np.ndarray:
    """int64 codes of categorical column `j`: NaN or negative → −1; other values must be integers."""
    codes = np.empty(col.shape[0], dtype=np.int64)
    for s in range(0, col.shape[0], _ROWS):  # in blocks: the temporaries stay small on millions of rows
        part, out = col[s:s + _ROWS], codes[s:s + _ROWS]
        missing = np.isnan(part) | (part < 0)
        v = part[~missing]
        if v.size and ((v != np.floor(v)).any() or v.max() > np.iinfo(np.int32).max):
            raise ValueError(f"categorical column {j} holds a value that is not an integer code in [0, 2**31)")
        out.fill(-1)
        out[~missing] = v.astype(np.int64)
    return codes


def check_choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    """ValueError unless `value` is one of `choices`."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
