"""Entropy terms T(S) = Σ N(s, y) ln N(s, y) of attribute sets with the class, the counting behind
the BAN structure scores and CI tests of paper 002's baselines (docs/algorithms.md §4.7), and CMI values
whose comparisons are exact on near ties."""

from __future__ import annotations

import functools
import math
import numbers
import operator
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, cast

import numpy as np


def _exact_comparison(op):
    def compare(self: CMIValue, other) -> bool:
        if not isinstance(other, (CMIValue, numbers.Real)):
            return NotImplemented
        return op(*self._pair(other))
    return compare


class CMIValue(float):
    """A conditional mutual information (a float: its fast value) whose comparisons are exact (§0.3, §4.7)."""

    TOL = 1e-9
    __slots__ = ("_exact", "_thunk")
    _exact: float | None
    _thunk: Callable[[], float]

    def __new__(cls, approx: float, thunk) -> CMIValue:
        self = super().__new__(cls, approx)
        self._exact = None
        self._thunk = thunk
        return self

    @property
    def approx(self) -> float:
        return float.__float__(self)

    def exact(self) -> float:
        if self._exact is None:
            self._exact = self._thunk()
        return self._exact

    def _pair(self, other) -> tuple[float, float]:
        if isinstance(other, CMIValue):
            if abs(self.approx - other.approx) > self.TOL:
                return self.approx, other.approx
            return self.exact(), other.exact()
        o = float(other)
        if abs(self.approx - o) > self.TOL:
            return self.approx, o
        return self.exact(), o

    __eq__ = _exact_comparison(operator.eq)
    __ne__ = _exact_comparison(operator.ne)
    __lt__ = _exact_comparison(operator.lt)
    __le__ = _exact_comparison(operator.le)
    __gt__ = _exact_comparison(operator.gt)
    __ge__ = _exact_comparison(operator.ge)

    def __neg__(self) -> CMIValue:
        return CMIValue(-self.approx, lambda: -self.exact())

    __hash__ = None  # type: ignore[assignment]  # float's hash dropped: equality is exact-on-near-ties, not hashable

    def __repr__(self) -> str:
        return f"CMIValue({self.approx!r})"


