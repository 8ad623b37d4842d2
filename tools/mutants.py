#!/usr/bin/env python3
"""The mutation check (`make mutants`; docs/testing.md: Mutation check).

Applies each deliberate bug of a list (tools/mutants.yaml: file, exact original text, its
replacement, what it stands for; or several such edits applied together) to a temporary copy of
the repository — never the working tree —
and runs the fast suite there without the mirror: BNCBENCH_MIRROR unset, an empty download cache,
no ../shared beside the copy, tests marked slow or mirror left out, `-x -q -p no:cacheprovider`.
A mutant's own test area (its `tests`) runs first, then the rest of the fast suite, so a mutant
counts as caught by any fast test (but tests/test_mutants.py's check of the list itself, which
any mutant would fail). The first failing test is re-run on an unmutated copy: a test that fails
there too catches nothing.

Prints one row per mutant (caught yes/no, the first failing test, seconds) and caught/total. Exit
status: 0 every mutant caught, 1 some not caught, 2 the list is stale or invalid (an original text
not found exactly once in its file) or the copy is unusable.

  python tools/mutants.py                      # every mutant of tools/mutants.yaml
  python tools/mutants.py --only mdl-log2-n    # one (repeatable)
  python tools/mutants.py --area-only          # each mutant's own test area only (quicker, weaker)
  python tools/mutants.py --check              # only check that the list is not stale
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "tools" / "mutants.yaml"
FAST = "not slow and not mirror"
REQUIRED = ("id", "stands_for")
EDIT = ("file", "original", "replacement")
OPTIONAL = ("tests", "edits", *EDIT)
# the list's own check: any mutant makes its original text vanish, so it is not run on a mutant
SELF_TESTS = ("tests/test_mutants.py::test_shipped_list_is_not_stale",)
# never copied when the repository is not a git checkout
SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", "results", "build", "cache"}


class ListError(Exception):
    """The mutation list is malformed or stale."""


@dataclass(frozen=True)
class Edit:
    file: str
    original: str
    replacement: str


@dataclass(frozen=True)
class Mutant:
    id: str
    edits: tuple[Edit, ...]
    stands_for: str
    tests: tuple[str, ...] = ()


@dataclass
class Outcome:
    mutant: Mutant
    caught: bool
    by: str  # first failing test, "" when none
    seconds: float
    note: str = ""


def _edit(e: dict, where: str) -> Edit:
    bad = [k for k in EDIT if not isinstance(e.get(k), str) or not e[k]]
    unknown = sorted(set(e) - set(EDIT))
    if bad or unknown:
        raise ListError(f"{where}: an edit needs non-empty {list(EDIT)} (missing or empty {bad}, unknown {unknown})")
    if e["original"] == e["replacement"]:
        raise ListError(f"{where}: the replacement equals the original")
    return Edit(e["file"], e["original"], e["replacement"])


def load(path: Path) -> list[Mutant]:
    """The mutants of a list file; ListError on a malformed entry or a repeated id. An entry has
    either file/original/replacement or `edits`, a list of them applied together."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    entries = data.get("mutants") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ListError(f"{path}: expected a non-empty list under `mutants:`")
    out, seen = [], set()
    for i, e in enumerate(entries):
        where = f"{path}: entry {i + 1}"
        if not isinstance(e, dict):
            raise ListError(f"{where}: not a mapping")
        missing = [k for k in REQUIRED if not isinstance(e.get(k), str) or not e[k]]
        unknown = sorted(set(e) - set(REQUIRED) - set(OPTIONAL))
        if missing or unknown:
            raise ListError(f"{where} ({e.get('id', '?')}): missing or empty {missing}, unknown {unknown}")
        where = f"{where} ({e['id']})"
        if "edits" in e:
            if any(k in e for k in EDIT) or not isinstance(e["edits"], list) or not e["edits"] \
                    or not all(isinstance(x, dict) for x in e["edits"]):
                raise ListError(f"{where}: `edits` must be a non-empty list of file/original/replacement, "
                                "and then no file/original/replacement beside it")
            edits = tuple(_edit(x, f"{where}, edit {j + 1}") for j, x in enumerate(e["edits"]))
        else:
            edits = (_edit({k: e[k] for k in EDIT if k in e}, where),)
        tests = e.get("tests", [])
        if not isinstance(tests, list) or not all(isinstance(t, str) and t for t in tests):
            raise ListError(f"{where}: `tests` must be a list of test paths")
        if e["id"] in seen:
            raise ListError(f"{where}: id {e['id']} repeated")
        seen.add(e["id"])
        out.append(Mutant(e["id"], edits, e["stands_for"], tuple(tests)))
    return out


