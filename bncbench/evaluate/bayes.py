"""Bayesian comparison of two classifiers (Benavoli et al. 2017): the signed-rank test over data
sets and the correlated t-test on each data set's folds (docs/statistics.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from bncbench.errors import UserError
from bncbench.evaluate import options
from bncbench.evaluate.metrics import DEFAULT_ROPE, in_words

SAMPLES = 50_000  # Monte Carlo samples of the signed-rank posterior (baycomp's and the paper's default)
SEED = 0          # seed of those samples
#: the most memory the samples of the signed-rank test may take: baycomp draws samples × (data sets + 1)
#: Dirichlet weights at once and keeps (samples, 3) posterior values, which we copy: 8 × (data sets + 7)
#: bytes per sample (docs/statistics.md)
MAX_SAMPLE_BYTES = 1 << 30
PRIOR = 0.5       # Dirichlet process prior: strength s, its pseudo-observation at 0 (the paper's s = 0.5, z0 = 0)


@dataclass(frozen=True)
class Probabilities:
    """P(A better), P(within the rope: practically equivalent), P(B better)."""

    a: float
    rope: float
    b: float


@dataclass
class SignedRank:
    """The Bayesian signed-rank test of A's advantage over the data sets."""

    probabilities: Probabilities
    datasets: list[str]
    mean_difference: float   # mean over the data sets of A − B (metric units)
    sample: np.ndarray       # (samples, 3): posterior samples of (θ_A better, θ_rope, θ_B better)


@dataclass
class CorrelatedT:
    """The Bayesian correlated t-test on one data set's paired fold values."""

    dataset: str
    probabilities: Probabilities
    mean_difference: float   # mean over the folds of A − B (metric units)
    folds: int               # paired (run, fold) values
    rho: float               # correlation of the fold differences: n_test / (n_train + n_test)


@dataclass
class BayesComparison:
    """A against B on one metric: the signed-rank test and the per-data-set correlated t-tests."""

    a: str
    b: str
    metric: str
    lower_is_better: bool
    rope: float
    samples: int
    seed: int
    signed_rank: SignedRank
    per_dataset: list[CorrelatedT]
    left_out: dict[str, str] = field(default_factory=dict)    # data set -> why it is in no test
    no_t_test: dict[str, str] = field(default_factory=dict)   # data set -> why it has no t-test


def rope_for(metric: str, rope: float | None) -> float:
    """The rope given, checked, or the metric's default (DEFAULT_ROPE); UserError otherwise."""
    if rope is None:
        if metric not in DEFAULT_ROPE:
            raise UserError(f"--rope: {metric} has no default rope; give one in its units (e.g. --rope 0.01)")
        return DEFAULT_ROPE[metric]
    try:
        return options.rope(rope, metric)
    except ValueError as e:
        raise UserError(f"--rope: {e}") from None


def advantage(a, b, lower_is_better: bool) -> np.ndarray:
    """A's advantage over B: B − A for a metric where lower is better, A − B otherwise."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return b - a if lower_is_better else a - b


def signed_rank(adv: np.ndarray, rope: float, samples: int = SAMPLES, seed: int = SEED
                ) -> tuple[Probabilities, np.ndarray]:
    """The signed-rank test's probabilities and posterior sample of A's advantages `adv` (one per
    data set), by baycomp's SignedRankTest (Dirichlet process prior PRIOR at 0, seeded)."""
    import baycomp

    # baycomp samples the posterior of y − x: its (left, rope, right) is (B better, rope, A better)
    post = baycomp.SignedRankTest(np.zeros_like(adv), adv, rope, nsamples=samples, random_state=seed, prior=PRIOR)
    sample = np.ascontiguousarray(post.sample[:, ::-1])
    p_b, p_rope, p_a = (float(x) for x in post.probs(with_rope=True))
    return Probabilities(p_a, p_rope, p_b), sample


def correlated_t(adv: np.ndarray, rho: float, rope: float) -> Probabilities:
    """The correlated t-test's probabilities of A's per-fold advantages `adv` (at least two): the
    posterior of the mean advantage is Student's t with n − 1 degrees of freedom, location the mean,
    scale² = s²·(1/n + ρ/(1 − ρ)) (Nadeau and Bengio's correction; Corani and Benavoli 2015)."""
    from scipy import stats

    n = len(adv)
    mean = float(np.mean(adv))
    var = float(np.var(adv, ddof=1)) * (1.0 / n + rho / (1.0 - rho))
    if var == 0.0:  # every fold gave the same difference: all the posterior mass on it
        return Probabilities(float(mean > rope), float(-rope <= mean <= rope), float(mean < -rope))
    t = stats.t(n - 1, loc=mean, scale=math.sqrt(var))
    p_a, p_b = float(t.sf(rope)), float(t.cdf(-rope))
    return Probabilities(p_a, 1.0 - p_a - p_b, p_b)


