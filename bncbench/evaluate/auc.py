"""The area under the ROC curve of one fold: the Mann–Whitney statistic for two classes, Hand and
Till's M (2001) for more (docs/algorithms.md §5.7)."""

from __future__ import annotations

import math

import numpy as np


def fold_auc(y: np.ndarray, proba: np.ndarray) -> float:
    """The AUC of one fold's test set from its probabilities (n_test, n_classes): for a data set of
    two classes, Â(1|0) on P(class 1 | x); for more, Hand and Till's M over the c classes present in
    the test set, the mean of (Â(i|j) + Â(j|i)) / 2 over their pairs, i.e. the mean of Â(i|j) over
    the c(c − 1) ordered pairs. NaN when the test set holds fewer than two classes (no ROC curve)."""
    y = np.asarray(y, dtype=np.int64)
    present = np.unique(y)
    if present.size < 2:
        return math.nan
    if proba.shape[1] == 2:
        return float(separations(proba[:, 1], y == 1, [y == 0])[0])
    total = math.fsum(float(a) for i in present
                      for a in separations(proba[:, i], y == i, [y == j for j in present if j != i]))
    return total / (present.size * (present.size - 1))


def separations(score: np.ndarray, positive: np.ndarray, negatives: list[np.ndarray]) -> np.ndarray:
    """Â(positive | each of `negatives`, boolean masks of the instances): the probability that a
    positive instance scores higher than a negative one, ties counted half (the Mann–Whitney U over
    n⁺ n⁻), from the sum of the positives' average ranks among the two (Hand and Till 2001, §3). One
    ranking for all the negatives: a row each, padded with +inf, which ranks above every score."""
    from scipy.stats import rankdata

    pos = score[positive]
    rows = [score[m] for m in negatives]
    block = np.full((len(rows), pos.size + max(r.size for r in rows)), np.inf)
    block[:, :pos.size] = pos
    for k, r in enumerate(rows):
        block[k, pos.size:pos.size + r.size] = r
    ranks = rankdata(block, axis=1)[:, :pos.size].sum(axis=1)
    n_neg = np.array([r.size for r in rows], dtype=np.float64)
    return (ranks - pos.size * (pos.size + 1) / 2) / (pos.size * n_neg)
