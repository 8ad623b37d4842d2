"""A damaged, empty or foreign results store (issue 36 item 3): every command gives its exit code
and one line, never a traceback, and the advice a damaged store's line gives names a command that
works on that store (each advised command is run here); nothing is written to the user's file."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import struct
from pathlib import Path

import pytest

from tests.support.cli import bnc, bnc_in, run_store

CONFIG = """
name: four
datasets: [iris, labor-negotiations, car, zoo]
preprocess: {missing: distinct, discretizer: eqfreq, eqfreq_method: petal, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers:
  - {name: NB}
"""
N_TASKS = 4 * 3


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    res = run_store(tmp_path_factory, "bad-store", CONFIG)
    return res.parent / "config.yaml", res, bnc("report", res, check=True).stdout


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


def _digest(f: Path) -> str:
    return hashlib.sha256(f.read_bytes()).hexdigest()


def _make(kind: str, res: Path) -> None:
    """The issue's damaged stores (docs/store.md: Integrity)."""
    f = res / "results.sqlite"
    if kind == "truncated":  # the last 4 KB page lost
        os.truncate(f, f.stat().st_size - 4096)
    elif kind == "header":  # the first 100 bytes overwritten
        with open(f, "r+b") as fh:
            fh.write(os.urandom(100))
    elif kind == "empty":
        f.write_bytes(b"")
    elif kind == "no-tasks":
        with sqlite3.connect(f) as c:
            c.execute("DROP TABLE tasks")
        c.close()
    elif kind == "format":  # hostile: the format record no longer a number
        with sqlite3.connect(f) as c:
            c.execute("UPDATE meta SET value = '\"thr' WHERE key = 'format'")
        c.close()
    elif kind == "meta":  # the experiment record's JSON cut
        with sqlite3.connect(f) as c:
            c.execute("UPDATE meta SET value = substr(value, 1, 40) WHERE key = 'experiment'")
        c.close()


# kind -> {command: (exit code, text of its line)}
EXPECTED = {
    "truncated": {"check": (1, "damaged (read from a copy with the header's page count set"),
                  "salvage": (0, "salvaged "), "report": (2, "the file is damaged"),
                  "run": (2, "the file is damaged")},
    "header": {"check": (1, "its first 100 bytes (the SQLite header) rebuilt"), "salvage": (0, f"salvaged {N_TASKS} "),
               "report": (2, "the file is damaged (file is not a database)"),
               "run": (2, "the file is damaged (file is not a database)")},
    "empty": {"check": (1, "the results store is empty"), "salvage": (2, "nothing to salvage"),
              "report": (2, "the results store is empty")},
    "no-tasks": {"check": (1, "its tasks table is gone"), "salvage": (0, "salvaged 0 task(s)"),
                 "report": (2, "its tasks table is gone")},
    "format": {"check": (1, "its format record(s) (meta) damaged"), "salvage": (0, f"salvaged {N_TASKS} "),
               "report": (2, "names no readable format"), "run": (2, "names no readable format")},
    "meta": {"check": (1, "its experiment record(s) (meta) damaged"), "salvage": (0, f"salvaged {N_TASKS} "),
             "report": (2, "experiment record (meta table) is damaged"),
             "wdl": (2, "experiment record (meta table) is damaged"),
             "export": (2, "experiment record (meta table) is damaged"),
             "run": (2, "experiment record (meta table) is damaged")},
}


def _args(command: str, cfg: Path, res: Path, tmp: Path) -> list:
    return {"check": ["store", "check", res], "salvage": ["store", "salvage", res, "--out", tmp / "new"],
            "report": ["report", res], "wdl": ["wdl", res], "export": ["export", res, "--out", tmp / "x"],
            "run": ["run", cfg, "--results", res, "--quiet"]}[command]


def _advised(line: str, cfg: Path, tmp: Path) -> list[list[str]]:
    """The commands a line advises, in its order, with CONFIG and NEW filled in (`bncbench run`
    alone is a mention, not advice)."""
    return [[str(tmp / "advised") if w == "NEW" else w for w in cmd.replace("CONFIG", str(cfg)).split()]
            for cmd in re.findall(r"`bncbench ([^`]+)`", line) if " " in cmd]


for _kind in ("truncated", "header", "empty", "no-tasks", "format"):  # wdl and export say what report says
    EXPECTED[_kind].update(wdl=EXPECTED[_kind]["report"], export=EXPECTED[_kind]["report"])


@pytest.mark.parametrize("kind, command", [(k, c) for k, cs in EXPECTED.items() for c in cs])
def test_every_command_on_a_damaged_store(whole, tmp_path, monkeypatch, capsys, kind, command):
    """Its exit code and one line; the user's file unchanged by every reading command (and by
    `run`, which refuses); each command the line advises works on that store."""
    cfg, res0, report = whole
    res = tmp_path / "res"
    shutil.copytree(res0, res)
    _make(kind, res)
    before = _digest(res / "results.sqlite")
    code, text = EXPECTED[kind][command]
    r = bnc_in(*_args(command, cfg, res, tmp_path))
    if code == 0:
        line = [ln for ln in r.stderr.splitlines() if ln.strip()][-1]
    else:
        line = _one_line(r.stderr)
    assert r.returncode == code and text in line, r.stderr
    assert _digest(res / "results.sqlite") == before
    for advised in _advised(line, cfg, tmp_path) if code else []:
        a = bnc_in(*advised)
        assert a.returncode in (0, 1) and "Traceback" not in a.stderr, (advised, a.stderr)
        if advised[0] == "run":  # it resumes the store it names to the uninterrupted report
            assert bnc_in("report", advised[3]).stdout == report


def test_a_foreign_sqlite_file_is_refused_untouched(whole, tmp_path, monkeypatch, capsys):
    """An SQLite file of another program at RESULTS: check, report and salvage refuse it in one
    line; run refuses to add its tables to it (exit 2), the file unchanged."""
    cfg, _, _ = whole
    res = tmp_path / "res"
    res.mkdir()
    f = res / "results.sqlite"
    with sqlite3.connect(f) as c:
        c.execute("CREATE TABLE people (name TEXT, age INTEGER)")
        c.execute("INSERT INTO people VALUES ('ada', 36)")
    c.close()
    before = _digest(f)
    for args in (["store", "check", res], ["report", res], ["store", "salvage", res, "--out", tmp_path / "new"],
                 ["run", cfg, "--results", res, "--quiet"]):
        r = bnc_in(*args)
        line = _one_line(r.stderr)
        assert r.returncode == 2 and "is an SQLite file but not a bncbench results store (it holds the table(s) " \
            "people)" in line, r.stderr
    assert "choose another --results folder" in line
    assert _digest(f) == before and sorted(p.name for p in res.iterdir()) == ["results.sqlite"]
    assert not (tmp_path / "new").exists()


def test_a_tasks_table_with_other_columns_is_foreign(whole, tmp_path, monkeypatch, capsys):
    """Hostile: a table named `tasks` of another program (a to-do list): not taken for a store
    (nor for bncbench 0.2's format 1), run writes nothing into it."""
    cfg, _, _ = whole
    res = tmp_path / "res"
    res.mkdir()
    with sqlite3.connect(res / "results.sqlite") as c:
        c.execute("CREATE TABLE tasks (id INTEGER, title TEXT, done INTEGER)")
    c.close()
    before = _digest(res / "results.sqlite")
    for args in (["store", "check", res], ["run", cfg, "--results", res, "--quiet"]):
        line = _one_line(bnc_in(*args).stderr)
        assert "not a bncbench results store (its tasks table has no column dataset, fold, key, label, run)" in line
    assert _digest(res / "results.sqlite") == before


def test_a_store_that_is_a_folder(whole, tmp_path, monkeypatch, capsys):
    """Hostile: results.sqlite is a folder: one line naming it, for readers and run alike."""
    cfg, _, _ = whole
    (tmp_path / "res" / "results.sqlite").mkdir(parents=True)
    for args in (["store", "check", tmp_path / "res"], ["report", tmp_path / "res"],
                 ["store", "salvage", tmp_path / "res", "--out", tmp_path / "new"],
                 ["run", cfg, "--results", tmp_path / "res", "--quiet"]):
        r = bnc_in(*args)
        assert r.returncode == 2 and "is a folder, not a results store file" in _one_line(r.stderr), r.stderr


def test_salvage_out_pointing_at_the_damaged_store_itself(whole, tmp_path, monkeypatch, capsys):
    """Hostile: --out naming RESULTS (its folder, its file, another spelling of it): refused, the
    damaged file unchanged."""
    _, res0, _ = whole
    res = tmp_path / "res"
    shutil.copytree(res0, res)
    _make("truncated", res)
    before = _digest(res / "results.sqlite")
    for out in (res, res / "results.sqlite", tmp_path / "res" / ".." / "res"):
        r = bnc_in("store", "salvage", res, "--out", out)
        assert r.returncode == 2 and "a results store is there already" in _one_line(r.stderr), r.stderr
    assert _digest(res / "results.sqlite") == before


def test_a_huge_bogus_page_count(whole, tmp_path, monkeypatch, capsys):
    """Hostile: the header's page count set to 2^31 - 1: check reads a corrected copy, salvage
    keeps every task and the salvaged store reports as the original."""
    _, res0, report = whole
    res = tmp_path / "res"
    shutil.copytree(res0, res)
    with open(res / "results.sqlite", "r+b") as f:
        f.seek(28)
        f.write(struct.pack(">I", 2 ** 31 - 1))
    r = bnc_in("store", "check", res)
    assert r.returncode == 1 and "page count set to the file's" in _one_line(r.stderr), r.stderr
    r = bnc_in("store", "salvage", res, "--out", tmp_path / "new")
    assert r.returncode == 0 and f"salvaged {N_TASKS} task(s)" in r.stderr, r.stderr
    assert bnc_in("report", tmp_path / "new").stdout == report


def test_random_bytes_are_no_store(whole, tmp_path, monkeypatch, capsys):
    """Hostile: 64 KB of random bytes named results.sqlite: check and salvage say that nothing of
    a store can be read from it (one line, exit 2), salvage writes nothing."""
    res = tmp_path / "res"
    res.mkdir()
    (res / "results.sqlite").write_bytes(os.urandom(65536))
    for args in (["store", "check", res], ["store", "salvage", res, "--out", tmp_path / "new"]):
        r = bnc_in(*args)
        assert r.returncode == 2 and "none of its pages holds a task" in _one_line(r.stderr), r.stderr
    assert not (tmp_path / "new").exists()


def test_a_symlinked_store_outside_is_read_never_written(whole, tmp_path, monkeypatch, capsys):
    """Hostile: RESULTS/results.sqlite a symbolic link to a damaged store elsewhere, and --out's
    results.sqlite a dangling link pointing outside: salvage reads the first unchanged, and writes
    its store at --out itself (the link replaced), nothing where the link pointed."""
    _, res0, report = whole
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(res0, elsewhere)
    _make("header", elsewhere)
    before = _digest(elsewhere / "results.sqlite")
    res = tmp_path / "res"
    res.mkdir()
    (res / "results.sqlite").symlink_to(elsewhere / "results.sqlite")
    out = tmp_path / "new"
    out.mkdir()
    (out / "results.sqlite").symlink_to(tmp_path / "outside.sqlite")
    r = bnc_in("store", "salvage", res, "--out", out)
    assert r.returncode == 0 and f"salvaged {N_TASKS} task(s)" in r.stderr, r.stderr
    assert _digest(elsewhere / "results.sqlite") == before
    assert not (tmp_path / "outside.sqlite").exists() and not (out / "results.sqlite").is_symlink()
    assert bnc_in("report", out).stdout == report


def test_a_damaged_experiment_in_a_folder_of_experiments(whole, tmp_path, monkeypatch, capsys):
    """One damaged experiment (truncated) among three: report and wdl show the other two, the
    damaged one gets its one-line reason in its section and on stderr, then one line naming it,
    exit 2 (the report is still written with --out)."""
    _, res0, report = whole
    folder = tmp_path / "results"
    for name in ("aa", "bb", "cc"):
        shutil.copytree(res0, folder / name)
    _make("truncated", folder / "bb")
    r = bnc_in("report", folder)
    assert r.returncode == 2, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert "Traceback" not in r.stderr and len(lines) == 2, r.stderr
    assert lines[0].startswith(f"not shown: {folder / 'bb'}: cannot open the results store: the file is damaged")
    assert lines[1] == (f"error: 1 of 3 experiments could not be read and are not shown ({folder / 'bb'}: each "
                        f"one's reason is above); the others are shown")
    sections = r.stdout.split("## ")[1:]
    assert [s.split("\n")[0] for s in sections] == [f"four ({folder / 'aa'})", f"bb ({folder / 'bb'})",
                                                   f"four ({folder / 'cc'})"]
    assert sections[0].split("\n\n", 1)[1] == report + "\n" and "not shown: " in sections[1]
    r = bnc_in("report", folder, "--out", tmp_path / "report.md")
    assert r.returncode == 2 and "## four" in (tmp_path / "report.md").read_text()
    r = bnc_in("report", folder, "--format", "csv")
    assert r.returncode == 2 and {ln.split(",")[0] for ln in r.stdout.splitlines()[1:]} == {"four"}, r.stdout
    assert r.stdout.count("four,iris,NB,") == 2
