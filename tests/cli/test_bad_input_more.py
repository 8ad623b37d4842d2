"""Hostile cases found when issue 36's fixes were tried on a fresh clone: a report written over the
store it reads, a plan of a billion runs, a device or a pipe named as a data file. Each is one
line, exit code 2, and nothing written or changed."""

import hashlib
import os

import pytest

from tests.support.cli import bnc_in, run_store

SMALL = "name: s\ndatasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB]\n"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return run_store(tmp_path_factory, "out-over-store", SMALL)


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_report_out_over_the_store_it_reads_is_refused(store, fmt, monkeypatch, capsys):
    db = store / "results.sqlite"
    before = _digest(db)
    r = bnc_in("report", store, "--format", fmt, "--out", db)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "is an SQLite file" in lines[0] and str(db) in lines[0], r.stderr
    assert _digest(db) == before
    assert sorted(p.name for p in store.iterdir()) == ["results.sqlite"]


def test_report_out_over_another_sqlite_file_is_refused(store, tmp_path, monkeypatch, capsys):
    other = tmp_path / "copy.db"
    other.write_bytes((store / "results.sqlite").read_bytes())
    r = bnc_in("report", store, "--out", other)
    assert r.returncode == 2 and "would destroy it" in r.stderr
    assert other.read_bytes() == (store / "results.sqlite").read_bytes()


def test_report_out_over_a_text_file_replaces_it(store, tmp_path, monkeypatch, capsys):
    old = tmp_path / "table.md"
    old.write_text("an older table\n")
    r = bnc_in("report", store, "--out", old)
    assert r.returncode == 0 and "iris" in old.read_text()


@pytest.mark.parametrize("runs", [1001, 10**9])
def test_a_billion_runs_are_refused_before_planning(tmp_path, runs, monkeypatch, capsys):
    cfg = tmp_path / "h.yaml"
    cfg.write_text(f"name: h\ndatasets: [iris]\ncv: {{runs: {runs}}}\nclassifiers: [NB]\n")
    r = bnc_in("run", cfg, "--results", tmp_path / "res")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and f"{cfg}:3: cv.runs: {runs} runs is more than 1000" in lines[0]
    assert not (tmp_path / "res").exists()


def test_a_thousand_runs_are_accepted():
    from bncbench import config

    assert config.parse("datasets: [iris]\ncv: {runs: 1000}\nclassifiers: [NB]\n").cv.runs == 1000


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_device_or_a_pipe_as_a_data_file(tmp_path, kind, monkeypatch, capsys):
    path = "/dev/zero" if kind == "device" else tmp_path / "pipe"
    if kind == "fifo":
        os.mkfifo(path)
    cfg = tmp_path / "d.yaml"
    cfg.write_text(f"name: d\ndatasets: [{{name: d, path: {path}}}]\nclassifiers: [NB]\n")
    r = bnc_in("run", cfg, "--results", tmp_path / "res")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert f"{cfg}:2: datasets.0.path: data set 'd': {path} is not a regular file" in lines[0]
    assert not (tmp_path / "res").exists()
