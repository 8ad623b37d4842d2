"""Bayesian network classifiers on discrete value codes, each a scikit-learn classifier: `base.py` the
contract, `kernels/` what two or more families share, one folder per family (nb, tan, kdb, ait, aode,
ban); `REGISTRY` names them for configs (docs/architecture.md, docs/adding-a-classifier.md).

A name is imported on first use (PEP 562 `__getattr__`), so that importing the package does not
import scikit-learn (docs/algorithms.md §0)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

#: where each exported name lives
_WHERE = {
    "NB": "nb.nb", "TAN": "tan.tan", "KDB": "kdb.kdb", "AODE": "aode.aode", "STAN": "tan.stan", "SKDB": "kdb.skdb",
    "AIT": "ait.ait", "CFWNB": "nb.cfwnb", "FKDB": "kdb.fkdb", "TAODE": "aode.taode", "IWAODE": "aode.iwaode",
    "SP": "aode.sp", "RC": "aode.rc", "SPRC": "aode.rc", "PAA": "aode.wrappers", "CAA": "aode.wrappers",
    "PAE": "aode.wrappers", "CAE": "aode.wrappers", "SR": "aode.subsumption", "NSR": "aode.subsumption",
    "KBAN": "ban.kban", "BAN": "ban.ban",
}
_HELPERS = {
    "BayesNetClassifier": "base", "log_cond": "kernels.estimators", "log_joint": "kernels.estimators",
    "log_prior": "kernels.estimators", "nb_tables": "kernels.tables", "pair_table": "kernels.tables",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name) or _HELPERS.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value
    return value


class _Registry(Mapping):
    """The classifiers a config names by their class name, each imported when looked up."""

    def __getitem__(self, name: str) -> type:
        if name not in _WHERE:
            raise KeyError(name)
        return __getattr__(name)

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)

    def __repr__(self) -> str:
        return f"REGISTRY({', '.join(_WHERE)})"


#: the classifiers a config names by their class name
REGISTRY: Mapping[str, type] = _Registry()

__all__ = ["AIT", "AODE", "BAN", "CAA", "CAE", "CFWNB", "FKDB", "IWAODE", "KBAN", "KDB", "NB", "NSR", "PAA", "PAE", "RC",
           "REGISTRY", "SKDB", "SP", "SPRC", "SR", "STAN", "TAN", "TAODE", "BayesNetClassifier",
           "log_cond", "log_joint", "log_prior", "nb_tables", "pair_table"]
