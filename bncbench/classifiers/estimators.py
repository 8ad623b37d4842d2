"""The import path `bncbench.classifiers.estimators` of plug-ins written before the family layout
(docs/adding-a-classifier.md imported from it). The code is in `kernels/estimators.py`; new code imports
from `bncbench.classifiers` or the kernel. Nothing inside bncbench imports this module
(tests/test_layout.py)."""

from bncbench.classifiers.kernels.estimators import (
    ESTIMATORS,
    log_cond,
    log_joint,
    log_prior,
)

__all__ = ['ESTIMATORS', 'log_cond', 'log_joint', 'log_prior']
