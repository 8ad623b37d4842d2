"""From a loaded data set to integer codes: discretisation, missing values, encoding, folds (docs/algorithms.md §1)."""

from __future__ import annotations

import importlib
from typing import Any

#: the scikit-learn transformers, each imported when first named (a reader of results imports
#: preprocess/settings.py, and so this package, without loading scikit-learn): name → module
_WHERE = {"EqualFrequencyDiscretizer": "equal_frequency", "MDLDiscretizer": "mdl", "MissingImputer": "imputer"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


__all__ = [*_WHERE]  # noqa: PLE0604 (names resolved by __getattr__)
