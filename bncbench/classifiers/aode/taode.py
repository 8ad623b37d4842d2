"""TAODE: AODE with per-instance SPODE weights from each SPODE's likelihood of the test instance
(Wang, Chen & Liu 2020, as described by S004) — docs/algorithms.md §4.13, a reconstruction."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from bncbench.classifiers.aode.aode import AODE
from bncbench.classifiers.aode.spode import inverse_normalise, logsumexp, spode_blocks
from bncbench.classifiers.kernels.params import Param


class TAODE(AODE):
    """TAODE — "Targeted AODE", a reconstruction (docs/algorithms.md §4.13; low confidence).

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes, min_freq
        As in `AODE`.
    taode_weight : {"likelihood", "log_likelihood", "uniform"}, default="likelihood"
        The SPODE weights: by likelihood, by IWAODE's normalisation of log-likelihoods, or uniform (AODE).
    """

    PARAMS: ClassVar[dict[str, Param]] = {
        **AODE.PARAMS, "taode_weight": Param(str, ("likelihood", "log_likelihood", "uniform"))}

    def __init__(self, *, taode_weight: str = "likelihood", min_freq: int = 1, estimator: str = "mestimate",
                 m: float = 1.0, missing: str = "value", cardinalities=None, n_classes: int | None = None):
        super().__init__(min_freq=min_freq, estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.taode_weight = taode_weight

    def _log_weights(self, L: np.ndarray, ok: np.ndarray) -> np.ndarray:
        """ln w_p per (superparent, row) from L = ln Σ_y P_p(y, x) (−inf outside Q(x))."""
        if self.taode_weight == "likelihood":
            return L - logsumexp(L, axis=0)
        if self.taode_weight == "uniform":
            w = ok / np.maximum(ok.sum(axis=0), 1)
        else:
            w = inverse_normalise(-L, ok)
        with np.errstate(divide="ignore"):
            return np.log(w)

    def _joint_log_likelihood(self, Xc):
        n_rows, n = Xc.shape
        ny = self.n_classes_
        if n == 0 or n_rows == 0:
            return np.tile(self.log_prior_, (n_rows, 1))
        out = np.empty((n_rows, ny))
        for s, g, sp, _ in spode_blocks(Xc, self.counts_.offsets, self.log_joint_, self.log_cond_):
            m = g.shape[1]
            ok = self.parent_ok_[g]  # [p, row]: p ∈ Q(x)
            if not ok.all():
                sp[~ok] = -np.inf
            L = logsumexp(sp, axis=2)  # ln Σ_y P_p(y, x)
            with np.errstate(invalid="ignore"):  # rows without a superparent (NaN) get NB below
                sp += self._log_weights(L, ok)[:, :, None]
            out[s:s + m] = logsumexp(sp, axis=0)
            none = np.flatnonzero(~ok.any(axis=0))
            if none.size:  # no usable superparent: naive Bayes
                out[s + none] = self._nb_log_likelihood(Xc[s + none])
        return out
