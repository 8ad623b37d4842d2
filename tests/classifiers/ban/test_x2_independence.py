"""The CI test of BAN(method="tpda") (docs/algorithms.md §4.7 "CI test", items 1–6): Pearson's X²
within strata, the permutation-mean degrees of freedom, the sufficiency rule and ln p, each against
a plain textbook computation or a closed form. The statistic's check also runs on the numpy
reference of tests/oracles/ban/x2_numpy.py (both its counting paths), the oracle of the kernel's
differential test (test_x2_kernels.py)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from scipy.special import gammaincc
from scipy.special.cython_special import gammaincc as scalar_gammaincc
from scipy.stats import chi2

from bncbench.classifiers.ban.entropy_terms import EntropyTerms
from bncbench.classifiers.ban.x2_independence import X2Test, log_gamma_sf
from bncbench.classifiers.kernels.ties import tie_value
from tests.oracles.ban.x2_numpy import NumpyX2Test


def log_chi2_sf(x2: float, df: float) -> float:
    """ln P(χ²_df ≥ x2) as the test computes it: `log_gamma_sf` of scipy's Q(df/2, x2/2)."""
    return log_gamma_sf(0.5 * df, 0.5 * x2, float(gammaincc(0.5 * df, 0.5 * x2))) if x2 > 0.0 else 0.0


def _test(X, y, alpha=0.01, rows_per_df=5.0, cls=X2Test):
    X = np.asarray(X, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    T = EntropyTerms(X, y, X.max(axis=0) + 1, int(y.max()) + 1)
    return cls(T, alpha, rows_per_df)


def textbook(X, y, i, j, Z):
    """X², df, n_inf by the definitions: per stratum (Z, Y) with ≥ 2 rows, the observed values of
    X_i and X_j, every cell of that grid (zeros included) Σ (O − E)² / E."""
    strata: dict = {}
    for row, c in zip(X, y):
        strata.setdefault((tuple(row[z] for z in Z), c), []).append((row[i], row[j]))
    x2 = df = n_inf = 0.0
    for cells in strata.values():
        n = len(cells)
        A = sorted({a for a, _ in cells})
        B = sorted({b for _, b in cells})
        d = (len(A) - 1) * (len(B) - 1)
        if n < 2 or d == 0:
            continue
        O = Counter(cells)
        na = Counter(a for a, _ in cells)
        nb = Counter(b for _, b in cells)
        for a in A:
            for b in B:
                e = na[a] * nb[b] / n
                x2 += (O[(a, b)] - e) ** 2 / e
        df += n / (n - 1) * d
        n_inf += n
    return x2, df, n_inf


@pytest.mark.parametrize("impl", ["kernel", "reference-dense", "reference-sparse"])
@pytest.mark.parametrize("seed", range(12))
def test_statistic_equals_textbook(seed, impl, monkeypatch):
    if impl != "kernel":  # the numpy reference, one of its two counting paths forced
        monkeypatch.setattr(NumpyX2Test, "DENSE_CELLS_PER_ROW", 10**9 if impl == "reference-dense" else -10**9)
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(8, 400)), 5
    X = rng.integers(0, rng.integers(2, 5, size=d), size=(n, d))
    X[:, 3] = (X[:, 0] + rng.integers(0, 2, n)) % 3  # a dependent pair
    y = rng.integers(0, 3, n)
    y[y == 1] = 2 if seed % 3 == 0 else 1  # some cases with a class without rows
    t = _test(X, y, cls=X2Test if impl == "kernel" else NumpyX2Test)
    for i, j, Z in [(0, 1, ()), (0, 3, ()), (0, 3, (1,)), (1, 2, (0, 4)), (2, 4, (0, 1, 3)), (0, 3, (1, 2, 4))]:
        x2, df, n_inf, active = t.statistic(i, j, Z)
        want = textbook(X.tolist(), y.tolist(), i, j, Z)
        assert x2 == pytest.approx(want[0], rel=1e-12, abs=1e-12)
        assert df == pytest.approx(want[1], rel=1e-12)
        assert n_inf == want[2]
        assert active == (want[1] > 0)


def test_hand_worked_two_by_two():
    # one class; X0, X1 over 6 rows: cells (0,0)×3, (1,1)×2, (0,1)×1. n_a = (4, 2), n_b = (3, 3):
    # E = [[2, 2], [1, 1]]; X² = (3−2)²/2 + (1−2)²/2 + (0−1)²/1 + (2−1)²/1 = 3; df = 6/5·1 = 1.2.
    X = [[0, 0]] * 3 + [[1, 1]] * 2 + [[0, 1]]
    t = _test(X, [0] * 6)
    x2, df, n_inf, active = t.statistic(0, 1, ())
    assert (x2, n_inf, active) == (pytest.approx(3.0), 6.0, True)
    assert df == pytest.approx(1.2)
    o = t(0, 1, ())
    assert o.informative  # n_inf = 6 = 5·df: equality counts as enough
    assert o.log_p == pytest.approx(chi2.logsf(3.0, 1.2), rel=1e-12)
    assert o.independent == (chi2.sf(3.0, 1.2) >= 0.01)
    assert o.key == (pytest.approx(-o.log_p, rel=1e-9), pytest.approx(3.0))


