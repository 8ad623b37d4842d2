"""Demšar's (2006) rank tests over data sets: Friedman, Nemenyi, Bonferroni–Dunn, Holm, Wilcoxon (§6.8)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as st

from bncbench.evaluate.stats import ranks as rank_values
from bncbench.evaluate.stats import round4

EXACT_LIMIT = 50   # the Wilcoxon p is exact for at most this many differences (no zeros, no ties)
NOISE_DECIMALS = 12  # Wilcoxon differences are rounded to 12 decimals: 0.3 − 0.2 and 0.2 − 0.1 tie


@dataclass
class Pair:
    """Two classifiers compared after the Friedman test (docs/algorithms.md §6.8)."""

    a: str
    b: str
    difference: float
    z: float
    p: float
    p_holm: float
    cd: bool             # |R_a − R_b| ≥ the family's critical difference
    holm: bool           # p_holm ≤ α


@dataclass
class RankTest:
    """The Friedman test of k classifiers over the data sets where all have a value, and its
    post-hoc tests (module docstring)."""

    labels: list[str]
    ranks: list[float]               # average rank of each label (1 = best)
    datasets: list[str]              # the data sets used
    left_out: list[str]              # data sets where a classifier has no value
    alpha: float
    lower_is_better: bool
    chi2: float                      # Friedman χ²_F, Demšar's formula (no tie correction)
    chi2_p: float
    chi2_tie_corrected: float        # as scipy.stats.friedmanchisquare (NaN if every row is all tied)
    chi2_tie_corrected_p: float
    ff: float                        # Iman–Davenport F_F
    ff_p: float
    ff_df: tuple[int, int]
    q_nemenyi: float
    cd_nemenyi: float
    pairs: list[Pair]                # every pair, Holm over all k(k − 1)/2
    cliques: list[list[str]]         # maximal groups, in rank order, with no Nemenyi difference inside
    control: str | None = None
    q_bonferroni_dunn: float = math.nan
    cd_bonferroni_dunn: float = math.nan
    versus_control: list[Pair] = field(default_factory=list)  # control against each other, Holm over k − 1

    @property
    def n(self) -> int:
        """The number of data sets used (N)."""
        return len(self.datasets)


def rank_rows(table: np.ndarray, lower_is_better: bool = True) -> np.ndarray:
    """The ranks (1 = best, ties averaged: `stats.ranks`, the report's rule) of each row of an N × k table."""
    table = np.asarray(table, dtype=float)
    return np.array([rank_values(row.tolist(), lower_is_better) for row in table], dtype=float).reshape(table.shape)


def friedman(ranks: np.ndarray) -> tuple[float, float]:
    """(χ²_F of Demšar 2006 without tie correction, χ²_F with the tie correction) of an N × k
    matrix of within-row average ranks."""
    n, k = ranks.shape
    avg = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (float(np.sum(avg ** 2)) - k * (k + 1) ** 2 / 4.0)
    # Σ over tie groups of t³ − t from the ranks: with average ranks, Σ_j r_j² = Σ_i i² − Σ (t³ − t)/12
    ties = 12.0 * (n * k * (k + 1) * (2 * k + 1) / 6.0 - float(np.sum(ranks ** 2)))
    c = 1.0 - ties / (n * k * (k * k - 1))
    return max(chi2, 0.0), (max(chi2, 0.0) / c if c > 1e-12 else math.nan)


def iman_davenport(chi2: float, n: int, k: int) -> tuple[float, float, tuple[int, int]]:
    """(F_F, its p-value, (df1, df2)) from Friedman's χ²_F over n data sets and k classifiers."""
    df = (k - 1, (k - 1) * (n - 1))
    denominator = n * (k - 1) - chi2
    if denominator <= 0:          # every data set ranks the classifiers the same way, no ties
        return math.inf, 0.0, df
    ff = (n - 1) * chi2 / denominator
    return ff, float(st.f.sf(ff, *df)), df


def nemenyi_q(k: int, alpha: float) -> float:
    """q_α of the Nemenyi test: the studentized range quantile for k means and infinite degrees
    of freedom, divided by √2 (Demšar 2006, Table 5(a))."""
    return float(st.studentized_range.ppf(1.0 - alpha, k, np.inf)) / math.sqrt(2.0)


def bonferroni_dunn_q(k: int, alpha: float) -> float:
    """q_α of the two-tailed Bonferroni–Dunn test of a control against k − 1 others (Table 5(b))."""
    return float(st.norm.ppf(1.0 - alpha / (2 * (k - 1))))


def holm(p: list[float]) -> list[float]:
    """Holm's (1979) step-down adjusted p-values, in the order given: with the m p-values sorted
    ascending, p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j)); a hypothesis is rejected at α when
    p̃ ≤ α (the same as comparing p_(i) with α/(m − i + 1) until the first one retained)."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (m - step) * p[i]))
        out[i] = running
    return out


def cliques(labels: list[str], ranks: list[float], cd: float) -> list[list[str]]:
    """The maximal groups of classifiers, consecutive in rank order, whose average ranks all
    differ by less than `cd` (the bars of a CD diagram), best group first; groups of one left out."""
    order = sorted(range(len(labels)), key=lambda i: (ranks[i], i))
    out, reach = [], -1
    for s, i in enumerate(order):
        e = s
        while e + 1 < len(order) and ranks[order[e + 1]] - ranks[i] < cd:
            e += 1
        if e > s and e > reach:
            out.append([labels[order[t]] for t in range(s, e + 1)])
        reach = max(reach, e)
    return out


def _pairs(labels, ranks, se, cd, alpha, wanted) -> list[Pair]:
    """The `wanted` (a, b) index pairs as one Holm family, with the single-step critical difference `cd`."""
    zs = [(ranks[a] - ranks[b]) / se for a, b in wanted]
    ps = [float(2.0 * st.norm.sf(abs(z))) for z in zs]
    adjusted = holm(ps)
    return [Pair(labels[a], labels[b], ranks[a] - ranks[b], z, p, q, bool(abs(ranks[a] - ranks[b]) >= cd), q <= alpha)
            for (a, b), z, p, q in zip(wanted, zs, ps, adjusted)]


def friedman_test(table, labels: list[str], lower_is_better: bool = True, alpha: float = 0.05,
                  control: str | None = None, datasets: list[str] | None = None,
                  left_out: list[str] | None = None) -> RankTest:
    """The Friedman test and its post-hoc tests of an N × k table of values (rows: data sets,
    columns: `labels`; no NaN), ranked as given (`rank_rows`). `control` adds Bonferroni–Dunn and
    Holm against it. ValueError for fewer than 2 classifiers or data sets, a bad α or control."""
    values = np.asarray(table, dtype=float)
    if values.ndim != 2 or values.shape[1] != len(labels):
        raise ValueError("the table needs one column per label")
    if np.isnan(values).any():
        raise ValueError("a value is missing (NaN): leave such data sets out first")
    return ranks_test(rank_rows(values, lower_is_better), labels, lower_is_better, alpha, control, datasets, left_out)


def ranks_test(ranks: np.ndarray, labels: list[str], lower_is_better: bool = True, alpha: float = 0.05,
               control: str | None = None, datasets: list[str] | None = None,
               left_out: list[str] | None = None) -> RankTest:
    """`friedman_test` of an N × k matrix of within-row ranks (e.g. the ranks a paper prints)."""
    r = np.asarray(ranks, dtype=float)
    n, k = r.shape
    if k < 2:
        raise ValueError(f"needs at least 2 classifiers, got {k}")
    if n < 2:
        raise ValueError(f"needs at least 2 data sets where every classifier has a value, got {n}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    if control is not None and control not in labels:
        raise ValueError(f"no classifier {control!r}; available: {', '.join(labels)}")
    avg = [float(x) for x in r.mean(axis=0)]
    chi2, chi2_c = friedman(r)
    ff, ff_p, df = iman_davenport(chi2, n, k)
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    q = nemenyi_q(k, alpha)
    cd = q * se
    out = RankTest(labels=list(labels), ranks=avg,
                   datasets=list(datasets) if datasets is not None else [str(i + 1) for i in range(n)],
                   left_out=list(left_out or []), alpha=alpha, lower_is_better=lower_is_better,
                   chi2=chi2, chi2_p=float(st.chi2.sf(chi2, k - 1)), chi2_tie_corrected=chi2_c,
                   chi2_tie_corrected_p=float(st.chi2.sf(chi2_c, k - 1)) if not math.isnan(chi2_c) else math.nan,
                   ff=ff, ff_p=ff_p, ff_df=df, q_nemenyi=q, cd_nemenyi=cd,
                   pairs=_pairs(labels, avg, se, cd, alpha, [(a, b) for a in range(k) for b in range(a + 1, k)]),
                   cliques=cliques(list(labels), avg, cd))
    if control is not None:
        c = labels.index(control)
        out.control = control
        out.q_bonferroni_dunn = bonferroni_dunn_q(k, alpha)
        out.cd_bonferroni_dunn = out.q_bonferroni_dunn * se
        out.versus_control = _pairs(labels, avg, se, out.cd_bonferroni_dunn, alpha,
                                    [(c, b) for b in range(k) if b != c])
    return out


def compare_classifiers(datasets, labels, values, lower_is_better: bool, alpha: float = 0.05,
                        control: str | None = None) -> RankTest:
    """`friedman_test` of a store's summary, values ranked as printed (docs/algorithms.md §6.8)."""
    used = [d for d in datasets if not any(math.isnan(values[(d, lab)][0]) for lab in labels)]
    if len(labels) >= 2 and len(used) < 2:
        raise ValueError(f"needs at least 2 data sets where every classifier has a value, got {len(used)} of "
                         f"{len(datasets)}")
    table = np.array([[float(round4(values[(d, lab)][0])) for lab in labels] for d in used], dtype=float)
    return friedman_test(table.reshape(len(used), len(labels)), list(labels), lower_is_better, alpha, control,
                         used, [d for d in datasets if d not in used])


# -- the Wilcoxon signed-ranks test of one pair ---------------------------------------------------
@dataclass
class Wilcoxon:
    """The Wilcoxon signed-ranks test of a − b over the data sets where both have a value:
    R+ (ranks of a > b), R− (a < b), n (differences ranked), T = min(R+, R−), p and how p was
    computed ("exact" or "normal")."""

    r_plus: float
    r_minus: float
    n: int
    p: float
    method: str

    @property
    def t(self) -> float:
        """T = min(R+, R−), the statistic Demšar compares with the table of critical values."""
        return min(self.r_plus, self.r_minus)


def wilcoxon(a, b, zeros: str = "split", tails: str = "two") -> Wilcoxon:
    """The Wilcoxon signed-ranks test of the paired values a and b (docs/algorithms.md §6.8)."""
    if zeros not in ("split", "ignore"):
        raise ValueError(f"zeros must be 'split' or 'ignore', got {zeros!r}")
    if tails not in ("one", "two"):
        raise ValueError(f"tails must be 'one' or 'two', got {tails!r}")
    d = np.round(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), NOISE_DECIMALS)
    d = d[~np.isnan(d)]
    zero = np.flatnonzero(d == 0)
    if zeros == "ignore":
        d = d[d != 0]
    elif len(zero) % 2:
        d = np.delete(d, zero[0])
    n = len(d)
    r = st.rankdata(np.abs(d), method="average") if n else np.empty(0)
    half_zero = float(r[d == 0].sum()) / 2.0
    r_plus, r_minus = float(r[d > 0].sum()) + half_zero, float(r[d < 0].sum()) + half_zero
    if not np.any(d != 0):
        return Wilcoxon(r_plus, r_minus, n, 1.0, "exact")
    exact = n <= EXACT_LIMIT and not np.any(d == 0) and len(np.unique(np.abs(d))) == n
    method = "exact" if exact else "asymptotic"

    def p_value(alternative: str) -> float:
        # scipy-stubs accept method="asymptotic" (scipy ≥ 1.15's name) only with keepdims=True
        return float(st.wilcoxon(d, zero_method="zsplit", correction=False,  # type: ignore[call-overload]
                                 alternative=alternative, method=method).pvalue)

    p = p_value("two-sided") if tails == "two" else min(p_value("less"), p_value("greater"))
    return Wilcoxon(r_plus, r_minus, n, min(1.0, p), "exact" if exact else "normal")


