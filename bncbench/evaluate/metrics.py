"""Evaluation measures (docs/algorithms.md §5) computed from stored out-of-fold probabilities."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bncbench.evaluate.terms import INSTANCE_METRICS, instance_sums


@dataclass(frozen=True)
class Metric:
    """One metric of the results: its name, words for a caption, its direction, whether the HTML
    report judges classifiers by it (W/D/L matrices, rank tests; not accuracy, which is
    100 (1 − zol), nor times or counts), whether it needs repeated runs (Kohavi–Wolpert over runs:
    no value per fold), whether it is computed from the stored probabilities when asked for (they
    are read for it only: heavier than the stored per-fold sums the others use), its scale
    ("fraction" in [0, 1], "percent", or "" when unbounded: a published column is checked against
    it), the default rope of the Bayesian tests in its units (None: one must be given), its line in
    `report --help`'s glossary, and why a table
    has no mean row of it ("" when it has one: a value that grows with the data set does not
    average over data sets of different sizes; the average rank, taken within each data set, is
    still shown)."""

    name: str
    words: str
    lower_is_better: bool = True
    judged: bool = False
    repeated_runs: bool = False
    from_proba: bool = False
    scale: str = ""
    rope: float | None = None
    glossary: str = ""
    no_mean: str = ""


#: every metric of `bncbench report --metric`, in the order the commands list them
ALL = (
    Metric("zol", "zero-one loss", judged=True, scale="fraction", rope=0.01, glossary="zero-one loss (error rate)"),
    Metric("accuracy", "accuracy (%)", lower_is_better=False, scale="percent", rope=1.0,
           glossary="percent correct, 100 (1 - zol)"),
    Metric("rmse", "RMSE of the true class's probability", judged=True, scale="fraction", rope=0.01,
           glossary="root mean squared error of the true class's probability"),
    Metric("rmse_all", "RMSE over all classes' probabilities", judged=True, scale="fraction", rope=0.01,
           glossary="root mean squared error over all classes' probabilities"),
    Metric("cll", "conditional log-likelihood", lower_is_better=False, judged=True,
           glossary="conditional log-likelihood, summed over the test instances",
           no_mean="CLL is a sum over each data set's test instances; data sets of different sizes do not average"),
    Metric("logloss", "log loss", judged=True, rope=0.01, glossary="mean -log2 of the true class's probability"),
    Metric("auc", "area under the ROC curve (Hand and Till's M for more than two classes)", lower_is_better=False,
           judged=True, from_proba=True, scale="fraction", rope=0.01,
           glossary="area under the ROC curve (Hand and Till's M for more than two classes), mean over folds; "
                    "a fold of one class is left out"),
    Metric("bias", "Kohavi–Wolpert bias", judged=True, repeated_runs=True, scale="fraction",
           glossary="Kohavi-Wolpert bias (needs cv.runs >= 2)"),
    Metric("variance", "Kohavi–Wolpert variance", judged=True, repeated_runs=True, scale="fraction",
           glossary="Kohavi-Wolpert variance (needs cv.runs >= 2)"),
    Metric("train_time", "training time per fold (s)", glossary="seconds to train, mean over folds"),
    Metric("test_time", "classification time per fold (s)",
           glossary="seconds to classify the test fold, mean over folds"),
    Metric("selected", "attributes kept", glossary="attributes a selective classifier (STAN) kept, mean over folds",
           no_mean="the attributes kept are a count out of each data set's own number of attributes"),
    Metric("elimination", "share of attributes eliminated", scale="fraction",
           glossary="share of attributes a model eliminated (paper 003 §6.6), mean over test instances"),
)
METRICS = tuple(m.name for m in ALL)
LOWER_IS_BETTER = {m.name: m.lower_is_better for m in ALL}
REPEATED_RUN_METRICS = tuple(m.name for m in ALL if m.repeated_runs)
JUDGED = tuple(m.name for m in ALL if m.judged)
FROM_PROBA = tuple(m.name for m in ALL if m.from_proba)
WORDS = {m.name: m.words for m in ALL}
NO_MEAN = {m.name: m.no_mean for m in ALL if m.no_mean}
#: the Bayesian tests' rope when none is given, in the metric's units: a difference of 1 percentage point
#: of error (accuracy is in percent, so its rope is 1.0), or of AUC; other metrics (cll, times, ...) need one
DEFAULT_ROPE = {m.name: m.rope for m in ALL if m.rope is not None}
#: the metrics whose values are fractions in [0, 1] (a published column of them is checked: percentages refused)
FRACTIONS = tuple(m.name for m in ALL if m.scale == "fraction")
#: the metrics bncbench gives in percent (a published column of fractions, every value ≤ 1, is refused)
PERCENT = tuple(m.name for m in ALL if m.scale == "percent")


def in_words(name: str, heading: bool = False) -> str:
    """The metric `name` in words, as a paper's caption or note says it (`heading`: capitalised, to
    begin a caption); a name that is no metric of ours (a wide table's values) as it is."""
    words = WORDS.get(name, name)
    return words[:1].upper() + words[1:] if heading and name in WORDS else words


@dataclass
class FoldResult:
    run: int
    fold: int
    test_index: np.ndarray  # row numbers in the data set
    y_true: np.ndarray
    proba: np.ndarray | None  # (n_test, n_classes)
    train_time: float
    test_time: float
    info: dict | None = None  # what the classifier reported (e.g. STAN's number of selected attributes)
    # predicted class codes and {metric: sum of its per-instance terms}; None (the default): from proba
    pred: np.ndarray = None  # type: ignore[assignment]  # never None after __post_init__
    sums: dict = None  # type: ignore[assignment]  # never None after __post_init__
    classes: list | None = None     # class names (code = position)
    auc: float | None = None        # the fold's AUC (evaluate/auc.py), where a reader computed it; NaN: < 2 classes

    def __post_init__(self) -> None:
        if self.pred is not None and self.sums is not None:
            return
        proba = self.proba
        if proba is None:
            if len(self.y_true):
                raise ValueError("FoldResult: pred and sums are computed from proba, which is None")
            proba = np.empty((0, 0))  # no test instances: nothing is read from it
        if self.pred is None:
            self.pred = np.argmax(proba, axis=1) if len(self.y_true) else np.empty(0, dtype=np.int64)
        if self.sums is None:
            self.sums = instance_sums(self.y_true, proba)


def aggregate(metric: str, total: float, n: int) -> float:
    """A metric's value from the sum of its per-instance terms over n instances."""
    if n == 0:
        return math.nan
    if metric in ("rmse", "rmse_all"):
        return math.sqrt(total / n)
    if metric == "cll":
        return float(total)
    return float(total / n)


def _mean(values: list[float]) -> float:
    v = [x for x in values if not math.isnan(x)]
    return float(np.mean(v)) if v else math.nan


def _sd(values: list[float]) -> float:
    v = [x for x in values if not math.isnan(x)]
    return float(np.std(v, ddof=1)) if len(v) > 1 else math.nan


def summarize(metric: str, folds: list[FoldResult]) -> tuple[float, float]:
    """(mean, sd) of one classifier on one data set, as the papers report it (§5.2–5.7)."""
    if metric == "selected":  # mean over folds of the number of attributes a selective model kept
        sel = [f.info["selected"] for f in folds if f.info and "selected" in f.info]
        return (float(np.mean(sel)), _sd(sel)) if len(sel) == len(folds) else (math.nan, math.nan)
    if metric == "accuracy":  # percent correct (paper 002): 100 · (1 − ZOL), its sd scaled alike
        mean, sd = summarize("zol", folds)
        return 100.0 * (1.0 - mean), 100.0 * sd
    if metric == "elimination":
        # paper 003's elimination ratio (§6.6): the share of attributes a model eliminated, per test
        # instance (or the same for all of a fold's instances), averaged over all test predictions
        el = [(f.info["elimination"], len(f.y_true)) for f in folds if f.info and "elimination" in f.info]
        if len(el) != len(folds) or not sum(n for _, n in el):
            return math.nan, math.nan
        return float(sum(e * n for e, n in el) / sum(n for _, n in el)), _sd([e for e, _ in el])
    if metric in ("train_time", "test_time"):
        t = [getattr(f, metric) for f in folds]
        return float(np.mean(t)), _sd(t)
    if metric == "auc":  # an AUC does not pool: a run's is the mean of its folds' (§5.7)
        if any(f.auc is None for f in folds):
            raise ValueError("auc: the folds were read without their AUC")
        runs = sorted({f.run for f in folds})
        aucs = {r: [f.auc for f in folds if f.run == r and f.auc is not None] for r in runs}
        run_means = [_mean(v) for v in aucs.values()]
        return _mean(run_means), _sd(aucs[runs[0]]) if len(runs) == 1 else _sd(run_means)
    if metric in ("bias", "variance"):
        b, v = bias_variance(folds)
        return (b if metric == "bias" else v), math.nan
    if metric not in INSTANCE_METRICS:
        raise ValueError(metric)
    runs = sorted({f.run for f in folds})
    per_run: list[float] = []
    per_fold: list[float] = []
    for r in runs:
        fr = [f for f in folds if f.run == r]
        per_fold.extend(aggregate(metric, f.sums[metric], len(f.y_true)) for f in fr)
        per_run.append(aggregate(metric, math.fsum(f.sums[metric] for f in fr), sum(len(f.y_true) for f in fr)))
    if len(runs) == 1:
        return per_run[0], _sd(per_fold)
    return float(np.mean(per_run)), _sd(per_run)


def bias_variance(folds: list[FoldResult]) -> tuple[float, float]:
    """Kohavi–Wolpert bias² and variance from repeated CV (§5.5): each run predicts every
    instance once; P̂_H(y|x) is the fraction of runs predicting y."""
    runs = sorted({f.run for f in folds})
    n_classes = max(int(max(f.y_true.max(initial=0), f.pred.max(initial=0))) for f in folds) + 1
    if folds[0].proba is not None:
        n_classes = max(n_classes, folds[0].proba.shape[1])
    n = max(int(f.test_index.max()) + 1 for f in folds if f.test_index.size)
    votes = np.zeros((n, n_classes))
    truth = np.full(n, -1, dtype=np.int64)
    for f in folds:
        votes[f.test_index, f.pred] += 1.0
        truth[f.test_index] = f.y_true
    seen = truth >= 0
    ph = votes[seen] / len(runs)
    t = truth[seen]
    onehot = np.zeros_like(ph)
    onehot[np.arange(t.size), t] = 1.0
    bias = 0.5 * ((onehot - ph) ** 2).sum(axis=1)
    var = 0.5 * (1.0 - (ph ** 2).sum(axis=1))
    return float(bias.mean()), float(var.mean())


def direction_words() -> str:
    """'lower is better except accuracy, cll and auc': the metrics' directions in words (--help)."""
    higher = [m.name for m in ALL if not m.lower_is_better]
    return f"lower is better except {', '.join(higher[:-1])} and {higher[-1]}"


def glossary(width: int = 78) -> str:
    """The metrics of `--metric`, one per line with its description, under a line of their
    directions (`report --help`)."""
    import textwrap

    lines = [f"Metrics (--metric; {direction_words()}):"]
    for m in ALL:
        lines += textwrap.wrap(m.glossary, width, initial_indent=f"  {m.name:<11} ", subsequent_indent=" " * 14)
    return "\n".join(lines)
