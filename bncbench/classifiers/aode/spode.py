"""Scoring of superparent one-dependence estimators (SPODEs) on blocks of test rows, shared by
AODE (§4.4), TAODE (§4.13) and IWAODE (§4.14), with the log-space helpers they use."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

_BLOCK_BYTES = 1 << 20  # size of the n × rows × |Y| score block (test rows scored at once)


def spode_blocks(Xc: np.ndarray, offsets: np.ndarray, log_joint: np.ndarray, log_cond: np.ndarray,
                 pair_table: np.ndarray | None = None, children: np.ndarray | None = None,
                 superparents: np.ndarray | None = None
                 ) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray | None]]:
    """Score every SPODE on blocks of test rows, yielding (start, g, sp, ps) per block (§4.4); given
    `superparents` (bool, n), only theirs: the other rows of sp (and ps) are left undefined, for
    callers that set them to −inf."""
    n_rows, n = Xc.shape
    ny = log_joint.shape[1]
    V = log_joint.shape[0]
    flat = log_cond.reshape(-1, ny)  # row (p slot · V + c slot)
    pflat = None if pair_table is None else pair_table.reshape(-1)
    offs = offsets.astype(np.intp)
    # Blocks small enough for the buffers to stay in cache; every value is computed row by row in
    # the same order whatever the block, so the result does not depend on it (with one class,
    # numpy sums a one-row block's column pairwise: blocks as they always were).
    step = min(n_rows, 1 << 16) if ny == 1 else max(64, min(n_rows, _BLOCK_BYTES // (8 * n * ny)))
    gT = np.empty((n, step), dtype=np.intp)
    base = np.empty(step, dtype=np.intp)
    idx = np.empty((n, step), dtype=np.intp)     # rows of `flat` for one superparent
    cond = np.empty((n, step, ny))               # ln P̂(x_c | y, x_p) for every c ≠ p
    spode = np.empty((n, step, ny))
    pair = np.empty((n, step)) if pflat is not None else None
    psum = np.empty((n, step)) if pflat is not None else None
    if children is not None:
        children = np.asarray(children, dtype=bool)
        if children.shape not in ((n,), (n_rows, n)):
            raise ValueError(f"children must have shape ({n},) or ({n_rows}, {n}), got {children.shape}")
    per_row = children is not None and children.ndim == 2
    if per_row and pflat is not None:
        raise ValueError("children per row and a pair table together are not supported")
    if per_row:  # an excluded child's factor is read V² rows on, from the table times 0.0: ln P̂ · 0.0
        with np.errstate(invalid="ignore"):  # −inf · 0.0 = NaN, as a 0/1 mask's product gives it
            flat = np.concatenate([flat, flat * 0.0])
    moved = np.empty((n, step), dtype=np.intp) if per_row else None  # g, plus V² for an excluded child
    scored = list(range(n)) if superparents is None else np.flatnonzero(superparents).tolist()
    for s in range(0, n_rows, step):
        m = min(step, n_rows - s)
        g, b, ix, cd, sp = gT[:, :m], base[:m], idx[:, :m], cond[:, :m], spode[:, :m]
        np.add(Xc[s:s + m].T, offs[:, None], out=g)
        src = g
        if per_row:
            assert moved is not None and children is not None  # per_row: both are arrays
            src = moved[:, :m]
            np.multiply(~children[s:s + m].T, V * V, out=src)
            src += g
        for p in scored:
            np.take(log_joint, g[p], axis=0, out=sp[p])
            np.multiply(g[p], V, out=b)
            np.add(src[:p], b, out=ix[:p])  # the other attributes c ≠ p, in order
            np.add(src[p + 1:], b, out=ix[p:n - 1])
            np.take(flat, ix[:n - 1], axis=0, out=cd[:n - 1])
            acc = sp[p]
            for c in range(n - 1):
                if children is None or per_row or children[c + (c >= p)]:
                    acc += cd[c]
            if pflat is not None and pair is not None and psum is not None:  # all three or none
                pb = pair[:n - 1, :m]
                np.take(pflat, ix[:n - 1], out=pb)
                np.sum(pb, axis=0, out=psum[p, :m])
        yield s, g, sp, (psum[:, :m] if psum is not None else None)


def logsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    """ln Σ exp(a) along `axis` (−inf where every term is −inf)."""
    mx = a.max(axis=axis, keepdims=True)
    mx[~np.isfinite(mx)] = 0.0
    with np.errstate(divide="ignore"):
        out = np.log(np.exp(a - mx).sum(axis=axis))
    return out + np.squeeze(mx, axis=axis)


def inverse_normalise(v: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """IWAODE's step 3 along axis 0: normalise, 1 − value, normalise again (§4.14)."""
    if mask is None:
        mask = np.ones(v.shape, dtype=bool)
    k = np.maximum(mask.sum(axis=0), 1)

    def norm(a):
        a = np.where(mask, a, 0.0)
        s = a.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(mask, np.where(s != 0, a / s, 1.0 / k), 0.0)

    return norm(1.0 - norm(v))


def log_mean_spodes(sp: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """AODE's average in log space: ln((1/|P_x|) Σ_{p qualifying} exp(sp[p, row, y])) per row and
    class, and |P_x| per row (`ok` [p, row]: p qualifies for the row). `sp` is overwritten.
    Rows without a qualifying superparent get −inf (the caller falls back to naive Bayes)."""
    if not ok.all():
        sp[~ok] = -np.inf
    nq = ok.sum(axis=0)
    mx = sp.max(axis=0)
    mx[~np.isfinite(mx)] = 0.0
    np.subtract(sp, mx, out=sp)
    np.exp(sp, out=sp)
    lse = sp.sum(axis=0)
    with np.errstate(divide="ignore"):
        np.log(lse, out=lse)
    lse += mx
    lse -= np.log(np.maximum(nq, 1))[:, None]
    return lse, nq
