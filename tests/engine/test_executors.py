"""Executors: the same config gives byte-identical reports on every executor (scikit-learn
baselines too: their random_state comes from the seed, run and fold)."""

import os
import subprocess
import sys
import time

import pytest

from tests.support.cli import POOL, bnc_in

CONFIG = """
name: exec
datasets: [iris, labor-negotiations, house-votes-84, "synth:3000x6x3:2"]
preprocess: {missing: distinct, discretizer: eqfreq, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 2, seed: 1}
classifiers:
  - {name: NB}
  - {name: TAN}
  - {name: STAN, ranking: cmim, label: STAN-CMIM}
  - {name: KDB, k: 2, label: KDB2}
  - {name: AODE}
  - {name: "sklearn.ensemble:RandomForestClassifier", label: RF, n_estimators: 10}
  - {name: "sklearn.linear_model:LogisticRegression", label: LR-raw, input: raw, max_iter: 500}
"""

METRICS = ("zol", "rmse", "rmse_all", "cll", "bias", "variance", "selected")


def _reports(res, metrics=METRICS):
    out = {}
    for m in metrics:
        out[m] = bnc_in("report", res, "--metric", m, "--format", "csv", check=True).stdout
    return out


def _run(cfg, res, *extra, metrics=METRICS):
    env = dict(os.environ, BNCBENCH_MIRROR="", **POOL)  # no mirror, not even the default; --jobs 2 in workers
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(res), "--quiet", *extra],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    return _reports(res, metrics)


@pytest.mark.slow
def test_identical_reports_on_every_executor(tmp_path):
    cfg = tmp_path / "exec.yaml"
    cfg.write_text(CONFIG)
    one = _run(cfg, tmp_path / "one", "--jobs", "1")
    two = _run(cfg, tmp_path / "two", "--jobs", "2")
    dask = _run(cfg, tmp_path / "dask", "--executor", "dask", "--jobs", "2")
    assert one == two
    assert one == dask
    assert one["zol"].count("\n") == 1 + 4 * 7


def test_executor_in_config_and_bad_values(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: [iris]\nclassifiers: [NB]\ncv: {folds: 2}\nexecutor: {name: local, jobs: 2}\n")
    assert _run(cfg, tmp_path / "r", metrics=("zol",))["zol"].startswith("dataset,")
    cfg.write_text("datasets: [iris]\nclassifiers: [NB]\nexecutor: {name: spark}\n")
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "s")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "executor.name" in r.stderr and not (tmp_path / "s").exists()
    cfg.write_text("datasets: [iris]\nclassifiers: [NB]\n")
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "t"),
                        "--scheduler", "tcp://127.0.0.1:1"], capture_output=True, text=True)
    assert r.returncode == 2 and "--scheduler" in r.stderr and not (tmp_path / "t").exists()
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "u"),
                        "--jobs", "2"], capture_output=True, text=True,
                       env={**os.environ, "BNCBENCH_POOL_WORTH": "soon"})
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "BNCBENCH_POOL_WORTH='soon'" in r.stderr, r.stderr
    assert not (tmp_path / "u").exists()


def _pid_after(seconds: float, _arg: str) -> int:
    time.sleep(seconds)
    return os.getpid()


def _here_after(seconds: float, _arg: str) -> int:
    time.sleep(seconds)
    return -1


def test_small_work_stays_in_this_process_and_large_work_goes_to_the_pool(monkeypatch):
    """`--jobs 2` starts its workers only when the work left, measured on the units done, is worth it."""
    from bncbench.engine.executors import run_local

    me = os.getpid()
    monkeypatch.setenv("BNCBENCH_POOL_WORTH", "2")
    small = dict(run_local(_pid_after, [0.01] * 20, ("x",), jobs=2))  # about 0.2 s of work left at most
    assert sorted(small) == list(range(20)) and set(small.values()) == {me}
    large = dict(run_local(_pid_after, [0.3] * 12, ("x",), jobs=2))  # 3.3 s left after the first
    assert sorted(large) == list(range(12)) and large[0] == me and me not in [large[i] for i in range(1, 12)]
    here = dict(run_local(_pid_after, [0.3] * 12, ("x",), jobs=2, in_process=_here_after))
    assert here[0] == -1 and -1 not in [here[i] for i in range(1, 12)]  # the first ran as `in_process`
    monkeypatch.setenv("BNCBENCH_POOL_WORTH", "0")
    assert me not in dict(run_local(_pid_after, [0.0] * 4, ("x",), jobs=2)).values()
    assert set(dict(run_local(_pid_after, [0.3] * 4, ("x",), jobs=1)).values()) == {me}


