"""BAN(method="tpda", ban_test="x2") (ALGORITHMS.md §4.7, the calibrated X² test) against the
plain-Python reference tests/oracles/ban/tpda_x2.py, written from the spec text only, through the
classifier's public API (`parents_`, `info_`).

* test_matches_oracle — 77 inputs drawn from random class-augmented networks (3–8 attributes,
  2–4 values, 2–3 classes, N = 30 … 3000 so that the rows-per-df rule bites on the small ones;
  some with relabelled copies of attributes, exchangeable pairs or coarsened copies (exact ties),
  constant attributes, missing values (one more value), other α / rows-per-df / parent caps):
  `parents_` and the counts `distinct_tests`, `tests_lacking_data`, `conflicting_edges` equal
  the oracle's.
* test_cases_exercise_every_rule — those inputs are not trivial: together they meet every
  phase and rule of the procedure in the oracle's run.
* test_known_network_* — the exact skeleton of two known 6-attribute class-augmented networks
  (a tree; one with the v-structure 0 → 2 ← 1), N = 5000, is recovered in at least 18 of 20
  random parameter draws (and the v-structure oriented whenever it is), by the oracle (validates
  the criterion independently of the code) and by the classifier. The oracle recovers 18/20 on
  both (187/200 and 189/200 over draws 0–199; at N = 500 16/20 and 11/20).
* test_x2_* / test_log_sf_* / test_adj_path_* / test_greedy_* — the oracle's own pieces against
  textbook computations: Pearson X² and the real df on hand-made strata, the sufficiency rule at
  its boundary, ln Q(a, x) against scipy where that is finite and against closed forms where it
  underflows, AdjPath and Greedy on hand-made inputs.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import cast

import numpy as np
import pytest
from scipy import special, stats

from bncbench.classifiers import BAN
from tests.oracles.ban import tpda_x2 as ref

# -- data ------------------------------------------------------------------------------------------

def sample_network(rng: np.random.Generator, cards, parents: dict[int, list[int]], order, n_classes: int,
                   n_rows: int, concentration: float) -> tuple[np.ndarray, np.ndarray]:
    """Rows of a class-augmented network: the class uniform, each attribute (in `order`, parents
    first) drawn from a CPT per (parent values, class) with rows ~ Dirichlet(concentration)."""
    y = rng.integers(0, n_classes, size=n_rows)
    X = np.zeros((n_rows, len(cards)), dtype=np.int64)
    for a in order:
        cfg, n_cfg = y.copy(), n_classes
        for p in parents.get(a, []):
            cfg = cfg * cards[p] + X[:, p]
            n_cfg *= int(cards[p])
        table = rng.dirichlet(np.full(int(cards[a]), concentration), size=n_cfg)
        u = rng.random(n_rows)
        X[:, a] = np.minimum((u[:, None] > np.cumsum(table[cfg], axis=1)).sum(axis=1), cards[a] - 1)
    return X, y


def random_dag(rng: np.random.Generator, n_attr: int, min_parents: int) -> tuple[list[int], dict[int, list[int]]]:
    """(a random topological order, {attribute: attribute parents}): each attribute takes
    min_parents … 3 parents (at most as many as precede it) among those before it in the order."""
    order = [int(a) for a in rng.permutation(n_attr)]
    parents = {}
    for pos, a in enumerate(order):
        m = min(pos, int(rng.integers(min_parents, 4)))
        parents[a] = [int(p) for p in rng.choice(order[:pos], size=m, replace=False)] if m else []
    return order, parents


@dataclass(frozen=True)
class Case:
    """One input of test_matches_oracle with the classifier's parameters."""

    X: np.ndarray  # codes, −1 = missing
    y: np.ndarray
    cards: list[int]
    n_classes: int
    alpha: float
    min_rows_per_df: float
    max_parents: int

    def codes(self) -> list[list[int]]:
        """The oracle's input: a missing value is one more value (code K_i)."""
        return [[int(v) if v >= 0 else self.cards[i] for i, v in enumerate(r)] for r in self.X]


SIZES = (30, 50, 80, 120, 200, 300, 500, 800, 1200, 2000, 3000)
N_CASES = 64


