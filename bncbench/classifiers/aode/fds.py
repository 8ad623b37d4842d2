"""Instance-level functional dependencies of RC and SP+RC, for all test rows at once (docs/algorithms.md §4.8.2)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts, count_flat

_CHUNK_BYTES = 1 << 25  # test rows per chunk: the (rows, n, n) single-FD matrix stays ≤ 32 MB


@dataclass
class FDTables:
    """What the training data determine. `single[v, j]` = the value code of X_j determined by
    slot v (x_a → x_j), −1 where none; `pairs[q] = (a, b)` (a < b) and `pair_det[q][x_a·S_b + x_b,
    j]` likewise for {x_a, x_b} → x_j; `pair_ok[q]` marks the value pairs with support ≥ l_FD."""

    offsets: np.ndarray
    sizes: np.ndarray
    single: np.ndarray
    pairs: list[tuple[int, int]]
    pair_det: list[np.ndarray]
    pair_ok: list[np.ndarray]


@dataclass
class FDSet:
    """FD records of a block of rows, sorted by (row, target, |S|, a, b): x_{a,b} → x_t holds
    for `row` (b = a when |S| = 1)."""

    row: np.ndarray
    a: np.ndarray
    b: np.ndarray
    t: np.ndarray

    def take(self, idx: np.ndarray) -> FDSet:
        return FDSet(self.row[idx], self.a[idx], self.b[idx], self.t[idx])


def _determined(hit: np.ndarray, attr_of_slot: np.ndarray, offsets: np.ndarray, n: int) -> np.ndarray:
    """(k, n) value code of attribute j whose slot is hit in row r of `hit` (k, V), −1 for none."""
    out = np.full((hit.shape[0], n), -1, dtype=np.int32)
    r, v = np.nonzero(hit)
    attr = attr_of_slot[v]
    out[r, attr] = v - offsets[attr]
    return out


def fit_fd_tables(Xc: np.ndarray, pc: PairCounts, lhs: np.ndarray, min_support: int, skip: bool) -> FDTables:
    """The determined values of every LHS allowed by `lhs` (bool (n,)): single attributes, and
    pairs of them. Xc: the training rows (internal codes) that `pc` counted."""
    n = Xc.shape[1]
    sizes = pc.sizes.astype(np.int64)
    offsets = pc.offsets.astype(np.int64)
    V = int(sizes.sum())
    attr_of_slot = np.repeat(np.arange(n), sizes)
    missing_slot = np.zeros(V, dtype=bool)
    missing_slot[offsets + sizes - 1] = True
    freq = pc.xy.sum(axis=1)                          # N(x_a) per slot
    pair_n = pc.pairs.sum(axis=2) if n > 1 else None  # N(x_a, x_b) per slot pair
    usable = lhs[attr_of_slot] & (freq >= min_support)
    if skip:
        usable &= ~missing_slot
    # |S| = 1: slot v determines X_j iff N(x_a = v, x_j) = N(x_a = v) for one slot of X_j
    single = np.full((V, n), -1, dtype=np.int32)
    if pair_n is not None:
        hit = (pair_n == freq[:, None]) & usable[:, None]
        hit[attr_of_slot[:, None] == attr_of_slot[None, :]] = False  # j ≠ a
        if skip:
            hit[:, missing_slot] = False
        single = _determined(hit, attr_of_slot, offsets, n)
    pairs, pair_det, pair_ok = [], [], []
    G = None
    for a in np.flatnonzero(lhs).tolist():
        for b in np.flatnonzero(lhs).tolist():
            if b <= a:
                continue
            assert pair_n is not None  # two LHS attributes: n > 1
            sa, sb = int(sizes[a]), int(sizes[b])
            n_ab = pair_n[offsets[a]:offsets[a] + sa, offsets[b]:offsets[b] + sb].reshape(-1)  # key x_a·S_b + x_b
            ok = n_ab >= min_support
            if skip:
                ok = (ok.reshape(sa, sb) & (np.arange(sa) < sa - 1)[:, None]
                      & (np.arange(sb) < sb - 1)[None, :]).ravel()
            if not ok.any():
                continue
            if G is None:
                G = (Xc + offsets[None, :]).astype(np.int64)  # slot of every training cell
            key = Xc[:, a].astype(np.int64) * sb + Xc[:, b]
            # N(x_a, x_b, x_j) for every value pair and every slot of every attribute j
            slab = count_flat(key[:, None] * V + G, sa * sb * V).reshape(sa * sb, V)
            hit = (slab == n_ab[:, None]) & ok[:, None]
            hit[:, attr_of_slot == a] = False
            hit[:, attr_of_slot == b] = False
            if skip:
                hit[:, missing_slot] = False
            if not hit.any():
                continue
            pairs.append((a, b))
            pair_det.append(_determined(hit, attr_of_slot, offsets, n))
            pair_ok.append(ok)
    return FDTables(offsets, sizes, single, pairs, pair_det, pair_ok)


def instance_fds(tables: FDTables, Xc: np.ndarray) -> FDSet:
    """The left-reduced FDs that hold for each row of Xc (step 1 of §4.8.2): every x_a → x_j, and
    every {x_a, x_b} → x_j for which neither x_a → x_j nor x_b → x_j holds."""
    single = tables.single[Xc + tables.offsets[None, :]] == Xc[:, None, :]  # [row, a, j]: x_a → x_j
    r1, a1, t1 = np.nonzero(single)
    parts = [(r1, a1, a1, t1, np.ones(r1.size, dtype=np.int8))]
    for (a2, b2), det, ok in zip(tables.pairs, tables.pair_det, tables.pair_ok):
        key = Xc[:, a2].astype(np.int64) * int(tables.sizes[b2]) + Xc[:, b2]
        sel = np.flatnonzero(ok[key])
        if not sel.size:
            continue
        hold = det[key[sel]] == Xc[sel]
        hold &= ~(single[sel, a2] | single[sel, b2])  # left-reduction
        r2, t2 = np.nonzero(hold)
        parts.append((sel[r2], np.full(r2.size, a2), np.full(r2.size, b2), t2, np.full(r2.size, 2, dtype=np.int8)))
    row, a, b, t, size = (np.concatenate(c) for c in zip(*parts))
    order = np.lexsort((b, a, size, t, row))
    return FDSet(row[order].astype(np.intp), a[order].astype(np.intp), b[order].astype(np.intp),
                 t[order].astype(np.intp))


def _close(Z: np.ndarray, loc: np.ndarray, a: np.ndarray, b: np.ndarray, t: np.ndarray) -> None:
    """Attribute closure, in place: Z (m, n) bool holds each local row's attribute set; the FD
    records (local row `loc`, LHS {a, b}, target t) fire while their LHS ⊆ Z."""
    live = ~Z[loc, t]
    loc, a, b, t = loc[live], a[live], b[live], t[live]
    while loc.size:
        fire = Z[loc, a] & Z[loc, b]
        if not fire.any():
            return
        Z[loc[fire], t[fire]] = True
        live = ~Z[loc, t]
        loc, a, b, t = loc[live], a[live], b[live], t[live]


def canonical_cover(fds: FDSet, n_rows: int, n: int) -> FDSet:
    """Step 2(c) of §4.8.2 per row: in record order (target index, then |S|, then LHS), remove an
    FD when its target lies in the closure of its LHS under the row's other remaining FDs. The
    k-th FDs of all rows are tested together, k = 0, 1, ..."""
    R = fds.row.size
    if not R:
        return fds
    count = np.bincount(fds.row, minlength=n_rows)
    start = np.cumsum(count) - count
    rank = np.arange(R) - start[fds.row]
    active = np.ones(R, dtype=bool)
    pool = np.arange(R)
    loc = np.empty(n_rows, dtype=np.intp)
    for k in range(int(count.max())):
        rows_k = np.flatnonzero(count > k)
        pool = pool[count[fds.row[pool]] > k]
        fk = start[rows_k] + k
        loc[rows_k] = np.arange(rows_k.size)
        Z = np.zeros((rows_k.size, n), dtype=bool)
        local = np.arange(rows_k.size)
        Z[local, fds.a[fk]] = True
        Z[local, fds.b[fk]] = True
        other = pool[active[pool] & (rank[pool] != k)]
        _close(Z, loc[fds.row[other]], fds.a[other], fds.b[other], fds.t[other])
        active[fk[Z[local, fds.t[fk]]]] = False
    return fds.take(np.flatnonzero(active))


def eliminate(fds: FDSet, n_rows: int, n: int) -> np.ndarray:
    """Step 3 of §4.8.2, bool (n_rows, n) of the deleted attributes: K starts with every
    attribute; for j in index order, j leaves K iff K \\ {j} is not empty and j lies in the
    closure of K \\ {j} under the row's FDs (loop-safe: of x1 ↔ x2 only x1 goes)."""
    keep = np.ones((n_rows, n), dtype=bool)
    if not fds.row.size:
        return ~keep
    targets = np.zeros((n_rows, n), dtype=bool)
    targets[fds.row, fds.t] = True
    loc = np.full(n_rows, -1, dtype=np.intp)
    for j in range(n):
        cand = np.flatnonzero(targets[:, j])
        if not cand.size:
            continue
        Z = keep[cand].copy()
        Z[:, j] = False
        loc[cand] = np.arange(cand.size)
        li = loc[fds.row]
        rec = np.flatnonzero(li >= 0)
        _close(Z, li[rec], fds.a[rec], fds.b[rec], fds.t[rec])
        # (K \ {j} = ∅ derives nothing, every LHS being non-empty: the spec's guard holds by itself)
        keep[cand[Z[:, j]], j] = False
        loc[cand] = -1
    return ~keep


def eliminated(tables: FDTables, Xc: np.ndarray) -> np.ndarray:
    """Bool (rows, n): the attributes RC deletes for each row of Xc, by attribute closure (§4.8.2)."""
    rows, n = Xc.shape
    out = np.zeros((rows, n), dtype=bool)
    if not rows or n < 2:
        return out
    step = max(1, _CHUNK_BYTES // (8 * n * n))
    for s in range(0, rows, step):
        block = Xc[s:s + step]
        out[s:s + step] = eliminate(instance_fds(tables, block), block.shape[0], n)
    return out