def compare(a: str, b: str, metric: str, lower_is_better: bool, means: dict[str, tuple[float, float]],
            folds: dict[str, tuple[np.ndarray, np.ndarray, float]], rope: float, samples: int = SAMPLES,
            seed: int = SEED, left_out: dict[str, str] | None = None,
            unpaired: dict[str, str] | None = None) -> BayesComparison:
    """A against B: the signed-rank test over the data sets of `means` ({data set: (A's mean, B's
    mean)}; a NaN or `left_out` ({data set: why}) leaves the data set out) and the correlated t-test
    on each of them in `folds` ({data set: (A's fold values, B's, ρ)}, paired by (run, fold);
    `unpaired`: why a data set has none)."""
    if a == b:
        raise UserError(f"--a and --b: the same classifier {a!r}; compare two different ones")
    if samples < 1:
        raise UserError(f"--samples: {samples} is not a positive number of samples (e.g. {SAMPLES})")
    left = dict(left_out or {})
    for ds, (ma, mb) in means.items():
        if math.isnan(ma) or math.isnan(mb):
            left.setdefault(ds, f"{a if math.isnan(ma) else b} has no {metric} value")
    used = [ds for ds in means if ds not in left]
    if not used:
        raise UserError(f"bayes: no data set has a {metric} value for both {a} and {b}")
    most = MAX_SAMPLE_BYTES // (8 * (len(used) + 7))
    if samples > most:
        raise UserError(f"--samples: {samples} is more than the {most} samples that fit in 1 GiB over {len(used)} "
                        f"data set(s) (docs/statistics.md); the default {SAMPLES} gives each probability within 0.0025")
    adv = advantage([means[d][0] for d in used], [means[d][1] for d in used], lower_is_better)
    probs, sample = signed_rank(adv, rope, samples, seed)
    mean_diff = -float(np.mean(adv)) if lower_is_better else float(np.mean(adv))
    per, no_t = [], {}
    for ds in used:
        if ds not in folds:
            no_t[ds] = (unpaired or {}).get(ds, "no paired fold values")
            continue
        fa, fb, rho = folds[ds]
        if len(fa) < 2:
            no_t[ds] = "fewer than two folds"
            continue
        fold_adv = advantage(fa, fb, lower_is_better)
        per.append(CorrelatedT(ds, correlated_t(fold_adv, rho, rope), float(np.mean(np.asarray(fa) - np.asarray(fb))),
                               len(fa), rho))
    return BayesComparison(a, b, metric, lower_is_better, rope, samples, seed,
                           SignedRank(probs, used, mean_diff, sample), per, left, no_t)


def _p(x: float) -> str:
    return format(x, ".3f")


def notes(c: BayesComparison, fmt: str = "md") -> list[str]:
    """The lines under the tables: what the tests assumed and what they left out (latex: the
    metric in words)."""
    rhos = sorted({round(t.rho, 4) for t in c.per_dataset})
    better = "lower" if c.lower_is_better else "higher"
    name = in_words(c.metric) if fmt == "latex" else c.metric
    out = [f"{name}: {better} is better; rope ±{c.rope:g} ({name} units); signed-rank test: "
           f"{c.samples} posterior samples, seed {c.seed}, prior s = {PRIOR:g} at 0; correlated t-test: "
           f"ρ = n_test/(n_train + n_test) = {', '.join(format(r, 'g') for r in rhos) or 'n/a'}"]
    if c.left_out:
        out.append(f"left out of both tests: {'; '.join(f'{d} ({why})' for d, why in c.left_out.items())}")
    if c.no_t_test:
        out.append(f"no correlated t-test: {'; '.join(f'{d} ({why})' for d, why in c.no_t_test.items())}")
    return out


def format_bayes(c: BayesComparison, fmt: str) -> tuple[str, list[str]]:
    """(the text `bncbench bayes` prints, lines for standard error) (docs/statistics.md)."""
    from bncbench.evaluate.report import format_grid

    sr = c.signed_rank
    diff = f"{c.a} − {c.b}"
    if fmt == "csv":
        header = ["test", "dataset", "a", "b", "metric", "mean_difference", "p_a_better", "p_rope", "p_b_better", "n",
                  "rho", "rope", "samples", "seed"]
        rows = [["signed-rank", "", c.a, c.b, c.metric, repr(sr.mean_difference), *_probs(sr.probabilities),
                 str(len(sr.datasets)), "", repr(c.rope), str(c.samples), str(c.seed)]]
        rows += [["correlated-t", t.dataset, c.a, c.b, c.metric, repr(t.mean_difference), *_probs(t.probabilities),
                  str(t.folds), repr(t.rho), repr(c.rope), "", ""] for t in c.per_dataset]
        return format_grid(header, rows, "csv"), notes(c)
    heads = [f"P({c.a} better)", "P(rope)", f"P({c.b} better)"]
    p = sr.probabilities
    name = in_words(c.metric, heading=True) if fmt == "latex" else c.metric  # a paper's captions: in words
    out = [format_grid(["data sets", f"mean {diff}", *heads],
                       [[str(len(sr.datasets)), format(sr.mean_difference, ".4f"), _p(p.a), _p(p.rope), _p(p.b)]],
                       fmt, caption=f"{name}: Bayesian signed-rank test of {c.a} against {c.b} over the data "
                                    f"sets (Benavoli et al. 2017)", notes=None if c.per_dataset else notes(c, fmt))]
    if c.per_dataset:
        out.append(format_grid(["dataset", f"mean {diff}", *heads, "folds"],
                               [[t.dataset, format(t.mean_difference, ".4f"), _p(t.probabilities.a),
                                 _p(t.probabilities.rope), _p(t.probabilities.b), str(t.folds)]
                                for t in c.per_dataset],
                               fmt, caption=f"{name}: Bayesian correlated t-test of {c.a} against {c.b} on each "
                                            f"data set's folds", notes=notes(c, fmt)))
    return "\n".join(out), []


def _probs(p: Probabilities) -> list[str]:
    return [repr(p.a), repr(p.rope), repr(p.b)]
