"""The experiment runner: plan tasks, skip finished ones, run the rest, store each atomically."""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import sys
import time
from dataclasses import asdict, dataclass

import numpy as np

from bncbench import __version__, catalog
from bncbench.classifiers import REGISTRY
from bncbench.classifiers.base import fit_counts
from bncbench.config import ClassifierSpec, DatasetSpec, Experiment
from bncbench.dataset import Dataset
from bncbench.errors import DataUnavailable, UserError
from bncbench.executors import check_executor, execute
from bncbench.folds import make_folds
from bncbench.metrics import FoldResult
from bncbench.preprocess import Encoded, PreprocessSettings, encode_fold, encode_rows, fit_cuts
from bncbench.progress import Progress
from bncbench.store import Store


@functools.lru_cache(maxsize=4)
def load_dataset(spec: DatasetSpec) -> Dataset:
    if spec.path:
        return catalog.load_user(spec.name, spec.path, spec.class_column)
    return catalog.load(spec.name)


@functools.lru_cache(maxsize=4)
def _global_cuts(spec: DatasetSpec, settings: PreprocessSettings):
    ds = load_dataset(spec)
    return fit_cuts(ds, np.arange(ds.n_instances), settings)


def task_key(ds: Dataset, spec: DatasetSpec, exp: Experiment, run: int, fold: int, clf: ClassifierSpec) -> str:
    """Hash of everything that defines a task (data checksums, preprocessing, folds, classifier)."""
    ident = {
        "version": __version__,
        "dataset": {"name": spec.name, "class": spec.class_column, "checksums": ds.checksums},
        "preprocess": asdict(exp.preprocess),
        "cv": {"scheme": exp.cv.scheme, "folds": exp.cv.folds, "seed": exp.cv.seed},
        "run": run, "fold": fold,
        "classifier": {"name": clf.name, "params": clf.params},
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True, default=str).encode()).hexdigest()


def build_classifier(spec: ClassifierSpec, cardinalities, n_classes: int, missing: str):
    cls = REGISTRY[spec.name]
    return cls(cardinalities=cardinalities, n_classes=n_classes,
               missing="skip" if missing == "skip" else "value", **spec.params)


@dataclass(frozen=True)
class Unit:
    """One (data set, run, fold) cell with the classifiers still to run on it."""

    dataset: DatasetSpec
    run: int
    fold: int
    classifiers: tuple[ClassifierSpec, ...]
    keys: tuple[str, ...]


@functools.lru_cache(maxsize=2)
def _all_rows(spec: DatasetSpec, settings: PreprocessSettings, pairs: bool):
    """Encoding and count tables of every row (only valid when the encoding does not depend on
    the fold: global discretisation without imputation)."""
    ds = load_dataset(spec)
    X, cards = encode_rows(ds, settings, _global_cuts(spec, settings))
    return X, cards, fit_counts(X, ds.y, cards, ds.n_classes, pairs)


def fold_independent(settings: PreprocessSettings) -> bool:
    """Whether every fold sees the same encoding of every row (global cuts, no imputation)."""
    return settings.scope == "global" and settings.missing != "impute"


def fold_counts(spec: DatasetSpec, settings: PreprocessSettings, ds: Dataset, train, test, enc, pairs: bool):
    """The training counts of one fold, counted once for all its classifiers: all rows minus the
    test rows when the encoding is fold-independent (one pass over the data set per worker
    instead of one per fold), else a count of the training rows."""
    if fold_independent(settings):
        _, _, full = _all_rows(spec, settings, pairs)
        return full - fit_counts(enc.X_test, ds.y[test], enc.cardinalities, ds.n_classes, pairs)
    return fit_counts(enc.X_train, ds.y[train], enc.cardinalities, ds.n_classes, pairs)


def run_unit(unit: Unit, settings: PreprocessSettings, scheme: str, k: int, seed: int):
    """Preprocess one fold once, count once, and fit/test every pending classifier on it.

    A classifier's train_time is its fit time plus the fold's shared counting time."""
    ds = load_dataset(unit.dataset)
    folds = make_folds(ds.y, scheme, k, unit.run, seed)
    train = np.flatnonzero(folds != unit.fold)
    test = np.flatnonzero(folds == unit.fold)
    pairs = any(REGISTRY[c.name].NEEDS_PAIRS for c in unit.classifiers)
    if fold_independent(settings):  # one encoding serves every fold
        X_all, cards, _ = _all_rows(unit.dataset, settings, pairs)
        enc = Encoded(X_all[train], X_all[test], cards, _global_cuts(unit.dataset, settings))
    else:
        gcuts = _global_cuts(unit.dataset, settings) if settings.scope == "global" else None
        enc = encode_fold(ds, train, test, settings, gcuts)
    t = time.perf_counter()
    counts = fold_counts(unit.dataset, settings, ds, train, test, enc, pairs)
    t_count = time.perf_counter() - t
    out = []
    for spec in unit.classifiers:
        clf = build_classifier(spec, enc.cardinalities, ds.n_classes, settings.missing)
        t0 = time.perf_counter()
        clf.fit(enc.X_train, ds.y[train], counts=counts)
        t1 = time.perf_counter()
        proba = clf.predict_proba(enc.X_test) if test.size else np.empty((0, ds.n_classes))
        t2 = time.perf_counter()
        out.append((FoldResult(unit.run, unit.fold, test, ds.y[test].astype(np.int64), proba,
                               t1 - t0 + t_count, t2 - t1), getattr(clf, "info_", {})))
    return out


