"""The structures of stored tasks that predate them, recomputed exactly by refitting each task's fold
through the engine's own path, for tasks of the installed code only (docs/store.md: Structures)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bncbench.classifiers import REGISTRY
from bncbench.engine.entries import entry_of
from bncbench.engine.lineage import legacy_fingerprint
from bncbench.engine.runner import task_key
from bncbench.engine.units import Unit, forget_loaded, load_dataset, run_unit
from bncbench.errors import UserError

if TYPE_CHECKING:
    from bncbench.evaluate.metrics import FoldResult
    from bncbench.experiment import Experiment


def refit_structures(exp: Experiment, dataset: str, label: str, tasks: dict[str, FoldResult],
                     location: str) -> dict[str, dict | None]:
    """{key: `Learned.to_json()` or None} of the stored `tasks` ({key: its stored result}) of the
    cell (`dataset`, `label`), each refitted on its (run, fold) as `run` fitted it, with the stored
    config sections `exp`. UserError, one line, unless every key is the one this code gives the
    task (or its code lineage's legacy key: engine/lineage.py) and every refit predicts the stored
    classes: a store of other code or data is never answered with another model."""
    rerun = f"run its config again with `bncbench run CONFIG --results {location}` (it computes them with this code)"
    spec = next((d for d in exp.datasets if d.name == dataset), None)
    clf = next((c for c in exp.classifiers if c.label == label), None)
    if spec is None or clf is None:
        raise UserError(f"{location}: the structures of {dataset} × {label} were not stored, and the config last run "
                        f"here no longer has this cell to refit them; {rerun}")
    if clf.name.partition(":")[0].split(".")[0] == "sklearn":  # scikit-learn's own classifiers report none
        return dict.fromkeys(tasks)
    if clf.name not in REGISTRY:
        raise UserError(f"{location}: the structures of {dataset} × {label} were not stored, and a classifier outside "
                        f"bncbench ({clf.name}) is not refitted from a results folder; run its config with `bncbench "
                        f"run CONFIG --results NEW` into a new folder to store them")
    forget_loaded()  # the data file as it is now: its checksums are part of every key
    ds = load_dataset(spec)
    entry = entry_of(clf)
    legacy = legacy_fingerprint(entry.code)  # type: ignore[arg-type]  # mypy: a class is Hashable
    out: dict[str, dict | None] = {}
    for key, stored in sorted(tasks.items(), key=lambda t: (t[1].run, t[1].fold)):
        keys = {task_key(ds, spec, exp, stored.run, stored.fold, clf)}
        if legacy is not None:
            keys.add(task_key(ds, spec, exp, stored.run, stored.fold, clf, code=legacy))
        if key not in keys:
            raise UserError(f"{location}: the tasks of {dataset} × {label} were stored without their structures by "
                            f"other code or data than this bncbench and its data files, so their structures cannot "
                            f"be recomputed here; {rerun}, or read the folder with the bncbench that wrote it")
        got = run_unit(Unit(spec, stored.run, stored.fold, (clf,), (key,)), [entry], exp.preprocess, exp.cv)[0]
        if not (np.array_equal(got.test_index, stored.test_index)
                and np.array_equal(np.argmax(got.proba, axis=1), stored.pred)):
            raise UserError(f"{location}: refitting {dataset} × {label} run {stored.run} fold {stored.fold} does not "
                            f"predict what is stored, so its structure cannot be recomputed here; {rerun}")
        out[key] = got.structure
    return out
