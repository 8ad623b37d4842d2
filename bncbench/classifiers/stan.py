"""STAN: selective TAN by cross-validation risk minimisation (paper 000; ALGORITHMS.md §4.5)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.rankings import RANKINGS, rank
from bncbench.classifiers.tan import TAN
from bncbench.estimators import log_cond


class STAN(TAN):
    """TAN learned once on all attributes; model s keeps the first s attributes of a ranking with
    their full-tree parents. s* minimises the leave-one-out RMSE of the true class (eq. 13),
    computed in one vectorised pass over the training data by subtracting each instance's own
    counts (no refit); ties go to the smaller model.

    ranking: mi | su | mrmr | cmim | jmi; mrmr_form: ratio (eq. 14, +0.01) | difference (eq. 10);
    loo_backoff: the selective-KDB variant (a factor uses its parent only if N(x_i, x_π) ≥ 2);
    include_empty: also consider s = 0 (class prior only).
    """

    PARAM_CHOICES = {**TAN.PARAM_CHOICES, "ranking": RANKINGS, "mrmr_form": ("ratio", "difference")}

    def __init__(self, ranking: str = "mrmr", estimator="mestimate", m=1.0, missing="value", cardinalities=None,
                 n_classes=None, info_precision: str = "float64", mrmr_form: str = "ratio",
                 loo_backoff: bool = False, include_empty: bool = False):
        super().__init__(estimator, m, missing, cardinalities, n_classes, info_precision)
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

    def _loo_factor(self, Xc, y, i) -> np.ndarray:
        """ln P̂_−(x_i | y, x_π(i)) for every training instance and class (N, |Y|), with the
        instance's own count subtracted for its own class."""
        pc = self.counts_
        N, ny = Xc.shape[0], self.n_classes_
        skip = self.missing == "skip"
        rows = np.arange(N)
        xi = Xc[:, i] + pc.offsets[i]
        k = self.card_[i]

        def minus_own(counts) -> np.ndarray:
            out = counts.astype(np.float64)
            out[rows, y] -= 1.0
            return out

        def parentless() -> np.ndarray:
            num = minus_own(pc.xy[xi])
            if skip:
                known = pc.xy[pc.offsets[i]:pc.offsets[i] + self.sizes_[i] - 1]
                den, tot = minus_own(np.broadcast_to(known.sum(axis=0), (N, ny))), float(known.sum()) - 1.0
            else:
                den, tot = minus_own(np.broadcast_to(pc.class_counts, (N, ny))), float(N - 1)
            if self.estimator == "laplace_joint":
                den = minus_own(np.broadcast_to(pc.class_counts, (N, ny)))
            return log_cond(num, den, k, self.estimator, self.m, ctx_cells=ny, tot_num=tot, tot_den=N - 1.0)

        p = int(self.parents_[i])
        if p < 0:
            out = parentless()
        else:
            xp = Xc[:, p] + pc.offsets[p]
            num = minus_own(pc.xxy[xi, xp])
            if skip:
                ci = slice(pc.offsets[i], pc.offsets[i] + self.sizes_[i] - 1)  # known child values
                cp = slice(pc.offsets[p], pc.offsets[p] + self.sizes_[p])
                known_child = pc.xxy[ci, cp].sum(axis=0)  # [parent slot, y]: N(x_p, y, x_i known)
                den = minus_own(known_child[Xc[:, p]] if self.estimator != "laplace_joint" else pc.xy[xp])
                tot_num = float(known_child[:-1].sum()) - 1.0
                tot_den = float(pc.xy[pc.offsets[p]:pc.offsets[p] + self.sizes_[p] - 1].sum()) - 1.0
            else:
                den = minus_own(pc.xy[xp])  # N(x_p, y) counts every child value
                tot_num = tot_den = float(N - 1)
            out = log_cond(num, den, k, self.estimator, self.m, ctx_cells=ny * self.card_[p],
                           tot_num=tot_num, tot_den=tot_den)
            if self.loo_backoff or skip:
                nb = parentless()
                if self.loo_backoff:
                    pair_total = pc.xxy[xi, xp].sum(axis=1)  # N(x_i, x_π) over all classes
                    out = np.where((pair_total >= 2)[:, None], out, nb)
                if skip:
                    out = np.where((Xc[:, p] >= self.cardinalities_[p])[:, None], nb, out)
        if skip:
            out = np.where((Xc[:, i] >= self.cardinalities_[i])[:, None], 0.0, out)
        return out

    def _loo_risks(self, Xc, y) -> np.ndarray:
        """CVR_s for s = 0..n: sqrt(mean over instances of (1 − p_s(y_t))²)."""
        N, ny = Xc.shape[0], self.n_classes_
        cc = self.counts_.class_counts.astype(np.float64)
        own = np.zeros((N, ny))
        own[np.arange(N), y] = 1.0
        if self.estimator == "mestimate":
            L = np.log((cc[None, :] - own + self.m / ny) / (N - 1 + self.m))
        else:
            L = np.log((cc[None, :] - own + 1.0) / (N - 1 + ny))
        rows = np.arange(N)
        risks = np.empty(len(self.ranking_) + 1)

        def risk(L):
            p_true = 1.0 / np.exp(L - L[rows, y][:, None]).sum(axis=1)
            return np.sqrt(np.mean((1.0 - p_true) ** 2)) if N else 0.0

        risks[0] = risk(L)
        for s, a in enumerate(self.ranking_, start=1):
            with np.errstate(divide="ignore", invalid="ignore"):  # rows of skipped values are masked
                L = L + self._loo_factor(Xc, y, a)
            risks[s] = risk(L)
        return risks

    def _factor_logs(self, Xc):
        logs = super()._factor_logs(Xc)
        keep = set(self.selected_)
        return [f for i, f in enumerate(logs) if i in keep]
