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
    """Flexible KDB — a RECONSTRUCTION of L. Wang, Z. Duan et al., "Optimizing the topology of
    Bayesian network classifiers by applying conditional entropy to mine causal relationships
    between attributes", IEEE Access 7:134271–134279, 2019 (docs/algorithms.md §4.11). The paper
    could not be read; paper 004 describes FKDB as "based on KDB and uses conditional entropy to
    measure causality between attributes". Label its results "re-implementation from
    description".

    Structure (§4.11):
    1. Attribute order by I(X;Y) descending, as KDB (`order_`; ties as KDB: stable, or GCC's
       `std::sort` order under info_precision="float32"). Every pair of attributes is a
       candidate arc.
    2. Direction of a pair by conditional entropy (ML frequencies, bits): X_j → X_i iff
       H(X_i | X_j, Y) < H(X_j | X_i, Y); on a tie the attribute earlier in the MI order is the
       parent. (With missing as a value, H(X_i | X_j, Y) − H(X_j | X_i, Y) = H(X_i | Y) −
       H(X_j | Y): every arc points from the attribute of larger class-conditional entropy to
       the one of smaller; the comparison is made on the conditional entropies, as specified.)
    3. Pairs in descending I(X_i;X_j|Y) (ties: the pair whose (earlier, later) positions in the
       MI order are lexicographically smallest — "candidate pairs as in KDB"); the directed arc
       is added iff its child has fewer than k parents and it closes no cycle. A rejected arc is
       not tried the other way round.
    4. Parameters and prediction as KDB (counts over parent configurations, the configured
       estimator; with `backoff`, the longest occurring prefix of the parent list). A child's
       parents are kept in the order their arcs were added (descending CMI), the order of
       KDB's back-off prefix.

    A scikit-learn classifier on discrete value codes (−1 = missing). Parameters, input
    checking, missing values and unseen codes: see `BayesNetClassifier` and `KDB`.

    Parameters
    ----------
    k : int, default=2
        Maximum number of attribute parents (docs/algorithms.md's `fkdb_k`; 2, as KDB in paper 004).
    estimator, m, missing, cardinalities, n_classes: as in `BayesNetClassifier`.
    info_precision : {"float64", "float32"}, default="float64"
        "float32": MI, CMI and the conditional entropies rounded to float32 before they are
        compared, and the MI order of GCC's `std::sort`, as KDB under the paper configs (§0.3).
    backoff : bool, default=True
        KDB's back-off (§4.3); on by default because paper 004 runs its KDB column with it
        (`{name: KDB, k: 2, backoff: true}`) and FKDB predicts "as KDB".

    Attributes: `mi_` (I(X_i;Y)), `cmi_` (I(X_i;X_j|Y)), `cond_entropy_` (matrix of
    H(X_i | X_j, Y), row i = child candidate), `order_` (the MI order), `parents_` (per
    attribute, its parents in the order their arcs were added).
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
    """H[i, j] = H(X_i | X_j, Y) in bits from ML frequencies (§3), diagonal 0:
    −Σ P(x_i, x_j, y) log2 [N(x_i, x_j, y) / N(x_j, y)] over the instances on which both
    attributes are known (all of them when missing is a value); zero counts contribute 0.
    One vectorised step per attribute i (all j at once on the slab of i's slots)."""
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
    """Parents of each attribute (§4.11 steps 2–3): every pair in descending CMI (ties → the pair
    earliest in the MI order `order`), directed by conditional entropy (ties → the earlier
    attribute in the MI order is the parent), added iff the child has < k parents and no cycle
    arises. Each attribute's parents are listed in the order their arcs were added."""
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
