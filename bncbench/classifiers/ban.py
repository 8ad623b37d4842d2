"""Unrestricted BAN baselines of paper 002 (ALGORITHMS.md §4.7): Friedman's score-based BAN
(`method="hc"`) and Cheng & Greiner's conditional-independence-test BAN (`method="tpda"`)."""

from __future__ import annotations

import functools
import math
import numbers
import operator
from collections import OrderedDict, deque

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.counts import config_counts, lookup, mixed_key
from bncbench.classifiers.estimators import log_cond, log_prior
from bncbench.preprocess.folds import stratified_folds


def _exact_comparison(op):
    def compare(self: "CMIValue", other) -> bool:
        if not isinstance(other, (CMIValue, numbers.Real)):
            return NotImplemented
        return op(*self._pair(other))
    return compare


class CMIValue(float):
    """A conditional mutual information (a float: its fast value) whose comparisons are exact.

    The fast value is a float sum of four rounded terms T, so two CMIs that are equal numbers can
    differ in the last bits, and an exact 0 can come out as ±1e-17; the spec breaks ties by exact
    equality (§0.3), and tpda tests I ≤ ε and compares cut sets with a strict "<" (§4.7). Values
    farther apart than `TOL` (far above the float sums' error) compare as floats; closer ones
    compare by `exact()`: N·I = Σ_v k_v·v·ln v over the cell counts v of the four tables (k_v:
    signed numbers of cells), rewritten as Σ_p e_p·ln p over primes p with integer e_p — one
    form per number (logarithms of primes are linearly independent), rounded by one `math.fsum`.
    Equal numbers give equal floats and an exact 0 gives 0.0."""

    TOL = 1e-9
    __slots__ = ("_exact", "_thunk")

    def __new__(cls, approx: float, thunk) -> "CMIValue":
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

    def __neg__(self) -> "CMIValue":
        return CMIValue(-self.approx, lambda: -self.exact())

    __hash__ = None  # equality is exact-on-near-ties: not hashable

    def __repr__(self) -> str:
        return f"CMIValue({self.approx!r})"