def wilcoxon_matrix(datasets, pairs: list[tuple[str, str]], values, zeros: str, tails: str) -> dict:
    """{(a, b): Wilcoxon} for each pair, on the data sets where both have a value."""
    return {(a, b): wilcoxon([values[(d, a)][0] for d in datasets], [values[(d, b)][0] for d in datasets],
                             zeros, tails) for a, b in pairs}


def wilcoxon_notes(zeros: str, tails: str) -> list[str]:
    """The Wilcoxon test's settings in words (for the lines under a W/D/L matrix)."""
    how = ("zero differences split evenly between R+ and R−, one dropped if odd (Demšar 2006)" if zeros == "split"
           else "zero differences left out")
    tail = "two-sided" if tails == "two" else "one-sided in the direction observed"
    line = (f"Wilcoxon signed-ranks test on the differences of the values as stored (to 12 decimals, which only "
            f"removes floating-point noise): {tail} (--tails {tails}); "
            f"{how} (--draws {zeros}); p exact for ≤ {EXACT_LIMIT} differences with no zero or tie, "
            f"else the normal approximation (variance corrected for ties, no continuity correction); "
            f"W-D-L counts use the draw rule")
    return [line]


# -- output ---------------------------------------------------------------------------------------
def _p(p: float, decimals: int = 4) -> str:
    """A p-value in `decimals` decimals, or in scientific notation below 10^-decimals."""
    if math.isnan(p):
        return "n/a"
    return format(p, f".{decimals}f") if p >= 10.0 ** -decimals or p == 0 else format(p, ".2e")


