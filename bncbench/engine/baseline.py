"""A scikit-learn classifier as a baseline on a fold: its features, its seed and its probabilities in
the fold's class order (docs/algorithms.md §1.9; its entry's checks: classifiers/sklearn_entry.py)."""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from bncbench.classifiers.sklearn_entry import constructor_params
from bncbench.engine.fingerprint import distribution_version
from bncbench.engine.output import TaskOutput
from bncbench.preprocess.features import BASELINE_OPTIONS, encode_codes, raw_features

if TYPE_CHECKING:  # type-only: the engine runs a validated experiment
    from bncbench.engine.units import FoldCounts, PreprocessedFold
    from bncbench.experiment import ClassifierSpec


def random_state(seed: int, run: int, fold: int) -> int:
    """The seed of a baseline's randomness on one (run, fold): the first 32-bit word of numpy's
    SeedSequence([cv.seed, run, fold])."""
    return int(np.random.SeedSequence([seed, run, fold]).generate_state(1)[0])


def split_params(params: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """(bncbench's options with their defaults, the estimator's constructor parameters) of an entry."""
    options = {k: str(params.get(k, choices[0])) for k, choices in BASELINE_OPTIONS.items()}
    return options, {k: v for k, v in params.items() if k not in BASELINE_OPTIONS}


def _json_defaults(cls: type) -> dict[str, Any]:
    """The constructor's defaults that are plain JSON values (others are fixed by the distribution's version)."""
    out = {}
    for name, p in inspect.signature(cls).parameters.items():
        if p.default is inspect.Parameter.empty:
            continue
        try:
            json.dumps(p.default, allow_nan=False)
        except (TypeError, ValueError):
            continue
        out[name] = p.default
    return out


class OutputError(ValueError):
    """An estimator's output that is not a probability per training class and test row: the
    estimator's failure, not bncbench's (`theirs`, engine/failures.py)."""

    theirs = True


class ScikitLearnBaseline:
    """The engine's side of a scikit-learn classifier in a config (engine/units.py `ClassifierEntry`)."""

    @property
    def code(self) -> type:
        return ScikitLearnBaseline

    @property
    def needs_counts(self) -> bool:
        return False

    @property
    def needs_pairs(self) -> bool:
        return False

    def identity(self, spec: ClassifierSpec) -> dict[str, Any]:
        """The task identity's part of the estimator: its class, its parameters over its defaults
        (with bncbench's options) and the installed version of its distribution."""
        cls = spec.estimator_class
        options, params = split_params(spec.params)
        return {"estimator": f"{cls.__module__}.{cls.__qualname__}", "installed": distribution_version(cls.__module__),
                "params": {**_json_defaults(cls), **params}, **options}

    def installed(self, spec: ClassifierSpec) -> str | None:
        """The installed code of the estimator (a worker must have the same)."""
        return distribution_version(spec.estimator_class.__module__)

    def prepare_kernels(self, spec: ClassifierSpec, notify: Callable[[str], None], check: bool = False) -> bool:
        """Nothing: a scikit-learn estimator compiles nothing of bncbench's."""
        return False

    def fit_fold(self, spec: ClassifierSpec, p: PreprocessedFold, counts: FoldCounts | None, seed: int, run: int,
                 fold: int) -> TaskOutput:
        """Fit the estimator on the fold's training rows and give its probabilities of the test
        rows in the fold's class order (a class absent from the training rows: probability 0)."""
        cls = spec.estimator_class
        options, params = split_params(spec.params)
        names, _ = constructor_params(cls)
        if "random_state" in names and "random_state" not in params:
            params["random_state"] = random_state(seed, run, fold)
        ds, y = p.dataset, p.dataset.y[p.train]
        t0 = time.perf_counter()
        if options["input"] == "raw":
            X_train, X_test = raw_features(ds, p.train, p.test, p.settings.missing, options["encoding"])
        else:
            cards = p.encoded.cardinalities
            X_train = encode_codes(p.encoded.X_train, cards, options["encoding"])
            X_test = encode_codes(p.encoded.X_test, cards, options["encoding"])
        proba = np.zeros((p.test.size, ds.n_classes), dtype=np.float64)
        seen = np.unique(y)
        if seen.size == 1:  # one class to learn from (scikit-learn's linear models refuse to fit)
            t1 = time.perf_counter()
            proba[:, seen[0]] = 1.0
        else:
            # the estimator's own errors go on to the runner, which reports them as its (engine/failures.py)
            est = cls(**params).fit(X_train, y)
            t1 = time.perf_counter()
            if p.test.size:
                classes, got = np.asarray(est.classes_), est.predict_proba(X_test)
                shape = getattr(got, "shape", None)
                if shape != (p.test.size, classes.size) or classes.dtype.kind not in "iu" \
                        or not set(classes.tolist()) <= set(range(ds.n_classes)):
                    raise OutputError(f"predict_proba returned shape {shape} for classes_ {classes.tolist()}; expected "
                                      f"({p.test.size}, {classes.size}) for classes among 0..{ds.n_classes - 1}")
                proba[:, classes] = got
        t2 = time.perf_counter()
        return TaskOutput(p.test, ds.y[p.test].astype(np.int64), proba, t1 - t0, t2 - t1, {}, None)  # no structure
