"""The mutation check (tools/mutants.py, docs/testing.md: Mutation check): the shipped list is not
stale, and on a tiny synthetic repository the script reports a caught and an uncaught mutant,
refuses a stale list, and leaves the working tree as it was."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "mutants.py"

_spec = importlib.util.spec_from_file_location("bncbench_tools_mutants", SCRIPT)
assert _spec is not None and _spec.loader is not None
mutants = sys.modules.setdefault("bncbench_tools_mutants", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(mutants)

CODE = "def add(a, b):\n    return a + b\n\n\ndef double(x):\n    return x * 2\n"
TEST = "from bncbench.m import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
LIST = """mutants:
  - id: add-minus
    file: bncbench/m.py
    original: "return a + b"
    replacement: "return a - b"
    stands_for: "addition (tests/test_m.py)"
    tests: [tests/test_m.py]
  - id: double-triple
    file: bncbench/m.py
    original: "return x * 2"
    replacement: "return x * 3"
    stands_for: "doubling (no test)"
"""


def test_shipped_list_is_not_stale():
    """Every original text occurs exactly once in its file: a change of the code under a mutant
    must update tools/mutants.yaml."""
    listed = mutants.load(mutants.LIST)
    assert mutants.stale(listed, ROOT) == []
    assert len({m.id for m in listed}) == len(listed) >= 10


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for rel, text in {"bncbench/__init__.py": "", "bncbench/m.py": CODE, "tests/test_m.py": TEST,
                      "mutants.yaml": LIST}.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    return repo


def _run(repo: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"))
    return subprocess.run([sys.executable, str(SCRIPT), "--root", str(repo), "--list", str(repo / "mutants.yaml"),
                           *args], capture_output=True, text=True, env=env, timeout=300)


def test_caught_and_uncaught_on_a_copy(tmp_path):
    repo = _repo(tmp_path)
    r = _run(repo, tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    rows = {ln.split("|")[1].strip(): [c.strip() for c in ln.split("|")[2:5]] for ln in r.stdout.splitlines()
            if ln.startswith("| ") and not ln.startswith("| mutation")}
    assert rows["add-minus"][:2] == ["yes", "tests/test_m.py::test_add"]
    assert rows["double-triple"][:2] == ["no", "—"]
    assert float(rows["add-minus"][2]) >= 0
    assert "caught 1 of 2" in r.stdout and "not caught: double-triple — doubling (no test)" in r.stdout
    assert (repo / "bncbench" / "m.py").read_text() == CODE  # the working tree is untouched
    assert list((tmp_path / "tmp").iterdir()) == []  # the copies are gone
    r = _run(repo, tmp_path, "--only", "add-minus")
    assert r.returncode == 0 and "caught 1 of 1" in r.stdout, r.stdout + r.stderr


def test_a_test_failing_without_the_mutation_catches_nothing(tmp_path):
    repo = _repo(tmp_path)
    (repo / "tests" / "test_m.py").write_text(TEST + "\n\ndef test_broken():\n    assert False\n")
    r = _run(repo, tmp_path, "--only", "double-triple")
    assert r.returncode == 1 and "tests/test_m.py::test_broken fails without the mutation too" in r.stdout, r.stdout


def test_stale_list_is_refused(tmp_path):
    repo = _repo(tmp_path)
    (repo / "bncbench" / "m.py").write_text(CODE.replace("a + b", "b + a") + "\n\ndef more(x):\n    return x * 2\n")
    r = _run(repo, tmp_path)
    assert r.returncode == 2 and "is stale" in r.stderr, r.stderr
    assert "add-minus: the original text occurs 0 times in bncbench/m.py" in r.stderr
    assert "double-triple: the original text occurs 2 times in bncbench/m.py" in r.stderr
    assert list((tmp_path / "tmp").iterdir()) == []  # nothing ran


def test_list_entries_with_several_edits_and_bad_entries(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text("mutants:\n  - id: both\n    stands_for: x\n    edits:\n"
                    "      - {file: a.py, original: '1', replacement: '2'}\n"
                    "      - {file: b.py, original: '3', replacement: '4'}\n")
    (m,) = mutants.load(path)
    assert [(e.file, e.original, e.replacement) for e in m.edits] == [("a.py", "1", "2"), ("b.py", "3", "4")]
    (tmp_path / "a.py").write_text("1\n")
    (tmp_path / "b.py").write_text("3 3\n")
    assert mutants.stale([m], tmp_path) == ["both: the original text occurs 2 times in b.py (must be once): '3'"]
    for bad, word in (("{id: a, stands_for: x, file: a.py, original: '1'}", "replacement"),
                      ("{id: a, stands_for: x, file: a.py, original: '1', replacement: '1'}", "equals"),
                      ("{id: a, stands_for: x, file: a.py, original: '1', replacement: '2', edits: []}", "edits"),
                      ("{id: a, stands_for: x, file: a.py, original: '1', replacement: '2', test: [t]}", "unknown"),
                      ("{id: a, file: a.py, original: '1', replacement: '2'}", "stands_for")):
        path.write_text(f"mutants:\n  - {bad}\n")
        with pytest.raises(mutants.ListError, match=word):
            mutants.load(path)


def test_first_failure_of_pytest_output():
    out = "..F\n=== short test summary info ===\nFAILED tests/a.py::test_x[1-2] - AssertionError: no - 3\n" \
          "FAILED tests/b.py::test_y\n"
    assert mutants.first_failure(out) == "tests/a.py::test_x[1-2]"
    assert mutants.first_failure("ERROR tests/c.py - SyntaxError: bad\n") == "tests/c.py (collection error)"
    assert mutants.first_failure("1 passed\n") == ""
