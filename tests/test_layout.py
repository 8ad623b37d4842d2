"""The package layout (docs/architecture.md): no import cycle among bncbench modules, the public
imports, and one folder per concern.

The import graph is read from the source with `ast`, so it counts every import statement:
those inside functions (which only run when the function does) and those under
``if TYPE_CHECKING:`` (they never run, but they are still a dependency of the module's meaning:
a type named from a higher layer couples the two layers as much as a call does).
"""

from __future__ import annotations

import ast
import importlib
import itertools
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "bncbench"
TOP_LEVEL_ALLOWED = {"__init__.py", "__main__.py", "config.py", "errors.py", "experiment.py", "frames.py",
                     "results.py", "strict_yaml.py"}


# -- the import graph ---------------------------------------------------------------------
def _module_files() -> dict[str, Path]:
    """{module name: file} of every .py under bncbench/ (a package's __init__ is the package)."""
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = ("bncbench",) + path.relative_to(PKG).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _import_statements(tree: ast.AST):
    """Every Import / ImportFrom node, at any depth (inside functions and under `if TYPE_CHECKING:` too)."""
    return (node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)))


def _imports_of(module: str, path: Path, modules: set[str]) -> list[tuple[str, int]]:
    """(imported bncbench module, line) for every bncbench import statement of one module.

    `from bncbench.x import name` is the module bncbench.x.name when that file exists, else
    bncbench.x; relative imports are resolved against the module's package."""
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in _import_statements(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "bncbench"]
            continue
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        if base.split(".")[0] != "bncbench":
            continue
        for a in node.names:
            sub = f"{base}.{a.name}"
            found.append((sub if sub in modules else base, node.lineno))
    return found


