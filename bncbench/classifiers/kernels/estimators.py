"""Probability estimators (docs/algorithms.md §2), in log space, vectorised over count arrays.

A conditional estimate P̂(x | ctx) is computed from
  num = N(x, ctx), den = N(ctx) (for missing="skip": only instances with x known),
  card = |X|, and for the joint-Laplace form also the number of context cells
  (|Y|·Π|parents|) and the totals of instances with the variables known.
"""

from __future__ import annotations

import numpy as np

ESTIMATORS = ("mestimate", "laplace", "laplace_joint")


def log_prior(class_counts: np.ndarray, estimator: str, m: float) -> np.ndarray:
    """ln P̂(y) for each class."""
    nc = class_counts.size
    n = float(class_counts.sum())
    c = class_counts.astype(np.float64)
    if estimator == "mestimate":
        return np.log((c + m / nc) / (n + m))
    return np.log((c + 1.0) / (n + nc))


def log_cond(num, den, card, estimator: str, m: float, *, ctx_cells=None, tot_num=None, tot_den=None):
    """ln P̂(x | ctx) (arrays broadcast)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    if estimator == "mestimate":
        return np.log((num + m / card) / (den + m))
    if estimator == "laplace":
        return np.log((num + 1.0) / (den + card))
    # laplace_joint: P̂(x, ctx) / P̂(ctx), each a Laplace-smoothed joint (§2.2, second bullet)
    return np.log((num + 1.0) / (tot_num + ctx_cells * card)) - np.log((den + 1.0) / (tot_den + ctx_cells))


def log_joint(num, total, cells, estimator: str, m: float):
    """ln P̂(x_p, y) of a superparent and the class (AODE, §2.1/§2.2/§2.4)."""
    num = np.asarray(num, dtype=np.float64)
    if estimator == "mestimate":
        return np.log((num + m / cells) / (total + m))
    return np.log((num + 1.0) / (total + cells))
