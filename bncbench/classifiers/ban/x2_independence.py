"""The calibrated conditional-independence test of paper 002's BAN (docs/algorithms.md §4.7, CI test)."""

from __future__ import annotations

import math
from collections import OrderedDict
from itertools import repeat
from typing import NamedTuple

import numpy as np
from scipy.special.cython_special import gammainc, gammaincc  # scipy's ufuncs, without the ufunc call's cost

from bncbench.classifiers.ban import x2_kernels
from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.kernels.ties import tie_value

_LOG_P_DIRECT = x2_kernels.LOG_P_DIRECT  # below this p, ln p comes from the continued fraction (no underflow)
# 10^e as `tie_value` computes it, for every e its rounding meets (|v| from 1e-12 to the largest float)
_new = tuple.__new__  # X2Outcome from a tuple of its fields, without its Python-level constructor
_SCALES = np.array([10.0 ** e if e >= 0 else float(np.power(10.0, float(e)))
                    for e in range(x2_kernels.SCALE_LOW, 40)])


def log_gamma_sf(a: float, x: float, q: float) -> float:
    """ln Q(a, x) given q = Q(a, x) (scipy's value): from the lower tail near 1, the continued
    fraction below `_LOG_P_DIRECT` (a fit takes only that branch from here: `x2_kernels.x2_outcomes`
    computes the others, the same bits)."""
    if q > 0.5:  # near 1: from the lower tail, so that ln p keeps its digits
        return math.log1p(-gammainc(a, x))
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


class X2Outcome(NamedTuple):
    """One test's result: `independent`, its ranking key κ = (−ln p, X²) after the tie rounding of
    §0.3 (smaller = less dependent), and whether the data sufficed (`informative`)."""

    independent: bool
    key: tuple[float, float]
    informative: bool
    x2: float
    df: float
    log_p: float


