"""SKDB: selective KDB (Martinez, Webb, Chen & Zaidi 2016, JMLR 17(44):1–35), docs/algorithms.md §4.12."""

from __future__ import annotations

import functools
from typing import ClassVar

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.counts import KeyCounts, config_counts, count_flat, lookup
from bncbench.classifiers.kernels.estimators import cond, log_cond, log_prior, prior
from bncbench.classifiers.kernels.infotheory import cond_mutual_info, mutual_info_class
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.network_tables import NetworkTables, factor_table
from bncbench.classifiers.kernels.params import SHARED_PARAMS, Param
from bncbench.classifiers.kernels.structure import kdb_parents
from bncbench.classifiers.learned import Learned


class SKDB(BayesNetClassifier):
    """Selective KDB (Martinez et al., JMLR 2016): s and k by leave-one-out RMSE (docs/algorithms.md §4.12).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`, but missing="value" only ("skip" raises ValueError).
    k_max : int, default=5
        Largest number of attribute parents (paper 004: 5).
    select_k : bool, default=True
        True: choose k* in 0..k_max; False: k* = k_max.
    skdb_variant : {"petal", "textbook"}, default="petal"
        The public C++ code's conventions (verified for paper 004), or §4.12's steps as written.
    info_precision : {"float64", "float32"}, default="float64"
        "float32" reproduces the C++ system (§0.3).
    """

    SUPPORTED_MISSING = ("value",)
    WORKING_TABLES: ClassVar[float] = 1.0  # measured: 0.89 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {
        **BayesNetClassifier.PARAMS, "k_max": Param(int, low=0), "select_k": Param(bool),
        "skdb_variant": Param(str, ("petal", "textbook")), "info_precision": SHARED_PARAMS["info_precision"]}

    def __init__(self, *, k_max: int = 5, select_k: bool = True, skdb_variant: str = "petal",
                 info_precision: str = "float64", estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.k_max = k_max
        self.select_k = select_k
        self.skdb_variant = skdb_variant
        self.info_precision = info_precision

    # -- fit --------------------------------------------------------------------------
    def _fit(self, Xc, y):
        k_max = int(self.k_max)
        pc = self._pair_counts(Xc, y, pairs=k_max > 0)
        # pass 1: the KDB structure with k_max parents
        self.mi_ = mutual_info_class(pc, self.info_precision)
        n = Xc.shape[1]
        cmi = cond_mutual_info(pc, self.info_precision) if k_max > 0 else np.zeros((n, n))
        self.order_, self.parents_ = kdb_parents(self.mi_, cmi, k_max, gcc_order=self.info_precision == "float32")
        # passes 2 and 3: prefix counts and the incremental leave-one-out losses
        self.loo_losses_ = self._loo_losses(Xc, y, pc.class_counts)
        self.n_selected_, self.k_ = self._select()
        self.selected_ = self.order_[: self.n_selected_]
        self.info_ = {"n_selected": self.n_selected_, "k": self.k_}
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self._n_train = float(y.size)
        self._tables = [self._final_tables(Xc, y, int(a)) for a in self.selected_]

    def learned_structure(self, X=None) -> Learned:
        """The s* selected attributes, each with its first k* parents (docs/algorithms.md §11)."""
        return one_network([par[: self.k_] for par in self.parents_], self.selected_)

    def _prefix_ids(self, Xc: np.ndarray, par: list[int]):
        """For d = 0..len(par): (d, g, G, keys), the ids of the parent prefixes that occur (§4.12)."""
        g = np.zeros(Xc.shape[0], dtype=np.int64)
        G, keys = 1, None
        for d in range(len(par) + 1):
            if d:
                sp = int(self.sizes_[par[d - 1]])
                g, keys, _ = _occurring(g * sp + Xc[:, par[d - 1]], G * sp)
                G = keys.size
            yield d, g, G, keys

    def _cond_prob(self, num, den, card: float, cells: float, total: float) -> np.ndarray:
        """P̂(x | ctx) from counts (§2.1, §2.2), as a probability (the C++ multiplies them)."""
        return cond(num, den, card, self.estimator, self.m, ctx_cells=cells, tot_num=total, tot_den=total)

    def _loo_losses(self, Xc: np.ndarray, y: np.ndarray, class_counts: np.ndarray) -> np.ndarray:
        """Pass 3: leave-one-out RMSE of every model (s, k), as `loo_losses_`, in one vectorised pass (§4.12)."""
        N, ny = Xc.shape[0], self.n_classes_
        K = int(self.k_max)
        petal = self.skdb_variant == "petal"
        cc = class_counts.astype(np.float64)
        prior_all = prior(cc, N - 1, ny, self.estimator, self.m)
        prior_own = prior(cc[y] - 1, N - 1, ny, self.estimator, self.m)
        # class-major layout (|Y|, N): sums over classes add whole rows in class order
        own_cell = y * N + np.arange(N)  # flat index of each instance's own class
        first = np.tile(prior_all[:, None], (1, N))
        first.flat[own_cell] = prior_own
        if petal:  # products of probabilities, normalised after each attribute
            first /= first.sum(axis=0)
        else:  # running log scores
            with np.errstate(divide="ignore"):
                first = np.log(first)
        P = [first]  # P[k] for k = 0..len(P) − 1; every model k ≥ len(P) − 1 equals P[-1]
        buf = np.empty((ny, N))

        def loss(Pk) -> float:
            if petal:
                p_true = np.take(Pk, own_cell)
            else:  # p(y_t) = 1 / Σ_y exp(L(y) − L(y_t))
                np.subtract(Pk, np.take(Pk, own_cell), out=buf)
                with np.errstate(over="ignore"):
                    np.exp(buf, out=buf)
                p_true = 1.0 / buf.sum(axis=0)
            return float(np.sqrt(np.sum((1.0 - p_true) ** 2) / N)) if N else 0.0

        losses = np.empty((Xc.shape[1] + 1, K + 1))
        losses[0] = loss(P[0])
        for s, a in enumerate(self.order_, start=1):
            a = int(a)
            par = self.parents_[a]
            m_a = len(par)
            sa, card = int(self.sizes_[a]), float(self.card_[a])
            xa = Xc[:, a]
            # per depth d: the (y, node) estimates, and per instance the column of model d's node
            # (depth min(d, D)) in the stacked tables and that node's estimate for its own class
            tables: list[np.ndarray] = []
            own_vals: list[np.ndarray] = []
            cols: list[np.ndarray] = []
            walking = np.ones(N, dtype=bool)
            offset = 0
            for d, g, G, _ in self._prefix_ids(Xc, par):
                j, jkeys, jall = _occurring(g * sa + xa, G * sa)  # node (prefix, x_a)
                J = jkeys.size
                ctx = count_flat(y * G + g, ny * G).reshape(ny, G).astype(np.float64)
                joint = count_flat(y * J + j, ny * J).reshape(ny, J).astype(np.float64)
                cells = ny * float(np.prod([self.card_[p] for p in par[:d]]))
                ctx_j = ctx[:, jkeys // sa]  # N(prefix, y) of each node
                tables.append(self._cond_prob(joint, ctx_j, card, cells, N - 1.0))
                cell = y * J + j
                own_vals.append(self._cond_prob(joint.ravel()[cell] - 1.0, ctx_j.ravel()[cell] - 1.0,
                                                card, cells, N - 1.0))
                col = j + offset
                if d:  # where the walk stopped before depth d, model d keeps model d − 1's node
                    if petal:  # N(x_a, prefix) over all classes, the held-out instance included
                        walking &= jall[j] >= 2
                    col = np.where(walking, col, cols[-1])
                    own_vals[-1] = np.where(walking, own_vals[-1], own_vals[-2])
                cols.append(col)
                offset += J
            table = np.concatenate(tables, axis=1)
            if not petal:
                table = np.log(table)
                own_vals = [np.log(v) for v in own_vals]
            if len(P) <= m_a:  # m_a = min(position, k_max): one model more than before
                P.append(P[-1].copy())
            for k in range(m_a + 1):
                f = np.take(table, cols[k], axis=1)
                f.flat[own_cell] = own_vals[k]
                if petal:
                    P[k] *= f
                    P[k] /= P[k].sum(axis=0)
                else:
                    P[k] += f
                losses[s, k] = loss(P[k])
            losses[s, len(P):] = losses[s, len(P) - 1]
        return losses

    def _select(self) -> tuple[int, int]:
        """(s*, k*): scan s = 1..n in MI order and, within s, k = 0..k_max (only k_max without
        `select_k`), replacing the best only on a strictly smaller loss (§4.12 step 4)."""
        R = self.loo_losses_
        n, K = R.shape[0] - 1, R.shape[1] - 1
        ks = range(K + 1) if self.select_k else [K]
        best = R[0, ks[0]]
        # petal: the class-only loss stands for all attributes with the first k (§4.12 quirk)
        best_s, best_k = (n, ks[0]) if self.skdb_variant == "petal" else (0, ks[0])
        for s in range(1, n + 1):
            for k in ks:
                if R[s, k] < best:
                    best, best_s, best_k = R[s, k], s, k
        return best_s, best_k

    def _final_tables(self, Xc: np.ndarray, y: np.ndarray, a: int) \
            -> list[tuple[np.ndarray | None, KeyCounts, KeyCounts]]:
        """Sparse count tables of attribute a for parent depths 0..min(k*, m): per depth the keys
        of the prefixes that occur, the (prefix, y) and (prefix, x_a, y) counts."""
        ny, sa = self.n_classes_, int(self.sizes_[a])
        par = self.parents_[a][: self.k_]
        levels: list[tuple[np.ndarray | None, KeyCounts, KeyCounts]] = []
        for _, g, G, keys in self._prefix_ids(Xc, par):
            ctx = config_counts([g, y], [G, ny])
            joint = config_counts([g, Xc[:, a], y], [G, sa, ny])
            levels.append((keys, ctx, joint))
        return levels

    # -- prediction ---------------------------------------------------------------------
    def _factor_log(self, Xc: np.ndarray, a: int, levels: list[tuple[np.ndarray | None, KeyCounts, KeyCounts]]) \
            -> np.ndarray:
        """Selected attribute a's ln P̂(x_a | y, parents) of each row (rows, |Y|), from the deepest parent
        prefix that occurred in training (§4.12 classification, §4.3)."""
        n_rows, ny = Xc.shape[0], self.n_classes_
        classes = np.arange(ny)
        par = self.parents_[a][: self.k_]
        sa = int(self.sizes_[a])
        g = np.zeros(n_rows, dtype=np.int64)
        depth = np.zeros(n_rows, dtype=np.int64)
        alive = np.ones(n_rows, dtype=bool)
        for d in range(1, len(par) + 1):
            keys = levels[d][0]
            assert keys is not None  # depth ≥ 1
            key = g * int(self.sizes_[par[d - 1]]) + Xc[:, par[d - 1]]
            pos = np.minimum(np.searchsorted(keys, key), keys.size - 1)
            alive &= keys[pos] == key
            g = np.where(alive, pos, g)
            depth += alive
        f = np.zeros((n_rows, ny))
        for d, (_, ctx, joint) in enumerate(levels):
            rows = depth == d
            if not rows.any():
                continue
            gd = g[rows][:, None]
            den = lookup(*ctx, gd * ny + classes)
            num = lookup(*joint, (gd * sa + Xc[rows, a][:, None]) * ny + classes)
            cells = ny * float(np.prod([self.card_[p] for p in par[:d]]))
            f[rows] = log_cond(num, den, self.card_[a], self.estimator, self.m, ctx_cells=cells,
                               tot_num=self._n_train, tot_den=self._n_train)
        return f

    def network_tables(self) -> NetworkTables:
        """The network it predicts with, over the selected attributes: each one's table over its first k*
        parents, a parent configuration that backs off holding the shorter prefix's estimates."""
        attrs = [int(a) for a in self.selected_]
        n = len(self.parents_)
        parents = [tuple(int(p) for p in self.parents_[a][: self.k_]) for a in attrs]
        tables = [factor_table(functools.partial(self._factor_log, a=a, levels=lv), a, par, self.sizes_, n)
                  for a, par, lv in zip(attrs, parents, self._tables)]
        return NetworkTables(self.log_prior_, attrs, parents, tables)

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for a, levels in zip(self.selected_, self._tables):
            jll += self._factor_log(Xc, int(a), levels)
        return jll


def _occurring(key: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ids, keys, counts) of mixed-radix keys in [0, space): the sorted keys that occur, their
    counts, and each row's position among them. Dense through the counting kernel when the key
    space is small, one sort of the keys (`np.unique`) otherwise."""
    if space <= max(1 << 16, 4 * key.size):
        counts = count_flat(key, space)
        present = counts > 0
        keys = np.flatnonzero(present)
        rank = np.cumsum(present) - 1
        return rank[key], keys, counts[keys]
    keys, ids, counts = np.unique(key, return_inverse=True, return_counts=True)
    return ids.reshape(-1), keys, counts.astype(np.int64)
