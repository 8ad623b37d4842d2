"""STAN: selective TAN by cross-validation risk minimisation (paper 000; docs/algorithms.md §4.5)."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.kernels.estimators import log_cond, prior
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.learned import Learned
from bncbench.classifiers.tan.rankings import RANKINGS, rank
from bncbench.classifiers.tan.tan import TAN


class STAN(TAN):
    """STAN (paper 000): TAN with the attribute subset chosen by leave-one-out risk (docs/algorithms.md §4.5).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes, info_precision
        As in `TAN`.
    ranking : {"mi", "su", "mrmr", "cmim", "jmi"}, default="mrmr"
    mrmr_form : {"ratio", "difference"}, default="ratio"
        "ratio": eq. 14 (+0.01); "difference": eq. 10.
    loo_backoff : bool, default=False
        A factor uses its parent only if N(x_i, x_π) ≥ 2.
    include_empty : bool, default=False
        Also consider s = 0 (class prior only).
    """

    PARAMS: ClassVar[dict[str, Param]] = {
        **TAN.PARAMS, "ranking": Param(str, RANKINGS), "mrmr_form": Param(str, ("ratio", "difference")),
        "loo_backoff": Param(bool), "include_empty": Param(bool)}

    def __init__(self, *, ranking: str = "mrmr", mrmr_form: str = "ratio", loo_backoff: bool = False,
                 include_empty: bool = False, info_precision: str = "float64", estimator: str = "mestimate",
                 m: float = 1.0, missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(info_precision=info_precision, estimator=estimator, m=m, missing=missing,
                         cardinalities=cardinalities, n_classes=n_classes)
        self.ranking = ranking
        self.mrmr_form = mrmr_form
        self.loo_backoff = loo_backoff
        self.include_empty = include_empty

    def _fit(self, Xc, y):
        super()._fit(Xc, y)
        skip = self.missing == "skip"
        self.ranking_ = rank(self.counts_, self.ranking, self.info_precision, skip, self.mrmr_form)
        self.loo_risk_ = self._loo_risks(Xc, y)
        candidates = self.loo_risk_ if self.include_empty else self.loo_risk_[1:]
        best = int(np.argmin(candidates))  # first minimum: the smallest model
        self.n_selected_ = best if self.include_empty else best + 1
        self.selected_ = self.ranking_[: self.n_selected_]
        self.info_ = {"selected": self.n_selected_, "ranking": self.ranking_}

    def learned_structure(self, X=None) -> Learned:
        """The selected attributes and the tree's arcs into them, from any parent (docs/algorithms.md §11)."""
        return one_network([[int(p)] for p in self.parents_], self.selected_)

    def _loo_tables(self, i: int, p: int) -> tuple[np.ndarray, np.ndarray]:
        """Leave-one-out tables ln P̂_−(x_i | y, x_π) for another class and for the held-out one's (§4.5.3)."""
        pc = self.counts_
        ny = self.n_classes_
        skip = self.missing == "skip"
        k = self.card_[i]
        ci = slice(pc.offsets[i], pc.offsets[i] + self.sizes_[i])
        if p < 0:
            num = pc.xy[ci][:, None, :].astype(np.float64)  # [x_i, 1, y]
            known = pc.xy[ci][:-1] if skip else pc.xy[ci]
            den = known.sum(axis=0)[None, None, :].astype(np.float64)
            tot_num, tot_den, cells = float(known.sum()), float(pc.class_counts.sum()), ny
            if self.estimator == "laplace_joint":
                den = pc.class_counts[None, None, :].astype(np.float64)
        else:
            cp = slice(pc.offsets[p], pc.offsets[p] + self.sizes_[p])
            num = pc.pairs[ci, cp].astype(np.float64)  # [x_i, x_p, y]
            den = (num[:-1] if skip else num).sum(axis=0, keepdims=True)
            if skip:
                tot_num = float(num[:-1, :-1].sum())
                tot_den = float(pc.xy[cp][:-1].sum())
            else:
                tot_num = tot_den = float(pc.class_counts.sum())
            if self.estimator == "laplace_joint":  # P̂(x_p, y) counts every instance with the parent known
                den = num.sum(axis=0, keepdims=True)
            cells = ny * self.card_[p]
        with np.errstate(divide="ignore", invalid="ignore"):  # cells no instance can hold the own count of
            other = log_cond(num, den, k, self.estimator, self.m, ctx_cells=cells,
                             tot_num=tot_num - 1.0, tot_den=tot_den - 1.0)
            own = log_cond(num - 1.0, den - 1.0, k, self.estimator, self.m, ctx_cells=cells,
                           tot_num=tot_num - 1.0, tot_den=tot_den - 1.0)
        return other, own

    def _loo_table(self, i: int) -> np.ndarray:
        """ln P̂_−(x_i | y, x_π(i)) for every (x_i, x_π, held-out class, y), as one table (§4.5.3)."""
        ny = self.n_classes_
        skip = self.missing == "skip"
        p = int(self.parents_[i])
        other0, own0 = self._loo_tables(i, -1)  # [x_i, 1, y]
        if p < 0:
            other, own = other0, own0
        else:
            other, own = self._loo_tables(i, p)  # [x_i, x_p, y]
            parentless = np.zeros(other.shape[:2], dtype=bool)
            if self.loo_backoff:
                pc = self.counts_
                cells = pc.pairs[pc.offsets[i]:pc.offsets[i] + self.sizes_[i],
                                 pc.offsets[p]:pc.offsets[p] + self.sizes_[p]]
                parentless |= cells.sum(axis=2) < 2  # N(x_i, x_π) − own < 1
            if skip:
                parentless[:, -1] = True  # parent missing
            other = np.where(parentless[:, :, None], other0, other)
            own = np.where(parentless[:, :, None], own0, own)
        table = np.broadcast_to(other[:, :, None, :], other.shape[:2] + (ny, ny)).copy()  # [x_i, x_p, t, y]
        t = np.arange(ny)
        table[:, :, t, t] = own
        if skip:
            table[-1] = 0.0  # child missing: no factor
        return table.reshape(-1, ny)

    def _loo_risks(self, Xc, y) -> np.ndarray:
        """CVR_s for s = 0..n: sqrt(mean over instances of (1 − p_s(y_t))²)."""
        N, ny = Xc.shape[0], self.n_classes_
        cc = self.counts_.class_counts.astype(np.float64)
        own = np.zeros((N, ny))
        own[np.arange(N), y] = 1.0
        L = np.log(prior(cc[None, :] - own, N - 1, ny, self.estimator, self.m))
        risks = np.empty(len(self.ranking_) + 1)
        own_cell = np.arange(N) * ny + y  # flat index of each instance's own class in L
        buf = np.empty_like(L)

        def risk(L):
            # p_s(y_t) = 1 / Σ_y exp(L(y) − L(y_t)); classes summed in index order
            np.subtract(L, np.take(L, own_cell)[:, None], out=buf)
            with np.errstate(over="ignore"):
                np.exp(buf, out=buf)
            total = buf[:, 0].copy()
            for c in range(1, ny):
                total += buf[:, c]
            return np.sqrt(np.mean((1.0 - 1.0 / total) ** 2)) if N else 0.0

        risks[0] = risk(L)
        for s, a in enumerate(self.ranking_, start=1):
            table = self._loo_table(a)
            p = int(self.parents_[a])
            cell = Xc[:, a].astype(np.intp)
            if p >= 0:
                cell = cell * int(self.sizes_[p]) + Xc[:, p]
            L += np.take(table, cell * ny + y, axis=0)
            risks[s] = risk(L)
        return risks

    def network_tables(self):
        """TAN's network over the selected attributes; a selected attribute keeps its parent, selected or
        not (an unselected parent has no factor of its own, as in the prediction)."""
        net = super().network_tables()
        keep = [k for k, i in enumerate(net.attributes) if i in set(self.selected_)]
        return type(net)(net.log_prior, [net.attributes[k] for k in keep], [net.parents[k] for k in keep],
                         [net.log_tables[k] for k in keep])

    def _factor_logs(self, Xc):
        logs = super()._factor_logs(Xc)
        keep = set(self.selected_)
        return [f for i, f in enumerate(logs) if i in keep]