class EntropyTerms:
    """T(S) = Σ_cells N(s, y) ln N(s, y) over the configurations of the attribute set S and the
    class, cached per set.

    Every structure score of this module is a signed sum of these terms: a family's
    log-likelihood is T(π ∪ {i}) − T(π) and I(X_i; X_j | Z, Y) = (T(ijZ) − T(iZ) − T(jZ) + T(Z)) / N
    (§3 with counts, in nats). Sums are taken with `math.fsum` (exactly rounded), so that the
    same multiset of terms gives the same float whatever the order (Markov-equivalent moves tie
    exactly, as the spec's exact-equality tie rule needs).

    Counting: the configurations of an attribute set are numbered densely by extending a
    subset's numbering one attribute at a time with one `bincount` (no sort, no overflow of
    mixed-radix keys). A configuration met by one row only adds 1 ln 1 = 0 to T of the set and of
    every superset, so such rows are dropped from the numbering: deep in a cut-set search few
    rows remain. The numberings of sorted prefixes are cached (oldest dropped first); a CI test
    extends Z's numbering by i and j. T is Σ_v m_v · v ln v over the histogram m of the cell
    counts, so its value does not depend on how the cells are numbered."""

    _ID_CACHE_ELEMENTS = 1 << 24  # row indices and numbers kept for prefixes (int32: 128 MB)

    def __init__(self, Xc: np.ndarray, y: np.ndarray, sizes: np.ndarray, n_classes: int):
        self.Xc, self.y, self.sizes, self.n_classes = Xc, y, sizes, n_classes
        self.n = Xc.shape[0]
        self._cols = [np.ascontiguousarray(Xc[:, a], dtype=np.int64) for a in range(Xc.shape[1])]
        self._y = np.asarray(y, dtype=np.int64)
        self._cols_y = [c * n_classes + self._y for c in self._cols]  # x_a·|Y| + y
        v = np.arange(self.n + 1, dtype=np.float64)
        self._xlogx = v * np.log(np.maximum(v, 1.0))  # v ln v, 0 at v = 0
        self._cache: dict[tuple[int, ...], float] = {}
        self._ids: OrderedDict[tuple[int, ...], tuple[np.ndarray, np.ndarray, int]] = OrderedDict()
        self._id_elements = 0
        self._all = (np.arange(self.n, dtype=np.int32), np.zeros(self.n, dtype=np.int32), 1)

    def _extend(self, groups: tuple[np.ndarray, np.ndarray, int], a: int) -> tuple[np.ndarray, np.ndarray, int]:
        """The numbering of a set's configurations extended by attribute a, rows of configurations
        met once dropped."""
        rows, prev, g = groups
        r = int(self.sizes[a])
        code = prev.astype(np.int64) * r + self._cols[a][rows]
        occ = np.bincount(code, minlength=g * r)
        shared = occ[code] > 1
        number = np.cumsum(occ > 1) - 1
        return rows[shared], number[code[shared]].astype(np.int32), int(number[-1]) + 1 if number.size else 0

    def _groups(self, key: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, int]:
        """(rows whose configuration of the sorted attributes `key` occurs more than once, their
        configuration numbers, number of such configurations)."""
        if not key:
            return self._all
        got = self._ids.get(key)
        if got is not None:
            return got
        got = self._extend(self._groups(key[:-1]), key[-1])
        while self._ids and self._id_elements + got[0].size > self._ID_CACHE_ELEMENTS:
            self._id_elements -= self._ids.popitem(last=False)[1][0].size
        self._ids[key] = got
        self._id_elements += got[0].size
        return got

    def _hist(self, key: tuple[int, ...]) -> np.ndarray:
        """m_v: number of (configuration of `key`, class) cells with count v (v ≥ 2; rows of
        configurations met once are not numbered)."""
        rows, ids, g = self._groups(key)
        cells = np.bincount(ids.astype(np.int64) * self.n_classes + self._y[rows], minlength=g * self.n_classes)
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

    def _entropy(self, groups: tuple[np.ndarray, np.ndarray, int], a: int | None = None) -> float:
        """T of the numbered set (extended by attribute a, if given)."""
        rows, ids, g = groups
        C = self.n_classes
        if a is None:
            cells = np.bincount(ids.astype(np.int64) * C + self._y[rows], minlength=g * C)
        else:
            r = int(self.sizes[a])
            if g * r * C > 4 * rows.size + 256:  # a sparse space: number the extension first
                return self._entropy(self._extend(groups, a))
            cells = np.bincount(ids.astype(np.int64) * (r * C) + self._cols_y[a][rows], minlength=g * r * C)
        hist = np.bincount(cells)
        return float(np.sum(hist[1:] * self._xlogx[1:hist.size]))

    def __call__(self, attrs) -> float:
        key = tuple(sorted(attrs))
        t = self._cache.get(key)
        if t is None:
            t = self._entropy(self._groups(key))
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
            gz = self._groups(Z)
            if t[0] is None:
                t[0] = self._entropy(self._extend(gz, i), j)
            if t[1] is None:
                t[1] = self._entropy(gz, i)
            if t[2] is None:
                t[2] = self._entropy(gz, j)
            if t[3] is None:
                t[3] = self._entropy(gz)
            self._cache.update(zip(keys, t))
        return CMIValue(math.fsum([t[0], -t[1], -t[2], t[3]]) / self.n, lambda: self.exact_cmi(i, j, Z))


# ----------------------------------------------------------------------------------------------
# method "hc": hill climbing with the MDL/BIC score (§4.7)
# ----------------------------------------------------------------------------------------------