def import_graph() -> tuple[dict[str, set[str]], dict[tuple[str, str], int]]:
    """({module: modules it imports}, {(importer, imported): first line}) over bncbench."""
    files = _module_files()
    names = set(files)
    graph: dict[str, set[str]] = {m: set() for m in files}
    lines: dict[tuple[str, str], int] = {}
    for m, path in files.items():
        for target, line in _imports_of(m, path, names):
            if target == m:  # a module naming itself is no edge between modules
                continue
            graph[m].add(target)
            lines.setdefault((m, target), line)
    return graph, lines


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle [a, b, ..., a] of a directed graph, or None (iterative depth-first search)."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {n: WHITE for n in graph}
    for targets in graph.values():
        for t in targets:
            colour.setdefault(t, WHITE)
    for start in sorted(colour):
        if colour[start] != WHITE:
            continue
        stack = [(start, iter(sorted(graph.get(start, ()))))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, children = stack[-1]
            for child in children:
                if colour[child] == GREY:
                    return path[path.index(child):] + [child]
                if colour[child] == WHITE:
                    colour[child] = GREY
                    path.append(child)
                    stack.append((child, iter(sorted(graph.get(child, ())))))
                    break
            else:
                colour[node] = BLACK
                path.pop()
                stack.pop()
    return None


def _describe(cycle: list[str], lines: dict[tuple[str, str], int]) -> str:
    files = _module_files()
    steps = []
    for a, b in itertools.pairwise(cycle):
        where = f"{files[a].relative_to(PKG.parent)}:{lines.get((a, b), '?')}" if a in files else "?"
        steps.append(f"{a} imports {b} ({where})")
    return "import cycle: " + " -> ".join(cycle) + "\n  " + "\n  ".join(steps)


def test_no_import_cycle():
    graph, lines = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, _describe(cycle, lines)


def test_graph_sees_function_level_and_relative_imports(tmp_path):
    """The scan is not vacuous: known edges are present, including imports inside functions
    (`bncbench run` imports the config lazily), and imports under TYPE_CHECKING."""
    graph, _ = import_graph()
    assert "bncbench.classifiers" in graph["bncbench.config"]              # module level, package
    assert "bncbench.classifiers.kernels.params" in graph["bncbench.config"]       # module level, module
    assert "bncbench.config" in graph["bncbench.cli.run"]                  # inside run()
    assert "bncbench.results" in graph["bncbench.cli.report"]              # inside a command
    assert "bncbench.experiment" in graph["bncbench.engine.units"]         # under TYPE_CHECKING only

    # resolution of relative imports and of `from package import name`, on synthetic modules
    src = tmp_path / "mod.py"
    src.write_text("from . import config\nfrom .evaluate import metrics, METRICS\nfrom ..x import y\n"
                   "def f():\n    from bncbench.data import catalog\n"
                   "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import bncbench.cli\n")
    mods = {"bncbench.config", "bncbench.evaluate.metrics", "bncbench.data.catalog", "bncbench.cli",
            "bncbench.engine.units"}
    assert {t for t, _ in _imports_of("bncbench.mod", src, mods)} == \
        {"bncbench.config", "bncbench.evaluate.metrics", "bncbench.evaluate", "bncbench.data.catalog", "bncbench.cli"}
    assert {t for t, _ in _imports_of("bncbench.engine.mod", src, mods)} == \
        {"bncbench.engine", "bncbench.engine.evaluate", "bncbench.x", "bncbench.data.catalog", "bncbench.cli"}
    init = tmp_path / "__init__.py"  # in a package's __init__, "." is the package itself
    init.write_text("from . import units\nfrom .. import config\n")
    assert {t for t, _ in _imports_of("bncbench.engine", init, mods)} == {"bncbench.engine.units", "bncbench.config"}


def test_cycle_finder_detects_cycles():
    """Negative check: the finder reports a cycle when there is one (and only then)."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": set()}) is None  # diamond, no cycle
    cycle = find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"a", "b", "c"}
    assert find_cycle({"x": {"y"}, "y": {"z"}, "z": {"y"}}) in (["y", "z", "y"], ["z", "y", "z"])
    # and through the real graph: adding one back edge makes the test's assertion fire
    graph, lines = import_graph()
    graph["bncbench.errors"].add("bncbench.config")  # config imports errors
    cycle = find_cycle(graph)
    assert cycle is not None and "bncbench.errors" in cycle and "bncbench.config" in cycle
    assert "import cycle" in _describe(cycle, lines)


def test_every_bncbench_import_resolves():
    """Every `from bncbench.x import name` (also inside functions) names something that exists,
    so a moved module is not found only when a rarely used command runs."""
    files = _module_files()
    names = set(files)
    missing = []
    for path in files.values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _import_statements(tree):
            if isinstance(node, ast.Import):
                missing += [f"{path.relative_to(PKG.parent)}:{node.lineno}: import {a.name}"
                            for a in node.names if a.name.split(".")[0] == "bncbench" and a.name not in names]
                continue
            if node.level or not (node.module or "").startswith("bncbench"):
                continue  # relative imports: resolved by test_no_import_cycle's graph only
            if node.module not in names:
                missing.append(f"{path.relative_to(PKG.parent)}:{node.lineno}: no module {node.module}")
                continue
            mod = importlib.import_module(node.module)
            for a in node.names:
                if f"{node.module}.{a.name}" not in names and not hasattr(mod, a.name):
                    missing.append(f"{path.relative_to(PKG.parent)}:{node.lineno}: {node.module} has no {a.name}")
    assert not missing, "imports that do not resolve:\n  " + "\n  ".join(missing)


# -- the read side's layers (issue 37) --------------------------------------------------------
#: {part: parts it must never import, at any depth, TYPE_CHECKING included}: evaluate/ takes values
#: in and gives values out; the YAML parser builds an experiment without the engine that runs it
NEVER: dict[str, set[str]] = {
    "evaluate": {"results", "engine", "cli", "config"},
    "config": {"engine"},
}


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import of the graph that NEVER forbids."""
    return [f"{a} imports {b}" for a, targets in sorted(graph.items()) for b in sorted(targets)
            if part_of(b) in NEVER.get(part_of(a), set())]


def test_evaluate_and_config_stay_below_what_runs_and_reads():
    graph, _ = import_graph()
    bad = layer_violations(graph)
    assert not bad, "imports across a layer (tests/test_layout.py NEVER):\n  " + "\n  ".join(bad)


def test_layer_check_catches_a_type_checking_import(tmp_path):
    """Negative check: an import under TYPE_CHECKING from evaluate/ into results is reported."""
    src = tmp_path / "mod.py"
    src.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bncbench.results import Results\n")
    graph = {"bncbench.evaluate.mod": {t for t, _ in _imports_of("bncbench.evaluate.mod", src, {"bncbench.results"})},
             "bncbench.config": {"bncbench.engine.baseline"}}
    assert layer_violations(graph) == ["bncbench.config imports bncbench.engine.baseline",
                                       "bncbench.evaluate.mod imports bncbench.results"]


MAX_MODULE_LINES = 600


def test_no_module_over_600_lines():
    """A module past 600 lines does more than one job (docs/architecture.md): split it by concern."""
    long = {str(p.relative_to(PKG.parent)): n for p in _module_files().values()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


# -- public imports -----------------------------------------------------------------------
def test_public_imports():
    from bncbench.classifiers import (
        AODE,
        KDB,
        NB,
        REGISTRY,
        STAN,
        TAN,
        BayesNetClassifier,
    )

    for cls in (NB, TAN, KDB, AODE, STAN):
        assert issubclass(cls, BayesNetClassifier)
        assert REGISTRY[cls.__name__] is cls

    from bncbench import results

    assert callable(results.open)


# -- one folder per concern ---------------------------------------------------------------
def test_every_folder_is_a_documented_package():
    folders = sorted({p.parent for p in PKG.rglob("*.py") if "__pycache__" not in p.parts})
    problems = []
    for folder in folders:
        init = folder / "__init__.py"
        rel = folder.relative_to(PKG.parent)
        if not init.is_file():
            problems.append(f"{rel}/ holds .py files but no __init__.py")
        elif not ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))):
            problems.append(f"{rel}/__init__.py has no docstring (say what belongs in the folder)")
    assert not problems, "\n".join(problems)


