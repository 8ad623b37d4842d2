"""Log-probability tables built from the shared count tables (one place for every estimator)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts
from bncbench.classifiers.kernels.estimators import log_cond


def slots(pc: PairCounts, i: int) -> slice:
    start = int(pc.offsets[i])
    return slice(start, start + int(pc.sizes[i]))


def nb_tables(pc: PairCounts, card: np.ndarray, skip: bool, estimator: str, m: float) -> list[np.ndarray]:
    """Per attribute, ln P̂(x_i | y) for every slot (K_i + 1, |Y|); the missing slot is 0 under skip."""
    n_classes = pc.class_counts.size
    N = float(pc.class_counts.sum())
    out = []
    for i in range(pc.offsets.size):
        num = pc.xy[slots(pc, i)].astype(np.float64)
        if skip:
            known = num[:-1]
            den = known.sum(axis=0, keepdims=True)
            tot_num = float(known.sum())
        else:
            den = num.sum(axis=0, keepdims=True)
            tot_num = N
        if estimator == "laplace_joint":
            den = pc.class_counts[None, :].astype(np.float64)
        t = log_cond(num, den, card[i], estimator, m, ctx_cells=n_classes, tot_num=tot_num, tot_den=N)
        if skip:
            t[-1] = 0.0
        out.append(t)
    return out


def pair_table(pc: PairCounts, child: int, parent: int, card: np.ndarray, skip: bool,
               estimator: str, m: float, nb_child: np.ndarray) -> np.ndarray:
    """ln P̂(x_child | y, x_parent), shape (K_c + 1, K_p + 1, |Y|) (§2)."""
    n_classes = pc.class_counts.size
    num = pc.pairs[slots(pc, child), slots(pc, parent)].astype(np.float64)
    if skip:
        den = num[:-1].sum(axis=0, keepdims=True)  # instances with the child known
        tot_num = float(num[:-1, :-1].sum())
        tot_den = float(pc.pairs[slots(pc, parent), slots(pc, parent)].sum(axis=1)[:-1].sum())
    else:
        den = num.sum(axis=0, keepdims=True)
        tot_num = tot_den = float(pc.class_counts.sum())
    if estimator == "laplace_joint":  # P̂(x_p, y) counts every instance with the parent known
        den = num.sum(axis=0, keepdims=True)
    t = log_cond(num, den, card[child], estimator, m, ctx_cells=n_classes * card[parent],
                 tot_num=tot_num, tot_den=tot_den)
    if skip:
        t[:, -1, :] = nb_child
        t[-1, :, :] = 0.0
    return t
