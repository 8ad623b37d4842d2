"""Code fingerprints: which source code computes a task's stored result (docs/architecture.md)."""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import importlib.util
import inspect
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bncbench.errors import UserError
from bncbench.utils.files import atomic_write

PIPELINE_MODULES = ("bncbench.engine.units", "bncbench.engine.codec")


def _module_source(name: str) -> tuple[str, Path]:
    """(source text, path) of an importable module, found without importing it (a fingerprint must
    not load what only a fit needs, such as numba); UserError when it has no readable source."""
    mod = sys.modules.get(name)
    try:
        if mod is not None:
            path = Path(inspect.getsourcefile(mod) or "")
        else:
            spec = importlib.util.find_spec(name)
            path = Path(spec.origin if spec is not None and spec.origin and spec.origin.endswith(".py") else "")
        return path.read_text(encoding="utf-8"), path
    except (TypeError, OSError, ImportError):
        raise UserError(f"cannot fingerprint module {name!r}: its source file cannot be read; define classifiers "
                        f"in a .py module so that their results can be tied to their code") from None


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _raw_imports(tree: ast.AST) -> list[list]:
    """[level, module, [names] or None] of every import of the tree (not under TYPE_CHECKING)."""
    found: list[list] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.orelse:
                visit(stmt)
            return
        if isinstance(node, ast.Import):
            found.extend([0, a.name, None] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append([node.level, node.module or "", [a.name for a in node.names]])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _imports(raw: list[list], module: str, is_package: bool) -> set[str]:
    """The bncbench modules a module imports (names resolved to their defining modules)."""
    found: set[str] = set()
    for level, base, names in raw:
        if names is None:
            if base.split(".")[0] == "bncbench":
                found.add(base)
            continue
        if level:  # relative import
            parts = module.split(".")
            anchor = parts if is_package else parts[:-1]
            anchor = anchor[: len(anchor) - (level - 1)]
            base = ".".join(anchor + ([base] if base else []))
        if base.split(".")[0] == "bncbench":
            found.update(_resolve_name(base, n) for n in names)
    return found


def _top_level_names(tree: ast.Module) -> list[str]:
    """The names a module binds at its top level by a def, a class or an assignment."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        names.extend(t.id for t in targets if isinstance(t, ast.Name))
    return sorted(set(names))


def _defines(module: str, name: str) -> bool:
    """Whether `module`'s source binds `name` at its top level by a def, a class or an assignment
    (read, not imported)."""
    try:
        return name in _parsed(*_module_source(module))[2]
    except (UserError, SyntaxError):
        return False


def _resolve_name(package: str, name: str) -> str:
    """The module that `from package import name` really depends on, found without importing a
    module that defines `name` itself (a fingerprint must not load what only a fit needs, such as
    numba)."""
    sub = f"{package}.{name}"
    try:
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations is None:  # a module, not a package
            if _defines(package, name):
                return package
        elif importlib.util.find_spec(sub) is not None:
            return sub
    except (ImportError, ValueError):
        pass
    try:
        obj = getattr(importlib.import_module(package), name, None)
    except ImportError:
        return package
    defining = getattr(obj, "__module__", None) if (inspect.isclass(obj) or inspect.isfunction(obj)) else None
    return defining if defining and defining.split(".")[0] == "bncbench" else package


# source sha256 -> [code hash, raw imports, top-level names], kept in the download cache
_DIGESTS: dict | None = None
_DIGESTS_NEW = False


def _digests() -> dict:
    global _DIGESTS
    if _DIGESTS is None:
        try:
            _DIGESTS = json.loads(_digest_file().read_text())
        except (OSError, ValueError):
            _DIGESTS = {}
    return _DIGESTS


def _digest_file() -> Path:
    from bncbench.data.sources import cache_dir

    # -v2: entries with the top-level names (the earlier file, two-field entries, stays its code's)
    return cache_dir() / f"code-digests-py{sys.version_info[0]}{sys.version_info[1]}-v2.json"


def _save_digests() -> None:
    """Keep the parsed digests for the next process (parsing costs ~3 ms a module); best effort."""
    global _DIGESTS_NEW
    if not _DIGESTS_NEW:
        return
    _DIGESTS_NEW = False
    try:
        with atomic_write(_digest_file(), "w") as f:
            json.dump(_digests(), f)
    except OSError:
        pass


def _parsed(text: str, path: Path) -> list:
    """[code hash, raw imports, top-level names] of a module's source text, looked up by the text's
    sha256 (parsing costs ~3 ms a module)."""
    global _DIGESTS_NEW
    key = hashlib.sha256(text.encode()).hexdigest()
    cached = _digests().get(key)
    if cached is None or len(cached) != 3:
        tree = ast.parse(text, filename=str(path))
        names = _top_level_names(tree)
        cached = [hashlib.sha256(ast.unparse(_strip_docstrings(tree)).encode()).hexdigest(), _raw_imports(tree), names]
        _digests()[key] = cached
        _DIGESTS_NEW = True
    return cached


@functools.cache
def _module_digest(name: str) -> tuple[str, frozenset[str]]:
    """(hash of the module's code, the bncbench modules it imports). The parse of a source text
    is looked up by the text's sha256; names are resolved to modules afresh every time."""
    text, path = _module_source(name)
    digest, raw = _parsed(text, path)[:2]
    return digest, frozenset(_imports(raw, name, path.name == "__init__.py"))


def closure(roots: list[str], recorded: Mapping[str, Sequence] | None = None) -> dict[str, str]:
    """{module: code hash} for the import closure of `roots` (only bncbench modules are followed).
    With `recorded` ({module: [code hash, imports, ...]}, a code lineage: engine/lineage.py), each
    bncbench module takes its recorded entry (KeyError for one it lacks), any other its digest."""
    out: dict[str, str] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in out:
            continue
        if recorded is not None and name.split(".")[0] == "bncbench":
            digest, deps = recorded[name][0], recorded[name][1]
        else:
            digest, deps = _module_digest(name)
        out[name] = digest
        todo.extend(d for d in deps if d not in out)
    return out


def combined(cls: type, modules: dict[str, str]) -> str:
    """The code fingerprint of classifier class `cls` from the code hashes of its `closure`."""
    text = "\n".join(f"{m} {h}" for m, h in sorted(modules.items()))
    return hashlib.sha256(f"{cls.__module__}.{cls.__qualname__}\n{text}".encode()).hexdigest()


@functools.cache
def code_fingerprint(cls: type) -> str:
    """Hash of the code that computes a task of classifier class `cls` (see the module docstring)."""
    modules = closure([cls.__module__, *PIPELINE_MODULES])
    _save_digests()
    return combined(cls, modules)


@functools.cache
def distribution_version(module: str) -> str:
    """The installed code of a module outside bncbench: its distribution's name and version
    ("scikit-learn 1.9.1"), or, for a module of no installed distribution, the hash of its source."""
    from importlib import metadata

    names = sorted(_distributions().get(module.split(".", maxsplit=1)[0], []))
    if names:
        return f"{names[0]} {metadata.version(names[0])}"
    return f"{module} {_module_digest(module)[0]}"


@functools.cache
def _distributions() -> dict[str, list[str]]:
    """{top-level import name: the distributions that install it} (read once: ~0.2 s)."""
    from importlib import metadata

    return dict(metadata.packages_distributions())
