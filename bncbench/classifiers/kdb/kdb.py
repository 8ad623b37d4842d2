"""KDB-k: k-dependence Bayesian classifier (Sahami 1996, KDD-96 pp. 335–338), §4.3."""

from __future__ import annotations

import functools
from typing import ClassVar

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.counts import (
    KeyCounts,
    PairCounts,
    config_counts,
    lookup,
    mixed_key,
)
from bncbench.classifiers.kernels.estimators import log_cond, log_prior
from bncbench.classifiers.kernels.infotheory import cond_mutual_info, mutual_info_class
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.network_tables import NetworkTables, factor_table
from bncbench.classifiers.kernels.params import SHARED_PARAMS, Param
from bncbench.classifiers.kernels.structure import kdb_parents
from bncbench.classifiers.kernels.tables import nb_tables, pair_table
from bncbench.classifiers.learned import Learned

#: one parent-prefix depth of an attribute's sparse tables: (prefix, its radices, N(prefix, y),
#: N(prefix, x_i, y), the prefixes that occur, rows counted, rows with the prefix known)
_Level = tuple[list[int], list[int], KeyCounts, KeyCounts, KeyCounts, int, int]


class KDB(BayesNetClassifier):
    """KDB-k (Sahami 1996): each attribute in I(X;Y) order takes ≤ k preceding parents by CMI (docs/algorithms.md §4.3).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`.
    k : int, default=1
        Maximum number of attribute parents.
    info_precision : {"float64", "float32"}, default="float64"
        "float32" reproduces the C++ system of papers 000 and 004 (§0.3).
    backoff : bool, default=False
        Back off to the longest occurring prefix of the parent list (§4.3).
    """

    WORKING_TABLES: ClassVar[float] = 1.0  # measured: 0.89, any k (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {
        **BayesNetClassifier.PARAMS, "k": Param(int, low=0), "backoff": Param(bool),
        "info_precision": SHARED_PARAMS["info_precision"]}

    def __init__(self, *, k: int = 1, backoff: bool = False, info_precision: str = "float64",
                 estimator: str = "mestimate", m: float = 1.0, missing: str = "value", cardinalities=None,
                 n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.k = k
        self.backoff = backoff
        self.info_precision = info_precision

    def _fit(self, Xc, y):
        skip = self.missing == "skip"
        pc = self._pair_counts(Xc, y, pairs=self.k > 0)
        self._structure(pc, skip)
        self._fit_tables(Xc, y, pc, skip)

    def learned_structure(self, X=None) -> Learned:
        """Each attribute's ≤ k parents (FKDB's too; the back-off is estimation, not structure; §11)."""
        return one_network(self.parents_)

    def _structure(self, pc: PairCounts, skip: bool) -> None:
        """Sets `mi_`, `order_` and `parents_` (each attribute's parents, the back-off prefix
        order first). Subclasses with another structure (FKDB) override this only."""
        n = pc.offsets.size
        self.mi_ = mutual_info_class(pc, self.info_precision, skip)
        cmi = cond_mutual_info(pc, self.info_precision, skip) if self.k > 0 else np.zeros((n, n))
        self.order_, self.parents_ = kdb_parents(self.mi_, cmi, self.k, gcc_order=self.info_precision == "float32")

    def _fit_tables(self, Xc: np.ndarray, y: np.ndarray, pc: PairCounts, skip: bool) -> None:
        """The conditional tables of `parents_`: dense from the pair counts with ≤ 1 parent,
        else sparse counts per parent-prefix level (for the back-off)."""
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        if self.k <= 1:  # one parent at most: dense tables from the pair counts, as TAN
            nb = nb_tables(pc, self.card_, skip, self.estimator, self.m)
            self._dense = [nb[i][:, None, :] if not par else
                           pair_table(pc, i, par[0], self.card_, skip, self.estimator, self.m, nb[i])
                           for i, par in enumerate(self.parents_)]
            self._nb = nb
            self._value_freq = pc.xy.sum(axis=1)
            self.counts_offsets_ = pc.offsets
            return
        self._tables: list[list[_Level]] = []
        for i, par in enumerate(self.parents_):
            levels: list[_Level] = []
            for l in range(len(par) + 1):
                pre = par[:l]
                rad = [int(self.sizes_[p]) for p in pre]
                ctx_rows = np.ones(Xc.shape[0], dtype=bool)  # parents known
                if skip:
                    for p in pre:
                        ctx_rows &= Xc[:, p] < self.cardinalities_[p]
                rows = ctx_rows & (Xc[:, i] < self.cardinalities_[i]) if skip else ctx_rows
                den_rows = ctx_rows if self.estimator == "laplace_joint" else rows
                ctx = config_counts([Xc[den_rows, p] for p in pre] + [y[den_rows]], rad + [self.n_classes_])
                joint = config_counts([Xc[rows, p] for p in pre] + [Xc[rows, i], y[rows]],
                                      rad + [int(self.sizes_[i]), self.n_classes_])
                # a parent prefix "occurred" if some training row has it, whatever its class or child
                # value (§4.3; under skip a row whose child is missing counts too)
                exist = config_counts([Xc[ctx_rows, p] for p in pre], rad) if l \
                    else (np.zeros(1, np.int64), np.array([ctx_rows.sum()]))
                levels.append((pre, rad, ctx, joint, exist, int(rows.sum()), int(ctx_rows.sum())))
            self._tables.append(levels)

    def _level_logs(self, Xc: np.ndarray, i: int, level: _Level, rows: np.ndarray) -> np.ndarray:
        pre, rad, ctx, joint, _, total, total_ctx = level
        ny = self.n_classes_
        base = mixed_key([Xc[rows, p] for p in pre], rad) if pre else np.zeros(int(rows.sum()), np.int64)
        ctx_key = base[:, None] * ny + np.arange(ny)[None, :]
        joint_key = (base[:, None] * int(self.sizes_[i]) + Xc[rows, i][:, None]) * ny + np.arange(ny)[None, :]
        den = lookup(*ctx, ctx_key)
        num = lookup(*joint, joint_key)
        cells = ny * float(np.prod([self.card_[p] for p in pre])) if pre else ny
        return log_cond(num, den, self.card_[i], self.estimator, self.m, ctx_cells=cells,
                        tot_num=total, tot_den=total_ctx)

    def _factor_log(self, Xc: np.ndarray, i: int) -> np.ndarray:
        """Attribute i's ln P̂(x_i | y, parents) of each row (rows, |Y|), from the longest parent prefix
        that occurred in training under back-off (§4.3)."""
        n = Xc.shape[0]
        skip = self.missing == "skip"
        par = self.parents_[i]
        if self.k <= 1:
            t = self._dense[i]
            if not par:
                return t[Xc[:, i], 0]
            p = par[0]
            f = t[Xc[:, i], Xc[:, p]]
            if self.backoff:  # parent value never seen in training → no parent
                unseen = self._value_freq[self.counts_offsets_[p] + Xc[:, p]] == 0
                f[unseen] = self._nb[i][Xc[unseen, i]]
            return f
        levels = self._tables[i]
        depth = np.full(n, len(par), dtype=np.int64)
        if skip:
            for d, p in enumerate(par):
                miss = Xc[:, p] >= self.cardinalities_[p]
                depth = np.where(miss & (depth > d), d, depth)
        if self.backoff:
            for l in range(len(par), 0, -1):
                pre, rad, _, _, exist, _, _ = levels[l]
                seen = lookup(*exist, mixed_key([Xc[:, p] for p in pre], rad)) > 0
                depth = np.where((depth >= l) & ~seen, l - 1, depth)
        if skip:
            depth[Xc[:, i] >= self.cardinalities_[i]] = -1  # a missing child contributes nothing
        f = np.zeros((n, self.n_classes_))
        for l in range(len(par) + 1):
            rows = depth == l
            if rows.any():
                f[rows] = self._level_logs(Xc, i, levels[l], rows)
        return f

    def network_tables(self) -> NetworkTables:
        """The network it predicts with: each attribute's table over all its parents, a parent
        configuration that backs off holding the shorter prefix's estimates (§4.3)."""
        attrs = list(range(len(self.parents_)))
        tables = [factor_table(functools.partial(self._factor_log, i=i), i, self.parents_[i], self.sizes_, len(attrs))
                  for i in attrs]
        return NetworkTables(self.log_prior_, attrs, [tuple(int(p) for p in self.parents_[i]) for i in attrs], tables)

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for i in range(len(self.parents_)):
            jll += self._factor_log(Xc, i)
        return jll
