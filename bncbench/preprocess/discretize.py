"""Cut points of equal-frequency and MDL discretisation, and the discretisers' shared base (docs/algorithms.md §1.7)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin

from bncbench.preprocess.columns import categorical_codes, categorical_mask, transform_columns


def eqfreq_petal(values: np.ndarray, bins: int = 5) -> np.ndarray:
    """Quantile cuts on the sorted float32 values (Webb-group C++ rule, §1.2 a)."""
    return _quantile_cuts(np.sort(np.asarray(values, dtype=np.float32)), bins)


def eqfreq_quantile(values: np.ndarray, bins: int = 5) -> np.ndarray:
    """The same quantile cuts on the sorted float64 values (§1.2 c): each cut is a data value."""
    return _quantile_cuts(np.sort(np.asarray(values, dtype=np.float64)), bins)


def _quantile_cuts(v: np.ndarray, bins: int) -> np.ndarray:
    """Cuts v[⌊s·i⌋ − 1] of the sorted values v (dtype kept), k = min(bins, m), s = m/k, each
    kept if it differs from the last kept cut and lies below the maximum."""
    m = v.shape[0]
    if m == 0:
        return np.empty(0, dtype=v.dtype)
    k = min(bins, m)
    size = m / k
    cuts: list = []
    vmax = v[m - 1]
    for i in range(1, k):
        c = v[math.floor(size * i) - 1]
        if (not cuts or c != cuts[-1]) and c < vmax:
            cuts.append(c)
    return np.array(cuts, dtype=v.dtype)


def eqfreq_weka(values: np.ndarray, bins: int = 5) -> np.ndarray:
    """Weka 3.6 `unsupervised.attribute.Discretize -F -B bins` (greedy, midpoint cuts, §1.2 b)."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    m = v.shape[0]
    remaining = float(m)
    target = remaining / bins
    cuts: list[float] = []
    count = 0.0
    last_count = 0.0
    last_pos = -1
    for i in range(m - 1):
        count += 1.0
        remaining -= 1.0
        if not v[i] < v[i + 1]:
            continue
        if len(cuts) >= bins - 1:
            break
        if count >= target:
            if (target - last_count) < (count - target) and last_pos != -1:
                cuts.append((v[last_pos] + v[last_pos + 1]) / 2)
                count -= last_count
                last_count = count
                last_pos = i
            else:
                cuts.append((v[i] + v[i + 1]) / 2)
                count = 0.0
                last_count = 0.0
                last_pos = -1
            target = (remaining + count) / (bins - len(cuts))
        else:
            last_pos = i
            last_count = count
    if len(cuts) < bins - 1 and last_pos != -1:
        cuts.append((v[last_pos] + v[last_pos + 1]) / 2)
    return np.array(cuts, dtype=np.float64)


