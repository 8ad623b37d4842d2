"""Benchmark (issue 40, item 2): the four paper grids' wall times and their costliest classifiers.

    BNCBENCH_MIRROR=../shared/uci python bench/bench_grids.py [GRID ...] [--jobs 2] [--tree TREE]
        [--keep DIR]

Runs each grid's configs as its `make` target does (stan70; ait36 and ait36-bv; aode22 and
aode22-large; kban), each as `bncbench run CONFIG --jobs J --fresh --quiet` into a new
results folder, and prints per grid the wall time of its runs and the three classifiers with the
most task-seconds (train + test time as stored, summed over the grid's configs), each config's
wall time beside it, then the total, and the sum of the four configs the issue's reference figures
timed alone (stan70, ait36, aode22, kban: without ait36-bv and aode22-large).
`--tree TREE` runs another checkout of bncbench (PYTHONPATH=TREE) instead of this one; `--keep DIR`
keeps the stores as DIR/<config> (to diff the tables of two trees). Target (issue 40): kban at most
8 minutes, the four together at most 12, with `--jobs 2` on a quiet 2-core machine; exit status 1
if missed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
GRIDS = {"stan70": ["stan70"], "ait36": ["ait36", "ait36-bv"], "aode22": ["aode22", "aode22-large"],
         "kban": ["kban"]}
TARGETS = {"kban": 8 * 60.0, "all": 12 * 60.0}


def run_config(config: str, results: Path, tree: Path, jobs: int) -> float:
    """Wall seconds of one whole `bncbench run` of configs/CONFIG.yaml into RESULTS."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    started = time.perf_counter()
    # run from the results' parent: `python -m` puts the working folder first on the import path
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(tree / "configs" / f"{config}.yaml"),
                        "--results", str(results), "--jobs", str(jobs), "--fresh", "--quiet"],
                       check=False, capture_output=True, text=True, env=env, cwd=results.parent)
    wall = time.perf_counter() - started
    if r.returncode != 0:
        raise SystemExit(f"bncbench run {config} ({tree}) failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    return wall


def task_seconds(results: Path) -> pd.Series:
    """Train + test seconds per classifier label over a store's current tasks."""
    from bncbench.results import open as open_results

    tasks = open_results(str(results)).tasks
    tasks = tasks[tasks["current"]]
    return (tasks["train_time"] + tasks["test_time"]).groupby(tasks["label"]).sum()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("grids", nargs="*", default=list(GRIDS), metavar="GRID",
                    help=f"which grids (default all: {', '.join(GRIDS)})")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tree", default=str(ROOT), help="the bncbench checkout to run (default this one)")
    ap.add_argument("--keep", metavar="DIR", help="keep the stores as DIR/<config>")
    a = ap.parse_args()
    unknown = [g for g in a.grids if g not in GRIDS]
    if unknown:
        ap.error(f"unknown grid {unknown[0]!r}; the grids: {', '.join(GRIDS)}")
    tree = Path(a.tree).resolve()
    total = 0.0
    with tempfile.TemporaryDirectory(prefix="bench-grids-") as tmp:
        base = Path(a.keep).resolve() if a.keep else Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        walls: dict[str, float] = {}
        config_walls: dict[str, float] = {}
        for grid in a.grids:
            seconds = pd.Series(dtype=float)
            for config in GRIDS[grid]:
                results = base / config
                config_walls[config] = run_config(config, results, tree, a.jobs)
                seconds = seconds.add(task_seconds(results), fill_value=0.0)
            wall = walls[grid] = sum(config_walls[c] for c in GRIDS[grid])
            total += wall
            top = seconds.sort_values(ascending=False).head(3)
            named = ", ".join(f"{label} {s:.0f}" for label, s in top.items())
            parts = " + ".join(f"{c} {config_walls[c]:.1f}" for c in GRIDS[grid]) if len(GRIDS[grid]) > 1 else ""
            print(f"{grid:7s} wall {wall:7.1f} s   task-seconds {seconds.sum():7.0f}   top: {named}"
                  + (f"   ({parts} s)" if parts else ""), flush=True)
    print(f"{'all':7s} wall {total:7.1f} s")
    if set(a.grids) == set(GRIDS):
        alone = sum(config_walls[g] for g in GRIDS)
        print(f"the issue's four configs alone ({', '.join(GRIDS)}): wall {alone:.1f} s")
    missed = [f"kban {walls['kban']:.0f} s > {TARGETS['kban']:.0f} s"] if walls.get("kban", 0) > TARGETS["kban"] else []
    if set(a.grids) == set(GRIDS) and total > TARGETS["all"]:
        missed.append(f"all {total:.0f} s > {TARGETS['all']:.0f} s")
    if missed:
        print("target missed: " + "; ".join(missed))
        raise SystemExit(1)


if __name__ == "__main__":
    main()
