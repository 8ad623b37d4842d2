"""Tasks that could not be computed, and why: a researcher's classifier that failed (its error, in
its words and at its line), a data file changed during the run. The worker returns a
`TaskFailure` in place of the task's output; the driver stores every other task, reports each
failed cell at the end and exits 2 (docs/architecture.md)."""

from __future__ import annotations

import inspect
import json
import os
import sysconfig
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.learned import Learned
from bncbench.engine.output import TaskOutput

if TYPE_CHECKING:
    from bncbench.experiment import ClassifierSpec

_PACKAGE = Path(__file__).resolve().parents[1]  # bncbench's own code
_LIBRARIES = tuple(Path(p).resolve() for p in {sysconfig.get_paths().get(k) for k in
                                               ("stdlib", "platstdlib", "purelib", "platlib")} if p)
_MESSAGE_CHARS = 300  # of an exception's message, in its one line


@dataclass(frozen=True)
class TaskFailure:
    """A task not computed: its cell, run and fold, and why (`data`: the data set's file changed, so
    every task of the data set; else its classifier failed)."""

    dataset: str
    label: str
    run: int
    fold: int
    why: str
    data: bool = False


def _kind(filename: str) -> str:
    """"ours" (bncbench), "library" (the standard library, an installed package, no file) or "theirs"."""
    if not filename or filename.startswith("<"):
        return "library"
    path = Path(os.path.abspath(filename))
    if path.is_relative_to(_PACKAGE):
        return "ours"
    parts = set(path.parts)
    if "site-packages" in parts or "dist-packages" in parts or any(path.is_relative_to(p) for p in _LIBRARIES):
        return "library"
    return "theirs"


def shown_path(filename: str) -> str:
    """A file's path as a message shows it: relative to the current folder when inside it."""
    try:
        return os.path.relpath(filename) if Path(os.path.abspath(filename)).is_relative_to(Path.cwd()) else filename
    except ValueError:  # another drive (Windows)
        return filename


def _frame(frames: traceback.StackSummary, package: str) -> traceback.FrameSummary | None:
    """The innermost frame of the researcher's code: a file outside bncbench and the installed
    libraries, or in their classifier's package (`package`: scikit-learn's for a baseline); None
    when the error passed through none (bncbench's own code, or a library bncbench called)."""
    def theirs(f: traceback.FrameSummary) -> bool:
        kind = _kind(f.filename)
        path = Path(f.filename)
        return kind == "theirs" or (kind == "library" and (package in path.parts[:-1] or path.stem == package))

    found = [f for f in frames if theirs(f)]
    return found[-1] if found else None


def _one_line(e: BaseException) -> str:
    try:
        text = " ".join(str(e).split())
    except Exception:  # their exception's __str__ fails too
        text = "(its message cannot be shown)"
    text = text if len(text) <= _MESSAGE_CHARS else text[:_MESSAGE_CHARS - 1] + "…"
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def is_theirs(spec: ClassifierSpec) -> bool:
    """Whether a classifier is a researcher's: a plug-in or a scikit-learn baseline, not one of
    bncbench's own."""
    return str(spec.estimator_class.__module__).split(".")[0] != "bncbench"


def stops_the_run(e: BaseException) -> bool:
    """An interrupt, or an exit or signal raised by bncbench's own code (a handler of its stopping the
    run), never a classifier's failure."""
    if isinstance(e, KeyboardInterrupt):
        return True
    frames = traceback.extract_tb(e.__traceback__)
    return not isinstance(e, Exception) and (not frames or _kind(frames[-1].filename) == "ours")


def caught(spec: ClassifierSpec, e: BaseException, dataset: str, run: int, fold: int) -> TaskFailure | None:
    """The failure of a researcher's classifier that raised `e` on a task; None when `e` is not
    theirs to report: an interrupt, an exit or signal raised by bncbench itself, an error of one of
    bncbench's classifiers or inside bncbench's code alone (a bug)."""
    if stops_the_run(e) or not is_theirs(spec):
        return None
    frames = traceback.extract_tb(e.__traceback__)
    frame = _frame(frames, spec.name.partition(":")[0].split(".")[0])
    if frame is not None:
        where = f" ({shown_path(frame.filename)}, line {frame.lineno}, in {frame.name})"
    elif getattr(e, "theirs", False):  # their output, found wrong by bncbench (baseline.OutputError)
        where = _method(spec, _PROBABILITIES)
    else:
        return None
    return TaskFailure(dataset, spec.label, run, fold, f"{_one_line(e)}{where}")


_PROBABILITIES = ("predict_proba", "_joint_log_likelihood")
_INFO = ("_fit", "fit", "prediction_info")
_LEARNED = ("learned_structure",)


