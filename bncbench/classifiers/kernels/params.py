"""Parameter declarations of the classifiers: type, range and choices of each constructor parameter."""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from bncbench.classifiers.kernels.estimators import ESTIMATORS

#: the precisions of the information measures (docs/algorithms.md §0.3)
PRECISIONS = ("float32", "float64")
#: how a missing value is treated (docs/algorithms.md §1.5)
MISSING_MODES = ("value", "skip")

_KINDS = {bool: "True or False", int: "an integer", float: "a real number", str: "a string", object: "a value"}


@dataclass(frozen=True)
class Param:
    """One parameter's constraint (scikit-learn's `_parameter_constraints` in small): `kind` is bool, int,
    float or str; `choices` the allowed strings; `low`/`high` the bounds (`open` names the open ones:
    "low", "high" or "both"); `none` whether None is allowed."""

    kind: type
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    open: str = ""
    none: bool = False

    def describe(self) -> str:
        """What the parameter takes, in words ("an integer ≥ 0", "one of ('x2',)")."""
        if self.choices:
            text = f"one of {self.choices}"
        elif self.low is not None and self.high is not None:
            lo = "(" if self.open in ("low", "both") else "["
            hi = ")" if self.open in ("high", "both") else "]"
            text = f"{_KINDS[self.kind]} in {lo}{self.low:g}, {self.high:g}{hi}"
        elif self.low is not None:
            text = f"{_KINDS[self.kind]} {'>' if self.open == 'low' else '≥'} {self.low:g}"
        else:
            text = _KINDS[self.kind]
        return f"None or {text}" if self.none else text

    def type_ok(self, value: Any) -> bool:
        """Whether `value` has the declared type (bool is not a number; an int is a real number)."""
        if value is None:
            return self.none
        if self.kind is bool:
            return isinstance(value, (bool, np.bool_))
        if self.kind in (int, float):
            number = numbers.Integral if self.kind is int else numbers.Real
            return isinstance(value, number) and not isinstance(value, (bool, np.bool_))
        return isinstance(value, self.kind)

    def value_ok(self, value: Any) -> bool:
        """Whether a value of the declared type is among the choices and within the bounds."""
        if value is None:
            return True
        if self.choices:
            return value in self.choices
        if self.low is not None and not (value > self.low if self.open in ("low", "both") else value >= self.low):
            return False
        return self.high is None or (value < self.high if self.open in ("high", "both") else value <= self.high)

    def check(self, name: str, value: Any) -> None:
        """Raise a ValueError naming `name` unless `value` is allowed."""
        if not (self.type_ok(value) and self.value_ok(value)):
            raise ValueError(f"{name} must be {self.describe()}, got {value!r}")


#: the parameters a config may set once for all its classifiers (top-level keys)
SHARED_PARAMS = {"estimator": Param(str, ESTIMATORS), "m": Param(float, low=0),
                 "info_precision": Param(str, PRECISIONS)}
#: the parameters the engine sets from the fold's data (a task's key holds the data instead)
DATA_PARAMS = ("cardinalities", "n_classes")
#: the parameters of every classifier that the engine sets, never a config: how a missing value is
#: treated (from the preprocessing), then DATA_PARAMS
ENGINE_PARAMS = ("missing", *DATA_PARAMS)
