"""Resource limits are bad input, not bugs (issue 36 item 8): one line naming what ran out and what
to do, exit code 2, nothing written — a plan whose count tables cannot fit (TAN on 10,000 columns),
`bayes --samples 1e12`, a huge `synth:` data set, a MemoryError anywhere, a worker the system killed.
The memory is simulated with BNCBENCH_MEMORY (utils/memory.py), never the machine's."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bncbench import config, results
from bncbench.engine import runner
from tests.engine.test_memory_estimate import wide_csv
from tests.support.cli import POOL, bnc


def main_exit(monkeypatch, capsys, *args) -> tuple[int | str | None, str, str]:
    """`bncbench ARGS` through `cli.app.main` in this process: (exit code, stdout, stderr)."""
    from bncbench.cli.app import main

    monkeypatch.setattr(sys, "argv", ["bncbench", *map(str, args)])
    monkeypatch.setenv("BNCBENCH_DEBUG", "0")  # off; --debug sets it, and the test's teardown restores it
    with pytest.raises(SystemExit) as stop:
        main()
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err


def loky_workers(pid: int) -> list[int]:
    """The loky worker processes descending from process `pid` (read from /proc: Linux)."""
    parent = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # a process that ended meanwhile
            continue

    def descends(p: int) -> bool:
        while p in parent and p != pid:
            p = parent[p]
        return p == pid

    found = []
    for p in parent:
        try:
            if p != pid and descends(p) and b"LokyProcess" in Path(f"/proc/{p}/cmdline").read_bytes():
                found.append(p)
        except OSError:
            continue
    return found


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """NB and TAN on three shipped data sets, 2 folds, run in this process."""
    res = tmp_path_factory.mktemp("limits") / "res"
    exp = config.parse("name: limits\ndatasets: [iris, zoo, labor-negotiations]\ncv: {folds: 2}\n"
                       "classifiers: [NB, TAN]\n")
    runner.run(exp, str(res), quiet=True, log=lambda *a: None)
    return res


# ---------------------------------------------------------------- the cases

def test_tan_on_10000_columns_is_refused_before_it_starts(tmp_path):
    """The issue's reproduction: TAN on a CSV of a few rows and 10,000 binary columns; with 8 GiB
    available its 13.4 GiB of pair counts (and as much of TAN's own tables) cannot fit: one line
    after the class column said, exit 2, no results folder."""
    wide_csv(tmp_path / "wide.csv", 10_000)
    (tmp_path / "wide.yaml").write_text("name: wide\ndatasets:\n  - {name: wide, path: wide.csv}\ncv: {folds: 3}\n"
                                        "classifiers: [TAN]\n")
    r = bnc("run", tmp_path / "wide.yaml", "--results", tmp_path / "res", env={"BNCBENCH_MEMORY": "8G"})
    line = r.stderr.splitlines()[-1]
    assert r.returncode == 2 and r.stdout == ""
    assert line.startswith("error: data set 'wide' with TAN does not fit in memory: 10000 attributes, 30000 values, "
                           "2 classes; its rows, count tables of attribute pairs and TAN's own working tables "
                           "(13.4 GiB) need about 26.8 GiB per worker, more than the 8 GiB available "
                           "(BNCBENCH_MEMORY); leave TAN out for it"), line
    assert not (tmp_path / "res").exists()


@pytest.mark.parametrize("samples, says", [
    ("1000000000000", "error: --samples: 1000000000000 is more than the 13421772 samples that fit in 1 GiB over 3 "
                      "data set(s) (docs/statistics.md); the default 50000 gives each probability within 0.0025"),
    ("13421773", "error: --samples: 13421773 is more than the 13421772 samples"),  # one over the bound
    ("0", "error: --samples: 0 is not a positive number of samples (e.g. 50000)"),
    ("-1", "error: --samples: -1 is not a positive number of samples (e.g. 50000)"),
])
def test_bayes_refuses_an_impossible_number_of_samples(store, monkeypatch, capsys, samples, says):
    """`bayes --samples 1000000000000` asked for 21.8 TiB (exit 3); now one line before sampling."""
    code, out, err = main_exit(monkeypatch, capsys, "bayes", store, "--a", "NB", "--b", "TAN", "--samples", samples)
    assert code == 2 and out == "" and one_line(err).startswith(says), err


@pytest.mark.parametrize("samples", ["1e12", "nan", "inf", "12.5", ""])
def test_bayes_samples_that_are_no_integer_are_usage_errors(store, monkeypatch, capsys, samples):
    code, out, err = main_exit(monkeypatch, capsys, "bayes", store, "--a", "NB", "--b", "TAN", "--samples", samples)
    assert code == 2 and out == "" and "Invalid value for '--samples'" in err and "Traceback" not in err


def test_a_huge_synthetic_data_set_is_refused_at_config_time(tmp_path, monkeypatch, capsys):
    """`synth:100000000000x1000x2` (10^14 cells) in a config: refused where the config names it,
    before anything is sampled or written; `datasets verify` refuses it the same way."""
    monkeypatch.setenv("BNCBENCH_MEMORY", "16G")
    cfg = tmp_path / "big.yaml"
    cfg.write_text("name: big\ndatasets: ['synth:100000000000x1000x2']\nclassifiers: [NB]\n")
    code, out, err = main_exit(monkeypatch, capsys, "run", cfg, "--results", tmp_path / "res")
    assert code == 2 and out == ""
    assert one_line(err) == (f"error: {cfg}:2: datasets.0: 'synth:100000000000x1000x2': 100000000000 rows × 1000 "
                             f"attributes take about 92 TiB to sample, more than the 16 GiB of memory available "
                             f"(BNCBENCH_MEMORY); use fewer rows or attributes")
    assert not (tmp_path / "res").exists()
    code, out, err = main_exit(monkeypatch, capsys, "datasets", "verify", "synth:100000000000x1000x2")
    assert code == 2 and one_line(err).endswith("more than the 16 GiB of memory available (BNCBENCH_MEMORY); use "
                                                "fewer rows or attributes")


def test_a_memory_error_anywhere_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    """A real numpy MemoryError (1 EiB asked for) while counting zoo's second unit: one line naming
    the allocation and what to do, exit 2 (was 3, "a bug in bncbench"); iris's finished tasks are saved."""
    from bncbench.engine import units

    counts = units.fit_counts

    def huge_for_zoo(X, *args, **kwargs):
        if X.shape[1] == 16:  # zoo's attributes
            np.zeros(1 << 60, dtype=np.int8)
        return counts(X, *args, **kwargs)

    monkeypatch.setattr(units, "fit_counts", huge_for_zoo)
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: c\ndatasets: [iris, zoo]\ncv: {folds: 3}\nclassifiers: [NB]\n")
    code, _, err = main_exit(monkeypatch, capsys, "run", cfg, "--results", tmp_path / "res", "--quiet")
    assert code == 2 and one_line(err) == (
        "error: out of memory in `bncbench run` (Unable to allocate 1.00 EiB for an array with shape "
        "(1152921504606846976,) and data type int8); finished tasks are saved; run it with fewer --jobs, on fewer "
        "attributes or data sets, or on a machine with more memory")
    with results.open(tmp_path / "res") as r:
        done = r.tasks.groupby("dataset").size().to_dict()
    assert done.get("iris", 0) >= 1 and "zoo" not in done


def test_a_memory_error_in_another_command(store, monkeypatch, capsys):
    """A MemoryError without a message (Python's own) in `bayes`, also with --debug."""
    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(results, "open", no_memory)
    code, out, err = main_exit(monkeypatch, capsys, "--debug", "bayes", store, "--a", "NB", "--b", "TAN")
    assert code == 2 and out == "" and one_line(err) == (
        "error: out of memory in `bncbench bayes` (an allocation failed); run it on less data, or on a machine "
        "with more memory")


# ---------------------------------------------------------------- hostile cases of our own

@pytest.mark.parametrize("value", ["lots", "-1G", "nan"])
def test_a_malformed_memory_setting_stops_the_run(tmp_path, monkeypatch, capsys, value):
    monkeypatch.setenv("BNCBENCH_MEMORY", value)
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: c\ndatasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB]\n")
    code, _, err = main_exit(monkeypatch, capsys, "run", cfg, "--results", tmp_path / "res")
    assert code == 2 and one_line(err) == (f"error: BNCBENCH_MEMORY={value!r}: give the memory to count on in bytes, "
                                           f"or with K, M, G or T (e.g. 8G)")
    assert not (tmp_path / "res").exists()


