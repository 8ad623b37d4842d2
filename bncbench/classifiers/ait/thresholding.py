"""The knee-point threshold of AIT (paper 004), batched over many lists (docs/algorithms.md §4.9.1)."""

from __future__ import annotations

import numpy as np

#: largest box of `array_split` into ceil(M/5) parts
_BOX = 5
#: most values per block of `lowest`
_BLOCK = 32


def knee_thresholds(values: np.ndarray, default: str) -> np.ndarray:
    """Threshold of each row of `values` (shape (B, M)); `default` ∈ {"first", "last"} is the search
    box used when a row has no jump. Returns shape (B,); −∞ for every row when M < 3."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError("values must be 2-D (one list per row)")
    if default not in ("first", "last"):
        raise ValueError(f"default must be 'first' or 'last', got {default!r}")
    B, M = values.shape
    if M < 3:
        return np.full(B, -np.inf)
    m = -(-M // _BOX)
    q, r = divmod(M, m)
    sizes = np.full(m, q, dtype=np.int64)
    sizes[:r] += 1
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    out = np.empty(B)
    # the lowest two boxes and the value after them decide most rows (a jump between L_1 and L_2
    # gives L_T = L_1, whose knee needs nothing higher): sort only those values, all values for the
    # other rows
    head = min(M, int(sizes[:2].sum()) + 1)
    if m > 1 and head < M:
        low = lowest(values, head)
        found, _ = _first_jump(_box_means(low, sizes[:2], starts[:2]))
        out[found] = _knee(low[found], np.zeros(int(found.sum()), dtype=np.int64), sizes, starts, M)
        rest = np.flatnonzero(~found)
    else:
        rest = np.arange(B)
    if rest.size:
        s = np.sort(values[rest], axis=1)
        box = np.zeros(rest.size, dtype=np.int64)
        if m > 1:
            found, at = _first_jump(_box_means(s, sizes, starts))
            box = np.where(found, at, m - 1 if default == "last" else 0)
        out[rest] = _knee(s, box, sizes, starts, M)
    return out


def lowest(values: np.ndarray, head: int) -> np.ndarray:
    """The `head` smallest values of each row of `values` (B, M), sorted (as np.sort would give them).
    Long rows: the `head` smallest values lie in the `head` blocks (of up to `_BLOCK` values) with the smallest
    minima (any block holding one of them that is not chosen has a minimum ≥ those of the chosen
    blocks), with the values after the last whole block; only those are partitioned."""
    B, M = values.shape
    width = min(_BLOCK, M // (4 * head))  # at least 4 · head blocks
    if width < 4:
        return np.sort(np.partition(values, head - 1, axis=1)[:, :head], axis=1)
    whole = M // width
    blocks = values[:, :whole * width].reshape(B, whole, width)
    mins = blocks.min(axis=2)
    if np.isnan(mins).any():  # (a NaN sorts last, but makes its block's minimum NaN)
        return np.sort(np.partition(values, head - 1, axis=1)[:, :head], axis=1)
    pick = np.argpartition(mins, head - 1, axis=1)[:, :head]
    cand = np.concatenate([blocks[np.arange(B)[:, None], pick].reshape(B, head * width),
                           values[:, whole * width:]], axis=1)
    return np.sort(np.partition(cand, head - 1, axis=1)[:, :head], axis=1)


def _box_means(s: np.ndarray, sizes: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Means of the boxes (given sizes and starts) of sorted rows; each box summed left to right as a
    plain sum (padding adds 0.0, a no-op)."""
    acc = np.zeros((s.shape[0], sizes.size))
    for t in range(int(sizes.max())):
        valid = sizes > t
        acc = acc + np.where(valid, s[:, np.where(valid, starts + t, 0)], 0.0)
    return acc / sizes


def _first_jump(means: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(whether a row has a jump, the box below its lowest jump)."""
    prev, nxt = means[:, :-1], means[:, 1:]
    jump = (nxt - prev >= 0.05 * np.abs(prev)) & (nxt > prev)  # column j−1: a jump from box j−1 to box j
    return jump.any(axis=1), jump.argmax(axis=1)


def _knee(s: np.ndarray, box: np.ndarray, sizes: np.ndarray, starts: np.ndarray, M: int) -> np.ndarray:
    """The value of the largest knee angle (eq. 7) within each row's search box of sorted rows `s`
    (which hold at least the box and the value after it); ties → the smallest position."""
    n_rows = s.shape[0]
    offs = np.arange(int(sizes.max()))
    pos = starts[box][:, None] + offs[None, :]
    valid = offs[None, :] < sizes[box][:, None]
    pos = np.where(valid, pos, 0)
    interior = valid & (pos >= 1) & (pos <= M - 2)
    rows = np.arange(n_rows)[:, None]
    last = s.shape[1] - 1
    here = s[rows, pos]
    d1 = here - s[rows, np.clip(pos - 1, 0, last)]
    d2 = s[rows, np.clip(pos + 1, 0, last)] - here
    ratio = np.abs(d1 * d2 + 1.0) / (np.sqrt(d1 * d1 + 1.0) * np.sqrt(d2 * d2 + 1.0))
    theta = np.where(interior, np.arccos(np.clip(ratio, -1.0, 1.0)), 0.0)
    theta = np.where(valid, theta, -np.inf)
    best = theta.argmax(axis=1)  # first maximum: the smallest position
    return here[np.arange(n_rows), best]


def knee_threshold(values, default: str) -> float:
    """Threshold of one list of values (see `knee_thresholds`)."""
    v = np.asarray(values, dtype=np.float64).reshape(1, -1)
    return float(knee_thresholds(v, default)[0])
