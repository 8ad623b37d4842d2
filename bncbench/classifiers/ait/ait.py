"""AIT: adaptive independence thresholding for TAN and KDB with target learning (paper 004,
"Identification of informational and probabilistic independence by adaptive thresholding"),
docs/algorithms.md §4.9."""

from __future__ import annotations

import functools
from typing import ClassVar

import numpy as np

from bncbench.classifiers.ait.deep_counts import DeepCounts
from bncbench.classifiers.ait.thresholding import knee_threshold, knee_thresholds
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.estimators import log_cond, log_prior
from bncbench.classifiers.kernels.infotheory import cond_mutual_info, mutual_info_class
from bncbench.classifiers.kernels.learned_network import forget_rows, network_arcs, one_network, per_rows, shares
from bncbench.classifiers.kernels.network_tables import NetworkTables, factor_table
from bncbench.classifiers.kernels.ordering import descending_orders
from bncbench.classifiers.kernels.params import SHARED_PARAMS, Param
from bncbench.classifiers.kernels.structure import (
    kdb_parents,
    kdb_parents_batch,
    prim_tree,
    prim_trees,
)
from bncbench.classifiers.kernels.tables import nb_tables
from bncbench.classifiers.kernels.ties import tie_key
from bncbench.classifiers.learned import Learned

#: elements of one (instances × pairs × labels) block of local scores per chunk of test rows
_CHUNK_ELEMENTS = 1 << 20


