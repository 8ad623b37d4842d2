"""RC and SP+RC: AODE and SP with children removed per test instance by functional dependencies
(Wang, Wang, Li & Chi 2014, paper 003 §3.2) — docs/algorithms.md §4.8.2–§4.8.3."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from sklearn.utils.validation import check_is_fitted

from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.fds import (
    FDSet,
    canonical_cover,
    eliminated,
    fit_fd_tables,
    instance_fds,
)
from bncbench.classifiers.aode.sp import SP, average_spodes
from bncbench.classifiers.kernels.params import Param


class _ChildRemoval(AODE):
    """What RC and SP+RC share: FD tables over the LHS attributes `parent_mask_`, the per-row
    eliminations, the SPODE average without the eliminated children, and `test_info`."""

    #: RC's own parameters (rc_min_support ≥ 1: an FD supported by no training instance would hold
    #: vacuously for every target)
    RC_PARAMS: ClassVar[dict[str, Param]] = {
        "rc_min_support": Param(int, low=1), "rc_canonical_cover": Param(bool), "rc_remove_as_parent": Param(bool)}
    rc_min_support: int
    rc_canonical_cover: bool
    rc_remove_as_parent: bool

    def _fit_fds(self, Xc: np.ndarray) -> None:
        self.fd_tables_ = fit_fd_tables(Xc, self.counts_, self.parent_mask_, int(self.rc_min_support),
                                        self.missing == "skip")

    def _eliminated(self, Xc: np.ndarray) -> np.ndarray:
        return eliminated(self.fd_tables_, Xc)

    def _internal_X(self, X) -> np.ndarray:
        check_is_fitted(self)
        X, lo, hi = self._validate_X(X, reset=False)
        return self._internal(X, lo, hi)

    def dependencies(self, X) -> FDSet:
        """The FDs of each row of X (value codes, −1 = missing): the left-reduced ones, reduced to
        a canonical cover when `rc_canonical_cover`; records (row, a, b, t) = x_{a,b} → x_t (b = a
        for one attribute), sorted by row, target, |S|, LHS."""
        Xc = self._internal_X(X)
        fds = instance_fds(self.fd_tables_, Xc)
        return canonical_cover(fds, Xc.shape[0], Xc.shape[1]) if self.rc_canonical_cover else fds

    def eliminated(self, X) -> np.ndarray:
        """Bool (n_samples, n_features_in_): the attributes removed as children for each row of X
        (value codes, −1 = missing)."""
        return self._eliminated(self._internal_X(X))

    def test_info(self, X) -> dict:
        """{"elimination": mean over the rows of X of e_i / n} (§6.6), e_i = attributes removed as
        children for row i."""
        E = self.eliminated(X)
        return {"elimination": float(E.mean()) if E.size else 0.0}

    def _joint_log_likelihood(self, Xc):
        E = self._eliminated(Xc)
        parents = self.parent_mask_[None, :] & ~E if self.rc_remove_as_parent else self.parent_mask_
        return average_spodes(self, Xc, parents, ~E)


class RC(_ChildRemoval, AODE):
    """RC — AODE with redundant children removed per test instance by functional dependencies.

    Source: L. Wang, S. Wang, X. Li, B. Chi, "Extracting credible dependencies for averaged
    one-dependence estimator analysis", Mathematical Problems in Engineering 2014, Article ID
    470821, §3.2 (docs/algorithms.md §4.8.2). For a test instance x, an FD x_S → x_j (|S| ≤ 2, j ∉ S)
    holds iff N(x_S) ≥ `rc_min_support` and every training instance matching x on S has
    X_j = x_j. Steps per instance (vectorised over test rows, bncbench.classifiers.aode.fds):
    (1) all such FDs, left-reduced (an FD with |S| = 2 is dropped when a one-attribute subset
    already determines x_j); (2) with `rc_canonical_cover`, redundant FDs removed in the order of
    step 3 (target index, then |S|, then LHS — the order within a target is our choice); (3) for j
    in index order, j is deleted iff it lies in the attribute closure of the still-kept attributes
    other than j (and those are not none). The deleted attributes are removed as children from
    every SPODE: P(y, x) ∝ (1/|P_x|) Σ_{p∈P_x} P̂(y, x_p) Π_{c∉E_x, c≠p} P̂(x_c | y, x_p), P_x as
    in AODE (§4.4); naive Bayes over the kept attributes when P_x is empty.

    Note: the deletions depend on the FD set only through attribute closures, which the canonical
    cover preserves (it drops only FDs implied by the others), so `rc_canonical_cover` cannot change
    the deletions or the probabilities: predictions run step 3 on the left-reduced FDs (the cover
    costs a closure per FD), and the option decides what `dependencies(X)` returns.

    With missing="skip" a missing value takes part in no FD; with "value" it is a value.

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier` (paper 003: estimator="laplace", docs/algorithms.md §2.3).
    min_freq : int, default=1
        AODE's minimum frequency of a superparent's value (§4.4).
    rc_min_support : int, default=100
        l_FD, the least number of training instances matching x_S (≥ 1; ValueError otherwise).
    rc_canonical_cover : bool, default=True
        Reduce each instance's FDs to a canonical cover (same deletions; see the note).
    rc_remove_as_parent : bool, default=False
        Also drop the deleted attributes as superparents.

    Attributes: `parents_` (every attribute), `parent_mask_`, `fd_tables_`, AODE's tables;
    `eliminated(X)` returns the per-row deletions, `test_info(X)` their ratio (§6.6) and
    `dependencies(X)` the FDs.
    """

    PARAMS: ClassVar[dict[str, Param]] = {**AODE.PARAMS, **_ChildRemoval.RC_PARAMS}

    def __init__(self, *, rc_min_support: int = 100, rc_canonical_cover: bool = True, rc_remove_as_parent: bool = False,
                 min_freq: int = 1, estimator: str = "mestimate", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None):
        super().__init__(min_freq=min_freq, estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.rc_min_support = rc_min_support
        self.rc_canonical_cover = rc_canonical_cover
        self.rc_remove_as_parent = rc_remove_as_parent

    def _fit(self, Xc, y):
        AODE._fit(self, Xc, y)
        n = Xc.shape[1]
        self.parents_ = np.arange(n)
        self.parent_mask_ = np.ones(n, dtype=bool)
        self._fit_fds(Xc)


class SPRC(_ChildRemoval, SP):
    """SP+RC — SP's superparents (training time), then RC per test instance with the FD left-hand
    sides restricted to SP's parents P; targets may be any attribute, and the deleted ones are
    removed as children from every selected SPODE (docs/algorithms.md §4.8.3; paper 003 §3.1–3.2, see
    `SP` and `RC` for the source and the steps).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier` (paper 003: estimator="laplace", docs/algorithms.md §2.3).
    min_freq : int, default=1
        AODE's minimum frequency of a superparent's value (§4.4).
    info_precision : {"float64", "float32"}, default="float64"
        Precision of the CMI values SP's tree compares (§0.3).
    rc_min_support, rc_canonical_cover, rc_remove_as_parent
        As in `RC`.

    Attributes: SP's (`cmi_`, `tree_`, `parents_`, `parent_mask_`), `fd_tables_`,
    `info_` = {"parent_elimination": (n − |P|)/n}; `eliminated(X)`, `test_info(X)` and `dependencies(X)` as in RC.
    """

    PARAMS: ClassVar[dict[str, Param]] = {**SP.PARAMS, **_ChildRemoval.RC_PARAMS}

    def __init__(self, *, rc_min_support: int = 100, rc_canonical_cover: bool = True, rc_remove_as_parent: bool = False,
                 min_freq: int = 1, info_precision: str = "float64", estimator: str = "mestimate", m: float = 1.0,
                 missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(min_freq=min_freq, info_precision=info_precision, estimator=estimator, m=m, missing=missing,
                         cardinalities=cardinalities, n_classes=n_classes)
        self.rc_min_support = rc_min_support
        self.rc_canonical_cover = rc_canonical_cover
        self.rc_remove_as_parent = rc_remove_as_parent

    def _fit(self, Xc, y):
        SP._fit(self, Xc, y)
        self.info_ = {"parent_elimination": self.info_["elimination"]}
        self._fit_fds(Xc)
