"""The preprocessing a config asks for: missing values, discretiser, bins (docs/algorithms.md §1)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PreprocessSettings:
    missing: str = "distinct"          # distinct | impute | skip
    discretizer: str = "eqfreq"        # eqfreq | mdl
    bins: int = 5
    eqfreq_method: str = "petal"       # petal | weka | quantile (a user's own file: config.USER_EQFREQ_METHOD)
    mdl_method: str = "weka"           # weka | petal
    scope: str = "fold"                # fold | global
