"""Attribute rankings of selective TAN (paper 000 §3, docs/algorithms.md §4.5.1)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts
from bncbench.classifiers.kernels.infotheory import (
    attribute_mutual_info,
    class_mi_given_attribute,
    mutual_info_class,
    symmetrical_uncertainty,
)
from bncbench.classifiers.kernels.ties import tie_key

RANKINGS = ("mi", "su", "mrmr", "cmim", "jmi")


def _argmax(scores: np.ndarray, candidates: list[int]) -> int:
    best, best_s = candidates[0], scores[candidates[0]]
    for c in candidates[1:]:
        if scores[c] > best_s:  # strict: ties keep the smaller index
            best, best_s = c, scores[c]
    return best


def _forward(first_scores: np.ndarray, score_of, precision: str) -> list[int]:
    """Greedy forward ranking: first argmax I(X;Y), then argmax score_of(candidate, selected)."""
    n = first_scores.size
    order = [_argmax(first_scores, list(range(n)))]
    while len(order) < n:
        rest = [a for a in range(n) if a not in order]
        scores = np.full(n, -np.inf)
        for a in rest:
            scores[a] = score_of(a, order)
        order.append(_argmax(scores if precision == "float32" else tie_key(scores), rest))
    return order


def rank(pc: PairCounts, method: str, precision: str = "float64", skip_missing: bool = False,
         mrmr_form: str = "ratio", mrmr_offset: float = 0.01) -> list[int]:
    """The ranked attribute indices, best first."""
    mi = mutual_info_class(pc, precision, skip_missing)
    if method == "mi":
        return [int(a) for a in np.argsort(-mi, kind="stable")]
    if method == "su":
        su = symmetrical_uncertainty(pc, precision, skip_missing)
        return [int(a) for a in np.argsort(-su, kind="stable")]
    if method == "mrmr":
        aa = attribute_mutual_info(pc, precision, skip_missing)
        if mrmr_form == "ratio":  # paper 000 eq. 14
            return _forward(mi, lambda a, sel: mi[a] / (aa[a, sel].mean() + mrmr_offset), precision)
        return _forward(mi, lambda a, sel: mi[a] - aa[a, sel].mean(), precision)  # eq. 10
    if method == "cmim":
        cm = class_mi_given_attribute(pc, precision, skip_missing)
        return _forward(mi, lambda a, sel: cm[a, sel].min(), precision)
    if method == "jmi":
        cm = class_mi_given_attribute(pc, precision, skip_missing)
        # I(X, X'; Y) = I(X'; Y) + I(X; Y | X')
        return _forward(mi, lambda a, sel: float(np.sum(mi[sel] + cm[a, sel])), precision)
    raise ValueError(f"ranking must be one of {RANKINGS}, got {method!r}")