class EntropyTerms:
    """T(S) = Σ_cells N(s, y) ln N(s, y) over the configurations of attribute set S and the class, cached (§4.7)."""

    _ID_CACHE_ELEMENTS = 1 << 23  # rows kept for prefixes (int32 row index + int64 number: 96 MB)

    def __init__(self, Xc: np.ndarray, y: np.ndarray, sizes: np.ndarray, n_classes: int):
        self.Xc, self.y, self.sizes, self.n_classes = Xc, y, sizes, n_classes
        self.n = Xc.shape[0]
        self._cols = [np.ascontiguousarray(Xc[:, a], dtype=np.int64) for a in range(Xc.shape[1])]
        self._y = np.asarray(y, dtype=np.int64)
        # x_a·|Y| + y: a row per attribute (the compiled kernel reads the matrix)
        self._cols_y_matrix = np.array([c * n_classes + self._y for c in self._cols]).reshape(len(self._cols), self.n)
        self._cols_y = list(self._cols_y_matrix)
        v = np.arange(self.n + 1, dtype=np.float64)
        self._xlogx = v * np.log(np.maximum(v, 1.0))  # v ln v, 0 at v = 0
        self._cache: dict[tuple[int, ...], float] = {}
        self._ids: OrderedDict[tuple[int, ...], tuple[np.ndarray, np.ndarray, int]] = OrderedDict()
        self._id_elements = 0
        self._all = (np.arange(self.n, dtype=np.int32), np.zeros(self.n, dtype=np.int64), 1)
        self._scratch: Any = None  # `extensions`' compiled kernel's working memory, once needed
        self._radix = np.asarray(sizes, dtype=np.int64) * n_classes  # values of x_a·|Y| + y per attribute

    def extend(self, groups: tuple[np.ndarray, np.ndarray, int], a: int) -> tuple[np.ndarray, np.ndarray, int]:
        """The numbering of a set's configurations extended by attribute a, rows of configurations
        met once dropped."""
        rows, prev, g = groups
        r = int(self.sizes[a])
        code = prev * r + self._cols[a][rows]
        occ = np.bincount(code, minlength=g * r)
        shared = occ[code] > 1
        number = np.cumsum(occ > 1) - 1
        return rows[shared], number[code[shared]], int(number[-1]) + 1 if number.size else 0

    def groups(self, key: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, int]:
        """(rows whose configuration of the sorted attributes `key` occurs more than once, their
        configuration numbers, number of such configurations)."""
        if not key:
            return self._all
        got = self._ids.get(key)
        if got is not None:
            return got
        got = self.extend(self.groups(key[:-1]), key[-1])
        while self._ids and self._id_elements + got[0].size > self._ID_CACHE_ELEMENTS:
            self._id_elements -= self._ids.popitem(last=False)[1][0].size
        self._ids[key] = got
        self._id_elements += got[0].size
        return got

    def _hist(self, key: tuple[int, ...]) -> np.ndarray:
        """m_v: number of (configuration of `key`, class) cells with count v (v ≥ 2; rows of
        configurations met once are not numbered)."""
        rows, ids, g = self.groups(key)
        cells = np.bincount(ids * self.n_classes + self._y[rows], minlength=g * self.n_classes)
        hist = np.bincount(cells)
        hist[:2] = 0
        return hist

    def exact_cmi(self, i: int, j: int, Z: tuple[int, ...]) -> float:
        """I(X_i; X_j | Z, Y) in nats from its exact form Σ_p e_p·ln p (see `CMIValue`)."""
        Z = tuple(sorted(Z))
        hists = [(self._hist(tuple(sorted(Z + e))), sign) for e, sign in (((i, j), 1), ((i,), -1), ((j,), -1), ((), 1))]
        k = np.zeros(max(h.size for h, _ in hists), dtype=np.int64)
        for h, sign in hists:
            k[:h.size] += sign * h
        e: dict[int, int] = {}
        for v in np.flatnonzero(k).tolist():
            coef = int(k[v]) * v  # k_v·v·ln v = Σ over v's prime factors p: k_v·v·ln p
            rest = v
            while rest > 1:
                p = int(self._least_prime[rest])
                e[p] = e.get(p, 0) + coef
                rest //= p
        return math.fsum(c * math.log(p) for p, c in sorted(e.items()) if c) / self.n

    def entropy(self, groups: tuple[np.ndarray, np.ndarray, int], a: int | None = None) -> float:
        """T of the numbered set (extended by attribute a, if given)."""
        rows, ids, g = groups
        C = self.n_classes
        if a is None:
            cells = np.bincount(ids * C + self._y[rows], minlength=g * C)
        else:
            r = int(self.sizes[a])
            if g * r * C > 4 * rows.size + 256:  # a sparse space: number the extension first
                return self.entropy(self.extend(groups, a))
            cells = np.bincount(ids * (r * C) + self._cols_y[a][rows], minlength=g * r * C)
        hist = np.bincount(cells)
        return float(np.sum(hist[1:] * self._xlogx[1:hist.size]))

    def extensions(self, groups: tuple[np.ndarray, np.ndarray, int], attrs: list[int]) -> list[float]:
        """T of the numbered set extended by each attribute of `attrs` (none in the set): the same
        floats as `entropy(groups, a)`, counted by one compiled call."""
        from bncbench.classifiers.ban import entropy_kernels

        if self._scratch is None:
            self._scratch = entropy_kernels.Scratch(self.n, int(self.sizes.max(initial=1)) * self.n_classes)
        rows, ids, g = groups
        out = np.empty(len(attrs))
        s = self._scratch
        entropy_kernels.extension_terms(self._cols_y_matrix, rows, ids, g, np.array(attrs, dtype=np.int64),
                                        self._xlogx, out, s.start, s.order, s.cnt, s.touched, s.hist, s.terms,
                                        s.stack, s.sums, s.tables, s.small, self._radix)
        return out.tolist()

    def learn(self, attrs, value: float) -> None:
        """T(attrs) counted elsewhere from the same data (the same float as `self(attrs)`), cached."""
        self._cache.setdefault(tuple(sorted(attrs)), value)

    def __call__(self, attrs) -> float:
        key = tuple(sorted(attrs))
        t = self._cache.get(key)
        if t is None:
            if not key or key in self._ids:
                t = self.entropy(self.groups(key))
            else:  # counted from its prefix's numbering, not numbered itself: the same float
                t = self.extensions(self.groups(key[:-1]), [key[-1]])[0]
            self._cache[key] = t
        return t

    @functools.cached_property
    def _least_prime(self) -> np.ndarray:
        """Least prime factor of 0..N (sieve)."""
        lp = np.arange(self.n + 1, dtype=np.int64)  # a number not marked by a smaller prime is prime
        for p in range(2, math.isqrt(self.n) + 1):
            if lp[p] == p:
                multiples = lp[p * p::p]
                multiples[multiples == np.arange(p * p, self.n + 1, p)] = p
        return lp

    def cmi(self, i: int, j: int, Z: tuple[int, ...]) -> CMIValue:
        """I(X_i; X_j | Z, Y) in nats (ML estimates): T(Z) and its extensions by i, j and both;
        comparisons of the result are exact (`CMIValue`)."""
        Z = tuple(sorted(Z))
        keys = [tuple(sorted(Z + e)) for e in ((i, j), (i,), (j,))] + [Z]
        t = [self._cache.get(k) for k in keys]
        if any(v is None for v in t):
            gz = self.groups(Z)
            if t[0] is None or t[1] is None:
                gzi = self.extend(gz, i)
                if t[0] is None:
                    t[0] = self.entropy(gzi, j)
                if t[1] is None:
                    t[1] = self.entropy(gzi)
            if t[2] is None:
                t[2] = self.entropy(gz, j)
            if t[3] is None:
                t[3] = self.entropy(gz)
            self._cache.update(zip(keys, cast("list[float]", t)))
        t0, t1, t2, t3 = cast("list[float]", t)  # each term was cached or is filled in above
        return CMIValue(math.fsum([t0, -t1, -t2, t3]) / self.n, lambda: self.exact_cmi(i, j, Z))
