"""Metrics recomputed from `bncbench export --format csv --predictions` with plain numpy, from the
definitions of docs/algorithms.md §5 (no bncbench code): the tests compare them with what
`bncbench report` prints.

Per data set the export has one row per (label, run, fold, test instance) with the true and the
predicted class names and one column P(<class>) per class, in class-code order.
"""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from pathlib import Path

import numpy as np


def read_predictions(export_dir: Path, dataset: str) -> tuple[list[str], dict[str, list[dict]]]:
    """(class names, {label: rows}); each row has run, fold, row, true, predicted (class codes)
    and p (the probabilities as a float array)."""
    with open(Path(export_dir) / f"predictions-{dataset}.csv", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        classes = [h[2:-1] for h in header[6:]]
        code = {c: i for i, c in enumerate(classes)}
        out: dict[str, list[dict]] = defaultdict(list)
        for r in reader:
            out[r[0]].append({"run": int(r[1]), "fold": int(r[2]), "row": int(r[3]), "true": code[r[4]],
                              "predicted": code[r[5]], "p": np.array([float(x) for x in r[6:]])})
    return classes, dict(out)


def _mean_sd(per_run: list[float], per_fold: list[float]) -> tuple[float, float]:
    """§5.2: one run → (pooled value, sample sd of the per-fold values); m runs → (mean of the
    per-run values, their sample sd)."""
    if len(per_run) == 1:
        vals = [v for v in per_fold if not math.isnan(v)]
        return per_run[0], float(np.std(vals, ddof=1)) if len(vals) > 1 else math.nan
    return float(np.mean(per_run)), float(np.std(per_run, ddof=1))


def instance_metric(rows: list[dict], metric: str) -> tuple[float, float]:
    """(mean, sd) of zol, rmse, rmse_all or cll (§5.2–5.4) from one classifier's rows."""
    def term(r):
        p, t = r["p"], r["true"]
        if metric == "zol":
            return float(r["predicted"] != t)
        if metric == "rmse":
            return (1.0 - p[t]) ** 2
        if metric == "rmse_all":
            d = -p.copy()
            d[t] += 1.0
            return float((d ** 2).sum())
        if metric == "cll":
            return math.log(max(p[t], 1e-15))
        raise ValueError(metric)

    def value(rs):
        if not rs:
            return math.nan
        s = sum(term(r) for r in rs)
        if metric == "zol":
            return s / len(rs)
        if metric == "rmse":
            return math.sqrt(s / len(rs))
        if metric == "rmse_all":
            return math.sqrt(s / (len(rs) * len(rs[0]["p"])))
        return s  # cll: a sum

    runs = sorted({r["run"] for r in rows})
    per_run = [value([r for r in rows if r["run"] == k]) for k in runs]
    per_fold = [value([r for r in rows if (r["run"], r["fold"]) == key])
                for key in sorted({(r["run"], r["fold"]) for r in rows})]
    return _mean_sd(per_run, per_fold)


def bias_variance(rows: list[dict]) -> tuple[float, float]:
    """Kohavi–Wolpert bias² and variance (§5.5): P̂_H(y | x) = the share of runs predicting y for
    instance x; bias² = ½ Σ_y (δ(y, t) − P̂)², variance = ½ (1 − Σ_y P̂²), means over instances."""
    runs = len({r["run"] for r in rows})
    n_classes = len(rows[0]["p"])
    votes: dict[int, list[int]] = defaultdict(lambda: [0] * n_classes)
    truth = {}
    for r in rows:
        votes[r["row"]][r["predicted"]] += 1
        truth[r["row"]] = r["true"]
    bias, var = [], []
    for x, v in votes.items():
        assert sum(v) == runs, "every run predicts every instance once"
        ph = [c / runs for c in v]
        bias.append(0.5 * sum(((1.0 if y == truth[x] else 0.0) - ph[y]) ** 2 for y in range(n_classes)))
        var.append(0.5 * (1.0 - sum(q * q for q in ph)))
    return float(np.mean(bias)), float(np.mean(var))


def average_ranks(table: dict[str, list[float]], lower_is_better: bool = True) -> list[float]:
    """Demšar's average ranks over the data sets (rows) of a complete table: per data set the
    best value gets rank 1 and equal values share the mean of their ranks."""
    n = len(next(iter(table.values())))
    total = [0.0] * n
    for vals in table.values():
        key = [v if lower_is_better else -v for v in vals]
        for i in range(n):
            better = sum(1 for k in key if k < key[i])
            equal = sum(1 for k in key if k == key[i])
            total[i] += better + (equal + 1) / 2
    return [t / len(table) for t in total]
