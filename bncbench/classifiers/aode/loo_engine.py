"""The leave-one-out engine of paper 003's wrappers PAA, CAA, PAE, CAE (Zheng & Webb 2007,
docs/algorithms.md §4.8.4): the leave-one-out loss on the training set of AODE with a parent set P and
a child set C, and the greedy search that grows or shrinks one of them (`LooEngine.search`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.spode import logsumexp
from bncbench.classifiers.kernels.estimators import log_cond, log_joint

#: evaluation losses of the search: true-class RMSE (§5.3) or zero-one loss
WRAPPER_LOSSES = ("rmse", "zol")
#: searches of the four wrappers: which set grows or shrinks
SEARCHES = ("PAA", "CAA", "PAE", "CAE")
#: Zero-one loss: classes whose posterior is within this relative distance of the largest count as
#: tied and the first of them is predicted (§0.2). Classes tied in exact arithmetic (common with
#: small counts) otherwise win or lose by the rounding of sums taken in different orders.
_ZOL_TIE = 1e-12
_LOG_TIE = float(np.log1p(-_ZOL_TIE))
#: A row's shifted probabilities (largest SPODE term of the row about 1) are trusted when the sum
#: over its classes is at least this: what underflow lost is then below 2**-160 of it. Rows under
#: it are scored again in log space (exact whatever the spread of the SPODEs).
_TINY = 1e-270
#: CAA / CAE: a row whose largest shifted probability left [_FAR, 1/_FAR] after the accepted
#: children's factors were multiplied in is shifted again from scratch
_FAR = 1e-100
_BLOCK_BYTES = 1 << 23  # one (n, rows, |Y|) float64 block of training rows (temporaries stay this size)
_CACHE_BYTES = 1 << 30  # keep every block's SPODE products between steps if all of them fit
_TABLE_BYTES = 1 << 26  # keep a LOO table for every class if they fit (else patch the own class in)


def _lastsum(A: np.ndarray) -> np.ndarray:
    """Σ over the last axis (the classes), class by class (fast for few classes); 0 for none
    (a one-class training set: no other class)."""
    if A.shape[-1] == 0:
        return np.zeros(A.shape[:-1])
    out = A[..., 0].copy()
    for c in range(1, A.shape[-1]):
        out += A[..., c]
    return out


def _lastmax(A: np.ndarray) -> np.ndarray:
    """max over the last axis (the classes), class by class."""
    out = A[..., 0].copy()
    for c in range(1, A.shape[-1]):
        np.maximum(out, A[..., c], out=out)
    return out


def _without_one(E: np.ndarray, ca: np.ndarray, A: np.ndarray) -> None:
    """A[j] = Σ_{i≠j} E[ca[i]] (PAE: the sum over P without candidate ca[j]): the prefix Σ_{i<j}, added
    in order from 0, plus the suffix Σ_{i>j}, added from the last backwards (elementwise: the same
    values for any set of rows)."""
    K = ca.size
    A[0] = 0.0
    for j in range(1, K):  # prefixes Σ_{i<j}
        np.add(A[j - 1], E[ca[j - 1]], out=A[j])
    suf = E[ca[-1]].copy()
    for j in range(K - 2, -1, -1):  # + suffixes Σ_{i>j}
        A[j] += suf
        if j:
            suf += E[ca[j]]


@dataclass
class _Block:
    """Static data of one block of distinct training rows, all of class k."""
    k: int
    w: np.ndarray    # (m,) how many training instances each row stands for
    g: np.ndarray    # (n, m) slots of the rows' values
    gV: np.ndarray   # (n, m) g · V: first row of the superparent slot's block in the pair tables
    Q: np.ndarray    # (n, m) superparent p qualifies for the row with the row held out
    cnt: np.ndarray  # (m,) number of qualifying superparents
    nohas: np.ndarray  # rows without a qualifying superparent (scored by NB over C)
    nq: bool         # some superparent does not qualify for some row
    has: np.ndarray  # (m,) cnt > 0


class _State:
    """A block's per-SPODE log-products S, NB log-product Bn and shifted probabilities E during the search
    (docs/algorithms.md §4.8.4)."""

    def __init__(self, S: np.ndarray, Bn: np.ndarray):
        self.S: Any = S  # None for CAA / CAE once the search starts (E is updated by factors)
        self.Bn = Bn
        self.E: Any = None
        self.A: Any = None
        self.nbterm: Any = None


class LooEngine:
    """Leave-one-out losses of AODE with parent set P and child set C on the training set, and the greedy search
    (docs/algorithms.md §4.8.4: the leave-one-out engine)."""

    def __init__(self, model: AODE, Xc: np.ndarray, y: np.ndarray, loss: str = "rmse"):
        if loss not in WRAPPER_LOSSES:
            raise ValueError(f"wrapper_loss must be one of {WRAPPER_LOSSES}, got {loss!r}")
        pc = model.counts_
        N, n = Xc.shape
        ny = int(model.n_classes_)
        self.N, self.n, self.ny, self.loss = N, n, ny, loss
        skip = model.missing == "skip"
        est, m = model.estimator, float(model.m)
        sizes = np.asarray(model.sizes_, dtype=np.int64)
        offsets = np.asarray(pc.offsets, dtype=np.intp)
        V = int(sizes.sum())
        self.V = V
        attr_slot = np.repeat(np.arange(n), sizes)
        card_slot = np.repeat(np.asarray(model.card_), sizes).astype(np.float64)
        missing_slot = np.zeros(V, dtype=bool)
        missing_slot[offsets + sizes - 1] = True
        cc = pc.class_counts.astype(np.float64)
        xy = pc.xy.astype(np.float64)
        T = N - 1.0  # N without the held-out instance
        with np.errstate(divide="ignore", invalid="ignore"):  # own-class cells no instance holds
            self.prior_other = log_joint(cc, T, ny, est, m)
            self.prior_own = np.where(cc >= 1, log_joint(cc - 1.0, T, ny, est, m), 0.0)
            # ln P̂₋(x_p, y) per slot
            if skip:
                known_y = np.add.reduceat(xy, offsets, axis=0) - xy[missing_slot] if n else np.zeros((0, ny))
                total = known_y.sum(axis=1)[attr_slot][:, None]  # K_p
            else:
                total = float(N)
            cells = card_slot[:, None] * ny
            self.joint_other = log_joint(xy, total - 1.0, cells, est, m)
            self.joint_own = np.where(xy >= 1, log_joint(xy - 1.0, total - 1.0, cells, est, m), 0.0)
            # ln P̂₋(x_c | y) per slot (NB over C when no superparent qualifies): `nb_tables`
            if skip:
                den = known_y[attr_slot]
                tot_num = total
            else:
                den = np.broadcast_to(cc[None, :], xy.shape)
                tot_num = float(N)
            if est == "laplace_joint":
                den = np.broadcast_to(cc[None, :], xy.shape)
            card = card_slot[:, None]
            self.nb_other = log_cond(xy, den, card, est, m, ctx_cells=ny, tot_num=tot_num - 1.0, tot_den=T)
            self.nb_own = np.where(xy >= 1, log_cond(xy - 1.0, den - 1.0, card, est, m, ctx_cells=ny,
                                                     tot_num=tot_num - 1.0, tot_den=T), 0.0)
            # ln P̂₋(x_c | y, x_p) per (p slot, c slot): AODE's log_cond_ (laplace_joint totals N)
            num = pc.pairs.astype(np.float64)
            if skip:
                ends = offsets + sizes - 1
                den3 = (np.add.reduceat(num, offsets, axis=1) - num[:, ends, :])[:, attr_slot, :]
            else:
                den3 = np.broadcast_to(xy[:, None, :], num.shape)
            kw = {"ctx_cells": ny * card_slot[:, None, None], "tot_num": T, "tot_den": T}
            cond_other = log_cond(num, den3, card_slot[None, :, None], est, m, **kw)
            cond_own = np.where(num >= 1, log_cond(num - 1.0, den3 - 1.0, card_slot[None, :, None], est, m, **kw), 0.0)
        if skip:  # a missing value: no factor
            for t in (self.nb_other, self.nb_own):
                t[missing_slot] = 0.0
            cond_other[:, missing_slot, :] = 0.0
            cond_own[:, missing_slot, :] = 0.0
        same_attr = attr_slot[:, None] == attr_slot[None, :]
        cond_other[same_attr] = 0.0  # a superparent is no child of itself: factor 1
        cond_own[same_attr] = 0.0
        qual_slot = pc.xy.sum(axis=1) - 1 >= model.min_freq  # N(x_p) − 1 ≥ m_lim
        if skip:
            qual_slot &= ~missing_slot
        self._pc, self._qual_slot, self._offsets = pc, qual_slot, offsets
        self._units: tuple[np.ndarray, np.ndarray] | None = None
        self._tab_other = {"joint": self.joint_other, "nb": self.nb_other, "cond": cond_other.reshape(V * V, ny)}
        self._tab_own = {"joint": self.joint_own, "nb": self.nb_own, "cond": cond_own.reshape(V * V, ny)}
        self._cols: dict[tuple[str, int], np.ndarray] = {}
        self._cls: dict[tuple[str, int], np.ndarray] = {}
        self.skip = skip
        self.missing_slot = missing_slot
        self._bufs: dict[str, np.ndarray] = {}
        # Instances with the same values and class have the same LOO estimates: score each
        # distinct (x, y) once, weighted by its count (when the mixed-radix key fits in int64);
        # the class is the leading digit, so the distinct rows come grouped by class.
        radices = [ny] + [int(r) for r in sizes]
        if N and math.prod(radices) < 1 << 62:
            place = np.array([math.prod(radices[i + 1:]) for i in range(n + 1)], dtype=np.int64)
            key = y.astype(np.int64) * place[0]
            key += Xc.astype(np.int64) @ place[1:]  # mixed-radix digits, exact in int64
            order = np.argsort(key)
            key = key[order]
            new = np.empty(N, dtype=bool)
            new[0] = True
            np.not_equal(key[1:], key[:-1], out=new[1:])
            starts = np.flatnonzero(new)
            first, weight = order[starts], np.diff(np.append(starts, N))
        else:
            first, weight = np.argsort(y, kind="stable"), np.ones(N, dtype=np.int64)
        Xu, yu = Xc[first], y[first]
        self.m = first.size
        # blocks of distinct training rows, each of one class
        step = max(1, _BLOCK_BYTES // (8 * max(n, 1) * ny))
        bounds = np.searchsorted(yu, np.arange(ny + 1))
        self.blocks: list[_Block] = []
        for k in range(ny):
            for s in range(bounds[k], bounds[k + 1], step):
                e = min(bounds[k + 1], s + step)
                g = (Xu[s:e].astype(np.intp) + offsets).T.copy() if n else np.zeros((0, e - s), dtype=np.intp)
                Q = qual_slot[g]
                cnt = Q.sum(axis=0)
                self.blocks.append(_Block(k, weight[s:e].astype(np.float64), g, g * V, Q, cnt,
                                          np.flatnonzero(cnt == 0), not Q.all(), cnt > 0))
        self._starts = np.cumsum([0] + [b.w.size for b in self.blocks])  # each block's first row of all
        self._yrow = np.repeat(np.array([b.k for b in self.blocks], dtype=np.intp), np.diff(self._starts))

    def unit_children(self) -> tuple[np.ndarray, np.ndarray]:
        """Per attribute: whether its factors as a child of a SPODE, and as a child of NB, are
        exactly 1 (log 0) wherever a row can meet them. Adding or removing such a child changes
        no row (the tie rule needs them recognised, not rounded). Made on first use (CAA/CAE)."""
        if self._units is None:
            n, V, ny, pc = self.n, self.V, self.ny, self._pc
            if not n:
                self._units = (np.zeros(0, dtype=bool), np.zeros(0, dtype=bool))
                return self._units
            cond_other, cond_own = self._tab_other["cond"].reshape(V, V, ny), self._tab_own["cond"].reshape(V, V, ny)
            unit = (cond_other == 0).all(axis=2) & (cond_own == 0).all(axis=2)
            relevant = (pc.pairs.sum(axis=2) >= 1) & self._qual_slot[:, None]
            unit_nb = (self.nb_other == 0).all(axis=1) & (self.nb_own == 0).all(axis=1)
            self._units = (np.logical_and.reduceat((unit | ~relevant).all(axis=0), self._offsets),
                           np.logical_and.reduceat(unit_nb | (pc.xy.sum(axis=1) < 1), self._offsets))
        return self._units

    # -- LOO estimates of a block's rows ----------------------------------------------------------
    def _other(self, name: str) -> np.ndarray:
        """The other-class version of LOO table `name` (§4.8.4)."""
        t = self._tab_other.get(name)
        if t is None:
            with np.errstate(over="ignore"):
                t = self._tab_other[name] = np.exp(float(name[4:]) * self._tab_other["cond"])
        return t

    def _own_column(self, name: str, k: int) -> np.ndarray:
        """Column k of the own-class version of table `name`, contiguous."""
        key = (name, k)
        col = self._cols.get(key)
        if col is None:
            if name.startswith("prob"):
                with np.errstate(over="ignore"):
                    col = np.exp(float(name[4:]) * self._own_column("cond", k))
            else:
                col = np.ascontiguousarray(self._tab_own[name][:, k])
            self._cols[key] = col
        return col

    def _class_table(self, name: str, k: int) -> np.ndarray | None:
        """Table `name` as met by training rows of class k: the other-class version with column k
        from the own-class one. Made and kept for every class when they fit in _TABLE_BYTES, else
        None (`_gather` then patches column k)."""
        key = (name, k)
        t = self._cls.get(key)
        if t is None:
            other = self._other(name)
            if self.ny * other.nbytes > _TABLE_BYTES:
                return None
            t = other.copy()
            t[:, k] = self._own_column(name, k)
            self._cls[key] = t
        return t

    def _gather(self, name: str, k: int, idx: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Rows idx (any shape) of table `name` as met by rows of class k: shape idx.shape + (|Y|,)."""
        t = self._class_table(name, k)
        if t is not None:
            return t.take(idx, axis=0, out=out, mode="clip")  # "clip": no checked copy (idx is valid)
        out = self._other(name).take(idx, axis=0, out=out, mode="clip")
        out[..., k] = self._own_column(name, k).take(idx, mode="clip")
        return out

    def _child_sums(self, prob: str, blocks: list[_Block], E: np.ndarray, ca: np.ndarray) -> np.ndarray:
        """(K, rows, |Y|) Σ_p of the factor of child ca[j] (table `prob`) times E (n, rows, |Y|) over the rows
        of `blocks` in order, each sum as `np.einsum("ptk,ptk->tk")` makes it (compiled: `loo_kernels`)."""
        from bncbench.classifiers.aode.loo_kernels import child_sums

        own = self._cols.get((prob, -1))
        if own is None:  # the own-class columns of every class with rows, one per row of `own`
            own = np.zeros((self.ny, self.V * self.V))
            for k in {b.k for b in self.blocks}:
                own[k] = self._own_column(prob, k)
            self._cols[(prob, -1)] = own
        if len(blocks) == 1:
            g, gV, yrow = blocks[0].g, blocks[0].gV, np.full(blocks[0].w.size, blocks[0].k, dtype=np.intp)
        else:
            g, gV = np.concatenate([b.g for b in blocks], axis=1), np.concatenate([b.gV for b in blocks], axis=1)
            yrow = self._yrow
        out = np.empty((E.shape[1], ca.size, self.ny))
        child_sums(self._other(prob), own, g, gV, np.ascontiguousarray(E), ca, yrow, out)
        return np.ascontiguousarray(out.transpose(1, 0, 2))  # C order: the terms' sums keep numpy's order

    def _scratch(self, name: str, shape: tuple, dtype=np.float64) -> np.ndarray:
        """A reusable work array (one per name, grown to the largest shape asked for): large
        temporaries allocated afresh at every candidate would be page-faulted in every time."""
        size = math.prod(shape)
        buf = self._bufs.get(name)
        if buf is None or buf.size < size:
            buf = self._bufs[name] = np.empty(size, dtype=dtype)
        return buf[:size].reshape(shape)

    def _pair(self, name: str, b: _Block, a: int, out: np.ndarray | None = None) -> np.ndarray:
        """Pair table `name` ("cond", "prob+1", "prob-1") at child a of the block's rows for every
        superparent p (n, m, |Y|): ln P̂₋(x_a | y, x_p) (0 for p = a), or its exp(±)."""
        idx = np.add(b.gV, b.g[a], out=self._scratch("idx", b.g.shape, np.intp))
        return self._gather(name, b.k, idx, out=out)

    def _build(self, b: _Block, C) -> _State:
        """S and Bn of the block for child set C (children summed in attribute order); S is −inf
        for a superparent that does not qualify for the row."""
        S = self._gather("joint", b.k, b.g)  # (n, m, |Y|)
        if b.nq:
            S[~b.Q] = -np.inf
        prior = self.prior_other.copy()
        prior[b.k] = self.prior_own[b.k]
        Bn = np.tile(prior, (b.w.size, 1))
        buf = self._scratch("F", S.shape)
        for c in C:
            S += self._pair("cond", b, c, out=buf)
            Bn += self._gather("nb", b.k, b.g[c])
        return _State(S, Bn)

    # -- loss terms -------------------------------------------------------------------------------
    def _terms_log(self, A: np.ndarray, k: int) -> np.ndarray:
        """Loss terms from joint log scores A (..., |Y|) of rows of class k."""
        if self.loss == "zol":  # classes within the tie tolerance of the best one: the first wins
            return (np.argmax(A >= (_lastmax(A) + _LOG_TIE)[..., None], axis=-1) != k).astype(np.float64)
        Ak = A[..., k]
        s = np.ones(Ak.shape)
        with np.errstate(over="ignore", invalid="ignore"):
            for c in range(A.shape[-1]):  # Σ_c exp(A_c − A_k), class by class
                if c != k:
                    s += np.exp(A[..., c] - Ak)
        np.divide(1.0, s, out=s)
        np.subtract(1.0, s, out=s)
        return np.square(s, out=s)

    def _terms_prob(self, A: np.ndarray, k: int | np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Loss terms from shifted joint probabilities A (..., |Y|) of rows of class k (or of A's rows
        (..., rows, |Y|) of classes k (rows,)), and where their class sum is under `_TINY` (to be scored
        again in log space; None: nowhere). RMSE term (1 − p_k)² as (Σ_{y≠k} A_y / Σ_y A_y)²."""
        ny = A.shape[-1]
        if isinstance(k, np.ndarray):  # the own class's column as 0 in the sum: x + 0 and 0 + x are x
            own = k[:, None] == np.arange(ny)
            rest = _lastsum(np.where(own, 0.0, A))
            Ak = np.take_along_axis(A, np.broadcast_to(k[:, None], A.shape[:-1] + (1,)), axis=-1)[..., 0]
        else:
            rest = A[..., 1 - k] if ny == 2 else _lastsum(A[..., [y for y in range(ny) if y != k]])
            Ak = A[..., k]
        s = np.add(rest, Ak)
        low = s < _TINY if s.size and s.min() < _TINY else None
        if self.loss == "zol":
            return (np.argmax(A >= (_lastmax(A) * (1.0 - _ZOL_TIE))[..., None], axis=-1) != k).astype(np.float64), low
        with np.errstate(invalid="ignore", divide="ignore"):
            np.divide(rest, s, out=s)
        return np.square(s, out=s), low

    def _value(self, total: float) -> float:
        """The loss from the sum of the terms: RMSE = sqrt(SSE / N), or the error rate."""
        if self.N == 0:
            return 0.0
        return float(np.sqrt(total / self.N)) if self.loss == "rmse" else float(total / self.N)

    # -- the search -------------------------------------------------------------------------------
    def _shift(self, st: _State, b: _Block) -> None:
        """E = exp(S − M), M the row's largest S over the qualifying SPODEs and the classes (so
        E ≤ 1, and 0 for a superparent that does not qualify)."""
        M = _lastmax(st.S.max(axis=0)) if self.n else np.zeros(b.w.size)
        M[b.nohas] = 0.0  # every S is −inf
        # M repeated over the classes: a broadcast over the short last axis would be slow
        st.E = np.subtract(st.S, np.repeat(M, self.ny).reshape(-1, self.ny), out=st.E)
        with np.errstate(under="ignore"):
            np.exp(st.E, out=st.E)

    def _derive(self, kind: str, st: _State, b: _Block, P) -> None:
        """Per-search quantities of a block's state for the current (P, C)."""
        self._shift(st, b)
        if kind == "PAA":  # the running sum over P
            st.A = np.zeros(st.Bn.shape)
            for p in sorted(P):
                st.A += st.E[p]
        elif kind == "PAE":  # NB over C = all: the term of a row left without superparent
            st.nbterm = self._terms_log(st.Bn, b.k)
        else:  # CAA / CAE: E is updated by factors from here on (S is remade for rows that need it)
            st.S = None

    def _state(self, kind: str, b: _Block, P, C) -> _State:
        st = self._build(b, C)
        self._derive(kind, st, b, P)
        return st

    def _start_terms(self, st: _State, b: _Block, P, C) -> np.ndarray:
        """Loss terms of the rows under the start model (P empty, or every attribute)."""
        nb = self._terms_log(st.Bn, b.k)
        if not P:
            return nb
        T, low = self._terms_prob(st.E.sum(axis=0), b.k)
        if low is not None:
            self._exact(st, b, T[None], (low & b.has)[None], np.ones((1, self.n), dtype=bool), C)
        return np.where(b.has, T, nb)

    def _rows_S(self, b: _Block, t: np.ndarray, C) -> np.ndarray:
        """S (n, len(t), |Y|) of the block's rows t for child set C, from scratch (as `_build`)."""
        g, gV = b.g[:, t], b.gV[:, t]
        S = self._gather("joint", b.k, g)
        S[~b.Q[:, t]] = -np.inf
        for c in C:
            S += self._gather("cond", b.k, gV + g[c])
        return S

    def _exact(self, st: _State, b: _Block, T: np.ndarray, low: np.ndarray, member: np.ndarray, C,
               child: np.ndarray | None = None, sign: float = 0.0) -> None:
        """Score again, in log space, the (candidate j, row t) pairs of `low` into T (K, m) (§4.8.4)."""
        if low is None or not low.any():
            return
        j, t = np.nonzero(low)
        S = st.S[:, t] if st.S is not None else self._rows_S(b, t, C)  # (n, L, |Y|)
        if child is not None:
            S = S + sign * self._gather("cond", b.k, b.gV[:, t] + b.g[child[j], t])
        S[~member[j].T] = -np.inf  # S is −inf already where p does not qualify
        T[j, t] = self._terms_log(logsumexp(S, axis=0), b.k)

    def _candidate_terms(self, kind: str, st: _State, b: _Block, cands: list[int], P, C,
                         cur: np.ndarray, pre: tuple | None = None) -> np.ndarray:
        """(len(cands), m) loss terms of the block's rows under each candidate model; a row the
        candidate leaves unchanged keeps its current term `cur` exactly. PAE, CAA, CAE: `pre` holds the
        rows' terms and low rows (`_terms_prob`) of the candidates' sums made for every block at once
        (`_step_sums`), else they are made here."""
        ca = np.asarray(cands, dtype=np.intp)
        K, n = ca.size, self.n
        member = np.zeros((K, n), dtype=bool)
        qa = b.Q[ca]  # (K, m)
        A = self._scratch("A", (K,) + st.Bn.shape)
        if kind == "PAA":  # a qualifying new superparent joins the row's sum
            for j, a in enumerate(cands):
                np.add(st.A, st.E[a], out=A[j])
            T, low = self._terms_prob(A, b.k)
            if low is not None:
                member[:, sorted(P)] = True
                member[np.arange(K), ca] = True
                self._exact(st, b, T, qa & low, member, None)
            np.copyto(T, cur, where=~qa)
            return T
        if kind == "PAE":  # the sum over P without a (cands = P)
            has = (qa.sum(axis=0) - qa) > 0  # a superparent of P is left for the row
            if pre is None:
                _without_one(st.E, ca, A)
            T, low = self._terms_prob(A, b.k) if pre is None else pre
            if low is not None:
                member[:, sorted(P)] = True
                member[np.arange(K), ca] = False
                self._exact(st, b, T, qa & has & low, member, None)
            np.copyto(T, np.broadcast_to(st.nbterm, T.shape), where=~has)
            np.copyto(T, cur, where=~qa)
            return T
        # CAA / CAE: every SPODE's product times the factor of child a (or divided by it)
        sign = 1.0 if kind == "CAA" else -1.0
        prob = "prob+1" if kind == "CAA" else "prob-1"
        T, low = self._terms_prob(self._child_sums(prob, [b], st.E, ca), b.k) if pre is None else pre
        if low is not None:
            member[:] = True
            self._exact(st, b, T, b.has & low, member, C, ca, sign)
        # rows left unchanged: a is the row's only superparent (no child of itself), a child
        # whose factors are all 1, a missing value under skip
        unit_child, unit_nb = self.unit_children()
        same = qa & (b.cnt == 1)
        unit = unit_child[ca]
        if unit.any():
            same[unit] |= b.has
        if b.nohas.size:  # NB over C ± a
            r = b.nohas
            T[:, r] = self._terms_log(st.Bn[r] + sign * self._gather("nb", b.k, b.g[ca][:, r]), b.k)
            same[:, r] = unit_nb[ca][:, None]
        if self.skip:
            same |= self.missing_slot[b.g[ca]]
        np.copyto(T, cur, where=same)
        return T

    def _step_sums(self, kind: str, states: list[_State], cands: list[int]) -> np.ndarray | None:
        """PAE, CAA, CAE: the sums of each candidate's SPODEs (K, rows, |Y|) for the rows of every block at once
        (their cached states' E side by side); None for PAA. The same sums, value by value, as each block's."""
        if kind == "PAA":
            return None
        E = np.concatenate([st.E for st in states], axis=1)
        ca = np.asarray(cands, dtype=np.intp)
        if kind == "PAE":
            A = np.empty((ca.size,) + E.shape[1:])
            _without_one(E, ca, A)
            return A
        return self._child_sums("prob+1" if kind == "CAA" else "prob-1", self.blocks, E, ca)

    def _accept(self, kind: str, st: _State, b: _Block, a: int, P, C) -> None:
        """Update a cached block state after attribute a was added to / removed from P or C."""
        if kind == "PAA":
            st.A += st.E[a]
        elif kind in ("CAA", "CAE"):
            prob = "prob+1" if kind == "CAA" else "prob-1"
            st.E *= self._pair(prob, b, a, out=self._scratch("F", st.E.shape))
            nb = self._gather("nb", b.k, b.g[a])
            if kind == "CAA":
                st.Bn += nb
            else:
                st.Bn -= nb
            # rows whose largest E drifted far from 1: shift them again from scratch
            M = _lastmax(st.E.max(axis=0)) if self.n else np.zeros(b.w.size)
            far = b.has & ~((M > _FAR) & (M < 1.0 / _FAR))
            if far.any():
                t = np.flatnonzero(far)
                S = self._rows_S(b, t, C)
                S -= np.repeat(_lastmax(S.max(axis=0)), self.ny).reshape(-1, self.ny)
                with np.errstate(under="ignore"):
                    st.E[:, t] = np.exp(S)
        # PAE: S and E stay; the prefix/suffix sums are made from P at each step

    def search(self, kind: str) -> tuple[list[int], list[int], list[float]]:
        """Greedy search of §4.8.4: (P, C, losses of the accepted models, the start model first)."""
        if kind not in SEARCHES:
            raise ValueError(f"search must be one of {SEARCHES}, got {kind!r}")
        everything = list(range(self.n))
        P = [] if kind == "PAA" else list(everything)
        C = [] if kind == "CAA" else list(everything)
        cache = 2 * 8 * self.n * self.m * self.ny <= _CACHE_BYTES  # S and E of every block
        states: list[_State] = []  # every block's state, when cached
        cur_terms = []
        total = 0.0
        for i, b in enumerate(self.blocks):
            st = self._state(kind, b, P, C)
            cur_terms.append(self._start_terms(st, b, P, C))
            total += float((cur_terms[i] * b.w).sum())
            if cache:
                states.append(st)
        current = self._value(total)
        path = [current]
        while True:
            if kind == "PAA":
                cands = [a for a in everything if a not in P]
            elif kind == "CAA":
                cands = [a for a in everything if a not in C]
            elif kind == "PAE":
                cands = list(P) if len(P) > 1 else []
            else:
                cands = list(C) if len(C) > 1 else []
            if not cands:
                break
            totals = np.zeros(len(cands))
            step_terms = []
            sums = self._step_sums(kind, states, cands) if cache else None
            pre = None if sums is None else self._terms_prob(sums, self._yrow)
            for i, b in enumerate(self.blocks):
                st = states[i] if cache else self._state(kind, b, P, C)
                rows = slice(self._starts[i], self._starts[i + 1])
                T = self._candidate_terms(kind, st, b, cands, P, C, cur_terms[i], None if pre is None else
                                          (pre[0][:, rows].copy(), None if pre[1] is None else pre[1][:, rows]))
                totals += (T * b.w).sum(axis=1)  # row by row as the current terms' sum
                step_terms.append(T)
            values = [self._value(t) for t in totals]
            k = int(np.argmin(values))  # first minimum: the smallest attribute index
            if not values[k] < current:
                break
            a = cands[k]
            if kind == "PAA":
                P = sorted(P + [a])
            elif kind == "CAA":
                C = sorted(C + [a])
            elif kind == "PAE":
                P.remove(a)
            else:
                C.remove(a)
            current = values[k]
            path.append(current)
            cur_terms = [T[k].copy() for T in step_terms]
            if cache:
                for st, b in zip(states, self.blocks):
                    self._accept(kind, st, b, a, P, C)
        return P, C, path