def test_a_small_plan_says_it_ran_in_this_process(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: [iris]\nclassifiers: [NB]\ncv: {folds: 3}\n")
    env = {**os.environ, "BNCBENCH_MIRROR": ""}
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "a"),
                        "--jobs", "2"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "--jobs 2: this work was too small" in r.stderr, r.stderr
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "b"),
                        "--jobs", "2"], capture_output=True, text=True, env={**env, **POOL})
    assert r.returncode == 0 and "too small" not in r.stderr, r.stderr


_FAULTS = """
import resource, sys
import numpy as np
from bncbench.engine.executors import restore_malloc_thresholds

def faults():  # minor page faults of 100 allocations of 2 MiB
    r0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(100):
        a = np.ones(1 << 18)
        del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - r0

before = faults()
print(restore_malloc_thresholds(), restore_malloc_thresholds(), before, faults())
"""


def _glibc() -> bool:
    try:
        return sys.platform.startswith("linux") and (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError):
        return False


@pytest.mark.skipif(not _glibc(), reason="glibc's malloc only")
def test_malloc_thresholds_restored_where_the_environment_fixed_them():
    """Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which turns off glibc's
    dynamic mmap threshold: every large numpy temporary is a fresh mmap that page-faults in.
    Workers undo that once (runner.run_unit_on_worker); other processes are left alone."""
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    r = subprocess.run([sys.executable, "-c", _FAULTS], capture_output=True, text=True, env=env, check=True)
    first, second, before, after = r.stdout.split()
    assert (first, second) == ("True", "False")  # once per process
    assert int(before) > 100 * 400 and int(after) < int(before) // 10, r.stdout
    for extra in ({}, {"MALLOC_TRIM_THRESHOLD_": "65536", "MALLOC_MMAP_THRESHOLD_": "131072"}):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "GLIBC_TUNABLES"))} | extra
        r = subprocess.run([sys.executable, "-c", _FAULTS], capture_output=True, text=True, env=env, check=True)
        assert r.stdout.split()[:2] == ["False", "False"], (extra, r.stdout)  # nothing to undo / a chosen threshold


@pytest.mark.slow
@pytest.mark.skipif(not _glibc(), reason="glibc's malloc only")
def test_dask_worker_with_default_environment_gets_thresholds_back():
    """A worker started the ordinary way (Dask's default nanny environment) runs units without
    page-faulting on every large temporary once it has run one. The nanny's MALLOC_TRIM_THRESHOLD_
    is set to Dask's own default (distributed.yaml: nanny.pre-spawn-environ) so that the test does
    not depend on a Dask version or a user's Dask config leaving it out."""
    import dask
    import distributed

    from bncbench import config
    from bncbench.engine import runner

    exp = config.parse("datasets: [iris]\ncv: {folds: 2}\nclassifiers: [NB]\n")
    datasets = runner.load_available(exp, False, print)
    units, _ = runner.plan(exp, datasets)

    def faults():
        import resource

        import numpy as np

        r0 = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
        for _ in range(100):
            a = np.ones(1 << 18)
            del a
        return os.environ.get("MALLOC_TRIM_THRESHOLD_"), resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - r0

    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": 65536}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                     silence_logs=40) as cluster, distributed.Client(cluster) as client:
        trim, before = client.submit(faults, pure=False).result()
        assert trim == "65536", trim
        client.submit(runner.run_unit_on_worker, units[0], runner.PlannedData.of(datasets), exp.preprocess,
                      exp.cv, pure=False).result()
        _, after = client.submit(faults, pure=False).result()
    assert before > 100 * 400 and after < before // 10, (before, after)


def test_the_killed_pools_manager_keyerror_alone_is_quiet(monkeypatch):
    """While a pool is killed: loky's manager thread's KeyError (a unit submitted just before the
    kill) is not handed on to the thread exception hook that prints it; another thread's exception,
    or another exception of that thread, is; the hook is the previous one again after."""
    import threading

    from bncbench.engine.executors import _manager_keyerror_quiet

    seen: list[tuple[str, type]] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append((args.thread.name, args.exc_type)))
    before = threading.excepthook

    def keyerror() -> None:
        raise KeyError(8)

    def zero() -> None:
        raise ZeroDivisionError("boom")

    with _manager_keyerror_quiet():
        for target, name in ((keyerror, "ExecutorManagerThread"), (zero, "ExecutorManagerThread"), (keyerror, "other")):
            t = threading.Thread(target=target, name=name)
            t.start()
            t.join()
    assert seen == [("ExecutorManagerThread", ZeroDivisionError), ("other", KeyError)]
    assert threading.excepthook is before
