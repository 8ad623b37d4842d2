"""One unit of work: a (data set, run, fold) cell with every pending classifier (docs/architecture.md)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bncbench.classifiers.base import fit_counts
from bncbench.data import catalog, userdata
from bncbench.data.dataset import Dataset
from bncbench.preprocess.encode import Encoded, PreprocessSettings, encode_fold, encode_rows, fit_cuts
from bncbench.preprocess.folds import FOLD_SCHEMES, split

if TYPE_CHECKING:  # type-only: the config's validation code does not compute results
    from bncbench.config import ClassifierSpec, DatasetSpec


@functools.lru_cache(maxsize=4)
def load_dataset(spec: DatasetSpec) -> Dataset:
    if spec.path:
        return userdata.load_user(spec.name, spec.path, spec.class_column, spec.read, spec.entry)
    return catalog.load(spec.name)


@functools.lru_cache(maxsize=4)
def _global_cuts(spec: DatasetSpec, settings: PreprocessSettings):
    """The discretiser (preprocess/encode.py fit_cuts) fitted once on every row (scope global)."""
    ds = load_dataset(spec)
    return fit_cuts(ds, np.arange(ds.n_instances), settings)


def forget_loaded() -> None:
    """Drop the data sets this process loaded and all it computed from them (their files may
    have changed since)."""
    for cached in (load_dataset, _global_cuts, _all_codes, _all_rows):
        cached.cache_clear()


def build_classifier(spec: ClassifierSpec, cardinalities, n_classes: int, missing: str):
    return spec.estimator_class(cardinalities=cardinalities, n_classes=n_classes,
                                missing="skip" if missing == "skip" else "value", **spec.params)


@dataclass
class TaskOutput:
    """What one classifier produced on one fold: out-of-fold probabilities and times."""

    test_index: np.ndarray  # row numbers of the test instances in the data set
    y_true: np.ndarray      # their class codes
    proba: np.ndarray       # (n_test, n_classes) float64
    train_time: float
    test_time: float
    info: dict              # what the classifier reported (e.g. STAN's number of selected attributes)


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


def preprocessed_fold(spec: DatasetSpec, settings: PreprocessSettings, scheme: str, k: int, run: int, fold: int,
                      seed: int, divisor: int = 3) -> PreprocessedFold:
    """The preprocessed (encoded) training and test set of one (run, fold) of data set `spec`.
    `settings` are the config's; the data set's own overrides apply on top."""
    ds = load_dataset(spec)
    settings = spec.settings(settings)
    train, test = split(ds.y, scheme, k, run, fold, seed, divisor)
    if fold_independent(settings):  # one encoding serves every fold
        X_all, cards = _all_codes(spec, settings)
        enc = Encoded(X_all[train], X_all[test], cards, _global_cuts(spec, settings).cuts_)
    else:
        gcuts = _global_cuts(spec, settings) if settings.scope == "global" else None
        enc = encode_fold(ds, train, test, settings, gcuts)
    return PreprocessedFold(ds, settings, train, test, enc)


def run_unit(unit: Unit, settings: PreprocessSettings, scheme: str, k: int, seed: int, divisor: int = 3, *,
             caught: Callable[[ClassifierSpec, BaseException], object] | None = None) -> list:
    """Preprocess one fold once, count once, and fit/test every pending classifier on it.
    `caught(spec, e)`: what stands in the list for a classifier that raised `e` (None: `e` goes on)."""
    p = preprocessed_fold(unit.dataset, settings, scheme, k, unit.run, unit.fold, seed, divisor)
    ds, settings, train, test, enc = p.dataset, p.settings, p.train, p.test, p.encoded
    bncs = [c for c in unit.classifiers if not hasattr(c.estimator_class, "fit_fold")]
    counts, t_count = None, 0.0
    if bncs:
        pairs = any(c.estimator_class.NEEDS_PAIRS for c in bncs)
        if fold_independent(settings):  # every row counted once per worker, before the clock starts
            _all_rows(unit.dataset, settings, pairs)
        t = time.perf_counter()
        counts = fold_counts(unit.dataset, settings, ds, train, test, enc, pairs, complement=scheme in FOLD_SCHEMES)
        t_count = time.perf_counter() - t
    out: list = []
    for spec in unit.classifiers:
        try:
            out.append(_run_classifier(spec, p, counts, t_count, seed, unit))
        except BaseException as e:
            failure = None if caught is None else caught(spec, e)
            if failure is None:
                raise
            out.append(failure)
    return out


def _run_classifier(spec: ClassifierSpec, p: PreprocessedFold, counts, t_count: float, seed: int,
                    unit: Unit) -> TaskOutput:
    """Fit one classifier on the fold's training rows and test it on its test rows."""
    ds, settings, train, test, enc = p.dataset, p.settings, p.train, p.test, p.encoded
    fit_fold = getattr(spec.estimator_class, "fit_fold", None)
    if fit_fold is not None:  # a class that takes the whole fold: a scikit-learn baseline (engine/baseline.py)
        return fit_fold(spec, p, seed, unit.run, unit.fold)
    clf = build_classifier(spec, enc.cardinalities, ds.n_classes, settings.missing)
    t0 = time.perf_counter()
    clf.fit(enc.X_train, ds.y[train], counts=counts)
    t1 = time.perf_counter()
    proba = clf.predict_proba(enc.X_test) if test.size else np.empty((0, ds.n_classes))
    t2 = time.perf_counter()
    info = dict(getattr(clf, "info_", {}))
    if test.size and hasattr(clf, "test_info"):  # what the model did on these test rows (untimed)
        info.update(clf.test_info(enc.X_test))
    return TaskOutput(test, ds.y[test].astype(np.int64), proba, t1 - t0 + t_count, t2 - t1, info)