def stale(mutants: list[Mutant], root: Path) -> list[str]:
    """One line per mutant whose original text is not found exactly once in its file (or whose
    file or test paths are gone)."""
    problems = []
    for m in mutants:
        for e in m.edits:
            path = root / e.file
            if not path.is_file():
                problems.append(f"{m.id}: {e.file} does not exist")
                continue
            n = path.read_text(encoding="utf-8").count(e.original)
            if n != 1:
                problems.append(f"{m.id}: the original text occurs {n} times in {e.file} (must be once): {e.original!r}")
        for t in m.tests:
            if not (root / t.split("::")[0]).exists():
                problems.append(f"{m.id}: test path {t} does not exist")
    return problems


def repo_files(root: Path) -> list[str]:
    """The repository's files: tracked and untracked-but-not-ignored (a git checkout), else
    every file outside SKIP_DIRS."""
    r = subprocess.run(["git", "ls-files", "-z", "-c", "-o", "--exclude-standard"], cwd=root,
                       capture_output=True, text=True)
    if r.returncode == 0 and r.stdout:
        return sorted({f for f in r.stdout.split("\0") if f and (root / f).is_file()})
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        out += [str((Path(dirpath) / f).relative_to(root)) for f in filenames if not f.endswith(".pyc")]
    return sorted(out)


def make_copy(root: Path, files: list[str], base: Path, name: str) -> Path:
    """A copy of the repository at base/name/repo; base/name holds nothing else, so the copy's
    ../shared does not exist."""
    dest = base / name / "repo"
    for f in files:
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / f, target)
    assert not (dest.parent / "shared").exists()
    return dest


def environment(copy: Path) -> dict:
    """The environment of a run in `copy`: no mirror, no ARFF URL, no require flags, an empty
    download cache beside the copy, and the copy's package ahead of any installed one."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BNCBENCH_") and k not in ("PYTEST_ADDOPTS", "PYTHONPATH")}
    env.update(BNCBENCH_CACHE=str(copy.parent / "cache"), PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    return env


def first_failure(output: str) -> str:
    """The first FAILED/ERROR node of pytest's short summary ("" if none)."""
    for line in output.splitlines():
        for word in ("FAILED ", "ERROR "):
            if line.startswith(word):
                node = line[len(word):].split(" - ", 1)[0].strip()
                return node + (" (collection error)" if word == "ERROR " and "::" not in node else "")
    return ""


