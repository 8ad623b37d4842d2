"""Code lineage: stored tasks of the code before a pure refactor, carried over (docs/architecture.md: Code lineage)."""

from __future__ import annotations

import functools
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from bncbench.engine.fingerprint import PIPELINE_MODULES, closure, combined

# the record, written by `python -m bncbench.engine.lineage record REV` (make lineage REV=...): every bncbench
# module of commit REV ("previous") and of this checkout ("current") as [code hash, bncbench imports, sha256 of
# the source], each side computed by its own tree's engine/fingerprint.py
RECORD = Path(__file__).with_name("lineage.json")

# run by a tree's own Python code (PYTHONPATH = the tree): its modules as its fingerprint.py digests them
_DUMP = """\
import hashlib, json, sys
from pathlib import Path
from bncbench.engine import fingerprint
root = Path(sys.argv[1]).resolve()
if root not in Path(fingerprint.__file__).resolve().parents:
    sys.exit(f"bncbench was imported from {fingerprint.__file__}, not from {root}")
modules = {}
for path in sorted(root.glob("bncbench/**/*.py")):
    parts = path.relative_to(root).with_suffix("").parts
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    digest, deps = fingerprint._module_digest(name)
    modules[name] = [digest, sorted(deps), hashlib.sha256(path.read_text(encoding="utf-8").encode()).hexdigest()]
json.dump({"roots": list(fingerprint.PIPELINE_MODULES), "modules": modules}, sys.stdout)
"""


@functools.cache
def record() -> dict:
    """The shipped lineage record (lineage.json)."""
    return json.loads(RECORD.read_text(encoding="utf-8"))


def lineage_name() -> str:
    """The code the record's previous side describes, as `run` names it."""
    return f"bncbench at commit {record()['commit'][:7]}"


@functools.cache
def legacy_fingerprint(cls: type) -> str | None:
    """The code fingerprint classifier class `cls` had at the record's commit, or None: when this
    code is not the code the record was made for (an edit since: its results may differ), or the
    record lacks a module of either closure (a class or module moved since)."""
    lineage = record()
    roots = [cls.__module__, *PIPELINE_MODULES]
    try:
        if closure(roots, lineage["current"]) != closure(roots):
            return None
        return combined(cls, closure([cls.__module__, *lineage["roots"]], lineage["previous"]))
    except KeyError:
        return None


def _dump(root: Path) -> dict:
    """{"roots": the pipeline modules, "modules": {module: [code hash, imports, source sha256]}} of
    the bncbench tree under `root`, computed by that tree's own code in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", _DUMP, str(root)], cwd=root, env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def make_record(rev: str) -> dict:
    """The lineage record of commit `rev` (its sources from `git archive`) to this checkout's code."""
    root = Path(__file__).resolve().parents[2]
    git = ["git", "-C", str(root)]
    commit = subprocess.run([*git, "rev-parse", "--verify", f"{rev}^{{commit}}"], check=True, capture_output=True,
                            text=True).stdout.strip()
    archive = subprocess.run([*git, "archive", commit, "bncbench"], check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        previous = _dump(Path(tmp))
    return {"commit": commit, "made_by": f"python -m bncbench.engine.lineage record {rev}",
            "roots": previous["roots"], "previous": previous["modules"], "current": _dump(root)["modules"]}


def main(argv: list[str]) -> None:
    """`record REV`: write lineage.json for commit REV and this checkout."""
    if len(argv) != 2 or argv[0] != "record":
        sys.exit("usage: python -m bncbench.engine.lineage record REV")
    made = make_record(argv[1])
    RECORD.write_text(json.dumps(made, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{RECORD}: {len(made['previous'])} modules of {made['commit'][:12]}, {len(made['current'])} of this code")


if __name__ == "__main__":
    main(sys.argv[1:])
