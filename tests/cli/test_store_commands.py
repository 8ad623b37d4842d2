"""`bncbench store check` and `store salvage` (issue 29 item 2): every stored task carries a checksum;
a task whose stored numbers changed is named, never used, and computed again (docs/cli.md)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.support.cli import SMALL, bnc_in, run_store

CONFIG = SMALL.replace("  - {name: AODE}\n", "  - {name: AODE}\n  - {name: TAN}\n").replace(
    "folds: 3, runs: 2", "folds: 5, runs: 2")
N_TASKS = 3 * 4 * 5 * 2  # data sets × classifiers × folds × runs


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    res = run_store(tmp_path_factory, "check", CONFIG)
    return res.parent / "config.yaml", res, bnc_in("report", res, check=True).stdout


def _damage_three(res: Path) -> list[tuple[str, str, int, int]]:
    """Change one stored number of three tasks as a bad disk would (a digit of the metric sums, a
    byte of the probabilities, the training time); their (data set, label, run, fold)."""
    with sqlite3.connect(res / "results.sqlite") as c:
        rows = c.execute("SELECT key, dataset, label, run, fold, sums, proba, train_time FROM tasks "
                         "ORDER BY key LIMIT 3").fetchall()
        key, *_, sums, _, _ = rows[0]
        digit = next(i for i, ch in enumerate(sums) if ch.isdigit() and ch != "9")
        c.execute("UPDATE tasks SET sums = ? WHERE key = ?", (sums[:digit] + "9" + sums[digit + 1:], key))
        proba = bytearray(rows[1][6])
        proba[len(proba) // 2] ^= 0x01
        c.execute("UPDATE tasks SET proba = ? WHERE key = ?", (bytes(proba), rows[1][0]))
        c.execute("UPDATE tasks SET train_time = ? WHERE key = ?", (rows[2][7] * 2 + 1e-3, rows[2][0]))
    return sorted((r[1], r[2], r[3], r[4]) for r in rows)


def test_check_names_the_damaged_salvage_keeps_the_rest_and_run_recomputes_them(whole, tmp_path):
    cfg, res0, report = whole
    res = tmp_path / "res"
    shutil.copytree(res0, res)
    assert bnc_in("store", "check", res).returncode == 0
    damaged = _damage_three(res)

    r = bnc_in("store", "check", res)
    assert r.returncode == 1, r.stderr
    named = sorted(line.split(" (")[0] for line in r.stdout.splitlines() if line.startswith("| damaged |"))
    assert named == sorted(f"| damaged | {d} × {lab}, run {run}, fold {fold}" for d, lab, run, fold in damaged), \
        r.stdout
    assert f"| tasks intact | {N_TASKS - 3} of {N_TASKS} |" in r.stdout and "| tasks damaged (checksum, split or " \
        "decoding) | 3 |" in r.stdout, r.stdout

    shown = bnc_in("report", res)  # reading commands: the cells show n/a and one warning says why
    assert shown.returncode == 0 and "3 stored task(s) fail their checksum and are not used" in shown.stderr
    assert "Traceback" not in shown.stderr and shown.stdout != report

    new = tmp_path / "new"
    r = bnc_in("store", "salvage", res, "--out", new)
    assert r.returncode == 0 and f"salvaged {N_TASKS - 3} task(s) into {new}; 3 damaged task(s)" in r.stderr, r.stderr
    assert bnc_in("store", "check", new).returncode == 0
    r = bnc_in("run", cfg, "--results", new, check=True)
    assert f"3 tasks run, {N_TASKS - 3} already finished" in r.stderr, r.stderr
    assert bnc_in("report", new, check=True).stdout == report

    r = bnc_in("run", cfg, "--results", res, check=True)  # or in place: the damaged tasks are computed again
    assert f"3 tasks run, {N_TASKS - 3} already finished" in r.stderr, r.stderr
    assert bnc_in("report", res, check=True).stdout == report and bnc_in("store", "check", res).returncode == 0


def test_overwritten_pages_are_reported_without_a_traceback(whole, tmp_path):
    _, res0, _ = whole
    res = tmp_path / "res"
    shutil.copytree(res0, res)
    f = res / "results.sqlite"
    with open(f, "r+b") as fh:
        fh.seek(8192)
        fh.write(b"\xff" * 4096)
    r = bnc_in("store", "check", res)
    assert r.returncode in (1, 2) and "Traceback" not in r.stderr, r.stderr
    assert len([ln for ln in r.stderr.splitlines() if ln.strip()]) == 1, r.stderr


def test_salvage_refuses_an_existing_store_and_check_a_missing_one(whole, tmp_path):
    _, res0, _ = whole
    r = bnc_in("store", "salvage", res0, "--out", res0)
    assert r.returncode == 2 and "a results store is there already" in r.stderr
    r = bnc_in("store", "check", tmp_path / "none")
    assert r.returncode == 2 and "no results here" in r.stderr
