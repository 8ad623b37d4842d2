"""scikit-learn's estimator API of a classifier, kept without importing scikit-learn: parameters,
tags, score, repr and the fitted check (scikit-learn's developer guide, "Developing scikit-learn
estimators"; docs/architecture.md: Dependency direction)."""

from __future__ import annotations

import inspect
from typing import Any, Self


class ClassifierAPI:
    """What scikit-learn's `BaseEstimator` and `ClassifierMixin` give a classifier, written here so
    that fitting and predicting import no scikit-learn (~1 s at a process's start): `get_params` /
    `set_params` (nested `a__b` keys; scikit-learn's error for an unknown parameter), the tags of a
    classifier (`__sklearn_tags__`, which imports scikit-learn: only scikit-learn asks for them),
    `score` (accuracy, through scikit-learn's metric) and a repr of the parameters set away from
    their defaults. The parameters are the constructor's keyword arguments, kept unchanged as
    attributes of the same names (scikit-learn's convention, which `clone` relies on)."""

    @classmethod
    def _get_param_names(cls) -> list[str]:
        """The constructor's parameter names, sorted (as scikit-learn lists them)."""
        if cls.__init__ is object.__init__:
            return []
        signature = inspect.signature(cls.__init__)
        params = [p for p in signature.parameters.values() if p.name != "self" and p.kind != p.VAR_KEYWORD]
        if any(p.kind == p.VAR_POSITIONAL for p in params):
            raise RuntimeError(f"scikit-learn estimators should always specify their parameters in the signature of "
                               f"their __init__ (no varargs). {cls} with constructor {signature} doesn't  follow "
                               f"this convention.")
        return sorted(p.name for p in params)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's parameters and their values; `deep`: with those of a parameter that
        is an estimator itself, as `name__param`."""
        out: dict[str, Any] = {}
        for key in self._get_param_names():
            value = getattr(self, key)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{key}__{k}", v) for k, v in value.get_params().items())
            out[key] = value
        return out

    def set_params(self, **params: Any) -> Self:
        """Set parameters (`name__param` sets `param` of the estimator in parameter `name`); ValueError
        for a name that is not a parameter."""
        if not params:
            return self
        valid = self.get_params(deep=True)
        nested: dict[str, dict[str, Any]] = {}
        for full_key, value in params.items():
            key, delim, sub_key = full_key.partition("__")
            if key not in valid:
                raise ValueError(f"Invalid parameter {key!r} for estimator {self}. "
                                 f"Valid parameters are: {self._get_param_names()!r}.")
            if delim:
                nested.setdefault(key, {})[sub_key] = value
            else:
                setattr(self, key, value)
                valid[key] = value
        for key, sub_params in nested.items():
            valid[key].set_params(**sub_params)
        return self

    def __repr__(self) -> str:
        """`Name(p=v, ...)` with the parameters whose value differs from the constructor's default
        (compared by repr, as scikit-learn's `print_changed_only`), by name."""
        defaults = {n: p.default for n, p in inspect.signature(type(self).__init__).parameters.items()}
        changed = [f"{k}={v!r}" for k, v in self.get_params(deep=False).items()
                   if k not in defaults or repr(v) != repr(defaults[k])]
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_tags__(self) -> Any:
        """scikit-learn's tags of a classifier (BaseEstimator's defaults with ClassifierMixin's
        changes: the estimator type, the classifier tags, y required)."""
        from sklearn.utils import ClassifierTags, Tags, TargetTags

        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True), transformer_tags=None,
                    regressor_tags=None, classifier_tags=ClassifierTags())

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """The accuracy of `predict(X)` against y (scikit-learn's `accuracy_score`)."""
        from sklearn.metrics import accuracy_score

        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)  # type: ignore[attr-defined]


def check_fitted(estimator: Any) -> None:
    """scikit-learn's `check_is_fitted(estimator)`: an estimator with a fitted attribute (a name
    ending in "_", set by fit) and no `__sklearn_is_fitted__` passes here at once; any other is
    judged by scikit-learn itself, which raises its NotFittedError."""
    if not hasattr(estimator, "__sklearn_is_fitted__") \
            and any(v.endswith("_") and not v.startswith("__") for v in vars(estimator)):
        return
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(estimator)
