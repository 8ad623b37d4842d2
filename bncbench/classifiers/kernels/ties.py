"""One tie rule for information values: equal in exact arithmetic, equal keys (docs/algorithms.md §0.3)."""

from __future__ import annotations

import math

import numpy as np

SIGNIFICANT_DIGITS = 10
ZERO = 1e-12


def tie_key(values) -> np.ndarray:
    """`values` (any shape) rounded to 10 significant digits, |v| < 1e-12 as 0; ±inf and NaN as
    they are. Monotone: a < b implies key(a) ≤ key(b), so the key only merges near-equal values."""
    x = np.asarray(values, dtype=np.float64)
    out = np.where(np.abs(x) < ZERO, 0.0, x)
    big = np.isfinite(out) & (out != 0.0)
    if big.any():
        v = out[big]
        scale = 10.0 ** (SIGNIFICANT_DIGITS - 1 - np.floor(np.log10(np.abs(v))))
        out[big] = np.round(v * scale) / scale
    return out


def tie_value(v: float) -> float:
    """`tie_key` of one float, in scalar arithmetic (the same operations: a learner that compares
    values one at a time, such as a CI test's ranking key, avoids numpy's per-call cost)."""
    if abs(v) < ZERO:
        return 0.0
    if not math.isfinite(v):
        return v
    e = SIGNIFICANT_DIGITS - 1 - math.floor(math.log10(abs(v)))
    scale = 10.0 ** e if e >= 0 else float(np.power(10.0, float(e)))  # exact / numpy's rounding
    return round(v * scale) / scale


def info_values(values: np.ndarray, precision: str) -> np.ndarray:
    """Information values as a learner uses and compares them: float32 mode rounds to float32
    (the C++ system's stored values), float64 mode applies `tie_key`."""
    if precision == "float32":
        return np.asarray(values, dtype=np.float64).astype(np.float32).astype(np.float64)
    return tie_key(values)
