"""With --jobs N the driver compiles the kernels the disk cache lacks in up to N processes at once, one
classifier each, then loads them as with --jobs 1; nothing is started where nothing compiles, a compile's
error ends the run as in the driver, a signal ends the compiling processes too (docs/architecture.md,
"Compiled kernels"). Each process of a run logs its start and the numba cache files it writes through a
`sitecustomize` module of the test (an audit hook: no code of bncbench's)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from bncbench import results
from tests.engine.test_signals import RUN_LINE, Run
from tests.support.cli import POOL

CONFIG = """
name: parallel-compile
datasets: [iris]
preprocess: {missing: distinct, discretizer: mdl, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
estimator: laplace
classifiers:
  - {name: NB}
  - {name: BAN, method: tpda, ban_test: x2, label: BAN}
  - {name: KBAN, k: 3, label: 3-BAN}
"""
LINE = "compiling bncbench's kernels (once per machine, a few seconds)"
SITE = """
import os, sys
_log = os.environ.get("COMPILE_TEST_LOG")
if _log:
    def _write(line):
        with open(_log, "a") as f:
            f.write(line + "\\n")

    def _hook(event, args):  # numba writes each cache file as FILE.tmp.UID, then renames it
        if event == "open" and isinstance(args[0], str) and ".tmp." in args[0]:
            name = os.path.basename(args[0].split(".tmp.")[0])
            if name.endswith((".nbi", ".nbc")):
                _write(f"cache {os.getpid()} {name}")

    _write(f"start {os.getpid()} {os.getppid()}")
    sys.addaudithook(_hook)
"""
PLUGIN = """
from bncbench.classifiers import NB


class Uncompilable(NB):
    @classmethod
    def prepare_kernels(cls, params, notify, check=False):
        if check:
            return True
        raise RuntimeError("the kernels of Uncompilable do not compile")
"""


class Logged:
    """`bncbench run` in a process whose own start, and that of every process it starts, is logged with
    the numba cache files each writes."""

    def __init__(self, tmp: Path, name: str, numba_cache: Path):
        self.log = tmp / f"{name}.log"
        site = tmp / "site"
        site.mkdir(exist_ok=True)
        (site / "sitecustomize.py").write_text(SITE)
        path = os.pathsep.join([str(site), *[p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]])
        self.env = {"PYTHONPATH": path, "COMPILE_TEST_LOG": str(self.log), "NUMBA_CACHE_DIR": str(numba_cache),
                    "BNCBENCH_CACHE": str(tmp / "cache")}

    def lines(self, kind: str) -> list[tuple[int, str]]:
        text = self.log.read_text() if self.log.exists() else ""
        return [(int(p[1]), p[2]) for p in (line.split() for line in text.splitlines()) if p[0] == kind]

    def children(self, driver: int) -> set[int]:
        return {pid for pid, parent in self.lines("start") if int(parent) == driver}

    def writers(self, *modules: str) -> set[int]:
        """The pids that wrote a cache file of a public kernel of one of `modules`."""
        return {pid for pid, name in self.lines("cache") if name.split(".")[0] in modules
                and not name.split(".")[1].startswith("_")}


def _run(tmp: Path, logged: Logged, results_dir: str, *extra: str, env: dict | None = None):
    """(exit code, stdout + stderr, the driver's pid) of `bncbench run` on CONFIG."""
    (tmp / "c.yaml").write_text(CONFIG)
    p = subprocess.Popen([sys.executable, "-m", "bncbench", "run", str(tmp / "c.yaml"), "--results",
                          str(tmp / results_dir), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "BNCBENCH_MIRROR": "", **logged.env, **(env or {})})
    out, err = p.communicate(timeout=600)
    return p.returncode, out + err, p.pid


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One run with --jobs 2 (workers started at once) and one with --jobs 1, each with an empty numba cache."""
    tmp = tmp_path_factory.mktemp("compile")
    two = Logged(tmp, "two", tmp / "nc2")
    rc, out, driver = _run(tmp, two, "two", "--jobs", "2", env=POOL)
    assert rc == 0, out
    one = Logged(tmp, "one", tmp / "nc1")
    rc1, out1, driver1 = _run(tmp, one, "one", "--jobs", "1")
    assert rc1 == 0, out1
    return tmp, (two, out, driver), (one, out1, driver1)


def test_jobs_2_compiles_each_classifier_in_its_own_process(runs):
    _, (two, out, driver), (one, _, driver1) = runs
    assert out.count(LINE) == 1, out
    ban, kban = two.writers("x2_kernels", "tpda_kernels"), two.writers("kban_kernels")
    children = two.children(driver)
    assert len(ban) == 1 and len(kban) == 1 and ban != kban, (ban, kban)
    assert ban | kban <= children, "compiled elsewhere than in processes the driver started"
    # the driver and the workers compiled nothing: only those two processes wrote to the cache
    assert {pid for pid, _ in two.lines("cache")} == ban | kban
    # with --jobs 1 the driver compiles both (what the log shows is where the compile ran)
    assert one.writers("x2_kernels", "tpda_kernels") == one.writers("kban_kernels") == {driver1}


def test_jobs_2_gives_the_results_of_jobs_1(runs):
    tmp, *_ = runs
    two, one = results.open(tmp / "two"), results.open(tmp / "one")
    a, b = two.predictions("iris"), one.predictions("iris")
    assert len(a) == 3 * 150 and set(a["label"]) == {"NB", "BAN", "3-BAN"}
    keys = ["label", "run", "fold", "row"]
    pd.testing.assert_frame_equal(a.sort_values(keys).reset_index(drop=True),
                                  b.sort_values(keys).reset_index(drop=True))


def test_nothing_is_started_where_nothing_compiles(runs, tmp_path):
    """The kernels cached: --jobs 2 on a small run starts no process (it runs in the driver) and says nothing."""
    _, (two, *_), _ = runs
    again = Logged(tmp_path, "again", Path(two.env["NUMBA_CACHE_DIR"]))
    rc, out, driver = _run(tmp_path, again, "res", "--jobs", "2")
    assert rc == 0 and LINE not in out, out
    assert again.children(driver) == set() and again.lines("cache") == []


def test_a_compile_that_fails_in_a_process_ends_the_run_as_in_the_driver(tmp_path):
    (tmp_path / "uncompilable.py").write_text(PLUGIN)
    cfg = tmp_path / "u.yaml"
    cfg.write_text("name: u\ndatasets: [iris]\ncv: {folds: 2}\nclassifiers:\n"
                   "  - {name: 'uncompilable:Uncompilable', label: U1}\n"
                   "  - {name: 'uncompilable:Uncompilable', label: U2, m: 2.0}\n")
    ends = []
    for jobs in ("1", "2"):
        run = Run("run", cfg, "--results", tmp_path / f"res{jobs}", "--quiet", "--jobs", jobs)
        rc, err, _ = run.end()
        run.signalled = time.monotonic()  # nothing may be left from here on
        run.assert_no_process_left()
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        ends.append((rc, lines[0].split(" — ")[0]))
    assert ends[0] == ends[1] == (3, "internal error: RuntimeError: the kernels of Uncompilable do not compile")


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "SIGINT"])
def test_a_signal_while_compiling_ends_the_compiling_processes(tmp_path, signum, code):
    logged = Logged(tmp_path, "log", tmp_path / "nc")
    (tmp_path / "c.yaml").write_text(CONFIG)
    run = Run("run", tmp_path / "c.yaml", "--results", tmp_path / "res", "--quiet", "--jobs", "2", env=logged.env)
    deadline = time.monotonic() + 60
    while not logged.children(run.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.5)  # into their imports or their compiles
    run.signal(signum)
    rc, err, _ = run.end()
    name = "" if signum == signal.SIGINT else f" by {signal.Signals(signum).name}"
    assert rc == code and err == f"interrupted{name}{RUN_LINE}\n", err
    run.assert_no_process_left()
    assert results.open(tmp_path / "res").tasks.empty  # it stopped before any task


CHECKS = """
import sys
from bncbench.classifiers import BAN, KBAN, NB
from bncbench.classifiers.kernels import jit

if sys.argv[1] == "compile-hc":
    BAN.prepare_kernels({"method": "hc"}, print)
asked = [BAN.prepare_kernels({"method": "tpda"}, print, check=True),
         BAN.prepare_kernels({"method": "hc"}, print, check=True),
         KBAN.prepare_kernels({}, print, check=True), KBAN.prepare_kernels({"k": 2}, print, check=True),
         NB.prepare_kernels({}, print, check=True)]
print("ASKED", asked, "COMPILED", sorted(d.py_func.__name__ for d in jit.KERNELS if d.signatures))
"""


def test_the_check_says_which_classifiers_lack_their_kernels_and_compiles_nothing(tmp_path):
    """In a process that compiled BAN-MDL's kernels (hc) into an empty cache: tpda's and 3-BAN's are
    missing, hc's are not; a second KBAN asked answers for no kernel (its module was answered for); a
    check compiles and loads nothing and says nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "nc")}
    r = subprocess.run([sys.executable, "-c", CHECKS, "compile-hc"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "ASKED [True, False, True, False, False] COMPILED " \
        "['extension_terms', 'number_extension']", r.stdout
    again = subprocess.run([sys.executable, "-c", CHECKS, "-"], capture_output=True, text=True, env=env)
    assert again.returncode == 0, again.stderr
    assert again.stdout == "ASKED [True, False, True, False, False] COMPILED []\n", again.stdout
