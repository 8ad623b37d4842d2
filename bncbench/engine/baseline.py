"""A scikit-learn classifier as a baseline on a fold: its entry's checks, its features, its seed and
its probabilities in the fold's class order (docs/algorithms.md §1.9)."""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from bncbench.engine.fingerprint import distribution_version
from bncbench.engine.units import TaskOutput
from bncbench.preprocess.features import ENCODINGS, INPUTS, encode_codes, raw_features

if TYPE_CHECKING:  # type-only: the config's validation code does not compute results
    from bncbench.config import ClassifierSpec
    from bncbench.engine.units import PreprocessedFold

#: the keys of a baseline's entry that are bncbench's, not the estimator's, with their choices
#: (the first is the default)
OPTIONS: dict[str, tuple[str, ...]] = {"encoding": ENCODINGS, "input": INPUTS}


def constructor_params(cls: type) -> tuple[list[str], bool]:
    """(the names of the constructor's keyword parameters, whether it takes any keyword)."""
    names, any_keyword = [], False
    for name, p in inspect.signature(cls).parameters.items():
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            any_keyword = True
        else:
            names.append(name)
    return names, any_keyword


def check_estimator(cls: type, name: str, params: dict[str, Any]) -> None:
    """ValueError, in one line, unless `cls(**params)` is a classifier with class probabilities
    whose parameters scikit-learn's own checks accept."""
    try:
        est = cls(**params)
    except Exception as e:  # the estimator's constructor: reported in one line
        raise ValueError(f"{name}({', '.join(f'{k}={v!r}' for k, v in params.items())}) failed: "
                         f"{type(e).__name__}: {e}") from None
    kind = _estimator_type(est)
    if kind not in (None, "classifier"):
        raise ValueError(f"{name} is a {kind}, not a classifier; a baseline needs a classifier with fit, "
                         f"predict_proba and classes_")
    for method in ("fit", "predict_proba"):
        if not callable(getattr(est, method, None)):
            shown = f"{name}({', '.join(f'{k}={v!r}' for k, v in params.items())})" if params else name
            raise ValueError(f"{shown} has no {method}: the metrics need class probabilities; choose a classifier "
                             f"that has it (some take a parameter for it, e.g. sklearn.svm:SVC with probability: "
                             f"true)")
    # scikit-learn's declared parameter constraints, where the class declares them (a researcher's
    # own BaseEstimator often does not, and _validate_params then fails on the missing attribute)
    validate = getattr(est, "_validate_params", None) if hasattr(est, "_parameter_constraints") else None
    if callable(validate):
        try:
            validate()
        except (ValueError, TypeError) as e:
            raise ValueError(" ".join(str(e).split())) from None


def _estimator_type(est: Any) -> str | None:
    """scikit-learn's estimator type of `est` ("classifier", "regressor", ...), None when it has no tags."""
    tags = getattr(est, "__sklearn_tags__", None)
    if not callable(tags):
        return None
    try:
        return tags().estimator_type
    except Exception:  # a class with broken tags: judged by its methods alone
        return None


@functools.cache
def estimator_class(name: str) -> type:
    """The class "module.path:ClassName" names (a config's validation has checked it imports)."""
    module, _, attr = name.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def random_state(seed: int, run: int, fold: int) -> int:
    """The seed of a baseline's randomness on one (run, fold): the first 32-bit word of numpy's
    SeedSequence([cv.seed, run, fold])."""
    return int(np.random.SeedSequence([seed, run, fold]).generate_state(1)[0])


def split_params(params: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """(bncbench's options with their defaults, the estimator's constructor parameters) of an entry."""
    options = {k: str(params.get(k, choices[0])) for k, choices in OPTIONS.items()}
    return options, {k: v for k, v in params.items() if k not in OPTIONS}


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
    """The engine's side of a scikit-learn classifier in a config (`ClassifierSpec.cls` of its entry)."""

    @staticmethod
    def identity(spec: ClassifierSpec) -> dict[str, Any]:
        """The task identity's part of the estimator: its class, its parameters over its defaults
        (with bncbench's options) and the installed version of its distribution."""
        cls = estimator_class(spec.name)
        options, params = split_params(spec.params)
        return {"estimator": f"{cls.__module__}.{cls.__qualname__}", "installed": distribution_version(cls.__module__),
                "params": {**_json_defaults(cls), **params}, **options}

    @staticmethod
    def installed(spec: ClassifierSpec) -> str:
        """The installed code of the estimator (a worker must have the same)."""
        return distribution_version(estimator_class(spec.name).__module__)

    @staticmethod
    def fit_fold(spec: ClassifierSpec, p: PreprocessedFold, seed: int, run: int, fold: int) -> TaskOutput:
        """Fit the estimator on the fold's training rows and give its probabilities of the test
        rows in the fold's class order (a class absent from the training rows: probability 0)."""
        cls = estimator_class(spec.name)
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
        return TaskOutput(p.test, ds.y[p.test].astype(np.int64), proba, t1 - t0, t2 - t1, {})
