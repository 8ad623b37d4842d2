"""Slow plain-Python reference for BAN(method="tpda", ban_test="epsilon") — the earlier reading of docs/algorithms.md §4.7 (Cheng &
Greiner's three-phase dependency analysis with the class in every conditioning set) and §3 (CMI,
here in nats). It never imports or copies bncbench code.

Exact ties. The spec breaks ties by exact float equality "because all scores are computed
deterministically from integer counts". A reference that sums floats in another order would see
ties the code sees as ±1 ulp apart (and vice versa), so this reference decides ties and the
test I ≤ ε with ε = 0 exactly: N·I(X_i; X_j | Z, Y) = Σ_cells n·ln(n·n_z / (n_iz·n_jz)) (the
formula of §3 with counts; n = N(x_i, x_j, z, y), n_z = N(z, y), n_iz = N(x_i, z, y),
n_jz = N(x_j, z, y)) is an integer combination of logarithms of integers; written over the
logarithms of primes (which are linearly independent over the rationals) it has one canonical
form. Two CMIs are equal iff their forms are equal; I = 0 iff the form is empty. Otherwise values
are compared as floats (math.fsum of the form); a comparison of two different forms closer than
1e-12 (relative) raises `NearTie`, because then neither this reference nor the code decides it
reliably.

Decisions the spec leaves open are marked "SPEC-OPEN" below.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, deque

from tests.oracles.exact import (
    factor as _factor,  # prime factorisation, shared by the exact oracles
)


class NearTie(AssertionError):
    """Two different exact CMIs (or a CMI and ε) closer than float noise."""


@functools.total_ordering
class Nats:
    """An exact value (1/N)·Σ_p c_p ln p (integer c_p) with its float value."""

    __slots__ = ("form", "value")

    def __init__(self, coeffs: dict[int, int], N: int):
        by_prime: Counter = Counter()
        for k, c in coeffs.items():
            for p, e in _factor(k):
                by_prime[p] += c * e
        self.form = tuple(sorted((p, c) for p, c in by_prime.items() if c))
        self.value = math.fsum(c * math.log(p) for p, c in self.form) / N

    def __eq__(self, other):
        return self.form == other.form

    def __hash__(self):
        return hash(self.form)

    def __lt__(self, other):
        if self.form == other.form:
            return False
        a, b = self.value, other.value
        if abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300):
            raise NearTie(f"CMIs {a!r} and {b!r} differ exactly but not in float precision")
        return a < b

    def le_eps(self, eps: float) -> bool:
        """The CI test of §4.7: I ≤ ε."""
        if not self.form:
            return True  # exactly 0 (ε ≥ 0)
        if abs(self.value - eps) <= 1e-12 * max(abs(eps), 1e-300):
            raise NearTie(f"CMI {self.value!r} equals ε = {eps!r} up to float noise")
        return self.value <= eps

    def __repr__(self):
        return f"Nats({self.value!r})"


class CMIOracle:
    """I(X_i; X_j | Z, Y) from Counter-based counts over the rows (ML frequencies, §3)."""

    def __init__(self, rows, ys):
        self.rows = [tuple(r) for r in rows]
        self.ys = list(ys)
        self.N = len(self.rows)
        self._counts: dict[tuple[int, ...], Counter] = {}
        self._cmi: dict[tuple, Nats] = {}
        self.queries = 0

    def counts(self, attrs: tuple[int, ...]) -> Counter:
        got = self._counts.get(attrs)
        if got is None:
            got = Counter((tuple(r[a] for a in attrs), c) for r, c in zip(self.rows, self.ys))
            self._counts[attrs] = got
        return got

    def cmi(self, i: int, j: int, Z) -> Nats:
        Z = tuple(sorted(Z))
        key = (min(i, j), max(i, j), Z)
        got = self._cmi.get(key)
        if got is None:
            self.queries += 1
            nijz = self.counts((i, j) + Z)
            niz = self.counts((i,) + Z)
            njz = self.counts((j,) + Z)
            nz = self.counts(Z)
            coeffs: Counter = Counter()
            for (vals, c), n in nijz.items():
                xi, xj, z = vals[0], vals[1], vals[2:]
                # n · [ln n + ln n_z − ln n_iz − ln n_jz]
                coeffs[n] += n
                coeffs[nz[(z, c)]] += n
                coeffs[niz[((xi,) + z, c)]] -= n
                coeffs[njz[((xj,) + z, c)]] -= n
            coeffs.pop(1, None)  # ln 1 = 0
            got = Nats(coeffs, self.N)
            self._cmi[key] = got
        return got


# -- graph helpers (undirected adjacency: dict node -> set) --------------------------------------

def _path_exists(adj, a, b, avoid=None) -> bool:
    """An undirected path a ~ b not passing through `avoid` (breadth-first search)."""
    if a == avoid:
        return False
    seen, todo = {a}, deque([a])
    while todo:
        u = todo.popleft()
        if u == b:
            return True
        for w in sorted(adj[u]):
            if w != avoid and w not in seen:
                seen.add(w)
                todo.append(w)
    return False


def _directed_path(arcs: set, a: int, b: int) -> bool:
    """A directed path a ⇝ b (length ≥ 0) over `arcs`."""
    seen, todo = {a}, [a]
    while todo:
        u = todo.pop()
        if u == b:
            return True
        for (s, t) in arcs:
            if s == u and t not in seen:
                seen.add(t)
                todo.append(t)
    return False


def _closes_cycle(arcs: set, u: int, v: int) -> bool:
    """Whether adding u → v to `arcs` closes a directed cycle."""
    return _directed_path(arcs, v, u)


def _descending(score):
    """Sort key: descending exact `score`, ties → ascending item (index / lexicographic pair)."""
    def cmp(p, q):
        a, b = score(p), score(q)
        if a == b:
            return (p > q) - (p < q)
        return 1 if a < b else -1
    return functools.cmp_to_key(cmp)


# -- §4.7 step 4 -----------------------------------------------------------------------------------

def cut_set(adj, i, j, oracle: CMIOracle, eps, allow_empty=False):
    """(separated, separating set or None). X_lo's side first, then X_hi's."""
    lo, hi = min(i, j), max(i, j)
    for a, b in ((lo, hi), (hi, lo)):
        # neighbours n ≠ X_b of X_a from which X_b can be reached without passing through X_a
        Z = {nb for nb in adj[a] if nb != b and _path_exists(adj, nb, b, avoid=a)}
        while True:
            if not Z:
                if allow_empty and oracle.cmi(lo, hi, ()).le_eps(eps):
                    return True, frozenset()
                break  # this side fails
            cur = oracle.cmi(lo, hi, Z)
            if cur.le_eps(eps):
                return True, frozenset(Z)
            best_z, best_v = None, None
            for z in sorted(Z):  # ascending index: a later equal CMI does not replace
                v = oracle.cmi(lo, hi, Z - {z})
                if best_v is None or v < best_v:
                    best_z, best_v = z, v
            if best_v < cur:
                Z = Z - {best_z}
            else:
                break  # this side fails
    return False, None


# -- §4.7 steps 1–3 --------------------------------------------------------------------------------

def skeleton(n: int, oracle: CMIOracle, eps: float, trace: dict | None = None):
    """Drafting, thickening, thinning. Returns the adjacency (dict node -> set)."""
    trace = {} if trace is None else trace
    # 1. drafting: pairs with I(X_i; X_j | Y) > ε, descending, ties → lexicographic (i, j)
    strong = [(i, j) for i in range(n) for j in range(i + 1, n) if not oracle.cmi(i, j, ()).le_eps(eps)]

    strong.sort(key=_descending(lambda p: oracle.cmi(p[0], p[1], ())))
    adj = {u: set() for u in range(n)}
    added, R = [], []
    for i, j in strong:
        if _path_exists(adj, i, j):
            R.append((i, j))
        else:
            adj[i].add(j)
            adj[j].add(i)
            added.append((i, j))
    trace["draft"] = list(added)
    trace["R"] = list(R)
    # 2. thickening
    thick = []
    for i, j in R:
        res = cut_set(adj, i, j, oracle, eps)
        trace.setdefault("cutsets", []).append(("thickening", (i, j), res))
        if not res[0]:
            adj[i].add(j)
            adj[j].add(i)
            thick.append((i, j))
    trace["thickening"] = thick
    trace["after_thickening"] = sorted((u, v) for u in adj for v in adj[u] if u < v)
    # 3. thinning: one pass in the order added (drafting, then thickening)
    removed = []
    for i, j in added + thick:
        adj[i].discard(j)
        adj[j].discard(i)
        res = cut_set(adj, i, j, oracle, eps) if _path_exists(adj, i, j) else (False, None)
        trace.setdefault("cutsets", []).append(("thinning", (i, j), res))
        if res[0]:
            removed.append((i, j))
        else:
            adj[i].add(j)
            adj[j].add(i)
    trace["thinning_removed"] = removed
    trace["skeleton"] = sorted((u, v) for u in adj for v in adj[u] if u < v)
    return adj


# -- §4.7 step 5 -----------------------------------------------------------------------------------

def orient(adj, oracle: CMIOracle, eps: float, trace: dict | None = None):
    """Orientation of the final skeleton. Returns the set of arcs (parent, child)."""
    trace = {} if trace is None else trace
    n = len(adj)
    edges = sorted((u, v) for u in adj for v in adj[u] if u < v)
    proposals = set()
    for a in range(n):
        for b in range(a + 1, n):
            if b in adj[a]:
                continue
            common = adj[a] & adj[b]
            if not common:
                continue
            sep, S = cut_set(adj, a, b, oracle, eps, allow_empty=True)
            trace.setdefault("cutsets", []).append(("orientation", (a, b), (sep, S)))
            if sep:
                for c in common - S:
                    proposals.add((a, c))
                    proposals.add((b, c))
    arcs: set = set()
    undirected = set(edges)
    conflicts = sorted({(min(u, v), max(u, v)) for u, v in proposals if (v, u) in proposals})
    rejected = []
    # SPEC-OPEN: the spec does not say in which order the one-way proposals are placed (it only
    # matters when one would close a cycle); here: sorted by (tail, head).
    for u, v in sorted(proposals):
        if (v, u) in proposals:
            continue  # proposed both ways: stays undirected
        if _closes_cycle(arcs, u, v):
            rejected.append((u, v))
            continue
        arcs.add((u, v))
        undirected.discard((min(u, v), max(u, v)))
    trace["proposals"] = sorted(proposals)
    trace["conflicts"] = conflicts
    trace["collider_cycle_rejections"] = rejected
    trace["collider_arcs"] = sorted(arcs)

    def adjacent(p, q):
        return q in adj[p]

    def rule1(s, t):  # X_a → X_s − X_t, X_a and X_t not adjacent ⇒ X_s → X_t
        return any((a, s) in arcs and a != t and not adjacent(a, t) for a in range(n))

    def rule2(s, t):  # X_s → X_a → X_t and X_s − X_t ⇒ X_s → X_t
        return any((s, a) in arcs and (a, t) in arcs for a in range(n))

    meek = []
    changed = True
    while changed:
        changed = False
        for u, v in sorted(undirected):
            if (u, v) not in undirected:
                continue
            for s, t in ((u, v), (v, u)):
                if (rule1(s, t) or rule2(s, t)) and not _closes_cycle(arcs, s, t):
                    arcs.add((s, t))
                    undirected.discard((u, v))
                    meek.append((s, t))
                    changed = True
                    break
    trace["meek"] = meek
    free = []
    for u, v in sorted(undirected):
        arc = (v, u) if _closes_cycle(arcs, u, v) else (u, v)
        arcs.add(arc)
        free.append(arc)
    trace["free"] = free
    return arcs


# -- the whole learner (§4.7 steps 1–6) ------------------------------------------------------------

def tpda_parents(n: int, oracle: CMIOracle, eps: float, max_parents: int = 8, trace: dict | None = None):
    """Attribute parents (sorted lists) of BAN(method="tpda")."""
    trace = {} if trace is None else trace
    adj = skeleton(n, oracle, eps, trace)
    arcs = orient(adj, oracle, eps, trace)
    parents = [sorted(p for p, c in arcs if c == i) for i in range(n)]
    cuts = []
    for i, par in enumerate(parents):
        if len(par) > max_parents:
            # keep the strongest by I(X_i; X_p | Y), ties → smaller index
            ranked = sorted(par, key=_descending(functools.partial(lambda c, p: oracle.cmi(c, p, ()), i)))
            keep = sorted(ranked[:max_parents])
            cuts.append((i, [p for p in par if p not in keep]))
            parents[i] = keep
    trace["parent_cap_cuts"] = cuts
    return parents
