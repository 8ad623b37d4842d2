"""RC and SP+RC: AODE and SP with children removed per test instance by functional dependencies
(Wang, Wang, Li & Chi 2014, paper 003 §3.2) — docs/algorithms.md §4.8.2–§4.8.3."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.fds import (
    FDSet,
    canonical_cover,
    eliminated,
    fit_fd_tables,
    instance_fds,
)
from bncbench.classifiers.aode.sp import SP, average_spodes
from bncbench.classifiers.aode.structure import row_codes, spodes, superparent_ok
from bncbench.classifiers.kernels.learned_network import forget_rows, per_rows
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.learned import Learned


class _ChildRemoval(AODE):
    """What RC and SP+RC share: FD tables over the LHS attributes `parent_mask_`, the per-row
    eliminations, the SPODE average without the eliminated children, and `prediction_info`."""

    #: RC's own parameters (rc_min_support ≥ 1: an FD supported by no training instance would hold
    #: vacuously for every target)
    RC_PARAMS: ClassVar[dict[str, Param]] = {
        "rc_min_support": Param(int, low=1), "rc_canonical_cover": Param(bool), "rc_remove_as_parent": Param(bool)}
    #: the attributes that may be superparents (each subclass's fit sets it)
    parent_mask_: np.ndarray

    def __init__(self, *, rc_min_support: int = 100, rc_canonical_cover: bool = True, rc_remove_as_parent: bool = False,
                 min_freq: int = 1, estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None):
        super().__init__(min_freq=min_freq, estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.rc_min_support = rc_min_support
        self.rc_canonical_cover = rc_canonical_cover
        self.rc_remove_as_parent = rc_remove_as_parent

    def _fit_fds(self, Xc: np.ndarray) -> None:
        forget_rows(self)
        self.fd_tables_ = fit_fd_tables(Xc, self.counts_, self.parent_mask_, int(self.rc_min_support),
                                        self.missing == "skip")

    def learned_structure(self, X=None) -> Learned:
        """AODE's SPODEs (RC) or SP's (SP+RC); given X, each attribute's share of rows that removed it
        as a child (and, with rc_remove_as_parent, as a superparent), and each arc's share of rows
        that did not use it: its SPODE left out, or its child removed (docs/algorithms.md §11)."""
        parents = np.flatnonzero(self.parent_mask_)
        every = np.ones(self.parent_mask_.size, dtype=bool)
        if X is None:
            return spodes(parents, every)
        Xc = row_codes(self, X)
        E = self._eliminated(Xc)
        used = superparent_ok(self, Xc) & self.parent_mask_
        if self.rc_remove_as_parent:
            used &= ~E
        return spodes(parents, every, used=used, kept=~E, dropped=E)

    def _eliminated(self, Xc: np.ndarray) -> np.ndarray:
        return per_rows(self, Xc, lambda rows: eliminated(self.fd_tables_, rows))


    def dependencies(self, X) -> FDSet:
        """The FDs of each row of X (value codes, −1 = missing): the left-reduced ones, reduced to
        a canonical cover when `rc_canonical_cover`; records (row, a, b, t) = x_{a,b} → x_t (b = a
        for one attribute), sorted by row, target, |S|, LHS."""
        Xc = row_codes(self, X)
        fds = instance_fds(self.fd_tables_, Xc)
        return canonical_cover(fds, Xc.shape[0], Xc.shape[1]) if self.rc_canonical_cover else fds

    def eliminated(self, X) -> np.ndarray:
        """Bool (n_samples, n_features_in_): the attributes removed as children for each row of X
        (value codes, −1 = missing)."""
        return self._eliminated(row_codes(self, X)).copy()

    def prediction_info(self, X) -> dict:
        """{"elimination": mean over the rows of X of e_i / n} (§6.6), e_i = attributes removed as
        children for row i."""
        E = self.eliminated(X)
        return {"elimination": float(E.mean()) if E.size else 0.0}

    def _joint_log_likelihood(self, Xc):
        E = self._eliminated(Xc)
        parents = self.parent_mask_[None, :] & ~E if self.rc_remove_as_parent else self.parent_mask_
        return average_spodes(self, Xc, parents, ~E)


class RC(_ChildRemoval, AODE):
    """RC — AODE with redundant children removed per test instance by functional dependencies (paper 003 §3.2).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes, min_freq
        As in `AODE` (paper 003: estimator="laplace", docs/algorithms.md §2.3).
    rc_min_support : int, default=100
        l_FD, the least number of training instances matching x_S (≥ 1).
    rc_canonical_cover : bool, default=True
        Reduce each instance's FDs to a canonical cover (same deletions; docs/algorithms.md §4.8.2).
    rc_remove_as_parent : bool, default=False
        Also drop the deleted attributes as superparents.
    """

    PARAMS: ClassVar[dict[str, Param]] = {**AODE.PARAMS, **_ChildRemoval.RC_PARAMS}

    def _fit(self, Xc, y):
        AODE._fit(self, Xc, y)
        n = Xc.shape[1]
        self.parents_ = np.arange(n)
        self.parent_mask_ = np.ones(n, dtype=bool)
        self._fit_fds(Xc)


class SPRC(_ChildRemoval, SP):
    """SP+RC — SP's superparents, then RC per test instance on FDs with SP's parents as left-hand sides (§4.8.3).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes, min_freq, info_precision
        As in `SP` (paper 003: estimator="laplace", docs/algorithms.md §2.3).
    rc_min_support, rc_canonical_cover, rc_remove_as_parent
        As in `RC`.
    """

    PARAMS: ClassVar[dict[str, Param]] = {**SP.PARAMS, **_ChildRemoval.RC_PARAMS}

    def __init__(self, *, rc_min_support: int = 100, rc_canonical_cover: bool = True, rc_remove_as_parent: bool = False,
                 min_freq: int = 1, info_precision: str = "float64", estimator: str = "mestimate", m: float = 1.0,
                 missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(rc_min_support=rc_min_support, rc_canonical_cover=rc_canonical_cover,
                         rc_remove_as_parent=rc_remove_as_parent, min_freq=min_freq, estimator=estimator, m=m,
                         missing=missing, cardinalities=cardinalities, n_classes=n_classes)
        self.info_precision = info_precision  # SP's, which _ChildRemoval's super().__init__ left at its default

    def _fit(self, Xc, y):
        SP._fit(self, Xc, y)
        self.info_ = {"parent_elimination": self.info_["elimination"]}
        self._fit_fds(Xc)
