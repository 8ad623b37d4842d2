"""What one classifier gives back of one fold (`TaskOutput`), which the store keeps (docs/architecture.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class TaskOutput:
    """What one classifier produced on one fold: out-of-fold probabilities, times and the structure it learned."""

    test_index: np.ndarray  # row numbers of the test instances in the data set
    y_true: np.ndarray      # their class codes
    proba: np.ndarray       # (n_test, n_classes) float64
    train_time: float
    test_time: float
    info: dict              # what the classifier reported (e.g. STAN's number of selected attributes)
    structure: dict | None  # `Learned.to_json()` of what it learned (classifiers/learned.py); None: it reports none
