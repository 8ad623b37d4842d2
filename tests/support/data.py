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


def random_data_with_ties(seed, n_train=70, n_test=30, n_attr=6, n_classes=3, p_missing=0.08, extras=False):
    """Correlated attributes (each depends on the class and the two before it, so that structures
    are not all ties) with missing values (−1). `extras`: also a constant attribute and an exact
    copy of attribute 1 right after it (exact ties in MI, CMI and conditional entropy)."""
    X, y, cards = correlated_codes(np.random.default_rng(seed), n_train + n_test, n_attr, n_classes, p_missing,
                                   parents=2)
    if extras:
        X = np.column_stack([X[:, :2], X[:, 1], np.zeros(y.size, dtype=np.int64), X[:, 2:]])
        cards = np.concatenate([cards[:2], [cards[1], 1], cards[2:]])
    return X[:n_train], y[:n_train], X[n_train:], cards, n_classes


#: keyword arguments of `random_data_with_ties`: plain seeds, exact ties, two classes, more
#: attributes and missing values
TIE_CASES = [{"seed": s} for s in (0, 1, 2)] + [{"seed": 3, "extras": True}, {"seed": 4, "n_classes": 2, "n_attr": 4},
                                                {"seed": 5, "n_attr": 8, "p_missing": 0.2}]


#: (seed, estimator, missing) of the oracle agreement tests: 3 seeds × 3 estimators × 2 missing modes
ESTIMATOR_CASES = [(seed, est, miss) for seed in (0, 1, 2) for est in ("mestimate", "laplace", "laplace_joint")
                   for miss in ("value", "skip")]


def tied_data(seed: int, n_train: int = 60, n_test: int = 15, n_attr: int = 5, n_classes: int = 3,
              p_missing: float = 0.05):
    """(X, y, Xt, cards, n_classes, (a, b)): `random_data` with a relabelled copy of attribute a as
    column 0 and one of attribute b as the last column (original indices shifted by one); the
    copies tie their originals in exact arithmetic (docs/algorithms.md §0.3)."""
    X, y, Xt, cards, nc = random_data(seed, n_train, n_test, n_attr, n_classes, p_missing)
    rng = np.random.default_rng(7919 + seed)
    a, b = (int(v) for v in rng.choice(n_attr, 2, replace=False))
    both = np.vstack([X, Xt])

    def relabel(i):
        perm = rng.permutation(int(cards[i]))
        return np.where(both[:, i] < 0, -1, perm[np.maximum(both[:, i], 0)])

    both = np.column_stack([relabel(a), both, relabel(b)])
    cards = np.concatenate([[cards[a]], cards, [cards[b]]])
    return both[:n_train], y, both[n_train:], cards, nc, (a + 1, b + 1)


#: the seeds of `tied_data` the tie-rule tests run
TIED_SEEDS = range(12)
