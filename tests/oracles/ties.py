"""The tie rule of docs/algorithms.md §0.3 for information values, in plain Python: a float64 value
is compared as its decimal rounding to 10 significant digits, and |v| < 1e-12 as 0 (a sum that is
0 in exact arithmetic). float32 values are compared as they are."""

from __future__ import annotations

import math


def tie_key(v: float) -> float:
    if math.isnan(v) or math.isinf(v):
        return v
    if abs(v) < 1e-12:
        return 0.0
    return float(f"{v:.10g}")
