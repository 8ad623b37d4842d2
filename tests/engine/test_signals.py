"""SIGTERM and SIGHUP end a run like Ctrl-C (docs/cli.md: Exit codes): one line, the finished
tasks saved, every worker process stopped within seconds, exit 128 + the signal's number; the
resumed run's report is byte-identical to an uninterrupted run's."""

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.cli.test_cli import wait_for_tasks
from tests.support.cli import POOL, SMALL, bnc_in, run_store

BIG = SMALL.replace("runs: 2", "runs: 12").replace("folds: 3", "folds: 5")  # 540 tasks: still running when signalled
RUN_LINE = ": finished tasks are saved; run the same command again to resume"
GONE_WITHIN = 5.0  # seconds after the signal


def _tagged(tag: str) -> list[str]:
    """The live processes (not zombies) started with BNCBENCH_TEST_TAG=tag: the driver and all it
    started, also once the driver is gone and they were handed to init."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if f"BNCBENCH_TEST_TAG={tag}".encode() not in (proc / "environ").read_bytes():
                continue
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z":
                found.append(f"{proc.name} {(proc / 'cmdline').read_bytes()[:120]!r}")
        except OSError:  # gone meanwhile, or not ours
            continue
    return found


def _catches_sigterm(pid: int) -> bool:
    """The process handles SIGTERM: bncbench's main has started (SigCgt in /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return bool(int(status.split("SigCgt:")[1].split()[0], 16) & (1 << (signal.SIGTERM - 1)))


class Run:
    """`bncbench ARGS` started in a subprocess whose every process carries a tag in its environment."""

    def __init__(self, *args, env: dict | None = None, group: bool = False, hup_ignored: bool = False):
        self.tag = uuid.uuid4().hex
        # BNCBENCH_DEBUG off: the one-line messages are what these tests read
        environ = dict(os.environ, BNCBENCH_MIRROR="", BNCBENCH_DEBUG="", BNCBENCH_TEST_TAG=self.tag, **(env or {}))

        def child() -> None:  # the default actions, as a terminal gives them (`make test &` ignores
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # SIGINT, `nohup make test` SIGHUP)
            signal.signal(signal.SIGHUP, signal.SIG_IGN if hup_ignored else signal.SIG_DFL)  # ignored: as under nohup

        self.proc = subprocess.Popen([sys.executable, "-m", "bncbench", *map(str, args)], env=environ,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=group,
                                     preexec_fn=child)  # noqa: PLW1509  # the test starts no thread
        self.signalled = 0.0

    def signal(self, signum: int, group: bool = False) -> None:
        self.signalled = self.signalled or time.monotonic()
        if group:
            os.killpg(self.proc.pid, signum)
        else:
            self.proc.send_signal(signum)

    def end(self) -> tuple[int, str, float]:
        """Exit code, stderr, and the seconds from the signal until both pipes saw EOF (no process
        left holding them: what a reader of `bncbench run ... | cat` waits for)."""
        _, err = self.proc.communicate(timeout=60)
        return self.proc.returncode, err, time.monotonic() - self.signalled

    def assert_no_process_left(self) -> None:
        while _tagged(self.tag) and time.monotonic() - self.signalled < GONE_WITHIN:
            time.sleep(0.05)
        left = _tagged(self.tag)
        assert not left, f"processes alive {GONE_WITHIN} s after the signal:\n" + "\n".join(left)


def _report(res: Path) -> str:
    return "".join(bnc_in("report", res, "--metric", m, "--format", "csv", check=True).stdout for m in ("zol", "cll"))


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """The config, and the report of its uninterrupted run."""
    whole = run_store(tmp_path_factory, "signals", BIG)
    return whole.parent / "config.yaml", _report(whole)


def _interrupt_and_resume(big, tmp_path, signum: int, code: int, *extra: str, group: bool = False) -> None:
    cfg, whole = big
    res = tmp_path / "res"
    run = Run("run", cfg, "--results", res, "--quiet", "--jobs", "2", *extra, env=POOL, group=group)
    assert wait_for_tasks(res / "results.sqlite", 10) >= 10
    run.signal(signum, group=group)
    rc, err, eof = run.end()
    name = "" if signum == signal.SIGINT else f" by {signal.Signals(signum).name}"
    assert rc == code and err == f"interrupted{name}{RUN_LINE}\n", err
    assert eof < GONE_WITHIN, f"the pipes stayed open {eof:.1f} s after the signal"
    run.assert_no_process_left()
    again = bnc_in("run", cfg, "--results", res, "--quiet", check=True)
    assert again.stderr == ""
    assert _report(res) == whole


def test_sigterm_stops_a_pooled_run_and_its_workers_and_the_run_resumes(big, tmp_path):
    _interrupt_and_resume(big, tmp_path, signal.SIGTERM, 143)


