"""SR and NSR: AODE with lazy subsumption resolution (Zheng & Webb 2006) and near-subsumption
resolution (Zheng, Webb, Suraweera & Zhu 2012) — docs/algorithms.md §4.8.5, as S003 compares them."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.spode import log_mean_spodes, spode_blocks
from bncbench.classifiers.aode.structure import row_codes, spodes, superparent_ok
from bncbench.classifiers.kernels.learned_network import forget_rows, per_rows
from bncbench.classifiers.kernels.params import Param
from bncbench.classifiers.learned import Learned

_SCAN_CELLS = 1 << 21  # rows × attributes of one block of the subsumption scan


class _SubsumptionAODE(AODE):
    """The shared implementation of SR and NSR: AODE without the deleted values of each test instance (§4.8.5)."""

    PARAMS: ClassVar[dict[str, Param]] = {**AODE.PARAMS, "sr_min_freq": Param(int, low=0)}

    def _rule(self) -> tuple[int, bool, float]:
        """(l, strict, r): x_j is a candidate iff N(x_j) > l (strict) or ≥ l, and x_i covers it
        iff N(x_i, x_j) = N(x_j) (r = 1) or N(x_i, x_j) ≥ r·N(x_j) (r < 1)."""
        raise NotImplementedError

    def _fit(self, Xc, y):
        super()._fit(Xc, y)
        forget_rows(self)
        pc = self.counts_
        V = pc.xy.shape[0]
        lim, strict, ratio = self._rule()
        f = self.value_freq_                      # N(x_j) per slot
        both = pc.pairs.sum(axis=2)               # N(x_i, x_j) over all classes [slot i, slot j]
        known = np.ones(V, dtype=bool)            # slots that take part in subsumption
        if self.missing == "skip":
            known[pc.offsets + self.sizes_ - 1] = False
        cand = known & ((f > lim) if strict else (f >= lim))  # x_j known and frequent enough
        covers = (both == f[None, :]) if ratio == 1.0 else (both >= ratio * f[None, :])
        covers &= known[:, None] & cand[None, :]  # x_i (row) covers x_j (column)
        # for j < i every covering x_j counts; for j > i not one as frequent as x_i (the tie rule)
        self.sr_covers_ = covers
        self.sr_covers_untied_ = covers & (f[:, None] != f[None, :])
        offs = pc.offsets
        lo = np.logical_or.reduceat(np.logical_or.reduceat(covers, offs, axis=0), offs, axis=1)
        hi = np.logical_or.reduceat(np.logical_or.reduceat(self.sr_covers_untied_, offs, axis=0), offs, axis=1)
        n = offs.size
        att = np.arange(n)
        # per attribute i, the attributes j (in order) whose value may ever resolve x_i
        self.sr_pairs_ = [np.flatnonzero(np.where(att < i, lo[i], hi[i]) & (att != i)) for i in range(n)]
        # scoring: one extra slot V, the code of a deleted attribute — as a child ln 1 = 0, never
        # a superparent (AODE's tables padded once here instead of a per-row child mask)
        self.log_joint_ = np.pad(self.log_joint_, ((0, 1), (0, 0)))
        self.log_cond_ = np.pad(self.log_cond_, ((0, 1), (0, 1), (0, 0)))
        self.parent_ok_ = np.append(self.parent_ok_, False)

    def learned_structure(self, X=None) -> Learned:
        """AODE's SPODEs; given X, each attribute's share of rows that deleted it (as superparent and
        child), and each arc's share of rows that did not use it: its SPODE left out (deleted, or
        AODE's rule) or its child deleted (docs/algorithms.md §11)."""
        n = self.sizes_.size
        every = np.ones(n, dtype=bool)
        if X is None:
            return spodes(range(n), every)
        Xc = row_codes(self, X)
        deleted = self._generalised(Xc) >= 0
        return spodes(range(n), every, used=superparent_ok(self, Xc) & ~deleted, kept=~deleted, dropped=deleted)

    # -- the subsumption scan -----------------------------------------------------------------
    def _generalised(self, Xc: np.ndarray) -> np.ndarray:
        """(rows, n) int: for each test row and attribute i, the attribute j whose value x_i was
        resolved as a generalisation of, or −1 when x_i is kept (read-only; once per rows)."""
        return per_rows(self, Xc, self._scan)

    def _scan(self, Xc: np.ndarray) -> np.ndarray:
        """`_generalised` computed: a loop over attributes i (and only the attributes j whose values
        may ever resolve x_i), vectorised over rows."""
        n_rows, n = Xc.shape
        out = np.full((n_rows, n), -1, dtype=np.int64)
        if n < 2 or n_rows == 0:
            return out
        V = self.sr_covers_.shape[0]
        lo, hi = self.sr_covers_.reshape(-1), self.sr_covers_untied_.reshape(-1)
        offs = self.counts_.offsets.astype(np.intp)
        step = max(1, _SCAN_CELLS // n)
        for s in range(0, n_rows, step):
            G = Xc[s:s + step].astype(np.intp) + offs  # slots (rows, n)
            gen = out[s:s + step]
            rows = np.arange(G.shape[0])
            for i, js in enumerate(self.sr_pairs_):
                if js.size == 0:
                    continue
                k = int(np.searchsorted(js, i))  # js[:k] < i < js[k:]
                base = G[:, i:i + 1] * V
                hit = np.empty((G.shape[0], js.size), dtype=bool)
                np.take(lo, base + G[:, js[:k]], out=hit[:, :k])
                np.take(hi, base + G[:, js[k:]], out=hit[:, k:])
                hit[:, :k] &= gen[:, js[:k]] != i  # j already marked as a generalisation of i
                first = hit.argmax(axis=1)
                gen[:, i] = np.where(hit[rows, first], js[first], -1)
        return out

    def deleted_attributes(self, X) -> np.ndarray:
        """Bool (rows, n_features_in_): the attributes deleted (as superparents and children) for
        each row of X (value codes, −1 = missing)."""
        return self._generalised(row_codes(self, X)) >= 0

    def prediction_info(self, X) -> dict:
        """{"elimination": mean over the rows of X of (attributes deleted) / n} (§6.6)."""
        d = self.deleted_attributes(X)
        if d.size == 0:
            return {"elimination": 0.0}
        return {"elimination": float(d.sum(axis=1).mean() / d.shape[1])}

    # -- scoring ------------------------------------------------------------------------------
    def _joint_log_likelihood(self, Xc):
        n_rows, n = Xc.shape
        if n == 0 or n_rows == 0:
            return np.tile(self.log_prior_, (n_rows, 1))
        deleted = self._generalised(Xc) >= 0
        Xd = Xc
        if deleted.any():  # a deleted attribute's code points at the extra slot V
            gone = self.log_joint_.shape[0] - 1 - self.counts_.offsets
            Xd = np.where(deleted, gone[None, :], Xc)
        out = np.empty((n_rows, self.n_classes_))
        for s, g, sp, _ in spode_blocks(Xd, self.counts_.offsets, self.log_joint_, self.log_cond_):
            m = g.shape[1]
            # parent_ok_[g] [p, row]: qualifying, known and not deleted
            out[s:s + m], nq = log_mean_spodes(sp, self.parent_ok_[g])
            none = np.flatnonzero(nq == 0)
            if none.size:  # no usable superparent: naive Bayes over every known attribute (Weka)
                out[s + none] = self._nb_log_likelihood(Xc[s + none])
        return out


class SR(_SubsumptionAODE):
    """SR — AODE with lazy subsumption resolution (Zheng & Webb, ICML 2006; docs/algorithms.md §4.8.5).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes, min_freq
        As in `AODE`.
    sr_min_freq : int, default=50
        l, the frequency the specialisation x_j must exceed (or reach).
    sr_strict : bool, default=True
        N(x_j) > l (Weka AODEsr) if true, N(x_j) ≥ l if false.
    """

    PARAMS: ClassVar[dict[str, Param]] = {**_SubsumptionAODE.PARAMS, "sr_strict": Param(bool)}

    def __init__(self, *, sr_min_freq: int = 50, sr_strict: bool = True, min_freq: int = 1,
                 estimator: str = "mestimate", m: float = 1.0, missing: str = "value", cardinalities=None,
                 n_classes: int | None = None):
        super().__init__(min_freq=min_freq, estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.sr_min_freq = sr_min_freq
        self.sr_strict = sr_strict

    def _rule(self) -> tuple[int, bool, float]:
        return int(self.sr_min_freq), bool(self.sr_strict), 1.0


class NSR(_SubsumptionAODE):
    """NSR — AODE with near-subsumption resolution, a reconstruction (docs/algorithms.md §4.8.5).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes, min_freq, sr_min_freq
        As in `SR` with sr_strict=False (x_j must occur at least sr_min_freq times).
    nsr_ratio : float, default=0.99
        r in (0, 1]: the share of x_j's instances that must also have x_i.
    """

    PARAMS: ClassVar[dict[str, Param]] = {
        **_SubsumptionAODE.PARAMS, "nsr_ratio": Param(float, low=0, high=1, open="low")}

    def __init__(self, *, sr_min_freq: int = 50, nsr_ratio: float = 0.99, min_freq: int = 1,
                 estimator: str = "mestimate", m: float = 1.0, missing: str = "value", cardinalities=None,
                 n_classes: int | None = None):
        super().__init__(min_freq=min_freq, estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.sr_min_freq = sr_min_freq
        self.nsr_ratio = nsr_ratio

    def _rule(self) -> tuple[int, bool, float]:
        return int(self.sr_min_freq), False, float(self.nsr_ratio)
