"""ChainNB: naive Bayes plus an arc from each attribute to the next (X_{i-1} -> X_i) — the worked
example of docs/adding-a-classifier.md, run by configs like docs/examples/chain.yaml."""

import numpy as np

from bncbench.classifiers import BayesNetClassifier, log_prior, nb_tables, pair_table


class ChainNB(BayesNetClassifier):
    """P(y | x) ∝ P̂(y) P̂(x_first | y) Π P̂(x_i | y, x_previous), in column order or reversed."""

    def __init__(self, *, reverse=False, estimator="mestimate", m=1.0, missing="value", cardinalities=None,
                 n_classes=None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.reverse = reverse

    def _fit(self, Xc, y):
        skip = self.missing == "skip"
        pc = self._pair_counts(Xc, y)  # (x_i, y) and (x_i, x_j, y) counts, shared by a fold's classifiers
        order = list(range(Xc.shape[1]))[::-1] if self.reverse else list(range(Xc.shape[1]))
        self.parents_ = np.full(Xc.shape[1], -1)
        self.parents_[order[1:]] = order[:-1]
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        nb = nb_tables(pc, self.card_, skip, self.estimator, self.m)  # ln P̂(x_i | y)
        self.tables_ = [nb[i][:, None, :] if p < 0 else
                        pair_table(pc, i, int(p), self.card_, skip, self.estimator, self.m, nb[i])
                        for i, p in enumerate(self.parents_)]  # ln P̂(x_i | y, x_p)

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for i, (p, t) in enumerate(zip(self.parents_, self.tables_)):
            jll += t[Xc[:, i], 0] if p < 0 else t[Xc[:, i], Xc[:, p]]
        return jll
