"""Shared by the Weka benchmarks: read folds exported by `bncbench folds` and time a bncbench
classifier on them in this process."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np

from bncbench.data.loaders import build_dataset, parse_arff


def load_folds(out: Path, prefix: str, folds: int = 10) -> list[tuple]:
    """Run 0's folds as (X_train, y_train, X_test, y_test, cardinalities, number of classes)."""
    got = []
    for k in range(folds):
        tr = build_dataset("t", parse_arff((out / f"{prefix}-r0-f{k}-train.arff").read_text(), "t"), -1)
        te = build_dataset("t", parse_arff((out / f"{prefix}-r0-f{k}-test.arff").read_text(), "t"), -1)
        got.append((np.column_stack(tr.columns), tr.y, np.column_stack(te.columns), te.y,
                    [len(a.values) for a in tr.attributes], len(tr.classes)))
    return got


def time_on_folds(folds: list[tuple], make: Callable) -> tuple[float, float, float]:
    """`make(cardinalities, n_classes)`'s fit and predict_proba seconds summed over the folds, and
    its zero-one loss: (fit s, test s, ZOL)."""
    fit = test = 0.0
    err = n = 0
    for Xtr, ytr, Xte, yte, cards, nc in folds:
        clf = make(cards, nc)
        a = time.perf_counter()
        clf.fit(Xtr, ytr)
        b = time.perf_counter()
        p = clf.predict_proba(Xte)
        c = time.perf_counter()
        fit, test = fit + b - a, test + c - b
        err += int((p.argmax(1) != yte).sum())
        n += yte.size
    return fit, test, err / n
