"""The area under the ROC curve of one fold: the Mann–Whitney statistic for two classes, Hand and
Till's M (2001) for more (docs/algorithms.md §5.7)."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np


def fold_auc(y: np.ndarray, proba: np.ndarray) -> float:
    """The AUC of one fold's test set from its probabilities (n_test, n_classes): for a data set of
    two classes, that of P(class 1 | x); for more, Hand and Till's M, the mean over the pairs of
    classes present in the test set of (Â(i|j) + Â(j|i)) / 2. NaN when the test set holds fewer
    than two classes (no ROC curve)."""
    y = np.asarray(y, dtype=np.int64)
    present = np.unique(y)
    if present.size < 2:
        return math.nan
    if proba.shape[1] == 2:
        return separation(proba[:, 1], y == 1)
    pairs = []
    for i, j in combinations(present, 2):
        mask = (y == i) | (y == j)
        pairs.append((separation(proba[mask, i], y[mask] == i) + separation(proba[mask, j], y[mask] == j)) / 2)
    return math.fsum(pairs) / len(pairs)


def separation(score: np.ndarray, positive: np.ndarray) -> float:
    """Â: the probability that a positive instance scores higher than a negative one, ties counted
    half (the Mann–Whitney U over n⁺ n⁻), from the average ranks of the scores (Hand and Till
    2001, §3); `positive` holds both values."""
    from scipy.stats import rankdata

    n_pos = int(np.count_nonzero(positive))
    n_neg = positive.size - n_pos
    ranks = rankdata(score)
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