def test_sufficiency_rule():
    # 5 rows in a 2×2 pattern: df = 5/4 = 1.25, n_inf = 5 < 5·df → not informative: independent,
    # p = 1, κ = (0, X²), counted as lacking data.
    t = _test([[0, 0], [0, 0], [1, 1], [1, 1], [0, 1]], [0] * 5)
    o = t(0, 1, ())
    assert not o.informative and o.independent and o.log_p == 0.0
    assert o.key[0] == 0.0 and o.key[1] == pytest.approx(t.statistic(0, 1, ())[0])
    assert t.tests_lacking_data == 1 == t.distinct_tests
    # with 4 rows per df required it is informative
    assert _test([[0, 0], [0, 0], [1, 1], [1, 1], [0, 1]], [0] * 5, rows_per_df=4)(0, 1, ()).informative


def test_no_active_stratum_and_one_row_strata():
    # X1 constant within every class: r_s or c_s = 1 → d_s = 0 → no active stratum (df = 0):
    # independent, p = 1, not informative.
    t = _test([[0, 0], [1, 0], [0, 1], [1, 1]], [0, 0, 1, 1])
    assert t.statistic(0, 1, ()) == (0.0, 0.0, 0.0, False)
    assert not t(0, 1, ()).informative and t(0, 1, ()).independent
    # a stratum met by one row contributes nothing: adding rows of a class of their own changes
    # neither X², df nor n_inf
    base = [[0, 0]] * 4 + [[1, 1]] * 4 + [[0, 1]] * 2 + [[1, 0]] * 2
    a = _test(base, [0] * 12).statistic(0, 1, ())
    b = _test(base + [[1, 0]], [0] * 12 + [1]).statistic(0, 1, ())
    c = _test([r + [k % 13] for k, r in enumerate(base + [[0, 1]])], [0] * 13).statistic(0, 1, (2,))
    assert a == b
    assert c == (0.0, 0.0, 0.0, False)  # every (Z, Y) stratum of one row: nothing active


def test_conditioning_sets_deeper_than_the_data():
    # 6 rows, every configuration of (X2, X3, X4) met once: no stratum of 2 rows at depth 3,
    # and deeper extensions stay empty
    rng = np.random.default_rng(5)
    X = np.column_stack([rng.integers(0, 2, 6), rng.integers(0, 2, 6), np.arange(6), np.arange(6) % 3,
                         np.arange(6) % 2, np.zeros(6, dtype=int)])
    t = _test(X, [0] * 6)
    for Z in [(2,), (2, 3), (2, 3, 4), (2, 3, 4, 5), (3, 4), (3, 4, 5)]:
        got = t.statistic(0, 1, Z)
        assert got[:3] == pytest.approx(textbook(X.tolist(), [0] * 6, 0, 1, Z)), Z
        assert t(0, 1, Z).independent


def test_cached_once_and_symmetric():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, size=(200, 4))
    t = _test(X, rng.integers(0, 2, 200))
    assert t(2, 0, (1,)) is t(0, 2, (1,))
    assert t.distinct_tests == 1


@pytest.mark.parametrize("df", [0.7, 1.0, 2.0, 3.5, 9.0, 40.0, 333.3])
def test_log_survival_against_scipy(df):
    for x2 in [1e-3, 0.5, 2.0, 10.0, 50.0, 200.0, 1000.0]:
        want = chi2.logsf(x2, df)
        if np.isfinite(want) and want > math.log(1e-300):
            assert log_chi2_sf(x2, df) == pytest.approx(want, rel=1e-10, abs=1e-14)


def test_log_survival_near_p_one_keeps_its_digits():
    # df = 2: ln p = −X²/2 exactly; for tiny X², p is within 1e-9 of 1 and ln p must still carry
    # 10 significant digits (the ranking key rounds to 10)
    for x2 in [2e-9, 3.7e-7, 1e-4, 0.01, 1.3]:
        assert log_chi2_sf(x2, 2.0) == pytest.approx(-x2 / 2, rel=1e-13)
        x = x2 / 2  # ln Q(2, x) = −x + ln(1 + x) = −x²/2 + x³/3 − x⁴/4 + … (the series where it cancels)
        want = -x + math.log1p(x) if x > 1e-3 else -x**2 / 2 + x**3 / 3 - x**4 / 4 + x**5 / 5
        assert log_chi2_sf(x2, 4.0) == pytest.approx(want, rel=1e-9)