def family_terms(T: EntropyTerms, child: int, parents, card: np.ndarray, n_classes: int) -> tuple[list[float], int]:
    """One family's MDL/BIC score (§4.7)
    Σ N(x_i, π_i, y) ln(N(x_i, π_i, y) / N(π_i, y)) − (ln N / 2)·(|X_i| − 1)·|Y|·Π_{j∈π_i} |X_j|
    as (the signed log-likelihood terms T(π ∪ {i}), −T(π); the integer (|X_i| − 1)·|Y|·Π|X_j|).
    Keeping the parameter count an integer makes score differences of moves with the same
    terms exactly equal (e.g. adding a → b or b → a: the count differs by
    (|X_a| − 1)(|X_b| − 1)|Y| either way)."""
    par = tuple(sorted(parents))
    cells = (int(card[child]) - 1) * n_classes
    for p in par:
        cells *= int(card[p])
    return [T(par + (child,)), -T(par)], cells


def _combine(T: EntropyTerms, terms: list[float], cells: int) -> float:
    return math.fsum(terms) - (math.log(T.n) / 2.0) * cells


def mdl_score(T: EntropyTerms, parents: list, card: np.ndarray, n_classes: int) -> float:
    """MDL/BIC score of the class-augmented network whose attribute parents are `parents`."""
    terms, cells = [], 0
    for i, par in enumerate(parents):
        t, c = family_terms(T, i, par, card, n_classes)
        terms += t
        cells += c
    return _combine(T, terms, cells)


def _reach(parents: list[set[int]]) -> np.ndarray:
    """reach[a, b]: a directed path of length ≥ 1 from a to b."""
    n = len(parents)
    adj = np.zeros((n, n), dtype=bool)
    for c, par in enumerate(parents):
        for p in par:
            adj[p, c] = True
    reach = adj.copy()
    while True:
        nxt = reach | ((reach.astype(np.int64) @ adj.astype(np.int64)) > 0)
        if np.array_equal(nxt, reach):
            return reach
        reach = nxt


def hill_climb(T: EntropyTerms, card: np.ndarray, n_classes: int, max_parents: int) -> tuple[list[list[int]], int]:
    """Friedman's BAN by greedy hill climbing from NB (§4.7): add / delete / reverse one arc
    between attributes, acyclic, ≤ `max_parents` attribute parents; the best strictly improving
    move each step; ties → add < delete < reverse, then (parent, child) (for a reversal: the
    arc as it is before the move). Returns (parents, number of moves)."""
    n = card.shape[0]
    parents: list[set[int]] = [set() for _ in range(n)]
    fam_cache: dict[tuple[int, frozenset], tuple[list[float], int]] = {}

    def fam(c: int, par) -> tuple[list[float], int]:
        key = (c, frozenset(par))
        t = fam_cache.get(key)
        if t is None:
            t = family_terms(T, c, par, card, n_classes)
            fam_cache[key] = t
        return t

    def delta(changes) -> float:
        terms, cells = [], 0
        for c, new in changes:
            t_new, c_new = fam(c, new)
            t_old, c_old = fam(c, parents[c])
            terms += t_new + [-t for t in t_old]
            cells += c_new - c_old
        return _combine(T, terms, cells)

    moves = 0
    while True:
        reach = _reach(parents)
        best, best_delta = None, 0.0
        for p in range(n):  # add p → c
            for c in range(n):
                if p == c or p in parents[c] or reach[c, p] or len(parents[c]) >= max_parents:
                    continue
                d = delta([(c, parents[c] | {p})])
                if d > best_delta:
                    best, best_delta = ("add", p, c), d
        for p in range(n):  # delete p → c
            for c in range(n):
                if p in parents[c]:
                    d = delta([(c, parents[c] - {p})])
                    if d > best_delta:
                        best, best_delta = ("delete", p, c), d
        for p in range(n):  # reverse p → c into c → p
            for c in range(n):
                if p not in parents[c] or len(parents[p]) >= max_parents:
                    continue
                # another path p ⇝ c would close a cycle with c → p
                if any(reach[q, c] for q in range(n) if q != c and p in parents[q]):
                    continue
                d = delta([(c, parents[c] - {p}), (p, parents[p] | {c})])
                if d > best_delta:
                    best, best_delta = ("reverse", p, c), d
        if best is None:
            return [sorted(par) for par in parents], moves
        op, p, c = best
        if op == "add":
            parents[c].add(p)
        elif op == "delete":
            parents[c].discard(p)
        else:
            parents[c].discard(p)
            parents[p].add(c)
        moves += 1


