"""Naive Bayes (Duda & Hart 1973; Langley, Iba & Thompson 1992), docs/algorithms.md §4.1."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.estimators import log_prior
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.network_tables import NetworkTables
from bncbench.classifiers.kernels.tables import nb_tables
from bncbench.classifiers.learned import Learned


class NB(BayesNetClassifier):
    """Naive Bayes (Duda & Hart 1973; Langley, Iba & Thompson 1992; docs/algorithms.md §4.1)."""

    WORKING_TABLES = 0.0  # measured: 0.01 (docs/cli.md: run)
    NEEDS_PAIRS = False

    def _fit(self, Xc, y):
        pc = self._pair_counts(Xc, y, pairs=False)
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self.log_cond_ = nb_tables(pc, self.card_, self.missing == "skip", self.estimator, self.m)

    def learned_structure(self, X=None) -> Learned:
        """The class a parent of every attribute, no arcs between attributes (docs/algorithms.md §11)."""
        return one_network([[]] * len(self.log_cond_))

    def network_tables(self) -> NetworkTables:
        """The network it predicts with: every attribute a child of the class alone."""
        n = len(self.log_cond_)
        return NetworkTables(self.log_prior_, list(range(n)), [()] * n, list(self.log_cond_))

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for i, t in enumerate(self.log_cond_):
            jll += t[Xc[:, i]]
        return jll
