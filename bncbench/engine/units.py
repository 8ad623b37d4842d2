"""One unit of work: a (data set, run, fold) cell with every pending classifier (docs/architecture.md)."""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from bncbench.classifiers.base import BayesNetClassifier, fit_counts
from bncbench.classifiers.kernels.counts import PairCounts
from bncbench.classifiers.kernels.params import DATA_PARAMS, ENGINE_PARAMS
from bncbench.classifiers.learned import Learned
from bncbench.data import catalog, userdata
from bncbench.data.dataset import Dataset
from bncbench.engine.output import TaskOutput
from bncbench.preprocess.encode import Encoded, encode_fold, encode_rows, fit_cuts
from bncbench.preprocess.folds import FOLD_SCHEMES, split
from bncbench.preprocess.settings import PreprocessSettings

if TYPE_CHECKING:  # type-only: the engine runs a validated experiment
    from bncbench.experiment import ClassifierSpec, CVSpec, DatasetSpec


@functools.lru_cache(maxsize=4)
def load_dataset(spec: DatasetSpec) -> Dataset:
    if spec.path:
        return userdata.load_user(spec.name, spec.path, spec.class_column, spec.read, spec.entry)
    return catalog.load(spec.name)


@functools.lru_cache(maxsize=4)
def _global_cuts(spec: DatasetSpec, settings: PreprocessSettings):
    """The cut points (preprocess/encode.py fit_cuts) fitted once on every row (scope global)."""
    ds = load_dataset(spec)
    return fit_cuts(ds, np.arange(ds.n_instances), settings)


def forget_loaded() -> None:
    """Drop the data sets this process loaded and all it computed from them (their files may
    have changed since)."""
    for cached in (load_dataset, _global_cuts, _all_codes, _all_rows):
        cached.cache_clear()


@dataclass(frozen=True)
class Unit:
    """One (data set, run, fold) cell with the classifiers still to run on it."""

    dataset: DatasetSpec
    run: int
    fold: int
    classifiers: tuple[ClassifierSpec, ...]
    keys: tuple[str, ...]


@functools.lru_cache(maxsize=2)
def _all_codes(spec: DatasetSpec, settings: PreprocessSettings):
    """Encoding of every row and the cardinalities (only valid when the encoding does not depend
    on the fold: global discretisation without imputation)."""
    return encode_rows(load_dataset(spec), settings, _global_cuts(spec, settings))


@functools.lru_cache(maxsize=2)
def _all_rows(spec: DatasetSpec, settings: PreprocessSettings, pairs: bool):
    """Encoding and count tables of every row (only valid when the encoding does not depend on
    the fold: global discretisation without imputation)."""
    ds = load_dataset(spec)
    X, cards = _all_codes(spec, settings)
    return X, cards, fit_counts(X, ds.y, cards, ds.n_classes, pairs)


def fold_independent(settings: PreprocessSettings) -> bool:
    """Whether every fold sees the same encoding of every row (global cuts, no imputation)."""
    return settings.scope == "global" and settings.missing != "impute"


def fold_counts(spec: DatasetSpec, settings: PreprocessSettings, ds: Dataset, train, test, enc, pairs: bool,
                complement: bool = True):
    """The training counts of one fold, counted once for all its classifiers (docs/architecture.md)."""
    if fold_independent(settings) and complement:
        _, _, full = _all_rows(spec, settings, pairs)
        return full - fit_counts(enc.X_test, ds.y[test], enc.cardinalities, ds.n_classes, pairs)
    return fit_counts(enc.X_train, ds.y[train], enc.cardinalities, ds.n_classes, pairs)


@dataclass
class PreprocessedFold:
    """One (run, fold) of a data set as the classifiers see it."""

    dataset: Dataset
    settings: PreprocessSettings  # the data set's preprocessing (the config's with its overrides)
    train: np.ndarray             # row numbers of the training instances
    test: np.ndarray              # row numbers of the test instances
    encoded: Encoded              # their preprocessed (integer-coded) attributes


def preprocessed_fold(spec: DatasetSpec, settings: PreprocessSettings, cv: CVSpec, run: int,
                      fold: int) -> PreprocessedFold:
    """The preprocessed (encoded) training and test set of one (run, fold) of data set `spec`.
    `settings` are the config's; the data set's own overrides apply on top."""
    ds = load_dataset(spec)
    settings = spec.settings(settings)
    train, test = split(ds.y, cv.scheme, cv.folds, run, fold, cv.seed, cv.divisor)
    if fold_independent(settings):  # one encoding serves every fold
        X_all, cards = _all_codes(spec, settings)
        enc = Encoded(X_all[train], X_all[test], cards, _global_cuts(spec, settings))
    else:
        gcuts = _global_cuts(spec, settings) if settings.scope == "global" else None
        enc = encode_fold(ds, train, test, settings, gcuts)
    return PreprocessedFold(ds, settings, train, test, enc)


@dataclass
class FoldCounts:
    """The training counts of one fold, counted once for all its classifiers, and the seconds it took."""

    tables: PairCounts
    seconds: float