def _method(spec: ClassifierSpec, names: tuple[str, ...]) -> str:
    """Where a plug-in's output comes from: " (file, line N, in method)" of the first of `names` its
    own code defines (else its class); a scikit-learn estimator's predict_proba by name."""
    cls = spec.estimator_class
    baseline = not issubclass(cls, BayesNetClassifier)
    if baseline:
        names = ("predict_proba",)
    for name, obj in [*((n, getattr(cls, n, None)) for n in names), (cls.__name__, cls)]:
        if obj is None:
            continue
        try:
            path = inspect.getsourcefile(obj)
            if path and _kind(path) == "theirs":
                return f" ({shown_path(path)}, line {inspect.getsourcelines(obj)[1]}, in {name})"
        except (TypeError, OSError):
            continue
    return f" ({spec.name}.predict_proba)" if baseline else ""


def malformed(out: TaskOutput, n_classes: int) -> tuple[str, tuple[str, ...]] | None:
    """What is wrong with a task's output and the methods that made it, None if nothing: one row
    per test instance and one finite, non-negative probability per class summing to 1; `info` a
    JSON object; `structure` (what `learned_structure` returned) a `Learned`'s JSON or None."""
    n = len(out.test_index)
    try:
        proba = np.asarray(out.proba, dtype=np.float64)
    except (TypeError, ValueError) as e:
        return (f"predict_proba returned {type(out.proba).__name__}, not an array of probabilities "
                f"({_one_line(e)})"), _PROBABILITIES
    if proba.shape != (n, n_classes):
        return (f"predict_proba returned an array of shape {proba.shape}; expected ({n}, {n_classes}): a row per "
                f"test instance, a column per class"), _PROBABILITIES
    bad = ~np.isfinite(proba)
    if bad.any():
        return f"predict_proba returned {int(bad.sum())} NaN or infinite value(s) of {proba.size}", _PROBABILITIES
    sums = proba.sum(axis=1)
    wrong = np.flatnonzero((proba < 0).any(axis=1) | (np.abs(sums - 1) > 1e-6))
    if wrong.size:
        i = int(wrong[0])
        return (f"predict_proba returned {wrong.size} row(s) that are not probabilities (row {i}: "
                f"{np.array2string(proba[i], precision=4, threshold=6)}, sum {sums[i]:.6g})"), _PROBABILITIES
    out.proba = proba
    try:
        json.dumps(out.info, sort_keys=True)
    except (TypeError, ValueError) as e:
        return f"info_ is not a JSON object ({_one_line(e)})", _INFO
    if out.structure is not None:  # learned_structure's answer: a Learned (as its JSON) or None
        if not isinstance(out.structure, dict):
            return (f"learned_structure returned {type(out.structure).__name__}, not a "
                    f"bncbench.classifiers.Learned or None"), _LEARNED
        try:
            json.dumps(out.structure)
            Learned.from_json(out.structure)
        except (TypeError, ValueError, KeyError) as e:
            return f"learned_structure returned a Learned that is not whole numbers and shares ({_one_line(e)})", \
                _LEARNED
    return None


def checked(spec: ClassifierSpec, out: TaskOutput, n_classes: int, dataset: str, run: int,
            fold: int) -> TaskOutput | TaskFailure:
    """A researcher's classifier's output, or its failure where it is malformed."""
    wrong = malformed(out, n_classes) if is_theirs(spec) else None
    if wrong is None:
        return out
    return TaskFailure(dataset, spec.label, run, fold, f"{wrong[0]}{_method(spec, wrong[1])}")


class Failures:
    """The failed tasks of a run: the line to show when a cell's first one arrives, and one line
    per failed cell (a data set whose file changed: one line) at the end."""

    def __init__(self, pending: dict[tuple[str, str], int]):
        self.pending = pending  # (data set, label) -> tasks this run computes
        self.cells: dict[tuple[str, str], list[TaskFailure]] = {}

    def add(self, f: TaskFailure) -> str | None:
        """Record a failure; the line to show now (the first of its cell, or of its data set)."""
        cell = (f.dataset, "" if f.data else f.label)
        first = cell not in self.cells
        self.cells.setdefault(cell, []).append(f)
        if not first:
            return None
        if f.data:
            return f"error: data set {f.dataset}: {f.why}; its tasks are not run (the others go on)"
        return f"error: {f.label} failed on {f.dataset}, run {f.run}, fold {f.fold}: {f.why}; the other tasks go on"

    def __len__(self) -> int:
        return sum(len(fs) for fs in self.cells.values())

    def lines(self) -> list[str]:
        """One line per failed cell, in the plan's order: what failed, how many of its tasks, and what to do."""
        datasets = list(dict.fromkeys(d for d, _ in self.pending))
        plan = {cell: i for i, cell in enumerate(self.pending)}
        out = []
        for (dataset, label), fs in sorted(self.cells.items(), key=lambda c: (datasets.index(c[0][0]),
                                                                              plan.get(c[0], -1))):
            first = min(fs, key=lambda f: (f.run, f.fold))
            if not label:
                out.append(f"failed: data set {dataset}: {len(fs)} task(s) not run: {first.why}; run the same "
                           f"command again once the file is as intended")
                continue
            out.append(f"failed: {label} on {dataset}: {len(fs)} of {self.pending.get((dataset, label), len(fs))} "
                       f"task(s) (first: run {first.run}, fold {first.fold}): {first.why}; once it is fixed, the same "
                       f"command computes these (all of {label}'s tasks if the fix edits its code)")
        return out
