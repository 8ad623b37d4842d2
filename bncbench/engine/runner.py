"""The experiment runner: plan tasks, skip finished ones, run the rest, store each unit atomically."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bncbench import __version__
from bncbench.data import catalog, describe
from bncbench.data.dataset import Dataset
from bncbench.data.sources import cache_dir, mirror_description
from bncbench.engine.entries import entry_of
from bncbench.engine.executors import check_executor, execute, in_processes, restore_malloc_thresholds
from bncbench.engine.failures import Failures, TaskFailure, caught, checked
from bncbench.engine.fingerprint import code_fingerprint
from bncbench.engine.lineage import legacy_fingerprint, lineage_name
from bncbench.engine.memory import check_plan
from bncbench.engine.output import TaskOutput
from bncbench.engine.progress import Progress, UnitSize, probe_first
from bncbench.engine.store import EncodedOutput, Store
from bncbench.engine.units import Unit, forget_loaded, load_dataset, run_unit
from bncbench.engine.warmup import settle, warm_up
from bncbench.errors import DataUnavailable, StoreError, UserError

if TYPE_CHECKING:  # the engine runs a validated Experiment; it never parses configs
    from bncbench.experiment import ClassifierSpec, CVSpec, DatasetSpec, Experiment
    from bncbench.preprocess.settings import PreprocessSettings


def task_key(ds: Dataset, spec: DatasetSpec, exp: Experiment, run: int, fold: int, clf: ClassifierSpec,
             code: str | None = None) -> str:
    """Hash of everything that defines a task (docs/architecture.md); `code`: another code
    fingerprint than the class's (a legacy key: engine/lineage.py)."""
    entry = entry_of(clf)
    classifier = {"name": clf.name, "label": clf.label, **entry.identity(clf)}
    ident = {
        "code": code or code_fingerprint(entry.code),  # type: ignore[arg-type]  # mypy: a class is Hashable
        # the files' contents, not where they were found: the same config run from another folder
        # (or a user's file moved) is the same task
        "dataset": {"name": spec.name, "class": spec.class_column,
                    "checksums": [sha for _, sha in sorted(ds.checksums.items())]},
        "preprocess": asdict(spec.settings(exp.preprocess)),
        "cv": exp.cv.ident(),
        "run": run, "fold": fold,
        "classifier": classifier,
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True, default=str).encode()).hexdigest()


def classifier_code(clf: ClassifierSpec) -> str:
    """What a worker must run the same of a classifier: its code fingerprint, and for a
    scikit-learn baseline the installed version of the estimator's distribution."""
    entry = entry_of(clf)
    installed = entry.installed(clf)
    code = code_fingerprint(entry.code)  # type: ignore[arg-type]  # mypy: a class is Hashable
    return code if installed is None else f"{code} {installed}"


def plan(exp: Experiment, datasets: dict[str, Dataset]) -> tuple[list[Unit], dict[str, list[str]]]:
    """All units and the keys of this invocation's tasks per (data set, label) cell."""
    units: list[Unit] = []
    keys: dict[str, list[str]] = {}
    for spec in exp.datasets:
        ds = datasets[spec.name]
        for run in range(exp.cv.runs):
            for fold in range(exp.cv.folds):
                unit_keys = tuple(task_key(ds, spec, exp, run, fold, c) for c in exp.classifiers)
                for c, key in zip(exp.classifiers, unit_keys):
                    keys.setdefault(f"{spec.name}\t{c.label}", []).append(key)
                units.append(Unit(spec, run, fold, tuple(exp.classifiers), unit_keys))
    return units, keys


def unit_size(unit: Unit) -> UnitSize:
    """A unit's size for the ETA: its data set and its tasks' labels."""
    return UnitSize(unit.dataset.name, tuple(c.label for c in unit.classifiers))