def test_only_entry_points_at_top_level():
    extra = sorted(p.name for p in PKG.glob("*.py") if p.name not in TOP_LEVEL_ALLOWED)
    assert not extra, (f"modules at the top level of bncbench/: {', '.join(extra)}; put each into the folder "
                       f"of its concern (data, preprocess, classifiers, evaluate, engine; docs/architecture.md)")


@pytest.mark.parametrize("folder", ["data", "preprocess", "classifiers", "evaluate", "engine", "cli", "utils"])
def test_concern_folders_exist(folder):
    assert (PKG / folder / "__init__.py").is_file()


# -- the direction of imports between folders ---------------------------------------------------
#: Which part of the package may import which (docs/architecture.md, "Dependency direction").
#: A part is a top-level module or folder of bncbench; inside classifiers/ each family folder, the
#: kernels, the base class, the form of what was learned and the estimator API are parts of their
#: own. A module may always import its own part.
FAMILIES = ("nb", "tan", "kdb", "ait", "aode", "ban")
ALLOWED: dict[str, set[str]] = {
    "bncbench": set(),                       # the package __init__: the version only
    "errors": set(),
    "utils": set(),                          # cross-cutting helpers (atomic writes, name hints)
    "data": {"errors", "utils"},
    "preprocess": {"data", "errors", "utils"},
    "classifiers.learned": set(),            # the one form of what a classifier learned (a dataclass)
    "classifiers.kernels": {"classifiers.learned"},  # numpy only: shared by two or more families
    "classifiers.estimator_api": set(),      # scikit-learn's estimator API, scikit-learn imported only when asked
    "classifiers.base": {"classifiers.kernels", "classifiers.learned", "classifiers.estimator_api"},
    **{f"classifiers.{f}": {"classifiers.kernels", "classifiers.base", "classifiers.learned",
                            "classifiers.estimator_api"} for f in FAMILIES},
    "classifiers": {"classifiers.kernels", "classifiers.base", "classifiers.learned",
                    *(f"classifiers.{f}" for f in FAMILIES)},
    "evaluate": {"errors", "utils", "classifiers.learned"},
    "experiment": {"data", "preprocess", "classifiers", "evaluate", "errors", "utils"},
    "engine": {"bncbench", "experiment", "data", "preprocess", "classifiers", "classifiers.base",
               "classifiers.kernels", "evaluate", "errors", "utils"},
    "strict_yaml": {"errors"},               # a config's YAML text, read strictly
    "config": {"experiment", "strict_yaml", "data", "preprocess", "classifiers", "classifiers.base",
               "classifiers.kernels", "evaluate", "errors", "utils"},
    "frames": {"evaluate", "errors", "utils"},  # the tasks and predictions as DataFrames, their export
    "results": {"experiment", "classifiers", "engine", "evaluate", "data", "errors", "utils", "frames"},
    "reporting": {"bncbench", "config", "experiment", "data", "evaluate", "errors", "utils", "results"},
    # a fitted model out of bncbench and back: fitted as the engine fits, saved as data, written as BIF
    "models": {"bncbench", "experiment", "data", "preprocess", "classifiers", "classifiers.base", "classifiers.kernels",
               "engine", "errors", "utils"},
    "cli": {"bncbench", "config", "experiment", "data", "preprocess", "classifiers", "evaluate", "engine", "errors",
            "utils", "results", "reporting", "models"},
    "__main__": {"cli"},
}
for _part in ("experiment", "engine", "config", "results", "cli"):  # who may import the classifiers, their form too
    ALLOWED[_part].add("classifiers.learned")