class X2Test:
    """T(i, j | Z): is X_i ⊥ X_j | Z ∪ {Y}? (§4.7 items 1–7), each distinct test computed once, the
    counting and the statistic in the compiled kernels of `x2_kernels`."""

    PREFIX_ROWS = 1 << 22  # rows' numberings of conditioning sets kept for frames (int64: 32 MB)
    DENSE_PAIRS = 8  # a Greedy step's subset counting-sorted over its (prefix, suffix) pairs up to 8 per item

    def __init__(self, terms: EntropyTerms, alpha: float = 0.01, min_rows_per_df: float = 5.0):
        self.alpha = alpha
        self.min_rows_per_df = min_rows_per_df
        self.cache: dict[tuple[int, int, tuple[int, ...]], X2Outcome] = {}
        self._terms = terms
        n, n_attrs = terms.n, len(terms._cols)
        self._X = np.stack(terms._cols) if n_attrs else np.zeros((0, n), dtype=np.int64)
        self._y = np.ascontiguousarray(terms._y, dtype=np.int64)
        self._n_classes = int(terms.n_classes)
        self._sizes = np.ascontiguousarray(terms.sizes, dtype=np.int64)
        self._scratch = x2_kernels.Scratch(n, self._n_classes, int(self._sizes.max(initial=1)), n_attrs)
        self._rows = (np.arange(n, dtype=np.int64), np.ones(n, dtype=np.int64))
        self._frame: tuple[int, int, frozenset[int], np.ndarray, np.ndarray] | None = None
        self._step: tuple[int, int, tuple[int, ...], np.ndarray] | None = None  # the last `leave_one_out` counted
        self._whole: tuple[int, int, tuple[int, ...], np.ndarray] | None = None  # … or the last `_whole_set`
        self._prefixes: OrderedDict[tuple[int, ...], np.ndarray] = OrderedDict()  # (Y, C)'s numbering of the rows

    @property
    def distinct_tests(self) -> int:
        return len(self.cache)

    @property
    def tests_lacking_data(self) -> int:
        return sum(not o.informative for o in self.cache.values())

    # -- the tests --------------------------------------------------------------------------------

    def __call__(self, i: int, j: int, Z: tuple[int, ...]) -> X2Outcome:
        """T(i, j | Z), Z sorted; one of two or more attributes (a Greedy call's first test: its steps
        follow) over the frame of Z."""
        key = (i, j, Z) if i < j else (j, i, Z)
        got = self.cache.get(key)
        if got is None:
            i, j = key[0], key[1]
            one = self._whole_set(i, j, Z) if len(Z) > 1 else self._outcomes(self._statistics(i, j, [Z], False))
            got = self.cache[key] = one[0]
        return got

    def many(self, i: int, j: int, Zs: list[tuple[int, ...]]) -> list[X2Outcome]:
        """The tests T(i, j | Z) for each Z (sorted tuples), the uncached ones computed together;
        several over the frame of their union, one as `__call__` computes it."""
        if i > j:
            i, j = j, i
        new = [Z for Z in dict.fromkeys(Zs) if (i, j, Z) not in self.cache]
        if len(new) == 1:
            self(i, j, new[0])
        elif new:
            self.cache.update(zip([(i, j, Z) for Z in new], self._outcomes(self._statistics(i, j, new, frame=True))))
        return [self.cache[(i, j, Z)] for Z in Zs]

    def statistic(self, i: int, j: int, Z: tuple[int, ...]) -> tuple[float, float, float, bool]:
        """(X², df, n_inf, some stratum active) of items 1–3."""
        return self.statistics(i, j, [Z])[0]

    def statistics(self, i: int, j: int, Zs: list[tuple[int, ...]],
                   frame: bool = False) -> list[tuple[float, float, float, bool]]:
        """`statistic` of several conditioning sets; with `frame`, counted over the distinct rows of
        their union (the same values: the sums' order does not depend on the rows counted)."""
        out = self._statistics(min(i, j), max(i, j), Zs, frame)
        return [(float(x2), float(df), float(n_inf), bool(act)) for x2, df, n_inf, act in out.tolist()]

    def drafting(self, pairs: list[tuple[int, int]]) -> list[X2Outcome]:
        """T(i, j | ∅) for each pair i < j (the drafting phase), the uncached ones computed together;
        the entropy term of (Y, X_i, X_j) that the drafting key needs, counted on the way, goes to
        the `EntropyTerms` cache."""
        new = [p for p in pairs if (p[0], p[1], ()) not in self.cache]
        if new:
            out = np.empty((len(new), 4))
            entropy = np.empty(len(new))
            s = self._scratch
            x2_kernels.x2_pairs(self._X, self._y, self._n_classes, self._sizes,
                                np.array(new, dtype=np.int64).reshape(-1, 2), out, entropy, self._terms._xlogx,
                                s.start, s.order, s.nab, s.na, s.nb, s.la, s.lb, s.cells, s.hist, s.terms, s.values,
                                s.stack, s.sums)
            self.cache.update(((i, j, ()), o) for (i, j), o in zip(new, self._outcomes(out)))
            self._terms._cache.update(zip(new, entropy.tolist()))
        return [self.cache[(i, j, ())] for i, j in pairs]

    def leave_one_out(self, i: int, j: int, C: tuple[int, ...]) -> list[X2Outcome]:
        """The tests T(i, j | C ∖ {C[k]}) for k = 0, 1, … (one Greedy step; C sorted, two or more
        attributes), the uncached ones computed together over the frame of C."""
        if i > j:
            i, j = j, i
        subs = [C[:k] + C[k + 1:] for k in range(len(C))]
        cache = self.cache
        got: list = [cache.get((i, j, Z)) for Z in subs]
        drop = [k for k, o in enumerate(got) if o is None]
        if drop:
            rows, weights = self._domain(i, j, C, frame=True)
            n = len(drop)
            out, keys, flags = np.empty((n, 4)), np.empty((3, n)), np.empty((2, n), dtype=np.bool_)
            s = self._scratch
            deep = x2_kernels.x2_leave_one_out(
                self._X, self._y, self._n_classes, self._sizes, rows, weights, i, j, np.array(C, dtype=np.int64),
                np.array(drop, dtype=np.int64), out, s.occ, s.ids, s.items, s.code, s.start, s.pstart, s.order,
                s.nab, s.na, s.nb, s.la, s.lb, s.values, s.item_values, s.prefix, s.suffix, s.n_prefix, s.n_suffix,
                self._step_before(i, j, C, rows), self.DENSE_PAIRS, self.alpha, self.min_rows_per_df, _SCALES,
                keys, flags)
            self._step, self._whole = (i, j, C, rows), None
            for k, o in zip(drop, _made(out, keys, flags, deep)):
                got[k] = cache[(i, j, subs[k])] = o
        return got

    def _step_before(self, i: int, j: int, C: tuple[int, ...], rows: np.ndarray) -> int:
        """b when the numberings in the scratch are those of the last Greedy step's set, on these rows,
        and that set is C with an attribute inserted at position b (a Greedy's next step); −2 when
        they are the prefix numberings of C itself on these rows (its first step); else −1."""
        whole = self._whole
        if whole is not None and whole[3] is rows and whole[:3] == (i, j, C):
            return -2
        last = self._step
        if last is None or last[3] is not rows or last[:2] != (i, j) or len(last[2]) != len(C) + 1:
            return -1
        prev = last[2]
        b = 0
        while b < len(C) and prev[b] == C[b]:
            b += 1
        return b if prev[b + 1:] == C[b:] else -1

    def _whole_set(self, i: int, j: int, C: tuple[int, ...]) -> list[X2Outcome]:
        """The test of C (two or more attributes; a Greedy call's first test) over the frame of C,
        from the prefix numberings its first step reuses."""
        rows, weights = self._domain(i, j, C, frame=True)
        out, keys, flags = np.empty((1, 4)), np.empty((3, 1)), np.empty((2, 1), dtype=np.bool_)
        s = self._scratch
        deep = x2_kernels.x2_whole_set(self._X, self._y, self._n_classes, self._sizes, rows, weights, i, j,
                                       np.array(C, dtype=np.int64), out, s.occ, s.ids, s.items, s.code, s.start,
                                       s.order, s.nab, s.na, s.nb, s.la, s.lb, s.values, s.prefix, s.n_prefix,
                                       self.alpha, self.min_rows_per_df, _SCALES, keys, flags)
        self._step, self._whole = None, (i, j, C, rows)
        return _made(out, keys, flags, deep)

    def _domain(self, i: int, j: int, C: tuple[int, ...], frame: bool) -> tuple[np.ndarray, np.ndarray]:
        """The items a test of (i, j) given subsets of C counts, and their weights: the frame of the
        pair (the distinct rows of Y, C, X_i and X_j) when asked, or when the current one holds C;
        else the training rows. The frame is kept for the next tests."""
        f = self._frame
        if f is None or (f[0], f[1]) != (i, j) or not f[2].issuperset(C):
            if not frame:
                return self._rows
            s = self._scratch
            rep, weight = x2_kernels.frame_rows(self._X, self._sizes, self._numbering(C), i, j, s.occ, s.ids, s.ids2)
            f = self._frame = (i, j, frozenset(C), rep, weight)
        return f[3], f[4]

    def _numbering(self, C: tuple[int, ...]) -> np.ndarray:
        """The rows' numbering by their configuration of (Y, C), from the longest prefix of C whose
        numbering is kept; the new prefixes' numberings are kept (the oldest dropped past
        `PREFIX_ROWS` rows)."""
        k = len(C)
        while k and C[:k] not in self._prefixes:
            k -= 1
        base = self._prefixes[C[:k]] if k else self._y
        if k:
            self._prefixes.move_to_end(C[:k])
        if k == len(C):
            return base
        out = np.empty((len(C) - k, base.shape[0]), dtype=np.int64)
        x2_kernels.number_rows(self._X, self._sizes, base, np.array(C[k:], dtype=np.int64), out, self._scratch.occ)
        n = base.shape[0]
        while self._prefixes and (len(self._prefixes) + out.shape[0]) * n > self.PREFIX_ROWS:
            self._prefixes.popitem(last=False)
        for q in range(out.shape[0]):
            self._prefixes[C[:k + q + 1]] = out[q]
        return out[-1]

    def _statistics(self, i: int, j: int, Zs: list[tuple[int, ...]], frame: bool) -> np.ndarray:
        """(n_tests, 4) array of X², df, n_inf, active, counted over `_domain`."""
        rows, weights = self._domain(i, j, Zs[0] if len(Zs) == 1 else tuple(sorted(set().union(*Zs))), frame)
        zs = np.array([a for Z in Zs for a in Z], dtype=np.int64)
        bounds = [0]
        for Z in Zs:
            bounds.append(bounds[-1] + len(Z))
        z_start = np.array(bounds, dtype=np.int64)
        out = np.empty((len(Zs), 4))
        s = self._scratch
        x2_kernels.x2_statistics(self._X, self._y, self._n_classes, self._sizes, rows, weights, i, j, zs, z_start,
                                 out, s.occ, s.ids, s.ids2, s.items, s.items2, s.code, s.start, s.order,
                                 s.nab, s.na, s.nb, s.la, s.lb, s.values)
        return out

    def _outcomes(self, stats: np.ndarray) -> list[X2Outcome]:
        """Items 4–6 for each row of `stats`: the sufficiency rule, the decision and the ranking key
        (`x2_kernels.x2_outcomes`)."""
        n = stats.shape[0]
        keys, flags = np.empty((3, n)), np.empty((2, n), dtype=np.bool_)
        deep = x2_kernels.x2_outcomes(stats, self.alpha, self.min_rows_per_df, _SCALES, keys, flags)
        return _made(stats, keys, flags, deep)


def _made(stats: np.ndarray, keys: np.ndarray, flags: np.ndarray, deep: int) -> list[X2Outcome]:
    """The outcomes of the tests of `stats` from `x2_kernels.x2_outcomes`' keys and flags; ln p of the
    `deep` tests whose p is below `_LOG_P_DIRECT` (NaN in `keys`) from `log_gamma_sf`."""
    x2, df = stats.T[:2].tolist()
    k0, k1, log_p = keys.tolist()
    if deep:
        for t in np.flatnonzero(np.isnan(keys[2])).tolist():
            a, x = 0.5 * df[t], 0.5 * x2[t]
            log_p[t] = log_gamma_sf(a, x, gammaincc(a, x))
            k0[t] = tie_value(-log_p[t])
    independent, informative = flags.tolist()
    return list(map(_new, repeat(X2Outcome), zip(independent, zip(k0, k1), informative, x2, df, log_p)))