def pytest(python: str, copy: Path, args: list[str], timeout: float) -> tuple[int | None, str]:
    cmd = [python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-rfE", "-m", FAST, *args]
    try:
        r = subprocess.run(cmd, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, ""
    return r.returncode, r.stdout + r.stderr


def run_mutant(m: Mutant, root: Path, files: list[str], base: Path, python: str, area_only: bool,
               timeout: float) -> Outcome:
    start = time.monotonic()
    copy = make_copy(root, files, base, m.id)
    for e in m.edits:
        path = copy / e.file
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(e.original, e.replacement, 1), encoding="utf-8")
    phases = []
    if m.tests:
        phases.append(list(m.tests))
    if not (area_only and m.tests):
        rest = ["tests"] + [f"--ignore={t}" for t in m.tests if "::" not in t] + \
               [f"--deselect={t}" for t in m.tests if "::" in t]
        phases.append(rest)
    outcome = Outcome(m, False, "", 0.0)
    for args in phases:
        args = args + [f"--deselect={t}" for t in SELF_TESTS]
        code, out = pytest(python, copy, args, timeout - (time.monotonic() - start))
        if code is None:
            outcome = Outcome(m, True, "(timeout)", 0.0, f"no result within {timeout:.0f} s")
            break
        if code in (0, 5):  # passed / nothing selected
            continue
        by = first_failure(out)
        if code in (1, 2) and by:
            outcome = Outcome(m, True, by, 0.0)
            break
        outcome = Outcome(m, False, "", 0.0, f"pytest exit {code}: {out.strip().splitlines()[-1:] or ''}")
        break
    outcome.seconds = time.monotonic() - start
    return outcome


def verify(outcomes: list[Outcome], root: Path, files: list[str], base: Path, python: str, timeout: float) -> None:
    """Re-run each catching test on an unmutated copy; one that fails there catches nothing."""
    nodes = sorted({o.by for o in outcomes if o.caught and not o.by.startswith("(")})
    if not nodes:
        return
    copy = make_copy(root, files, base, "unmutated")
    args = [n.removesuffix(" (collection error)") for n in nodes]
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE", *args]
    r = subprocess.run(cmd, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=timeout)
    failing = set()
    for line in (r.stdout + r.stderr).splitlines():
        for word in ("FAILED ", "ERROR "):
            if line.startswith(word):
                failing.add(line[len(word):].split(" - ", 1)[0].strip())
    for o in outcomes:
        if o.caught and o.by.removesuffix(" (collection error)") in failing:
            o.caught, o.note = False, f"{o.by} fails without the mutation too"


def check_copy(root: Path, files: list[str], base: Path, python: str) -> str:
    """'' if a run in a copy imports the copy's bncbench, else what it imported."""
    copy = make_copy(root, files, base, "import-check")
    r = subprocess.run([python, "-c", "import bncbench; print(bncbench.__file__)"], cwd=copy,
                       env=environment(copy), capture_output=True, text=True)
    got = r.stdout.strip()
    if r.returncode != 0 or not Path(got).resolve().is_relative_to(copy.resolve()):
        return got or r.stderr.strip()
    return ""


def table(outcomes: list[Outcome]) -> str:
    rows = [("mutation", "caught", "by (first failure)", "seconds")]
    rows += [(o.mutant.id, "yes" if o.caught else "no", (o.by if o.caught else o.note) or "—",
              f"{o.seconds:.0f}") for o in outcomes]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    caught = sum(o.caught for o in outcomes)
    lines.append(f"caught {caught} of {len(outcomes)} (fast suite without the mirror: -m '{FAST}')")
    for o in outcomes:
        if not o.caught:
            lines.append(f"not caught: {o.mutant.id} — {o.mutant.stands_for}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", type=Path, default=LIST, help="the mutation list (default tools/mutants.yaml)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the repository (default this one)")
    ap.add_argument("--only", action="append", default=[], metavar="ID", help="run this mutant only (repeatable)")
    ap.add_argument("--area-only", action="store_true", help="run only each mutant's own test area")
    ap.add_argument("--check", action="store_true", help="only check the list (exit 2 if stale)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1: comparable seconds)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per mutant (default 1800)")
    ap.add_argument("--python", default=sys.executable, help="interpreter with bncbench's dependencies")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies (their folder is printed)")
    a = ap.parse_args(argv)
    root = a.root.resolve()
    try:
        mutants = load(a.list)
    except (ListError, OSError, yaml.YAMLError) as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    unknown = sorted(set(a.only) - {m.id for m in mutants})
    if unknown:
        print(f"mutants: no mutant {', '.join(unknown)} in {a.list}", file=sys.stderr)
        return 2
    problems = stale(mutants, root)
    if problems:
        print(f"mutants: the list {a.list} is stale:", *problems, sep="\n  ", file=sys.stderr)
        return 2
    if a.check:
        print(f"mutants: {len(mutants)} mutants, each original found once")
        return 0
    if a.only:
        mutants = [m for m in mutants if m.id in a.only]
    files = repo_files(root)
    base = Path(tempfile.mkdtemp(prefix="bncbench-mutants-"))
    try:
        bad = check_copy(root, files, base, a.python)
        if bad:
            print(f"mutants: a run in the copy imports bncbench from {bad}, not from the copy", file=sys.stderr)
            return 2
        done = []

        def one(m: Mutant) -> Outcome:
            o = run_mutant(m, root, files, base, a.python, a.area_only, a.timeout)
            done.append(o)
            print(f"[{len(done)}/{len(mutants)}] {m.id}: " + (f"caught by {o.by}" if o.caught else "not caught")
                  + f" ({o.seconds:.0f} s)", file=sys.stderr, flush=True)
            return o

        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            outcomes = list(pool.map(one, mutants))
        verify(outcomes, root, files, base, a.python, a.timeout)
    finally:
        if a.keep:
            print(f"mutants: copies kept in {base}", file=sys.stderr)
        else:
            shutil.rmtree(base, ignore_errors=True)
    print(table(outcomes))
    return 0 if all(o.caught for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
