"""Unrestricted BAN baselines of paper 002 (docs/algorithms.md §4.7): Friedman's score-based BAN
(`method="hc"`, the search of `hill_climbing.py`) and Cheng & Greiner's conditional-independence-test
BAN (`method="tpda"`, the search of `tpda.py`) — the classifier over either structure."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import ClassVar

import numpy as np

from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.ban.hill_climbing import hill_climb, mdl_score
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.counts import KeyCounts, config_counts, mixed_key
from bncbench.classifiers.kernels.estimators import log_cond, log_prior
from bncbench.classifiers.kernels.learned_network import one_network
from bncbench.classifiers.kernels.network_tables import NetworkTables, factor_table
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.kernels.ties import tie_key
from bncbench.classifiers.learned import Learned

#: per attribute: (parents, their radices, N(π, y), N(π, x_i, y), training rows)
_CountTables = list[tuple[list[int], list[int], KeyCounts, KeyCounts, int]]


def _class_counts(keys: np.ndarray, counts: np.ndarray, prefix: np.ndarray, ny: int) -> np.ndarray:
    """(rows, |Y|): the count of key prefix·|Y| + y of each row's prefix and each class y (0 where it
    never occurred), as `lookup` of those keys gives it: the sorted keys of one prefix are one run
    (the class is the last digit), found by two searches per row instead of one per (row, class)."""
    out = np.zeros((prefix.size, ny), dtype=np.int64)
    lo = np.searchsorted(keys, prefix * ny)
    n = np.searchsorted(keys, prefix * ny + ny) - lo  # the occurring classes of each row's prefix
    if n.any():
        row = np.repeat(np.arange(prefix.size), n)
        at = np.arange(row.size) + np.repeat(lo - (np.cumsum(n) - n), n)  # each run's keys in turn
        out.reshape(-1)[row * ny + keys.take(at) % ny] = counts.take(at)
    return out


class BAN(BayesNetClassifier):
    """Unrestricted BAN, paper 002's baselines, by TPDA or hill climbing (docs/algorithms.md §4.7).

    Parameters
    ----------
    method : {"tpda", "hc"}, default="tpda"
    estimator : {"laplace", "mestimate", "laplace_joint"}, default="laplace"
        Paper 002's estimator is Laplace (§2.3).
    m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`, but missing="value" only ("skip" raises ValueError).
    ban_test : {"x2"}, default="x2"
        tpda's CI test: the X² test of the 2002 procedure.
    ban_alpha : float, default=0.01
        Level of the X² test: independent iff p ≥ α.
    ban_min_rows_per_df : float, default=5
        Rows per degree of freedom the X² test needs to be informative.
    ban_max_parents : int, default=8
        Largest number of attribute parents.
    """

    NEEDS_PAIRS = False
    WORKING_TABLES: ClassVar[float] = 2.5  # measured: 1.75 to 2.27 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {
        **BayesNetClassifier.PARAMS, "method": Param(str, ("tpda", "hc")), "ban_test": Param(str, ("x2",)),
        "ban_alpha": Param(float, low=0, high=1, open="both"), "ban_min_rows_per_df": Param(float, low=0),
        "ban_max_parents": Param(int, low=0)}
    SUPPORTED_MISSING = ("value",)

    def __init__(self, *, method: str = "tpda", ban_test: str = "x2", ban_alpha: float = 0.01,
                 ban_min_rows_per_df: float = 5.0, ban_max_parents: int = 8, estimator: str = "laplace", m: float = 1.0,
                 missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.method = method
        self.ban_test = ban_test
        self.ban_alpha = ban_alpha
        self.ban_min_rows_per_df = ban_min_rows_per_df
        self.ban_max_parents = ban_max_parents

    def _fit(self, Xc, y):
        self.log_prior_ = log_prior(self._pair_counts(Xc, y, pairs=False).class_counts, self.estimator, self.m)
        self.score_ = None
        if self.method == "hc":
            from bncbench.classifiers.ban.compiled_terms import CompiledTerms  # numba: loaded where hc fits

            T = CompiledTerms(Xc, y, self.sizes_, self.n_classes_)
            self.parents_, moves = hill_climb(T, self.card_, self.n_classes_, int(self.ban_max_parents))
            self.score_ = mdl_score(T, self.parents_, self.card_, self.n_classes_)
            self.info_ = {"moves": moves}
        else:
            self.parents_, self.info_ = self._tpda_structure(Xc, y)
        self._tables = self._count_tables(Xc, y, self.parents_)

    def learned_structure(self, X=None) -> Learned:
        """The parents tpda or hill climbing found (after the parent cap; docs/algorithms.md §11)."""
        return one_network(self.parents_)

    @classmethod
    def prepare_kernels(cls, params: dict, notify: Callable[[str], None], check: bool = False) -> bool:
        """Load the compiled kernels that `params` will fit with (tpda's, or hc's), compiling them into
        the disk cache first where this machine has none, so that workers started next only load them;
        `notify` hears of a compile before it starts (with `check`: nothing loaded, `jit.prepare`)."""
        from bncbench.classifiers.kernels import jit

        tpda = params.get("method", "tpda") == "tpda"
        if tpda:  # the kernels' modules imported first: `jit.cached` checks those imported
            from bncbench.classifiers.ban.tpda import adj_path
            from bncbench.classifiers.ban.x2_independence import X2Test
        else:
            from bncbench.classifiers.ban.compiled_terms import CompiledTerms

        def load() -> None:  # one call of each kernel, with the argument types of a fit
            X = np.arange(48).reshape(12, 4) % 3
            if not tpda:
                H = CompiledTerms(X, np.arange(12) % 2, np.full(4, 3), 2)
                H.extensions(H.groups(()), [0, 1])
                H.extensions(H.extend(H.groups(()), 0), [1])
                return
            T = EntropyTerms(X, np.arange(12) % 2, np.full(4, 3), 2)
            test = X2Test(T)
            test.drafting([(0, 1)])
            test.statistics(0, 1, [(2,)])
            test.statistics(0, 1, [(2,), (3,)], frame=True)
            test(0, 1, (2, 3))
            test.leave_one_out(0, 1, (2, 3))
            adj_path(np.zeros((4, 4), dtype=np.bool_), 0, 1)

        return jit.prepare(load, notify, check)

    def _tpda_structure(self, Xc: np.ndarray, y: np.ndarray) -> tuple[list[list[int]], dict]:
        """The tpda structure: the 2002 procedure with the X² test, then the parent cap (its modules
        import numba, loaded here: only a fit of tpda pays for it)."""
        from bncbench.classifiers.ban.tpda import tpda
        from bncbench.classifiers.ban.x2_independence import X2Test

        T = EntropyTerms(Xc, y, self.sizes_, self.n_classes_)
        test = X2Test(T, float(self.ban_alpha), float(self.ban_min_rows_per_df))
        parents, info = tpda(Xc.shape[1], test,
                             lambda pairs: tie_key([T.cmi(i, j, ()).approx for i, j in pairs]).tolist())
        info["distinct_tests"] = test.distinct_tests
        info["tests_lacking_data"] = test.tests_lacking_data
        cuts = []
        for i, par in enumerate(parents):
            if len(par) > self.ban_max_parents:  # memory bound: keep the strongest by I(X_i; X_p | Y)
                ranked = sorted(par, key=lambda p: (-T.cmi(min(i, p), max(i, p), ()), p))
                keep = sorted(ranked[:self.ban_max_parents])
                cuts.append((i, [p for p in par if p not in keep]))
                parents[i] = keep
        info["parent_cap_cuts"] = cuts
        return parents, info

    def _count_tables(self, Xc: np.ndarray, y: np.ndarray, parents: list[list[int]]) -> _CountTables:
        """Per attribute: (parents, radices, N(π, y) table, N(π, x_i, y) table), sparse."""
        tables: _CountTables = []
        ny = self.n_classes_
        for i, par in enumerate(parents):
            rad = [int(self.sizes_[p]) for p in par]
            ctx = config_counts([Xc[:, p] for p in par] + [y], rad + [ny])
            joint = config_counts([Xc[:, p] for p in par] + [Xc[:, i], y], rad + [int(self.sizes_[i]), ny])
            tables.append((par, rad, ctx, joint, y.shape[0]))
        return tables

    def _factor_log(self, Xc: np.ndarray, i: int) -> np.ndarray:
        """Attribute i's ln P̂(x_i | y, parents) of each row (rows, |Y|)."""
        ny = self.n_classes_
        par, rad, ctx, joint, total = self._tables[i]
        base = mixed_key([Xc[:, p] for p in par], rad) if par else np.zeros(Xc.shape[0], np.int64)
        cells = ny * math.prod(int(self.card_[p]) for p in par)
        est = (self.card_[i], self.estimator, self.m)
        size, configs = int(self.sizes_[i]), math.prod(rad)
        if configs * size <= Xc.shape[0]:  # fewer (π, x_i) cells than rows: each cell's estimates once, then read
            num = np.zeros(configs * size * ny, dtype=np.int64)
            num[joint[0]] = joint[1]
            den = np.zeros(configs * ny, dtype=np.int64)
            den[ctx[0]] = ctx[1]
            logs = log_cond(num.reshape(configs, size, ny), den.reshape(configs, 1, ny), *est, ctx_cells=cells,
                            tot_num=total, tot_den=total)  # the same float per (row, class): numpy's log is elementwise
            return logs.reshape(configs * size, ny).take(base * size + Xc[:, i], axis=0)
        den = _class_counts(*ctx, base, ny)
        num = _class_counts(*joint, base * size + Xc[:, i], ny)
        return log_cond(num, den, *est, ctx_cells=cells, tot_num=total, tot_den=total)

    def network_tables(self) -> NetworkTables:
        """The network it predicts with: each attribute's table over its parents and the class."""
        n = len(self._tables)
        parents = [tuple(int(p) for p in t[0]) for t in self._tables]
        tables = [factor_table(functools.partial(self._factor_log, i=i), i, parents[i], self.sizes_, n)
                  for i in range(n)]
        return NetworkTables(self.log_prior_, list(range(n)), parents, tables)

    def _joint_log_likelihood(self, Xc):
        jll = np.tile(self.log_prior_, (Xc.shape[0], 1))
        for i in range(len(self._tables)):
            jll += self._factor_log(Xc, i)
        return jll