@pytest.mark.slow
@pytest.mark.parametrize("signum, code", [(signal.SIGHUP, 129), (signal.SIGINT, 130)], ids=["SIGHUP", "SIGINT"])
def test_sighup_and_ctrl_c_stop_a_pooled_run_and_its_workers(big, tmp_path, signum, code):
    _interrupt_and_resume(big, tmp_path, signum, code)


@pytest.mark.slow
def test_sigterm_stops_the_dask_local_cluster(big, tmp_path):
    _interrupt_and_resume(big, tmp_path, signal.SIGTERM, 143, "--executor", "dask")


@pytest.mark.slow
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_to_the_whole_process_group(big, tmp_path, signum, code):
    """As a terminal's hangup or `kill -TERM -PGID` does: workers and helpers get it too."""
    _interrupt_and_resume(big, tmp_path, signum, code, group=True)


def test_a_second_signal_while_stopping_is_ignored(big, tmp_path):
    cfg, _ = big
    res = tmp_path / "res"
    run = Run("run", cfg, "--results", res, "--quiet", "--jobs", "2", env=POOL)
    wait_for_tasks(res / "results.sqlite", 10)
    run.signal(signal.SIGTERM)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        time.sleep(0.02)
        if run.proc.poll() is None:
            run.signal(signum)
    rc, err, _ = run.end()
    assert rc == 143 and err == f"interrupted by SIGTERM{RUN_LINE}\n", err
    run.assert_no_process_left()


def test_sigterm_while_the_pool_starts(big, tmp_path):
    cfg, _ = big
    run = Run("run", cfg, "--results", tmp_path / "res", "--quiet", "--jobs", "2", env=POOL)
    deadline = time.monotonic() + 60
    while len(_tagged(run.tag)) < 2 and time.monotonic() < deadline:  # the first process the driver starts
        time.sleep(0.005)
    run.signal(signal.SIGTERM)
    rc, err, _ = run.end()
    assert rc == 143 and err == f"interrupted by SIGTERM{RUN_LINE}\n", err
    run.assert_no_process_left()


def test_sigterm_while_loading_the_data_writes_nothing(tmp_path):
    rows = "".join(f"{i % 97 / 7:.3f},{i % 13},{'xyz'[i % 3]}\n" for i in range(300_000))  # seconds to read
    (tmp_path / "mine.csv").write_text("a,b,class\n" + rows)
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: c\ndatasets: [{name: mine, path: mine.csv}]\nclassifiers: [NB]\ncv: {folds: 2}\n")
    run = Run("run", cfg, "--results", tmp_path / "res")
    while not _catches_sigterm(run.proc.pid) and run.proc.poll() is None:
        time.sleep(0.005)
    time.sleep(0.5)  # past the command line, into the data
    run.signal(signal.SIGTERM)
    rc, err, _ = run.end()
    assert rc == 143 and err == f"interrupted by SIGTERM{RUN_LINE}\n", err
    assert not (tmp_path / "res").exists()


def test_nohup_keeps_sighup_ignored(big, tmp_path):
    cfg, _ = big
    res = tmp_path / "res"
    run = Run("run", cfg, "--results", res, "--quiet", "--jobs", "2", env=POOL, hup_ignored=True)
    wait_for_tasks(res / "results.sqlite", 10)
    run.proc.send_signal(signal.SIGHUP)
    time.sleep(0.3)
    if run.proc.poll() is None:  # still running, as it should be (unless it just finished)
        run.signal(signal.SIGTERM)
        rc, err, _ = run.end()
        assert rc == 143 and err == f"interrupted by SIGTERM{RUN_LINE}\n", err
        run.assert_no_process_left()
    else:
        rc, err, _ = run.end()
        assert rc == 0 and err == "", err  # the run finished: the SIGHUP did not end it


@pytest.fixture(scope="module")
def small_results(tmp_path_factory):
    return run_store(tmp_path_factory, "small", SMALL)


def test_sigterm_ends_report_in_one_line_leaving_no_file(small_results, tmp_path):
    out = tmp_path / "out"
    run = Run("report", small_results, "--format", "html", "--out", out / "report.html")
    while not _catches_sigterm(run.proc.pid) and run.proc.poll() is None:
        time.sleep(0.005)
    run.signal(signal.SIGTERM)
    rc, err, _ = run.end()
    assert rc == 143 and err == "interrupted by SIGTERM\n", err
    assert not out.exists() or not any(out.iterdir())  # no report, no part of one


def test_a_reader_that_goes_away_gets_no_traceback(small_results):
    """`bncbench report RESULTS | head -0`: the pipe is closed before the report is written."""
    read, write = os.pipe()
    os.close(read)
    try:
        r = subprocess.run([sys.executable, "-m", "bncbench", "report", str(small_results)], stdout=write,
                           stderr=subprocess.PIPE, text=True, env=dict(os.environ, BNCBENCH_MIRROR=""))
    finally:
        os.close(write)
    assert "Traceback" not in r.stderr and "Error" not in r.stderr, r.stderr
    assert r.returncode == 1
