"""CFWNB: correlation-based feature weighting filter for naive Bayes (Jiang, Zhang, Li & Wu,
IEEE TKDE 31(2):201–213, 2019), docs/algorithms.md §4.10."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.counts import PairCounts
from bncbench.classifiers.kernels.estimators import log_prior
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.kernels.tables import nb_tables
from bncbench.classifiers.learned import Learned

#: ML terms whose joint probability is below this are skipped (§4.10 step 1)
ML_MIN_JOINT = 1e-6


class CFWNB(BayesNetClassifier):
    """Correlation-based feature weighting for naive Bayes (Jiang et al., IEEE TKDE 2019; docs/algorithms.md §4.10).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`.
    cfwnb_mi : {"ml", "smoothed"}, default="ml"
        Mutual informations from maximum-likelihood or smoothed frequencies.
    """

    WORKING_TABLES: ClassVar[float] = 2.5  # measured: 2.09 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {**BayesNetClassifier.PARAMS, "cfwnb_mi": Param(str, ("ml", "smoothed"))}

    def __init__(self, *, cfwnb_mi: str = "ml", estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.cfwnb_mi = cfwnb_mi

    def _fit(self, Xc, y):
        n = Xc.shape[1]
        pc = self._pair_counts(Xc, y, pairs=n > 1)
        self.relevance_, self.redundancy_ = _cfwnb_mutual_info(pc, self.card_, self.cfwnb_mi == "smoothed")
        self.weights_ = cfwnb_weights(self.relevance_, self.redundancy_)
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self.log_cond_ = nb_tables(pc, self.card_, self.missing == "skip", self.estimator, self.m)

    def learned_structure(self, X=None) -> Learned:
        """Naive Bayes's structure (the weights are parameters, not arcs; docs/algorithms.md §11)."""
        return one_network([[]] * len(self.log_cond_))

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for i, (w, t) in enumerate(zip(self.weights_, self.log_cond_)):
            jll += w * t[Xc[:, i]]
        return jll


def cfwnb_weights(relevance: np.ndarray, redundancy: np.ndarray) -> np.ndarray:
    """w_i = sigmoid(NI(A_i;C) − mean_{j≠i} NI(A_i;A_j)) from I(A_i;C) and the symmetric
    matrix of I(A_i;A_j) (its diagonal is ignored), §4.10 steps 2–3."""
    n = relevance.size
    if n == 0:
        return np.zeros(0)
    mean_rel = relevance.sum() / n
    d = relevance / mean_rel if mean_rel != 0 else np.zeros(n)
    if n > 1:
        off = ~np.eye(n, dtype=bool)
        mean_red = redundancy[off].sum() / (n * (n - 1))
        nred = np.where(off, redundancy / mean_red, 0.0) if mean_red != 0 else np.zeros((n, n))
        d = d - nred.sum(axis=1) / (n - 1)
    return 1.0 / (1.0 + np.exp(-d))


def _cfwnb_mutual_info(pc: PairCounts, card: np.ndarray, smoothed: bool) -> tuple[np.ndarray, np.ndarray]:
    """(I(A_i;C) per attribute, matrix of I(A_i;A_j)) in bits, over each attribute's value slots (§4.10)."""
    n = pc.offsets.size
    card = np.asarray(card, dtype=np.int64)
    att = np.repeat(np.arange(n), card)                     # attribute of each selected slot
    sel = pc.offsets[att] + (np.arange(att.size) - np.repeat(np.cumsum(card) - card, card))
    starts = np.concatenate([[0], np.cumsum(card)[:-1]])
    n_classes = pc.class_counts.size

    # relevance: block i of the (slot, class) counts
    cxy = pc.xy[sel].astype(np.float64)                      # N(a, c) over the known instances
    cy_i = np.add.reduceat(cxy, starts, axis=0)              # (n, |C|): N_i(c)
    tot_i = cy_i.sum(axis=1)                                 # T_i
    ca = cxy.sum(axis=1)                                     # N(a)
    relevance = np.add.reduceat(
        _mi_terms(cxy, ca[:, None], cy_i[att], tot_i[att][:, None],
                  (card[att] * n_classes)[:, None], card[att][:, None], n_classes, smoothed).sum(axis=1),
        starts)
    if n < 2:
        return relevance, np.zeros((n, n))

    # redundancy: block (i, j) of the class-summed pair counts
    cab = pc.pairs[np.ix_(sel, sel)].sum(axis=2).astype(np.float64)  # N(a, b)
    row_m = np.add.reduceat(cab, starts, axis=1)             # (V, n): N(a) on the rows with A_j known
    col_m = np.add.reduceat(cab, starts, axis=0)             # (n, V): N(b) on the rows with A_i known
    tot = np.add.reduceat(row_m, starts, axis=0)             # (n, n): T_ij
    terms = _mi_terms(cab, row_m[:, att], col_m[att, :], tot[np.ix_(att, att)],
                      card[att][:, None] * card[att][None, :], card[att][:, None], card[att][None, :], smoothed)
    red = np.add.reduceat(np.add.reduceat(terms, starts, axis=0), starts, axis=1)
    np.fill_diagonal(red, 0.0)
    return relevance, red


def _mi_terms(nab, na, nb, tot, cells, card_a, card_b, smoothed: bool) -> np.ndarray:
    """Per cell P(a,b) log2 [P(a,b) / (P(a) P(b))] from counts (arrays broadcast): ML with the
    1e-6 rule, or the smoothed estimates of §4.10."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if smoothed:
            p = (nab + 1.0 / cells) / (tot + 1.0)
            pa = (na + 1.0 / card_a) / (tot + 1.0)
            pb = (nb + 1.0 / card_b) / (tot + 1.0)
            return p * np.log2(p / (pa * pb))
        keep = (nab > 0) & (nab / tot >= ML_MIN_JOINT)
        return np.where(keep, (nab / tot) * np.log2(nab * tot / (na * nb)), 0.0)
