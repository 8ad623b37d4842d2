"""Data sets generated from their published definitions, and synthetic scale data sets (§1.8)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from bncbench.data.dataset import Attribute, Dataset
from bncbench.errors import UserError
from bncbench.utils import memory

# Seven-segment display: segments (top, upper-left, upper-right, middle, lower-left,
# lower-right, bottom) lit for the digits 0..9.
LED_SEGMENTS = np.array([
    [1, 1, 1, 0, 1, 1, 1],  # 0
    [0, 0, 1, 0, 0, 1, 0],  # 1
    [1, 0, 1, 1, 1, 0, 1],  # 2
    [1, 0, 1, 1, 0, 1, 1],  # 3
    [0, 1, 1, 1, 0, 1, 0],  # 4
    [1, 1, 0, 1, 0, 1, 1],  # 5
    [1, 1, 0, 1, 1, 1, 1],  # 6
    [1, 0, 1, 0, 0, 1, 0],  # 7
    [1, 1, 1, 1, 1, 1, 1],  # 8
    [1, 1, 1, 1, 0, 1, 1],  # 9
], dtype=np.int32)


def led(rows: int = 1000, noise: float = 0.1, seed: int = 1) -> Dataset:
    """Digit uniform over 0..9; each of the 7 segments inverted independently with prob. `noise`."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, rows).astype(np.int32)
    flips = rng.random((rows, 7)) < noise
    X = np.where(flips, 1 - LED_SEGMENTS[y], LED_SEGMENTS[y]).astype(np.int32)
    attrs = [Attribute(f"segment{i + 1}", ["0", "1"]) for i in range(7)]
    return Dataset("led", attrs, [X[:, i].copy() for i in range(7)], y, [str(d) for d in range(10)])


def waveform_bases() -> np.ndarray:
    """The three triangular base waves h1, h2, h3 on the points 1..21 (peaks at 11, 15, 7)."""
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0)
    h2 = np.maximum(6 - np.abs(i - 15), 0)
    h3 = np.maximum(6 - np.abs(i - 7), 0)
    return np.stack([h1, h2, h3]).astype(np.float64)


def waveform(rows: int = 100000, seed: int = 1) -> Dataset:
    """Class c ∈ {0,1,2} equiprobable; x = u·h_a + (1−u)·h_b + ε with u ~ U(0,1), ε ~ N(0,1)
    per point, and (a, b) = (1,2), (1,3), (2,3) for the three classes."""
    rng = np.random.default_rng(seed)
    h = waveform_bases()
    pairs = np.array([[0, 1], [0, 2], [1, 2]])
    y = rng.integers(0, 3, rows).astype(np.int32)
    u = rng.random(rows)[:, None]
    X = u * h[pairs[y, 0]] + (1 - u) * h[pairs[y, 1]] + rng.standard_normal((rows, 21))
    attrs = [Attribute(f"x{i + 1}") for i in range(21)]
    return Dataset("waveform", attrs, [X[:, i].copy() for i in range(21)], y, ["0", "1", "2"])


SYNTH_PATTERN = re.compile(r"^synth:(\d+)x(\d+)x(\d+)(?::(\d+))?$")
#: the value codes of a synthetic attribute (at most 5 values): a byte each, not int32's four (a
#: data set of millions of rows is held by every worker for the whole run; bench/README.md: Issue 40)
SYNTH_CODES = np.int8


def is_synth(name: str) -> bool:
    return name.startswith("synth:")


def check_synth(spec: str) -> tuple[int, int, int, int]:
    """Rows, attributes, classes and seed of a `synth:ROWSxATTRSxCLASSES[:seed]` name; UserError
    when it is malformed or when its sample would not fit in the memory available
    (`synth_bytes`), before anything is sampled."""
    m = SYNTH_PATTERN.match(spec)
    if not m:
        raise UserError(f"{spec!r}: synthetic data sets are named synth:ROWSxATTRSxCLASSES[:seed], "
                        "e.g. synth:1000000x10x10")
    rows, n, nc = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if rows < 1 or n < 1 or nc < 2:
        raise UserError(f"{spec!r}: needs at least 1 row, 1 attribute and 2 classes")
    try:
        found = memory.available()
    except ValueError as e:
        raise UserError(str(e)) from None
    if found is not None and synth_bytes(rows, n) > found[0]:
        raise UserError(f"{spec!r}: {rows} rows × {n} attributes take about {memory.size(synth_bytes(rows, n))} to "
                        f"sample, more than the {memory.size(found[0])} of memory available ({found[1]}); use fewer "
                        f"rows or attributes")
    return rows, n, nc, int(m.group(4) or 0)


def synth_bytes(rows: int, attributes: int) -> int:
    """The memory a synthetic data set takes as it is sampled: a one-byte code per row and attribute
    (`SYNTH_CODES`), and per row its class (int32) and a float64 draw."""
    return rows * (attributes + 12)


def synth(spec: str) -> Dataset:
    """`synth:ROWSxATTRSxCLASSES[:seed]`: ancestral sampling from a random class-rooted network (§1.8)."""
    rows, n, nc, seed = check_synth(spec)
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 6, n)
    parents = np.array([-1] + [int(rng.integers(0, i)) for i in range(1, n)])
    prior = rng.dirichlet(np.full(nc, 2.0))
    y = np.searchsorted(np.cumsum(prior), rng.random(rows), side="right").clip(0, nc - 1).astype(np.int32)
    cols: list[np.ndarray] = []
    for i in range(n):
        pc = 1 if parents[i] < 0 else int(cards[parents[i]])
        cpt = rng.dirichlet(np.full(int(cards[i]), 0.5), size=(pc, nc))  # [parent value, class, value]
        cdf = np.cumsum(cpt, axis=2)
        ctx = (cols[parents[i]] if parents[i] >= 0 else np.zeros(rows, SYNTH_CODES))
        u = rng.random(rows)
        x = np.empty(rows, dtype=SYNTH_CODES)
        for s in range(0, rows, 1 << 20):  # chunks bound the (rows, card) temporary
            c = cdf[ctx[s:s + (1 << 20)], y[s:s + (1 << 20)], :-1]
            x[s:s + (1 << 20)] = (u[s:s + (1 << 20), None] >= c).sum(axis=1)
        cols.append(x)
    attrs = [Attribute(f"a{i}", [str(v) for v in range(int(cards[i]))]) for i in range(n)]
    ds = Dataset(spec, attrs, cols, y, [str(c) for c in range(nc)])
    ds.checksums = {spec: "generated"}
    return ds


GENERATORS: dict[str, Callable[..., Dataset]] = {"led": led, "waveform": waveform}
