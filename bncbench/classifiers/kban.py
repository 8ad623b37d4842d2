"""k-BAN: restricted Bayesian-network-augmented naive Bayes learned by a greedy wrapper with
improved-MRMR candidate parents (paper 002, ALGORITHMS.md §4.6)."""

from __future__ import annotations

import itertools
import numbers

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.counts import KDepCounts
from bncbench.classifiers.estimators import log_cond, log_prior
from bncbench.classifiers.infotheory import cond_mutual_info

Structure = tuple[tuple[int, ...], ...]  # per attribute, its attribute parents (sorted)
# relative score gap below which a row's prediction is recomputed by the in-order sum (the swapped-
# factor sum is off by a few ulps of the row's scores, far below this)
_TIE_TOL = 1e-9


def edge_sets(candidates: list[int], child: int) -> list[tuple[tuple[int, int], ...]]:
    """The 3^c − 1 non-empty edge sets between `child` and its candidate parents, in the order of
    §4.6 (paper 002, note to line 21): by number of arcs, then lexicographically over the
    candidates in their order with "into `child`" before "out of `child`". Arcs are
    (parent, child) pairs."""
    keyed = []
    for dirs in itertools.product((None, 0, 1), repeat=len(candidates)):  # None: no arc, 0: into, 1: out
        key = [(pos, d) for pos, d in enumerate(dirs) if d is not None]
        if key:
            keyed.append((len(key), key))
    keyed.sort()
    return [tuple((candidates[pos], child) if d == 0 else (child, candidates[pos]) for pos, d in key)
            for _, key in keyed]


def has_cycle(parents: list[set[int]] | Structure) -> bool:
    """Whether the attribute graph (each node's parents) has a directed cycle."""
    n = len(parents)
    state = [0] * n  # 0 new, 1 on the stack, 2 done
    for start in range(n):
        if state[start]:
            continue
        stack = [(start, iter(parents[start]))]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state[nxt] == 1:
                return True
            elif state[nxt] == 0:
                state[nxt] = 1
                stack.append((nxt, iter(parents[nxt])))
    return False


class _StructureScorer:
    """Accuracy of a structure on the training set: leave-one-out by count subtraction (§4.5.3:
    the held-out instance's own count is removed from the cells of its own class; no refit) or
    resubstitution. Per node it caches the (N, |Y|) vector of log-factors of each
    (child, parent set) it has seen, so a candidate structure recomputes only the factors of
    nodes whose parent set changed; the counts come from the shared k-dependence kernel."""

    def __init__(self, Xc: np.ndarray, y: np.ndarray, sizes: np.ndarray, card: np.ndarray, n_classes: int,
                 estimator: str, m: float, loo: bool):
        self.Xc, self.y, self.card, self.C = Xc, y, card, n_classes
        self.estimator, self.m, self.loo = estimator, m, loo
        self.counts = KDepCounts(Xc, y, sizes, n_classes)
        N = y.size
        self.N = N
        self.total = float(N - 1) if loo else float(N)
        self.delta = (np.arange(n_classes)[None, :] == y[:, None]).astype(np.float64) if loo else None
        cc = np.bincount(y, minlength=n_classes).astype(np.float64)
        if loo:
            num = cc[None, :] - self.delta
            if estimator == "mestimate":
                self.prior = np.log((num + m / n_classes) / (self.total + m))
            else:
                self.prior = np.log((num + 1.0) / (self.total + n_classes))
        else:
            self.prior = np.tile(log_prior(cc, estimator, m), (N, 1))
        self._factors: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def factor(self, child: int, parents: tuple[int, ...]) -> np.ndarray:
        """(N, |Y|): ln P̂(x_child | y, π) of each training row for each class, held-out row's
        own contribution removed under leave-one-out."""
        key = (child, parents)
        got = self._factors.get(key)
        if got is not None:
            return got
        table, cfg = self.counts.table(child, parents)
        xs = self.Xc[:, child]
        num = table[cfg.ids, xs].astype(np.float64)  # N(π_r, x_r, y) for every class y
        den = table.sum(axis=1)[cfg.ids].astype(np.float64)  # N(π_r, y)
        if self.loo:
            num -= self.delta
            den -= self.delta
        cells = self.C * float(np.prod([self.card[p] for p in parents])) if parents else float(self.C)
        got = log_cond(num, den, self.card[child], self.estimator, self.m, ctx_cells=cells,
                       tot_num=self.total, tot_den=self.total)
        self._factors[key] = got
        return got

    def scores(self, structure: Structure) -> np.ndarray:
        """(N, |Y|) log scores: the prior, then the factors in attribute order (a fixed
        summation order, so equal scores are exactly equal, §0.3)."""
        jll = self.prior.copy()
        for i, par in enumerate(structure):
            jll += self.factor(i, par)
        return jll

    def set_base(self, structure: Structure) -> None:
        """The structure that candidates are compared with (the wrapper's current one)."""
        self._base = structure
        self._base_sum = self.scores(structure)

    def correct(self, structure: Structure) -> int:
        """Number of training rows whose (leave-one-out) prediction is right (ties → the
        smallest class index), equal to the argmax of `scores(structure)`.

        Fast path: the base scores with only the changed nodes' factors swapped. That sum differs
        from the in-order one by rounding, so rows whose two best classes lie within a tolerance
        far above that rounding error (exact ties included) are summed again in order."""
        base = self._base
        changed = [i for i, par in enumerate(structure) if par != base[i]]
        approx = self._base_sum.copy()
        for i in changed:
            approx -= self.factor(i, base[i])
            approx += self.factor(i, structure[i])
        top = approx.max(axis=1)
        close = np.count_nonzero(approx >= (top - _TIE_TOL * np.maximum(1.0, np.abs(top)))[:, None], axis=1) > 1
        pred = approx.argmax(axis=1)
        rows = np.flatnonzero(close)
        if rows.size:
            exact = self.prior[rows].copy()
            for i, par in enumerate(structure):
                exact += self.factor(i, par)[rows]
            pred[rows] = exact.argmax(axis=1)
        return int(np.count_nonzero(pred == self.y))


