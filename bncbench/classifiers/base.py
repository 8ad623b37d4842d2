"""Base class: input checking, internal codes, predict / predict_proba from a joint log-likelihood."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.counts import PairCounts, pair_counts
from bncbench.classifiers.estimators import ESTIMATORS

MISSING_MODES = ("value", "skip")


class BayesNetClassifier:
    """Common machinery of every classifier (scikit-learn style).

    X is a 2-D integer array of value codes ≥ 0 with −1 for a missing value; y holds class
    codes. Internally attribute i uses codes 0..K_i−1 and the extra slot K_i for a missing
    value. With missing="value" that slot is one more value (counted in |X_i| iff the
    attribute has a missing value in the training data); with "skip" it is left out of every
    count and product (Weka's way). Subclasses implement `_fit(Xc, y)` and
    `_joint_log_likelihood(Xc)`.
    """

    #: whether fit uses the pairwise (x_i, x_j, y) counts (NB needs only (x_i, y))
    NEEDS_PAIRS = True
    #: allowed values of string parameters (checked by the config validator and by fit)
    PARAM_CHOICES: dict[str, tuple[str, ...]] = {"estimator": ESTIMATORS}

    def __init__(self, estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None):
        self.estimator = estimator
        self.m = m
        self.missing = missing
        self.cardinalities = cardinalities
        self.n_classes = n_classes

    # -- input handling -------------------------------------------------------------
    def _check_params(self) -> None:
        for name, choices in self.PARAM_CHOICES.items():
            if getattr(self, name) not in choices:
                raise ValueError(f"{name} must be one of {choices}, got {getattr(self, name)!r}")
        if self.missing not in MISSING_MODES:
            raise ValueError(f"missing must be one of {MISSING_MODES}, got {self.missing!r}")

    def _codes(self, X) -> np.ndarray:
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D, got shape {X.shape}")
        if X.shape[1] != self.cardinalities_.size:
            raise ValueError(f"X has {X.shape[1]} attributes, the model was fitted on {self.cardinalities_.size}")
        if not np.issubdtype(X.dtype, np.integer):
            raise ValueError(f"X must hold integer codes, got dtype {X.dtype}")
        if X.shape[0] == 0:
            return X.astype(np.int64)
        lo, hi = X.min(axis=0), X.max(axis=0)
        if (lo < -1).any() or (hi >= self.cardinalities_).any():
            raise ValueError("X holds codes outside [-1, cardinality)")
        if (lo >= 0).all():
            return X  # no missing value: the codes are already the internal codes (no copy)
        Xc = X.astype(np.int64, copy=True)
        miss = Xc < 0
        Xc[miss] = np.broadcast_to(self.cardinalities_, Xc.shape)[miss]
        return Xc

    def fit(self, X, y, counts: PairCounts | None = None):
        """Fit on X (codes, −1 = missing) and y. `counts` may pass the `PairCounts` of exactly
        these rows (built with `fit_counts`), so that classifiers sharing a training set — or
        folds sharing a data set (all rows minus the test rows) — count only once."""
        self._check_params()
        X = np.asarray(X)
        y = np.asarray(y).astype(np.int64)
        if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
            raise ValueError("X must be (n_samples, n_attributes) and y (n_samples,)")
        if (y < 0).any():
            raise ValueError("y holds negative class codes")
        if self.cardinalities is not None:
            cards = np.asarray(self.cardinalities, dtype=np.int64)
        else:
            cards = (X.max(axis=0) + 1 if X.shape[0] else np.ones(X.shape[1])).astype(np.int64)
            cards = np.maximum(cards, 1)
        self.cardinalities_ = cards
        self.n_classes_ = int(self.n_classes if self.n_classes is not None else (y.max() + 1 if y.size else 1))
        if y.size and y.max() >= self.n_classes_:
            raise ValueError("y holds a class code ≥ n_classes")
        self.classes_ = np.arange(self.n_classes_)
        Xc = self._codes(X)
        self.sizes_ = cards + 1  # table slots per attribute (last = missing)
        if self.missing == "value":
            self.card_ = cards + (X < 0).any(axis=0).astype(np.int64)
        else:
            self.card_ = cards.copy()
        if counts is not None:
            if not np.array_equal(counts.sizes, self.sizes_) or counts.n != Xc.shape[0] \
                    or counts.class_counts.size != self.n_classes_:
                raise ValueError("counts do not match X, y and the cardinalities")
        self._counts_in = counts
        try:
            self._fit(Xc, y)
        finally:
            self._counts_in = None
        return self

    def _pair_counts(self, Xc: np.ndarray, y: np.ndarray, pairs: bool = True) -> PairCounts:
        """The count tables of the training data: the ones passed to `fit`, or counted now."""
        given = self._counts_in
        if given is not None and (given.xxy is not None or not pairs):
            return given
        return pair_counts(Xc, y, self.sizes_, self.n_classes_, pairs=pairs)

    # -- prediction -----------------------------------------------------------------
    def predict_proba(self, X) -> np.ndarray:
        jll = self._joint_log_likelihood(self._codes(X))
        jll = jll - jll.max(axis=1, keepdims=True)
        p = np.exp(jll)
        return p / p.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        return np.argmax(self.predict_proba(X), axis=1)  # ties → smallest class index

    def _fit(self, Xc: np.ndarray, y: np.ndarray) -> None:
        raise NotImplementedError

    def _joint_log_likelihood(self, Xc: np.ndarray) -> np.ndarray:
        """(n, n_classes) log P(x, y) up to a per-row constant; each model supplies it."""
        raise NotImplementedError


def fit_counts(X, y, cardinalities, n_classes: int, pairs: bool = True) -> PairCounts:
    """The `PairCounts` that `fit(X, y)` would build (missing −1 → the extra slot K_i)."""
    cards = np.asarray(cardinalities, dtype=np.int64)
    Xc = np.asarray(X)
    if Xc.size and Xc.min() < 0:
        Xc = Xc.astype(np.int64, copy=True)
        miss = Xc < 0
        Xc[miss] = np.broadcast_to(cards, Xc.shape)[miss]
    return pair_counts(Xc, np.asarray(y), cards + 1, n_classes, pairs=pairs)
