"""AODE: averaged one-dependence estimators (Webb, Boughton & Wang 2005, Machine Learning 58), §4.4."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.aode.spode import log_mean_spodes, spode_blocks
from bncbench.classifiers.aode.structure import spodes, superparent_ok, test_codes
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.estimators import log_cond, log_joint, log_prior
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.kernels.tables import nb_tables


class AODE(BayesNetClassifier):
    """P(y, x) ∝ (1/|Q|) Σ_{p∈Q} P̂(y, x_p) Π_{c≠p} P̂(x_c | y, x_p), with Q the superparents whose
    value occurs at least `min_freq` times in training (never a missing value under skip);
    NB when Q is empty (docs/algorithms.md §4.4).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`.
    min_freq : int, default=1
        The least frequency of a superparent's value.
    """

    WORKING_TABLES: ClassVar[float] = 4.5  # measured: 4.02 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {**BayesNetClassifier.PARAMS, "min_freq": Param(int, low=0)}

    def __init__(self, *, min_freq: int = 1, estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
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
        total_p: np.ndarray | float
        if skip:
            known = np.array([pc.xy[pc.offsets[a]:pc.offsets[a] + self.sizes_[a] - 1].sum()
                              for a in range(self.sizes_.size)], dtype=np.float64)
            total_p = known[attr_slot][:, None]
        else:
            total_p = N
        self.log_joint_ = log_joint(pc.xy, total_p, card_slot[:, None] * ny, self.estimator, self.m)
        # ln P̂(x_c | y, x_p) for every (p slot, c slot): num = N(x_p, x_c, y)
        num = pc.pairs.astype(np.float64)  # [p slot, c slot, y]
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

    def learned_structure(self, X=None):
        """One SPODE per attribute, every other attribute its child; given X, the arcs of the SPODEs
        each row left out (a superparent value rarer than min_freq, or missing under skip; §11).
        TAODE's too: its weights are per row, its SPODEs AODE's."""
        n = self.sizes_.size
        every = np.ones(n, dtype=bool)
        if X is None:
            return spodes(range(n), every)
        return spodes(range(n), every, used=superparent_ok(self, test_codes(self, X)))

    def _joint_log_likelihood(self, Xc):
        n_rows, n = Xc.shape
        ny = self.n_classes_
        if n == 0 or n_rows == 0:  # no superparent: naive Bayes without attributes
            return np.tile(self.log_prior_, (n_rows, 1))
        out = np.empty((n_rows, ny))
        for s, g, sp, _ in spode_blocks(Xc, self.counts_.offsets, self.log_joint_, self.log_cond_):
            m = g.shape[1]
            out[s:s + m], nq = log_mean_spodes(sp, self.parent_ok_[g])  # parent_ok_[g]: [p, row]
            none = np.flatnonzero(nq == 0)
            if none.size:  # no usable superparent: naive Bayes
                out[s + none] = self._nb_log_likelihood(Xc[s + none])
        return out

    def _nb_log_likelihood(self, rows: np.ndarray) -> np.ndarray:
        """Naive Bayes's joint log-likelihood of `rows` (internal codes): the fallback for rows
        without a qualifying superparent."""
        nb = np.tile(self.log_prior_, (rows.shape[0], 1))
        for i, t in enumerate(self.nb_):
            nb += t[rows[:, i]]
        return nb
