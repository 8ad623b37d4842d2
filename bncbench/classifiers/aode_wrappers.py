"""PAA, CAA, PAE, CAE: AODE with its parent set P or its child set C chosen greedily by the
leave-one-out loss on the training set (Zheng & Webb 2007), ALGORITHMS.md §4.8.4 — the wrapper
baselines of paper 003 — over one shared leave-one-out engine (`LooEngine`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bncbench.classifiers.aode import AODE
from bncbench.classifiers.counts import mixed_key
from bncbench.classifiers.estimators import log_cond, log_joint
from bncbench.classifiers.spode import logsumexp, spode_blocks

#: evaluation losses of the search: true-class RMSE (§5.3) or zero-one loss
WRAPPER_LOSSES = ("rmse", "zol")
#: searches of the four wrappers: which set grows or shrinks
SEARCHES = ("PAA", "CAA", "PAE", "CAE")
#: Zero-one loss: classes whose posterior is within this relative distance of the largest count as
#: tied and the first of them is predicted (§0.2). Classes tied in exact arithmetic (common with
#: small counts) otherwise win or lose by the rounding of sums taken in different orders.
_ZOL_TIE = 1e-12
_LOG_TIE = float(np.log1p(-_ZOL_TIE))
_BLOCK_BYTES = 1 << 23  # one (n, rows, |Y|) float64 block of training rows (temporaries stay this size)
_CACHE_BYTES = 1 << 30  # keep every block's SPODE products between steps if all of them fit


def _rowsum(A: np.ndarray) -> np.ndarray:
    """Σ over the columns of a (rows, |Y|) array, column by column (fast for few classes)."""
    out = A[:, 0].copy()
    for c in range(1, A.shape[1]):
        out += A[:, c]
    return out


def _rowmax(A: np.ndarray) -> np.ndarray:
    out = A[:, 0].copy()
    for c in range(1, A.shape[1]):
        np.maximum(out, A[:, c], out=out)
    return out


@dataclass
class _Block:
    """Static data of one block of distinct training rows (value codes and class)."""
    w: np.ndarray       # (m,) how many training instances each row stands for
    g: np.ndarray       # (n, m) slots of the rows' values
    gY: np.ndarray      # (n, m) g · |Y|
    gV: np.ndarray      # (n, m) g · V: row of the parent slot's block in the flat pair table
    gVY: np.ndarray     # (n, m) (g · V) · |Y| + y: the same in the flat own-class pair table
    y: np.ndarray       # (m,) classes
    Q: np.ndarray       # (n, m) superparent p qualifies for the row with the row held out
    own: np.ndarray     # (n, m) flat position of [p, row, y_row] in an (n, m, |Y|) array
    own_row: np.ndarray  # (m,) flat position of [row, y_row] in an (m, |Y|) array
    ar: np.ndarray      # (m,) 0..m−1


class _State:
    """What a block needs during the search: per-SPODE log-products S (n, m, |Y|) for the current
    child set (every attribute as superparent), the NB log-product Bn (m, |Y|) over C, and what
    the search derives from them (see `LooEngine._derive`)."""

    def __init__(self, S: np.ndarray, Bn: np.ndarray):
        self.S, self.Bn = S, Bn


class LooEngine:
    """Leave-one-out losses of AODE variants with parent set P and child set C (§4.8) on the
    training set, by count subtraction (§4.5.3): for training instance t of class y_t, every
    count of an estimate of class y_t loses t's contribution (one), the totals (N, and under
    missing="skip" the numbers of instances with the attribute known, K_i) lose one for every
    class, so that each estimate equals the estimate of a refit without t (the smoothing
    cardinalities |X_i| stay those of the whole training set). Superparent p qualifies for t iff
    N(x_p) − 1 ≥ min_freq (and, under skip, x_p is known); no qualifying superparent → NB over C.

    Every estimate is AODE's (`AODE._fit`, §2.1/§2.2, with AODE's skip conventions): with counts
    num, den and totals T, the LOO estimate for y ≠ y_t is f(num, den, T − 1), for y = y_t
    f(num − 1, den − 1, T − 1); tables of both versions are built once per fit over all slots
    (`cond_other` / `cond_own` over (parent slot, child slot, y)), so that a block of training
    rows is scored by gathers, vectorised over the rows.

    The search (`search`) keeps per block the per-SPODE LOO log-products S[p, t, y] =
    ln P̂₋(y, x_p) + Σ_{c∈C, c≠p} ln P̂₋(x_c | y, x_p) for every superparent p (updated in place
    as children are added or removed) and scores every candidate of a step from them: PAA by one
    log-add-exp per candidate, PAE by prefix/suffix log-sums over P, CAA/CAE by multiplying the
    per-row-shifted exp(S) with the candidate child's factor (or its inverse) in probability
    space. A row that a candidate leaves exactly unchanged (a superparent that does not qualify
    for the row; a child whose factors are all exactly 1, e.g. an attribute with one value, or
    missing under skip) keeps its current loss term bit for bit, so such a candidate ties with
    the current model exactly, as in a computation from scratch. Instances with the same values
    and class share their LOO estimates: each distinct (x, y) is scored once, weighted by its
    count. Zero-one loss: classes within a relative 1e-12 of the best posterior are tied and the
    first is predicted (`_ZOL_TIE`).
    """

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
            num = pc.xxy.astype(np.float64)
            if skip:
                ends = offsets + sizes - 1
                den3 = (np.add.reduceat(num, offsets, axis=1) - num[:, ends, :])[:, attr_slot, :]
            else:
                den3 = np.broadcast_to(xy[:, None, :], num.shape)
            kw = dict(ctx_cells=ny * card_slot[:, None, None], tot_num=T, tot_den=T)
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
        # Children whose factors are exactly 1 (log 0) wherever a row can meet them: adding or
        # removing them changes no row (the tie rule needs them recognised, not rounded).
        pair_seen = pc.xxy.sum(axis=2) >= 1
        unit = (cond_other == 0).all(axis=2) & (cond_own == 0).all(axis=2)
        relevant = pair_seen & qual_slot[:, None]
        unit_nb = (self.nb_other == 0).all(axis=1) & (self.nb_own == 0).all(axis=1)
        self.unit_child = np.array([bool((unit | ~relevant)[:, attr_slot == a].all()) for a in range(n)], dtype=bool)
        self.unit_nb = np.array([bool((unit_nb | (xy.sum(axis=1) < 1))[attr_slot == a].all()) for a in range(n)],
                                dtype=bool)
        self.cond_other = cond_other.reshape(V * V, ny)
        self.cond_own = cond_own.reshape(-1)
        self._prob = None  # exp of the pair tables (CAA), or of their negatives (CAE), made on demand
        self.skip = skip
        self.missing_slot = missing_slot
        # Instances with the same values and class have the same LOO estimates: score each
        # distinct (x, y) once, weighted by its count (when the mixed-radix key fits in int64).
        radices = [int(r) for r in sizes] + [ny]
        if N and math.prod(radices) < 1 << 62:
            key = mixed_key([Xc[:, i] for i in range(n)] + [y], radices)
            _, first, weight = np.unique(key, return_index=True, return_counts=True)
        else:
            first, weight = np.arange(N), np.ones(N, dtype=np.int64)
        Xu, yu = Xc[first], y[first]
        # blocks of distinct training rows
        step = max(1, _BLOCK_BYTES // (8 * max(n, 1) * ny))
        self.blocks: list[_Block] = []
        for s in range(0, first.size, step):
            e = min(first.size, s + step)
            mb = e - s
            g = (Xu[s:e].astype(np.intp) + offsets).T.copy() if n else np.zeros((0, mb), dtype=np.intp)
            yb = yu[s:e].astype(np.intp)
            own_row = np.arange(mb, dtype=np.intp) * ny + yb
            own = (np.arange(n, dtype=np.intp)[:, None] * (mb * ny) + own_row[None, :])
            gV = g * V
            self.blocks.append(_Block(weight[s:e].astype(np.float64), g, g * ny, gV, gV * ny + yb, yb, qual_slot[g],
                                      own, own_row, np.arange(mb)))

    # -- LOO estimates of a block's rows ----------------------------------------------------------
    def _prior(self, b: _Block) -> np.ndarray:
        out = np.tile(self.prior_other, (b.ar.size, 1))
        out[b.ar, b.y] = self.prior_own[b.y]
        return out

    def _joint(self, b: _Block) -> np.ndarray:
        out = np.take(self.joint_other, b.g, axis=0)  # (n, m, |Y|)
        np.put(out, b.own, np.take(self.joint_own.reshape(-1), b.g * self.ny + b.y))
        return out

    def _nb(self, b: _Block, a: int) -> np.ndarray:
        out = np.take(self.nb_other, b.g[a], axis=0)  # (m, |Y|)
        out[b.ar, b.y] = np.take(self.nb_own.reshape(-1), b.g[a] * self.ny + b.y)
        return out

    def _cond(self, b: _Block, a: int) -> np.ndarray:
        """ln P̂₋(x_a | y, x_p) of the block's rows for every superparent p (0 for p = a)."""
        out = np.take(self.cond_other, b.gV + b.g[a], axis=0)  # (n, m, |Y|)
        np.put(out, b.own, np.take(self.cond_own, b.gVY + b.gY[a]))
        return out

    def _build(self, b: _Block, C) -> _State:
        """S and Bn of the block for child set C: the classes other than the row's own summed
        over all |Y| columns, the own class apart, put in place at the end."""
        S = np.take(self.joint_other, b.g, axis=0)
        Sw = np.take(self.joint_own.reshape(-1), b.gY + b.y)
        Bn = self._prior(b)
        if C:
            buf = np.empty_like(S)
            bufw = np.empty_like(Sw)
            for c in C:  # children in attribute order
                np.take(self.cond_other, b.gV + b.g[c], axis=0, out=buf)
                S += buf
                np.take(self.cond_own, b.gVY + b.gY[c], out=bufw)
                Sw += bufw
                Bn += self._nb(b, c)
        np.put(S, b.own, Sw)
        return _State(S, Bn)

    # -- loss terms -------------------------------------------------------------------------------
    def _terms_log(self, A: np.ndarray, b: _Block, rows: np.ndarray | None = None) -> np.ndarray:
        """Per-row loss terms from joint log scores A (rows, |Y|) of the block's rows (`rows`, or
        all of them)."""
        y = b.y if rows is None else b.y[rows]
        if self.loss == "zol":  # classes within the tie tolerance of the best one: the first wins
            return (np.argmax(A >= _rowmax(A)[:, None] + _LOG_TIE, axis=1) != y).astype(np.float64)
        At = np.take(A.reshape(-1), b.own_row if rows is None else np.arange(y.size) * self.ny + y)
        with np.errstate(over="ignore", invalid="ignore"):
            d = A - At[:, None]
            np.exp(d, out=d)
            s = _rowsum(d)
        np.divide(1.0, s, out=s)
        np.subtract(1.0, s, out=s)
        return np.square(s, out=s)

    def _terms_prob(self, A: np.ndarray, b: _Block) -> np.ndarray:
        """Per-row loss terms from (scaled) joint probabilities A (rows, |Y|) of the block."""
        if self.loss == "zol":
            return (np.argmax(A >= _rowmax(A)[:, None] * (1.0 - _ZOL_TIE), axis=1) != b.y).astype(np.float64)
        s = _rowsum(A)
        np.divide(np.take(A.reshape(-1), b.own_row), s, out=s)
        np.subtract(1.0, s, out=s)
        return np.square(s, out=s)

    @staticmethod
    def _wsum(terms: np.ndarray, b: _Block) -> float:
        """Σ weight · term over the block's rows (the same arithmetic for equal terms)."""
        return float((terms * b.w).sum())

    def _value(self, total: float) -> float:
        """The loss from the sum of the terms: RMSE = sqrt(SSE / N), or the error rate."""
        if self.N == 0:
            return 0.0
        return float(np.sqrt(total / self.N)) if self.loss == "rmse" else float(total / self.N)

    def _model_terms(self, st: _State, b: _Block, P) -> np.ndarray:
        """Loss terms of the rows under the model (P, C) of `st` (computed from scratch)."""
        P = sorted(P)
        nb = self._terms_log(st.Bn, b)
        if not P:
            return nb
        q = b.Q[P]
        A = logsumexp(np.where(q[:, :, None], st.S[P], -np.inf), axis=0)
        has = q.any(axis=0)
        with np.errstate(invalid="ignore"):
            return np.where(has, self._terms_log(np.where(has[:, None], A, 0.0), b), nb)

    def loss_of(self, parents, children) -> float:
        """The LOO loss (RMSE or ZOL) of the model with parent set `parents`, child set `children`."""
        total = 0.0
        for b in self.blocks:
            total += self._wsum(self._model_terms(self._build(b, sorted(children)), b, parents), b)
        return self._value(total)

    # -- the search -------------------------------------------------------------------------------
    def _derive(self, kind: str, st: _State, b: _Block, P) -> None:
        """Per-step quantities of a block's state for the current (P, C)."""
        if kind == "PAA":  # A = ln Σ_{p∈P_x} exp S[p] (−inf for no qualifying superparent)
            P = sorted(P)
            st.A = (logsumexp(np.where(b.Q[P][:, :, None], st.S[P], -np.inf), axis=0) if P
                    else np.full(st.Bn.shape, -np.inf))
        elif kind == "PAE":
            st.nbterm = self._terms_log(st.Bn, b)
        else:  # CAA / CAE: P = all; per-row shifted probabilities of the qualifying SPODEs
            st.cnt = b.Q.sum(axis=0)
            st.has = st.cnt > 0
            masked = np.where(b.Q[:, :, None], st.S, -np.inf)
            M = _rowmax(masked.max(axis=0)) if self.n else np.zeros(b.ar.size)
            M[~st.has] = 0.0
            masked -= M[None, :, None]
            with np.errstate(under="ignore"):
                st.E = np.exp(masked, out=masked)
            st.Ew = np.take(st.E.reshape(-1), b.own)
            st.nohas = np.flatnonzero(~st.has)

    def _state(self, kind: str, b: _Block, P, C) -> _State:
        st = self._build(b, C)
        self._derive(kind, st, b, P)
        return st

    def _candidate_terms(self, kind: str, st: _State, b: _Block, cands: list[int], P,
                         cur: np.ndarray) -> np.ndarray:
        """(len(cands), m) loss terms of the block's rows under each candidate model; a row the
        candidate leaves unchanged keeps its current term `cur` exactly."""
        out = np.empty((len(cands), b.ar.size))
        if kind == "PAA":  # a qualifying new superparent joins the row's average
            for j, a in enumerate(cands):
                new = self._terms_log(np.logaddexp(st.A, st.S[a]), b)
                np.copyto(out[j], np.where(b.Q[a], new, cur))
            return out
        if kind == "PAE":  # the average without a: prefix and suffix log-sums over P
            members = sorted(P)
            q = b.Q[members]
            pre = np.empty((len(members) + 1,) + st.Bn.shape)
            suf = np.empty_like(pre)
            pre[0] = suf[-1] = -np.inf
            for k, p in enumerate(members):
                np.logaddexp(pre[k], np.where(q[k][:, None], st.S[p], -np.inf), out=pre[k + 1])
            for k in range(len(members) - 1, -1, -1):
                np.logaddexp(np.where(q[k][:, None], st.S[members[k]], -np.inf), suf[k + 1], out=suf[k])
            cnt = q.sum(axis=0)
            for j, a in enumerate(cands):
                k = members.index(a)
                has = cnt - q[k] > 0
                with np.errstate(invalid="ignore"):
                    new = self._terms_log(np.logaddexp(pre[k], suf[k + 1]), b)
                np.copyto(out[j], np.where(q[k], np.where(has, new, st.nbterm), cur))
            return out
        # CAA / CAE: every SPODE's product times the factor of child a (or divided by it)
        table, table_own = self._prob_tables(kind)
        sign = 1.0 if kind == "CAA" else -1.0
        F = np.empty_like(st.E)
        Fw = np.empty_like(st.Ew)
        for j, a in enumerate(cands):
            np.take(table, b.gV + b.g[a], axis=0, out=F)
            np.take(table_own, b.gVY + b.gY[a], out=Fw)
            np.multiply(F, st.E, out=F)
            A = F.sum(axis=0)
            np.multiply(Fw, st.Ew, out=Fw)
            np.put(A, b.own_row, Fw.sum(axis=0))
            with np.errstate(invalid="ignore", divide="ignore"):
                new = self._terms_prob(A, b)
            if st.nohas.size:
                r = st.nohas
                new[r] = self._terms_log(st.Bn[r] + sign * self._nb(b, a)[r], b, r)
            changed = np.where(st.has, (st.cnt - b.Q[a] > 0) & ~self.unit_child[a], ~self.unit_nb[a])
            if self.skip:
                changed &= ~self.missing_slot[b.g[a]]
            np.copyto(out[j], np.where(changed, new, cur))
        return out

    def _prob_tables(self, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """exp of the LOO pair tables (CAA: the factor a new child brings) or of their negatives
        (CAE: the inverse of the factor a removed child takes away)."""
        if self._prob is None or self._prob[0] != kind:
            sign = 1.0 if kind == "CAA" else -1.0
            with np.errstate(over="ignore"):
                self._prob = (kind, np.exp(sign * self.cond_other), np.exp(sign * self.cond_own))
        return self._prob[1], self._prob[2]

    def _accept(self, kind: str, st: _State, b: _Block, a: int, P, C) -> None:
        """Update a cached block state after attribute a was added to / removed from P or C."""
        if kind == "PAA":
            q = b.Q[a]
            st.A[q] = np.logaddexp(st.A[q], st.S[a, q])
        elif kind in ("CAA", "CAE"):
            if kind == "CAA":
                st.S += self._cond(b, a)
                st.Bn += self._nb(b, a)
            else:
                st.S -= self._cond(b, a)
                st.Bn -= self._nb(b, a)
            self._derive(kind, st, b, P)
        # PAE: the prefix/suffix sums are made from P at each step

    def search(self, kind: str) -> tuple[list[int], list[int], list[float]]:
        """Greedy search of §4.8.4: (P, C, losses of the accepted models, the start model first).
        Each step scores every candidate (ascending attribute index); the best one (first
        minimum: ties → smallest index) is taken iff its loss is strictly lower than the current
        model's. Stops when no candidate is left or an elimination would empty P (or C)."""
        if kind not in SEARCHES:
            raise ValueError(f"search must be one of {SEARCHES}, got {kind!r}")
        everything = list(range(self.n))
        P = [] if kind == "PAA" else list(everything)
        C = [] if kind == "CAA" else list(everything)
        arrays = 2 if kind in ("CAA", "CAE") else 1
        cache = arrays * 8 * self.n * self.N * self.ny <= _CACHE_BYTES
        states: list[_State | None] = [None] * len(self.blocks)
        cur_terms = []
        total = 0.0
        for i, b in enumerate(self.blocks):
            st = self._build(b, C)
            cur_terms.append(self._model_terms(st, b, P))
            total += self._wsum(cur_terms[i], b)
            if cache:
                self._derive(kind, st, b, P)
                states[i] = st
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
            for i, b in enumerate(self.blocks):
                st = states[i] if cache else self._state(kind, b, P, C)
                T = self._candidate_terms(kind, st, b, cands, P, cur_terms[i])
                totals += np.array([self._wsum(row, b) for row in T])  # as the current terms
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


class _AODEWrapper(AODE):
    """AODE with parent set P and child set C (§4.8) chosen by a greedy LOO wrapper; subclasses
    name the search. Prediction: P(y, x) ∝ (1/|P_x|) Σ_{p∈P_x} P̂(y, x_p) Π_{c∈C, c≠p} P̂(x_c | y, x_p),
    P_x = {p ∈ P : N(x_p) ≥ min_freq} (never a missing value under skip); NB over C,
    P̂(y) Π_{c∈C} P̂(x_c | y), when P_x is empty."""

    SEARCH = ""
    PARAM_CHOICES = {**AODE.PARAM_CHOICES, "wrapper_loss": WRAPPER_LOSSES}

    def __init__(self, estimator="mestimate", m=1.0, missing="value", cardinalities=None,
                 n_classes=None, min_freq: int = 1, wrapper_loss: str = "rmse"):
        super().__init__(estimator, m, missing, cardinalities, n_classes, min_freq)
        self.wrapper_loss = wrapper_loss

    def _fit(self, Xc, y):
        super()._fit(Xc, y)
        n = Xc.shape[1]
        P, C, path = LooEngine(self, Xc, y, self.wrapper_loss).search(self.SEARCH)
        self.parents_ = np.array(P, dtype=np.int64)
        self.children_ = np.array(C, dtype=np.int64)
        self.loss_path_ = np.array(path)
        kept = len(P) if self.SEARCH in ("PAA", "PAE") else len(C)
        self.info_ = {"elimination": (n - kept) / n if n else 0.0, "parents": P, "children": C}

    def _nb_children(self, rows: np.ndarray) -> np.ndarray:
        """NB over C: ln P̂(y) + Σ_{c∈C} ln P̂(x_c | y)."""
        nb = np.tile(self.log_prior_, (rows.shape[0], 1))
        for c in self.children_.tolist():
            nb += self.nb_[c][rows[:, c]]
        return nb

    def _joint_log_likelihood(self, Xc):
        n_rows, n = Xc.shape
        if n == 0 or n_rows == 0 or self.parents_.size == 0:
            return self._nb_children(Xc)
        in_p = np.zeros(n, dtype=bool)
        in_p[self.parents_] = True
        in_c = np.zeros(n, dtype=bool)
        in_c[self.children_] = True
        out = np.empty((n_rows, self.n_classes_))
        for s, g, sp, _ in spode_blocks(Xc, self.counts_.offsets, self.log_joint_, self.log_cond_, children=in_c):
            m = g.shape[1]
            ok = self.parent_ok_[g] & in_p[:, None]
            sp[~ok] = -np.inf
            nq = ok.sum(axis=0)
            out[s:s + m] = logsumexp(sp, axis=0) - np.log(np.maximum(nq, 1))[:, None]
            none = np.flatnonzero(nq == 0)
            if none.size:  # no usable superparent: NB over C
                out[s + none] = self._nb_children(Xc[s + none])
        return out


_PARAMS_DOC = """
    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier` (paper 003 uses estimator="laplace_joint"). Both missing
        modes are supported (under "skip" a missing value is never a superparent and adds no
        child factor, as in AODE).
    min_freq : int, default=1
        AODE's minimum frequency of a superparent's value (§4.4); in the leave-one-out search
        the held-out instance is not counted (N(x_p) − 1 ≥ min_freq).
    wrapper_loss : {"rmse", "zol"}, default="rmse"
        Evaluation loss of the search: leave-one-out true-class RMSE (§5.3; Webb-group code)
        or zero-one loss.

    Attributes
    ----------
    parents_, children_ : ndarray of int
        The selected P and C (attribute indices, ascending).
    loss_path_ : ndarray
        Leave-one-out loss of the start model and of the model after each accepted step.
    info_ : dict
        {"elimination": e / n (§6.6), "parents": P, "children": C}.
"""


class PAA(_AODEWrapper):
    __doc__ = """PAA — parent addition (F. Zheng, G. I. Webb, "Finding the right family: parent
    and child selection for averaged one-dependence estimators", ECML 2007, LNAI 4701,
    pp. 490–501), ALGORITHMS.md §4.8.4. Starts from P = ∅ (naive Bayes), C = all attributes;
    each step adds to P the attribute whose model has the lowest leave-one-out loss on the
    training set (count subtraction, `LooEngine`) if that loss is strictly lower than the
    current one (ties → smallest index); stops otherwise or when P holds every attribute.
    Elimination ratio: attributes not in P / n.
    """ + _PARAMS_DOC
    SEARCH = "PAA"


class CAA(_AODEWrapper):
    __doc__ = """CAA — child addition (Zheng & Webb, ECML 2007; see `PAA`), ALGORITHMS.md §4.8.4.
    Starts from P = all attributes, C = ∅ (every SPODE is P̂(y, x_p) alone); each step adds to C
    (as a child of every SPODE) the attribute with the lowest leave-one-out loss if it is
    strictly lower than the current one (ties → smallest index); stops otherwise or when C holds
    every attribute. Elimination ratio: attributes not in C / n (the same for every test row).
    """ + _PARAMS_DOC
    SEARCH = "CAA"


class PAE(_AODEWrapper):
    __doc__ = """PAE — parent elimination (Zheng & Webb, ECML 2007; see `PAA`), ALGORITHMS.md
    §4.8.4. Starts from AODE (P = C = all attributes); each step removes from P (its SPODE goes;
    it stays a child) the attribute whose removal gives the lowest leave-one-out loss if it is
    strictly lower than the current one (ties → smallest index); stops otherwise or when a
    removal would empty P. Elimination ratio: attributes not in P / n.
    """ + _PARAMS_DOC
    SEARCH = "PAE"


class CAE(_AODEWrapper):
    __doc__ = """CAE — child elimination (Zheng & Webb, ECML 2007; see `PAA`), ALGORITHMS.md
    §4.8.4. Starts from AODE (P = C = all attributes); each step removes from C (as a child of
    every SPODE; it stays a superparent) the attribute whose removal gives the lowest
    leave-one-out loss if it is strictly lower than the current one (ties → smallest index);
    stops otherwise or when a removal would empty C. Elimination ratio: attributes not in C / n
    (the same for every test row).
    """ + _PARAMS_DOC
    SEARCH = "CAE"