# ----------------------------------------------------------------------------------------------
# method "tpda": three-phase dependency analysis with the class in every conditioning set (§4.7)
# ----------------------------------------------------------------------------------------------

def _connected(adj: list[set[int]], a: int, b: int, avoid: int | None = None) -> bool:
    """Whether an undirected path joins a and b (not passing through `avoid`)."""
    seen = {a}
    todo = deque([a])
    while todo:
        u = todo.popleft()
        if u == b:
            return True
        for w in adj[u]:
            if w not in seen and w != avoid:
                seen.add(w)
                todo.append(w)
    return False


def _component(adj: list[set[int]], a: int, avoid: int) -> set[int]:
    """The nodes joined to a by an undirected path not passing through `avoid`."""
    seen = {a}
    todo = [a]
    while todo:
        for w in adj[todo.pop()]:
            if w not in seen and w != avoid:
                seen.add(w)
                todo.append(w)
    return seen


def cut_set(adj: list[set[int]], i: int, j: int, cmi, eps: float,
            allow_empty: bool = False) -> tuple[bool, tuple[int, ...] | None]:
    """The cut-set routine (§4.7 step 4) on the undirected graph `adj` (the edge under test, if
    any, already removed). Returns (separated, separating set). `cmi(a, b, Z)` with a < b.
    `allow_empty` (orientation step): also test Z = ∅ when Z empties."""
    lo, hi = min(i, j), max(i, j)

    def test(Z) -> float:
        return cmi(lo, hi, tuple(sorted(Z)))

    for a, b in ((lo, hi), (hi, lo)):
        near_b = _component(adj, b, avoid=a)  # neighbours of a on a path to b that avoids a
        Z = {nb for nb in adj[a] if nb != b and nb in near_b}
        while True:
            if not Z:
                if allow_empty and test(()) <= eps:
                    return True, ()
                break
            cur = test(Z)
            if cur <= eps:
                return True, tuple(sorted(Z))
            best_val, best_z = min((test(Z - {z}), z) for z in Z)
            if best_val < cur:
                Z = Z - {best_z}
            else:
                break
    return False, None


def tpda_skeleton(n: int, cmi, eps: float) -> tuple[list[set[int]], dict]:
    """Drafting, thickening and thinning (§4.7 steps 1–3). Returns (adjacency, info)."""
    strong = []
    for i in range(n):
        for j in range(i + 1, n):
            v = cmi(i, j, ())
            if v > eps:
                strong.append((-v, i, j))
    strong.sort()
    adj: list[set[int]] = [set() for _ in range(n)]
    comp = list(range(n))  # union–find: the drafting graph is a forest

    def root(a: int) -> int:
        while comp[a] != a:
            comp[a] = comp[comp[a]]
            a = comp[a]
        return a

    added, rest = [], []
    for _, i, j in strong:
        ri, rj = root(i), root(j)
        if ri != rj:
            comp[ri] = rj
            adj[i].add(j)
            adj[j].add(i)
            added.append((i, j))
        else:
            rest.append((i, j))
    n_draft = len(added)
    for i, j in rest:  # thickening
        if not cut_set(adj, i, j, cmi, eps)[0]:
            adj[i].add(j)
            adj[j].add(i)
            added.append((i, j))
    removed = []
    for i, j in added:  # thinning: one pass in the order the edges were added
        adj[i].discard(j)
        adj[j].discard(i)
        if _connected(adj, i, j) and cut_set(adj, i, j, cmi, eps)[0]:
            removed.append((i, j))
            continue
        adj[i].add(j)
        adj[j].add(i)
    info = {"draft_edges": n_draft, "thickening_edges": len(added) - n_draft, "thinning_removed": len(removed)}
    return adj, info


