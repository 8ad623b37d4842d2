"""Executors: the same config gives byte-identical reports on every executor."""

import os
import subprocess
import sys

import pytest

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
"""

METRICS = ("zol", "rmse", "rmse_all", "cll", "bias", "variance", "selected")


def _reports(res, metrics=METRICS):
    out = {}
    for m in metrics:
        r = subprocess.run([sys.executable, "-m", "bncbench", "report", str(res), "--metric", m, "--format", "csv"],
                           capture_output=True, text=True, check=True)
        out[m] = r.stdout
    return out


def _run(cfg, res, *extra, metrics=METRICS):
    env = {k: v for k, v in os.environ.items() if k != "BNCBENCH_MIRROR"}
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
    assert one["zol"].count("\n") == 1 + 4 * 5


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
