"""The corrected resampled t-test of two classifiers on one data set's paired fold values
(Nadeau and Bengio 2003, as Weka 3.6's PairedCorrectedTTester; docs/algorithms.md §6.1)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

SMALL = 1e-6  # Weka's Utils.SMALL: a standard deviation of the differences at most this counts as zero


class PairedFolds(Protocol):
    """Per-fold values paired across classifiers (results.FoldValues)."""

    datasets: list[str]
    values: dict[tuple[str, str], np.ndarray]
    left_out: dict[str, str]

    def test_train_ratio(self, dataset: str) -> float: ...


@dataclass(frozen=True)
class TTest:
    t: float            # mean(d) / sqrt((1/J + n_test/n_train) · var(d)); ±inf or 0 when var(d) counts as zero
    df: int             # J − 1
    p: float            # two-tailed
    mean_a: float
    mean_b: float


def corrected_ttest(a: np.ndarray, b: np.ndarray, test_train_ratio: float) -> TTest:
    """The test of the paired fold values `a` and `b` (d = a − b, J = len(d) folds over all runs)."""
    from scipy.stats import t as t_dist

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = a - b
    J = len(d)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if J > 1 else math.inf
    if sd > SMALL:
        t = mean / math.sqrt((1.0 / J + test_train_ratio) * sd * sd)
        p = float(2.0 * t_dist.sf(abs(t), J - 1)) if J > 1 else 1.0
    elif not d.any():  # every difference 0: no evidence of a difference
        t, p = 0.0, 1.0
    else:  # the same nonzero difference on every fold: Weka takes it as certain
        t, p = math.copysign(math.inf, mean), 0.0
    return TTest(t, J - 1, p, float(a.mean()), float(b.mean()))


def verdict(a: np.ndarray, b: np.ndarray, test_train_ratio: float, alpha: float, lower_is_better: bool) -> int:
    """+1 if A is significantly better than B at level `alpha` (two-tailed), −1 if significantly
    worse, 0 if the test does not reject."""
    r = corrected_ttest(a, b, test_train_ratio)
    if r.p > alpha:
        return 0
    higher = r.mean_a > r.mean_b
    return -1 if higher == lower_is_better else 1
