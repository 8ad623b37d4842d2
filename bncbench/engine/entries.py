"""Which side of the engine runs a classifier of a config (engine/units.py `ClassifierEntry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bncbench.classifiers.base import BayesNetClassifier
from bncbench.engine.baseline import ScikitLearnBaseline
from bncbench.engine.units import BayesNetEntry, ClassifierEntry

if TYPE_CHECKING:  # type-only: the engine runs a validated experiment
    from bncbench.experiment import ClassifierSpec


def entry_of(spec: ClassifierSpec) -> ClassifierEntry:
    """The engine's side of `spec`: a Bayesian network classifier's, or a scikit-learn baseline's."""
    cls = spec.estimator_class
    if issubclass(cls, BayesNetClassifier):
        return BayesNetEntry(cls)
    return ScikitLearnBaseline()