class AIT(BayesNetClassifier):
    """TAN^AIT / KDB^AIT (paper 004): base and local networks, weak arcs removed, averaged (docs/algorithms.md §4.9).

    Parameters
    ----------
    base : {"TAN", "KDB"}, default="TAN"
        Base learner of both networks.
    k : int, default=2
        KDB's maximum number of attribute parents (base="KDB" only).
    backoff : bool, default=True
        KDB base network's back-off to the longest parent prefix seen in training (§4.3).
    cii, cip : bool, default=True
        Use BNC_T (the training-data network) / BNC_P (the local networks); at least one.
    ait : bool, default=True
        Threshold the arcs; False gives the plain target-learning combination BNC_T + BNC_P.
    cip_structure : {"instance", "per_label"}, default="instance"
        One local network per test instance, or one per label.
    ait_default_interval : {"paper", "first", "last"}, default="paper"
        Search box when no list box has a jump.
    local_kdb_backoff : bool, default=True
        Local KDB's back-off to the longest parent prefix seen in training.
    local_kdb_order : {"local", "global"}, default="local"
        Local KDB attribute order: by LMI(x_i), or the global order by I(X_i;Y).
    local_k : int or None, default=None
        Local KDB's maximum number of parents; None: `k`.
    info_precision : {"float64", "float32"}, default="float64"
        "float32" for the paper configs (§0.3).
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`.
    """

    WORKING_TABLES: ClassVar[float] = 9.5  # measured: 8.91 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {
        **BayesNetClassifier.PARAMS, "base": Param(str, ("TAN", "KDB")), "k": Param(int, low=0), "backoff": Param(bool),
        "cii": Param(bool), "cip": Param(bool), "ait": Param(bool),
        "cip_structure": Param(str, ("instance", "per_label")),
        "ait_default_interval": Param(str, ("paper", "first", "last")), "local_kdb_backoff": Param(bool),
        "local_kdb_order": Param(str, ("local", "global")), "local_k": Param(int, low=0, none=True),
        "info_precision": SHARED_PARAMS["info_precision"]}

    def __init__(self, *, base: str = "TAN", k: int = 2, backoff: bool = True, cii: bool = True, cip: bool = True,
                 ait: bool = True, cip_structure: str = "instance", ait_default_interval: str = "paper",
                 local_kdb_backoff: bool = True, local_kdb_order: str = "local", local_k: int | None = None,
                 info_precision: str = "float64", estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.base = base
        self.k = k
        self.backoff = backoff
        self.cii = cii
        self.cip = cip
        self.ait = ait
        self.cip_structure = cip_structure
        self.ait_default_interval = ait_default_interval
        self.local_kdb_backoff = local_kdb_backoff
        self.local_kdb_order = local_kdb_order
        self.local_k = local_k
        self.info_precision = info_precision

    def _check_params(self) -> None:
        """The declared constraints, and at least one of the two networks."""
        super()._check_params()
        if not (self.cii or self.cip):
            raise ValueError("cii and cip are both False: AIT needs at least one of the two networks")

    # -- training ---------------------------------------------------------------------
    def _fit(self, Xc, y):
        forget_rows(self)
        skip = self.missing == "skip"
        pc = self._pair_counts(Xc, y)
        n = Xc.shape[1]
        nc = self.n_classes_
        self.counts_ = pc
        self.cmi_ = cond_mutual_info(pc, self.info_precision, skip)
        if self.base == "TAN":
            tree = prim_tree(self.cmi_, 0)
            self.base_parents_ = [[int(p)] if p >= 0 else [] for p in tree]
            self._kglobal = self._klocal = 1
        else:
            self.mi_ = mutual_info_class(pc, self.info_precision, skip)
            self.order_, self.base_parents_ = kdb_parents(self.mi_, self.cmi_, int(self.k),
                                                          gcc_order=self.info_precision == "float32")
            self._kglobal = int(self.k)
            self._klocal = int(self.k if self.local_k is None else self.local_k)
        cii_default = "last" if self.ait_default_interval in ("paper", "last") else "first"
        self._cip_default = "first" if self.ait_default_interval in ("paper", "first") else "last"
        iu = np.triu_indices(n, 1)
        self.threshold_ = knee_threshold(self.cmi_[iu], cii_default) if (self.ait and self.cii) else -np.inf
        self.parents_ = [[p for p in par if self.cmi_[i, p] > self.threshold_]
                         for i, par in enumerate(self.base_parents_)]
        removed = sum(len(a) - len(b) for a, b in zip(self.base_parents_, self.parents_))
        self.info_ = {"cii_threshold": float(self.threshold_) if np.isfinite(self.threshold_) else None,
                      "cii_arcs_removed": int(removed)}
        # training rows for estimates with ≥ 2 parents (counted per parent set at prediction)
        deep = max(self._kglobal, self._klocal) >= 2
        self._cols = np.ascontiguousarray(Xc.T, dtype=np.int64) if deep else None
        self._ytr = np.array(y, dtype=np.int64) if deep else None

        # estimates: ln P̂(y), ln P̂(x_i | y) (flat over slots), and the counts of P̂(x_i | y, x_p)
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self._nb = np.concatenate(nb_tables(pc, self.card_, skip, self.estimator, self.m), axis=0)  # (V, |Y|)
        sizes, off = self.sizes_, pc.offsets
        V = int(sizes.sum())
        self._attr = np.repeat(np.arange(n), sizes)  # attribute of each slot
        real = np.ones(V, dtype=bool)
        if skip:
            real[off + sizes - 1] = False  # the missing slot is left out of every count
        self._real = real
        xxy = pc.pairs
        self._V = V
        den_slots = real if (skip and self.estimator != "laplace_joint") else np.ones(V, dtype=bool)
        pden = np.add.reduceat(xxy * den_slots[:, None, None], off, axis=0)  # [child attr, parent slot, y]
        N = float(pc.n)
        if skip:
            both = (xxy.sum(axis=2) * real[:, None] * real[None, :]).astype(np.float64)
            tot_num = np.add.reduceat(np.add.reduceat(both, off, axis=0), off, axis=1)  # [child, parent]
            tot_den = np.add.reduceat(pc.xy.sum(axis=1) * real, off).astype(np.float64)  # [parent]
        else:
            tot_num, tot_den = np.full((n, n), N), np.full(n, N)
        # ln P̂(x_i = u | y, x_p = w) for every pair of slots of two attributes (as tables.pair_table)
        attr = self._attr
        with np.errstate(divide="ignore", invalid="ignore"):
            self._lt = log_cond(xxy, pden[attr], self.card_[attr][:, None, None], self.estimator, self.m,
                                ctx_cells=(nc * self.card_[attr])[None, :, None],
                                tot_num=tot_num[attr][:, attr][:, :, None],
                                tot_den=tot_den[attr][None, :, None]).reshape(V * V, nc)
        self._freq = pc.xy.sum(axis=1)  # N(x_p) over all rows and classes (back-off)
        self._local_tables(pc, xxy, real)

    def learned_structure(self, X=None) -> Learned:
        """The training-data network (BNC_T, thresholded when `cii`); given X and `cip`, each of its
        arcs' share of rows whose local network (BNC_P, after its threshold) has the arc for no
        label (docs/algorithms.md §11)."""
        base = one_network(self.parents_)
        if X is None or not self.cip or not base.arcs:
            return base
        X, lo, hi = self._validate_X(X, reset=False)
        dropped = per_rows(self, self._internal(X, lo, hi), self._arcs_dropped)  # kept by `predict_proba`
        return Learned(arcs=base.arcs, attributes=base.attributes, arc_dropped=shares(dropped, base.arcs))

    def _chunk_rows(self, n: int) -> int:
        """Test rows per chunk of local networks (one (rows × pairs × labels) block of local scores)."""
        nc = self.n_classes_
        per_row = max(1, n * (n - 1) // 2 * nc * (nc if self.cip_structure == "per_label" else 1))
        return max(1, _CHUNK_ELEMENTS // per_row)

    def _arcs_dropped(self, Xc: np.ndarray) -> np.ndarray:
        """(rows, arcs of BNC_T): whether the row's local networks have the arc for no label."""
        B, n = Xc.shape
        step = self._chunk_rows(n)
        dropped = np.empty((B, len(network_arcs(self.parents_))), dtype=bool)
        for s in range(0, B, step):
            pr = self._structures(Xc[s:s + step])["pruned"]
            dropped[s:s + pr.shape[0]] = self._unused_arcs(pr)
        return dropped

    def _unused_arcs(self, pruned: np.ndarray) -> np.ndarray:
        """(rows, arcs of BNC_T) of the local networks `pruned` (rows, labels, n, k): whether each arc is
        in no label's network."""
        p, c = np.array(network_arcs(self.parents_), dtype=np.int64).reshape(-1, 2).T
        return ~(pruned[:, :, c, :] == p[None, None, :, None]).any(axis=(1, 3))  # (−1 is never a parent)

    # -- local scores ------------------------------------------------------------------
    def _local_tables(self, pc, xxy: np.ndarray, real: np.ndarray) -> None:
        """LMI(x_i; y) per value slot and CLMI I(x_i; x_j | y) per slot pair, with their label sums (§4.9.3)."""
        off, nc, V = pc.offsets, self.n_classes_, self._V
        attr = self._attr
        kn = np.add.reduceat(xxy * real[None, :, None], off, axis=1).astype(np.float64)  # N(slot, b known, y)
        cy = np.add.reduceat(kn * real[:, None, None], off, axis=0)  # N(y) over rows with a and b known
        tot = cy.sum(axis=2)
        diag = np.arange(off.size)
        with np.errstate(divide="ignore", invalid="ignore"):
            # LMI(x_i; y) = P(x_i, y) log2 [P(x_i, y) / (P(x_i) P(y))]
            nxy = pc.xy.astype(np.float64)
            nx = nxy.sum(axis=1, keepdims=True)
            t1 = tot[diag, diag][attr][:, None]
            lmi = np.where(nxy > 0, (nxy / t1) * np.log2(nxy * t1 / (nx * cy[diag, diag][attr])), 0.0)
            # I(x_i; x_j | y) = P(x_i, x_j, y) log2 [P(y) P(x_i, x_j, y) / (P(x_i, y) P(x_j, y))]
            nij = xxy.astype(np.float64)
            ka = kn[:, attr, :]                    # [u, w, y] = N(x_a = u, b known, y)
            kb = ka.transpose(1, 0, 2)             # N(x_b = w, a known, y)
            t2 = tot[attr][:, attr][:, :, None]
            clmi = np.where(nij > 0, (nij / t2) * np.log2(cy[attr][:, attr] * nij / (ka * kb)), 0.0)
        clmi[attr[:, None] == attr[None, :]] = 0.0
        lmi[~real] = 0.0
        clmi[~real] = 0.0
        clmi[:, ~real] = 0.0
        f32 = self.info_precision == "float32"
        lsum = np.zeros(V)
        csum = np.zeros((V, V))
        for c in range(nc):
            lsum = lsum + lmi[:, c]
            csum = csum + clmi[:, :, c]
            if f32:
                lsum = lsum.astype(np.float32).astype(np.float64)
                csum = csum.astype(np.float32).astype(np.float64)
        if f32:
            lmi = lmi.astype(np.float32).astype(np.float64)
            clmi = clmi.astype(np.float32).astype(np.float64)
        else:  # the tie rule of kernels/ties.py (float32 keeps the C++ system's values)
            lmi, lsum, clmi, csum = tie_key(lmi), tie_key(lsum), tie_key(clmi), tie_key(csum)
        self._lmi, self._lmi_sum = lmi, lsum
        self._clmi, self._clmi_sum = clmi.reshape(V * V, nc), csum.reshape(V * V)

    def _local_scores(self, Xq: np.ndarray):
        """Per test row: LMI(x_i; y) (B, n, |Y|), its label sums (B, n), CLMI I(x_i; x_j | y) over the
        pairs i < j (B, P, |Y|) and their label sums (B, P)."""
        n = Xq.shape[1]
        g = Xq + self.counts_.offsets[None, :]
        I, J = np.triu_indices(n, 1)
        gp = g[:, I] * self._V + g[:, J]
        clmi, clmi_sum = np.take(self._clmi, gp, axis=0), np.take(self._clmi_sum, gp)
        if self.base == "TAN":  # the attribute order is not used
            return None, None, clmi, clmi_sum
        return np.take(self._lmi, g, axis=0), np.take(self._lmi_sum, g), clmi, clmi_sum

    def _structures(self, Xq: np.ndarray) -> dict:
        """The local networks of the rows of Xq (internal codes): `parents`, `threshold` and `pruned` (§4.9.3)."""
        B, n = Xq.shape
        nc = self.n_classes_
        k = self._klocal
        lmi, lmi_sum, clmi, clmi_sum = self._local_scores(Xq)
        P = clmi.shape[1]
        I, J = np.triu_indices(n, 1)
        if self.cip_structure == "instance":
            w = clmi_sum[:, None, :]                      # (B, 1, P)
            score = None if lmi_sum is None else lmi_sum[:, None, :]  # (B, 1, n)
        else:
            w = clmi.transpose(0, 2, 1)                   # (B, |Y|, P)
            score = None if lmi is None else lmi.transpose(0, 2, 1)  # (B, |Y|, n)
        S = w.shape[1]
        pidx = np.zeros((n, n), dtype=np.int64)  # pair index of (i, j), i ≠ j
        pidx[I, J] = np.arange(P)
        pidx[J, I] = np.arange(P)
        w = w.reshape(B * S, P)
        if self.base == "TAN":
            par = prim_trees(w, pidx)[:, :, None]
        else:
            if self.local_kdb_order == "global":
                order = np.broadcast_to(self.order_, (B * S, n))
            else:
                assert score is not None  # KDB: `_local_scores` gives the MI
                order = descending_orders(score.reshape(B * S, n), self.info_precision == "float32")
            par = kdb_parents_batch(order, w, pidx, k)
        par = par.reshape(B, S, n, k)
        if self.ait:
            tp = knee_thresholds(clmi.reshape(B, P * nc), self._cip_default)
        else:
            tp = np.full(B, -np.inf)
        child = np.arange(n)[None, None, :, None]
        if self.cip_structure == "instance":
            full = np.broadcast_to(par, (B, nc, n, k))       # one network, pruned per scored label
            lab = np.arange(nc)[None, :, None, None]
        else:
            full = par                                       # network of label s, pruned by label s
            lab = np.arange(S)[None, :, None, None]
        rows = np.arange(B)[:, None, None, None]
        keep = full >= 0
        if P:
            keep = keep & (clmi[rows, pidx[child, np.maximum(full, 0)], lab] > tp[:, None, None, None])
        if k > 1:  # kept parents first, in their CLMI order
            pos = np.argsort(~keep, axis=-1, kind="stable")
            pruned = np.where(np.take_along_axis(keep, pos, -1), np.take_along_axis(full, pos, -1), -1)
        else:
            pruned = np.where(keep, full, -1)
        return {"parents": par, "threshold": tp, "pruned": pruned,
                "removed": ((full >= 0).sum(axis=(1, 2, 3)) - keep.sum(axis=(1, 2, 3))) / full.shape[1]}

    # -- estimates -------------------------------------------------------------------
    def _log_factors(self, Xq, row, child, par, cls, backoff: bool, counts: DeepCounts) -> np.ndarray:
        """ln P̂(x_child | y, parents) for each query and each class of `cls`, as (Q, L) (§4.9.3)."""
        Q, k = par.shape
        K = self.cardinalities_
        off = self.counts_.offsets
        cls = np.broadcast_to(cls, (Q, cls.shape[1]))
        xv = Xq[row, child]
        depth = (par >= 0).sum(axis=1)
        pv = Xq[row[:, None], np.maximum(par, 0)]  # parent values (unused where there is no parent)
        active = np.ones(Q, dtype=bool)
        if self.missing == "skip":
            active = xv < K[child]
            for t in range(k):
                miss = (par[:, t] >= 0) & (pv[:, t] >= K[np.maximum(par[:, t], 0)])
                depth = np.where(miss & (depth > t), t, depth)
        if backoff:
            for lev in range(k, 0, -1):
                sel = np.flatnonzero(active & (depth == lev))
                if not sel.size:
                    continue
                if lev == 1:
                    seen = self._freq[off[par[sel, 0]] + pv[sel, 0]] > 0
                else:
                    seen = counts.grouped(Xq, row[sel], child[sel], par[sel, :lev], None) > 0
                depth[sel[~seen]] = lev - 1
        out = np.zeros(cls.shape)
        d0 = np.flatnonzero(active & (depth == 0))
        out[d0] = self._nb[(off[child[d0]] + xv[d0])[:, None], cls[d0]]
        d1 = np.flatnonzero(active & (depth == 1))
        if d1.size:
            gp = off[par[d1, 0]] + pv[d1, 0]
            out[d1] = self._lt[((off[child[d1]] + xv[d1]) * self._V + gp)[:, None], cls[d1]]
        for lev in range(2, k + 1):
            dl = np.flatnonzero(active & (depth == lev))
            if dl.size:
                out[dl] = counts.grouped(Xq, row[dl], child[dl], par[dl, :lev], cls[dl])
        return out

    # -- prediction --------------------------------------------------------------------
    def _global_proba(self, Xc, counts: DeepCounts) -> np.ndarray:
        """P_T(y | x) of the thresholded training-data network."""
        B, n = Xc.shape
        nc = self.n_classes_
        par = np.full((n, max(self._kglobal, 1)), -1, dtype=np.int64)
        for i, p in enumerate(self.parents_):
            par[i, :len(p)] = p
        row = np.repeat(np.arange(B), n)
        child = np.tile(np.arange(n), B)
        f = self._log_factors(Xc, row, child, par[child], np.arange(nc)[None, :],
                              self.base == "KDB" and self.backoff, counts)
        return _softmax(self.log_prior_ + f.reshape(B, n, nc).sum(axis=1))

    def _local_proba(self, Xc, counts: DeepCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """P_P(y | x) of the thresholded local networks, with each row's T_P and arcs removed."""
        B, n = Xc.shape
        nc = self.n_classes_
        step = self._chunk_rows(n)
        out = np.empty((B, nc))
        tps = np.empty(B)
        removed = np.empty(B)
        dropped = np.empty((B, len(network_arcs(self.parents_))), dtype=bool)  # for `learned_structure`
        backoff = self.base == "KDB" and self.local_kdb_backoff
        labels = np.arange(nc)[None, :]
        for s in range(0, B, step):
            Xq = Xc[s:s + step]
            b = Xq.shape[0]
            st = self._structures(Xq)
            tps[s:s + b] = st["threshold"]
            removed[s:s + b] = st["removed"]
            pr = st["pruned"]  # (b, |Y|, n, k)
            dropped[s:s + b] = self._unused_arcs(pr)
            k = pr.shape[3]
            row = np.repeat(np.arange(b), n)
            child = np.tile(np.arange(n), b)
            if self.cip_structure == "instance":
                # network y scores class y: factors of the unpruned network for every class, then
                # those whose parents label y's thresholding changed
                full = st["parents"][:, 0]  # (b, n, k)
                f = self._log_factors(Xq, row, child, full.reshape(b * n, k), labels, backoff, counts).reshape(b, n, nc)
                bb, cc, ii = np.nonzero((pr != full[:, None]).any(axis=3))
                if bb.size:
                    f[bb, ii, cc] = self._log_factors(Xq, bb, ii, pr[bb, cc, ii], cc[:, None], backoff, counts)[:, 0]
                out[s:s + b] = _softmax(self.log_prior_ + f.sum(axis=1))
            else:  # every label's network scores every class; posteriors averaged
                S = pr.shape[1]
                fs = self._log_factors(Xq, np.repeat(np.arange(b), S * n), np.tile(np.arange(n), b * S),
                                       pr.reshape(b * S * n, k), labels, backoff, counts).reshape(b, S, n, nc)
                post = _softmax(self.log_prior_ + fs.sum(axis=2)).sum(axis=1)
                out[s:s + b] = post / post.sum(axis=1, keepdims=True)
        per_rows(self, Xc, lambda _: dropped)
        return out, tps, removed

    def network_tables(self) -> NetworkTables:
        """The thresholded global network, what it predicts with when it learns no local networks (cip off)."""
        n, nc = len(self.parents_), self.n_classes_
        backoff = self.base == "KDB" and self.backoff
        counts = DeepCounts(self)

        def factor(X: np.ndarray, i: int) -> np.ndarray:
            par = np.full((X.shape[0], max(self._kglobal, 1)), -1, dtype=np.int64)
            par[:, :len(self.parents_[i])] = self.parents_[i]
            return self._log_factors(X, np.arange(X.shape[0]), np.full(X.shape[0], i), par, np.arange(nc)[None, :],
                                     backoff, counts)

        parents = [tuple(int(p) for p in self.parents_[i]) for i in range(n)]
        tables = [factor_table(functools.partial(factor, i=i), i, parents[i], self.sizes_, n) for i in range(n)]
        return NetworkTables(self.log_prior_, list(range(n)), parents, tables)

    def _joint_log_likelihood(self, Xc):
        counts = DeepCounts(self)
        parts = []
        if self.cii:
            parts.append(self._global_proba(Xc, counts))
        if self.cip:
            parts.append(self._local_proba(Xc, counts)[0])  # predicting leaves the estimator unchanged
        proba = parts[0] if len(parts) == 1 else 0.5 * (parts[0] + parts[1])
        with np.errstate(divide="ignore"):
            return np.log(proba)


def _softmax(jll: np.ndarray) -> np.ndarray:
    e = np.exp(jll - jll.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
