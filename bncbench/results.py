"""Reading a results store: one handle (`open`) for the config sections, summaries, per-fold values,
tasks and predictions; the statistics over them are the report layer's (bncbench/reporting/)."""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bncbench.classifiers import REGISTRY, docstrings
from bncbench.classifiers.learned import Learned
from bncbench.data import catalog, describe
from bncbench.engine import codec
from bncbench.engine.store import DB_NAME, Store, store_path
from bncbench.errors import UserError
from bncbench.evaluate import options
from bncbench.evaluate.auc import fold_auc
from bncbench.evaluate.coverage import NOT_AVAILABLE, NOT_FINISHED, NOT_RUN, Coverage
from bncbench.evaluate.metrics import (
    FROM_PROBA,
    INSTANCE_METRICS,
    REPEATED_RUN_METRICS,
    FoldResult,
    aggregate,
    summarize,
)
from bncbench.evaluate.values import FoldStructure, FoldValues, Summary
from bncbench.utils.names import case_clash, file_name
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    import pandas as pd

    from bncbench.experiment import Experiment


def fold_metric(metric: str, f) -> float:
    """The value of `metric` on one fold (NaN where the metric has no per-fold value)."""
    n = len(f.y_true)
    if metric in INSTANCE_METRICS:
        return aggregate(metric, f.sums[metric], n)
    if metric == "accuracy":
        return 100.0 * (1.0 - aggregate("zol", f.sums["zol"], n))
    if metric in ("train_time", "test_time"):
        return float(getattr(f, metric))
    if metric == "auc" and f.auc is not None:
        return float(f.auc)
    if metric == "selected" and f.info and "selected" in f.info:
        return float(f.info["selected"])
    if metric == "elimination" and f.info and "elimination" in f.info:
        return float(f.info["elimination"])
    return math.nan


def _choose(kind: str, wanted: list[str] | None, available: list[str]) -> list[str]:
    if not wanted:
        return available
    for w in wanted:
        if w not in available:
            raise UserError(f"--{kind}: {w!r} is not in the results{did_you_mean(w, available)}; "
                            f"available: {', '.join(available)}")
    return [a for a in available if a in wanted]


def _coverage(layout: dict, with_cells: list[str], s: Summary, filtered: bool) -> Coverage:
    """The data sets summary `s` should cover — the layout's (every data set of the configs run
    here), or the --datasets chosen — and why those without values for its labels are missing."""
    unavailable = layout.get("unavailable", {})
    missing = {}
    for d in layout["datasets"] if not filtered else []:
        if d not in with_cells:
            missing[d] = NOT_AVAILABLE if d in unavailable else NOT_RUN
    for d in s.datasets:
        if d in s.incomplete:
            missing[d] = NOT_FINISHED
        elif s.labels and all((d, lab) in s.not_run for lab in s.labels):
            missing[d] = NOT_RUN
    return Coverage(list(layout["datasets"]) if not filtered else list(s.datasets), missing)


def catalog_differences(datasets) -> dict[str, str]:
    """{data set: the catalog's recorded difference from the paper's version} for the data sets
    that have one; user data sets and generated `synth:` names are not in the catalog."""
    out = {}
    for ds in datasets:
        try:
            text = catalog.entry(ds).get("difference", "")
        except UserError:
            continue
        if text:
            out[ds] = " ".join(str(text).split())
    return out


def data_files(datasets: list[str], own: dict | None = None) -> list[tuple[str, str, str]]:
    """(data set, file or origin, sha256) of each data set's catalog files, for the HTML report's provenance;
    a user's file as `own` (the stored provenance's `data`: {data set: {file, sha256, ...}}) records it."""
    files = []
    for d in datasets:
        if own and d in own:
            files.append((d, str(own[d].get("file", "")), str(own[d].get("sha256", ""))))
            continue
        try:
            entry = catalog.entry(d)
        except UserError:
            files.append((d, "not in the catalog (its file's checksum is part of every task key)", ""))
            continue
        if describe.kind(d) == "files":
            files += [(d, f"{f['source']}:{f['path']}", f.get("sha256", "")) for f in entry["files"]]
        else:
            files.append((d, describe.origin(d), ""))
    return files