class ClassifierEntry(Protocol):
    """What the engine calls on a classifier of a config (engine/entries.py `entry_of`): a Bayesian
    network classifier's side (`BayesNetEntry`) or a scikit-learn baseline's (engine/baseline.py)."""

    @property
    def code(self) -> type:
        """The class whose module's code computes the tasks (engine/fingerprint.py code_fingerprint)."""

    @property
    def needs_counts(self) -> bool:
        """Whether its fit takes the fold's count tables (`FoldCounts`)."""

    @property
    def needs_pairs(self) -> bool:
        """Whether those count tables must hold the pairwise (x_i, x_j, y) counts."""

    def identity(self, spec: ClassifierSpec) -> dict[str, Any]:
        """The task identity's part of the classifier beside its name and label."""

    def installed(self, spec: ClassifierSpec) -> str | None:
        """The installed code outside bncbench that computes its tasks (a worker must have the same), or None."""

    def prepare_kernels(self, spec: ClassifierSpec, notify: Callable[[str], None], check: bool = False) -> bool:
        """Load its compiled kernels in this process (compiled into the disk cache first where needed; with
        `check`, none loaded); True where the cache lacked one."""

    def fit_fold(self, spec: ClassifierSpec, p: PreprocessedFold, counts: FoldCounts | None, seed: int, run: int,
                 fold: int) -> TaskOutput:
        """Fit on the fold's training rows and give the probabilities of its test rows."""


@dataclass(frozen=True)
class BayesNetEntry:
    """The engine's side of a Bayesian network classifier (a `BayesNetClassifier` subclass) in a config."""

    cls: type[BayesNetClassifier]

    @property
    def code(self) -> type:
        return self.cls

    @property
    def needs_counts(self) -> bool:
        return True

    @property
    def needs_pairs(self) -> bool:
        return self.cls.NEEDS_PAIRS

    def identity(self, spec: ClassifierSpec) -> dict[str, Any]:
        """The classifier's parameters as it runs with them: the config's, over the class's defaults,
        so that a parameter written out at its default and one left out are the same task. (A change
        of a default in the code changes the code fingerprint, which re-runs the task.)"""
        defaults = {name: p.default for name, p in inspect.signature(self.cls.__init__).parameters.items()
                    if name != "self" and name not in DATA_PARAMS and p.default is not inspect.Parameter.empty}
        return {"params": {**defaults, **spec.params}}

    def installed(self, spec: ClassifierSpec) -> str | None:
        return None

    def prepare_kernels(self, spec: ClassifierSpec, notify: Callable[[str], None], check: bool = False) -> bool:
        return self.cls.prepare_kernels(spec.params, notify, check)

    def build(self, spec: ClassifierSpec, cardinalities, n_classes: int, missing: str) -> BayesNetClassifier:
        """The classifier of `spec` with the parameters the engine sets (ENGINE_PARAMS) for a fold."""
        engine = ("skip" if missing == "skip" else "value", cardinalities, n_classes)
        return self.cls(**dict(zip(ENGINE_PARAMS, engine)), **spec.params)

    def fit_fold(self, spec: ClassifierSpec, p: PreprocessedFold, counts: FoldCounts | None, seed: int, run: int,
                 fold: int) -> TaskOutput:
        """Fit on the fold's training rows (with its counts) and test on its test rows."""
        ds, settings, train, test, enc = p.dataset, p.settings, p.train, p.test, p.encoded
        clf = self.build(spec, enc.cardinalities, ds.n_classes, settings.missing)
        t0 = time.perf_counter()
        clf.fit(enc.X_train, ds.y[train], counts=None if counts is None else counts.tables)
        t1 = time.perf_counter()
        proba = clf.predict_proba(enc.X_test) if test.size else np.empty((0, ds.n_classes))
        t2 = time.perf_counter()
        info = dict(clf.info_)
        if test.size:  # what the model did on these test rows (untimed)
            info.update(clf.prediction_info(enc.X_test))
        # the per-instance parts summarised over the test rows (a fold may have none: petal's folds of a small data set)
        learned = clf.learned_structure(enc.X_test if test.size else None)
        t_count = 0.0 if counts is None else counts.seconds
        # a plug-in's other answer is kept as it is for failures.malformed to name
        structure = learned.to_json() if isinstance(learned, Learned) else learned
        return TaskOutput(test, ds.y[test].astype(np.int64), proba, t1 - t0 + t_count, t2 - t1, info, structure)


def run_unit(unit: Unit, entries: Sequence[ClassifierEntry], settings: PreprocessSettings, cv: CVSpec, *,
             caught: Callable[[ClassifierSpec, BaseException], object] | None = None) -> list:
    """Preprocess one fold once, count once, and fit/test every pending classifier on it (`entries`:
    those of `unit.classifiers`, engine/entries.py). `caught(spec, e)`: what stands in the list for a
    classifier that raised `e` (None: `e` goes on)."""
    p = preprocessed_fold(unit.dataset, settings, cv, unit.run, unit.fold)
    ds, settings, train, test, enc = p.dataset, p.settings, p.train, p.test, p.encoded
    counts = None
    if any(e.needs_counts for e in entries):
        pairs = any(e.needs_pairs for e in entries if e.needs_counts)
        if fold_independent(settings):  # every row counted once per worker, before the clock starts
            _all_rows(unit.dataset, settings, pairs)
        t = time.perf_counter()
        tables = fold_counts(unit.dataset, settings, ds, train, test, enc, pairs, complement=cv.scheme in FOLD_SCHEMES)
        counts = FoldCounts(tables, time.perf_counter() - t)
    out: list = []
    for spec, entry in zip(unit.classifiers, entries, strict=True):
        try:
            out.append(entry.fit_fold(spec, p, counts if entry.needs_counts else None, cv.seed, unit.run, unit.fold))
        except BaseException as e:
            failure = None if caught is None else caught(spec, e)
            if failure is None:
                raise
            out.append(failure)
    return out
