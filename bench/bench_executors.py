"""Benchmark: throughput of the executors on one grid (tasks = data set × classifier × run × fold).

    python bench/bench_executors.py [CONFIG]

Runs the grid's units through `local` with 1 and 2 jobs (process pool start included) and
through a running Dask LocalCluster with 1 and 2 single-threaded workers (throughput once the
cluster is up); prints wall time and tasks per second. Nothing is written to a results store.
"""

import sys
import time
from pathlib import Path

from bncbench import config
from bncbench.engine.executors import execute, local_cluster
from bncbench.engine.runner import PlannedData, load_available, plan, run_unit_on_worker

DEFAULT = Path(__file__).with_name("configs") / "grid80.yaml"


def main(cfg: str = str(DEFAULT)) -> None:
    exp = config.load(cfg)
    datasets = load_available(exp, True, print)
    units, _ = plan(exp, datasets)
    n_tasks = sum(len(u.keys) for u in units)
    args = (PlannedData.of(datasets), exp.preprocess, exp.cv)
    print(f"grid: {cfg} — {n_tasks} tasks in {len(units)} units\n")
    print("| executor | workers | wall (s) | tasks/s | speed-up |")
    print("|---|---|---|---|---|")
    base = {}
    for name in ("local", "dask"):
        for jobs in (1, 2):
            cluster = local_cluster(jobs) if name == "dask" else None
            scheduler = cluster.scheduler_address if cluster else None
            t = time.perf_counter()
            done = sum(1 for _ in execute(name, run_unit_on_worker, units, args, jobs, scheduler))
            wall = time.perf_counter() - t
            if cluster:
                cluster.close()
            assert done == len(units)
            base.setdefault(name, wall)
            print(f"| {name} | {jobs} | {wall:.1f} | {n_tasks / wall:.2f} | {base[name] / wall:.2f}× |")


if __name__ == "__main__":
    main(*sys.argv[1:])
