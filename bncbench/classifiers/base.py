"""Base class: input checking, internal codes, predict / predict_proba from a joint log-likelihood."""

from __future__ import annotations

import numpy as np

from bncbench.estimators import ESTIMATORS

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
        Xc = X.astype(np.int64, copy=True)
        if (Xc < -1).any() or (Xc >= self.cardinalities_).any():
            raise ValueError("X holds codes outside [-1, cardinality)")
        miss = Xc < 0
        if miss.any():
            Xc[miss] = np.broadcast_to(self.cardinalities_, Xc.shape)[miss]
        return Xc

    def fit(self, X, y):
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
        self._fit(Xc, y)
        return self

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
        raise NotImplementedError
