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


def _closes_cycle(parents: list[tuple[int, ...]], i: int, into: list[int], out: list[int], children: list[int],
                  reach: dict[int, set[int]]) -> bool:
    """Whether adding arcs into → i and i → out to the acyclic graph `parents` closes a directed
    cycle. Every new arc touches i, so such a cycle leaves i to a child j, returns to a parent q of
    i along arcs of the graph that avoid i, and uses at least one new arc. `reach` caches, per
    start node, the nodes reachable from it without passing i."""
    def reached(j: int) -> set[int]:
        got = reach.get(j)
        if got is None:
            got, todo = {j}, [j]
            kids = [[] for _ in parents]
            for c, par in enumerate(parents):
                for p in par:
                    kids[p].append(c)
            while todo:
                for c in kids[todo.pop()]:
                    if c != i and c not in got:
                        got.add(c)
                        todo.append(c)
            reach[j] = got
        return got

    for j in children + out:
        for q in parents[i] + tuple(into):
            if (j in out or q in into) and q in reached(j):
                return True
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
        """The structure that candidates are compared with (the wrapper's current one): its
        in-order scores, predictions, and per row the gap between its two best classes."""
        self._base = structure
        self._base_sum = self.scores(structure)
        self._base_pred = self._base_sum.argmax(axis=1)
        self._base_hit = self._base_pred == self.y
        self._base_correct = int(np.count_nonzero(self._base_hit))
        # a row keeps its correctness when the change of scores cannot close its gap: for a right
        # row the gap from the true class to the second best, for a wrong row from the predicted
        # class to the true one (less a tolerance that covers the swapped-sum rounding)
        b = self._base_sum
        top = b[np.arange(self.N), self._base_pred]
        tol = _TIE_TOL * np.maximum(1.0, np.abs(top))
        if self.C > 1:
            second = -np.partition(-b, 1, axis=1)[:, 1]
            self._gap_right = np.where(self._base_hit, top - second - tol, np.inf)
            self._gap_wrong = np.where(self._base_hit, np.inf, top - b[np.arange(self.N), self.y] - tol)
        else:
            self._gap_right = np.full(self.N, np.inf)
            self._gap_wrong = np.full(self.N, np.inf)
        # cached factors and spreads that no candidate of this base can use any more: a candidate
        # only adds parents, so a node's parent set is always a superset of its base parents
        self._factors = {key: f for key, f in self._factors.items() if set(key[1]) >= set(structure[key[0]])}
        self._spreads = {key: r for key, r in getattr(self, "_spreads", {}).items()
                         if key[1] == structure[key[0]]}

    def _spread(self, child: int, old: tuple[int, ...], new: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Per row, for the change d of `child`'s factor from parents `old` to `new`: how much any
        class can gain on the row's true class, max_y d − d[true], and how much the true class can
        gain on any class, d[true] − min_y d."""
        key = (child, old, new)
        got = self._spreads.get(key)
        if got is None:
            d = self.factor(child, new) - self.factor(child, old)
            own = d[np.arange(self.N), self.y]
            got = (d.max(axis=1) - own, own - d.min(axis=1))
            self._spreads[key] = got
        return got

    def correct(self, structure: Structure, changed: list[int] | None = None) -> int:
        """Number of training rows whose (leave-one-out) prediction is right (ties → the
        smallest class index), equal to the argmax of `scores(structure)`.

        Only rows whose gap (right rows: true class to the second best; wrong rows: predicted
        class to the true one) the changed nodes' factors can close may change correctness; the
        others keep the base's.
        Those rows are scored by the base scores with the changed nodes' factors swapped. That sum
        differs from the in-order one by rounding, so rows whose two best classes lie within a
        tolerance far above that rounding error (exact ties included) are summed again in order.
        `changed`: the nodes whose parents differ from the base's, if the caller knows them."""
        base = self._base
        if changed is None:
            changed = [i for i, par in enumerate(structure) if par != base[i]]
        if not changed:
            return self._base_correct
        rise, fall = self._spread(changed[0], base[changed[0]], structure[changed[0]])
        for i in changed[1:]:
            r, f = self._spread(i, base[i], structure[i])
            rise, fall = rise + r, fall + f
        rows = np.flatnonzero((self._gap_right <= rise) | (self._gap_wrong <= fall))
        if not rows.size:
            return self._base_correct
        approx = self._base_sum[rows]
        for i in changed:
            approx -= self.factor(i, base[i])[rows]
            approx += self.factor(i, structure[i])[rows]
        top = approx.max(axis=1)
        close = np.count_nonzero(approx >= (top - _TIE_TOL * np.maximum(1.0, np.abs(top)))[:, None], axis=1) > 1
        pred = approx.argmax(axis=1)
        redo = np.flatnonzero(close)
        if redo.size:
            exact = self.prior[rows[redo]].copy()
            for i, par in enumerate(structure):
                exact += self.factor(i, par)[rows[redo]]
            pred[redo] = exact.argmax(axis=1)
        y = self.y[rows]
        return self._base_correct - int(np.count_nonzero(self._base_hit[rows])) + int(np.count_nonzero(pred == y))


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
            children = [[c for c in range(n) if a in parents[c]] for a in range(n)]
            for i in range(n):
                if i in handled:
                    continue
                reach: dict[int, set[int]] = {}  # node → what it reaches by arcs of the base avoiding i
                for arcs in edge_sets(self._candidates(i, parents[i]), i):
                    into = [p for p, c in arcs if c == i]
                    out = [c for p, c in arcs if p == i]
                    if any(i in parents[j] or j in parents[i] for j in into + out):
                        continue  # an arc (or its reverse) that exists already
                    if len(parents[i]) + len(into) > self.k or any(len(parents[j]) >= self.k for j in out):
                        continue
                    if _closes_cycle(parents, i, into, out, children[i], reach):
                        continue
                    structure = list(parents)
                    structure[i] = tuple(sorted(parents[i] + tuple(into)))
                    for j in out:
                        structure[j] = tuple(sorted(parents[j] + (i,)))
                    got = scorer.correct(tuple(structure), changed=sorted(out + ([i] if into else [])))
                    if got > best_correct:
                        best, best_correct, best_attr, best_arcs = tuple(structure), got, i, arcs
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
