"""The one parameter declaration of each classifier (`PARAMS`): every constructor parameter declared,
keyword-only constructors in one order, fit and the config checking it, docs/cli.md's table naming it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from bncbench import config
from bncbench.classifiers import REGISTRY
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.classifiers.kernels.params import ENGINE_PARAMS, SHARED_PARAMS, Param
from bncbench.errors import UserError

TAIL = ["estimator", "m", "missing", "cardinalities", "n_classes"]
CLI_MD = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _registered(name: str) -> type[BayesNetClassifier]:
    """REGISTRY[name], checked to be a BayesNetClassifier (REGISTRY is typed Mapping[str, type])."""
    cls = REGISTRY[name]
    assert issubclass(cls, BayesNetClassifier), cls
    return cls


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_parameter_declared_keyword_only_in_one_order(name):
    cls = _registered(name)
    params = [p for p in inspect.signature(cls.__init__).parameters.values() if p.name != "self"]
    assert all(p.kind is p.KEYWORD_ONLY for p in params), name
    names = [p.name for p in params]
    assert set(names) == set(cls.PARAMS), (name, set(names) ^ set(cls.PARAMS))
    assert names[-5:] == TAIL, names  # own parameters first, then info_precision, then the shared ones
    assert "info_precision" not in names or names[-6] == "info_precision", names
    for p in params:  # every default satisfies its own declaration
        cls.PARAMS[p.name].check(p.name, p.default)


def test_param_checks_type_range_and_choices():
    p = Param(int, low=0, none=True)
    for ok in (None, 0, 3):
        p.check("k", ok)
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="k must be None or an integer ≥ 0"):
            p.check("k", bad)
    with pytest.raises(ValueError, match=r"a must be a real number in \(0, 1\)"):
        Param(float, low=0, high=1, open="both").check("a", 1.0)
    with pytest.raises(ValueError, match=r"one of \('x2',\)"):
        Param(str, ("x2",)).check("t", "epsilon")


@pytest.mark.parametrize("cls_name, kw, key", [("KDB", {"k": -1}, "k"), ("KDB", {"k": 1.5}, "k"),
                                               ("SKDB", {"select_k": 1}, "select_k"),
                                               ("NSR", {"nsr_ratio": 0.0}, "nsr_ratio"),
                                               ("BAN", {"ban_test": "epsilon"}, "ban_test"),
                                               ("TAN", {"info_precision": "float16"}, "info_precision")])
def test_fit_and_config_refuse_what_the_declaration_refuses(cls_name, kw, key):
    import numpy as np
    X, y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]]), np.array([0, 1, 1, 0])
    with pytest.raises(ValueError, match=key):
        REGISTRY[cls_name](**kw).fit(X, y)
    value = kw[key]
    text = f"datasets: [iris]\nclassifiers:\n  - name: {cls_name}\n    {key}: {value!r}\n".replace("'", "")
    with pytest.raises(UserError, match=rf"c\.yaml:4: classifiers\.0\.{key}: "):
        config.parse(text, "c.yaml")


def test_config_did_you_mean_and_shared_keys():
    unknown = r"c\.yaml:3: classifiers\.0\.kk: unknown parameter 'kk' of KDB \(did you mean 'k'\?\)"
    with pytest.raises(UserError, match=unknown):
        config.parse("datasets: [iris]\nclassifiers:\n  - {name: KDB, kk: 2}\n", "c.yaml")
    with pytest.raises(UserError, match=r"c\.yaml:2: info_precision: invalid value 'float3' \(did you mean 'float32'"):
        config.parse("datasets: [iris]\ninfo_precision: float3\nclassifiers: [TAN]\n", "c.yaml")
    exp = config.parse("datasets: [iris]\nm: 2\nclassifiers: [TAN, {name: NSR, nsr_ratio: 1}]\n", "c.yaml")
    assert exp.classifiers[0].params == {"m": 2.0} and type(exp.classifiers[1].params["nsr_ratio"]) is float
    assert set(SHARED_PARAMS) == {"estimator", "m", "info_precision"}


def _doc_rows() -> dict[str, str]:
    """{classifier name: its parameters cell} of docs/cli.md's classifier table."""
    rows = {}
    for line in CLI_MD.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        cells = [c for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))] if cells else []
        if len(cells) >= 3:
            for name in (n.strip() for n in cells[0].split(",")):
                if name in REGISTRY:
                    rows[name] = cells[1]
    return rows


@pytest.mark.parametrize("name", list(REGISTRY))
def test_docs_table_names_every_declared_parameter_and_choice(name):
    """docs/cli.md's table is checked against the declarations: each own parameter in backticks, each
    choice of a string parameter written out, no parameter the class does not take."""
    cell = _doc_rows()[name]
    own = {k: p for k, p in _registered(name).PARAMS.items() if k not in ("estimator", "m", *ENGINE_PARAMS)}
    named = set(re.findall(r"`([a-z_0-9]+)[`:]", cell))
    assert named == set(own), (name, named ^ set(own))
    for k, p in own.items():
        for choice in () if k in SHARED_PARAMS else p.choices:  # info_precision: documented as a shared key
            assert re.search(rf"`{k}: [^`]*\b{re.escape(choice)}\b", cell), (name, k, choice)