class Results:
    """A results store opened once, read-only (`open`): its layout, the config sections `bncbench
    run` stored, summaries per metric (cached), tasks, predictions, rank tests and exports."""

    def __init__(self, location: str | Path):
        self.location = str(location)
        self._store = Store(self.location, readonly=True)
        self._summaries: dict[tuple, Summary] = {}
        self._folds: dict[str, FoldResult] = {}  # tasks read without probabilities, kept for every summary
        # the last cell's structures, read (or refitted) once for the reads of that cell in a row; one
        # cell only: a reader of every cell (structure --stability) holds one cell's at a time
        self._structures: dict[tuple[str, str], list[FoldStructure]] = {}

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Results:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what `bncbench run` stored ------------------------------------------------------------
    @cached_property
    def _stored_layout(self) -> dict:
        return self._store.get_meta("experiment") or {"datasets": [], "labels": [], "keys": {}}

    @property
    def layout(self) -> dict:
        """The cells of the store (docs/store.md: `meta` — JSON values by key); UserError when it holds none."""
        if not self._stored_layout.get("keys"):
            raise UserError(f"{self.location}: the results store holds no experiment")
        return self._stored_layout

    @cached_property
    def experiment(self) -> Experiment:
        """The validated sections of the config last run here, as `bncbench run` stored them (its
        classifiers' `cls` is the built-in class or None); UserError for a store written before them."""
        from bncbench.experiment import Experiment

        stored = self._store.get_meta("sections")
        if stored is None:
            raise UserError(f"{self.location}: this results store predates stored config sections; run its config "
                            f"once more with `bncbench run CONFIG --results {self.location}` (it stores them and, "
                            f"as any run, computes only the tasks not stored under the current code)")
        return Experiment.from_json(stored, self.config_text)

    @cached_property
    def config_text(self) -> str:
        """The YAML text of the config the store was last run with ("" if none)."""
        return self._store.get_meta("config", "") or ""

    @cached_property
    def provenance(self) -> dict:
        """The runs' provenance (bncbench version, machine, data files), or {} if nothing."""
        return self._store.get_meta("provenance") or {}

    @cached_property
    def name(self) -> str:
        """The name of the config(s) whose results the store holds (several joined by ' + '), else
        the folder's name."""
        names = list(dict.fromkeys((self._stored_layout.get("protocol_names") or {}).values()))
        folder = Path(self.location)
        return " + ".join(names) or (folder.parent.name if folder.suffix == ".sqlite" else folder.name)

    def differences(self, datasets) -> dict[str, str]:
        """`catalog_differences` of these data sets, except those the config loads from a user file
        under a name the catalog also has (they are not the catalog's version)."""
        user = {d.name for d in self.experiment.datasets if d.path is not None}
        return {ds: text for ds, text in catalog_differences(datasets).items() if ds not in user}

    def classifier_flags(self, labels: list[str]) -> dict[str, str]:
        """{label: the registry's flag} of the `labels` whose built-in classifier its docstrings call
        a reconstruction (evaluate.compare.reconstruction_flag)."""
        from bncbench.evaluate.compare import reconstruction_flag

        out = {}
        for c in self.experiment.classifiers:
            if c.label in labels and c.name in REGISTRY:
                flag = reconstruction_flag(*docstrings(c.name))
                if flag:
                    out[c.label] = flag
        return out

    # -- summaries -----------------------------------------------------------------------------
    def _finished(self, keys: list[str], auc: bool = False) -> dict[str, FoldResult]:
        """The finished tasks among `keys`, without probabilities, each read from the store once;
        with `auc`, each with its AUC, computed once from its probabilities, read only for it."""
        if auc:
            lacking = [k for k in keys if k not in self._folds or self._folds[k].auc is None]
            if lacking:
                for k, f in self._store.get(lacking).items():
                    self._folds[k] = replace(f, proba=None, auc=fold_auc(f.y_true, f.proba))
        new = [k for k in keys if k not in self._folds]
        if new:
            self._folds.update(self._store.get(new, with_proba=False))
        return {k: self._folds[k] for k in keys if k in self._folds and not (auc and self._folds[k].auc is None)}

    def summary(self, metric: str, datasets: list[str] | None = None, classifiers: list[str] | None = None) -> Summary:
        """The (mean, sd) of `metric` for every (data set, label) cell of the store's layout — the
        latest plan of every cell any run of any config put there — optionally filtered. A cell
        with unfinished tasks gets (nan, nan) and is listed in `incomplete`."""
        try:
            options.metric(metric)
        except ValueError as e:
            raise UserError(str(e)) from None
        key = (metric, tuple(datasets or ()), tuple(classifiers or ()))
        if key not in self._summaries:
            self._summaries[key] = self._summarize(metric, datasets, classifiers)
        return self._summaries[key]

    def _summarize(self, metric: str, datasets: list[str] | None, classifiers: list[str] | None) -> Summary:
        layout = self.layout
        cells = layout["keys"]
        ds_all = [d for d in layout["datasets"] if any(f"{d}\t{lab}" in cells for lab in layout["labels"])]
        lab_all = [lab for lab in layout["labels"] if any(f"{d}\t{lab}" in cells for d in layout["datasets"])]
        ds_list, labels = _choose("datasets", datasets, ds_all), _choose("classifiers", classifiers, lab_all)
        s = Summary(metric, ds_list, labels, {})
        protocol, protocol_names = layout.get("protocol", {}), layout.get("protocol_names", {})
        digests: list[str] = []
        multi_run_cells = 0
        for ds in ds_list:
            for label in labels:
                cell = f"{ds}\t{label}"
                keys = cells.get(cell, [])
                s.values[(ds, label)] = (math.nan, math.nan)
                if not keys:
                    s.not_run.append((ds, label))
                    continue
                if cell in protocol and protocol[cell] not in digests:
                    digests.append(protocol[cell])
                got = self._finished(keys, auc=metric in FROM_PROBA)
                s.planned += len(keys)
                s.finished += len(got)
                s.damaged += sum(k in self._store.damaged for k in keys)
                if len(got) < len(keys):
                    s.incomplete.setdefault(ds, []).append(label)
                    continue
                folds = [got[k] for k in keys]
                if metric in REPEATED_RUN_METRICS and len({f.run for f in folds}) < 2:
                    s.single_run.append((ds, label))
                    continue
                multi_run_cells += 1
                if metric == "auc":
                    s.one_class.update((ds, f.run, f.fold) for f in folds
                                       if len(f.y_true) and math.isnan(fold_metric(metric, f)))
                s.values[(ds, label)] = summarize(metric, folds)
                if math.isnan(s.values[(ds, label)][0]):
                    s.no_value.append((ds, label))
        s.configs = [protocol_names.get(d, d) for d in digests]
        s.coverage = _coverage(layout, ds_all, s, filtered=bool(datasets))
        if metric in REPEATED_RUN_METRICS and s.single_run and not multi_run_cells:
            raise UserError(f"--metric {metric} needs repeated runs (Kohavi–Wolpert over runs: cv.runs ≥ 2); "
                            f"these results hold one run per fold")
        return s

    def fold_values(self, metric: str, datasets: list[str] | None = None,
                    classifiers: list[str] | None = None) -> FoldValues:
        """`metric` on every fold of the finished cells, paired across the labels by (run, fold)
        (docs/statistics.md); a data set where a label is unfinished or has other folds is left out."""
        if metric in REPEATED_RUN_METRICS:
            raise UserError(f"{metric} has no value per fold (Kohavi–Wolpert over runs); choose a per-fold metric "
                            f"such as zol, accuracy, rmse or logloss")
        s = self.summary(metric, datasets, classifiers)
        cv = self.experiment.cv
        out = FoldValues(metric, cv.scheme, [], list(s.labels), {}, {}, {}, {})
        cells = self.layout["keys"]
        for ds in s.datasets:
            if ds in s.incomplete or any((ds, lab) in s.not_run for lab in s.labels):
                out.left_out[ds] = "a classifier has unfinished or no tasks"
                continue
            folds = {lab: sorted(self._finished(cells[f"{ds}\t{lab}"], auc=metric in FROM_PROBA).values(),
                                 key=lambda f: (f.run, f.fold)) for lab in s.labels}
            ident = {lab: [(f.run, f.fold, len(f.y_true)) for f in fs] for lab, fs in folds.items()}
            if len({tuple(v) for v in ident.values()}) > 1:
                out.left_out[ds] = "the classifiers were run on different folds"
                continue
            vals = {lab: np.array([fold_metric(metric, f) for f in fs]) for lab, fs in folds.items()}
            if any(np.isnan(v).any() for v in vals.values()):
                n = max(int(np.isnan(v).sum()) for v in vals.values())
                why = " (a test set of fewer than two classes: no ROC curve)" if metric == "auc" else ""
                out.left_out[ds] = f"{metric} has no value on {n} of its folds{why}"
                continue
            first = next(iter(ident.values()))
            n_test = np.array([n for _, _, n in first], dtype=float)
            runs = sorted({r for r, _, _ in first})
            if cv.scheme == "petal-bv":  # training sample and test set of the same size N // divisor
                n_train = n_test.copy()
            else:  # k-fold: a fold trains on the rest of its run
                per_run = {r: sum(n for rr, _, n in first if rr == r) for r in runs}
                n_train = np.array([per_run[r] - n for r, _, n in first], dtype=float)
            out.datasets.append(ds)
            out.runs[ds], out.n_train[ds], out.n_test[ds] = len(runs), n_train, n_test
            out.values.update({(ds, lab): v for lab, v in vals.items()})
        return out

    # -- what the classifiers learned --------------------------------------------------------------
    def structures(self, dataset: str, label: str, refit: bool = True) -> list[FoldStructure]:
        """What classifier `label` learned on each finished task of the cell (`dataset`, `label`) of
        the latest plan, in (run, fold) order (a `FoldStructure` whose `learned` is None: it reports
        none). Tasks stored before the store kept structures are refitted with this code, only
        where it is the code that computed them (engine/refit.py; docs/store.md: Structures); with
        `refit` False, such tasks are a UserError instead (the HTML report does not refit a grid)."""
        if (dataset, label) not in self._structures:
            self._structures = {(dataset, label): self._read_structures(dataset, label, refit)}
        return list(self._structures[dataset, label])

    def _read_structures(self, dataset: str, label: str, refit: bool) -> list[FoldStructure]:
        layout = self.layout
        cells = layout["keys"]
        if f"{dataset}\t{label}" not in cells:
            datasets = [d for d in layout["datasets"] if any(f"{d}\t{lab}" in cells for lab in layout["labels"])]
            if dataset not in datasets:
                raise UserError(f"{dataset!r} has no results in {self.location}{did_you_mean(dataset, datasets)}; "
                                f"data sets: {', '.join(datasets)}")
            labels = [lab for lab in layout["labels"] if f"{dataset}\t{lab}" in cells]
            raise UserError(f"{label!r} has no results on {dataset} in {self.location}{did_you_mean(label, labels)}; "
                            f"classifiers: {', '.join(labels)}")
        got = self._store.structures(cells[f"{dataset}\t{label}"])
        try:
            learned = {key: codec.unpack_structure(stored) for key, (_, stored) in got.items() if stored is not None}
        except (ValueError, TypeError, KeyError, zlib.error) as e:  # the checksum holds, the blob is not one: hand-made
            raise self._unreadable_structure(dataset, label, e) from None
        older = {key: f for key, (f, stored) in got.items() if stored is None}
        if older and not refit:
            raise UserError(f"{len(older)} task(s) of {dataset} × {label} were stored before structures were; "
                            f"`bncbench structure {self.location} --stability` recomputes them")
        if older:  # the engine is imported only here: a reader of a store of this format needs none of it
            from bncbench.engine.refit import refit_structures

            learned.update(refit_structures(self.experiment, dataset, label, older, self.location))
        try:
            out = [FoldStructure(f.run, f.fold, None if (d := learned[key]) is None else Learned.from_json(d))
                   for key, (f, _) in got.items()]
        except (ValueError, TypeError, KeyError) as e:
            raise self._unreadable_structure(dataset, label, e) from None
        return sorted(out, key=lambda s: (s.run, s.fold))

    def _unreadable_structure(self, dataset: str, label: str, e: Exception) -> UserError:
        return UserError(f"{self.location}: a stored structure of {dataset} × {label} cannot be read "
                         f"({type(e).__name__}: {e}): damaged, or written by a newer bncbench (upgrade to read it)")

    def attribute_names(self, dataset: str) -> list[str]:
        """The attribute names of `dataset` in column order (the indices of a `Learned`): as `run`
        stored them, or, for a store written before it did, from the data set's file."""
        stored = self._store.get_meta("attributes", {})
        if dataset in stored:
            return list(stored[dataset])
        spec = next((d for d in self.experiment.datasets if d.name == dataset), None)
        if spec is None:
            raise UserError(f"{self.location}: the attribute names of {dataset!r} were not stored and the config last "
                            f"run here does not name it; run its config again with `bncbench run CONFIG --results "
                            f"{self.location}` (it stores them)")
        from bncbench.engine.units import load_dataset

        return [a.name for a in load_dataset(spec).attributes]

    # -- tasks and predictions as DataFrames (frames.py) -----------------------------------------
    @cached_property
    def tasks(self) -> pd.DataFrame:
        """One row per stored task with its per-fold metric values; `current` marks tasks of the
        latest plan."""
        from bncbench import frames

        rows = {r[0]: r for r in self._store.rows()}
        return frames.tasks_frame(self._stored_layout, rows, self._finished(list(rows)))

    @property
    def datasets(self) -> list[str]:
        """The data sets with stored tasks, in layout order."""
        return list(dict.fromkeys(self.tasks["dataset"])) if len(self.tasks) else []

    def predictions(self, dataset: str, current_only: bool = True) -> pd.DataFrame:
        """One row per test instance of every task on `dataset`: label, run, fold, row (index in
        the data set), true and predicted class names, and one probability column `P(<class>)` per
        class name, in the data set's class order (probabilities are stored as float32)."""
        from bncbench import frames

        if dataset not in self.datasets:
            raise UserError(f"{dataset!r} has no results in {self.location}; data sets: {', '.join(self.datasets)}")
        t = self.tasks[self.tasks["dataset"] == dataset]
        if current_only:
            t = t[t["current"]]
        return frames.predictions_frame(t, self._store.get(list(t["key"])))

    def export(self, fmt: str, out: str, predictions: bool = False) -> list[Path]:
        """Write the tasks table (and, with `predictions`, one predictions table per data set) as
        parquet or CSV files into the folder `out` (frames.write_tables); the files written."""
        from bncbench import frames

        frames.check_format(fmt)
        tables: list[tuple[str, Callable[[], pd.DataFrame]]] = [("tasks", lambda: self.tasks)]
        if predictions:
            clash = case_clash(self.datasets)
            if clash:
                raise UserError(f"data sets {clash[0]!r} and {clash[1]!r} would be one file where case is ignored "
                                f"(macOS, Windows): predictions-{file_name(clash[1])}.{fmt}; read one of them in "
                                f"Python: bncbench.results.open(RESULTS).predictions(NAME)")
            tables += [(f"predictions-{file_name(d)}", partial(self.predictions, d)) for d in self.datasets]
        return frames.write_tables(tables, fmt, out)