def _closes_cycle(children: list[set[int]], u: int, v: int) -> bool:
    """Whether the arc u → v closes a directed cycle (a directed path v ⇝ u exists)."""
    seen = {v}
    todo = [v]
    while todo:
        a = todo.pop()
        if a == u:
            return True
        for w in children[a]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return False


def tpda_orient(adj: list[set[int]], cmi, eps: float) -> tuple[list[list[int]], dict]:
    """Orientation (§4.7 step 5): collider proposals from the cut-set routine on the final
    skeleton, Meek's rules 1 and 2, then low → high index where no cycle. Returns (parents, info)."""
    n = len(adj)
    proposals = set()
    for a in range(n):
        for b in range(a + 1, n):
            if b in adj[a]:
                continue
            common = adj[a] & adj[b]
            if not common:
                continue
            sep, S = cut_set(adj, a, b, cmi, eps, allow_empty=True)
            if sep:
                for c in sorted(common - set(S)):
                    proposals.add((a, c))
                    proposals.add((b, c))
    children: list[set[int]] = [set() for _ in range(n)]
    undirected = {(min(u, v), max(u, v)) for u in range(n) for v in adj[u]}
    conflicts = 0
    n_collider = 0
    for u, v in sorted(proposals):
        if (v, u) in proposals:
            conflicts += u < v  # count each edge proposed both ways once
            continue
        if not _closes_cycle(children, u, v):
            children[u].add(v)
            undirected.discard((min(u, v), max(u, v)))
            n_collider += 1

    def arc(u: int, v: int) -> bool:
        return v in children[u]

    def adjacent(u: int, v: int) -> bool:
        return v in adj[u]

    def meek(u: int, v: int) -> bool:
        # rule 1: a → u − v, a and v not adjacent
        if any(arc(a, u) and a != v and not adjacent(a, v) for a in range(n)):
            return True
        # rule 2: u → a → v
        return any(arc(u, a) and arc(a, v) for a in range(n))

    n_meek = 0
    changed = True
    while changed:
        changed = False
        for u, v in sorted(undirected):
            for s, t in ((u, v), (v, u)):
                if meek(s, t) and not _closes_cycle(children, s, t):
                    children[s].add(t)
                    undirected.discard((u, v))
                    n_meek += 1
                    changed = True
                    break
    for u, v in sorted(undirected):
        if _closes_cycle(children, u, v):
            children[v].add(u)
        else:
            children[u].add(v)
    parents = [sorted(p for p in range(n) if c in children[p]) for c in range(n)]
    info = {"collider_arcs": n_collider, "conflicting_edges": conflicts, "meek_arcs": n_meek,
            "free_edges": len(undirected)}
    return parents, info


def tpda(T: EntropyTerms, eps: float) -> tuple[list[list[int]], dict]:
    """Cheng & Greiner's BAN structure (§4.7 steps 1–5) from the count tables."""
    n = T.Xc.shape[1]
    cache: dict[tuple, float] = {}

    def cmi(i: int, j: int, Z: tuple[int, ...]) -> float:
        key = (i, j, Z)
        v = cache.get(key)
        if v is None:
            v = T.cmi(i, j, Z)
            cache[key] = v
        return v

    adj, info = tpda_skeleton(n, cmi, eps)
    parents, info2 = tpda_orient(adj, cmi, eps)
    info.update(info2)
    return parents, info


# ----------------------------------------------------------------------------------------------
# the classifier
# ----------------------------------------------------------------------------------------------

