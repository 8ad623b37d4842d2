"""Recovery that recovers (issue 36 item 3): `store salvage` keeps every intact task of a truncated
store, of one whose header is overwritten and of one whose tasks b-tree lost its root page; the
salvaged store reports the original's numbers for every task kept and `run` resumes it to the
uninterrupted report. A killed salvage leaves nothing that looks like a store; a failed export
leaves no partial file (docs/store.md: Integrity)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bncbench import results
from bncbench.engine import recover
from tests.support.cli import bnc, bnc_in, run_store

CONFIG = """
name: four
datasets: [iris, labor-negotiations, car, zoo]
preprocess: {missing: distinct, discretizer: eqfreq, eqfreq_method: petal, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 2, seed: 1}
classifiers:
  - {name: NB}
  - {name: KDB, k: 1, label: KDB1}
"""
N_TASKS = 4 * 2 * 3 * 2
NUMBERS = ["dataset", "label", "run", "fold", "n_test", "zol", "rmse", "rmse_all", "cll", "logloss", "info", "key"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    res = run_store(tmp_path_factory, "recover", CONFIG)
    with results.open(res) as r:
        tasks = r.tasks
    return res.parent / "config.yaml", res, bnc("report", res, check=True).stdout, tasks


def _copy(res0: Path, tmp_path: Path) -> Path:
    res = tmp_path / "res"
    shutil.copytree(res0, res)
    return res


def _structures(res: Path) -> dict[str, bytes]:
    """{key: the stored structure column} of every task (none NULL: the store was written with them)."""
    with sqlite3.connect(res / "results.sqlite") as c:
        got = dict(c.execute("SELECT key, structure FROM tasks"))
    c.close()
    assert None not in got.values()
    return got


def _salvaged_matches(whole, res: Path, new: Path, at_least: int, here) -> None:
    """Salvage `res` into `new`: every task kept has the original's numbers; `run` computes the
    rest and the report is the uninterrupted one; the damaged file is unchanged. `here` runs a
    command (`bnc_in`)."""
    cfg, _, report, original = whole
    before = (res / "results.sqlite").read_bytes()
    r = here("store", "salvage", res, "--out", new)
    assert r.returncode == 0 and r.stderr.startswith("salvaged "), r.stderr
    kept = int(r.stderr.split()[1])
    assert at_least <= kept <= N_TASKS, r.stderr
    assert (res / "results.sqlite").read_bytes() == before
    assert here("store", "check", new).returncode == 0
    with results.open(new) as s:
        got = s.tasks
    assert len(got) == kept
    want = original.set_index("key").loc[got["key"]].reset_index()
    pd.testing.assert_frame_equal(got[NUMBERS].reset_index(drop=True), want[NUMBERS].reset_index(drop=True))
    stored = _structures(whole[1])  # each kept task's learned structure (its own column, under the checksum) kept too
    assert _structures(new) == {k: stored[k] for k in got["key"]}
    with results.open(new) as s:
        assert s.structures("car", "KDB1")[0].learned is not None
    r = here("run", cfg, "--results", new)
    assert f"{N_TASKS - kept} tasks run, {kept} already finished" in r.stderr, r.stderr
    assert here("report", new).stdout == report


def test_a_truncated_store_is_salvaged(whole, tmp_path, monkeypatch, capsys):
    """The last 4 KB page lost (a copy cut short): all but the tasks on that page are kept."""
    res = _copy(whole[1], tmp_path)
    f = res / "results.sqlite"
    os.truncate(f, f.stat().st_size - 4096)
    _salvaged_matches(whole, res, tmp_path / "new", N_TASKS - 4, bnc_in)


def test_a_store_cut_part_way_through_a_page(whole, tmp_path, monkeypatch, capsys):
    """Hostile: 1,000 bytes cut (not a whole page): the last page is read as far as it goes."""
    res = _copy(whole[1], tmp_path)
    f = res / "results.sqlite"
    os.truncate(f, f.stat().st_size - 1000)
    _salvaged_matches(whole, res, tmp_path / "new", N_TASKS - 4, bnc_in)


def test_an_overwritten_header_is_rebuilt_on_a_copy(whole, tmp_path, monkeypatch, capsys):
    """The first 100 bytes overwritten ("file is not a database"): every task is kept."""
    res = _copy(whole[1], tmp_path)
    with open(res / "results.sqlite", "r+b") as f:
        f.write(os.urandom(100))
    _salvaged_matches(whole, res, tmp_path / "new", N_TASKS, bnc_in)


def test_a_lost_root_page_is_read_from_the_leaf_pages(whole, tmp_path, monkeypatch, capsys):
    """Hostile: the tasks table's root page (an interior page) overwritten, so SQLite reaches none
    of its rows: the leaf pages that survive are read directly and every task on them is kept."""
    res = _copy(whole[1], tmp_path)
    f = res / "results.sqlite"
    with sqlite3.connect(f) as c:
        root = c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'tasks'").fetchone()[0]
    c.close()
    with open(f, "r+b") as fh:
        fh.seek((root - 1) * 4096)
        fh.write(os.urandom(4096))
    r = bnc("store", "check", res)
    assert r.returncode == 1 and "read from its" in r.stderr and "page(s) directly" in r.stderr, r.stderr
    _salvaged_matches(whole, res, tmp_path / "new", N_TASKS, bnc_in)


def test_a_wal_left_behind_is_read_with_the_file(whole, tmp_path, monkeypatch, capsys):
    """Hostile: a killed run's results.sqlite-wal holds the tasks and the file's header is then
    overwritten: check and salvage read both and keep every task."""
    from bncbench.engine.store import Store

    _, res0, _, _ = whole
    src = tmp_path / "src"
    s = Store(src)
    s.db.execute("PRAGMA wal_autocheckpoint=0")
    s.db.execute("ATTACH ? AS o", (str(res0 / "results.sqlite"),))
    with s.db:
        for table in ("meta", "splits", "tasks"):
            s.db.execute(f"INSERT OR REPLACE INTO {table} SELECT * FROM o.{table}")
    res = tmp_path / "res"
    res.mkdir()
    for suffix in ("", "-wal"):  # copied while the run still has it open: the tasks are in the -wal
        shutil.copyfile(src / f"results.sqlite{suffix}", res / f"results.sqlite{suffix}")
    s.close()
    assert (res / "results.sqlite-wal").stat().st_size > (res / "results.sqlite").stat().st_size
    with open(res / "results.sqlite", "r+b") as f:
        f.write(os.urandom(100))
    assert bnc("store", "check", res).returncode in (0, 1)
    _salvaged_matches(whole, res, tmp_path / "new", N_TASKS, bnc_in)


def test_survey_never_writes_the_damaged_file(whole, tmp_path):
    """The corrected copy and the rebuilt store are made in the scratch folder only."""
    res = _copy(whole[1], tmp_path)
    f = res / "results.sqlite"
    os.truncate(f, f.stat().st_size - 4096)
    before = f.read_bytes()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    s = recover.survey(str(res), scratch)
    try:
        assert s.how.startswith("read from a copy with the header's page count set") and len(s.kept) >= N_TASKS - 4
    finally:
        s.close()
    assert f.read_bytes() == before and sorted(p.name for p in res.iterdir()) == ["results.sqlite"]
    assert {p.name for p in scratch.iterdir()} <= {"corrected.sqlite", "pages.sqlite"}


KILLER = """
import os, signal, sys
from bncbench.engine import store
real = store.Store.copy_intact
def copy_then_die(self, *args):
    n = real(self, *args)
    os.kill(os.getpid(), signal.SIGKILL)  # after the copy, before the rename
