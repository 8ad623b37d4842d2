"""The wrappers' leave-one-out engine made for every block's rows at once (issue 40): the compiled candidate
sums of CAA and CAE against plain Python sums taken in the superparents' order and against numpy's einsum
(the form the engine used), PAE's sums without one candidate and the terms of rows of several classes
against plain Python and the engine's per-class form, and whole searches against the per-block path."""

import numpy as np
import pytest

import bncbench.classifiers.aode.loo_engine as le
from bncbench.classifiers import AODE
from bncbench.classifiers.aode.loo_engine import LooEngine, _without_one
from bncbench.classifiers.aode.loo_kernels import child_sums
from tests.support.data import random_data

SHAPES = [(5, 7, 3), (9, 1, 2), (4, 13, 1), (12, 6, 24), (1, 3, 5)]  # (n, rows, |Y|)


def _case(rng, n, m, ny, V=6):
    """Tables of V·V rows (other classes, and own class per class), row slots, E with zeros, classes per row."""
    other = rng.random((V * V, ny)) * 10.0 ** rng.integers(-3, 4, (V * V, ny))
    own = rng.random((ny, V * V)) * 10.0 ** rng.integers(-3, 4, (ny, V * V))
    g = rng.integers(0, V, (n, m)).astype(np.intp)
    E = rng.random((n, m, ny)) * (rng.random((n, m, ny)) > 0.2)
    cands = rng.permutation(n)[:max(1, n - 1)].astype(np.intp)
    yrow = rng.integers(0, ny, m).astype(np.intp)
    return other, own, g, g * V, E, cands, yrow


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", SHAPES)
def test_child_sums_are_sequential_sums_and_the_einsum(seed, shape):
    rng = np.random.default_rng(seed)
    other, own, g, gV, E, cands, yrow = _case(rng, *shape)
    n, m, ny = shape
    out = np.full((m, cands.size, ny), np.nan)
    child_sums(other, own, g, gV, E, cands, yrow, out)
    for j, a in enumerate(cands.tolist()):
        F = other[gV + g[a]]  # (n, m, |Y|), the own class's column from `own`, as the engine gathered it
        F[np.arange(n)[:, None], np.arange(m)[None, :], yrow[None, :]] = own[yrow[None, :], gV + g[a]]
        assert np.array_equal(out[:, j], np.einsum("ptk,ptk->tk", F, E))
        for t in range(m):
            for y in range(ny):
                acc = 0.0
                for p in range(n):  # Python floats: every product rounded, added in order
                    idx = int(gV[p, t] + g[a, t])
                    f = float(own[y, idx]) if y == yrow[t] else float(other[idx, y])
                    acc += f * float(E[p, t, y])
                assert out[t, j, y] == acc


@pytest.mark.parametrize("K", [2, 3, 8])
def test_without_one_is_prefix_plus_suffix(K):
    rng = np.random.default_rng(K)
    E = rng.random((K + 2, 4, 3)) * 10.0 ** rng.integers(-5, 5, (K + 2, 4, 3))
    ca = rng.permutation(K + 2)[:K].astype(np.intp)
    A = np.empty((K, 4, 3))
    _without_one(E, ca, A)
    for j in range(K):
        for t in range(4):
            for y in range(3):
                pre = 0.0
                for i in range(j):
                    pre += float(E[ca[i], t, y])
                suf = 0.0
                for i in range(K - 1, j, -1):
                    suf = float(E[ca[i], t, y]) if i == K - 1 else suf + float(E[ca[i], t, y])
                assert A[j, t, y] == (pre + suf if j < K - 1 else pre)


@pytest.mark.parametrize("loss", ["rmse", "zol"])
@pytest.mark.parametrize("ny", [1, 2, 5])
def test_terms_of_rows_of_several_classes(loss, ny):
    """`_terms_prob` with a class per row gives, row by row, the terms of the one-class form (and the same low
    rows), and the RMSE term from plain Python sums over the classes in order."""
    X, y, _, cards, _ = random_data(0, n_classes=ny)
    eng = LooEngine(AODE(estimator="laplace", cardinalities=cards, n_classes=ny).fit(X, y),
                    np.where(X < 0, cards, X), y, loss)
    rng = np.random.default_rng(ny)
    A = rng.random((3, 40, ny)) * 10.0 ** rng.integers(-300, 1, (3, 40, ny))
    A[0, :5] = 1e-290  # class sums under _TINY
    yrow = np.sort(rng.integers(0, ny, 40)).astype(np.intp)
    T, low = eng._terms_prob(A, yrow)
    for k in range(ny):
        r = yrow == k
        Tk, lowk = eng._terms_prob(np.ascontiguousarray(A[:, r]), k)
        assert np.array_equal(T[:, r], Tk)
        assert np.array_equal(low[:, r] if low is not None else np.zeros(Tk.shape, bool),
                              lowk if lowk is not None else np.zeros(Tk.shape, bool))
    if loss == "rmse":
        for j, t in [(1, 0), (2, 17), (0, 39)]:
            rest = 0.0
            for c in range(ny):
                if c != yrow[t]:
                    rest += float(A[j, t, c])
            assert T[j, t] == (rest / (rest + float(A[j, t, yrow[t]]))) ** 2 or np.isnan(T[j, t])


@pytest.mark.parametrize("kind", ["PAE", "CAA", "CAE"])
@pytest.mark.parametrize("loss", ["rmse", "zol"])
def test_search_of_all_rows_equals_the_per_block_search(kind, loss, monkeypatch):
    """The search with the candidates' sums and terms made for every block's rows at once selects the same sets
    with the same losses, bit for bit, as the per-block path (states rebuilt each step, no cache)."""
    steps = []
    for seed, est, miss in [(5, "laplace", "value"), (6, "mestimate", "skip"), (7, "laplace_joint", "value")]:
        X, y, _, cards, nc = random_data(seed, n_train=90, n_attr=7, n_classes=4)
        model = AODE(estimator=est, missing=miss, cardinalities=cards, n_classes=nc).fit(X, y)
        Xc = np.where(X < 0, cards, X)
        merged = LooEngine(model, Xc, y, loss).search(kind)
        with monkeypatch.context() as mp:
            mp.setattr(le, "_CACHE_BYTES", 0)
            per_block = LooEngine(model, Xc, y, loss).search(kind)
        assert merged[0] == per_block[0] and merged[1] == per_block[1]
        assert np.array_equal(merged[2], per_block[2])
        steps.append(len(merged[2]) - 1)
    assert max(steps) > 0, steps  # some search took a step