def plan(exp: Experiment, datasets: dict[str, Dataset]) -> tuple[list[Unit], dict]:
    """All units and the experiment layout (task keys per data set and label, in config order)."""
    units, layout = [], {"datasets": [], "labels": [c.label for c in exp.classifiers], "keys": {}}
    for spec in exp.datasets:
        ds = datasets[spec.name]
        layout["datasets"].append(spec.name)
        for run in range(exp.cv.runs):
            for fold in range(exp.cv.folds):
                keys = tuple(task_key(ds, spec, exp, run, fold, c) for c in exp.classifiers)
                for c, key in zip(exp.classifiers, keys):
                    layout["keys"].setdefault(f"{spec.name}\t{c.label}", []).append(key)
                units.append(Unit(spec, run, fold, tuple(exp.classifiers), keys))
    return units, layout


def provenance(exp: Experiment) -> dict:
    return {"bncbench": __version__, "python": sys.version.split()[0], "numpy": np.__version__,
            "platform": platform.platform(), "machine": platform.machine(),
            "processor": platform.processor(), "config_sha256": hashlib.sha256(exp.source.encode()).hexdigest(),
            "experiment_digest": exp.digest(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def load_available(exp: Experiment, strict: bool, log) -> dict[str, Dataset]:
    """Load every data set before anything is written (bad input stops here). A catalog data
    set that is held nowhere is skipped with one warning (an error with `strict`)."""
    datasets, skipped = {}, []
    for spec in exp.datasets:
        try:
            datasets[spec.name] = load_dataset(spec)
        except DataUnavailable:
            if strict:
                raise
            files = catalog.missing_files(spec.name) if not spec.path else [spec.path]
            skipped.append(f"{spec.name} ({', '.join(files)})")
    if skipped:
        log(f"warning: {len(skipped)} data set(s) not available, skipped: {'; '.join(skipped)} — place the files "
            f"at those paths or set BNCBENCH_MIRROR (--strict makes this an error)")
    if not datasets:
        raise UserError("no data set of the config is available; set BNCBENCH_MIRROR or fill the download cache")
    exp.datasets = [d for d in exp.datasets if d.name in datasets]
    return datasets


def run(exp: Experiment, results_dir: str, jobs: int = 1, fresh: bool = False, quiet: bool = False,
        log=print, strict: bool = False, executor: str = "local", scheduler: str | None = None) -> dict:
    """Run (or resume) an experiment on the named executor. Returns counts of tasks run / skipped."""
    check_executor(executor, scheduler)
    datasets = load_available(exp, strict, log)
    units, layout = plan(exp, datasets)
    if fresh:
        from pathlib import Path

        from bncbench.store import DB_NAME

        for suffix in ("", "-wal", "-shm"):
            p = Path(results_dir) / (DB_NAME + suffix)
            if p.exists():
                p.unlink()
    store = Store(results_dir)
    try:
        store.set_meta("experiment", layout)
        store.set_meta("config", exp.source)
        store.set_meta("provenance", provenance(exp))
        done = store.done_keys()
        pending = []
        skipped = 0
        for u in units:
            keep = [(c, k) for c, k in zip(u.classifiers, u.keys) if k not in done]
            skipped += len(u.keys) - len(keep)
            if keep:
                pending.append(Unit(u.dataset, u.run, u.fold, tuple(c for c, _ in keep), tuple(k for _, k in keep)))
        total = sum(len(u.keys) for u in units)
        n_run = 0
        with Progress(total, skipped, quiet=quiet, log=log) as prog:
            def record(u: Unit, results):
                nonlocal n_run
                for spec, key, (r, info) in zip(u.classifiers, u.keys, results):
                    store.put(key, u.dataset.name, spec.label, u.run, u.fold, r, info)
                    n_run += 1
                prog.advance(len(results), f"{u.dataset.name} run {u.run} fold {u.fold}")

            args = (exp.preprocess, exp.cv.scheme, exp.cv.folds, exp.cv.seed)
            if pending:
                prog.current(pending[0].dataset.name)
            for i, results in execute(executor, run_unit, pending, args, jobs, scheduler):
                record(pending[i], results)
        return {"total": total, "run": n_run, "skipped": skipped}
    finally:
        store.close()