@pytest.mark.parametrize("name, refused", [
    ("synth:47662x10x2", ""),                       # 47,662 × 22 bytes = 1,048,564: fits in 1 MiB
    ("synth:47663x10x2", "take about 1 MiB to sample, more than the 1 MiB"),  # 1,048,586 bytes: does not
    ("synth:0x10x2", "needs at least 1 row"),
    ("synth:10x", "synthetic data sets are named synth:ROWSxATTRSxCLASSES[:seed]"),
    ("synth:99999999999999999999999x1x2", "take about"),
])
def test_synthetic_names_are_checked_where_the_config_names_them(monkeypatch, name, refused):
    """Hostile sizes and forms of a `synth:` name, at the boundary of the memory available."""
    from bncbench.errors import UserError

    monkeypatch.setenv("BNCBENCH_MEMORY", "1M")
    text = f"name: s\ndatasets: ['{name}']\nclassifiers: [NB]\n"
    if not refused:
        assert config.parse(text).datasets[0].name == name
        return
    with pytest.raises(UserError) as e:
        config.parse(text)
    assert refused in str(e.value) and "<config>:2: datasets.0" in str(e.value)


def test_aode_on_3000_columns_with_too_many_jobs_names_the_jobs_that_fit(tmp_path):
    """AODE on 3,000 binary columns with --jobs 4 and 16 GiB: three workers (3 folds) of 6.64 GiB
    (counts and AODE's own tables) do not fit, two do; the line says --jobs 2, and nothing is written."""
    wide_csv(tmp_path / "wide.csv", 3000)
    (tmp_path / "c.yaml").write_text("name: w\ndatasets:\n  - {name: wide, path: wide.csv}\ncv: {folds: 3}\n"
                                     "classifiers: [AODE]\n")
    r = bnc("run", tmp_path / "c.yaml", "--results", tmp_path / "res", "--jobs", "4", env={"BNCBENCH_MEMORY": "16G"})
    assert r.returncode == 2 and "× 3 workers at once = 19.9 GiB, more than the 16 GiB available (BNCBENCH_MEMORY); " \
                                 "run it with --jobs 2 or fewer" in r.stderr.splitlines()[-1]
    assert not (tmp_path / "res").exists()


