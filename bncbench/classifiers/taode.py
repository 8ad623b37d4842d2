"""TAODE: AODE with per-instance SPODE weights from each SPODE's likelihood of the test instance
(Wang, Chen & Liu 2020, as described by S004) — ALGORITHMS.md §4.13, a reconstruction.

Also home of `spode_blocks`, the blocked per-superparent scoring shared with IWAODE."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from bncbench.classifiers.aode import _BLOCK_BYTES, AODE


def spode_blocks(Xc: np.ndarray, offsets: np.ndarray, log_joint: np.ndarray, log_cond: np.ndarray,
                 pair_table: np.ndarray | None = None
                 ) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray | None]]:
    """Score every SPODE on blocks of test rows (AODE's scheme: buffers reused, no loop over rows).

    Xc: (rows, n) internal codes, n ≥ 1; `offsets[i]` = first slot of attribute i; `log_joint`
    (V, |Y|) = ln P̂(x_p, y) per slot; `log_cond` (V, V, |Y|) = ln P̂(x_c | y, x_p) indexed
    [p slot, c slot, y]; `pair_table` (V, V), optional, any per-(p slot, c slot) quantity.
    Yields (start, g, sp, ps) per block of m rows starting at row `start`:
      g  (n, m)     the rows' slots, one row per attribute;
      sp (n, m, |Y|) ln P̂(y, x_p) + Σ_{c≠p} ln P̂(x_c | y, x_p), c summed in attribute order;
      ps (n, m)     Σ_{c≠p} pair_table[x_p, x_c] (None without `pair_table`).
    The arrays are views of buffers overwritten by the next block; the caller may modify them."""
    n_rows, n = Xc.shape
    ny = log_joint.shape[1]
    V = log_joint.shape[0]
    flat = log_cond.reshape(-1, ny)  # row (p slot · V + c slot)
    pflat = None if pair_table is None else pair_table.reshape(-1)
    offs = offsets.astype(np.intp)
    step = max(64, min(n_rows, _BLOCK_BYTES // (8 * n * ny)))
    gT = np.empty((n, step), dtype=np.intp)
    base = np.empty(step, dtype=np.intp)
    idx = np.empty((n, step), dtype=np.intp)     # rows of `flat` for one superparent
    cond = np.empty((n, step, ny))               # ln P̂(x_c | y, x_p) for every c ≠ p
    spode = np.empty((n, step, ny))
    pair = np.empty((n, step)) if pflat is not None else None
    psum = np.empty((n, step)) if pflat is not None else None
    for s in range(0, n_rows, step):
        m = min(step, n_rows - s)
        g, b, ix, cd, sp = gT[:, :m], base[:m], idx[:, :m], cond[:, :m], spode[:, :m]
        np.add(Xc[s:s + m].T, offs[:, None], out=g)
        for p in range(n):
            np.take(log_joint, g[p], axis=0, out=sp[p])
            np.multiply(g[p], V, out=b)
            np.add(g[:p], b, out=ix[:p])  # the other attributes c ≠ p, in order
            np.add(g[p + 1:], b, out=ix[p:n - 1])
            np.take(flat, ix[:n - 1], axis=0, out=cd[:n - 1])
            acc = sp[p]
            for c in range(n - 1):
                acc += cd[c]
            if pflat is not None:
                pb = pair[:n - 1, :m]
                np.take(pflat, ix[:n - 1], out=pb)
                np.sum(pb, axis=0, out=psum[p, :m])
        yield s, g, sp, (psum[:, :m] if psum is not None else None)


def logsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    """ln Σ exp(a) along `axis` (−inf where every term is −inf)."""
    mx = a.max(axis=axis, keepdims=True)
    mx[~np.isfinite(mx)] = 0.0
    with np.errstate(divide="ignore"):
        out = np.log(np.exp(a - mx).sum(axis=axis))
    return out + np.squeeze(mx, axis=axis)


def inverse_normalise(v: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Along axis 0: normalise to sum 1, replace each value by 1 − value, normalise to sum 1
    again — IWAODE's step 3 (§4.14): low values → high weights. Entries outside `mask` (same
    shape) take no part and get weight 0. A sum of 0 (a single entry, or all values 0) gives
    equal weights: our convention, a case the authors' code never meets."""
    if mask is None:
        mask = np.ones(v.shape, dtype=bool)
    k = np.maximum(mask.sum(axis=0), 1)

    def norm(a):
        a = np.where(mask, a, 0.0)
        s = a.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(mask, np.where(s != 0, a / s, 1.0 / k), 0.0)

    return norm(1.0 - norm(v))


class TAODE(AODE):
    """TAODE — "Targeted AODE", a reconstruction (ALGORITHMS.md §4.13; low confidence).

    Source cited by S004 (its reference [31]): L. Wang, S. Chen, Y. Liu, "Self-adaptive attribute
    value weighting for averaged one-dependence estimators", IEEE Access 8:27887–27900, 2020. S004
    describes TAODE only as using the log-likelihood to give different SPODEs different weights per
    test instance; this is our reading, not the authors' algorithm:

        P(y | x) ∝ Σ_{p∈Q(x)} w_p(x) P_p(y, x),   P_p(y, x) = P̂(y, x_p) Π_{c≠p} P̂(x_c | y, x_p),

    with `taode_weight="likelihood"` (the spec's reading): w_p(x) ∝ Σ_y P_p(y, x), normalised
    over Q(x) by log-sum-exp (Bayesian model averaging over the SPODEs, uniform prior, the
    instance itself as evidence). Everything is computed in log space. Q(x) and the estimates are
    AODE's (§4.4): superparents whose value occurs at least `min_freq` times in training (never a
    missing value under missing="skip", where a missing child is left out of the product); naive
    Bayes when Q(x) is empty. Both missing modes are supported.

    Parameters
    ----------
    estimator, m, missing, cardinalities, n_classes
        As in `BayesNetClassifier`.
    min_freq : int, default=1
        AODE's minimum frequency of a superparent's value (§4.4).
    taode_weight : {"likelihood", "log_likelihood", "uniform"}, default="likelihood"
        The open choice of the reconstruction. "likelihood": w_p ∝ Σ_y P_p(y, x).
        "log_likelihood": IWAODE's normalisation (§4.14 step 3) applied to the negative
        log-likelihoods −ln Σ_y P_p(y, x) over Q(x) (normalise, 1 − value, normalise: a less
        likely SPODE gets less weight) — an alternative reading of "uses log likelihood".
        "uniform": w_p = 1/|Q(x)|, which is AODE (an ablation).
    """

    PARAM_CHOICES = {**AODE.PARAM_CHOICES, "taode_weight": ("likelihood", "log_likelihood", "uniform")}

    def __init__(self, estimator="mestimate", m=1.0, missing="value", cardinalities=None,
                 n_classes=None, min_freq: int = 1, taode_weight: str = "likelihood"):
        super().__init__(estimator, m, missing, cardinalities, n_classes, min_freq)
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
                rows = Xc[s + none]
                nb = np.tile(self.log_prior_, (none.size, 1))
                for i, t in enumerate(self.nb_):
                    nb += t[rows[:, i]]
                out[s + none] = nb
        return out
