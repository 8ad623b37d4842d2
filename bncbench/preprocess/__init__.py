"""From a loaded data set to integer codes: discretisation, missing values, encoding, folds (docs/algorithms.md §1)."""

from bncbench.preprocess.equal_frequency import EqualFrequencyDiscretizer
from bncbench.preprocess.imputer import MissingImputer
from bncbench.preprocess.mdl import MDLDiscretizer

__all__ = ["EqualFrequencyDiscretizer", "MDLDiscretizer", "MissingImputer"]
