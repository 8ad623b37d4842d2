"""Cross-validation folds (§5.1): stratified k-fold and the Webb-group C++ system's folds."""

from __future__ import annotations

import numpy as np


def petal_folds(n: int, k: int, run: int) -> np.ndarray:
    """Fold of each instance in file order: MT19937 with init_genrand(run), genrand_int32() mod k."""
    bg = np.random.MT19937(0)
    bg._legacy_seeding(run)
    return (bg.random_raw(n) % k).astype(np.int32)


def stratified_folds(y: np.ndarray, k: int, seed: int) -> np.ndarray:
    """Shuffle with default_rng(seed), order by class (stable), deal round-robin into k folds."""
    rng = np.random.default_rng(seed)
    perm = rng.permutation(y.shape[0])
    perm = perm[np.argsort(y[perm], kind="stable")]
    fold = np.empty(y.shape[0], dtype=np.int32)
    fold[perm] = np.arange(y.shape[0]) % k
    return fold


def make_folds(y: np.ndarray, scheme: str, k: int, run: int, seed: int) -> np.ndarray:
    if scheme == "petal":
        return petal_folds(y.shape[0], k, seed + run)
    return stratified_folds(y, k, seed + run)
