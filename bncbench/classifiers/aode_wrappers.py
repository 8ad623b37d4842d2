"""PAA, CAA, PAE, CAE: AODE with its parent set P or its child set C chosen greedily by the
leave-one-out loss on the training set (Zheng & Webb 2007), ALGORITHMS.md §4.8.4 — the wrapper
baselines of paper 003 — over one shared leave-one-out engine (`LooEngine`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

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
#: A row's shifted probabilities (largest SPODE term of the row = 1) are trusted when their
#: largest class sum is at least this: what underflow lost is then below 2**-170 of it. Rows
#: under it are scored again in log space (exact whatever the spread of the SPODEs).
_TINY = 1e-270
_BLOCK_BYTES = 1 << 23  # one (n, rows, |Y|) float64 block of training rows (temporaries stay this size)
_CACHE_BYTES = 1 << 30  # keep every block's SPODE products between steps if all of them fit
_TABLE_BYTES = 1 << 26  # keep the LOO tables of every class if they fit (else the last class's only)


def _lastsum(A: np.ndarray) -> np.ndarray:
    """Σ over the last axis (the classes), class by class (fast for few classes)."""
    out = A[..., 0].copy()
    for c in range(1, A.shape[-1]):
        out += A[..., c]
    return out


def _lastmax(A: np.ndarray) -> np.ndarray:
    out = A[..., 0].copy()
    for c in range(1, A.shape[-1]):
        np.maximum(out, A[..., c], out=out)
    return out


@dataclass
class _Tables:
    """The LOO estimates met by training rows of one class k: column k holds the own-class
    version (the row's counts removed), the other columns the other-class one (only the
    totals lose the row)."""
    prior: np.ndarray  # (|Y|,) ln P̂₋(y)
    joint: np.ndarray  # (V, |Y|) ln P̂₋(x_p, y) per slot
    nb: np.ndarray     # (V, |Y|) ln P̂₋(x_c | y) per slot
    cond: np.ndarray   # (V·V, |Y|) ln P̂₋(x_c | y, x_p), row p slot · V + c slot
    prob: dict = field(default_factory=dict)  # sign → exp(sign · cond), made on demand


@dataclass
class _Block:
    """Static data of one block of distinct training rows, all of class k."""
    k: int
    w: np.ndarray    # (m,) how many training instances each row stands for
    g: np.ndarray    # (n, m) slots of the rows' values
    gV: np.ndarray   # (n, m) g · V: first row of the superparent slot's block in `_Tables.cond`
    Q: np.ndarray    # (n, m) superparent p qualifies for the row with the row held out
    cnt: np.ndarray  # (m,) number of qualifying superparents


class _State:
    """What a block needs during the search: per-SPODE log-products S (n, m, |Y|) for the current
    child set (every attribute as superparent), the NB log-product Bn (m, |Y|) over C, and the
    per-row shifted probabilities E = exp(S − M) of the qualifying SPODEs (0 elsewhere; M = the
    row's largest qualifying S, so E ≤ 1), with what each search derives from them."""

    def __init__(self, S: np.ndarray, Bn: np.ndarray):
        self.S, self.Bn = S, Bn
        self.E = self.A = self.nbterm = None


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
    f(num − 1, den − 1, T − 1). Training rows are grouped by class, so a block of rows (all of
    class k) is scored by gathers from one table per class (`_Tables`: the own-class column
    swapped in), vectorised over the rows.

    The search (`search`) keeps per block the per-SPODE LOO log-products S[p, t, y] =
    ln P̂₋(y, x_p) + Σ_{c∈C, c≠p} ln P̂₋(x_c | y, x_p) for every superparent p and their per-row
    shifted exponentials E, and scores every candidate of a step from them with a few large
    array operations: PAA adds the candidate's E to the running sum over P, PAE takes prefix and
    suffix sums of E over P (no subtraction, so no cancellation), CAA / CAE multiply E by the
    candidate child's factor (CAE: its inverse) in probability space and sum over the
    superparents; accepting a child adds (CAA) or subtracts (CAE) its log factor to every
    SPODE's S. The loss of a row depends only on the ratios of its class sums, so no logarithm
    is taken; a row whose sums fall under `_TINY` (the SPODEs left are far below the row's
    shift) is scored again in log space. A row that a candidate leaves exactly unchanged (a
    superparent that does not qualify for the row; a child whose factors are all exactly 1, e.g.
    an attribute with one value, or missing under skip) keeps its current loss term bit for bit,
    so such a candidate ties with the current model exactly, as in a computation from scratch.
    Instances with the same values and class share their LOO estimates: each distinct (x, y) is
    scored once, weighted by its count. Zero-one loss: classes within a relative 1e-12 of the
    best posterior are tied and the first is predicted (`_ZOL_TIE`).
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
        self.unit_child = np.logical_and.reduceat((unit | ~relevant).all(axis=0), offsets) if n else np.zeros(0, bool)
        self.unit_nb = np.logical_and.reduceat(unit_nb | (xy.sum(axis=1) < 1), offsets) if n else np.zeros(0, bool)
        self.cond_other = cond_other.reshape(V * V, ny)
        self.cond_own = cond_own.reshape(V * V, ny)
        self.skip = skip
        self.missing_slot = missing_slot
        self._tables: dict[int, _Tables] = {}
        self._keep_tables = 2 * ny * self.cond_other.nbytes <= _TABLE_BYTES
        # Instances with the same values and class have the same LOO estimates: score each
        # distinct (x, y) once, weighted by its count (when the mixed-radix key fits in int64);
        # the class is the leading digit, so the distinct rows come grouped by class.
        radices = [ny] + [int(r) for r in sizes]
        if N and math.prod(radices) < 1 << 62:
            key = mixed_key([y] + [Xc[:, i] for i in range(n)], radices)
            _, first, weight = np.unique(key, return_index=True, return_counts=True)
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
                self.blocks.append(_Block(k, weight[s:e].astype(np.float64), g, g * V, Q, Q.sum(axis=0)))

    # -- LOO estimates of a block's rows ----------------------------------------------------------
    def _class_tables(self, k: int) -> _Tables:
        """The tables met by rows of class k (kept for every class if they fit in _TABLE_BYTES,
        else for the last class asked for)."""
        t = self._tables.get(k)
        if t is None:
            cols = []
            for other, own in ((self.prior_other, self.prior_own), (self.joint_other, self.joint_own),
                               (self.nb_other, self.nb_own), (self.cond_other, self.cond_own)):
                tab = other.copy()
                tab[..., k] = own[..., k]
                cols.append(tab)
            t = _Tables(*cols)
            if not self._keep_tables:
                self._tables.clear()
            self._tables[k] = t
        return t

    def _prob_table(self, k: int, sign: float) -> np.ndarray:
        """exp(sign · ln P̂₋(x_c | y, x_p)): the factor a new child brings (+1) or the inverse of
        the factor a removed child takes away (−1)."""
        t = self._class_tables(k)
        if sign not in t.prob:
            with np.errstate(over="ignore"):
                t.prob[sign] = np.exp(sign * t.cond)
        return t.prob[sign]

    def _cond(self, t: _Tables, b: _Block, a: int, rows=slice(None)) -> np.ndarray:
        """ln P̂₋(x_a | y, x_p) of the block's rows for every superparent p (0 for p = a)."""
        return np.take(t.cond, b.gV[:, rows] + b.g[a, rows], axis=0)

    def _build(self, b: _Block, C) -> _State:
        """S and Bn of the block for child set C (children summed in attribute order)."""
        t = self._class_tables(b.k)
        S = np.take(t.joint, b.g, axis=0)  # (n, m, |Y|)
        Bn = np.tile(t.prior, (b.w.size, 1))
        for c in C:
            S += self._cond(t, b, c)
            Bn += np.take(t.nb, b.g[c], axis=0)
        return _State(S, Bn)

    # -- loss terms -------------------------------------------------------------------------------
    def _terms_log(self, A: np.ndarray, k: int) -> np.ndarray:
        """Loss terms from joint log scores A (..., |Y|) of rows of class k."""
        if self.loss == "zol":  # classes within the tie tolerance of the best one: the first wins
            return (np.argmax(A >= (_lastmax(A) + _LOG_TIE)[..., None], axis=-1) != k).astype(np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            d = A - A[..., k:k + 1]
            np.exp(d, out=d)
            s = _lastsum(d)
        np.divide(1.0, s, out=s)
        np.subtract(1.0, s, out=s)
        return np.square(s, out=s)

    def _terms_prob(self, A: np.ndarray, k: int) -> np.ndarray:
        """Loss terms from (scaled) joint probabilities A (..., |Y|) of rows of class k."""
        if self.loss == "zol":
            return (np.argmax(A >= (_lastmax(A) * (1.0 - _ZOL_TIE))[..., None], axis=-1) != k).astype(np.float64)
        s = _lastsum(A)
        with np.errstate(invalid="ignore", divide="ignore"):
            np.divide(A[..., k], s, out=s)
        np.subtract(1.0, s, out=s)
        return np.square(s, out=s)

    def _value(self, total: float) -> float:
        """The loss from the sum of the terms: RMSE = sqrt(SSE / N), or the error rate."""
        if self.N == 0:
            return 0.0
        return float(np.sqrt(total / self.N)) if self.loss == "rmse" else float(total / self.N)

    def _model_terms(self, st: _State, b: _Block, P) -> np.ndarray:
        """Loss terms of the rows under the model (P, C) of `st` (computed from scratch)."""
        P = sorted(P)
        nb = self._terms_log(st.Bn, b.k)
        if not P:
            return nb
        q = b.Q[P]
        A = logsumexp(np.where(q[:, :, None], st.S[P], -np.inf), axis=0)
        has = q.any(axis=0)
        with np.errstate(invalid="ignore"):
            return np.where(has, self._terms_log(np.where(has[:, None], A, 0.0), b.k), nb)

    def loss_of(self, parents, children) -> float:
        """The LOO loss (RMSE or ZOL) of the model with parent set `parents`, child set `children`."""
        total = 0.0
        for b in self.blocks:
            total += float((self._model_terms(self._build(b, sorted(children)), b, parents) * b.w).sum())
        return self._value(total)

    # -- the search -------------------------------------------------------------------------------
    def _shift(self, st: _State, b: _Block) -> None:
        """E = exp(S − M) over the qualifying SPODEs (0 elsewhere), M the row's largest S."""
        E = np.where(b.Q[:, :, None], st.S, -np.inf)
        M = _lastmax(E.max(axis=0)) if self.n else np.zeros(b.w.size)
        M[b.cnt == 0] = 0.0
        E -= M[None, :, None]
        with np.errstate(under="ignore"):
            st.E = np.exp(E, out=E)

    def _derive(self, kind: str, st: _State, b: _Block, P) -> None:
        """Per-search quantities of a block's state for the current (P, C)."""
        self._shift(st, b)
        if kind == "PAA":  # the running sum over P
            st.A = np.zeros(st.Bn.shape)
            for p in sorted(P):
                st.A += st.E[p]
        elif kind == "PAE":  # NB over C = all: the term of a row left without superparent
            st.nbterm = self._terms_log(st.Bn, b.k)

    def _state(self, kind: str, b: _Block, P, C) -> _State:
        st = self._build(b, C)
        self._derive(kind, st, b, P)
        return st

    def _exact(self, st: _State, b: _Block, T: np.ndarray, low: np.ndarray, member: np.ndarray,
               child: np.ndarray | None = None, sign: float = 0.0) -> None:
        """Score again, in log space, the (candidate j, row t) pairs of `low` into T (K, m):
        candidate j's SPODEs are those of member[j] (K, n) that qualify for t; with `child`, S
        gains sign · ln P̂₋(x_child[j] | y, x_p)."""
        j, t = np.nonzero(low)
        if not j.size:
            return
        S = st.S[:, t]  # (n, L, |Y|)
        if child is not None:
            tab = self._class_tables(b.k)
            S = S + sign * np.take(tab.cond, b.gV[:, t] + b.g[child[j], t], axis=0)
        use = member[j].T & b.Q[:, t]
        T[j, t] = self._terms_log(logsumexp(np.where(use[:, :, None], S, -np.inf), axis=0), b.k)

    def _candidate_terms(self, kind: str, st: _State, b: _Block, cands: list[int], P,
                         cur: np.ndarray) -> np.ndarray:
        """(len(cands), m) loss terms of the block's rows under each candidate model; a row the
        candidate leaves unchanged keeps its current term `cur` exactly."""
        ca = np.asarray(cands, dtype=np.intp)
        K, n = ca.size, self.n
        member = np.zeros((K, n), dtype=bool)
        qa = b.Q[ca]  # (K, m)
        if kind == "PAA":  # a qualifying new superparent joins the row's sum
            A = st.A[None] + st.E[ca]
            T = self._terms_prob(A, b.k)
            member[:, sorted(P)] = True
            member[np.arange(K), ca] = True
            self._exact(st, b, T, qa & (_lastmax(A) < _TINY), member)
            return np.where(qa, T, cur)
        if kind == "PAE":  # the sum over P without a: prefix + suffix sums over P (cands = P)
            Em = st.E[ca]
            A = np.empty_like(Em)
            pre = np.cumsum(Em[:-1], axis=0)   # pre[i] = Σ_{j≤i}
            suf = np.cumsum(Em[:0:-1], axis=0)[::-1]  # suf[i] = Σ_{j>i}
            A[0] = suf[0]
            A[-1] = pre[-1]
            np.add(pre[:-1], suf[1:], out=A[1:-1])
            has = (qa.sum(axis=0) - qa) > 0  # a superparent of P is left for the row
            T = self._terms_prob(A, b.k)
            member[:] = True
            member[np.arange(K), ca] = False
            member[:, [p for p in range(n) if p not in P]] = False
            self._exact(st, b, T, qa & has & (_lastmax(A) < _TINY), member)
            return np.where(qa, np.where(has, T, st.nbterm), cur)
        # CAA / CAE: every SPODE's product times the factor of child a (or divided by it)
        sign = 1.0 if kind == "CAA" else -1.0
        tab = self._prob_table(b.k, sign)
        A = np.empty((K,) + st.Bn.shape)
        for j, a in enumerate(cands):
            F = np.take(tab, b.gV + b.g[a], axis=0)
            np.einsum("ptk,ptk->tk", F, st.E, out=A[j])
        has = b.cnt > 0
        T = self._terms_prob(A, b.k)
        member[:] = True
        self._exact(st, b, T, has & (_lastmax(A) < _TINY), member, ca, sign)
        nohas = np.flatnonzero(~has)
        if nohas.size:  # NB over C ± a
            nb = self._class_tables(b.k).nb
            T[:, nohas] = self._terms_log(st.Bn[nohas] + sign * np.take(nb, b.g[ca][:, nohas], axis=0), b.k)
        changed = np.where(has, (b.cnt - qa > 0) & ~self.unit_child[ca][:, None], ~self.unit_nb[ca][:, None])
        if self.skip:
            changed &= ~self.missing_slot[b.g[ca]]
        return np.where(changed, T, cur)

    def _accept(self, kind: str, st: _State, b: _Block, a: int, P, C) -> None:
        """Update a cached block state after attribute a was added to / removed from P or C."""
        if kind == "PAA":
            st.A += st.E[a]
        elif kind in ("CAA", "CAE"):
            t = self._class_tables(b.k)
            if kind == "CAA":
                st.S += self._cond(t, b, a)
                st.Bn += np.take(t.nb, b.g[a], axis=0)
            else:
                st.S -= self._cond(t, b, a)
                st.Bn -= np.take(t.nb, b.g[a], axis=0)
            self._shift(st, b)
        # PAE: S and E stay; the prefix/suffix sums are made from P at each step

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
        cache = 2 * 8 * self.n * self.m * self.ny <= _CACHE_BYTES  # S and E of every block
        states: list[_State | None] = [None] * len(self.blocks)
        cur_terms = []
        total = 0.0
        for i, b in enumerate(self.blocks):
            st = self._build(b, C)
            cur_terms.append(self._model_terms(st, b, P))
            total += float((cur_terms[i] * b.w).sum())
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