#: (importer, imported) module pairs that cross the table, each with its reason
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("bncbench.classifiers.kernels.jit", "bncbench.data.sources"):
        "the compiled kernels are kept in the user cache folder, which data/sources.py defines once",
}


def part_of(module: str) -> str:
    """The part of the package a module belongs to (the keys of ALLOWED)."""
    p = module.split(".")
    if len(p) == 1:
        return "bncbench"
    if p[1] != "classifiers" or len(p) == 2:
        return p[1]
    return f"classifiers.{p[2]}" if p[2] in (*FAMILIES, "kernels", "base", "learned", "estimator_api") \
        else "classifiers"


def direction_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import of the graph that the table and its exceptions do not allow."""
    bad = []
    for a, targets in sorted(graph.items()):
        for b in sorted(targets):
            pa, pb = part_of(a), part_of(b)
            if pa != pb and pb not in ALLOWED.get(pa, set()) and (a, b) not in EXCEPTIONS:
                bad.append(f"{a} ({pa}) imports {b} ({pb})")
    return bad


def test_imports_follow_the_direction_table():
    graph, _ = import_graph()
    files = _module_files()
    bad = direction_violations(graph)
    assert not bad, ("imports against the direction table of tests/test_layout.py (ALLOWED; an exception "
                     "goes into EXCEPTIONS with its reason):\n  " + "\n  ".join(bad))
    assert all(part_of(m) in ALLOWED for m in files), sorted({part_of(m) for m in files} - set(ALLOWED))
    stale = [pair for pair in EXCEPTIONS if pair[1] not in graph.get(pair[0], set())]
    assert not stale, f"exceptions no module needs any more: {stale}"


def test_direction_table_catches_a_wrong_import():
    """Negative check: a kernel that imports a family, a family that imports another family and an
    evaluate module that reads the store are reported."""
    graph = {"bncbench.classifiers.kernels.counts": {"bncbench.classifiers.tan.tan"},
             "bncbench.classifiers.kdb.kdb": {"bncbench.classifiers.aode.spode", "bncbench.classifiers.kernels.counts"},
             "bncbench.evaluate.wdl": {"bncbench.engine.store"},
             }
    bad = direction_violations(graph)
    assert len(bad) == 3, bad


def test_no_import_of_another_modules_private_names():
    """`from bncbench.x import _name` across modules couples a module to another's internals
    (results.py once imported metrics._aggregate): make the name public instead."""
    found = []
    for path in _module_files().values():
        for node in _import_statements(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bncbench"):
                found += [f"{path.relative_to(PKG.parent)}:{node.lineno}: {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, "private names imported from another module:\n  " + "\n  ".join(found)


def test_utils_import_no_other_bncbench_module():
    """bncbench/utils/ holds helpers any module may import, so it imports none of them."""
    graph, lines = import_graph()
    found = [f"{m} imports {t} (line {lines[(m, t)]})" for m in graph if m.startswith("bncbench.utils")
             for t in graph[m] if not t.startswith("bncbench.utils")]
    assert not found, "\n".join(found)


# -- third-party imports are declared dependencies -------------------------------------------------
#: import name → distribution name where they differ
DISTRIBUTIONS = {"sklearn": "scikit-learn", "yaml": "pyyaml", "distributed": "dask"}


def third_party_imports() -> dict[str, str]:
    """{top-level import name: first file:line} of every non-stdlib, non-bncbench import under bncbench/."""
    import sys

    found: dict[str, str] = {}
    for path in _module_files().values():
        for node in _import_statements(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                if top and top != "bncbench" and top not in sys.stdlib_module_names:
                    found.setdefault(top, f"{path.relative_to(PKG.parent)}:{node.lineno}")
    return found


def declared_dependencies() -> set[str]:
    """The distribution names of pyproject.toml's [project] dependencies (extras and versions dropped)."""
    import re

    import tomllib

    project = tomllib.loads((PKG.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {re.split(r"[\[<>=!~; ]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}


def test_third_party_imports_are_declared_dependencies():
    """Every third-party module bncbench/ imports (at any depth) is in [project] dependencies, not
    only in an extra (scipy once was only in `test`)."""
    declared = declared_dependencies()
    missing = {name: where for name, where in third_party_imports().items()
               if DISTRIBUTIONS.get(name, name).lower() not in declared}
    assert not missing, f"imported but not in pyproject's [project] dependencies: {missing}"
    assert {"numpy", "scipy", "sklearn", "yaml"} <= set(third_party_imports())  # the scan is not vacuous


def test_no_lazy_loader_shim_or_test_only_product_code():
    """Issue 26: no module-level `__getattr__` lazy loader in bncbench/ but the classifiers and
    preprocess packages' (import time: neither may load scikit-learn when imported,
    docs/architecture.md), the import-path shims classifiers/estimators.py and tables.py stay
    gone, and so do the test-only `KDepCounts`, `LooEngine.loss_of`
    and the preprocess core/transformers split."""
    found = []
    for m, path in _module_files().items():
        if m in ("bncbench.classifiers", "bncbench.preprocess"):  # the lazy packages: importing them must
            continue                                                # not import scikit-learn
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{m}: module-level {node.name}" for node in tree.body
                  if isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__")]
    assert not found, found
    gone = ["classifiers/estimators.py", "classifiers/tables.py", "preprocess/core.py", "preprocess/transformers.py"]
    assert not [p for p in gone if (PKG / p).exists()]
    from bncbench.classifiers.aode.loo_engine import LooEngine
    from bncbench.classifiers.kernels import counts

    assert not hasattr(counts, "KDepCounts") and not hasattr(LooEngine, "loss_of")


def test_numba_is_imported_only_where_the_ban_family_fits():
    """Issue 28: numba (the compiled kernels of BAN, BAN-MDL and k-BAN) is loaded by a fit of the
    BAN family alone: not by `import bncbench`, the registry, the CLI, a run's plan (its code
    fingerprints) or another classifier."""
    for fit in ("BAN(method='tpda')", "BAN(method='hc')", "KBAN(k=2)"):
        code = ("import sys, numpy as np, bncbench, bncbench.cli, bncbench.engine.runner, bncbench.results\n"
                "from bncbench.classifiers import BAN, KBAN, NB, TAN\n"
                "from bncbench.engine.fingerprint import code_fingerprint\n"
                "code_fingerprint(BAN), code_fingerprint(KBAN)\n"
                "X, y = np.arange(60).reshape(20, 3) % 3, np.arange(20) % 2\n"
                "NB().fit(X, y), TAN().fit(X, y)\n"
                "assert 'numba' not in sys.modules, 'numba imported'\n"
                f"{fit}.fit(X, y)\n"
                "assert 'numba' in sys.modules\n")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert r.returncode == 0, (fit, r.stderr)


# -- the registry: a classifier is registered once ----------------------------------------
def _unregistered_classifiers(modules, registry: Mapping) -> list[str]:
    """`module.Class` of every public BayesNetClassifier subclass defined in `modules` that is not
    `registry[Class]`."""
    from bncbench.classifiers.base import BayesNetClassifier

    found = []
    for mod in modules:
        for name, obj in vars(mod).items():
            if (isinstance(obj, type) and issubclass(obj, BayesNetClassifier) and obj is not BayesNetClassifier
                    and obj.__module__ == mod.__name__ and not name.startswith("_") and registry.get(name) is not obj):
                found.append(f"{mod.__name__}.{name}")
    return found


def test_every_classifier_is_registered_and_registry_names_resolve():
    """Every public BayesNetClassifier subclass under bncbench/classifiers is in REGISTRY under its
    class name; REGISTRY's names are what `bncbench.classifiers` exports (`__all__`)."""
    import pkgutil

    from bncbench import classifiers
    from bncbench.classifiers.base import BayesNetClassifier

    modules = [importlib.import_module(m.name)
               for m in pkgutil.walk_packages(classifiers.__path__, "bncbench.classifiers.")]
    assert len(modules) > 20
    assert _unregistered_classifiers(modules, classifiers.REGISTRY) == []
    for name, cls in classifiers.REGISTRY.items():
        assert issubclass(cls, BayesNetClassifier) and cls.__name__ == name, name
        assert getattr(classifiers, name) is cls and name in classifiers.__all__, name
    missing = [name for name in classifiers.__all__ if not hasattr(classifiers, name)]
    assert missing == [], missing


def test_registry_check_finds_an_unregistered_classifier():
    import types

    from bncbench.classifiers import NB, REGISTRY

    mod = types.ModuleType("plugin_like")
    Extra = type("Extra", (NB,), {"__module__": "plugin_like"})
    vars(mod).update(Extra=Extra, NB=NB, _Private=type("_Private", (NB,), {"__module__": "plugin_like"}))
    assert _unregistered_classifiers([mod], REGISTRY) == ["plugin_like.Extra"]
    assert _unregistered_classifiers([mod], {**REGISTRY, "Extra": Extra}) == []


def test_every_data_file_of_the_package_is_package_data():
    """Each file under bncbench/ that is not Python (templates, CSS, JS, the catalog) matches a glob
    of pyproject's [tool.setuptools.package-data], so an installed bncbench has it."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    with open(PKG.parent / "pyproject.toml", "rb") as f:
        globs = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    shipped = {p for pkg, patterns in globs.items() for pattern in patterns
               for p in (PKG.parent / pkg.replace(".", "/")).glob(pattern)}
    data = [p for p in PKG.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"]
    missing = [str(p.relative_to(PKG.parent)) for p in data if p not in shipped]
    assert data and not missing, f"not in pyproject's package-data: {', '.join(missing)}"


# -- the command-line modules ---------------------------------------------------------------
#: the command table, which imports every command module to register it
CLI_TABLE = {"bncbench.cli", "bncbench.cli.app"}


def cli_cross_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports of one cli/ command module by another (what commands share lives in cli/common.py,
    logic in the library)."""
    return [f"{a} imports {b}" for a, targets in sorted(graph.items()) if a.startswith("bncbench.cli.")
            and a not in CLI_TABLE for b in sorted(targets)
            if b.startswith("bncbench.cli") and b not in ("bncbench.cli.common", a)]


def test_cli_modules_import_no_other_cli_module_but_common():
    graph, _ = import_graph()
    bad = cli_cross_imports(graph)
    assert not bad, "cli/ modules importing another cli/ module (share through cli/common.py):\n  " + "\n  ".join(bad)


def test_cli_rule_catches_a_command_module_importing_another():
    graph = {"bncbench.cli.report": {"bncbench.cli.comparisons", "bncbench.cli.common", "bncbench.results"},
             "bncbench.cli.app": {"bncbench.cli.report"}, "bncbench.cli.figures": {"bncbench.cli"}}
    assert cli_cross_imports(graph) == ["bncbench.cli.figures imports bncbench.cli",
                                        "bncbench.cli.report imports bncbench.cli.comparisons"]


#: the readers of a results store take the config's settings from its stored sections
#: (results.Results.experiment), never from the YAML text
STORE_READERS = ("bncbench.results", "bncbench.cli.report", "bncbench.cli.comparisons", "bncbench.cli.figures",
                 "bncbench.cli.common", "bncbench.reporting.figures", "bncbench.reporting.page",
                 "bncbench.reporting.analyses", "bncbench.reporting.wdl")


def test_store_readers_do_not_parse_yaml():
    files = _module_files()
    found = [m for m in STORE_READERS
             if any(isinstance(n, (ast.Import, ast.ImportFrom)) and "yaml" in
                    ([a.name for a in n.names] if isinstance(n, ast.Import) else [n.module or ""])
                    for n in ast.walk(ast.parse(files[m].read_text(encoding="utf-8"))))]
    assert not found, f"store readers importing yaml (read Results.experiment instead): {found}"