def _x(x: float, digits: int = 3) -> str:
    """A statistic in `digits` decimals (n/a for NaN, ∞)."""
    return "n/a" if math.isnan(x) else ("∞" if math.isinf(x) else format(x, f".{digits}f"))


def summary_lines(t: RankTest, metric: str) -> list[str]:
    """The Friedman test, Iman–Davenport's F and the critical differences in words."""
    k, a = len(t.labels), format(t.alpha, "g")
    used = (f"data sets: {t.n}, all used" if not t.left_out else
            f"data sets: {t.n} of {t.n + len(t.left_out)} used; left out (a classifier has no value): "
            f"{', '.join(t.left_out)}")
    verdict = (f"the classifiers differ at α = {a}" if t.ff_p <= t.alpha else
               f"no difference detected at α = {a} (Demšar 2006 applies the post-hoc tests below only after a "
               f"rejection)")
    lines = [(f"{metric}: average rank 1 = best ({'lower' if t.lower_is_better else 'higher'} is better); values "
              f"ranked as printed (equal at 4 decimals tie, sharing the average of their ranks); {used}"),
             (f"Friedman: χ²_F = {_x(t.chi2)}, df = {k - 1}, p = {_p(t.chi2_p)} (Demšar 2006, no tie correction; "
              f"with the tie correction of scipy.stats.friedmanchisquare and R's friedman.test: "
              f"χ² = {_x(t.chi2_tie_corrected)}, p = {_p(t.chi2_tie_corrected_p)})"),
             (f"Iman–Davenport: F_F = {_x(t.ff)} with ({t.ff_df[0]}, {t.ff_df[1]}) degrees of freedom, "
              f"p = {_p(t.ff_p)}: {verdict}"),
             (f"Nemenyi: q = {t.q_nemenyi:.3f}, CD = q·√(k(k+1)/(6N)) = {t.cd_nemenyi:.3f}: two classifiers differ "
              f"when their average ranks differ by at least CD (α = {a}, all {k * (k - 1) // 2} pairs)")]
    if t.control is not None:
        lines.append(f"Bonferroni–Dunn against {t.control}: q = {t.q_bonferroni_dunn:.3f}, CD = "
                     f"{t.cd_bonferroni_dunn:.3f} (α = {a}, {k - 1} comparisons)")
    lines.append(f"z = (R_worse − R_better)/√(k(k+1)/(6N)), p = 2Φ(−z); Holm: step-down adjusted p, a pair differs "
                 f"when p (Holm) ≤ {a}")
    return lines