def test_log_survival_in_the_far_tail():
    # closed forms: Q(1, x) = e^{−x}, Q(2, x) = e^{−x}(1 + x), Q(3, x) = e^{−x}(1 + x + x²/2)
    for x2 in [1200.0, 1500.0, 5000.0, 1e5, 1e7]:
        x = x2 / 2
        assert log_chi2_sf(x2, 2.0) == pytest.approx(-x, rel=1e-13)
        assert log_chi2_sf(x2, 4.0) == pytest.approx(-x + math.log1p(x), rel=1e-13)
        assert log_chi2_sf(x2, 6.0) == pytest.approx(-x + math.log(1 + x + x * x / 2), rel=1e-13)
    # continuous where the continued fraction takes over (p = 1e-250), and strictly decreasing
    for df in (1.3, 7.0, 55.5):
        xs = np.linspace(chi2.isf(1e-240, df), chi2.isf(1e-260, df) if np.isfinite(chi2.isf(1e-260, df)) else
                         chi2.isf(1e-240, df) * 1.2, 40)
        vals = [log_chi2_sf(float(x), df) for x in xs]
        assert all(a > b for a, b in itertools.pairwise(vals))
        assert vals[0] == pytest.approx(math.log(1e-240), rel=1e-6)


def python_outcome(x2: float, df: float, n_inf: float, active: float, alpha: float, per_df: float) -> tuple:
    """Items 4–6 of one test in plain Python, scipy's scalar `gammaincc` and `log_gamma_sf` (the code
    the kernel `x2_kernels.x2_outcomes` replaced): the outcome's fields in order."""
    informative = active > 0 and n_inf >= per_df * df * (1.0 - 1e-12)
    if informative and x2 > 0.0:
        q = scalar_gammaincc(0.5 * df, 0.5 * x2)
        log_p = log_gamma_sf(0.5 * df, 0.5 * x2, q)
        return (q >= alpha, (tie_value(-log_p), tie_value(x2)), informative, x2, df, log_p)
    return (1.0 >= alpha, (0.0, tie_value(x2)), informative, x2, df, 0.0)


def some_statistics(rng: np.random.Generator, n: int) -> np.ndarray:
    """(n, 4) rows X², df, n_inf, active over every branch of items 4–6: df from 0.05 to 5000, X² from
    far below df (p near 1) to far above (p underflows: the continued fraction), 0, tiny and huge
    (up to 1e300: the tie rounding's negative powers of ten), powers of ten and their neighbours;
    n_inf around the sufficiency boundary m·df (equality included); some tests without an active
    stratum."""
    df = np.exp(rng.uniform(math.log(0.05), math.log(5000.0), n))
    x2 = df * np.exp(rng.uniform(math.log(1e-4), math.log(1e3), n))
    for share, values in ((0.05, np.zeros(n)), (0.03, 10.0 ** rng.uniform(-14, 300, n)),
                          (0.03, 10.0 ** rng.integers(-12, 20, n)), (0.02, chi2.isf(0.01, df)),
                          (0.02, df * 1e-12)):
        pick = rng.random(n) < share
        x2[pick] = np.asarray(values, dtype=np.float64)[pick]
    pick = rng.random(n) < 0.06
    x2[pick] = np.nextafter(x2[pick], np.where(rng.random(pick.sum()) < 0.5, 0.0, np.inf))
    n_inf = np.floor(df * rng.uniform(0.3, 20.0, n))
    for share, factor in ((0.05, 1.0), (0.03, 1.0 - 5e-13), (0.03, 1.0 - 3e-12)):
        pick = rng.random(n) < share
        n_inf[pick] = rng.choice([0.5, 1.0, 5.0], pick.sum()) * df[pick] * factor
    active = (rng.random(n) < 0.95).astype(np.float64)
    return np.ascontiguousarray(np.column_stack([x2, df, n_inf, active]))


@pytest.mark.parametrize("alpha, per_df", [(0.01, 5.0), (0.05, 1.0), (0.5, 0.5)])
def test_outcomes_kernel_equals_plain_python(alpha, per_df):
    # the kernel's decisions, keys, flags and ln p bit for bit those of the plain-Python items 4–6
    # (its gammaincc and gammainc are scipy's C functions; its log, log1p and log10 libm's, as
    # Python's; its powers of ten `tie_value`'s), on every branch: p near 1, ln p direct, the
    # continued fraction, X² = 0, not informative, the sufficiency boundary, the tie rounding at
    # every magnitude
    stats = some_statistics(np.random.default_rng(int(alpha * 1000 + per_df * 10)), 30_000)
    got = X2Test(EntropyTerms(np.zeros((2, 1), dtype=np.int64), np.zeros(2, dtype=np.int64), np.ones(1), 1),
                 alpha, per_df)._outcomes(stats)
    branches: Counter = Counter()
    for g, row in zip(got, stats.tolist()):
        x2, df, n_inf, active = row
        want = python_outcome(x2, df, n_inf, active, alpha, per_df)
        assert (type(g.independent), type(g.informative)) == (bool, bool)
        assert tuple(g) == want and [v.hex() for v in (*g.key, g.x2, g.df, g.log_p)] == \
            [v.hex() for v in (*want[1], want[3], want[4], want[5])], row
        branches["not informative" if not g.informative else "X² = 0" if x2 == 0.0 else
                 "p > 0.5" if g.log_p > math.log(0.5) else
                 "direct" if g.log_p >= math.log(1e-250) else "continued fraction"] += 1
        branches["independent"] += g.independent
        branches["scale < 1"] += x2 >= 1e10
    assert min(branches.values()) >= 50, branches  # every branch met, many times
