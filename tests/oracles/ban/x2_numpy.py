"""The numpy X² test of BAN before the compiled kernel (issue 28), kept as the kernel's reference:
the same tests, counted by numpy's bincount and matrix products (docs/algorithms.md §4.7)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaincc

from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.ban.x2_independence import X2Outcome, log_gamma_sf
from bncbench.classifiers.kernels.ties import tie_value

Numbering = tuple[np.ndarray | None, np.ndarray, int]  # (items or None = all, stratum of each, strata)


@dataclass
class _Domain:
    """What a test counts over: the training rows, or the distinct rows of a frame (weighted)."""

    column: Callable[[int], np.ndarray]  # attribute → its values over the items
    base: Numbering                      # the class's numbering of the items
    weights: np.ndarray | None           # rows per item (None: one each)
    cache: dict[tuple[int, ...], Numbering]  # conditioning set → its numbering


@dataclass
class _Frame:
    """The distinct rows of (C0, Y, X_i, X_j) with their counts: every test of one Greedy call is
    on (i, j) and a subset of C0, and is counted over these instead of the training rows."""

    i: int
    j: int
    C0: frozenset
    domain: _Domain
    pair: np.ndarray  # x_i·|X_j| + x_j of each distinct row


class NumpyX2Test:
    """T(i, j | Z): is X_i ⊥ X_j | Z ∪ {Y}? (§4.7 items 1–7), each distinct test computed once."""

    DROP_SINGLETONS = 0.25  # drop the rows of configurations met once when they are this share of the rows
    DENSE_CELLS_PER_ROW = 4  # a dense table up to this many cells per counted item
    _CACHE_ELEMENTS = 1 << 22  # rows kept for the numberings of conditioning sets (≈ 50 MB)

    def __init__(self, terms: EntropyTerms, alpha: float = 0.01, min_rows_per_df: float = 5.0):
        self.T = terms
        self.alpha = alpha
        self.min_rows_per_df = min_rows_per_df
        self.cache: dict[tuple[int, int, tuple[int, ...]], X2Outcome] = {}
        self._rows_cache: OrderedDict[tuple[int, ...], Numbering] = OrderedDict()  # the rows' domain's cache
        self._rows = _Domain(lambda a: terms._cols[a], (None, terms._y, terms.n_classes), None, self._rows_cache)
        self._elements = 0
        self._frame: _Frame | None = None
        self._pairs: dict[tuple[int, int], np.ndarray] = {}
        self._ones_cache: dict[int, np.ndarray] = {}

    @property
    def distinct_tests(self) -> int:
        return len(self.cache)

    @property
    def tests_lacking_data(self) -> int:
        return sum(not o.informative for o in self.cache.values())

    # -- the tests --------------------------------------------------------------------------------

    def __call__(self, i: int, j: int, Z: tuple[int, ...]) -> X2Outcome:
        return self.many(i, j, [Z])[0]

    def many(self, i: int, j: int, Zs: list[tuple[int, ...]]) -> list[X2Outcome]:
        """The tests T(i, j | Z) for each Z (sorted tuples), the uncached ones computed together
        (several: over the frame of their union)."""
        if i > j:
            i, j = j, i
        new = [Z for Z in dict.fromkeys(Zs) if (i, j, Z) not in self.cache]
        if new:
            for Z, stat in zip(new, self.statistics(i, j, new, frame=len(Zs) > 1)):
                self.cache[(i, j, Z)] = self._outcome(*stat)
        return [self.cache[(i, j, Z)] for Z in Zs]

    def leave_one_out(self, i: int, j: int, C: tuple[int, ...]) -> list[X2Outcome]:
        """The tests T(i, j | C ∖ {C[k]}) for k = 0, 1, … (one Greedy step), by `many`."""
        return self.many(i, j, [C[:k] + C[k + 1:] for k in range(len(C))])

    def statistic(self, i: int, j: int, Z: tuple[int, ...]) -> tuple[float, float, float, bool]:
        """(X², df, n_inf, some stratum active) of items 1–3."""
        return self.statistics(i, j, [Z])[0]

    def statistics(self, i: int, j: int, Zs: list[tuple[int, ...]],
                   frame: bool = False) -> list[tuple[float, float, float, bool]]:
        """`statistic` of several conditioning sets; with `frame`, counted over the distinct rows of
        their union (the current frame, if it holds them all)."""
        ri, rj = int(self.T.sizes[i]), int(self.T.sizes[j])
        f = self._frame
        if frame or (f is not None and (f.i, f.j) == (i, j) and all(f.C0.issuperset(Z) for Z in Zs)):
            if f is None or (f.i, f.j) != (i, j) or not all(f.C0.issuperset(Z) for Z in Zs):
                f = self._frame = self._make_frame(i, j, sorted(set().union(*Zs)))
            domain, pair = f.domain, f.pair
        else:
            domain, pair = self._rows, self._pair(i, j)
        nums = self._strata_many(domain, Zs)
        out: list = [None] * len(Zs)
        dense: list[int] = []
        sparse: list[int] = []
        for k, (_, s, g) in enumerate(nums):
            if g == 0:
                out[k] = (0.0, 0.0, 0.0, False)
            else:
                (dense if g * ri * rj <= self.DENSE_CELLS_PER_ROW * s.size + 256 else sparse).append(k)
        for ks, count in ((dense, self._dense), (sparse, self._sparse)):
            if ks:
                for k, stat in zip(ks, count([nums[k] for k in ks], ri, rj, pair, domain.weights)):
                    out[k] = stat
        return out

    def _make_frame(self, i: int, j: int, C0: list[int]) -> _Frame:
        """The distinct rows of (C0, Y, X_i, X_j): the class's numbering extended by C0's attributes
        and the pair, configurations met once kept; one representative row each."""
        T = self.T
        ids, g = T._y, T.n_classes
        for col, r in [(T._cols[a], int(T.sizes[a])) for a in C0] + [(self._pair(i, j), int(T.sizes[i] * T.sizes[j]))]:
            code = ids * r + col
            occ = np.bincount(code, minlength=g * r)
            number = np.cumsum(occ > 0) - 1
            ids, g = number[code], int(number[-1]) + 1
        rep = np.empty(g, dtype=np.int64)
        rep[ids] = np.arange(T.n)
        values = {a: T._cols[a][rep] for a in C0}
        domain = _Domain(values.__getitem__, (None, T._y[rep], T.n_classes),
                         np.bincount(ids, minlength=g).astype(np.float64), {})
        return _Frame(i, j, frozenset(C0), domain, self._pair(i, j)[rep])

    # -- numbering of the strata ------------------------------------------------------------------

    def strata(self, Z: tuple[int, ...]) -> Numbering:
        """(rows, their stratum numbers, number of strata) of the (Z, Y)-configurations over the
        training rows. `rows` None means every row. Configurations met once may stay numbered (they
        are inactive strata, which count nowhere)."""
        return self._strata_many(self._rows, [Z])[0]

    def _strata_many(self, d: _Domain, Zs: list[tuple[int, ...]]) -> list[Numbering]:
        """The numbering of each Z over the domain's items: the longest cached prefix extended one
        attribute at a time, the extensions of one position done in one batch."""
        out: dict[tuple[int, ...], Numbering] = {}
        todo: dict[tuple[int, ...], tuple[int, Numbering]] = {}  # Z → (prefix length reached, its numbering)
        for Z in Zs:
            if Z in out or Z in todo:
                continue
            got = d.cache.get(Z) if Z else d.base
            if got is not None:
                out[Z] = got
                continue
            k = len(Z) - 1
            while k > 0 and (got := d.cache.get(Z[:k])) is None:
                k -= 1
            todo[Z] = (k, got if k > 0 and got is not None else d.base)  # k > 0: got was found
        while todo:
            steps: dict[tuple[int, ...], Numbering] = {}  # the next prefix of each set, shared prefixes extended once
            for Z, (k, num) in todo.items():
                steps.setdefault(Z[:k + 1], num)
            done = dict(zip(steps, self._extend_many(d, [(num, key[-1]) for key, num in steps.items()])))
            for key, num in done.items():
                self._store(d, key, num)
            nxt = {}
            for Z, (k, _) in todo.items():
                if k + 1 == len(Z):
                    out[Z] = done[Z]
                else:
                    nxt[Z] = (k + 1, done[Z[:k + 1]])
            todo = nxt
        return [out[Z] for Z in Zs]

    def _store(self, d: _Domain, Z: tuple[int, ...], num: Numbering) -> None:
        if d is self._rows:  # the rows' cache is bounded (oldest dropped first); a frame's lives with it
            size = num[1].size
            while d.cache and self._elements + size > self._CACHE_ELEMENTS:
                self._elements -= self._rows_cache.popitem(last=False)[1][1].size
            self._elements += size
        d.cache[Z] = num

    def _extend_many(self, d: _Domain, jobs: list[tuple[Numbering, int]]) -> list[Numbering]:
        """Each numbering extended by its attribute, all in one `bincount` (§4.7)."""
        codes, wts, bases, base = [], [], [], 0
        for (items, ids, g), a in jobs:
            r = int(self.T.sizes[a])
            col = d.column(a)
            codes.append(ids * r + (col if items is None else col[items]) + base)
            if d.weights is not None:
                wts.append(d.weights if items is None else d.weights[items])
            bases.append(base)
            base += g * r
        bases.append(base)
        code = codes[0] if len(codes) == 1 else np.concatenate(codes)
        if d.weights is None:
            occ = np.bincount(code, minlength=base)
        else:
            occ = np.bincount(code, weights=wts[0] if len(wts) == 1 else np.concatenate(wts), minlength=base)
        seen = np.concatenate(([0], np.cumsum(occ > 0)))  # configurations numbered before each cell
        shared = np.concatenate(([0], np.cumsum(occ > 1)))
        out = []
        start = 0
        for k, ((items, _, g), _a) in enumerate(jobs):
            part = code[start:start + codes[k].size]
            start += codes[k].size
            b0, b1 = bases[k], bases[k + 1]
            singles = (seen[b1] - seen[b0]) - (shared[b1] - shared[b0])
            if g == 0:
                out.append((items, part, 0))
            elif singles and (d.weights is not None or singles > self.DROP_SINGLETONS * part.size):
                keep = occ[part] > 1  # drop the items of configurations met once
                kept = np.flatnonzero(keep) if items is None else items[keep]
                out.append((kept, shared[part[keep]] - shared[b0], int(shared[b1] - shared[b0])))
            else:
                out.append((items, seen[part] - seen[b0], int(seen[b1] - seen[b0])))
        return out

    # -- the tables -------------------------------------------------------------------------------

    def _ones(self, k: int) -> np.ndarray:
        got = self._ones_cache.get(k)
        if got is None:
            got = self._ones_cache[k] = np.ones(k)
        return got

    def _pair(self, i: int, j: int) -> np.ndarray:
        """x_i·|X_j| + x_j for every row (cached per pair: a pair is tested with many Z)."""
        got = self._pairs.get((i, j))
        if got is None:
            if len(self._pairs) * self.T.n > self._CACHE_ELEMENTS:
                self._pairs.clear()
            got = self.T._cols[i] * int(self.T.sizes[j]) + self.T._cols[j]
            self._pairs[(i, j)] = got
        return got

    def _dense(self, nums: list[Numbering], ri: int, rj: int, pair: np.ndarray,
               weights: np.ndarray | None) -> list[tuple[float, float, float, bool]]:
        """Dense (stratum, a, b) tables of several tests, stacked (strata offset test by test):
        counts as floats (exact: integers below 2^53), margins and per-stratum sums by matrix
        products, per-test sums by `reduceat` over each test's own strata."""
        R = ri * rj
        code, w, g_of = self._stack(nums, R, pair, weights)
        G = sum(g_of)
        n_ab = np.bincount(code, weights=w, minlength=G * R).astype(np.float64, copy=False).reshape(G, ri, rj)
        n_a = n_ab @ self._ones(rj)
        n_b = self._ones(ri) @ n_ab
        n_s = n_a @ self._ones(ri)
        d_s = (np.maximum((n_a > 0) @ self._ones(ri) - 1.0, 0.0) * np.maximum((n_b > 0) @ self._ones(rj) - 1.0, 0.0))
        # every cell of an observed row and column; cells off them have e = 0 and dev = 0 (and a
        # denominator of 1); inactive strata give dev = 0 exactly (integer arithmetic); a class
        # without rows is an empty stratum
        e = n_a[:, :, None] * n_b[:, None, :]  # n_s·e_sab
        ns = n_s[:, None, None]
        dev = ns * n_ab - e
        x2_s = (dev * dev / (np.maximum(ns, 1.0) * (e + (e == 0)))).reshape(G, R) @ self._ones(R)
        return self._per_test(g_of, x2_s, d_s, n_s)

    def _sparse(self, nums: list[Numbering], ri: int, rj: int, pair: np.ndarray,
                weights: np.ndarray | None) -> list[tuple[float, float, float, bool]]:
        """Several tests' statistics from their non-zero cells, stacked like `_dense`: the
        (stratum, a) pairs met are numbered first, then the cells; per-test sums by `reduceat`."""
        R = ri * rj
        code, w, g_of = self._stack(nums, R, pair, weights)
        G = sum(g_of)
        ka = code // rj  # stratum·|X_i| + a
        b = code % rj
        n_a = np.bincount(ka, weights=w, minlength=G * ri).astype(np.float64, copy=False)
        n_b = np.bincount((code // R) * rj + b, weights=w, minlength=G * rj).astype(np.float64, copy=False)
        n_s = n_a.reshape(G, ri) @ self._ones(ri)
        a_seen = np.flatnonzero(n_a)
        d_s = (np.maximum(np.bincount(a_seen // ri, minlength=G) - 1, 0)
               * np.maximum(np.bincount(np.flatnonzero(n_b) // rj, minlength=G) - 1, 0))
        a_number = np.zeros(G * ri, dtype=np.int64)
        a_number[a_seen] = np.arange(a_seen.size)
        n_ab = np.bincount(a_number[ka] * rj + b, weights=w, minlength=a_seen.size * rj)
        cells = np.flatnonzero(n_ab)
        sa = a_seen[cells // rj]
        st = sa // ri
        n = n_ab[cells].astype(np.float64, copy=False)
        na = n_a[sa]
        nb = n_b[st * rj + cells % rj]
        nsc = n_s[st]
        dev = nsc * n - na * nb
        observed = np.bincount(st, weights=dev * dev / (nsc * na * nb), minlength=G)
        # the zero cells' expected counts, Σ e_sab = (n_s² − Σ_{n_sab > 0} n_sa·n_sb) / n_s
        nab_sum = np.bincount(st, weights=na * nb, minlength=G)
        active = d_s > 0
        x2_s = np.where(active, observed + (n_s * n_s - nab_sum) / np.maximum(n_s, 1.0), 0.0)
        return self._per_test(g_of, x2_s, d_s, n_s)

    def _stack(self, nums: list[Numbering], R: int, pair: np.ndarray,
               weights: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None, list[int]]:
        """The (stratum, pair) codes of several tests' items, strata offset test by test, their
        weights, and each test's number of strata."""
        codes, wts, g_of, off = [], [], [], 0
        for items, s, g in nums:
            codes.append((s + off) * R + (pair if items is None else pair[items]))
            if weights is not None:
                wts.append(weights if items is None else weights[items])
            off += g
            g_of.append(g)
        code = codes[0] if len(codes) == 1 else np.concatenate(codes)
        w = None if weights is None else wts[0] if len(wts) == 1 else np.concatenate(wts)
        return code, w, g_of

    @staticmethod
    def _per_test(g_of: list[int], x2_s: np.ndarray, d_s: np.ndarray,
                  n_s: np.ndarray) -> list[tuple[float, float, float, bool]]:
        """(X², df, n_inf, active) per test from per-stratum values (each test's strata in a row)."""
        starts = np.concatenate(([0], np.cumsum(g_of[:-1]))).astype(np.int64)
        active = d_s > 0
        x2 = np.add.reduceat(x2_s, starts)
        df = np.add.reduceat(np.where(active, n_s / np.maximum(n_s - 1.0, 1.0), 0.0) * d_s, starts)
        n_inf = np.add.reduceat(active * n_s, starts)
        any_active = np.add.reduceat(active, starts) > 0
        return [(float(x2[k]), float(df[k]), float(n_inf[k]), True) if any_active[k] else (0.0, 0.0, 0.0, False)
                for k in range(len(g_of))]

    def _outcome(self, x2: float, df: float, n_inf: float, active: bool) -> X2Outcome:
        """Items 4–6: the sufficiency rule, the decision and the ranking key."""
        informative = active and n_inf >= self.min_rows_per_df * df * (1.0 - 1e-12)
        log_p = log_gamma_sf(0.5 * df, 0.5 * x2, float(gammaincc(0.5 * df, 0.5 * x2))) \
            if informative and x2 > 0.0 else 0.0
        p = float(gammaincc(0.5 * df, 0.5 * x2)) if informative and x2 > 0.0 else 1.0
        return X2Outcome(independent=p >= self.alpha, key=(tie_value(-log_p), tie_value(x2)),
                         informative=bool(informative), x2=x2, df=df, log_p=log_p)
