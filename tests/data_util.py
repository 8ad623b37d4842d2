"""Random discrete data for the oracle tests: correlated attributes, so that structures are not
all ties, with −1 codes for missing values."""

from __future__ import annotations

import numpy as np


def correlated_codes(rng: np.random.Generator, n_rows: int, n_attr: int, n_classes: int, p_missing: float,
                     parents: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, cardinalities): attribute i is (y + the `parents` previous attributes) mod K_i with
    probability 0.6, else uniform noise; then each cell is missing (−1) with `p_missing`."""
    cards = rng.integers(2, 5, size=n_attr)
    y = rng.integers(0, n_classes, size=n_rows)
    X = np.empty((n_rows, n_attr), dtype=np.int64)
    for i in range(n_attr):
        noise = rng.integers(0, cards[i], size=n_rows)
        base = (y + sum(X[:, i - d] for d in range(1, parents + 1) if i >= d)) % cards[i]
        X[:, i] = np.where(rng.random(n_rows) < 0.6, base, noise)
    X[rng.random(X.shape) < p_missing] = -1
    return X, y, cards


def random_data(seed: int, n_train: int = 60, n_test: int = 25, n_attr: int = 5, n_classes: int = 3,
                p_missing: float = 0.08):
    """(X_train, y_train, X_test, cardinalities, n_classes) of `correlated_codes`."""
    X, y, cards = correlated_codes(np.random.default_rng(seed), n_train + n_test, n_attr, n_classes, p_missing)
    return X[:n_train], y[:n_train], X[n_train:], cards, n_classes
