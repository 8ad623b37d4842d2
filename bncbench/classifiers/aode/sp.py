"""SP: AODE with superparents selected from a maximum weighted spanning tree (Wang, Wang, Li & Chi
2014, paper 003 §3.1) — docs/algorithms.md §4.8.1; with the SPODE averaging over a parent set P and a
child set C (§4.8) that RC and SP+RC (rc.py) share."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.spode import log_mean_spodes, spode_blocks
from bncbench.classifiers.aode.structure import row_codes, spodes, superparent_ok
from bncbench.classifiers.kernels.infotheory import cond_mutual_info
from bncbench.classifiers.kernels.params import SHARED_PARAMS, Param
from bncbench.classifiers.learned import Learned

#: share of the total leaf CMI that the selected leaves must exceed (strictly), §4.8.1 step 3
LEAF_SHARE = 0.85


def kruskal_tree(weights: np.ndarray) -> list[tuple[int, int]]:
    """Edges (i, j), i < j, of the maximum weighted spanning tree of the complete graph on
    `weights` by Kruskal (§4.8.1 step 1): edges by weight descending, ties → lexicographic (i, j);
    an edge is added iff it joins two components; stop at n − 1 edges."""
    n = weights.shape[0]
    iu, ju = np.triu_indices(n, k=1)
    w = weights[iu, ju]
    order = np.lexsort((ju, iu, -w))  # last key first: −w, then i, then j
    root = list(range(n))

    def find(a: int) -> int:
        while root[a] != a:
            root[a] = root[root[a]]
            a = root[a]
        return a

    edges: list[tuple[int, int]] = []
    for e in order.tolist():
        if len(edges) == n - 1:
            break
        i, j = int(iu[e]), int(ju[e])
        ri, rj = find(i), find(j)
        if ri != rj:
            root[rj] = ri
            edges.append((i, j))
    return edges


def select_superparents(weights: np.ndarray) -> np.ndarray:
    """SP's parent set P (sorted attribute indices) from the CMI matrix (§4.8.1 steps 2–4)."""
    n = weights.shape[0]
    if n == 1:
        return np.array([0], dtype=np.int64)
    edges = kruskal_tree(weights)
    degree = np.zeros(n, dtype=np.int64)
    leaf_weight = np.zeros(n)
    for i, j in edges:
        degree[i] += 1
        degree[j] += 1
        leaf_weight[i] = leaf_weight[j] = weights[i, j]  # kept only for degree-1 nodes below
    branch = degree >= 2
    leaves = np.flatnonzero(degree == 1)
    ranked = leaves[np.argsort(-leaf_weight[leaves], kind="stable")]
    cum = np.cumsum(leaf_weight[ranked])
    total = cum[-1]
    t = ranked.size if total <= 0 else int(np.argmax(cum > LEAF_SHARE * total)) + 1
    chosen = branch.copy()
    chosen[ranked[:t]] = True
    return np.flatnonzero(chosen)


def average_spodes(model: AODE, Xc: np.ndarray, parents: np.ndarray, children: np.ndarray | None) -> np.ndarray:
    """ln of (1/|P_x|) Σ_{p∈P_x} P̂(y, x_p) Π_{c∈C_x, c≠p} P̂(x_c | y, x_p) for every row (§4.8)."""
    n_rows, n = Xc.shape
    ny = model.n_classes_
    if n == 0 or n_rows == 0:
        return np.tile(model.log_prior_, (n_rows, 1))
    parents = np.asarray(parents, dtype=bool)
    out = np.empty((n_rows, ny))
    scored = parents if parents.ndim == 1 else np.asarray(parents.any(axis=0))  # the others' SPODEs are masked below
    for s, g, sp, _ in spode_blocks(Xc, model.counts_.offsets, model.log_joint_, model.log_cond_, children=children,
                                    superparents=scored):
        m = g.shape[1]
        ok = model.parent_ok_[g]  # [p, row]
        ok &= parents[:, None] if parents.ndim == 1 else parents[s:s + m].T
        out[s:s + m], nq = log_mean_spodes(sp, ok)
        none = np.flatnonzero(nq == 0)
        if none.size:  # no usable superparent: naive Bayes over the children
            rows = Xc[s + none]
            nb = np.tile(model.log_prior_, (none.size, 1))
            for i, t in enumerate(model.nb_):
                term = t[rows[:, i]]
                nb += term if children is None else np.where(children[s + none, i, None], term, 0.0)
            out[s + none] = nb
    return out


class SP(AODE):
    """SP — AODE with superparents from a maximum weighted spanning tree (paper 003 §3.1; docs/algorithms.md §4.8.1).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes, min_freq
        As in `AODE`.
    info_precision : {"float64", "float32"}, default="float64"
        Precision of the CMI values the tree compares (§0.3).
    """

    PARAMS: ClassVar[dict[str, Param]] = {**AODE.PARAMS, "info_precision": SHARED_PARAMS["info_precision"]}

    def __init__(self, *, min_freq: int = 1, info_precision: str = "float64", estimator: str = "mestimate",
                 m: float = 1.0, missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(min_freq=min_freq, estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.info_precision = info_precision

    def _fit(self, Xc, y):
        super()._fit(Xc, y)
        n = Xc.shape[1]
        self.cmi_ = cond_mutual_info(self.counts_, self.info_precision, self.missing == "skip")
        self.tree_ = kruskal_tree(self.cmi_) if n else []
        self.parents_ = select_superparents(self.cmi_) if n else np.zeros(0, dtype=np.int64)
        self.parent_mask_ = np.zeros(n, dtype=bool)
        self.parent_mask_[self.parents_] = True
        self.info_ = {"elimination": (n - self.parents_.size) / n if n else 0.0}

    def learned_structure(self, X=None) -> Learned:
        """One SPODE per selected superparent, every other attribute its child; given X, the arcs of
        the SPODEs each row left out (as AODE's; docs/algorithms.md §11)."""
        every = np.ones(self.sizes_.size, dtype=bool)
        if X is None:
            return spodes(self.parents_, every)
        return spodes(self.parents_, every, used=superparent_ok(self, row_codes(self, X)) & self.parent_mask_)

    def _joint_log_likelihood(self, Xc):
        return average_spodes(self, Xc, self.parent_mask_, None)
