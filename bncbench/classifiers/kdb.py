"""KDB-k: k-dependence Bayesian classifier (Sahami 1996, KDD-96 pp. 335–338), §4.3."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.structure import kdb_parents
from bncbench.counts import config_counts, lookup, mixed_key, pair_counts
from bncbench.estimators import log_cond, log_prior
from bncbench.infotheory import cond_mutual_info, mutual_info_class


class KDB(BayesNetClassifier):
    """Attributes ordered by I(X;Y); each takes as parents the ≤ k preceding attributes with the
    largest I(X_i;X_j|Y). Counts over parent configurations are kept sparse (keys that occur).

    `backoff=True` reproduces paper 000's C++ system (verified, §4.3): when the test instance's
    parent values never occurred together in training, the longest occurring prefix of the
    CMI-ordered parent list is used.
    """

    PARAM_CHOICES = {**BayesNetClassifier.PARAM_CHOICES, "info_precision": ("float32", "float64")}

    def __init__(self, k: int = 1, estimator="mestimate", m=1.0, missing="value", cardinalities=None,
                 n_classes=None, info_precision: str = "float64", backoff: bool = False):
        super().__init__(estimator, m, missing, cardinalities, n_classes)
        self.k = k
        self.info_precision = info_precision
        self.backoff = backoff

    def _fit(self, Xc, y):
        if self.k < 0:
            raise ValueError("k must be ≥ 0")
        skip = self.missing == "skip"
        pc = pair_counts(Xc, y, self.sizes_, self.n_classes_, pairs=self.k > 0)
        self.mi_ = mutual_info_class(pc, self.info_precision, skip)
        cmi = cond_mutual_info(pc, self.info_precision, skip) if self.k > 0 else np.zeros((Xc.shape[1],) * 2)
        self.order_, self.parents_ = kdb_parents(self.mi_, cmi, self.k)
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self._tables = []
        for i, par in enumerate(self.parents_):
            levels = []
            for l in range(len(par) + 1):
                pre = par[:l]
                cols = [Xc[:, p] for p in pre]
                rad = [int(self.sizes_[p]) for p in pre]
                rows = np.ones(Xc.shape[0], dtype=bool)
                if skip:
                    for p in pre + [i]:
                        rows &= Xc[:, p] < self.cardinalities_[p]
                sub = [c[rows] for c in cols]
                ctx = config_counts(sub + [y[rows]], rad + [self.n_classes_])
                joint = config_counts(sub + [Xc[rows, i], y[rows]], rad + [int(self.sizes_[i]), self.n_classes_])
                exist = config_counts(sub, rad) if l else (np.zeros(1, np.int64), np.array([rows.sum()]))
                levels.append((pre, rad, ctx, joint, exist, int(rows.sum())))
            self._tables.append(levels)

    def _level_logs(self, Xc, i, level, rows) -> np.ndarray:
        pre, rad, ctx, joint, _, total = level
        ny = self.n_classes_
        base = mixed_key([Xc[rows, p] for p in pre], rad) if pre else np.zeros(int(rows.sum()), np.int64)
        ctx_key = base[:, None] * ny + np.arange(ny)[None, :]
        joint_key = (base[:, None] * int(self.sizes_[i]) + Xc[rows, i][:, None]) * ny + np.arange(ny)[None, :]
        den = lookup(*ctx, ctx_key)
        num = lookup(*joint, joint_key)
        cells = ny * float(np.prod([self.card_[p] for p in pre])) if pre else ny
        return log_cond(num, den, self.card_[i], self.estimator, self.m, ctx_cells=cells,
                        tot_num=total, tot_den=total)

    def _joint_log_likelihood(self, Xc):
        n = Xc.shape[0]
        skip = self.missing == "skip"
        jll = np.tile(self.log_prior_, (n, 1))
        for i, levels in enumerate(self._tables):
            par = self.parents_[i]
            depth = np.full(n, len(par), dtype=np.int64)
            if skip:
                for d, p in enumerate(par):
                    miss = Xc[:, p] >= self.cardinalities_[p]
                    depth = np.where(miss & (depth > d), d, depth)
            if self.backoff:
                for l in range(len(par), 0, -1):
                    pre, rad, _, _, exist, _ = levels[l]
                    seen = lookup(*exist, mixed_key([Xc[:, p] for p in pre], rad)) > 0
                    depth = np.where((depth >= l) & ~seen, l - 1, depth)
            if skip:
                depth[Xc[:, i] >= self.cardinalities_[i]] = -1  # a missing child contributes nothing
            for l in range(len(par) + 1):
                rows = depth == l
                if rows.any():
                    jll[rows] += self._level_logs(Xc, i, levels[l], rows)
        return jll