def open(location: str | Path) -> Results:
    """The results store of a directory (or its results.sqlite), opened once, read-only; close it
    with `.close()` or use it as a context manager."""
    return Results(location)


def names_one_store(location: str | Path) -> bool:
    """Whether `location` names one experiment's store (its folder or .sqlite file, or no folder), not
    a folder of experiments."""
    p = Path(location)
    return p.suffix == ".sqlite" or store_path(p).exists() or not p.is_dir()


def experiment_folders(location: str | Path) -> list[Path] | None:
    """The folders of the experiments at `location` in name order (results/<name>/ that hold a
    store), None when `location` names one store; UserError when it holds neither."""
    p = Path(location)
    if names_one_store(p):
        return None
    folders = sorted((d for d in p.iterdir() if d.is_dir() and (d / DB_NAME).is_file()), key=lambda d: d.name)
    if not folders:
        raise UserError(f"{location}: no results here (expected {DB_NAME}, or folders {p / '<name>'} that hold one; "
                        f"run `bncbench run CONFIG` first)")
    return folders


def open_all(location: str | Path) -> list[Results]:
    """The experiments at `location`, each opened once (docs/architecture.md)."""
    folders = experiment_folders(location)
    if folders is None:
        return [Results(location)]  # the store's own message when it is not one
    found: list[Results] = []
    try:
        for d in folders:
            found.append(Results(d))
    except BaseException:
        for r in found:
            r.close()
        raise
    return found
