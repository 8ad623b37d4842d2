"""What checks a scikit-learn classifier named in a config (a baseline): that the class is one, and
that an entry's parameters make one (docs/algorithms.md §1.9); engine/baseline.py runs it."""

from __future__ import annotations

import inspect
from typing import Any


def not_a_classifier(cls: type) -> str | None:
    """Why the class `cls` is not a classifier bncbench runs (judged on the class, before any
    instance is made), or None: a subclass of BayesNetClassifier, or a scikit-learn estimator (a
    subclass of BaseEstimator) with fit and predict_proba."""
    from bncbench.classifiers.base import BayesNetClassifier

    if issubclass(cls, BayesNetClassifier):  # a plug-in: judged without importing scikit-learn
        return None
    from sklearn.base import BaseEstimator, ClusterMixin, OutlierMixin, RegressorMixin, TransformerMixin

    if not issubclass(cls, BaseEstimator):
        return ("is not a classifier: name a subclass of bncbench.classifiers.BayesNetClassifier or a scikit-learn "
                "classifier (a subclass of sklearn.base.BaseEstimator with fit and predict_proba)")
    missing = next((m for m in ("fit", "predict_proba") if not callable(getattr(cls, m, None))), None)
    if missing is None:
        return None
    kinds = ((RegressorMixin, "regressor"), (ClusterMixin, "clusterer"), (OutlierMixin, "outlier detector"),
             (TransformerMixin, "transformer"))
    kind = next((word for mixin, word in kinds if issubclass(cls, mixin)), None)
    if kind:
        return f"is a {kind}, not a classifier; a baseline needs a classifier with fit, predict_proba and classes_"
    return f"has no {missing}: a baseline needs a classifier with fit and predict_proba (for class probabilities)"


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
