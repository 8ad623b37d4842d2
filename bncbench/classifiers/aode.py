"""AODE: averaged one-dependence estimators (Webb, Boughton & Wang 2005, Machine Learning 58), §4.4."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.tables import nb_tables
from bncbench.classifiers.estimators import log_cond, log_joint, log_prior

_CHUNK_ROWS = 1 << 16  # test rows scored at once (bounds the n × rows × |Y| block)


class AODE(BayesNetClassifier):
    """P(y, x) ∝ (1/|Q|) Σ_{p∈Q} P̂(y, x_p) Π_{c≠p} P̂(x_c | y, x_p), with Q the superparents whose
    value occurs at least `min_freq` times in training (never a missing value under skip);
    NB when Q is empty."""

    def __init__(self, estimator="mestimate", m=1.0, missing="value", cardinalities=None,
                 n_classes=None, min_freq: int = 1):
        super().__init__(estimator, m, missing, cardinalities, n_classes)
        self.min_freq = min_freq

    def _fit(self, Xc, y):
        skip = self.missing == "skip"
        pc = self._pair_counts(Xc, y)
        self.counts_ = pc
        ny = self.n_classes_
        N = float(Xc.shape[0])
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self.nb_ = nb_tables(pc, self.card_, skip, self.estimator, self.m)
        V = int(pc.sizes.sum())
        card_slot = np.repeat(self.card_, self.sizes_).astype(np.float64)  # |X| of each slot's attribute
        attr_slot = np.repeat(np.arange(self.sizes_.size), self.sizes_)
        missing_slot = np.zeros(V, dtype=bool)
        missing_slot[pc.offsets + self.sizes_ - 1] = True
        self.value_freq_ = pc.xy.sum(axis=1)
        # ln P̂(x_p, y) per slot
        if skip:
            known = np.array([pc.xy[pc.offsets[a]:pc.offsets[a] + self.sizes_[a] - 1].sum() for a in range(self.sizes_.size)],
                             dtype=np.float64)
            total_p = known[attr_slot][:, None]
        else:
            total_p = N
        self.log_joint_ = log_joint(pc.xy, total_p, card_slot[:, None] * ny, self.estimator, self.m)
        # ln P̂(x_c | y, x_p) for every (p slot, c slot): num = N(x_p, x_c, y)
        num = pc.xxy.astype(np.float64)  # [p slot, c slot, y]
        if skip:
            # denominator: N(x_p, y) minus instances with x_c missing = Σ over known c slots
            ends = pc.offsets + self.sizes_ - 1
            csum = np.add.reduceat(num, pc.offsets, axis=1) - num[:, ends, :]  # [p slot, c attr, y]
            den = csum[:, attr_slot, :]
            tot = float(N)  # laplace_joint totals under skip are approximated by N
        else:
            den = np.broadcast_to(pc.xy[:, None, :], num.shape)
            tot = N
        self.log_cond_ = log_cond(num, den, card_slot[None, :, None], self.estimator, self.m,
                                  ctx_cells=ny * card_slot[:, None, None], tot_num=tot, tot_den=tot)
        if skip:
            self.log_cond_[:, missing_slot, :] = 0.0
        self.parent_ok_ = (self.value_freq_ >= self.min_freq)
        if skip:
            self.parent_ok_ &= ~missing_slot

    def _joint_log_likelihood(self, Xc):
        n_rows, n = Xc.shape
        G = Xc + self.counts_.offsets[None, :]
        nb = np.tile(self.log_prior_, (n_rows, 1))
        for i, t in enumerate(self.nb_):
            nb += t[Xc[:, i]]
        out = np.empty_like(nb)
        flat = self.log_cond_.reshape(-1, self.n_classes_)  # row (p slot · V + c slot) → ln P̂(x_c | y, x_p)
        V = self.log_cond_.shape[0]
        for s in range(0, n_rows, _CHUNK_ROWS):
            g = G[s:s + _CHUNK_ROWS]
            spode = np.empty((n, g.shape[0], self.n_classes_))  # [p, row, y]
            for p in range(n):
                acc = self.log_joint_[g[:, p]]
                base = g[:, p] * V
                for c in range(n):
                    if c != p:
                        acc += flat[base + g[:, c]]  # one contiguous |Y|-row per instance
                spode[p] = acc
            ok = self.parent_ok_[g].T  # [p, row]
            spode[~ok] = -np.inf
            nq = ok.sum(axis=0)
            mx = spode.max(axis=0)
            mx = np.where(np.isfinite(mx), mx, 0.0)
            with np.errstate(divide="ignore"):
                lse = np.log(np.exp(spode - mx).sum(axis=0)) + mx - np.log(np.maximum(nq, 1))[:, None]
            out[s:s + _CHUNK_ROWS] = np.where((nq > 0)[:, None], lse, nb[s:s + _CHUNK_ROWS])
        return out
