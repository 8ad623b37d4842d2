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


def _instance_parts(tables: FDTables, Xc: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The FDs of `instance_fds` in two parts: bool (rows, n, n) single[row, a, j] = x_a → x_j holds,
    and the left-reduced two-attribute FDs as arrays (row, a, b, t), in table order."""
    single = tables.single[Xc + tables.offsets[None, :]] == Xc[:, None, :]  # [row, a, j]: x_a → x_j
    parts = [(np.zeros(0, dtype=np.intp),) * 4]
    for (a2, b2), det, ok in zip(tables.pairs, tables.pair_det, tables.pair_ok):
        key = Xc[:, a2].astype(np.int64) * int(tables.sizes[b2]) + Xc[:, b2]
        sel = np.flatnonzero(ok[key])
        if not sel.size:
            continue
        hold = det[key[sel]] == Xc[sel]
        hold &= ~(single[sel, a2] | single[sel, b2])  # left-reduction
        r2, t2 = np.nonzero(hold)
        parts.append((sel[r2], np.full(r2.size, a2, dtype=np.intp), np.full(r2.size, b2, dtype=np.intp), t2))
    return single, tuple(np.concatenate(c) for c in zip(*parts))


def instance_fds(tables: FDTables, Xc: np.ndarray) -> FDSet:
    """The left-reduced FDs that hold for each row of Xc (step 1 of §4.8.2): every x_a → x_j, and
    every {x_a, x_b} → x_j for which neither x_a → x_j nor x_b → x_j holds."""
    single, (r2, a2, b2, t2) = _instance_parts(tables, Xc)
    r1, a1, t1 = np.nonzero(single)
    row, a, b, t = (np.concatenate(c) for c in ((r1, r2), (a1, a2), (a1, b2), (t1, t2)))
    size = np.concatenate([np.ones(r1.size, dtype=np.int8), np.full(r2.size, 2, dtype=np.int8)])
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


def eliminate(single: np.ndarray, pairs: tuple[np.ndarray, ...], n_rows: int, n: int) -> np.ndarray:
    """Step 3 of §4.8.2 from the FDs of `_instance_parts`: K starts with every attribute; for j in
    index order, j leaves K iff K \\ {j} is not empty and j lies in the closure of K \\ {j} under
    the row's FDs (loop-safe: of x1 ↔ x2 only x1 goes). The closure of the rows with an FD onto
    x_j, all at once: each step adds the targets of the single FDs of the set's attributes (their
    targets held as bits, one 64-bit word per 64 attributes) and of the two-attribute FDs whose
    LHS it holds, until a step adds nothing."""
    keep = np.ones((n_rows, n), dtype=bool)
    pr, pa, pb, pt = pairs
    targets = np.asarray(single.any(axis=1))
    targets[pr, pt] = True
    if not targets.any():
        return ~keep
    W = -(-n // 64)
    packed = np.zeros((n_rows, n, 8 * W), dtype=np.uint8)
    packed[:, :, :-(-n // 8)] = np.packbits(single, axis=2, bitorder="little")
    bits = packed.view(np.uint64)  # (rows, n, W): the targets of x_a's single FDs
    zero = np.uint64(0)
    loc = np.full(n_rows, -1, dtype=np.intp)
    for j in range(n):
        cand = np.flatnonzero(targets[:, j])
        if not cand.size:
            continue
        Z = keep[cand]
        Z[:, j] = False
        B = bits[cand]
        loc[cand] = np.arange(cand.size)
        mine = loc[pr] >= 0
        ql, qa, qb, qt = loc[pr[mine]], pa[mine], pb[mine], pt[mine]
        while True:
            reach = np.bitwise_or.reduce(np.where(Z[:, :, None], B, zero), axis=1)  # (c, W)
            got = np.unpackbits(reach.view(np.uint8), axis=1, count=n, bitorder="little").view(bool)
            grew = bool((got > Z).any())
            Z |= got
            fire = Z[ql, qa] & Z[ql, qb] & ~Z[ql, qt]
            if fire.any():
                Z[ql[fire], qt[fire]] = True
            elif not grew:
                break
        # (K \\ {j} = ∅ derives nothing, every LHS being non-empty: the spec's guard holds by itself)
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
        single, pairs = _instance_parts(tables, block)
        out[s:s + step] = eliminate(single, pairs, block.shape[0], n)
    return out
