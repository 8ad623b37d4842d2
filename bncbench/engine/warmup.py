"""An untimed warm-up before a classifier's first timed fit on a data set in a process (docs/architecture.md)."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from bncbench.classifiers.base import fit_counts
from bncbench.engine.failures import stops_the_run
from bncbench.engine.units import ClassifierEntry, FoldCounts, PreprocessedFold, Unit, preprocessed_fold
from bncbench.preprocess.encode import Encoded

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bncbench.experiment import CVSpec, DatasetSpec
    from bncbench.preprocess.settings import PreprocessSettings

SHARE = 10       # the warm-up fits on 1/SHARE of the fold's training rows ...
MIN_ROWS = 1000  # ... but on at least this many (all of a smaller fold)

_warmed: set[tuple[DatasetSpec, str]] = set()  # (data set, repr of the classifier's spec) fitted in this process
_settled = False


def settle() -> None:
    """Once per process, exempt what it holds from later garbage collections (gc.freeze) and let them run."""
    # a full collection over the modules scikit-learn loads takes ~60 ms: one falling inside a
    # timed fit was most of a first fold's excess; `bncbench run` starts with collections off
    # (cli/run.py: its imports' objects live as long as the process), and they resume here
    global _settled
    if not _settled:
        _settled = True
        gc.freeze()
        gc.enable()


def sliced(p: PreprocessedFold) -> PreprocessedFold:
    """The fold's first 1/SHARE of training rows (at least MIN_ROWS) and at most as many of its test rows."""
    enc = p.encoded
    n = min(len(p.train), max(MIN_ROWS, len(p.train) // SHARE))
    m = min(len(p.test), n)
    return PreprocessedFold(p.dataset, p.settings, p.train[:n], p.test[:m],
                            Encoded(enc.X_train[:n], enc.X_test[:m], enc.cardinalities, enc.cuts))


def warm_up(unit: Unit, entries: Sequence[ClassifierEntry], settings: PreprocessSettings, cv: CVSpec) -> int:
    """Fit and test on a slice of the unit's fold, untimed, each classifier new to its data set here; how many."""
    # the count tables have the fold's size whatever the rows, so the timed fit that follows finds
    # their memory touched and its code run, as every later fold does; an error is left to it
    todo = [(spec, entry) for spec, entry in zip(unit.classifiers, entries, strict=True)
            if (unit.dataset, repr(spec)) not in _warmed]
    if not todo:
        return 0
    _warmed.update((unit.dataset, repr(spec)) for spec, _ in todo)
    settle()
    try:
        p = sliced(preprocessed_fold(unit.dataset, settings, cv, unit.run, unit.fold))
        ds, enc = p.dataset, p.encoded
        counted = [entry for _, entry in todo if entry.needs_counts]
        pairs = any(entry.needs_pairs for entry in counted)
        counts = FoldCounts(fit_counts(enc.X_train, ds.y[p.train], enc.cardinalities, ds.n_classes, pairs), 0.0) \
            if counted else None
    except Exception:  # the timed unit meets it again and reports it
        return 0
    for spec, entry in todo:
        try:
            entry.fit_fold(spec, p, counts if entry.needs_counts else None, cv.seed, unit.run, unit.fold)
        except BaseException as e:  # the timed fit meets it again and reports it (a plug-in's exit too) ...
            if stops_the_run(e):  # ... but an interrupt or bncbench's own stop ends the run here
                raise
    return len(todo)
