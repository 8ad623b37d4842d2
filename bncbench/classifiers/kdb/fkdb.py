"""FKDB: flexible KDB (Wang & Duan 2019, IEEE Access 7:134271–134279) — a reconstruction from a
one-line description, docs/algorithms.md §4.11 (low confidence, §9 item 15)."""

from __future__ import annotations

import numpy as np

from bncbench.classifiers.kdb.kdb import KDB
from bncbench.classifiers.kernels.counts import PairCounts
from bncbench.classifiers.kernels.infotheory import cond_mutual_info, mutual_info_class
from bncbench.classifiers.kernels.ordering import gcc_descending, stable_descending
from bncbench.classifiers.kernels.ties import info_values


class FKDB(KDB):
    """Flexible KDB — a RECONSTRUCTION of Wang, Duan et al., IEEE Access 2019 (docs/algorithms.md §4.11).

    Parameters
    ----------
    k : int, default=2
        Maximum number of attribute parents.
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`.
    info_precision : {"float64", "float32"}, default="float64"
        "float32" as KDB under the paper configs (§0.3).
    backoff : bool, default=True
        KDB's back-off (§4.3).
    """

    def __init__(self, *, k: int = 2, backoff: bool = True, info_precision: str = "float64",
                 estimator: str = "mestimate", m: float = 1.0, missing: str = "value", cardinalities=None,
                 n_classes: int | None = None):
        super().__init__(k=k, backoff=backoff, info_precision=info_precision, estimator=estimator, m=m, missing=missing,
                         cardinalities=cardinalities, n_classes=n_classes)

    def _structure(self, pc: PairCounts, skip: bool) -> None:
        """§4.11's structure; the tables and the prediction are KDB's."""
        n = pc.offsets.size
        self.mi_ = mutual_info_class(pc, self.info_precision, skip)
        self.order_ = gcc_descending(self.mi_) if self.info_precision == "float32" else stable_descending(self.mi_)
        if self.k > 0:
            self.cmi_ = cond_mutual_info(pc, self.info_precision, skip)
            self.cond_entropy_ = conditional_entropies(pc, self.info_precision, skip)
        else:
            self.cmi_ = self.cond_entropy_ = np.zeros((n, n))
        self.parents_ = fkdb_parents(self.order_, self.cmi_, self.cond_entropy_, self.k)


def conditional_entropies(pc: PairCounts, precision: str = "float64", skip_missing: bool = False) -> np.ndarray:
    """H[i, j] = H(X_i | X_j, Y) in bits from ML frequencies (§3), diagonal 0."""
    n = pc.offsets.size
    real = pc.sizes - (1 if skip_missing else 0)
    sel = np.concatenate([pc.offsets[j] + np.arange(real[j]) for j in range(n)]) if n else np.zeros(0, np.int64)
    starts = np.concatenate([[0], np.cumsum(real)[:-1]]).astype(np.int64)
    out = np.zeros((n, n))
    for i in range(n):
        slab = pc.pairs[pc.offsets[i] + np.arange(real[i])][:, sel].astype(np.float64)  # [x_i, x_j (all j), y]
        cond = slab.sum(axis=0)                                  # N(x_j, y) on the rows with X_i known
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(slab > 0, slab * np.log2(cond[None] / slab), 0.0)
        tot = np.add.reduceat(cond.sum(axis=1), starts)          # T_ij
        with np.errstate(divide="ignore", invalid="ignore"):
            h = np.add.reduceat(terms.sum(axis=(0, 2)), starts) / tot
        out[i] = np.where(tot > 0, h, 0.0)
        out[i, i] = 0.0
    return info_values(out, precision)


def fkdb_parents(order: np.ndarray, cmi: np.ndarray, cond_entropy: np.ndarray, k: int) -> list[list[int]]:
    """Parents of each attribute (§4.11 steps 2–3), in the order their arcs were added."""
    n = int(order.size)
    parents: list[list[int]] = [[] for _ in range(n)]
    if n < 2 or k <= 0:
        return parents
    order = np.asarray(order, dtype=np.int64)
    pi, pj = np.triu_indices(n, k=1)            # positions in the MI order, pi < pj
    a, b = order[pi], order[pj]                 # a comes earlier in the MI order than b
    rank = np.lexsort((pj, pi, -cmi[a, b]))     # primary: CMI descending; then (pi, pj)
    reach = np.zeros((n, n), dtype=bool)        # reach[u, v]: a directed path u → … → v exists
    for r in rank.tolist():
        u, v = int(a[r]), int(b[r])
        # v → u iff H(u | v, Y) < H(v | u, Y); otherwise (ties too) u, the earlier one, → v
        parent, child = (v, u) if cond_entropy[u, v] < cond_entropy[v, u] else (u, v)
        if len(parents[child]) >= k or reach[child, parent]:
            continue
        parents[child].append(parent)
        src = reach[:, parent].copy()
        src[parent] = True
        dst = reach[child].copy()
        dst[child] = True
        reach |= src[:, None] & dst[None, :]
    return parents
