"""The results store under faults (issue 29 item 1): a full disk, a folder made read-only, a lock held
past the timeout, a damaged file, a flipped byte in a stored task, a store of another format, an
unexpected error. Each: one line on stderr, no traceback, the documented exit code; after the fault
is removed, a resumed run's report is byte-identical to an uninterrupted run's (docs/cli.md, "Exit
codes")."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bncbench.engine.store import FORMAT
from tests.support.cli import SMALL, bnc_in, run_store

N_TASKS = 3 * 3 * 3 * 2  # data sets × classifiers × folds × runs (SMALL)
UNITS = 3 * 3 * 2        # one transaction per unit (data set, run, fold)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """SMALL run once without faults: its config and its report."""
    res = run_store(tmp_path_factory, "whole", SMALL)
    return res.parent / "config.yaml", bnc_in("report", res, check=True).stdout, res


def _one_line(stderr: str) -> str:
    """The single line a failure prints (no traceback, nothing else)."""
    assert "Traceback" not in stderr and "╭" not in stderr, stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


def _cli(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """`bncbench ARGS` in this process (so that a test can patch the store): exit code, stderr."""
    from bncbench.cli.app import main

    monkeypatch.setattr(sys, "argv", ["bncbench", *map(str, args)])
    with pytest.raises(SystemExit) as stop:
        main()
    return int(stop.value.code or 0), capsys.readouterr().err


def _failing_writes(monkeypatch, message: str, after: int) -> None:
    """The store's unit writes fail with SQLite's `message` once `after` units are stored (behind
    the store's own error guard, as a real failure would be)."""
    from bncbench.engine import store

    real = store.Store.put_many
    calls = {"n": 0}

    def put_many(self, tasks):
        calls["n"] += 1
        if calls["n"] > after:
            raise sqlite3.OperationalError(message)
        return real(self, tasks)

    monkeypatch.setattr(store.Store, "put_many", store._guarded("write")(put_many))


def _resume_matches(cfg: Path, res: Path, report: str, stored: int) -> None:
    """The same command again finishes the run; its report is the uninterrupted one."""
    r = bnc_in("run", cfg, "--results", res, check=True)
    assert f"{N_TASKS - stored} tasks run, {stored} already finished" in r.stderr, r.stderr
    assert bnc_in("report", res, check=True).stdout == report


@pytest.mark.parametrize("message, what, todo", [
    ("database or disk is full", "the disk is full", "free some space"),
    ("attempt to write a readonly database", "the store or its folder became read-only", "make it writable"),
    ("database is locked", "another process kept the store locked", "wait until the other bncbench command ends"),
    ("disk I/O error", "a disk input/output error", "check the disk"),
])
def test_a_write_failing_mid_run_says_what_is_saved(uninterrupted, tmp_path, monkeypatch, capsys, message, what,
                                                    todo):
    """The writes fail after 7 of the 18 units: exit 2, one line naming the folder, the cause, the
    21 of 54 tasks saved and what to do; nothing stored is lost, and the run resumes."""
    cfg, report, _ = uninterrupted
    res = tmp_path / "res"
    _failing_writes(monkeypatch, message, after=7)
    code, stderr = _cli(monkeypatch, capsys, "run", cfg, "--results", res, "--quiet", "--jobs", "1")
    line = _one_line(stderr)
    assert code == 2, stderr
    assert line.startswith(f"error: {res}: cannot write the results store: {what}"), line
    assert f"; 21 of {N_TASKS} tasks are saved; {todo}" in line, line
    monkeypatch.undo()
    _resume_matches(cfg, res, report, stored=21)


def _mount_tmpfs(where: Path, size: str) -> bool:
    """A tmpfs of `size` at `where` (root on Linux); False where this machine does not allow it."""
    where.mkdir()
    try:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                           capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def test_a_real_full_disk_mid_run(uninterrupted, tmp_path, monkeypatch, capsys):
    """The results folder on a small tmpfs, filled but for half of what the store needs: the run
    stops with ENOSPC part-way in one line, exit 2; with the filler removed it resumes to the
    uninterrupted report. Where no tmpfs can be mounted, the store's writes fail as a full disk
    does (SQLite's own message) instead."""
    cfg, report, whole = uninterrupted
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, "4m"):
        _failing_writes(monkeypatch, "database or disk is full", after=9)
        code, stderr = _cli(monkeypatch, capsys, "run", cfg, "--results", tmp_path / "res", "--quiet")
        assert code == 2 and "the disk is full" in _one_line(stderr), stderr
        monkeypatch.undo()
        _resume_matches(cfg, tmp_path / "res", report, stored=27)
        return
    try:
        # room for SQLite's shared memory and the write-ahead log of about half the run (the log
        # holds every page written, about 1.5 times the finished file here: 12 to 40 of 54 tasks)
        need = sum(f.stat().st_size for f in whole.iterdir())
        free = shutil.disk_usage(disk).free
        (disk / "filler").write_bytes(b"\0" * (free - 32768 - 3 * need // 2))
        res = disk / "res"
        r = bnc_in("run", cfg, "--results", res, "--quiet")
        line = _one_line(r.stderr)
        assert r.returncode == 2 and "cannot write the results store: the disk is full" in line, r.stderr
        stored = int(line.split(" tasks are saved")[0].rsplit("; ", 1)[1].split(" of ")[0])
        assert 0 < stored < N_TASKS, line
        (disk / "filler").unlink()
        _resume_matches(cfg, res, report, stored=stored)
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def _damage(res: Path) -> None:
    """Overwrite pages in the middle of the store's file, as a bad disk or a torn copy does."""
    f = res / "results.sqlite"
    size = f.stat().st_size
    with open(f, "r+b") as fh:
        for page in range(2, size // 4096 - 1, 3):
            fh.seek(page * 4096)
            fh.write(os.urandom(4096))


@pytest.mark.parametrize("command", ["report", "wdl", "export", "run"])
def test_a_damaged_store_is_one_line_for_every_command(uninterrupted, tmp_path, command):
    cfg, _, whole = uninterrupted
    res = tmp_path / "res"
    shutil.copytree(whole, res)
    _damage(res)
    args = {"report": ["report", res], "wdl": ["wdl", res], "export": ["export", res, "--out", tmp_path / "x"],
            "run": ["run", cfg, "--results", res, "--quiet"]}[command]
    r = bnc_in(*args)
    line = _one_line(r.stderr)
    assert r.returncode == 2, r.stderr
    assert str(res) in line and ("damaged" in line or "malformed" in line), line


def test_an_unexpected_error_names_its_log_and_debug_shows_it(uninterrupted, tmp_path, monkeypatch, capsys):
    """A bug (here a summary that raises): exit 3, one line naming a log file that holds the
    traceback; --debug (and BNCBENCH_DEBUG=1) lets the traceback through."""
    from bncbench.results import Results

    _, _, whole = uninterrupted
    monkeypatch.setenv("BNCBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BNCBENCH_DEBUG", "0")  # off; --debug sets it, and the test's teardown restores it

    def broken(self, metric, datasets, classifiers):
        raise ZeroDivisionError("a deliberate bug")

    monkeypatch.setattr(Results, "_summarize", broken)
    code, stderr = _cli(monkeypatch, capsys, "report", whole)
    line = _one_line(stderr)
    assert code == 3 and line.startswith("internal error: ZeroDivisionError: a deliberate bug"), line
    log = Path(line.split("the traceback is in ")[1].split(" (")[0])
    assert log.parent == tmp_path / "cache" / "logs" and "Traceback" in log.read_text()
    assert "broken" in log.read_text()
    with pytest.raises(ZeroDivisionError):
        _cli(monkeypatch, capsys, "--debug", "report", whole)


@pytest.mark.parametrize("command", ["report", "run"])
def test_a_store_of_a_newer_format_is_refused_untouched(uninterrupted, tmp_path, command):
    """A store a newer bncbench wrote (format 99): one line naming its format and writer and what
    this version reads, exit 2; `run` writes nothing to it."""
    cfg, _, whole = uninterrupted
    res = tmp_path / "res"
    shutil.copytree(whole, res)
    with sqlite3.connect(res / "results.sqlite") as c:
        c.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
        c.execute("INSERT OR REPLACE INTO meta VALUES ('written_by', '\"bncbench 9.0\"')")
    before = (res / "results.sqlite").read_bytes()
    r = bnc_in(*(["report", res] if command == "report" else ["run", cfg, "--results", res]))
    line = _one_line(r.stderr)
    assert r.returncode == 2, r.stderr
    assert "this results store is format 99, written by bncbench 9.0; this bncbench (" in line, line
    assert f"reads formats 2 to {FORMAT}: upgrade bncbench" in line, line
    assert (res / "results.sqlite").read_bytes() == before and sorted(p.name for p in res.iterdir()) == [
        "results.sqlite"]


def test_a_store_naming_no_readable_format_is_refused(uninterrupted, tmp_path):
    _, _, whole = uninterrupted
    res = tmp_path / "res"
    shutil.copytree(whole, res)
    with sqlite3.connect(res / "results.sqlite") as c:
        c.execute("UPDATE meta SET value = '\"three\"' WHERE key = 'format'")
    line = _one_line(bnc_in("report", res).stderr)
    assert "names no readable format" in line, line


def _bind_read_only(folder: Path) -> bool:
    """`folder` mounted read-only over itself (root on Linux); False where this machine does not allow it."""
    try:
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    r = subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True, timeout=30)
    if r.returncode != 0:
        subprocess.run(["umount", str(folder)], capture_output=True)
    return r.returncode == 0


def test_a_folder_made_read_only(uninterrupted, tmp_path, monkeypatch, capsys):
    """The folder turns read-only under a run after 7 of the 18 units (SQLite's own error through the
    store's writer: on Linux the files a run holds open stay writable after a chmod or a read-only
    remount is refused while they are open, so only the kernel's emergency remount shows it mid-run),
    then the next run finds it read-only for real (a read-only bind mount where root may mount):
    both one line, exit 2; reading still works; writable again, the run resumes to the uninterrupted
    report."""
    cfg, report, _ = uninterrupted
    res = tmp_path / "res"
    _failing_writes(monkeypatch, "attempt to write a readonly database", after=7)
    code, stderr = _cli(monkeypatch, capsys, "run", cfg, "--results", res, "--quiet", "--jobs", "1")
    line = _one_line(stderr)
    assert code == 2 and "became read-only" in line and f"21 of {N_TASKS} tasks are saved" in line, stderr
    monkeypatch.undo()
    if _bind_read_only(res):
        try:
            r = bnc_in("run", cfg, "--results", res, "--quiet")
            line = _one_line(r.stderr)
            assert r.returncode == 2 and line.startswith(f"error: {res}: cannot open the results store: the store "
                                                         f"or its folder became read-only"), r.stderr
            assert bnc_in("report", res).returncode == 0
        finally:
            subprocess.run(["umount", str(res)], capture_output=True)
    _resume_matches(cfg, res, report, stored=21)


def test_a_flipped_byte_in_a_stored_task(uninterrupted, tmp_path):
    """One bit of a task's stored probabilities flipped in the file itself, which SQLite does not
    notice: reading commands exit 0 with one line saying that the task is not used (its cell shows
    n/a); `run` computes that task again and the report is the uninterrupted one."""
    cfg, report, whole = uninterrupted
    res = tmp_path / "res"
    shutil.copytree(whole, res)
    f = res / "results.sqlite"
    with sqlite3.connect(f) as c:
        blobs = [row[0] for row in c.execute("SELECT proba FROM tasks ORDER BY key")]
    c.close()
    data = bytearray(f.read_bytes())
    # the first task whose blob lies in one piece in the file (a blob larger than what a page holds
    # is split over overflow pages; which task's is depends on the keys, so on the code fingerprint)
    blob = next(b for b in blobs if data.find(b) > 0 and data.find(b, data.find(b) + 1) == -1)
    at = data.find(blob)
    data[at + len(blob) // 2] ^= 0x10
    f.write_bytes(bytes(data))
    r = bnc_in("report", res)
    line = _one_line(r.stderr)
    assert r.returncode == 0 and "1 stored task(s) fail their checksum and are not used" in line, r.stderr
    assert r.stdout != report and "n/a" in r.stdout
    r = bnc_in("run", cfg, "--results", res, check=True)
    assert f"1 tasks run, {N_TASKS - 1} already finished" in r.stderr, r.stderr
    assert bnc_in("report", res, check=True).stdout == report


def test_a_damaged_store_salvaged_resumes_to_the_uninterrupted_report(uninterrupted, tmp_path):
    """An overwritten page among the tasks' rows, then every third page: `store salvage` keeps what
    SQLite can still read and verify, in one line (nothing is left at --out when it cannot write);
    `run` on the salvaged store computes the rest, and its report is the uninterrupted one."""
    cfg, report, whole = uninterrupted
    res = tmp_path / "res"
    shutil.copytree(whole, res)
    f = res / "results.sqlite"
    with sqlite3.connect(f) as c:
        blobs = [r[0] for r in c.execute("SELECT proba FROM tasks ORDER BY rowid")]
    c.close()
    data = f.read_bytes()
    page = data.find(blobs[len(blobs) // 2]) // 4096
    with open(f, "r+b") as fh:
        fh.seek(page * 4096)
        fh.write(os.urandom(4096))
    new = tmp_path / "new"
    r = bnc_in("store", "salvage", res, "--out", new)
    line = _one_line(r.stderr)
    assert r.returncode == 0 and line.startswith("salvaged "), r.stderr
    kept = int(line.split()[1])
    assert N_TASKS // 2 <= kept < N_TASKS, line
    r = bnc_in("run", cfg, "--results", new, check=True)
    assert f"{N_TASKS - kept} tasks run, {kept} already finished" in r.stderr, r.stderr
    assert bnc_in("report", new, check=True).stdout == report

    _damage(res)  # far worse: the run's record (meta) is lost too, and run writes it again
    new = tmp_path / "new2"
    r = bnc_in("store", "salvage", res, "--out", new)
    line = _one_line(r.stderr)
    assert r.returncode == 0 and line.startswith("salvaged "), r.stderr
    kept = int(line.split()[1])
    assert 0 <= kept < N_TASKS, line
    r = bnc_in("run", cfg, "--results", new, check=True)
    assert f"{N_TASKS - kept} tasks run, {kept} already finished" in r.stderr, r.stderr
    assert bnc_in("report", new, check=True).stdout == report


def test_a_salvage_that_cannot_write_leaves_nothing_at_out(uninterrupted, tmp_path, monkeypatch, capsys):
    from bncbench.engine import store

    _, _, whole = uninterrupted

    def full(self, source, keys, meta):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store.Store, "copy_intact", store._guarded("write")(full))
    code, stderr = _cli(monkeypatch, capsys, "store", "salvage", whole, "--out", tmp_path / "new")
    line = _one_line(stderr)
    assert code == 2 and "cannot write the results store: the disk is full" in line, stderr
    assert not (tmp_path / "new").exists()
