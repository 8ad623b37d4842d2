"""Compiled kernels (issue 28): BAN's are compiled once per machine, by the driver before any worker
starts, into the user cache (or NUMBA_CACHE_DIR); a progress line says so (docs/architecture.md)."""

from __future__ import annotations

from tests.support.cli import bnc

CONFIG = """
name: bankernels
datasets: [iris, labor-negotiations]
preprocess: {missing: distinct, discretizer: mdl, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers:
  - {name: NB}
  - {name: BAN, method: tpda, label: BAN}
  - {name: BAN, method: hc, label: BAN-MDL}
"""
LINE = "compiling BAN's kernels (once per machine, a few seconds)"


def _run(tmp_path, results: str, *extra: str, env: dict | None = None):
    (tmp_path / "c.yaml").write_text(CONFIG)
    r = bnc("run", tmp_path / "c.yaml", "--results", tmp_path / results, *extra,
            env={"BNCBENCH_CACHE": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": "", **(env or {})})
    assert r.returncode == 0, r.stderr
    return r.stdout + r.stderr


def test_the_driver_compiles_once_per_cache_with_a_line(tmp_path):
    first = _run(tmp_path, "a", "--jobs", "2")
    assert first.count(LINE) == 1, first
    assert list((tmp_path / "cache" / "numba").rglob("*.nbi"))  # numba's index files, in the user cache
    again = _run(tmp_path, "b", "--jobs", "2")  # the same machine (cache): loaded, not compiled
    assert LINE not in again and "18 tasks run" in again, again


def test_quiet_and_numba_cache_dir_are_respected(tmp_path):
    out = _run(tmp_path, "a", "--quiet", env={"NUMBA_CACHE_DIR": str(tmp_path / "nc")})
    assert LINE not in out
    assert list((tmp_path / "nc").rglob("*.nbi")) and not (tmp_path / "cache" / "numba").exists()


def test_a_plan_without_tpda_compiles_nothing(tmp_path):
    (tmp_path / "c.yaml").write_text(CONFIG.replace("  - {name: BAN, method: tpda, label: BAN}\n", ""))
    r = bnc("run", tmp_path / "c.yaml", "--results", tmp_path / "r", env={"BNCBENCH_CACHE": str(tmp_path / "cache")})
    assert r.returncode == 0 and LINE not in r.stdout + r.stderr, r.stderr
    assert not (tmp_path / "cache" / "numba").exists()
