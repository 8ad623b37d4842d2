"""Instance-level functional dependencies of RC and SP+RC, for all test rows at once (docs/algorithms.md §4.8.2)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bncbench.classifiers.kernels.counts import PairCounts

_CHUNK_BYTES = 1 << 25  # test rows per chunk: the (rows, n, n) single-FD matrix stays ≤ 32 MB
_PAIR_CELLS = 1 << 21  # cells of the two-attribute FDs' work arrays at once (≤ 16 MB of 64-bit words)


@dataclass
class FDTables:
    """What the training data determine. `single[v, j]` = the value code of X_j determined by
    slot v (x_a → x_j), −1 where none. The LHS pairs q, `pair_a[q] < pair_b[q]`, share one flat key
    space: {x_a, x_b} has key `pair_base[q] + x_a·pair_sb[q] + x_b` (pair_sb[q] = S_b). Key k's FDs
    {x_a, x_b} → x_t (support ≥ l_FD) are the entries key_start[k] ≤ e < key_start[k + 1]: target
    `ent_t[e]`, value `ent_v[e]`; an FD whose target x_a or x_b alone determines (which left-reduction
    always removes) is left out, and so is a pair left without FDs."""

    offsets: np.ndarray
    sizes: np.ndarray
    single: np.ndarray
    pair_a: np.ndarray
    pair_b: np.ndarray
    pair_sb: np.ndarray
    pair_base: np.ndarray
    key_start: np.ndarray
    ent_t: np.ndarray
    ent_v: np.ndarray


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
    return FDTables(offsets, sizes, single, *_pair_tables(Xc, pair_n, lhs, sizes, offsets, single, missing_slot,
                                                       min_support, skip))


def _pair_tables(Xc: np.ndarray, pair_n: np.ndarray | None, lhs: np.ndarray, sizes: np.ndarray, offsets: np.ndarray,
                 single: np.ndarray, missing_slot: np.ndarray, min_support: int, skip: bool) -> tuple[np.ndarray, ...]:
    """`FDTables`' two-attribute part. For every pair a < b of LHS attributes and every value pair
    {x_a, x_b} with support ≥ l_FD (never a missing value under skip), the X_j (j ≠ a, b) whose value
    it determines: N(x_a, x_b, x_j) = N(x_a, x_b), i.e. the set R of training rows holding x_a and x_b
    (a bit set over the rows) lies within the rows holding the x_j of R's first row (not the missing
    slot under skip)."""
    rows, n = Xc.shape
    at = np.flatnonzero(lhs)
    i, j = np.triu_indices(at.size, k=1)
    qa, qb = at[i], at[j]
    none = np.zeros(0, dtype=np.intp)
    empty = (none, none, none.astype(np.int64), none.astype(np.int64), np.zeros(1, dtype=np.int64), none,
             np.zeros(0, dtype=np.int32))
    if not qa.size:
        return empty
    assert pair_n is not None  # two LHS attributes: n > 1
    sb = sizes[qb]
    length = sizes[qa] * sb
    base = np.cumsum(length) - length
    q_of = np.repeat(np.arange(qa.size), length)
    k = np.arange(int(length.sum())) - base[q_of]
    va = offsets[qa][q_of] + k // sb[q_of]  # the slots of x_a and x_b of every key
    vb = offsets[qb][q_of] + k % sb[q_of]
    ok = pair_n[va, vb] >= min_support
    if skip:
        ok &= ~(missing_slot[va] | missing_slot[vb])
    keys = np.flatnonzero(ok)
    if not keys.size:
        return empty
    G = Xc + offsets[None, :]  # slot of every training cell
    W = -(-rows // 64)
    bits = np.zeros((int(sizes.sum()), 8 * W), dtype=np.uint8)
    for c in range(n):  # bit r of bits[v]: training row r holds slot v
        o, s = int(offsets[c]), int(sizes[c])
        bits[o:o + s, :-(-rows // 8)] = np.packbits(Xc[:, c][None, :] == np.arange(s)[:, None], axis=1,
                                                   bitorder="little")
    held = bits.view(np.uint64)
    outside = ~held
    hit = np.empty((keys.size, n), dtype=bool)
    first = np.empty(keys.size, dtype=np.intp)
    step = max(1, _PAIR_CELLS // (n * W))
    for lo in range(0, keys.size, step):
        kk = keys[lo:lo + step]
        R = held[va[kk]] & held[vb[kk]]  # (keys, W): the rows holding x_a and x_b
        w = np.argmax(R != 0, axis=1)
        word = R[np.arange(kk.size), w]
        _, e = np.frexp((word & (~word + np.uint64(1))).astype(np.float64))  # the lowest bit, 2^(e − 1)
        r0 = w * 64 + e - 1
        first[lo:lo + step] = r0
        hit[lo:lo + step] = ~np.any(R[:, None, :] & outside[G[r0]], axis=2)
    at_key = np.arange(keys.size)
    hit[at_key, qa[q_of[keys]]] = False
    hit[at_key, qb[q_of[keys]]] = False
    slots = G[first]
    if skip:
        hit &= ~missing_slot[slots]
    hit &= (single[va[keys]] < 0) & (single[vb[keys]] < 0)  # left-reduction removes these
    e_key, ent_t = np.nonzero(hit)
    if not e_key.size:
        return empty
    ent_v = Xc[first[e_key], ent_t].astype(np.int32)
    kept = np.zeros(qa.size, dtype=bool)
    kept[q_of[keys[e_key]]] = True
    new_base = np.cumsum(np.where(kept, length, 0)) - np.where(kept, length, 0)
    ent_key = keys[e_key] - base[q_of[keys[e_key]]] + new_base[q_of[keys[e_key]]]
    n_keys = int(length[kept].sum())
    key_start = np.concatenate([[0], np.cumsum(np.bincount(ent_key, minlength=n_keys))]).astype(np.int64)
    return qa[kept], qb[kept], sb[kept].astype(np.int64), new_base[kept].astype(np.int64), key_start, ent_t, ent_v


def _instance_parts(tables: FDTables, Xc: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The FDs of `instance_fds` in two parts: bool (rows, n, n) single[row, a, j] = x_a → x_j holds,
    and the left-reduced two-attribute FDs as arrays (row, a, b, t), by row, then pair, then target."""
    single = tables.single[Xc + tables.offsets[None, :]] == Xc[:, None, :]  # [row, a, j]: x_a → x_j
    pa, pb = tables.pair_a, tables.pair_b
    parts = [(np.zeros(0, dtype=np.intp),) * 4]
    if pa.size:
        key = Xc[:, pa].astype(np.int64) * tables.pair_sb + Xc[:, pb] + tables.pair_base  # (rows, pairs)
        start = tables.key_start[key]
        count = tables.key_start[key + 1] - start
        r, q = np.nonzero(count)
        start, count = start[r, q], count[r, q]
        end = np.cumsum(count)
        cuts = np.searchsorted(end, np.arange(_PAIR_CELLS, int(end[-1]) if end.size else 0, _PAIR_CELLS), side="right")
        for lo, hi in zip([0, *cuts.tolist()], [*cuts.tolist(), r.size]):
            c = count[lo:hi]
            ent = np.repeat(start[lo:hi] - np.cumsum(c) + c, c) + np.arange(int(c.sum()))  # the keys' entries
            rr, qq = np.repeat(r[lo:hi], c), np.repeat(q[lo:hi], c)
            t = tables.ent_t[ent]
            h = np.flatnonzero(Xc[rr, t] == tables.ent_v[ent])
            parts.append((rr[h], pa[qq[h]], pb[qq[h]], t[h]))
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
        mine = np.flatnonzero(loc[pr] >= 0)
        # Z only grows from K \ {j}: an FD whose target is in it (not j, not deleted) never adds anything
        mine = mine[(pt[mine] == j) | ~keep[pr[mine], pt[mine]]]
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