store.Store.copy_intact = copy_then_die
sys.argv = ["bncbench", "store", "salvage", sys.argv[1], "--out", sys.argv[2]]
from bncbench.cli.app import main
main()
"""


def test_a_killed_salvage_leaves_nothing_that_looks_like_a_store(whole, tmp_path):
    """SIGKILL once the tasks are copied, before the new store is complete: --out holds no
    results.sqlite (readers say no results here), and salvage can be run again."""
    res = _copy(whole[1], tmp_path)
    new = tmp_path / "new"
    r = subprocess.run([sys.executable, "-c", KILLER, str(res), str(new)], capture_output=True, text=True,
                       env=dict(os.environ, BNCBENCH_MIRROR=""))
    assert r.returncode == -9, r.stderr
    assert not (new / "results.sqlite").exists()
    r = bnc("report", new)
    assert r.returncode == 2 and "no results here" in r.stderr, r.stderr
    r = bnc("store", "salvage", res, "--out", new)
    assert r.returncode == 0 and f"salvaged {N_TASKS} task(s)" in r.stderr, r.stderr


def test_a_failed_export_leaves_no_partial_file(whole, tmp_path, monkeypatch):
    """The disk fills while tasks.parquet is written: one line (UserError), no tasks.parquet and
    no temporary file left in --out."""
    from bncbench.errors import UserError

    def full(self, path, *args, **kwargs):
        Path(path).write_bytes(b"PAR1 half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    out = tmp_path / "exp"
    with results.open(whole[1]) as r, pytest.raises(UserError, match=r"cannot write tasks\.parquet"):
        r.export("parquet", str(out))
    assert list(out.iterdir()) == []
