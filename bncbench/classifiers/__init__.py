"""Bayesian network classifiers on discrete value codes, each a scikit-learn classifier (docs/architecture.md)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

#: the classifiers, registered once: class name → module (below this package)
_WHERE = {
    "NB": "nb.nb", "TAN": "tan.tan", "KDB": "kdb.kdb", "AODE": "aode.aode", "STAN": "tan.stan", "SKDB": "kdb.skdb",
    "AIT": "ait.ait", "CFWNB": "nb.cfwnb", "FKDB": "kdb.fkdb", "TAODE": "aode.taode", "IWAODE": "aode.iwaode",
    "SP": "aode.sp", "RC": "aode.rc", "SPRC": "aode.rc", "PAA": "aode.wrappers", "CAA": "aode.wrappers",
    "PAE": "aode.wrappers", "CAE": "aode.wrappers", "SR": "aode.subsumption", "NSR": "aode.subsumption",
    "KBAN": "ban.kban", "BAN": "ban.ban",
}
#: what a plug-in needs: the base class, estimates, tables and information measures from its count
#: tables: exported name → (module, name there)
_HELPERS = {
    "BayesNetClassifier": ("base", "BayesNetClassifier"),
    "log_cond": ("kernels.estimators", "log_cond"),
    "log_joint": ("kernels.estimators", "log_joint"),
    "log_prior": ("kernels.estimators", "log_prior"),
    "nb_tables": ("kernels.tables", "nb_tables"),
    "pair_table": ("kernels.tables", "pair_table"),
    "mutual_information": ("kernels.infotheory", "mutual_info_class"),
    "conditional_mutual_information": ("kernels.infotheory", "cond_mutual_info"),
    "symmetrical_uncertainty": ("kernels.infotheory", "symmetrical_uncertainty"),
    "Learned": ("learned", "Learned"),
    "Submodel": ("learned", "Submodel"),
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        where, attr = _WHERE[name], name
    elif name in _HELPERS:
        where, attr = _HELPERS[name]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), attr)
    globals()[name] = value
    return value


class _Registry(Mapping):
    """The classifiers a config names by their class name, each imported when looked up."""

    def __getitem__(self, name: str) -> type:
        if name not in _WHERE:
            raise KeyError(name)
        return __getattr__(name)

    def __contains__(self, name: object) -> bool:  # without importing the class (Mapping's looks it up)
        return name in _WHERE

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)

    def __repr__(self) -> str:
        return f"REGISTRY({', '.join(_WHERE)})"


def docstrings(name: str) -> tuple[str | None, str | None]:
    """(class docstring, module docstring) of the built-in classifier `name` as `__doc__` holds
    them, read from its source without importing it (a reader of results flags a classifier
    without scikit-learn)."""
    tree, cls = _source(_WHERE[name], name)
    doc = ast.get_docstring(cls, clean=False) if cls is not None else None
    if cls is not None and doc is None:  # `__doc__ = """...""" + _PARAMS_DOC` (aode/wrappers.py)
        doc = next((_text(n.value, tree) for n in cls.body if isinstance(n, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "__doc__" for t in n.targets)), None)
    return doc, ast.get_docstring(tree, clean=False)


def base_defaults() -> dict[str, Any]:
    """{parameter: default} of `BayesNetClassifier.__init__`'s keyword parameters (estimator, m, ...),
    read from base.py's source without importing it (it imports scikit-learn)."""
    _, cls = _source("base", "BayesNetClassifier")
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__") if cls else None
    if init is None:
        raise RuntimeError("classifiers/base.py: no BayesNetClassifier.__init__")  # our own code, not a user's
    return {a.arg: ast.literal_eval(d) for a, d in zip(init.args.kwonlyargs, init.args.kw_defaults) if d is not None}


def _source(module: str, name: str) -> tuple[ast.Module, ast.ClassDef | None]:
    """The syntax tree of this package's `module` and its class `name` (None if it has none)."""
    spec = importlib.util.find_spec(f"{__name__}.{module}")
    tree = ast.parse(Path(spec.origin if spec is not None and spec.origin else "").read_text(encoding="utf-8"))
    return tree, next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)


def _text(node: ast.expr, module: ast.Module) -> str | None:
    """The string an expression of string constants, `+` and module-level names of such strings is."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left, module), _text(node.right, module)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Name):
        value = next((n.value for n in module.body if isinstance(n, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets)), None)
        return None if value is None else _text(value, module)
    return None


#: the classifiers a config names by their class name
REGISTRY: Mapping[str, type] = _Registry()

__all__ = ["REGISTRY", *_HELPERS, *_WHERE]  # noqa: PLE0604 (names resolved by __getattr__)
