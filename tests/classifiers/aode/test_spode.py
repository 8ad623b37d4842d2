"""The SPODE block scorer (classifiers/aode/spode.py) against a plain loop over rows, superparents
and children, with child sets per data set and per test instance (§4.8's C)."""

import numpy as np
import pytest

from bncbench.classifiers.aode import spode
from bncbench.classifiers.aode.spode import spode_blocks


def _loop(Xc, offs, lj, lc, children):
    rows, n = Xc.shape
    out = np.zeros((rows, n, lj.shape[1]))
    for r in range(rows):
        for p in range(n):
            a = lj[offs[p] + Xc[r, p]].copy()
            for c in range(n):
                in_c = True if children is None else (children[r, c] if children.ndim == 2 else children[c])
                if c != p and in_c:
                    a = a + lc[offs[p] + Xc[r, p], offs[c] + Xc[r, c]]
            out[r, p] = a
    return out


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("kind", ["all", "fixed", "per_row"])
def test_blocks_equal_the_loop(seed, kind):
    rng = np.random.default_rng(seed)
    n, rows, ny = 4, 5000, 3  # more rows than one block
    offs = np.array([0, 3, 6, 9])
    Xc = rng.integers(0, 3, (rows, n))
    lj, lc = rng.normal(size=(12, ny)), rng.normal(size=(12, 12, ny))
    children = {"all": None, "fixed": np.array([True, False, True, True]),
                "per_row": rng.random((rows, n)) < 0.6}[kind]
    got = np.concatenate([sp.copy().transpose(1, 0, 2) for _, _, sp, _ in
                          spode_blocks(Xc, offs, lj, lc, children=children)])
    np.testing.assert_array_equal(got, _loop(Xc, offs, lj, lc, children))


def test_child_mask_shape_is_checked():
    with pytest.raises(ValueError, match="children"):
        next(spode_blocks(np.zeros((3, 2), dtype=np.int64), np.array([0, 1]), np.zeros((2, 2)),
                          np.zeros((2, 2, 2)), children=np.ones(3, dtype=bool)))


@pytest.mark.parametrize("kind", ["all", "fixed", "per_row"])
def test_only_the_given_superparents(kind, monkeypatch):
    """With `superparents`, the SPODEs of those attributes are the loop's, bit for bit, and the
    others are not scored (a NaN written into their rows stays there in the next block)."""
    rng = np.random.default_rng(5)
    n, rows, ny = 5, 1000, 2
    monkeypatch.setattr(spode, "_BLOCK_BYTES", 8 * n * ny * 100)  # blocks of 100 rows
    offs = np.arange(n) * 3
    Xc = rng.integers(0, 3, (rows, n))
    lj, lc = rng.normal(size=(15, ny)), rng.normal(size=(15, 15, ny))
    children = {"all": None, "fixed": np.array([True, True, False, True, True]),
                "per_row": rng.random((rows, n)) < 0.6}[kind]
    chosen = np.array([False, True, False, False, True])
    want = _loop(Xc, offs, lj, lc, children)
    got = []
    for s, _g, sp, _ in spode_blocks(Xc, offs, lj, lc, children=children, superparents=chosen):
        assert s == 0 or np.isnan(sp[~chosen]).all()
        got.append(sp[chosen].copy().transpose(1, 0, 2))
        sp[~chosen] = np.nan
    assert len(got) > 1  # more rows than one block
    np.testing.assert_array_equal(np.concatenate(got), want[:, chosen])


def test_children_per_row_as_a_mask_product():
    """Per-row children with tables holding −inf (a zero estimate): each factor times a 1.0 / 0.0 mask,
    then added in attribute order — NaN where an excluded child's factor is −inf — bit for bit."""
    rng = np.random.default_rng(8)
    n, rows, ny = 4, 700, 3
    offs = np.arange(n) * 3
    Xc = rng.integers(0, 3, (rows, n))
    lj, lc = rng.normal(size=(12, ny)), rng.normal(size=(12, 12, ny))
    lc[rng.random(lc.shape) < 0.1] = -np.inf
    lc[rng.random(lc.shape) < 0.1] = 0.0
    children = rng.random((rows, n)) < 0.5
    want = np.empty((rows, n, ny))
    slots = Xc + offs
    for p in range(n):
        acc = lj[slots[:, p]].copy()
        for c in range(n):
            if c != p:
                with np.errstate(invalid="ignore"):
                    acc += lc[slots[:, p], slots[:, c]] * children[:, c, None].astype(np.float64)
        want[:, p] = acc
    got = np.concatenate([sp.copy().transpose(1, 0, 2) for _, _, sp, _ in
                          spode_blocks(Xc, offs, lj, lc, children=children)])
    assert np.isnan(want).any()
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
