"""The per-instance terms of the pooled metrics and their per-task sums (docs/algorithms.md §5.2–5.4)."""

from __future__ import annotations

import numpy as np

CLL_FLOOR = 1e-15
INSTANCE_METRICS = ("zol", "rmse", "rmse_all", "cll", "logloss")  # aggregates of a per-instance term


def instance_sums(y: np.ndarray, proba: np.ndarray) -> dict[str, float]:
    """{metric: sum over the instances of its per-instance term} for every INSTANCE_METRICS
    entry: with the instance count, all a fold contributes to pooled values (§5.2–5.4)."""
    y = np.asarray(y, dtype=np.int64)
    if y.size == 0:
        return {m: 0.0 for m in INSTANCE_METRICS}
    return {m: float(per_instance(m, y, proba).sum()) for m in INSTANCE_METRICS}


def per_instance(metric: str, y: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The per-instance quantity whose fold aggregate defines the metric."""
    idx = np.arange(y.shape[0])
    if metric == "zol":
        return (np.argmax(p, axis=1) != y).astype(np.float64)
    if metric == "rmse":
        return (1.0 - p[idx, y]) ** 2
    if metric == "rmse_all":
        onehot = np.zeros_like(p)
        onehot[idx, y] = 1.0
        return ((onehot - p) ** 2).sum(axis=1) / p.shape[1]
    if metric == "cll":
        return np.log(np.maximum(p[idx, y], CLL_FLOOR))
    if metric == "logloss":
        return -np.log2(np.maximum(p[idx, y], CLL_FLOOR))
    raise ValueError(metric)
