"""Each reading command opens its results store once (results.open), counted at sqlite3.connect;
a store written before the stored config sections is refused with one line, and `bncbench run`
adds them without computing anything again."""

import sqlite3

import pytest
from typer.testing import CliRunner

from bncbench.cli.app import app
from tests.support.cli import SMALL, bnc_in

DEV = "dataset\tNB\tAODE\niris\t5.33\t6.00\ncar\t14.5\t9.1\n"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A small store (3 data sets, NB, KDB1, AODE, two runs) with a published table and a claims file."""
    folder = tmp_path_factory.mktemp("opens")
    cfg = folder / "small.yaml"
    cfg.write_text(SMALL + "figures:\n  cd: {metric: zol}\n  scatter: {a: NB, b: AODE}\n")
    res = folder / "res"
    bnc_in("run", cfg, "--results", res, "--quiet", check=True)
    (folder / "dev.tsv").write_text(DEV)
    (folder / "claims.yaml").write_text(
        f"paper: test\nresults: {{main: {res}}}\nwdl: {{draw: exact4, draws: ignore, tails: two}}\nclaims:\n"
        "  - text: AODE beats NB\n    wdl: {results: main, metric: zol, row: AODE, column: NB, expect: better}\n"
        "  - text: AODE above NB in rmse\n    mean_order: {results: main, metric: rmse, rows: [AODE], below: [NB]}\n")
    return folder


def opens(monkeypatch, args: list[str]) -> int:
    """The sqlite3.connect calls of `bncbench ARGS` run in this process (exit code 0 asserted)."""
    calls = []
    real = sqlite3.connect

    def counting(*a, **k):
        calls.append(a[0] if a else k.get("database"))
        return real(*a, **k)

    monkeypatch.setattr(sqlite3, "connect", counting)
    monkeypatch.setenv("BNCBENCH_MIRROR", "")
    r = CliRunner().invoke(app, [str(x) for x in args])
    monkeypatch.setattr(sqlite3, "connect", real)
    assert r.exit_code == 0, (r.output, r.exception)
    return len(calls)


@pytest.mark.parametrize("command", [
    ["report", "{res}"],
    ["report", "{res}", "--metric", "rmse", "--label-metric", "NB=rmse_all"],
    ["report", "{res}", "--format", "html", "--out", "{tmp}/r.html"],
    ["report", "{res}", "--format", "html", "--out", "{tmp}/r.html", "--compare", "{dir}/dev.tsv",
     "--claims", "{dir}/claims.yaml"],
    ["wdl", "{res}"],
    ["wdl", "{res}", "--test", "wilcoxon", "--correction", "holm"],
    ["ranks", "{res}", "--control", "NB"],
    ["compare", "{res}", "{dir}/dev.tsv", "--metric", "zol,rmse"],
    ["claims", "{dir}/claims.yaml"],
    ["figures", "{res}", "--out", "{tmp}/figs", "--format", "svg"],
    ["export", "{res}", "--out", "{tmp}/exp", "--format", "csv", "--predictions"],
    ["gd", "{res}", "--pairs", "AODE:NB"],
    ["rcll", "{res}", "--pairs", "AODE:NB"],
    ["bayes", "{res}", "--a", "AODE", "--b", "NB", "--samples", "1000"],
    ["structure", "{res}", "--dataset", "iris", "--classifier", "KDB1", "--format", "dot"],
    ["structure", "{res}", "--stability"],
    ["figures", "{res}", "--only", "stability", "--out", "{tmp}/figs", "--format", "svg"],
], ids=lambda c: " ".join(x for x in c if not x.startswith("{")))
def test_one_store_open_per_command(store, tmp_path, monkeypatch, command):
    args = [x.format(res=store / "res", dir=store, tmp=tmp_path) for x in command]
    assert opens(monkeypatch, args) == 1


def test_a_folder_of_experiments_opens_each_store_once(store, tmp_path, monkeypatch):
    import shutil

    for name in ("a", "b"):
        shutil.copytree(store / "res", tmp_path / "all" / name)
    assert opens(monkeypatch, ["report", tmp_path / "all"]) == 2
    assert opens(monkeypatch, ["wdl", tmp_path / "all"]) == 2


def test_a_store_without_stored_sections_is_refused_until_run_adds_them(store, tmp_path):
    import shutil

    old = tmp_path / "old"
    shutil.copytree(store / "res", old)
    with sqlite3.connect(old / "results.sqlite") as db:  # as bncbench 0.3.0 wrote it
        db.execute("DELETE FROM meta WHERE key = 'sections'")
    before = bnc_in("report", old, check=False)
    lines = before.stderr.strip().splitlines()
    assert before.returncode == 2 and len(lines) == 1 and "bncbench run CONFIG --results" in lines[0], before.stderr
    run = bnc_in("run", store / "small.yaml", "--results", old, check=True)
    assert "0 tasks run, 54 already finished" in run.stderr
    assert bnc_in("report", old, check=True).stdout == bnc_in("report", store / "res", check=True).stdout