@dataclass(frozen=True)
class PlannedData:
    """What a run's tasks were planned with: each data set's checksums (`Dataset.checksums`), and
    the run's own id."""

    run_id: str
    checksums: dict[str, dict[str, str]]

    @classmethod
    def of(cls, datasets: dict[str, Dataset]) -> PlannedData:
        """The plan of a run on the data sets `load_available` loaded."""
        return cls(uuid.uuid4().hex, {name: ds.checksums for name, ds in datasets.items()})


_CHANGED: dict[tuple[str, DatasetSpec], str] = {}  # (run id, data set) -> how this process found its file changed


def planned_dataset(spec: DatasetSpec, planned: PlannedData) -> Dataset | str:
    """Data set `spec` as read from exactly the bytes its tasks were planned with (the checksums
    of what was parsed, compared: no second read), else what changed (docs/architecture.md)."""
    want = planned.checksums[spec.name]
    if (planned.run_id, spec) in _CHANGED:
        return _CHANGED[planned.run_id, spec]
    for attempt in range(2):
        try:
            ds = load_dataset(spec)
        except UserError as e:  # deleted, unreadable or no longer parsing
            why = f"{spec.path or spec.name} changed during the run ({e})"
            break
        if ds.checksums == want:
            return ds
        if attempt == 0:  # read before this run planned it (a worker process kept from an earlier run)
            forget_loaded()
        changed = [k for k in sorted(set(ds.checksums) | set(want)) if ds.checksums.get(k) != want.get(k)]
        why = f"{', '.join(changed)} changed during the run (its tasks were planned with other contents)"
    _CHANGED[planned.run_id, spec] = why
    return why


def run_unit_on_worker(unit: Unit, planned: PlannedData, settings: PreprocessSettings, cv: CVSpec, *,
                       encode: bool = True) -> tuple[list, dict]:
    """`run_unit` on the bytes its data set was planned with, plus the worker's code fingerprints
    and install folder; a task that could not be computed is a `TaskFailure` in the list
    (docs/architecture.md)."""
    import bncbench

    restore_malloc_thresholds()
    info = {"at": str(Path(bncbench.__file__).parent), "pid": os.getpid(),
            **{c.name: classifier_code(c) for c in unit.classifiers}}
    name, run, fold = unit.dataset.name, unit.run, unit.fold
    ds = planned_dataset(unit.dataset, planned)
    if isinstance(ds, str):
        return [TaskFailure(name, c.label, run, fold, ds, data=True) for c in unit.classifiers], info
    entries = [entry_of(c) for c in unit.classifiers]
    warm_up(unit, entries, settings, cv)  # a data set's first fold timed as the others (docs/architecture.md)
    outputs = run_unit(unit, entries, settings, cv, caught=lambda spec, e: caught(spec, e, name, run, fold))
    outputs = [checked(spec, out, ds.n_classes, name, run, fold) if isinstance(out, TaskOutput) else out
               for spec, out in zip(unit.classifiers, outputs)]
    if encode:
        outputs = [EncodedOutput.of(out, ds.classes) if isinstance(out, TaskOutput) else out for out in outputs]
    return outputs, info


def check_worker_code(unit: Unit, worker: dict) -> None:
    """A worker whose classifier code differs from the driver's would store results under task
    identities that do not describe them (a Dask worker with another bncbench installed)."""
    for c in unit.classifiers:
        if worker.get(c.name) != classifier_code(c):
            raise UserError(f"a worker runs other code for {c.name} than this process (worker's bncbench: "
                            f"{worker.get('at')}); install the same bncbench version and edits, and the same "
                            f"versions of the estimators' packages, on every worker")


