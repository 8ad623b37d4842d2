"""IWAODE: instance-based weighting of AODE's SPODEs by global and local conditional entropies
(Duan, Wang & Chen 2020), docs/algorithms.md §4.14 (from the authors' public code)."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.aode.spode import inverse_normalise, logsumexp, spode_blocks
from bncbench.classifiers.aode.structure import spodes
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.estimators import log_cond, log_joint, log_prior
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.kernels.tables import nb_tables


def _neg_plogq(log_p: np.ndarray, log_q: np.ndarray) -> np.ndarray:
    """−P̂ ln Q̂ elementwise (0 where P̂ = 0, e.g. a zero count with m = 0)."""
    p = np.exp(log_p)
    with np.errstate(invalid="ignore"):
        return np.where(p > 0, -p * log_q, 0.0)


class IWAODE(BayesNetClassifier):
    """IWAODE — instance-weighted AODE (Duan, Wang, Chen et al., KBS 2020; docs/algorithms.md §4.14).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`, but missing="value" only ("skip" raises ValueError).
    iwaode_weight_power : {"children", "once"}, default="children"
        The weight multiplies every child factor (the authors' code), or a single factor.
    """

    SUPPORTED_MISSING = ("value",)
    WORKING_TABLES: ClassVar[float] = 7.0  # measured: 6.63 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {
        **BayesNetClassifier.PARAMS, "iwaode_weight_power": Param(str, ("children", "once"))}

    def __init__(self, *, iwaode_weight_power: str = "children", estimator: str = "mestimate", m: float = 1.0,
                 missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.iwaode_weight_power = iwaode_weight_power

    def _fit(self, Xc, y):
        pc = self._pair_counts(Xc, y)
        self.offsets_ = pc.offsets
        n = Xc.shape[1]
        ny = self.n_classes_
        N = float(Xc.shape[0])
        est, m = self.estimator, self.m
        attr_slot = np.repeat(np.arange(n), self.sizes_)
        card_slot = self.card_[attr_slot].astype(np.float64)  # |X| of each slot's attribute
        # the slots of the |X_i| values (the missing slot only when it is a value of X_i)
        valid = np.arange(attr_slot.size) - pc.offsets[attr_slot] < self.card_[attr_slot]
        self.log_prior_ = log_prior(pc.class_counts, est, m)
        self.log_joint_ = log_joint(pc.xy, N, card_slot[:, None] * ny, est, m)  # ln P̂(x_p, y)
        num = pc.pairs.astype(np.float64)  # [p slot, c slot, y]
        self.log_cond_ = log_cond(num, np.broadcast_to(pc.xy[:, None, :], num.shape), card_slot[None, :, None],
                                  est, m, ctx_cells=ny * card_slot[:, None, None], tot_num=N, tot_den=N)
        cells3 = (card_slot[:, None] * card_slot[None, :] * ny)[:, :, None]
        # −Σ_y P̂(x_c, x_p, y) ln P̂(x_c | x_p, y) per (p slot, c slot), and −Σ_y P̂(x_p, y) ln P̂(x_p | y)
        self.h_pair_ = _neg_plogq(log_joint(num, N, cells3, est, m), self.log_cond_).sum(axis=2)
        log_cond1 = np.concatenate(nb_tables(pc, self.card_, False, est, m))
        self.h_single_ = _neg_plogq(self.log_joint_, log_cond1).sum(axis=1)
        self.h_y_ = float(_neg_plogq(self.log_prior_, self.log_prior_).sum())
        # global: sum the per-slot terms over the values of each attribute (pair [p, c], c ≠ p)
        hp = np.where(valid[:, None] & valid[None, :], self.h_pair_, 0.0)
        A = np.add.reduceat(np.add.reduceat(hp, pc.offsets, axis=0), pc.offsets, axis=1)
        np.fill_diagonal(A, 0.0)
        Hxy = np.add.reduceat(np.where(valid, self.h_single_, 0.0), pc.offsets)
        self.global_entropy_ = self.h_y_ + Hxy + A.sum(axis=1)
        self.global_weight_ = inverse_normalise(self.global_entropy_)

    def learned_structure(self, X=None):
        """One SPODE per attribute, every other attribute its child; each row weights every SPODE and
        leaves none out, so nothing per row is reported (docs/algorithms.md §11)."""
        n = self.offsets_.size
        return spodes(range(n), np.ones(n, dtype=bool))

    def _joint_log_likelihood(self, Xc):
        n_rows, n = Xc.shape
        if n == 0 or n_rows == 0:
            return np.tile(self.log_prior_, (n_rows, 1))
        out = np.empty((n_rows, self.n_classes_))
        power = float(n - 1) if self.iwaode_weight_power == "children" else 1.0
        for s, g, sp, ps in spode_blocks(Xc, self.offsets_, self.log_joint_, self.log_cond_, self.h_pair_):
            local = self.h_y_ + self.h_single_[g] + ps  # w_p per (superparent, row)
            weight = self.global_weight_[:, None] + inverse_normalise(local)
            with np.errstate(divide="ignore"):
                sp += (power * np.log(weight))[:, :, None]
            out[s:s + g.shape[1]] = logsumexp(sp, axis=0) - np.log(n)
        return out
