"""TAN: tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997, Machine Learning 29), §4.2."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.estimators import log_prior
from bncbench.classifiers.kernels.infotheory import cond_mutual_info
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.network_tables import NetworkTables
from bncbench.classifiers.kernels.params import SHARED_PARAMS, Param
from bncbench.classifiers.kernels.structure import prim_tree
from bncbench.classifiers.kernels.tables import nb_tables, pair_table
from bncbench.classifiers.learned import Learned


class TAN(BayesNetClassifier):
    """TAN (Friedman, Geiger & Goldszmidt 1997): Prim's maximum spanning tree on I(X_i;X_j|Y) (docs/algorithms.md §4.2).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`.
    info_precision : {"float64", "float32"}, default="float64"
        "float32" reproduces paper 000's C++ system (§0.3).
    """

    WORKING_TABLES: ClassVar[float] = 1.0  # measured: 0.89 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {
        **BayesNetClassifier.PARAMS, "info_precision": SHARED_PARAMS["info_precision"]}

    def __init__(self, *, info_precision: str = "float64", estimator: str = "mestimate", m: float = 1.0,
                 missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.info_precision = info_precision

    def _fit(self, Xc, y):
        skip = self.missing == "skip"
        pc = self._pair_counts(Xc, y)
        self.counts_ = pc
        self.cmi_ = cond_mutual_info(pc, self.info_precision, skip)
        self.parents_ = prim_tree(self.cmi_, 0)
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        nb = nb_tables(pc, self.card_, skip, self.estimator, self.m)
        self.log_cond_ = []
        for i, p in enumerate(self.parents_):
            if p < 0:
                self.log_cond_.append(nb[i][:, None, :])
            else:
                self.log_cond_.append(pair_table(pc, i, int(p), self.card_, skip, self.estimator, self.m, nb[i]))

    def learned_structure(self, X=None) -> Learned:
        """The spanning tree's arcs (the root has none), the class a parent of every attribute (§11)."""
        return one_network([[int(p)] for p in self.parents_])

    def _factor_logs(self, Xc) -> list[np.ndarray]:
        """Per attribute, ln P̂(x_i | y, x_π(i)) for each instance (n_instances, |Y|)."""
        out = []
        for i, (p, t) in enumerate(zip(self.parents_, self.log_cond_)):
            out.append(t[Xc[:, i], 0] if p < 0 else t[Xc[:, i], Xc[:, p]])
        return out

    def network_tables(self) -> NetworkTables:
        """The network it predicts with: the class and at most one attribute parent per attribute."""
        attrs = list(range(len(self.parents_)))
        parents: list[tuple[int, ...]] = [() if self.parents_[i] < 0 else (int(self.parents_[i]),) for i in attrs]
        tables = [t[:, 0, :] if not par else t for t, par in zip(self.log_cond_, parents)]
        return NetworkTables(self.log_prior_, attrs, parents, tables)

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for f in self._factor_logs(Xc):
            jll += f
        return jll