class KBAN(BayesNetClassifier):
    """k-BAN (paper 002, ALGORITHMS.md §4.6): a BAN in which every attribute has at most `k`
    attribute parents, grown greedily from naive Bayes. In each step every attribute not yet
    handled proposes candidate parents by improved MRMR on I(X_i;X_j|Y) (the redundancy term is
    0 while the attribute has neither parents nor candidates — the spec's decision) and each of
    the 3^c − 1 non-empty ways of orienting arcs to them is evaluated (acyclic, ≤ k parents, no
    existing arc or its reverse); the structure of strictly largest training-set accuracy is
    kept and its attribute marked as handled, until no step improves. `k = 0` gives NB.

    A scikit-learn classifier on discrete value codes (−1 = missing); see `BayesNetClassifier`
    for input checking and unseen codes. Only missing="value" (paper 002 treats a missing value
    as one more value).

    Parameters
    ----------
    k : int, default=3
        Maximum number of attribute parents of an attribute (paper 002's experiments: 3).
    estimator, m, missing, cardinalities, n_classes: as in `BayesNetClassifier` (paper 002's
        configuration uses estimator="laplace", §2.3).
    kban_eval : {"loo", "train"}, default="loo"
        Accuracy that the wrapper maximises: leave-one-out accuracy on the training set by count
        subtraction (no refit; §4.6's decision), or resubstitution accuracy.

    Attributes
    ----------
    parents_ : list of list of int
        Per attribute, its attribute parents (ascending); the class is a parent of all.
    arcs_ : list of tuple (parent, child)
        The learned arcs between attributes.
    trace_ : list of float
        The wrapper's accuracy: NB's first, then after each accepted step.
    steps_ : list of tuple (attribute, arcs)
        Per accepted step, the handled attribute and the arcs it added.
    cmi_ : ndarray (n, n)
        I(X_i; X_j | Y) in bits (ML estimates, §3).
    """

    SUPPORTED_MISSING = ("value",)
    PARAM_CHOICES = {**BayesNetClassifier.PARAM_CHOICES, "kban_eval": ("loo", "train")}

    def __init__(self, k: int = 3, estimator="mestimate", m=1.0, missing="value", cardinalities=None,
                 n_classes=None, kban_eval: str = "loo"):
        super().__init__(estimator, m, missing, cardinalities, n_classes)
        self.k = k
        self.kban_eval = kban_eval

    def _check_params(self) -> None:
        super()._check_params()
        if isinstance(self.k, bool) or not isinstance(self.k, numbers.Integral) or self.k < 0:
            raise ValueError(f"k must be an integer ≥ 0, got {self.k!r}")
        if self.missing != "value":
            raise ValueError(f"KBAN supports missing='value' only (paper 002 treats a missing value as one more "
                             f"value); got missing={self.missing!r}")

    # -- structure -------------------------------------------------------------------
    def _candidates(self, i: int, parents: tuple[int, ...]) -> list[int]:
        """Improved-MRMR candidate parents of attribute i given its current parents (§4.6,
        paper 002 eq. 1): grow while |cπ| + |π| < k; ties → smallest index."""
        cmi = self.cmi_
        n = cmi.shape[0]
        chosen: list[int] = []
        while len(chosen) + len(parents) < self.k:
            selected = list(parents) + chosen
            best, best_score = -1, 0.0
            for j in range(n):
                if j == i or j in selected:
                    continue
                if selected:
                    red = 0.0
                    for a in selected:
                        red += float(cmi[a, j])
                    score = float(cmi[i, j]) - red / len(selected)
                else:
                    score = float(cmi[i, j])
                if best < 0 or score > best_score:
                    best, best_score = j, score
            if best < 0:
                break
            chosen.append(best)
        return chosen

    def _search(self, scorer: _StructureScorer, n: int) -> None:
        parents: list[tuple[int, ...]] = [()] * n
        scorer.set_base(tuple(parents))
        correct = scorer.correct(tuple(parents))
        self.trace_ = [correct / scorer.N]
        self.steps_ = []
        handled: set[int] = set()
        while True:
            best, best_correct, best_attr, best_arcs = None, correct, -1, ()
            for i in range(n):
                if i in handled:
                    continue
                for arcs in edge_sets(self._candidates(i, parents[i]), i):
                    if any(p in parents[c] or c in parents[p] for p, c in arcs):
                        continue
                    new = [set(par) for par in parents]
                    for p, c in arcs:
                        new[c].add(p)
                    if any(len(new[c]) > self.k for _, c in arcs) or has_cycle(new):
                        continue
                    structure = tuple(tuple(sorted(par)) for par in new)
                    got = scorer.correct(structure)
                    if got > best_correct:
                        best, best_correct, best_attr, best_arcs = structure, got, i, arcs
            if best is None:
                break
            parents = list(best)
            scorer.set_base(best)
            correct = best_correct
            handled.add(best_attr)
            self.trace_.append(correct / scorer.N)
            self.steps_.append((best_attr, [tuple(a) for a in best_arcs]))
        self.parents_ = [list(p) for p in parents]
        self.arcs_ = [(p, c) for c, par in enumerate(parents) for p in par]

    def _fit(self, Xc, y):
        n = Xc.shape[1]
        pc = self._pair_counts(Xc, y, pairs=self.k > 0)
        self.cmi_ = cond_mutual_info(pc, "float64") if self.k > 0 else np.zeros((n, n))
        scorer = _StructureScorer(Xc, y, self.sizes_, self.card_, self.n_classes_, self.estimator, self.m,
                                  loo=self.kban_eval == "loo")
        self._search(scorer, n)
        self.info_ = {"arcs": len(self.arcs_), "steps": len(self.steps_), "train_accuracy": self.trace_[-1]}
        # final parameters: ordinary (not leave-one-out) estimates from the same count tables
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self._tables = []
        N = float(y.size)
        for i, par in enumerate(self.parents_):
            table, cfg = scorer.counts.table(i, par)
            if cfg.keys is not None:  # one zero row for parent configurations unseen in training
                table = np.concatenate([table, np.zeros((1,) + table.shape[1:], dtype=table.dtype)])
            den = table.sum(axis=1, keepdims=True)
            cells = self.n_classes_ * float(np.prod([self.card_[p] for p in par])) if par else float(self.n_classes_)
            logs = log_cond(table, den, self.card_[i], self.estimator, self.m, ctx_cells=cells, tot_num=N, tot_den=N)
            self._tables.append((cfg, logs))

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for i, (cfg, logs) in enumerate(self._tables):
            ids = cfg.index(Xc)  # −1 (unseen configuration) → the zero row appended last
            jll += logs[ids, Xc[:, i]]
        return jll
