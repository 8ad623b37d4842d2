"""k-BAN: restricted Bayesian-network-augmented naive Bayes learned by a greedy wrapper with
improved-MRMR candidate parents (paper 002, docs/algorithms.md §4.6)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.counts import ParentConfigs, parent_configs, parent_set_counts
from bncbench.classifiers.kernels.estimators import log_cond, log_prior
from bncbench.classifiers.kernels.infotheory import cond_mutual_info
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.network_tables import NetworkTables, factor_table
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.kernels.ties import tie_key
from bncbench.classifiers.learned import Learned

if TYPE_CHECKING:
    from bncbench.classifiers.ban.kban_scorer import StructureScorer


@functools.lru_cache
def _edge_patterns(c: int) -> list[list[tuple[int, int]]]:
    """`edge_sets` of c candidates as (candidate's position, 0: into the child, 1: out of it) pairs."""
    keyed = []
    for dirs in itertools.product((None, 0, 1), repeat=c):  # None: no arc
        key = [(pos, d) for pos, d in enumerate(dirs) if d is not None]
        if key:
            keyed.append((len(key), key))
    keyed.sort()
    return [key for _, key in keyed]


def edge_sets(candidates: list[int], child: int) -> list[tuple[tuple[int, int], ...]]:
    """The 3^c − 1 non-empty edge sets between `child` and its candidate parents, in §4.6's order."""
    return [tuple((candidates[pos], child) if d == 0 else (child, candidates[pos]) for pos, d in key)
            for key in _edge_patterns(len(candidates))]


def _closes_cycle(parents: list[tuple[int, ...]], i: int, into: list[int], out: list[int], children: list[int],
                  reach: dict[int, set[int]]) -> bool:
    """Whether adding arcs into → i and i → out to the acyclic graph `parents` closes a directed cycle (§4.6)."""
    def reached(j: int) -> set[int]:
        got = reach.get(j)
        if got is None:
            got, todo = {j}, [j]
            kids: list[list[int]] = [[] for _ in parents]
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


class KBAN(BayesNetClassifier):
    """k-BAN (paper 002): a BAN of ≤ `k` attribute parents grown greedily from naive Bayes (docs/algorithms.md §4.6).

    Parameters
    ----------
    k : int, default=3
        Maximum number of attribute parents of an attribute (paper 002's experiments: 3).
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier` (paper 002: estimator="laplace"; missing="value" only).
    kban_eval : {"loo", "train"}, default="loo"
        Accuracy the wrapper maximises: leave-one-out by count subtraction, or resubstitution.
    """

    SUPPORTED_MISSING = ("value",)
    WORKING_TABLES: ClassVar[float] = 4.5  # measured: 0.96 to 3.87 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {
        **BayesNetClassifier.PARAMS, "k": Param(int, low=0), "kban_eval": Param(str, ("loo", "train"))}

    def __init__(self, *, k: int = 3, kban_eval: str = "loo", estimator: str = "mestimate", m: float = 1.0,
                 missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.k = k
        self.kban_eval = kban_eval

    @classmethod
    def prepare_kernels(cls, params: dict, notify: Callable[[str], None], check: bool = False) -> bool:
        """Load the scorer's compiled kernels, compiling them into the disk cache first where this
        machine has none (as `BAN.prepare_kernels`)."""
        from bncbench.classifiers.ban import kban_kernels
        from bncbench.classifiers.kernels import jit

        def load() -> None:  # one call of each kernel, with the argument types of `StructureScorer`'s
            ints, floats = np.zeros(2, dtype=np.int64), np.zeros(4)
            for flat in (ints, ints.astype(np.int32)):  # `_Estimates.flat`: int32 unless |Y| · N needs more
                kban_kernels.lead(flat, floats, 1, ints, ints, floats[:2], np.empty(2))
                kban_kernels.entries(ints, 1, ints, ints, 1, np.zeros((1, 1), dtype=np.int64), flat, np.zeros(2),
                                     np.empty(2))
            kban_kernels.ranks(ints, 1, ints, 1, np.empty(2, dtype=np.int64))
            kban_kernels.context_counts(ints, ints, 1, 1)
            kban_kernels.best_two(np.zeros((1, 2)), ints, floats[:2], floats[2:])
            for flats in (np.zeros((1, 2), dtype=np.int32), np.zeros((1, 2), dtype=np.int64)):
                kban_kernels.swapped(flats, floats, ints[:0], ints[:0], ints[:0], np.zeros((1, 2)), ints[:1], ints,
                                     1e-9, np.empty(1, dtype=bool), np.empty(1, dtype=bool))
                kban_kernels.bounds(flats, floats, ints[:1], ints[:1], ints[:1] + 1, ints[:1] - 1, ints, ints,
                                    np.zeros((1, 1), dtype=np.int64), 1, floats[:1], floats[:1], 0,
                                    np.empty(1, dtype=np.int64))

        return jit.prepare(load, notify, check)

    # -- structure -------------------------------------------------------------------
    def _candidates(self, i: int, parents: tuple[int, ...]) -> list[int]:
        """Improved-MRMR candidate parents of attribute i given its current parents (§4.6,
        paper 002 eq. 1): grow while |cπ| + |π| < k; ties → smallest index."""
        cmi = self.cmi_
        n = cmi.shape[0]
        chosen: list[int] = []
        while len(chosen) + len(parents) < self.k:
            selected = list(parents) + chosen
            free = np.ones(n, dtype=bool)
            free[[i] + selected] = False
            if not free.any():
                break
            if not selected:
                chosen.append(int(np.argmax(np.where(free, cmi[i], -np.inf))))
                continue
            red = np.zeros(n)
            for a in selected:  # summed in this order, as scalars would be
                red += cmi[a]
            score = np.where(free, cmi[i] - red / len(selected), -np.inf)
            # scores are compared by their tie keys (kernels/ties.py), which move a value by less
            # than 1e-9 of it (or flush it below 1e-12 to 0): only scores this close to the
            # largest can share its key, the largest key
            top = float(score.max())
            near = np.flatnonzero(score >= top - max(1e-8 * abs(top), 1e-11))
            # one key per distinct score (many are equal, often 0.0), each by the same scalar call;
            # one distinct score: the first is chosen
            values, where = np.unique(score.take(near), return_inverse=True) if near.size > 1 else (near, near)
            if values.size == 1:
                chosen.append(int(near[0]))
                continue
            keys = np.array([float(tie_key(float(v))) for v in values]).take(where.reshape(-1))
            chosen.append(int(near[int(np.argmax(keys == keys.max()))]))
        return chosen

    def _search(self, scorer: StructureScorer, n: int) -> None:
        parents: list[tuple[int, ...]] = [()] * n
        scorer.set_base(tuple(parents))
        correct = scorer.correct(tuple(parents))
        self.trace_ = [correct / scorer.N]
        self.steps_: list[tuple[int, list[tuple[int, ...]]]] = []
        handled: set[int] = set()
        # per (i, π_i): its candidate parents, and its edge sets, each with the candidates it makes
        # parents and children of i
        candidates: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[tuple[
            tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]]]] = {}
        # per i: the parents of i and of its candidates when its allowed edge sets and their changes
        # were listed (they depend on nothing else), those lists, and the changes' keys as the
        # scorer's numbers (`StructureScorer.key_ids`)
        allowed: dict[int, tuple[list[tuple[int, ...]], list, list, np.ndarray]] = {}
        while True:
            children: list[list[int]] = [[] for _ in range(n)]
            for c, par in enumerate(parents):
                for a in par:
                    children[a].append(c)
            # every candidate of the step whose bound beats the current count, in the wrapper's
            # order (attribute, then edge set): that order breaks ties
            pool: list = []
            valid: list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]] = []
            changes: list[list[tuple[int, tuple[int, ...]]]] = []
            numbers: list[np.ndarray] = []
            for i in range(n):
                if i in handled:
                    continue
                if (i, parents[i]) not in candidates:
                    cands = self._candidates(i, parents[i])
                    candidates[i, parents[i]] = (cands, [(arcs, tuple(p for p, c in arcs if c == i),
                                                          tuple(c for p, c in arcs if p == i))
                                                         for arcs in edge_sets(cands, i)])
                cands, sets = candidates[i, parents[i]]
                state = [parents[i]] + [parents[j] for j in cands]
                listed = allowed.get(i)
                if listed is None or listed[0] != state:
                    # candidates that cannot be joined to i: an arc (or its reverse) exists already;
                    # and those that cannot become i's children either: they have k parents
                    linked = set(children[i]).union(parents[i])
                    full = linked | {j for j in cands if len(parents[j]) >= self.k}
                    room = self.k - len(parents[i])
                    mine, mine_changes = [], []
                    for arcs, into, out in sets:
                        if len(into) > room or linked.intersection(into) or full.intersection(out):
                            continue
                        change = [(j, tuple(sorted(parents[j] + (i,)))) for j in out]
                        if into:
                            change.append((i, tuple(sorted(parents[i] + into))))
                        mine.append((i, arcs, into, out))
                        mine_changes.append(sorted(change))
                    listed = allowed[i] = (state, mine, mine_changes, scorer.key_ids(mine_changes, self.k + 1))
                valid += listed[1]
                changes += listed[2]
                numbers.append(listed[3])
            if valid:  # one batch for the whole step
                bounds = scorer.bounds_of(np.concatenate(numbers))
                # only those whose bound beats the current count can beat the current structure
                for pos, bound in zip(np.flatnonzero(bounds > correct).tolist(), bounds[bounds > correct].tolist()):
                    pool.append((bound, valid[pos], changes[pos]))
            # the largest bounds first, so the best count rises fast and settles the rest by their
            # bounds; the winner is still the first candidate in the wrapper's order of the largest
            # count (a later one must beat it, an earlier one only equal it)
            best_arcs: tuple[tuple[int, int], ...]
            best, best_correct, best_attr, best_arcs, best_pos = None, correct, -1, (), -1
            reach: dict[int, dict[int, set[int]]] = {}  # per i: node → what it reaches by arcs of the base avoiding i
            for pos in sorted(range(len(pool)), key=lambda q: -pool[q][0]):  # stable: ties in wrapper order
                bound, (i, arcs, into, out), change = pool[pos]
                if bound < best_correct:
                    break
                if bound == best_correct and pos > best_pos:
                    continue
                if _closes_cycle(parents, i, list(into), list(out), children[i], reach.setdefault(i, {})):
                    continue
                structure = list(parents)
                for j, par in change:
                    structure[j] = par
                beat = best_correct - 1 if pos < best_pos else best_correct
                got = scorer.correct(tuple(structure), changed=[j for j, _ in change], beat=beat)
                if got > beat:
                    best, best_correct, best_attr, best_arcs, best_pos = tuple(structure), got, i, arcs, pos
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
        from bncbench.classifiers.ban.kban_scorer import StructureScorer  # numba's import: only where k-BAN fits

        n = Xc.shape[1]
        pc = self._pair_counts(Xc, y, pairs=self.k > 0)
        self.cmi_ = cond_mutual_info(pc, "float64") if self.k > 0 else np.zeros((n, n))
        scorer = StructureScorer(Xc, y, self.sizes_, self.card_, self.n_classes_, self.estimator, self.m,
                                  loo=self.kban_eval == "loo")
        self._search(scorer, n)
        self.info_ = {"arcs": len(self.arcs_), "steps": len(self.steps_), "train_accuracy": self.trace_[-1]}
        # final parameters: ordinary (not leave-one-out) estimates from the same count tables
        self.log_prior_ = log_prior(pc.class_counts, self.estimator, self.m)
        self._tables = []
        N = float(y.size)
        for i, par in enumerate(self.parents_):
            cfg = parent_configs(Xc, par, self.sizes_)
            # index only the configurations that occur where most would not: a smaller table, the
            # same estimates (an unseen configuration's are the zero row's)
            if cfg.keys is None and 16 * cfg.n_configs > y.size:
                keys, ids = np.unique(cfg.ids, return_inverse=True)
                cfg = ParentConfigs(cfg.parents, cfg.radices, ids.reshape(-1), int(keys.size), keys)
            table, cfg = parent_set_counts(Xc, y, i, par, self.sizes_, self.n_classes_, configs=cfg)
            if cfg.keys is not None:  # one zero row for parent configurations unseen in training
                table = np.concatenate([table, np.zeros((1,) + table.shape[1:], dtype=table.dtype)])
            den = table.sum(axis=1, keepdims=True)
            cells = self.n_classes_ * float(np.prod([self.card_[p] for p in par])) if par else float(self.n_classes_)
            logs = log_cond(table, den, self.card_[i], self.estimator, self.m, ctx_cells=cells, tot_num=N, tot_den=N)
            self._tables.append((cfg, logs))

    def learned_structure(self, X=None) -> Learned:
        """The wrapper's ≤ k parents of each attribute (docs/algorithms.md §11)."""
        return one_network(self.parents_)

    def network_tables(self) -> NetworkTables:
        """The network it predicts with: each attribute's table over its parents and the class (a parent
        configuration unseen in training: the estimates of zero counts, as in the prediction)."""
        n = len(self._tables)
        parents = [tuple(int(p) for p in cfg.parents) for cfg, _ in self._tables]

        def factor(X: np.ndarray, i: int) -> np.ndarray:
            cfg, logs = self._tables[i]
            return logs[cfg.index(X), X[:, i]]

        tables = [factor_table(functools.partial(factor, i=i), i, parents[i], self.sizes_, n) for i in range(n)]
        return NetworkTables(self.log_prior_, list(range(n)), parents, tables)

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for i, (cfg, logs) in enumerate(self._tables):
            ids = cfg.index(Xc)  # −1 (unseen configuration) → the zero row appended last
            jll += logs[ids, Xc[:, i]]
        return jll
