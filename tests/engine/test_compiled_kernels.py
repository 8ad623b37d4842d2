"""Compiled kernels (issue 28): the BAN family's are compiled once per machine, by the driver before any worker
starts, into the user cache (or NUMBA_CACHE_DIR); a progress line says so (docs/architecture.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.cli import POOL, bnc

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
ROOT = Path(__file__).resolve().parents[2]
LINE = "compiling bncbench's kernels (once per machine, a few seconds)"


def _run(tmp_path, results: str, *extra: str, env: dict | None = None):
    (tmp_path / "c.yaml").write_text(CONFIG)
    r = bnc("run", tmp_path / "c.yaml", "--results", tmp_path / results, *extra,
            env={"BNCBENCH_CACHE": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": "", **POOL, **(env or {})})
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


def test_a_plan_without_ban_compiles_nothing(tmp_path):
    (tmp_path / "c.yaml").write_text(CONFIG.replace("  - {name: BAN, method: tpda, label: BAN}\n", "")
                                     .replace("  - {name: BAN, method: hc, label: BAN-MDL}\n", ""))
    r = bnc("run", tmp_path / "c.yaml", "--results", tmp_path / "r", env={"BNCBENCH_CACHE": str(tmp_path / "cache")})
    assert r.returncode == 0 and LINE not in r.stdout + r.stderr, r.stderr
    assert not (tmp_path / "cache" / "numba").exists()


FITS_AFTER_PREPARE = """
import numpy as np
from bncbench.classifiers import BAN, KBAN
from bncbench.classifiers.kernels import jit
from bncbench.config import load
from bncbench.engine.units import preprocessed_fold

BAN.prepare_kernels({"method": "tpda"}, print)
BAN.prepare_kernels({"method": "hc"}, print)
KBAN.prepare_kernels({}, print)
before = {d.py_func.__name__: list(d.signatures) for d in jit.KERNELS}
exp = load("configs/kban.yaml")
specs = {d.name: d for d in exp.datasets}
for name in ("labor-negotiations", "zoo", "hepatitis"):
    p = preprocessed_fold(specs[name], exp.preprocess, exp.cv, 0, 0)
    kw = dict(estimator="laplace", cardinalities=p.encoded.cardinalities, n_classes=len(p.dataset.classes))
    for clf in (BAN(method="tpda", ban_test="x2", **kw), BAN(method="hc", **kw), KBAN(k=3, kban_eval="loo", **kw)):
        clf.fit(p.encoded.X_train, p.dataset.y[p.train])
after = {d.py_func.__name__: list(d.signatures) for d in jit.KERNELS}
print("NEW", sorted(k for k in after if after[k] != before.get(k)))
"""


def test_prepared_kernels_cover_a_fit(tmp_path, mirror):
    """The types `prepare_kernels` compiles are those real fits call with: a worker that fits BAN,
    BAN-MDL and 3-BAN on real data after the driver prepared compiles nothing (else every worker
    would); one line for the three."""
    r = subprocess.run([sys.executable, "-c", FITS_AFTER_PREPARE], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "nc"), "BNCBENCH_MIRROR": str(mirror)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.count(LINE) == 1 and "NEW []" in r.stdout, r.stdout


WRAPPER_FITS_AFTER_PREPARE = """
from bncbench.classifiers import CAA, CAE
from bncbench.classifiers.kernels import jit
from bncbench.config import load
from bncbench.engine.units import preprocessed_fold

CAA.prepare_kernels({}, print)
CAE.prepare_kernels({}, print)
before = {d.py_func.__name__: list(d.signatures) for d in jit.KERNELS}
exp = load("configs/aode22.yaml")
specs = {d.name: d for d in exp.datasets}
for name in ("labor-negotiations", "zoo"):
    p = preprocessed_fold(specs[name], exp.preprocess, exp.cv, 0, 0)
    kw = dict(estimator="laplace", cardinalities=p.encoded.cardinalities, n_classes=len(p.dataset.classes))
    for clf in (CAA(**kw), CAE(**kw)):
        clf.fit(p.encoded.X_train, p.dataset.y[p.train])
after = {d.py_func.__name__: list(d.signatures) for d in jit.KERNELS}
print("NEW", sorted(k for k in after if after[k] != before.get(k)), sorted(before))
"""


def test_prepared_wrapper_kernel_covers_a_fit(tmp_path, mirror):
    """CAA and CAE (issue 40): the driver's `prepare_kernels` compiles the leave-one-out engine's kernel for the
    types real fits call it with (one line), so that a worker compiles nothing."""
    r = subprocess.run([sys.executable, "-c", WRAPPER_FITS_AFTER_PREPARE], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "nc"), "BNCBENCH_MIRROR": str(mirror)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.count(LINE) == 1 and "NEW [] ['child_sums']" in r.stdout, r.stdout