def merge_layout(old: dict | None, exp: Experiment, keys: dict[str, list[str]],
                 unavailable: dict[str, str] | None = None) -> dict:
    """The store's layout after this invocation (docs/architecture.md)."""
    old = old or {}
    def order(new: list[str], before: list[str]) -> list[str]:
        return list(dict.fromkeys(list(new) + [x for x in before if x not in new]))
    merged = dict(old.get("keys", {}))
    merged.update(keys)
    # which protocol (preprocessing and folds) each cell was planned with, named by its config
    digest = protocol_digest(exp)[:16]
    protocol = dict(old.get("protocol", {}))
    protocol.update({cell: digest for cell in keys})
    names = dict(old.get("protocol_names", {}))
    names[digest] = exp.name
    skipped = {d: f for d, f in old.get("unavailable", {}).items() if d not in {x.name for x in exp.datasets}}
    skipped.update(unavailable or {})
    layout = {"datasets": order(exp.config_datasets, old.get("datasets", [])),
              "labels": order(exp.config_labels, old.get("labels", [])),
              "keys": merged, "protocol": protocol, "protocol_names": names}
    if skipped:
        layout["unavailable"] = skipped
    return layout


def protocol_digest(exp: Experiment) -> str:
    """Hash of what makes cells comparable: preprocessing (with the data sets' own settings)
    and the evaluation scheme."""
    ident = {"preprocess": asdict(exp.preprocess), "cv": {**exp.cv.ident(), "runs": exp.cv.runs}}
    overrides = {d.name: dict(d.preprocess) for d in exp.datasets if d.preprocess}
    if overrides:
        ident["datasets"] = overrides
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()


def processor() -> str:
    """The CPU's name: /proc/cpuinfo's first "model name" on Linux (platform.processor() is often
    empty there), else platform.processor(), else the machine type (platform.machine())."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep and key.strip() == "model name" and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def provenance(exp: Experiment, datasets: dict[str, Dataset]) -> dict:
    """The run's versions, machine and config digest; `data`: the invocation's own files (file,
    sha256, class: data/describe.py file_record)."""
    files = {s.name: describe.file_record(datasets[s.name], s.path, exp.cv.folds) for s in exp.datasets if s.path}
    return {"bncbench": __version__, "python": sys.version.split()[0], "numpy": np.__version__,
            "platform": platform.platform(), "machine": platform.machine(),
            "processor": processor(), "config_sha256": hashlib.sha256(exp.source.encode()).hexdigest(),
            "experiment_digest": exp.digest(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            **({"data": files} if files else {})}


def _unavailable_hint() -> str:
    return (f"searched the download cache ({cache_dir()}), {mirror_description()} and the shipped mirror; "
            f"docs/datasets.md says where each data set comes from (--strict makes this an error)")


def _missing_files(spec: DatasetSpec) -> list[str]:
    """The files of a data set that could not be loaded, as the run's warning names them."""
    return catalog.missing_files(spec.name) if not spec.path else [spec.path]


def load_available(exp: Experiment, strict: bool, log, quiet: bool = False) -> dict[str, Dataset]:
    """Load every data set before anything is written (bad input stops here). A catalog data
    set that is held nowhere is skipped with one warning (an error with `strict`). Of a user's
    file, the class column is said (not when `quiet`) and a warning given where it does not look
    like a class (docs/datasets.md: The class column)."""
    datasets, skipped = {}, []
    forget_loaded()  # the files as they are now, not as an earlier run in this process read them
    for spec in exp.datasets:
        try:
            datasets[spec.name] = ds = load_dataset(spec)
        except DataUnavailable:
            if strict:
                raise
            skipped.append(f"{spec.name} ({', '.join(_missing_files(spec))})")
            continue
        if exp.cv.sampled and ds.n_instances < exp.cv.divisor:
            raise UserError(f"data set {spec.name!r} has {ds.n_instances} instances, fewer than cv.divisor = "
                            f"{exp.cv.divisor}: its samples of N // divisor instances would be empty; drop the "
                            f"data set or lower cv.divisor")
        if ds.n_instances < exp.cv.folds:
            raise UserError(f"data set {spec.name!r} has {ds.n_instances} instances, fewer than cv.folds = "
                            f"{exp.cv.folds}: some folds would be empty; lower cv.folds or drop the data set")
        if ds.class_column is not None:
            warning = describe.class_warning(ds, exp.cv.folds)
            for line in ([] if quiet else [describe.class_line(ds)]) + ([warning] if warning else []):
                log(line)
    if skipped:
        log(f"warning: {len(skipped)} data set(s) not available, skipped: {'; '.join(skipped)} — {_unavailable_hint()}")
    if not datasets:
        raise UserError("no data set of the config is available; set BNCBENCH_MIRROR or fill the download cache "
                        "(docs/datasets.md)")
    return datasets


