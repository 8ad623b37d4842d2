"""Slow plain-Python reference for BAN(method="tpda", ban_test="x2"), written only from the spec text
(ALGORITHMS.md §4.7 "`method: tpda`" to the end of §4.7, and the tie rule of §0.3): Cheng &
Greiner's three-phase dependency analysis on the attributes, with the class in every conditioning
set, and the calibrated Pearson X² test (strata with n_s ≥ 2, observed values only, real
degrees of freedom Σ n_s/(n_s − 1)·d_s, the rows-per-df sufficiency rule). It never imports or
copies bncbench code (nor the earlier-reading oracle tests/oracles/tpda.py).

How it stays obviously correct:
* counts are Counters over the rows (identical rows merged with their multiplicity first);
* X² and df are exact `Fraction`s, so count tables that are permutations of each other give the
  same value bit for bit, and the sufficiency rule n_inf ≥ m·df is decided exactly;
* `ln p` is scipy's regularized incomplete gamma where that is representable, and below
  p = 1e−250 the Legendre continued fraction for ln Q(a, x) written out here (`log_q_cf`);
* AdjPath is the plain definition: every simple x–y path of the graph without the edge x–y is
  enumerated and its inner nodes collected;
* every rule of the spec is one visible step below, in the spec's order.

Decisions the spec leaves open are marked "SPEC-OPEN" below.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction

from scipy.special import gammainc, gammaincc

#: below this p the continued fraction gives ln p (the spec's example threshold)
CF_BELOW = 1e-250
#: relative slack of the sufficiency rule n_inf ≥ m·df (§4.7 item 4)
SLACK = Fraction(1e-12)


# -- numerics --------------------------------------------------------------------------------------

def round10(v: float) -> float:
    """v rounded to 10 significant digits (§4.7 item 8); |v| < 1e−12 → 0.

    SPEC-OPEN: how to round is not said; here the decimal expansion of the double, rounded half
    to even (Python's "e" format). Other roundings differ only on values within 1 ulp of a 10th-
    digit boundary."""
    if abs(v) < 1e-12:
        return 0.0
    return float(f"{v:.9e}")


def log_q_cf(a: float, x: float) -> float:
    """ln Q(a, x) of the regularized upper incomplete gamma from Legendre's continued fraction

        Q(a, x) = e^{−x} x^a / Γ(a) · 1 / (x + 1 − a − 1·(1 − a) / (x + 3 − a − 2·(2 − a) / (x + 5 − a − …)))

    evaluated by the modified Lentz method (converges fast for x > a + 1, the only region where
    Q is small enough to need it). The prefactor is taken in logs, so nothing underflows."""
    if not x > a + 1:
        raise ValueError(f"continued fraction used outside x > a + 1 (a={a!r}, x={x!r})")
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for k in range(1, 100_000):
        an = -k * (k - a)
        b += 2.0
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    else:
        raise ArithmeticError(f"continued fraction did not converge (a={a!r}, x={x!r})")
    return -x + a * math.log(x) - math.lgamma(a) + math.log(h)


def chi2_log_sf(x2: float, df: float) -> float:
    """ln P(χ²_df ≥ x2) = ln Q(df/2, x2/2), accurate (relative) everywhere and never −inf.

    SPEC-OPEN (accuracy, not a rule): near p = 1 the spec's ranking compares −ln p to 10
    digits, and ln(Q) with Q rounded to a double loses those digits when P = 1 − Q is tiny; so
    for P < 0.5 this takes ln p = log1p(−P) from the lower function P (relative-accurate), for
    1e−250 ≤ Q ≤ 0.5 ln Q, and below that the continued fraction."""
    if x2 <= 0.0:
        return 0.0
    a, x = df / 2.0, x2 / 2.0
    P = float(gammainc(a, x))
    if P < 0.5:
        return math.log1p(-P)
    Q = float(gammaincc(a, x))
    if Q >= CF_BELOW:
        return math.log(Q)
    return log_q_cf(a, x)


# -- the CI test -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class CITest:
    """One evaluated test T(i, j | Z): is X_i ⊥ X_j | Z ∪ {Y}?"""

    x2: Fraction  # Pearson X² over the active strata (item 2)
    df: Fraction  # Σ_active n_s/(n_s − 1)·d_s (item 3)
    n_inf: int  # Σ_active n_s
    informative: bool  # item 4
    p: float  # chi-square survival at real df, 1 when not informative (item 5)
    neg_ln_p: float  # −ln p without underflow (item 6), 0 when p = 1
    independent: bool  # p ≥ α

    @property
    def kappa(self) -> tuple[float, float]:
        """Ranking key κ = (−ln p, X²), both rounded to 10 significant digits (items 6 and 8)."""
        return (round10(self.neg_ln_p), round10(float(self.x2)))


def stratum_tables(rows_w, i, j, Z) -> dict:
    """{(z, y): Counter{(x_i, x_j): count}} over all rows (rows_w: [(row, y, multiplicity)])."""
    tables: dict = defaultdict(Counter)
    for row, c, w in rows_w:
        tables[(tuple(row[z] for z in Z), c)][(row[i], row[j])] += w
    return tables


def x2_statistics(tables: dict) -> tuple[Fraction, Fraction, int, int]:
    """(X², df, n_inf, number of active strata) of items 1–3 from the strata's tables."""
    x2, df, n_inf, active = Fraction(0), Fraction(0), 0, 0
    for cells in tables.values():
        n_s = sum(cells.values())
        if n_s < 2:
            continue  # a stratum with one row contributes nothing anywhere
        row_tot: Counter[int] = Counter()
        col_tot: Counter[int] = Counter()
        for (a, b), n in cells.items():
            row_tot[a] += n
            col_tot[b] += n
        r_s, c_s = len(row_tot), len(col_tot)  # values observed in s
        d_s = (r_s - 1) * (c_s - 1)
        if d_s == 0:
            continue  # inactive
        active += 1
        for a in row_tot:  # observed values only, zero cells included
            for b in col_tot:
                e = Fraction(row_tot[a] * col_tot[b], n_s)
                x2 += (cells.get((a, b), 0) - e) ** 2 / e
        df += Fraction(n_s, n_s - 1) * d_s
        n_inf += n_s
    return x2, df, n_inf, active


class X2Tests:
    """The cached CI tests of one fit, and I_ML(X_i; X_j | Y)."""

    def __init__(self, X, y, alpha: float = 0.01, min_rows_per_df: float = 5):
        merged = Counter((tuple(int(v) for v in r), int(c)) for r, c in zip(X, y))
        self.rows_w = [(r, c, w) for (r, c), w in sorted(merged.items())]
        self.N = len(y)
        self.alpha = alpha
        self.min_rows_per_df = Fraction(min_rows_per_df)
        self.cache: dict[tuple, CITest] = {}
        self._i_ml: dict[tuple[int, int], float] = {}

    def test(self, i: int, j: int, Z) -> CITest:
        """T(i, j | Z), computed once per distinct (i, j, sorted Z) (item 7)."""
        i, j = min(i, j), max(i, j)
        key = (i, j, tuple(sorted(Z)))
        got = self.cache.get(key)
        if got is None:
            got = self._compute(*key)
            self.cache[key] = got
        return got

    def _compute(self, i, j, Z) -> CITest:
        x2, df, n_inf, active = x2_statistics(stratum_tables(self.rows_w, i, j, Z))
        # SPEC-OPEN: "relative slack of 1e−12" read as n_inf ≥ m·df·(1 − 1e−12), decided exactly
        informative = active > 0 and n_inf >= self.min_rows_per_df * df * (1 - SLACK)
        if not informative:
            return CITest(x2, df, n_inf, False, 1.0, 0.0, True)
        x2f, dff = float(x2), float(df)
        ln_p = chi2_log_sf(x2f, dff)
        # the decision p ≥ α uses scipy's Q itself (exact X² and df rounded once to doubles)
        p = 1.0 if x2f == 0.0 else float(gammaincc(dff / 2.0, x2f / 2.0))
        return CITest(x2, df, n_inf, True, p, -ln_p, p >= self.alpha)

    def i_ml(self, i: int, j: int) -> float:
        """I_ML(X_i; X_j | Y) in nats (§3 with counts; zero counts contribute 0)."""
        if (i, j) not in self._i_ml:
            self._i_ml[(i, j)] = self._compute_i_ml(i, j)
        return self._i_ml[(i, j)]

    def _compute_i_ml(self, i: int, j: int) -> float:
        nab: Counter[tuple[int, int, int]] = Counter()
        na: Counter[tuple[int, int]] = Counter()
        nb: Counter[tuple[int, int]] = Counter()
        ny: Counter[int] = Counter()
        for row, c, w in self.rows_w:
            nab[(row[i], row[j], c)] += w
            na[(row[i], c)] += w
            nb[(row[j], c)] += w
            ny[c] += w
        return math.fsum(n / self.N * math.log(ny[c] * n / (na[(a, c)] * nb[(b, c)]))
                         for (a, b, c), n in nab.items())


# -- graph helpers (undirected adjacency: list of sets) --------------------------------------------

def joined(adj, a: int, b: int) -> bool:
    """Whether some path joins a and b."""
    seen, todo = {a}, [a]
    while todo:
        u = todo.pop()
        if u == b:
            return True
        for w in adj[u] - seen:
            seen.add(w)
            todo.append(w)
    return False


def adj_path(adj, x: int, y: int) -> set[int]:
    """AdjPath(x, y): the nodes other than x, y on some simple x–y path of the graph without the
    edge x–y, by enumerating every such path (depth-first, no node twice)."""
    found: set[int] = set()

    def extend(path: list[int], on_path: set[int]):
        u = path[-1]
        for w in adj[u]:
            if u == x and w == y:
                continue  # the edge x–y itself is left out
            if w == y:
                found.update(path[1:])
            elif w not in on_path:
                path.append(w)
                on_path.add(w)
                extend(path, on_path)
                on_path.discard(w)
                path.pop()

    extend([x], {x})
    return found


def s_sets(adj, x: int, y: int) -> tuple[set[int], set[int]]:
    """(S_x, S′_x) for the pair (x, y)."""
    ap = adj_path(adj, x, y)
    s = adj[x] & ap
    around = set().union(*(adj[v] for v in s)) if s else set()
    s2 = (around - s - {x, y}) & ap
    return s, s2


def closes_cycle(arcs: set, u: int, v: int) -> bool:
    """Whether adding u → v closes a directed cycle, i.e. a directed path v ⇝ u exists."""
    return directed_path(arcs, v, u)


def directed_path(arcs: set, s: int, t: int) -> bool:
    """A directed path s ⇝ t (length ≥ 0) over `arcs`."""
    seen, todo = {s}, [s]
    while todo:
        u = todo.pop()
        if u == t:
            return True
        for (p, c) in arcs:
            if p == u and c not in seen:
                seen.add(c)
                todo.append(c)
    return False


# -- the learner -----------------------------------------------------------------------------------

class TPDA:
    """One run of §4.7 `method: tpda` with the X² test; `run()` returns (parents, info)."""

    def __init__(self, X, y, alpha: float = 0.01, min_rows_per_df: float = 5, max_parents: int = 8):
        self.n = len(X[0]) if len(X) else 0
        self.tests = X2Tests(X, y, alpha, min_rows_per_df)
        self.max_parents = max_parents
        self.adj: list[set[int]] = [set() for _ in range(self.n)]
        self.cutset: dict[tuple[int, int], tuple[int, ...]] = {}
        self.trace: dict = defaultdict(list)

    # graph edits
    def add(self, i, j):
        self.adj[i].add(j)
        self.adj[j].add(i)

    def remove(self, i, j):
        self.adj[i].discard(j)
        self.adj[j].discard(i)

    # Greedy and the two EdgeNeeded routines
    def greedy(self, x: int, y: int, C) -> bool:
        """Greedy(x, y, C): True = separated (cut-set stored), False = failed."""
        assert x < y
        C = sorted(C)
        t = self.tests.test(x, y, C)
        if t.independent:
            self.cutset[(x, y)] = tuple(C)
            return True
        s = t.kappa
        while len(C) > 1:
            best_m, best_t = None, None
            for c in C:  # ascending: a later equal κ does not replace (ties → smallest removed node)
                tc = self.tests.test(x, y, [v for v in C if v != c])
                if best_t is None or tc.kappa < best_t.kappa:
                    best_m, best_t = c, tc
            assert best_t is not None
            rest = [v for v in C if v != best_m]
            if best_t.independent:
                self.cutset[(x, y)] = tuple(rest)  # a later successful call overwrites
                self.trace["greedy_separated_smaller"].append((x, y, tuple(rest)))
                return True
            if best_t.kappa > s:
                self.trace["greedy_kappa_rose"].append((x, y, tuple(C)))
                return False
            self.trace["greedy_steps"].append((x, y, tuple(rest)))
            C, s = rest, best_t.kappa
        return False

    def edge_needed_h(self, x: int, y: int) -> bool:
        """EdgeNeeded_H (Fig. 6): x's side first, then y's."""
        sx, _ = s_sets(self.adj, x, y)
        if sx and self.greedy(x, y, sx):
            return False
        sy, _ = s_sets(self.adj, y, x)
        return not (sy and self.greedy(x, y, sy))

    def edge_needed(self, x: int, y: int) -> bool:
        """EdgeNeeded (Fig. 8): the smaller of A = S_x ∪ S′_x and B = S_y ∪ S′_y (B on equal size)."""
        sx, sx2 = s_sets(self.adj, x, y)
        sy, sy2 = s_sets(self.adj, y, x)
        A, B = sx | sx2, sy | sy2
        C = A if len(A) < len(B) else B
        return not self.greedy(x, y, C)

    # phases
    def skeleton(self):
        n, T = self.n, self.tests
        # 1. drafting
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        L = [p for p in pairs if not T.test(p[0], p[1], ()).independent]
        L.sort(key=lambda p: (-round10(T.i_ml(*p)), p))  # descending I_ML, ties lexicographic
        self.trace["draft_ties"] = [(p, q) for p, q in itertools.pairwise(L)
                                    if round10(T.i_ml(*p)) == round10(T.i_ml(*q))]
        E, R = [], []
        for i, j in L:
            if joined(self.adj, i, j):
                R.append((i, j))
            else:
                self.add(i, j)
                E.append((i, j))
        self.trace["draft"] = list(E)
        self.trace["R"] = list(R)
        # 2. thickening
        for i, j in R:
            if self.edge_needed_h(i, j):
                self.add(i, j)
                E.append((i, j))
                self.trace["thickening"].append((i, j))
        # 3. thinning, pass 1
        for i, j in E:
            self.remove(i, j)
            if joined(self.adj, i, j) and not self.edge_needed_h(i, j):
                self.trace["thinning1"].append((i, j))
            else:
                self.add(i, j)
        # 4. thinning, pass 2
        for i, j in E:
            if j not in self.adj[i]:
                continue
            if len(self.adj[i] - {j}) >= 3 or len(self.adj[j] - {i}) >= 3:
                self.remove(i, j)
                if not self.edge_needed(i, j):
                    self.trace["thinning2"].append((i, j))
                else:
                    self.add(i, j)
        self.trace["skeleton"] = self.edges()

    def edges(self) -> list[tuple[int, int]]:
        return sorted((u, v) for u in range(self.n) for v in self.adj[u] if u < v)

    def orient(self) -> set[tuple[int, int]]:
        n, adj = self.n, self.adj
        proposals = set()
        for a in range(n):
            for b in range(a + 1, n):
                if b in adj[a]:
                    continue
                cut = self.cutset.get((a, b), ())  # no stored cut-set: read as ∅
                for c in sorted(adj[a] & adj[b]):
                    if c not in cut:
                        proposals.add((a, c))
                        proposals.add((b, c))
        arcs: set = set()
        undirected = set(self.edges())
        # SPEC-OPEN: "count it in info" read as one count per edge proposed both ways (not per arc)
        conflicts = sorted({(min(u, v), max(u, v)) for u, v in proposals if (v, u) in proposals})
        for u, v in sorted(proposals):
            if (v, u) in proposals:
                continue  # proposed both ways: the edge stays undirected (counted in `conflicts`)
            if closes_cycle(arcs, u, v):
                self.trace["collider_cycle_skips"].append((u, v))
                continue
            arcs.add((u, v))
            undirected.discard((min(u, v), max(u, v)))
            self.trace["colliders"].append((u, v))
        self.trace["proposals"] = sorted(proposals)
        self.trace["conflicts"] = conflicts

        def r2(s, t):  # some x → s with x ≠ t and x not adjacent to t
            return any((x, s) in arcs and x != t and t not in adj[x] for x in range(n))

        def r3(s, t):  # a directed path from s to t
            return directed_path(arcs, s, t)

        changed = True
        while changed:
            changed = False
            for name, rule in (("R2", r2), ("R3", r3)):
                for u, v in sorted(undirected):
                    for s, t in ((u, v), (v, u)):
                        if rule(s, t) and not closes_cycle(arcs, s, t):
                            arcs.add((s, t))
                            undirected.discard((u, v))
                            self.trace[name].append((s, t))
                            changed = True
                            break
        for u, v in sorted(undirected):
            arc = (v, u) if closes_cycle(arcs, u, v) else (u, v)
            arcs.add(arc)
            self.trace["free"].append(arc)
        return arcs

    def run(self) -> tuple[list[list[int]], dict]:
        self.skeleton()
        arcs = self.orient()
        parents = [sorted(p for p, c in arcs if c == i) for i in range(self.n)]
        cuts = []
        for i, par in enumerate(parents):
            if len(par) > self.max_parents:  # keep the strongest by I(X_i; X_p | Y), ties → smaller index
                ranked = sorted(par, key=lambda p: (-round10(self.tests.i_ml(min(i, p), max(i, p))), p))
                keep = sorted(ranked[: self.max_parents])
                cuts.append((i, [p for p in par if p not in keep]))
                parents[i] = keep
        cache = self.tests.cache
        # SPEC-OPEN: `tests_lacking_data` = distinct tests (drafting's Z = ∅ ones included) that are
        # not informative under item 4, whether for no active stratum or for n_inf < m·df
        info = {
            "distinct_tests": len(cache),
            "tests_lacking_data": sum(not t.informative for t in cache.values()),
            "conflicting_edges": len(self.trace["conflicts"]),
            "parent_cap_cuts": cuts,
            "skeleton": self.trace["skeleton"],
            "cutsets": dict(self.cutset),
            "trace": dict(self.trace),
        }
        return parents, info


def tpda_x2(X, y, alpha: float = 0.01, min_rows_per_df: float = 5, max_parents: int = 8):
    """(parents, info) of BAN(method="tpda", ban_test="x2") on integer codes X (rows) and y."""
    return TPDA(X, y, alpha, min_rows_per_df, max_parents).run()