def _differ(pairs: list[Pair], test: str) -> str:
    """'n of m: A–B, ...' for the pairs whose flag `test` ('cd' or 'holm') is set."""
    got = [f"{p.a}–{p.b}" for p in pairs if getattr(p, test)]
    return f"{len(got)} of {len(pairs)}" + (f": {', '.join(got)}" if got else "")


def _ordered(t: RankTest, pairs: list[Pair]) -> list[Pair]:
    """Pairs with the better-ranked classifier first, the largest rank difference first."""
    rank = dict(zip(t.labels, t.ranks))
    out = [p if rank[p.a] <= rank[p.b] else Pair(p.b, p.a, -p.difference, -p.z, p.p, p.p_holm, p.cd, p.holm)
           for p in pairs]
    return sorted(out, key=lambda p: (-abs(p.difference), t.labels.index(p.a), t.labels.index(p.b)))


def format_ranks(t: RankTest, metric: str, fmt: str, decimals: int = 4) -> tuple[str, list[str]]:
    """(the text `bncbench ranks` prints, lines for standard error) (docs/algorithms.md §6.8); the
    tables' p-values at `decimals` decimals."""
    from bncbench.evaluate.metrics import in_words
    from bncbench.evaluate.report import format_grid

    rank = dict(zip(t.labels, t.ranks))
    families = ([("control", _ordered(t, t.versus_control))] if t.control is not None else []) + \
        [("all", _ordered(t, t.pairs))]
    if fmt == "csv":
        rows = [[family, p.a, p.b, repr(rank[p.a]), repr(rank[p.b]), repr(abs(p.difference)), repr(abs(p.z)),
                 repr(p.p), repr(p.p_holm), str(p.cd).lower(), str(p.holm).lower(), str(t.n)]
                for family, pairs in families for p in pairs]
        header = ["family", "a", "b", "rank_a", "rank_b", "difference", "z", "p", "p_holm", "differs_cd",
                  "differs_holm", "n"]
        return format_grid(header, rows, "csv"), summary_lines(t, metric)
    order = sorted(range(len(t.labels)), key=lambda i: (t.ranks[i], i))
    notes = summary_lines(t, in_words(metric) if fmt == "latex" else metric)
    metric = in_words(metric, heading=True) if fmt == "latex" else metric  # a paper's captions: in words
    out = [format_grid(["classifier", "average rank"], [[t.labels[i], format(t.ranks[i], ".3f")] for i in order], fmt,
                       caption=f"{metric}: average ranks over {t.n} data sets", notes=notes)]
    yes = {True: "differ", False: "—"}
    if t.control is not None:
        pairs = sorted(t.versus_control, key=lambda p: (p.p, t.labels.index(p.b)))
        rows = [[p.b, format(rank[p.b], ".3f"), format(-p.difference, "+.3f"), format(abs(p.z), ".3f"),
                 _p(p.p, decimals), _p(p.p_holm, decimals), yes[p.cd], yes[p.holm]] for p in pairs]
        out.append(format_grid(["classifier", "average rank", f"R − R({t.control})", "z", "p", "p (Holm)",
                                "Bonferroni–Dunn", "Holm"], rows, fmt,
                               caption=f"{metric}: {t.control} (average rank {rank[t.control]:.3f}) against each "
                                       f"other classifier (Holm over {len(rows)} comparisons, smallest p first)",
                               notes=[(f"differ from {t.control}: Bonferroni–Dunn "
                                       f"{', '.join(p.b for p in pairs if p.cd) or 'none'}; "
                                       f"Holm {', '.join(p.b for p in pairs if p.holm) or 'none'}")]))
    pairs = families[-1][1]
    rows = [[p.a, p.b, format(abs(p.difference), ".3f"), format(abs(p.z), ".3f"), _p(p.p, decimals),
             _p(p.p_holm, decimals), yes[p.cd], yes[p.holm]] for p in pairs]
    out.append(format_grid(["better rank", "worse rank", "rank difference", "z", "p", "p (Holm)", "Nemenyi", "Holm"],
                           rows, fmt, caption=f"{metric}: all pairs, the largest rank difference first (Holm over "
                                              f"{len(rows)} pairs)",
                           notes=[f"pairs that differ: Nemenyi {_differ(pairs, 'cd')}",
                                  f"pairs that differ: Holm {_differ(pairs, 'holm')}"]))
    return "\n".join(out), []
