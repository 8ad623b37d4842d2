"""What the report layer reads from a results store, as plain values: a metric's summary over the
cells and its per-fold values paired across classifiers."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from bncbench.classifiers.learned import Learned
from bncbench.evaluate.coverage import Coverage


@dataclass
class Summary:
    """One metric over the cells of a store: {(data set, label): (mean, sd)} in layout order."""

    metric: str
    datasets: list[str]
    labels: list[str]
    values: dict[tuple[str, str], tuple[float, float]]
    planned: int = 0                      # tasks of the shown cells in their latest plan
    finished: int = 0                     # of those, tasks finished
    damaged: int = 0                      # of the unfinished, tasks stored but failing their checksum
    incomplete: dict[str, list[str]] = field(default_factory=dict)  # data set -> labels not finished
    not_run: list[tuple[str, str]] = field(default_factory=list)    # cells no config run here planned
    single_run: list[tuple[str, str]] = field(default_factory=list)  # cells a repeated-run metric skipped
    configs: list[str] = field(default_factory=list)  # one config name per protocol the cells come from
    no_value: list[tuple[str, str]] = field(default_factory=list)   # finished cells the metric has no value for
    one_class: set[tuple[str, int, int]] = field(default_factory=set)  # auc: (data set, run, fold) of one class
    coverage: Coverage = field(default_factory=Coverage)  # the data sets shown of those planned, why others are not

    def with_metric(self) -> list[str]:
        """The labels the metric applies to: all but those whose finished cells all lack a value
        (e.g. `selected` of a classifier that selects nothing); a label with nothing finished stays."""
        lacking = set(self.no_value)
        return [lab for lab in self.labels
                if not (any((d, lab) in lacking for d in self.datasets)
                        and all((d, lab) in lacking or math.isnan(self.values[(d, lab)][0]) for d in self.datasets))]

    def unfinished(self, labels: list[str]) -> list[str]:
        """The data sets where any of `labels` has unfinished tasks: a W/D/L leaves them out, so that
        every pair of its classifiers is compared on the same data sets."""
        return [d for d in self.datasets if set(labels) & set(self.incomplete.get(d, []))]

    def one_class_notes(self) -> list[str]:
        """The note on the folds `one_class` left out of the AUC values (none: [])."""
        if not self.one_class:
            return []
        per = {d: sum(ds == d for ds, _, _ in self.one_class) for d in self.datasets}
        where = ", ".join(f"{d} ({n})" for d, n in per.items() if n)
        return [f"{self.metric}: {len(self.one_class)} fold(s) left out, their test set holding one class (no ROC "
                f"curve): {where}; a cell's value is the mean over its other folds"]

    def status_line(self) -> str | None:
        """One line on what the table does not show as it should (None when all is well)."""
        parts = []
        if self.damaged:
            parts.append(f"{self.damaged} stored task(s) fail their checksum and are not used (damaged: their cells "
                         f"show n/a); `bncbench store check RESULTS` lists them, `bncbench store salvage RESULTS "
                         f"--out NEW` keeps the rest")
        if self.incomplete:
            parts.append(f"incomplete: {self.finished} of {self.planned} tasks finished; unfinished cells show n/a "
                         f"in {len(self.incomplete)} data set(s): {', '.join(self.incomplete)} "
                         f"(run the config again to resume)")
        if self.not_run:
            more = ", ..." if len(self.not_run) > 5 else ""
            cells = ", ".join(f"{d} × {lab}" for d, lab in self.not_run[:5]) + more
            parts.append(f"{len(self.not_run)} cell(s) were never run in this folder (n/a): {cells}")
        parts += self.one_class_notes()
        if self.single_run:
            parts.append(f"{self.metric} needs repeated runs: n/a for {len(self.single_run)} cell(s) with one run")
        if len(self.configs) > 1:
            parts.append(f"the cells come from {len(self.configs)} configs with different preprocessing or folds "
                         f"({', '.join(self.configs)}); filter with --datasets/--classifiers or use one results "
                         f"folder per config")
        return "; ".join(parts) or None


@dataclass
class FoldValues:
    """One metric per fold of every (data set, label) cell, paired across labels by (run, fold):
    the input of the per-data-set tests (corrected resampled t-test, Bayesian correlated t-test)."""

    metric: str
    scheme: str                                   # the cv scheme of the cells (stratified, petal, petal-bv)
    datasets: list[str]                           # data sets where every label has every fold
    labels: list[str]
    values: dict[tuple[str, str], np.ndarray]     # per-fold values in (run, fold) order
    runs: dict[str, int]                          # data set -> number of runs
    n_train: dict[str, np.ndarray]                # data set -> training rows per fold
    n_test: dict[str, np.ndarray]                 # data set -> test rows per fold
    left_out: dict[str, str] = field(default_factory=dict)  # data set -> why it has no paired values

    def test_train_ratio(self, dataset: str) -> float:
        """n_test / n_train of the data set's folds (their means): Nadeau and Bengio's correction."""
        return float(self.n_test[dataset].mean() / self.n_train[dataset].mean())

    def test_fraction(self, dataset: str) -> float:
        """n_test / (n_train + n_test): the correlation ρ of the Bayesian correlated t-test."""
        n_te, n_tr = float(self.n_test[dataset].mean()), float(self.n_train[dataset].mean())
        return n_te / (n_te + n_tr)


@dataclass(frozen=True)
class FoldStructure:
    """What one stored task's classifier learned: its (run, fold) and its `Learned`, or None for a
    classifier that reports no structure (a scikit-learn baseline, a researcher's own)."""

    run: int
    fold: int
    learned: Learned | None