class _Writer:
    """Stores finished units from a background thread, one transaction per unit (docs/architecture.md)."""

    def __init__(self, store: Store, on_stored, depth: int = 1):
        self.store, self.on_stored = store, on_stored
        self._slots = threading.Semaphore(depth)
        self._items: list = []
        self._cond = threading.Condition()
        self._closed = False
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._loop, name="bncbench-store-writer", daemon=True)
        self._thread.start()

    def submit(self, unit: Unit, rows: list) -> None:
        self._slots.acquire()
        self._raise()
        with self._cond:
            self._items.append((unit, rows))
            self._cond.notify()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._items and not self._closed:
                    self._cond.wait()
                if not self._items:
                    return
                unit, rows = self._items.pop(0)
            try:
                if self.error is None:
                    self.store.put_many(rows)
                    self.on_stored(unit, len(rows))
            except BaseException as e:  # handed to the driver
                self.error = e
            finally:
                self._slots.release()

    def _raise(self) -> None:
        if self.error is not None:
            raise self.error

    def close(self, raise_error: bool = True) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join()
        if raise_error:
            self._raise()


def prepare_kernels(pending: list[Unit], notify: Callable[[str], None], jobs: int = 1) -> None:
    """The compiled kernels of the pending classifiers that have them (the BAN family's, CAA's, CAE's)
    loaded in this process, compiled into the disk cache first where this machine has none: workers
    started next load them, never compile at once. With `jobs` > 1, where the cache lacks the kernels of
    two or more classifiers, those are compiled first in up to `jobs` processes at once, one classifier
    each (docs/architecture.md, "Compiled kernels")."""
    specs = list({spec.label: spec for u in pending for spec in u.classifiers}.values())
    lacking = [spec for spec in specs if jobs > 1 and entry_of(spec).prepare_kernels(spec, notify, check=True)]
    if len(lacking) > 1:
        from bncbench.classifiers.kernels import jit  # (numba) the built-in classifiers' checks imported it

        jit.announce(notify)
        in_processes(compile_kernels, lacking, (), jobs)
    for spec in specs:
        entry_of(spec).prepare_kernels(spec, notify)


def compile_kernels(spec: ClassifierSpec) -> None:
    """The kernels of `spec` compiled into the disk cache (in a process `prepare_kernels` started)."""
    entry_of(spec).prepare_kernels(spec, lambda _: None)