def test_a_worker_killed_by_the_system_is_one_line_and_exit_2(tmp_path):
    """A pooled worker killed with SIGKILL (what the kernel's out-of-memory killer sends): loky's
    TerminatedWorkerError was exit 3; now one line and exit 2."""
    (tmp_path / "c.yaml").write_text("name: long\ndatasets: [iris, zoo, labor-negotiations, house-votes-84, car, "
                                     "soybean, wine]\ncv: {folds: 10, runs: 10}\n"
                                     "classifiers: [{name: KDB, k: 2}, AODE]\n")
    env = dict(os.environ, BNCBENCH_MIRROR="", **POOL)
    proc = subprocess.Popen([sys.executable, "-m", "bncbench", "run", str(tmp_path / "c.yaml"), "--results",
                             str(tmp_path / "res"), "--jobs", "2", "--quiet"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while not started and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            started = loky_workers(proc.pid)
        assert started, "no worker process started"
        time.sleep(1.0)  # the worker at work
        started = loky_workers(proc.pid) or started
        os.kill(started[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in started + loky_workers(proc.pid):  # none should be left; stop any that is
            try:
                if b"LokyProcess" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGKILL)
            except OSError:  # gone
                pass
    assert proc.returncode == 2 and one_line(err) == (
        "error: out of memory in `bncbench run` (a worker process was killed: SIGKILL, from the system's "
        "out-of-memory killer or kill -9); finished tasks are saved; run it with fewer --jobs, on fewer attributes "
        "or data sets, or on a machine with more memory"), err
