"""Probability estimators (docs/algorithms.md §2), in log space, vectorised over count arrays."""

from __future__ import annotations

import numpy as np

ESTIMATORS = ("mestimate", "laplace", "laplace_joint")


def prior(counts, total, n_classes: int, estimator: str, m: float):
    """P̂(y) from class counts out of `total` instances (arrays broadcast)."""
    if estimator == "mestimate":
        return (counts + m / n_classes) / (total + m)
    return (counts + 1.0) / (total + n_classes)


def log_prior(class_counts: np.ndarray, estimator: str, m: float) -> np.ndarray:
    """ln P̂(y) for each class."""
    return np.log(prior(class_counts.astype(np.float64), float(class_counts.sum()), class_counts.size, estimator, m))


def cond(num, den, card, estimator: str, m: float, *, ctx_cells=None, tot_num=None, tot_den=None):
    """P̂(x | ctx) (arrays broadcast); laplace_joint: P̂(x, ctx) / P̂(ctx), each a Laplace-smoothed joint."""
    if estimator == "mestimate":
        return (num + m / card) / (den + m)
    if estimator == "laplace":
        return (num + 1.0) / (den + card)
    return ((num + 1.0) / (tot_num + ctx_cells * card)) / ((den + 1.0) / (tot_den + ctx_cells))


def log_cond(num, den, card, estimator: str, m: float, *, ctx_cells=None, tot_num=None, tot_den=None):
    """ln P̂(x | ctx) (arrays broadcast); laplace_joint as the difference of the two joints' logs."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    if estimator == "laplace_joint":
        return np.log((num + 1.0) / (tot_num + ctx_cells * card)) - np.log((den + 1.0) / (tot_den + ctx_cells))
    return np.log(cond(num, den, card, estimator, m))


def log_joint(num, total, cells, estimator: str, m: float):
    """ln P̂(x_p, y) of a superparent and the class (AODE, §2.1/§2.2/§2.4)."""
    num = np.asarray(num, dtype=np.float64)
    if estimator == "mestimate":
        return np.log((num + m / cells) / (total + m))
    return np.log((num + 1.0) / (total + cells))
