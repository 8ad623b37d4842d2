"""Benchmark (issue 40): a run's one-time compile of bncbench's kernels, with `--jobs 2` on an empty cache.

    BNCBENCH_MIRROR=../shared/uci python bench/bench_compile.py [--repeat N] [--against TREE] [--jobs J] [DATASET]

(default: iris, 3 repetitions, --jobs 2.) Times `bncbench run` of DATASET with configs/kban.yaml's
classifiers and protocol (stratified 10-fold, one run, missing as a value, Weka's MDL discretisation
per training fold, Laplace), each time with a new empty NUMBA_CACHE_DIR (as a fresh clone or a new
version has: the compiled kernels are cached per source file) and a new results folder (`--quiet`):
the wall seconds from its start to the first task stored (what the compile delays), to its exit, the
CPU seconds (user + system of the process and its children) and, from /proc read every 10 ms until the
first task is stored, the CPU critical path to it: the run's own CPU seconds until then plus the most of
any process it started (those compile side by side while it waits), which is the wall time to the first
task on an idle machine with as many cores as processes, whatever else the machine runs meanwhile (CPU
seconds move less than wall seconds when other jobs share it). With `--against TREE` (another
checkout of bncbench) its run is timed too, PYTHONPATH=TREE, alternating with this tree's (which
goes first alternates), so the two are compared under the same load; prints every run (with the
one-minute load average) and the medians.
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = """
name: compile-bench
datasets: [{name}]
preprocess: {{missing: distinct, discretizer: mdl, mdl_method: weka, scope: fold}}
cv: {{scheme: stratified, folds: 10, runs: 1, seed: 1}}
estimator: laplace
classifiers:
  - {{name: NB, label: NB}}
  - {{name: TAN, label: TAN}}
  - {{name: BAN, method: tpda, ban_test: x2, label: BAN}}
  - {{name: BAN, method: hc, label: BAN-MDL}}
  - {{name: KBAN, k: 3, kban_eval: loo, label: 3-BAN}}
"""


def _children_cpu() -> float:
    """User + system CPU seconds of the children of this process that have ended."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _stored(db: Path) -> int:
    """The tasks the results store holds (0 before it exists)."""
    try:
        with sqlite3.connect(db, timeout=1) as c:
            return c.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
    except sqlite3.Error:
        return 0


def _cpu_by_pid(root: int) -> dict[int, float]:
    """User + system CPU seconds so far of process `root` and of each process it started (those alive;
    Linux's /proc/PID/task/PID/children)."""
    out: dict[int, float] = {}
    try:
        pids = [root, *map(int, Path(f"/proc/{root}/task/{root}/children").read_text().split())]
    except OSError:  # ended meanwhile
        return out
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def timed(tree: Path, config: Path, jobs: int) -> tuple[float, float, float, float]:
    """(seconds to the first stored task, wall seconds, CPU seconds, CPU critical path to the first task)
    of one run of `tree`'s bncbench."""
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "res" / "results.sqlite"
        env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(Path(d) / "numba"))
        cpu, t = _children_cpu(), time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "bncbench", "run", str(config), "--results", str(Path(d) / "res"),
                              "--jobs", str(jobs), "--quiet"], env=env, stderr=subprocess.PIPE, text=True,
                             cwd=d)  # not a checkout's folder: `-m` would import its bncbench first
        first, seen = None, {}
        while p.poll() is None:
            if first is None:
                seen.update(_cpu_by_pid(p.pid))
                if db.exists() and _stored(db):
                    first = time.perf_counter() - t
            time.sleep(0.01)
        path = seen.get(p.pid, 0.0) + max((cpu for pid, cpu in seen.items() if pid != p.pid), default=0.0)
        wall = time.perf_counter() - t
        _, err = p.communicate()
        if p.returncode != 0:
            raise SystemExit(f"bncbench run ({tree}) failed ({p.returncode}): {err.strip()[-2000:]}")
        return wall if first is None else first, wall, _children_cpu() - cpu, path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", nargs="?", default="iris")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--against", type=Path, help="another checkout of bncbench, timed alternately")
    args = ap.parse_args()
    trees = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    times: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as d:
        config = Path(d) / "compile.yaml"
        config.write_text(CONFIG.format(name=args.dataset))
        for r in range(args.repeat):
            for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                times[name].append(timed(trees[name], config, args.jobs))
                first, wall, cpu, path = times[name][-1]
                print(f"{name:8} first task {first:6.2f} s  whole {wall:6.2f} s  CPU {cpu:6.2f} s  "
                      f"CPU path to the first task {path:6.2f} s  (load {os.getloadavg()[0]:.2f})", flush=True)
    for name, rows in times.items():
        first, wall, cpu, path = (statistics.median(col) for col in zip(*rows))
        print(f"{name:8} median of {len(rows)}: first task {first:.2f} s, whole {wall:.2f} s, CPU {cpu:.2f} s, "
              f"CPU path to the first task {path:.2f} s ({trees[name]})")


if __name__ == "__main__":
    main()