def make_case(k: int) -> Case:
    """Case k: N = SIZES[k mod 11], 3 + k mod 6 attributes, 2 or 3 classes; k mod 8 = 3: relabelled
    copies of attributes; 5: constant attributes; 7: missing values; k mod 16 = 9: parent cap 1,
    13: α = 0.05 with 2 rows per df, 1: α = 0.001 with 10 rows per df."""
    rng = np.random.default_rng([k, 2026])
    n_rows, n_attr, n_classes = SIZES[k % 11], 3 + k % 6, 2 + (k // 6) % 2
    variant = k % 8
    n_extra = min(int(rng.integers(1, 3)), n_attr - 2) if variant in (3, 5) else 0
    n_base = n_attr - n_extra
    cards = [int(c) for c in rng.integers(2, 5, size=n_base)]
    order, parents = random_dag(rng, n_base, 0)
    X, y = sample_network(rng, cards, parents, order, n_classes, n_rows, float(rng.choice([0.3, 1.0])))
    cols, base_cards = [X[:, a] for a in range(n_base)], list(cards)
    for _ in range(n_extra):
        at = int(rng.integers(0, len(cols) + 1))
        if variant == 3:  # a copy of an attribute with its values relabelled
            src = int(rng.integers(0, n_base))
            perm = rng.permutation(base_cards[src])
            cols.insert(at, perm[X[:, src]])
            cards.insert(at, base_cards[src])
        else:  # a constant attribute (cardinality 1, or values that never occur)
            cols.insert(at, np.zeros(n_rows, dtype=np.int64))
            cards.insert(at, int(rng.integers(1, 4)))
    X = np.column_stack(cols)
    if variant == 7:
        X[rng.random(X.shape) < 0.05] = -1
    alpha, min_rows, max_parents = 0.01, 5, 8
    if k % 16 == 9:
        max_parents = 1
    elif k % 16 == 13:
        alpha, min_rows = 0.05, 2
    elif k % 16 == 1:
        alpha, min_rows = 0.001, 10
    return Case(X, y, cards, n_classes, alpha, min_rows, max_parents)


def make_dense_case(seed: int) -> Case:
    """A denser network: 6–8 attributes with up to 3 attribute parents each, N = 200 … 3000."""
    rng = np.random.default_rng([seed, 99])
    n_attr, n_rows = int(rng.integers(6, 9)), int(rng.choice([200, 500, 1000, 2000, 3000]))
    n_classes = int(rng.integers(2, 4))
    cards = [int(c) for c in rng.integers(2, 5, size=n_attr)]
    order, parents = random_dag(rng, n_attr, 0)
    X, y = sample_network(rng, cards, parents, order, n_classes, n_rows, float(rng.choice([0.3, 1.0])))
    return Case(X, y, cards, n_classes, 0.01, 5, 8)


def make_tie_case(kind: str, seed: int) -> Case:
    """Exact ties that are not copies. "sym": two attributes b, c made exchangeable (every row
    also appears with b and c swapped), so tests with b or c in the conditioning set tie with the
    swapped ones and Greedy's tie rule (smallest removed node) decides the cut-set. "coarse": one
    more attribute ⌊x_b / 2⌋, a function of b, so a set with both tests the same as without it
    (Greedy's κ_m = s continues)."""
    mode = {"sym": 1, "coarse": 2}[kind]
    rng = np.random.default_rng([seed, 78, mode])
    n_base, n_rows = int(rng.integers(4, 8)), int(rng.choice([100, 200, 400, 800, 1500]))
    n_classes = int(rng.integers(2, 4))
    cards = [int(c) for c in rng.integers(2, 5, size=n_base)]
    order, parents = random_dag(rng, n_base, 1)
    X, y = sample_network(rng, cards, parents, order, n_classes, n_rows, float(rng.choice([0.3, 1.0])))
    if kind == "sym":
        b, c = (int(v) for v in rng.choice(n_base, size=2, replace=False))
        k = max(cards[b], cards[c])
        cards[b] = cards[c] = k
        swapped = X.copy()
        swapped[:, [b, c]] = X[:, [c, b]]
        X, y = np.vstack([X, swapped]), np.concatenate([y, y])
    else:
        b = int(rng.integers(0, n_base))
        X = np.column_stack([X, X[:, b] // 2])
        cards.append((cards[b] + 1) // 2)
    return Case(X, y, cards, n_classes, 0.01, 5, 8)


#: dense seeds picked for what the grid meets rarely: thinning pass 2 removes an edge (0, 12, 41,
#: 47, 61), a collider proposal closes a directed cycle (48), an R3 arc lets R2 orient another edge
#: than the final low → high rule would (174). Tie seeds picked from
#: the first 400 of each kind as those where a changed rule changes the result: Greedy's tie rule
#: (sym10, sym20), its κ_m = s rule (sym324, coarse151), X² as κ's second key (coarse280), ln p
#: below the double range (sym40: 3000 rows, strong dependences).
DENSE_SEEDS = (0, 12, 41, 47, 48, 61, 174)
TIE_CASES = ("sym10", "sym20", "sym324", "sym40", "coarse151", "coarse280")
CASE_IDS = [f"grid{k}" for k in range(N_CASES)] + [f"dense{s}" for s in DENSE_SEEDS] + list(TIE_CASES)


@functools.cache
def case(name: str) -> Case:
    kind, seed = name.rstrip("0123456789"), int(name.lstrip("abcdefghijklmnopqrstuvwxyz"))
    if kind == "grid":
        return make_case(seed)
    if kind == "dense":
        return make_dense_case(seed)
    return make_tie_case(kind, seed)


@functools.cache
def oracle_result(name: str):
    c = case(name)
    return ref.tpda_x2(c.codes(), c.y.tolist(), c.alpha, c.min_rows_per_df, c.max_parents)


def fit_ban(X, y, cards, n_classes, alpha=0.01, min_rows_per_df=5, max_parents=8) -> BAN:
    return BAN(method="tpda", ban_test="x2", ban_alpha=alpha, ban_min_rows_per_df=min_rows_per_df,
               ban_max_parents=max_parents, cardinalities=list(cards), n_classes=n_classes).fit(X, y)


INFO_KEYS = ("distinct_tests", "tests_lacking_data", "conflicting_edges")


# -- the classifier against the oracle -------------------------------------------------------------

@pytest.mark.parametrize("name", CASE_IDS)
def test_matches_oracle(name):
    c = case(name)
    expect, info = oracle_result(name)
    b = fit_ban(c.X, c.y, c.cards, c.n_classes, c.alpha, c.min_rows_per_df, c.max_parents)
    trace = info["trace"]
    where = (f"case {name} (N={len(c.y)}, cards={c.cards}, classes={c.n_classes}, α={c.alpha}, "
             f"rows/df={c.min_rows_per_df}, cap={c.max_parents}); oracle: skeleton {info['skeleton']}, "
             f"drafted {trace.get('draft')}, thickening {trace.get('thickening', [])}, thinning "
             f"{trace.get('thinning1', [])} / {trace.get('thinning2', [])}, cut-sets {info['cutsets']}")
    assert [list(map(int, p)) for p in b.parents_] == expect, f"parents {b.parents_} != {expect}; {where}"
    got = {key: b.info_[key] for key in INFO_KEYS}
    assert got == {key: info[key] for key in INFO_KEYS}, where


def test_cases_exercise_every_rule():
    """Across the inputs the oracle's runs meet: uninformative tests (the rows-per-df rule),
    drafting ties, thickening, both thinning passes, Greedy steps that shrink the set, Greedy
    separating on a smaller set and stopping on a rising κ, colliders, a collider arc skipped for
    a cycle, edges proposed both ways, R2, R3, free edges, parent cuts."""
    seen = {key: 0 for key in ("tests_lacking_data", "draft_ties", "thickening", "thinning1", "thinning2",
                               "greedy_steps", "greedy_separated_smaller", "greedy_kappa_rose", "colliders",
                               "collider_cycle_skips", "conflicts", "R2", "R3", "free", "parent_cap_cuts")}
    for name in CASE_IDS:
        _, info = oracle_result(name)
        for key in seen:
            seen[key] += bool(info[key] if key in info else info["trace"].get(key))
    assert all(seen.values()), seen


# -- known networks --------------------------------------------------------------------------------

#: name → (cardinalities, parents); parents precede children in index order
KNOWN = {
    "tree": ([2, 3, 2, 3, 2, 3], {1: [0], 2: [1], 3: [1], 4: [3], 5: [3]}),
    "v-structure": ([2, 3, 3, 2, 3, 2], {2: [0, 1], 3: [2], 4: [3], 5: [3]}),
}
DRAWS, NEEDED, KNOWN_N = 20, 18, 5000


def known_draw(name: str, draw: int, n_rows: int = KNOWN_N):
    """(X, y, cards, true skeleton) of draw `draw`: CPT rows ~ Dirichlet(1), two classes."""
    cards, parents = KNOWN[name]
    rng = np.random.default_rng([draw, 7])
    X, y = sample_network(rng, cards, parents, range(len(cards)), 2, n_rows, 1.0)
    return X, y, cards, sorted((p, c) for c, ps in parents.items() for p in ps)


def skeleton_of(parents) -> list[tuple[int, int]]:
    return sorted((min(p, c), max(p, c)) for c, ps in enumerate(parents) for p in ps)


def check_known_network(name: str, learn) -> None:
    """At least NEEDED of DRAWS draws give the exact skeleton; on the v-structure network every
    draw with the exact skeleton orients 0 → 2 ← 1 (the pair 0, 1 is separated by ∅ or by a set
    without 2, so the collider is proposed)."""
    hits, missed, colliders = 0, [], 0
    for draw in range(DRAWS):
        X, y, cards, truth = known_draw(name, draw)
        parents = [list(map(int, p)) for p in learn(X, y, cards)]
        if skeleton_of(parents) == truth:
            hits += 1
            colliders += {0, 1} <= set(parents[2])
        else:
            missed.append((draw, skeleton_of(parents)))
    assert hits >= NEEDED, f"{name}: {hits}/{DRAWS} draws give the skeleton {truth}; missed {missed}"
    if name == "v-structure":
        assert colliders == hits, f"0 → 2 ← 1 oriented in {colliders} of {hits} draws"


@pytest.mark.parametrize("name", list(KNOWN))
def test_known_network_oracle(name):
    check_known_network(name, lambda X, y, cards: ref.tpda_x2(X.tolist(), y.tolist())[0])


@pytest.mark.parametrize("name", list(KNOWN))
def test_known_network_classifier(name):
    check_known_network(name, lambda X, y, cards: fit_ban(X, y, cards, 2).parents_)


# -- the oracle's statistics against textbook computations -----------------------------------------

def _rows(strata) -> tuple[list[list[int]], list[int]]:
    """Rows (x_i, x_j) and classes from {class: [[count of (a, b)] …]} (a = row, b = column)."""
    X, y = [], []
    for c, table in strata.items():
        for a, line in enumerate(table):
            for b, n in enumerate(line):
                X += [[a, b]] * n
                y += [c] * n
    return X, y


def _pearson_2x2(t) -> Fraction:
    """The textbook 2×2 formula N(ad − bc)² / ((a+b)(c+d)(a+c)(b+d))."""
    (a, b), (c, d) = t
    n = a + b + c + d
    return Fraction(n * (a * d - b * c) ** 2, (a + b) * (c + d) * (a + c) * (b + d))


def test_x2_and_df_on_hand_made_strata():
    t0 = [[10, 5], [3, 12]]  # a 2×2 stratum
    t1 = [[4, 0], [2, 3]]  # a zero cell
    t2 = [[0, 1], [0, 0]]  # one row: ignored everywhere
    t3 = [[3, 2, 4], [0, 0, 0]]  # r_s = 1 (only x_i = 0 observed): inactive
    t4 = [[2, 0, 3], [1, 0, 4], [5, 0, 1]]  # x_j = 1 never observed here: a 3×2 stratum, d_s = 2
    X, y = _rows({0: t0, 1: t1, 2: t2, 3: t3, 4: t4})
    tables = ref.stratum_tables([(r, c, 1) for r, c in zip(X, y)], 0, 1, ())
    x2, df, n_inf, active = ref.x2_statistics(tables)
    t4_obs = np.array([[2, 3], [1, 4], [5, 1]], dtype=float)
    chi4 = stats.chi2_contingency(t4_obs, correction=False)
    assert chi4.dof == 2
    assert active == 3
    assert float(x2) == pytest.approx(float(_pearson_2x2(t0) + _pearson_2x2(t1)) + chi4.statistic, rel=1e-13)
    assert df == Fraction(30, 29) + Fraction(9, 8) + Fraction(16, 15) * 2
    assert n_inf == 30 + 9 + 16
    T = ref.X2Tests(X, y).test(0, 1, ())
    assert T.informative  # 55 ≥ 5 · 4.29
    assert T.p == pytest.approx(stats.chi2.sf(float(x2), float(df)), rel=1e-12)
    assert T.neg_ln_p == pytest.approx(-stats.chi2.logsf(float(x2), float(df)), rel=1e-12)
    assert T.independent == (T.p >= 0.01)
    assert T.kappa == (ref.round10(T.neg_ln_p), ref.round10(float(x2)))


@pytest.mark.parametrize("n_s,enough", [(6, True), (5, False), (7, True)])
def test_sufficiency_rule_boundary(n_s, enough):
    """One 2×2 stratum: df = n_s/(n_s − 1), so n_inf ≥ 5·df iff n_s ≥ 6 (equality at 6 is enough).
    Not informative: independent, p = 1, κ = (0, X²)."""
    a = n_s // 2
    X, y = _rows({0: [[a, 0], [1, n_s - a - 1]]})
    T = ref.X2Tests(X, y).test(0, 1, ())
    assert T.df == Fraction(n_s, n_s - 1) and T.n_inf == n_s
    assert T.informative is enough
    if not enough:
        assert T.independent and T.p == 1.0 and T.kappa == (0.0, ref.round10(float(T.x2))) and T.x2 > 0


def test_sufficiency_rule_relative_slack():
    """n_inf = 6, df = 6/5: with m = 5·(1 + 5e−13), m·df exceeds n_inf by less than the 1e−12
    relative slack (enough); with m = 5·(1 + 1e−11) it does not."""
    X, y = _rows({0: [[3, 0], [1, 2]]})
    assert ref.X2Tests(X, y, min_rows_per_df=5 * (1 + 5e-13)).test(0, 1, ()).informative
    assert not ref.X2Tests(X, y, min_rows_per_df=5 * (1 + 1e-11)).test(0, 1, ()).informative


def test_no_active_stratum_is_uninformative():
    """A constant attribute: every stratum has r_s = 1, so no test with it is informative."""
    X = [[0, b] for b in (0, 1, 1, 0, 1, 0, 0, 1)] * 5
    y = [0, 0, 1, 1] * 10
    T = ref.X2Tests(X, y).test(0, 1, ())
    assert not T.informative and T.x2 == 0 and T.df == 0 and T.n_inf == 0 and T.kappa == (0.0, 0.0)


def test_strata_of_the_conditioning_set():
    """Z = {2}: strata are (x_2, y); X² is the sum of the per-stratum Pearson statistics."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, size=(400, 3)).tolist()
    y = rng.integers(0, 2, size=400).tolist()
    x2, df = 0.0, 0.0
    for z in range(3):
        for c in range(2):
            tab = np.zeros((3, 3))
            for r, cc in zip(X, y):
                if r[2] == z and cc == c:
                    tab[r[0], r[1]] += 1
            tab = tab[tab.sum(axis=1) > 0][:, tab.sum(axis=0) > 0]
            n = tab.sum()
            x2 += stats.chi2_contingency(tab, correction=False).statistic
            df += n / (n - 1) * (tab.shape[0] - 1) * (tab.shape[1] - 1)
    T = ref.X2Tests(X, y).test(1, 0, (2,))
    assert float(T.x2) == pytest.approx(x2, rel=1e-12) and float(T.df) == pytest.approx(df, rel=1e-14)
    assert T.p == pytest.approx(stats.chi2.sf(x2, df), rel=1e-10)


def test_permuted_tables_tie_exactly():
    """Relabelled values give the same X², df and κ bit for bit."""
    rng = np.random.default_rng(6)
    X = rng.integers(0, 3, size=(300, 2))
    X[:, 1] = np.where(rng.random(300) < 0.3, X[:, 0], X[:, 1])
    y = rng.integers(0, 2, size=300).tolist()
    Xp = np.column_stack([np.array([2, 0, 1])[X[:, 0]], np.array([1, 2, 0])[X[:, 1]]])
    a, b = ref.X2Tests(X.tolist(), y).test(0, 1, ()), ref.X2Tests(Xp.tolist(), y).test(0, 1, ())
    assert (a.x2, a.df, a.kappa) == (b.x2, b.df, b.kappa) and a.neg_ln_p > 10


def test_round10():
    assert ref.round10(1.23456789012345) == 1.234567890
    assert ref.round10(-98765.432109876) == -98765.43211
    assert ref.round10(9e-13) == 0.0 and ref.round10(-5e-13) == 0.0
    assert ref.round10(1.2e-12) == 1.2e-12
    assert ref.round10(0.1 + 0.2) == ref.round10(0.3)


# -- ln p ------------------------------------------------------------------------------------------

def test_log_sf_continued_fraction_equals_scipy_where_finite():
    """ln Q(a, x) from the continued fraction against ln(scipy's Q) on a grid where Q is a normal
    double (down to 1e−300), x > a + 1."""
    checked = 0
    for df in (0.7, 1.0, 2.0, 3.3, 8.0, 17.25, 60.0, 250.0, 1234.5):
        for q in (1e-3, 1e-20, 1e-100, 1e-200, 1e-251, 1e-280, 1e-300):
            x2 = stats.chi2.isf(q, df)
            a, x = df / 2, x2 / 2
            if not x > a + 1 or not np.isfinite(x2):
                continue
            expect = math.log(special.gammaincc(a, x))
            assert ref.log_q_cf(a, x) == pytest.approx(expect, rel=1e-12), (df, q)
            assert ref.chi2_log_sf(x2, df) == pytest.approx(stats.chi2.logsf(x2, df), rel=1e-12), (df, q)
            checked += 1
    assert checked >= 55


def test_log_sf_closed_forms_beyond_underflow():
    """Where Q underflows: df = 2 gives ln Q = −x2/2; df = 4: −x2/2 + ln(1 + x2/2); df = 6:
    −x2/2 + ln(1 + x2/2 + x2²/8); df = 1: ln erfc(√(x2/2)) = ln 2 + ln Φ(−√x2)."""
    for x2 in (1500.0, 3000.0, 1e4, 1e5, 1e6):
        assert ref.chi2_log_sf(x2, 2.0) == pytest.approx(-x2 / 2, rel=1e-13)
        assert ref.chi2_log_sf(x2, 4.0) == pytest.approx(-x2 / 2 + math.log1p(x2 / 2), rel=1e-13)
        assert ref.chi2_log_sf(x2, 6.0) == pytest.approx(-x2 / 2 + math.log(1 + x2 / 2 + x2 * x2 / 8), rel=1e-13)
        assert ref.chi2_log_sf(x2, 1.0) == pytest.approx(math.log(2) + special.log_ndtr(-math.sqrt(x2)), rel=1e-12)
    # continuity across the switch at p = 1e−250 and a real df
    df = 7.5
    x2 = stats.chi2.isf(1e-250, df)
    below, above = ref.chi2_log_sf(x2 * (1 + 1e-9), df), ref.chi2_log_sf(x2 * (1 - 1e-9), df)
    assert below < above and above - below < 1e-5 and above == pytest.approx(math.log(1e-250), rel=1e-8)


def test_log_sf_near_one_is_relative_accurate():
    """p close to 1: −ln p = −log1p(−P) keeps its digits (P from the lower incomplete gamma)."""
    for df, x2 in ((10.0, 0.01), (30.0, 0.5), (2.0, 1e-9)):
        P = special.gammainc(df / 2, x2 / 2)
        assert -ref.chi2_log_sf(x2, df) == pytest.approx(P, rel=1e-6) and P < 1e-5
    assert ref.chi2_log_sf(0.0, 3.0) == 0.0


# -- the oracle's graph routines -------------------------------------------------------------------

def _graph(n, edges):
    adj: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        adj[u].add(v)
        adj[v].add(u)
    return adj


def test_adj_path_on_hand_made_graphs():
    # x=0, y=1; 0–2–1 (a path), 2–3 (pendant: not on an x–y path), 0–4–5–1 (a cycle), 5–6–7–5 (a
    # triangle hanging off 5 by the cut vertex 5: not on a simple x–y path), 0–1 present (left out)
    adj = _graph(8, [(0, 1), (0, 2), (2, 1), (2, 3), (0, 4), (4, 5), (5, 1), (5, 6), (6, 7), (7, 5)])
    assert ref.adj_path(adj, 0, 1) == {2, 4, 5} == ref.adj_path(adj, 1, 0)
    # a node reached only through x is not on a path to y
    adj = _graph(5, [(0, 2), (2, 1), (0, 3), (3, 4), (4, 0)])
    assert ref.adj_path(adj, 0, 1) == {2}
    # disconnected pair
    assert ref.adj_path(_graph(4, [(0, 2), (1, 3)]), 0, 1) == set()
    # S_x and S'_x: x=0, y=1 with 0–2–3–1 and 0–4–3
    adj = _graph(6, [(0, 2), (2, 3), (3, 1), (0, 4), (4, 3), (2, 5)])
    assert ref.s_sets(adj, 0, 1) == ({2, 4}, {3})
    assert ref.s_sets(adj, 1, 0) == ({3}, {2, 4})


class _ScriptedTests:
    """CI tests with given κ and decisions: {sorted Z tuple: (κ, independent)}."""

    def __init__(self, script):
        self.script = script
        self.asked: list[tuple[int, ...]] = []

    def test(self, i, j, Z):
        Z = tuple(sorted(Z))
        self.asked.append(Z)
        kappa, indep = self.script[Z]
        return SimpleNamespace(kappa=kappa, independent=indep)


def _greedy(script, C):
    run = ref.TPDA([[0] * 6], [0])
    tests = _ScriptedTests(script)
    run.tests = cast(ref.X2Tests, tests)  # duck-typed: Greedy calls only .test
    return run.greedy(0, 1, C), run.cutset.get((0, 1)), tests.asked


def test_greedy_break_rule_and_cut_sets():
    dep = False
    # shrinks while κ does not rise, ties → smallest removed node, separates on {3}
    script = {(2, 3, 4): ((5.0, 9.0), dep), (3, 4): ((4.0, 8.0), dep), (2, 4): ((4.0, 8.0), dep),
              (2, 3): ((6.0, 1.0), dep), (4,): ((4.0, 7.0), dep), (3,): ((0.5, 1.0), True)}
    assert _greedy(script, [4, 2, 3]) == (True, (3,), [(2, 3, 4), (3, 4), (2, 4), (2, 3), (4,), (3,)])
    # κ_m > s: failed at once
    script = {(2, 3): ((1.0, 1.0), dep), (3,): ((1.0, 2.0), dep), (2,): ((3.0, 0.0), dep)}
    assert _greedy(script, [2, 3]) == (False, None, [(2, 3), (3,), (2,)])
    # κ_m = s: continue; |C| = 1 ends the loop: failed
    script = {(2, 3): ((1.0, 1.0), dep), (3,): ((1.0, 1.0), dep), (2,): ((1.0, 1.0), dep)}
    assert _greedy(script, [2, 3])[:2] == (False, None)
    # the whole set independent: stored as is; the empty set tests Z = ∅
    assert _greedy({(2, 3): ((0.0, 1.0), True)}, [3, 2])[:2] == (True, (2, 3))
    assert _greedy({(): ((0.0, 1.0), True)}, [])[:2] == (True, ())
