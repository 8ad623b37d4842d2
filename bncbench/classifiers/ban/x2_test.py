"""The calibrated conditional-independence test of paper 002's BAN (docs/algorithms.md §4.7, "CI
test"): Pearson's X² of X_i ⊥ X_j within the strata of (Z, Y), with the permutation-mean degrees of
freedom, a rows-per-df sufficiency rule and a p-value whose logarithm does not underflow.

A reconstruction of PowerConstructor's unpublished "degrees-of-freedom filter" (Cheng et al. 2002,
§5.4.3), flagged in the spec's uncertainty register."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaincc

from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.kernels.ties import tie_value

_LOG_P_DIRECT = 1e-250  # below this p, ln p comes from the continued fraction (no underflow)


def log_chi2_sf(x2: float, df: float) -> float:
    """ln P(χ²_df ≥ x2) for real df > 0: ln Q(df/2, x2/2), the regularised upper incomplete gamma.

    Where Q is ≥ 1e-250 it is scipy's `gammaincc`; below, the Lentz continued fraction of
    Q(a, x) = e^{−x} x^a / Γ(a) · 1/(x + 1 − a − 1·(1 − a)/(x + 3 − a − 2·(2 − a)/(x + 5 − a − …)))
    in log form (it converges fast there, since such a p needs x far above a + 1)."""
    if x2 <= 0.0:
        return 0.0
    a, x = 0.5 * df, 0.5 * x2
    q = float(gammaincc(a, x))
    if q >= _LOG_P_DIRECT:
        return math.log(q)
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for k in range(1, 10_000):
        an = -k * (k - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return -x + a * math.log(x) - math.lgamma(a) + math.log(h)


@dataclass(frozen=True)
class X2Outcome:
    """One test's result: `independent`, its ranking key κ = (−ln p, X²) after the tie rounding of
    §0.3 (smaller = less dependent), and whether the data sufficed (`informative`)."""

    independent: bool
    key: tuple[float, float]
    informative: bool
    x2: float
    df: float
    log_p: float


class X2Test:
    """T(i, j | Z): is X_i ⊥ X_j | Z ∪ {Y}? (§4.7 items 1–7), each distinct test computed once.

    Counting: the strata are numbered by extending the class's numbering with Z's attributes in
    ascending order, one `bincount` per attribute (`EntropyTerms.extend`; rows of configurations
    met once dropped at every step, prefixes cached), so a test's cost falls with the rows its
    strata keep. Per test one `bincount` of (stratum, a, b) gives the table when it is dense;
    otherwise the (stratum, a) pairs met are numbered first and only non-zero cells are counted.
    Every term of X² is non-negative (no cancellation costs digits): over the observed values
    (n_s·n_sab − n_sa·n_sb)² / (n_s·n_sa·n_sb), and in the sparse form the zero cells' expected
    counts as one term per stratum, (n_s² − Σ_{n_sab > 0} n_sa·n_sb) / n_s (an integer numerator)."""

    DENSE_CELLS_PER_ROW = 4  # a dense table up to this many cells per counted row
    _CACHE_ELEMENTS = 1 << 22  # rows kept for the numberings of conditioning sets (≈ 50 MB)

    def __init__(self, terms: EntropyTerms, alpha: float = 0.01, min_rows_per_df: float = 5.0):
        self.T = terms
        self.alpha = alpha
        self.min_rows_per_df = min_rows_per_df
        self.cache: dict[tuple[int, int, tuple[int, ...]], X2Outcome] = {}
        self._strata: OrderedDict[tuple[int, ...], tuple[np.ndarray, np.ndarray, int]] = OrderedDict()
        self._elements = 0
        y = terms._y
        self._by_class = (None, y, terms.n_classes)
        self._pairs: dict[tuple[int, int], np.ndarray] = {}

    @property
    def distinct_tests(self) -> int:
        return len(self.cache)

    @property
    def tests_lacking_data(self) -> int:
        return sum(not o.informative for o in self.cache.values())

    def strata(self, Z: tuple[int, ...]) -> tuple[np.ndarray | None, np.ndarray, int]:
        """(rows, their stratum numbers, number of strata) of the (Z, Y)-configurations: the class
        numbering extended by Z's attributes in ascending order (prefixes cached, oldest dropped
        first). `rows` None means every row. Configurations met once may stay numbered (they are
        inactive strata, which count nowhere); once they hold a quarter of the rows they are
        dropped, so that deep conditioning sets on few rows cost little."""
        if not Z:
            return self._by_class
        got = self._strata.get(Z)
        if got is None:
            got = self._extend(self.strata(Z[:-1]), Z[-1])
            size = got[1].size
            while self._strata and self._elements + size > self._CACHE_ELEMENTS:
                self._elements -= self._strata.popitem(last=False)[1][1].size
            self._strata[Z] = got
            self._elements += size
        return got

    def _extend(self, numbering: tuple[np.ndarray | None, np.ndarray, int], a: int):
        rows, ids, g = numbering
        r = int(self.T.sizes[a])
        code = ids * r + (self.T._cols[a] if rows is None else self.T._cols[a][rows])
        occ = np.bincount(code, minlength=g * r)
        if 4 * np.count_nonzero(occ == 1) > code.size:  # drop the rows of configurations met once
            shared = occ > 1
            keep = shared[code]
            number = np.cumsum(shared) - 1
            kept = np.flatnonzero(keep) if rows is None else rows[keep]
            return kept, number[code[keep]], int(number[-1]) + 1
        number = np.cumsum(occ > 0) - 1
        return rows, number[code], int(number[-1]) + 1

    def _pair(self, i: int, j: int) -> np.ndarray:
        """x_i·|X_j| + x_j for every row (cached per pair: a pair is tested with many Z)."""
        got = self._pairs.get((i, j))
        if got is None:
            if len(self._pairs) * self.T.n > self._CACHE_ELEMENTS:
                self._pairs.clear()
            got = self.T._cols[i] * int(self.T.sizes[j]) + self.T._cols[j]
            self._pairs[(i, j)] = got
        return got

    def __call__(self, i: int, j: int, Z: tuple[int, ...]) -> X2Outcome:
        key = (i, j, Z) if i < j else (j, i, Z)
        out = self.cache.get(key)
        if out is None:
            out = self._compute(key[0], key[1], Z)
            self.cache[key] = out
        return out

    def statistic(self, i: int, j: int, Z: tuple[int, ...]) -> tuple[float, float, float, bool]:
        """(X², df, n_inf, some stratum active) of items 1–3."""
        rows, s, g = self.strata(Z)
        ri, rj = int(self.T.sizes[i]), int(self.T.sizes[j])
        pair = self._pair(i, j)
        code = s * (ri * rj) + (pair if rows is None else pair[rows])
        if g * ri * rj <= self.DENSE_CELLS_PER_ROW * code.size + 256:  # a dense (stratum, a, b) table
            n_ab = np.bincount(code, minlength=g * ri * rj).reshape(g, ri, rj)
            n_a = n_ab.sum(axis=2)
            n_b = n_ab.sum(axis=1)
            d_s = np.maximum((n_a > 0).sum(axis=1) - 1, 0) * np.maximum((n_b > 0).sum(axis=1) - 1, 0)
            if not d_s.any():
                return 0.0, 0.0, 0.0, False
            n_s = n_a.sum(axis=1)
            # every cell of an observed row and column; cells off them have e = 0 and dev = 0 (and
            # a denominator of 1); inactive strata give dev = 0 exactly (integer arithmetic); a
            # class without rows is an empty stratum
            e = n_a[:, :, None] * n_b[:, None, :]  # n_s·e_sab
            dev = (n_s[:, None, None] * n_ab - e).astype(np.float64)
            x2 = float(np.sum(dev * dev / (np.maximum(n_s, 1)[:, None, None] * (e + (e == 0)))))
            nsf = n_s.astype(np.float64)
            return x2, float(np.dot(d_s, nsf / np.maximum(nsf - 1.0, 1.0))), float(np.dot(d_s > 0, nsf)), True
        else:  # sparse: number the (stratum, a) pairs met, then count only the non-zero cells
            rb = rj
            ka = code // rb  # stratum·|X_i| + a
            n_a = np.bincount(ka, minlength=g * ri)
            kb = (code // (ri * rj)) * rj + code % rj
            n_b = np.bincount(kb, minlength=g * rj)
            n_s = n_a.reshape(g, ri).sum(axis=1)
            a_seen = np.flatnonzero(n_a)
            d_s = (np.maximum(np.bincount(a_seen // ri, minlength=g) - 1, 0)
                   * np.maximum(np.bincount(np.flatnonzero(n_b) // rj, minlength=g) - 1, 0))
            active = d_s > 0
            if not active.any():
                return 0.0, 0.0, 0.0, False
            a_number = np.zeros(g * ri, dtype=np.int64)
            a_number[a_seen] = np.arange(a_seen.size)
            n_ab = np.bincount(a_number[ka] * rj + code % rj, minlength=a_seen.size * rj)
            cells = np.flatnonzero(n_ab)
            sa = a_seen[cells // rj]
            st = sa // ri
            n = n_ab[cells].astype(np.float64)
            na = n_a[sa].astype(np.float64)
            nb = n_b[st * rj + cells % rj].astype(np.float64)
            nsc = n_s[st].astype(np.float64)
            dev = nsc * n - na * nb
            observed = np.bincount(st, weights=dev * dev / (nsc * na * nb), minlength=g)
            # the zero cells' expected counts, Σ e_sab = (n_s² − Σ_{n_sab > 0} n_sa·n_sb) / n_s
            nab_sum = np.bincount(st, weights=na * nb, minlength=g)
            nsf = n_s.astype(np.float64)
            with np.errstate(divide="ignore", invalid="ignore"):
                x2 = float(np.sum((observed + (nsf * nsf - nab_sum) / nsf)[active]))
        nsf = n_s[active].astype(np.float64)
        df = float(np.sum(nsf / (nsf - 1.0) * d_s[active]))
        return x2, df, float(nsf.sum()), True

    def _compute(self, i: int, j: int, Z: tuple[int, ...]) -> X2Outcome:
        x2, df, n_inf, active = self.statistic(i, j, Z)
        informative = active and n_inf >= self.min_rows_per_df * df * (1.0 - 1e-12)
        log_p = log_chi2_sf(x2, df) if informative else 0.0
        p = float(gammaincc(0.5 * df, 0.5 * x2)) if informative and x2 > 0.0 else 1.0
        return X2Outcome(independent=p >= self.alpha,
                         key=(tie_value(-log_p), tie_value(x2)), informative=bool(informative), x2=x2, df=df, log_p=log_p)