def run(exp: Experiment, results_dir: str, jobs: int = 1, fresh: bool = False, quiet: bool = False,
        log=print, strict: bool = False, executor: str = "local", scheduler: str | None = None) -> dict:
    """Run (or resume) an experiment on the named executor; counts of tasks run, skipped, replaced."""
    check_executor(executor, scheduler)
    requested = list(exp.datasets)
    datasets = load_available(exp, strict, log, quiet)
    exp = exp.subset(datasets=list(datasets))
    check_plan(exp, datasets, jobs, executor, scheduler)  # a plan that cannot fit in memory stops here
    unavailable = {d.name: ", ".join(_missing_files(d)) for d in requested if d.name not in datasets}
    units, keys = plan(exp, datasets)
    store = Store(results_dir)
    try:
        store.set_meta("experiment", merge_layout(store.get_meta("experiment"), exp, keys, unavailable))
        store.set_meta("config", exp.source)
        store.set_meta("sections", exp.to_json())  # what readers use of the config (results.Results.experiment)
        store.set_meta("provenance", provenance(exp, datasets))
        # each data set's attribute names in column order, those of earlier configs kept (Results.attribute_names)
        store.set_meta("attributes", {**store.get_meta("attributes", {}),
                                      **{name: [a.name for a in ds.attributes] for name, ds in datasets.items()}})
        stored = store.done_keys()
        if stored and not fresh:  # tasks the previous version's code stored under its keys (engine/lineage.py)
            legacy = {k: task_key(datasets[u.dataset.name], u.dataset, exp, u.run, u.fold, c, code=code)
                      for u in units for c, k in zip(u.classifiers, u.keys)
                      if k not in stored and (code := legacy_fingerprint(entry_of(c).code))}  # type: ignore[arg-type]
            carried = store.rekey({k: old for k, old in legacy.items() if old in stored})
            stored |= carried
            if carried and not quiet:
                log(f"{len(carried)} tasks carried over from the previous version's code ({lineage_name()})")
        planned = {k for u in units for k in u.keys}
        replaced = len(stored & planned) if fresh else 0
        done = stored - planned if fresh else stored
        pending = []
        skipped = 0
        for u in units:
            keep = [(c, k) for c, k in zip(u.classifiers, u.keys) if k not in done]
            skipped += len(u.keys) - len(keep)
            if keep:
                pending.append(Unit(u.dataset, u.run, u.fold, tuple(c for c, _ in keep), tuple(k for _, k in keep)))
        total = sum(len(u.keys) for u in units)
        n_run = 0
        pending = probe_first(pending, lambda u: u.dataset.name)
        sizes = [unit_size(u) for u in pending]
        prepare_kernels(pending, (lambda _: None) if quiet else log, jobs if executor == "local" else 1)
        settle()  # what the start-up loaded exempted from garbage collections, which run from here on
        measured: dict[int, dict[str, float]] = {}  # id(unit) -> each task's seconds where it ran
        with Progress(total, skipped, sizes, quiet=quiet, log=log) as prog:
            def on_stored(u: Unit, n: int) -> None:
                nonlocal n_run
                n_run += n
                prog.advance(tuple(c.label for c in u.classifiers), u.dataset.name, f"run {u.run} fold {u.fold}",
                             measured.pop(id(u), None))

            writer = _Writer(store, on_stored)
            failed = Failures(Counter((u.dataset.name, c.label) for u in pending for c in u.classifiers))
            args = (PlannedData.of(datasets), exp.preprocess, exp.cv)
            # in this process, the writer thread encodes while the next unit computes; worker
            # processes send their units encoded
            here = partial(run_unit_on_worker, encode=False)
            pooled = False
            try:
                try:
                    for i, (outputs, worker) in execute(executor, run_unit_on_worker, pending, args, jobs, scheduler,
                                                        in_process=here):
                        u = pending[i]
                        check_worker_code(u, worker)
                        pooled = pooled or worker["pid"] != os.getpid()
                        tasks = []
                        for spec, key, out in zip(u.classifiers, u.keys, outputs):
                            if isinstance(out, TaskFailure):
                                line = failed.add(out)
                                if line:
                                    log(line)
                            else:
                                tasks.append((spec, key, out))
                        measured[id(u)] = {spec.label: out.train_time + out.test_time for spec, _, out in tasks}
                        classes = datasets[u.dataset.name].classes
                        writer.submit(u, [(key, u.dataset.name, spec.label, u.run, u.fold, out, classes)
                                          for spec, key, out in tasks])
                except BaseException:
                    writer.close(raise_error=False)  # finished units are still stored
                    raise
                writer.close()
                if executor == "local" and jobs > 1 and len(pending) > 1 and not pooled and not quiet:
                    log(f"--jobs {jobs}: this work was too small to pay for starting worker processes; it ran in this "
                        f"process (docs/cli.md: Results store)")
            except StoreError as e:  # the store failed mid-run: what is saved (each unit is one transaction)
                raise e.with_saved(skipped + n_run, total) from None
        return {"total": total, "run": n_run, "skipped": skipped, "replaced": replaced, "elapsed": prog.elapsed(),
                "failed": len(failed), "failures": failed.lines()}
    finally:
        store.close()
