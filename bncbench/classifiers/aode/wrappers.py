"""PAA, CAA, PAE, CAE: AODE with its parent set P or its child set C chosen greedily by the
leave-one-out loss on the training set (Zheng & Webb 2007), docs/algorithms.md §4.8.4 — the wrapper
baselines of paper 003 — over one shared leave-one-out engine (`loo_engine.LooEngine`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import numpy as np

from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.loo_engine import WRAPPER_LOSSES, LooEngine
from bncbench.classifiers.aode.spode import logsumexp, spode_blocks
from bncbench.classifiers.aode.structure import row_codes, spodes, superparent_ok
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.learned import Learned


class _AODEWrapper(AODE):
    """AODE with parent set P and child set C chosen by a greedy LOO wrapper (§4.8.4)."""

    SEARCH = ""
    WORKING_TABLES: ClassVar[float] = 7.5  # measured: PAA and PAE 7.14 (docs/cli.md: run)
    PARAMS: ClassVar[dict[str, Param]] = {**AODE.PARAMS, "wrapper_loss": Param(str, WRAPPER_LOSSES)}

    def __init__(self, *, wrapper_loss: str = "rmse", min_freq: int = 1, estimator: str = "mestimate", m: float = 1.0,
                 missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(min_freq=min_freq, estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.wrapper_loss = wrapper_loss

    @classmethod
    def prepare_kernels(cls, params: dict, notify: Callable[[str], None], check: bool = False) -> bool:
        """CAA and CAE: load the compiled kernel of their search (`loo_kernels`), compiling it into the disk
        cache first where this machine has none (as `BAN.prepare_kernels`); PAA and PAE use none."""
        if cls.SEARCH not in ("CAA", "CAE"):
            return False
        from bncbench.classifiers.aode import loo_kernels

        return loo_kernels.prepare(notify, check)

    def _fit(self, Xc, y):
        super()._fit(Xc, y)
        n = Xc.shape[1]
        P, C, path = LooEngine(self, Xc, y, self.wrapper_loss).search(self.SEARCH)
        self.parents_ = np.array(P, dtype=np.int64)
        self.children_ = np.array(C, dtype=np.int64)
        self.loss_path_ = np.array(path)
        kept = len(P) if self.SEARCH in ("PAA", "PAE") else len(C)
        self.info_ = {"elimination": (n - kept) / n if n else 0.0, "parents": P, "children": C}

    def learned_structure(self, X=None) -> Learned:
        """One SPODE per selected superparent (P) with the selected children (C) other than itself;
        the attributes in P or C; given X, the arcs of the SPODEs each row left out by AODE's rule
        (docs/algorithms.md §11)."""
        n = self.sizes_.size
        in_c = np.zeros(n, dtype=bool)
        in_c[self.children_] = True
        if X is None:
            return spodes(self.parents_, in_c)
        in_p = np.zeros(n, dtype=bool)
        in_p[self.parents_] = True
        return spodes(self.parents_, in_c, used=superparent_ok(self, row_codes(self, X)) & in_p)

    def _nb_children(self, rows: np.ndarray) -> np.ndarray:
        """NB over C: ln P̂(y) + Σ_{c∈C} ln P̂(x_c | y)."""
        nb = np.tile(self.log_prior_, (rows.shape[0], 1))
        for c in self.children_.tolist():
            nb += self.nb_[c][rows[:, c]]
        return nb

    def _joint_log_likelihood(self, Xc):
        n_rows, n = Xc.shape
        if n == 0 or n_rows == 0 or self.parents_.size == 0:
            return self._nb_children(Xc)
        in_p = np.zeros(n, dtype=bool)
        in_p[self.parents_] = True
        in_c = np.zeros(n, dtype=bool)
        in_c[self.children_] = True
        out = np.empty((n_rows, self.n_classes_))
        for s, g, sp, _ in spode_blocks(Xc, self.counts_.offsets, self.log_joint_, self.log_cond_, children=in_c,
                                        superparents=in_p):  # the others' SPODEs: −inf below
            m = g.shape[1]
            ok = self.parent_ok_[g] & in_p[:, None]
            sp[~ok] = -np.inf
            nq = ok.sum(axis=0)
            out[s:s + m] = logsumexp(sp, axis=0) - np.log(np.maximum(nq, 1))[:, None]
            none = np.flatnonzero(nq == 0)
            if none.size:  # no usable superparent: NB over C
                out[s + none] = self._nb_children(Xc[s + none])
        return out


_PARAMS_DOC = """
    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier` (paper 003 uses estimator="laplace", docs/algorithms.md §2.3). Both missing
        modes are supported (under "skip" a missing value is never a superparent and adds no
        child factor, as in AODE).
    min_freq : int, default=1
        AODE's minimum frequency of a superparent's value (§4.4); in the leave-one-out search
        the held-out instance is not counted (N(x_p) − 1 ≥ min_freq).
    wrapper_loss : {"rmse", "zol"}, default="rmse"
        Evaluation loss of the search: leave-one-out true-class RMSE (§5.3; Webb-group code)
        or zero-one loss.

    Attributes
    ----------
    parents_, children_ : ndarray of int
        The selected P and C (attribute indices, ascending).
    loss_path_ : ndarray
        Leave-one-out loss of the start model and of the model after each accepted step.
    info_ : dict
        {"elimination": e / n (§6.6), "parents": P, "children": C}.
"""


class PAA(_AODEWrapper):
    __doc__ = """PAA — parent addition (F. Zheng, G. I. Webb, "Finding the right family: parent
    and child selection for averaged one-dependence estimators", ECML 2007, LNAI 4701,
    pp. 490–501), docs/algorithms.md §4.8.4. Starts from P = ∅ (naive Bayes), C = all attributes;
    each step adds to P the attribute whose model has the lowest leave-one-out loss on the
    training set (count subtraction, `LooEngine`) if that loss is strictly lower than the
    current one (ties → smallest index); stops otherwise or when P holds every attribute.
    Elimination ratio: attributes not in P / n.
    """ + _PARAMS_DOC
    SEARCH = "PAA"


class CAA(_AODEWrapper):
    __doc__ = """CAA — child addition (Zheng & Webb, ECML 2007; see `PAA`), docs/algorithms.md §4.8.4.
    Starts from P = all attributes, C = ∅ (every SPODE is P̂(y, x_p) alone); each step adds to C
    (as a child of every SPODE) the attribute with the lowest leave-one-out loss if it is
    strictly lower than the current one (ties → smallest index); stops otherwise or when C holds
    every attribute. Elimination ratio: attributes not in C / n (the same for every test row).
    """ + _PARAMS_DOC
    WORKING_TABLES: ClassVar[float] = 10.0  # measured: 9.43 (docs/cli.md: run)
    SEARCH = "CAA"


class PAE(_AODEWrapper):
    __doc__ = """PAE — parent elimination (Zheng & Webb, ECML 2007; see `PAA`), docs/algorithms.md
    §4.8.4. Starts from AODE (P = C = all attributes); each step removes from P (its SPODE goes;
    it stays a child) the attribute whose removal gives the lowest leave-one-out loss if it is
    strictly lower than the current one (ties → smallest index); stops otherwise or when a
    removal would empty P. Elimination ratio: attributes not in P / n.
    """ + _PARAMS_DOC
    SEARCH = "PAE"


class CAE(_AODEWrapper):
    __doc__ = """CAE — child elimination (Zheng & Webb, ECML 2007; see `PAA`), docs/algorithms.md
    §4.8.4. Starts from AODE (P = C = all attributes); each step removes from C (as a child of
    every SPODE; it stays a superparent) the attribute whose removal gives the lowest
    leave-one-out loss if it is strictly lower than the current one (ties → smallest index);
    stops otherwise or when a removal would empty C. Elimination ratio: attributes not in C / n
    (the same for every test row).
    """ + _PARAMS_DOC
    WORKING_TABLES: ClassVar[float] = 13.0  # measured: 12.44 (docs/cli.md: run)
    SEARCH = "CAE"