def _xlnx(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    out = np.zeros_like(c)
    pos = c > 0
    out[pos] = c[pos] * np.log(c[pos])
    return out


def _entropy(counts: np.ndarray) -> float:
    """Class entropy in bits of one count vector (Weka's formula: Σ xlnx form)."""
    total = counts.sum()
    if total <= 0:
        return 0.0
    return float((-_xlnx(counts).sum() + _xlnx(np.array([total]))[0]) / (total * math.log(2)))


def _mdl_cuts(v: np.ndarray, y: np.ndarray, n_classes: int, petal: bool, top: bool = False) -> list:
    """Cuts of the sorted values v with classes y (§1.3); `top` marks the top-level call."""
    n = v.shape[0]
    if n < 2:
        return []
    onehot = np.zeros((n, n_classes), dtype=np.float64)
    onehot[np.arange(n), y] = 1.0
    cum = np.cumsum(onehot, axis=0)  # class counts of v[0..i]
    total = cum[-1]
    cand = np.nonzero(v[:-1] < v[1:])[0]  # cut between i and i+1
    if cand.size == 0:
        return []
    left = cum[cand]
    right = total - left
    nl = left.sum(axis=1)
    nr = right.sum(axis=1)
    # Weka's entropyConditionedOnRows: (-Σ xlnx(cells) + Σ xlnx(row totals)) / (N ln 2)
    ent = (-_xlnx(left).sum(axis=1) - _xlnx(right).sum(axis=1) + _xlnx(nl) + _xlnx(nr)) / (n * math.log(2))
    if petal:
        best = int(np.flatnonzero(ent == ent.min())[-1])
    else:
        best = int(np.argmin(ent))
    i = int(cand[best])
    prior = _entropy(total)
    gain = prior - float(ent[best])
    if gain <= 0:
        return []
    # k: classes present in v; the petal variant's top-level test counts the declared classes
    # instead (§1.3 rule 5, verified for paper 004: hungarian declares 5 classes, 2 present)
    k = n_classes if petal and top else int((total > 0).sum())
    k1 = int((left[best] > 0).sum())
    k2 = int((right[best] > 0).sum())
    e1, e2 = _entropy(left[best]), _entropy(right[best])
    delta = math.log2(3 ** k - 2) - (k * prior - k1 * e1 - k2 * e2)
    if not gain > (math.log2(n - 1) + delta) / n:
        return []
    if petal:
        cut = np.float32((np.float32(v[i]) + np.float32(v[i + 1])) / np.float32(2))
    else:
        cut = (v[i] + v[i + 1]) / 2
    lv, ly, rv, ry = v[: i + 1], y[: i + 1], v[i + 1:], y[i + 1:]
    if petal:
        lc = _mdl_cuts(lv, ly, n_classes, petal) if lv.shape[0] > 2 else []
        rc = _mdl_cuts(rv, ry, n_classes, petal) if rv.shape[0] > 2 else []
    else:
        lc = _mdl_cuts(lv, ly, n_classes, petal)
        rc = _mdl_cuts(rv, ry, n_classes, petal)
    return lc + [cut] + rc


def mdl(values: np.ndarray, y: np.ndarray, n_classes: int, method: str = "weka") -> np.ndarray:
    """Fayyad–Irani MDL cut points (§1.3); `method` "weka" (leftmost tie, float64) or
    "petal" (rightmost tie, float32 values, recurse only on sides with > 2 instances, the
    top-level test with k = `n_classes`, the declared classes, not those present)."""
    petal = method == "petal"
    dtype = np.float32 if petal else np.float64
    v = np.asarray(values, dtype=dtype)
    order = np.argsort(v, kind="stable")
    cuts = _mdl_cuts(v[order], np.asarray(y)[order], n_classes, petal, top=True)
    return np.array(sorted(cuts), dtype=dtype)


def apply_cuts(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin index per value: first bin with v ≤ cut; NaN → len(cuts) + 1 (the extra bin)."""
    v = np.asarray(values, dtype=np.float64)
    missing = np.isnan(v)
    codes = np.searchsorted(cuts, v.astype(cuts.dtype) if cuts.dtype == np.float32 else v, side="left")
    codes = codes.astype(np.int32)
    codes[missing] = len(cuts) + 1
    return codes


class Discretizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """The discretisers' shared part: fitted cut points and int32 codes (docs/algorithms.md §1.7)."""

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.transformer_tags.preserves_dtype = []  # the output is int32 codes
        return tags

    def _fit_cuts(self, X: np.ndarray, cut: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
        """Store the cut points of each column, `cut(column, known)` of a numeric one and None of a
        categorical one, and the number of codes of each."""
        mask = categorical_mask(self, X.shape[1])
        cuts: list = []
        for j in range(X.shape[1]):
            col = X[:, j]
            cuts.append(None if mask[j] else cut(col, ~np.isnan(col)))
        self.is_categorical_ = mask
        self.cuts_ = cuts
        n_bins = np.empty(X.shape[1], dtype=np.int64)
        for j in range(X.shape[1]):
            if mask[j]:
                codes = categorical_codes(X[:, j], j)
                n_bins[j] = int(codes.max()) + 1 if codes.size else 0
            else:
                n_bins[j] = len(cuts[j]) + 1
        self.n_bins_ = n_bins

    def transform(self, X: Any) -> np.ndarray:
        """int32 codes: v to the first bin whose cut c has v ≤ c, categorical codes kept, −1 for missing."""
        def column(j: int, col: np.ndarray) -> np.ndarray:
            if self.is_categorical_[j]:
                return categorical_codes(col, j)
            codes = apply_cuts(col, self.cuts_[j])
            codes[np.isnan(col)] = -1
            return codes

        return transform_columns(self, X, np.int32, column)
