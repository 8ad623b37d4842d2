"""Train/test splits of the evaluation schemes (§5.1, §5.5): stratified k-fold, the Webb-group
C++ system's folds (`petal`), and that system's bias–variance experiment (`petal-bv`)."""

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


#: the schemes whose folds partition the data (each instance tested once per run)
FOLD_SCHEMES = ("stratified", "petal")
#: every scheme; `petal-bv` is the bias–variance experiment (one split per run)
SCHEMES = (*FOLD_SCHEMES, "petal-bv")


def _mt_uniform(seed: int, n: int) -> np.ndarray:
    """n draws genrand_int32() / 2^32 of MT19937 seeded with init_genrand(seed), as floats."""
    bg = np.random.MT19937(0)
    bg._legacy_seeding(seed)
    return bg.random_raw(n).astype(np.float64) / 4294967296.0


def petal_bv_split(n: int, run: int, seed: int = 0, divisor: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(train, test) row numbers of experiment `run` of the C++ system's bias–variance experiment
    (docs/algorithms.md §5.5)."""
    t = n // divisor
    u = _mt_uniform(seed, n)
    v = _mt_uniform(seed + run, n)
    test, train = [], []
    need_test, need_train, left, iv = t, t, n, 0
    for row in range(n):
        if need_test == 0 and need_train == 0:
            break
        if u[row] <= need_test / left:
            test.append(row)
            need_test -= 1
        elif need_train > 0:
            if v[iv] <= need_train / (left - need_test):
                train.append(row)
                need_train -= 1
            iv += 1
        left -= 1
    return np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64)


def split(y: np.ndarray, scheme: str, k: int, run: int, fold: int, seed: int,
          divisor: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(train, test) row numbers of one (run, fold) of a scheme; `petal-bv` has one fold per run."""
    if scheme == "petal-bv":
        return petal_bv_split(y.shape[0], run, seed, divisor)
    folds = make_folds(y, scheme, k, run, seed)
    return np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)