class BAN(BayesNetClassifier):
    """Unrestricted BAN (Bayesian-network-augmented naive Bayes), paper 002's baselines
    (ALGORITHMS.md §4.7): the class is a parent of every attribute and the attributes form an
    arbitrary DAG.

    * ``method="hc"`` — Friedman, Geiger & Goldszmidt, "Bayesian network classifiers", Machine
      Learning 29:131–163, 1997: greedy hill climbing from NB over single-arc additions,
      deletions and reversals with the MDL/BIC score of the class-augmented network.
    * ``method="tpda"`` — Cheng & Greiner, "Comparing Bayesian network classifiers", UAI 1999,
      with the three-phase dependency analysis of Cheng, Bell & Liu (Artificial Intelligence
      137:43–90, 2002) run with the class in every conditioning set: drafting, thickening and
      thinning with the cut-set heuristic, CI test I(X_i; X_j | Z, Y) ≤ ε in nats, collider
      orientation and Meek's rules 1–2 (a reconstruction, flagged in §9).

    Structure scores and CI tests are computed from count tables of `config_counts` (one
    bincount per attribute set, cached); parameters are the estimates of §2 over each
    attribute's parent configuration and the class (paper 002: Laplace).

    Parameters
    ----------
    method : {"tpda", "hc"}, default="tpda"
    estimator : {"laplace", "mestimate", "laplace_joint"}, default="laplace"
        Paper 002's estimator is Laplace (§2.3).
    m, cardinalities, n_classes: as in `BayesNetClassifier`.
    missing : {"value"}, default="value"
        Only "value" (paper 002 treats a missing value as one more value); "skip" raises ValueError.
    ban_epsilon : float or list of float, default=0.01
        tpda's CI threshold in nats. A list: chosen per fit by stratified 5-fold CV accuracy on
        the training data (folds of `stratified_folds` with seed 1); ties → the larger ε.
    ban_max_parents : int, default=8
        Largest number of attribute parents (hc: a constraint of the search; tpda: nodes with
        more keep the strongest by I(X_i; X_p | Y), ties → smaller index, recorded in `info_`).

    Attributes
    ----------
    parents_ : list of list of int
        Attribute parents of each attribute (sorted).
    epsilon_ : float or None
        The ε used (tpda).
    cv_accuracy_ : dict or None
        ε → inner CV accuracy when `ban_epsilon` is a list.
    score_ : float or None
        The MDL/BIC score of the learnt network (hc).
    info_ : dict
        Counts of the structure steps (hc: moves; tpda: edges per phase, colliders, edges
        proposed both ways, Meek arcs, parent-cap cuts).
    """

    NEEDS_PAIRS = False
    PARAM_CHOICES = {**BayesNetClassifier.PARAM_CHOICES, "method": ("tpda", "hc")}
    SUPPORTED_MISSING = ("value",)

    def __init__(self, method: str = "tpda", estimator: str = "laplace", m: float = 1.0, missing: str = "value",
                 cardinalities=None, n_classes: int | None = None, ban_epsilon: float | list[float] = 0.01,
                 ban_max_parents: int = 8):
        super().__init__(estimator, m, missing, cardinalities, n_classes)
        self.method = method
        self.ban_epsilon = ban_epsilon
        self.ban_max_parents = ban_max_parents

    def _check_ban_params(self) -> list[float]:
        if self.missing != "value":
            raise ValueError(f"missing must be 'value' for BAN, got {self.missing!r}")
        mp = self.ban_max_parents
        if isinstance(mp, bool) or not isinstance(mp, numbers.Integral) or mp < 0:
            raise ValueError(f"ban_max_parents must be an integer ≥ 0, got {mp!r}")
        eps = self.ban_epsilon
        eps_list = list(eps) if isinstance(eps, (list, tuple)) else [eps]
        if not eps_list or any(isinstance(e, bool) or not isinstance(e, numbers.Real) or not e >= 0 for e in eps_list):
            raise ValueError(f"ban_epsilon must be a real number ≥ 0 or a non-empty list of them, got {eps!r}")
        return [float(e) for e in eps_list]

    def _fit(self, Xc, y):
        eps_list = self._check_ban_params()
        self.log_prior_ = log_prior(self._pair_counts(Xc, y, pairs=False).class_counts, self.estimator, self.m)
        self.epsilon_ = self.cv_accuracy_ = self.score_ = None
        if self.method == "hc":
            T = EntropyTerms(Xc, y, self.sizes_, self.n_classes_)
            self.parents_, moves = hill_climb(T, self.card_, self.n_classes_, int(self.ban_max_parents))
            self.score_ = mdl_score(T, self.parents_, self.card_, self.n_classes_)
            self.info_ = {"moves": moves}
        else:
            eps = eps_list[0] if len(eps_list) == 1 else self._choose_epsilon(Xc, y, eps_list)
            self.epsilon_ = eps
            self.parents_, self.info_ = self._tpda_structure(Xc, y, eps)
        self._tables = self._count_tables(Xc, y, self.parents_)

    def _tpda_structure(self, Xc: np.ndarray, y: np.ndarray, eps: float) -> tuple[list[list[int]], dict]:
        T = EntropyTerms(Xc, y, self.sizes_, self.n_classes_)
        parents, info = tpda(T, eps)
        cuts = []
        for i, par in enumerate(parents):
            if len(par) > self.ban_max_parents:  # memory bound: keep the strongest by I(X_i; X_p | Y)
                ranked = sorted(par, key=lambda p: (-T.cmi(min(i, p), max(i, p), ()), p))
                keep = sorted(ranked[:self.ban_max_parents])
                cuts.append((i, [p for p in par if p not in keep]))
                parents[i] = keep
        info["parent_cap_cuts"] = cuts
        return parents, info

    def _choose_epsilon(self, Xc: np.ndarray, y: np.ndarray, eps_list: list[float]) -> float:
        """ε with the best stratified 5-fold CV accuracy on the training data (ties → larger ε)."""
        folds = stratified_folds(y, 5, 1)
        correct = {e: 0 for e in eps_list}
        for f in range(5):
            tr, te = folds != f, folds == f
            if not te.any() or not tr.any():
                continue
            prior = log_prior(np.bincount(y[tr], minlength=self.n_classes_), self.estimator, self.m)
            for e in eps_list:
                parents, _ = self._tpda_structure(Xc[tr], y[tr], e)
                jll = self._jll(Xc[te], prior, self._count_tables(Xc[tr], y[tr], parents))
                correct[e] += int((np.argmax(jll, axis=1) == y[te]).sum())
        self.cv_accuracy_ = {e: correct[e] / y.shape[0] for e in eps_list}
        return max(eps_list, key=lambda e: (correct[e], e))

    def _count_tables(self, Xc: np.ndarray, y: np.ndarray, parents: list[list[int]]) -> list:
        """Per attribute: (parents, radices, N(π, y) table, N(π, x_i, y) table), sparse."""
        tables = []
        ny = self.n_classes_
        for i, par in enumerate(parents):
            rad = [int(self.sizes_[p]) for p in par]
            ctx = config_counts([Xc[:, p] for p in par] + [y], rad + [ny])
            joint = config_counts([Xc[:, p] for p in par] + [Xc[:, i], y], rad + [int(self.sizes_[i]), ny])
            tables.append((par, rad, ctx, joint, y.shape[0]))
        return tables

    def _jll(self, Xc: np.ndarray, prior: np.ndarray, tables: list) -> np.ndarray:
        ny = self.n_classes_
        jll = np.tile(prior, (Xc.shape[0], 1))
        cls = np.arange(ny)[None, :]
        for i, (par, rad, ctx, joint, total) in enumerate(tables):
            base = mixed_key([Xc[:, p] for p in par], rad) if par else np.zeros(Xc.shape[0], np.int64)
            den = lookup(*ctx, base[:, None] * ny + cls)
            num = lookup(*joint, (base[:, None] * int(self.sizes_[i]) + Xc[:, i][:, None]) * ny + cls)
            cells = ny * math.prod(int(self.card_[p]) for p in par)
            jll += log_cond(num, den, self.card_[i], self.estimator, self.m, ctx_cells=cells,
                            tot_num=total, tot_den=total)
        return jll

    def _joint_log_likelihood(self, Xc):
        return self._jll(Xc, self.log_prior_, self._tables)
