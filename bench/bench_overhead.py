"""Benchmark (issue 40, item 1): a run's CPU outside the classifiers' fit and predict, stage by stage.

    BNCBENCH_MIRROR=../shared/uci python bench/bench_overhead.py CONFIG [--datasets A,B] [--classifiers NB,TAN]
        [--runs R] [--repeat N] [--against TREE]

Runs CONFIG (its first R runs, default 1; the data sets and classifiers named, default all) as one
`bncbench run --jobs 1 --fresh --quiet` in this process and prints the run's CPU seconds against
the stored train + test seconds (which include the fold's shared counting once per classifier),
and the CPU seconds (of the thread that ran them) of each stage around the fits: loading, the
fold's split, MDL or equal-frequency cuts, the encoding, the shared counting, the warm-up, the
whole of `fit_fold` (fit, predict and what the task reports), the stored form (codec) and the store's
write (on the writer thread). `--against TREE` then runs the same command as a whole process,
alternating this tree and TREE (PYTHONPATH), N times each, and prints the median user + system CPU
seconds of each (`/usr/bin/time`-like, from `resource`).
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def subset_config(config: str, runs: int, folder: Path) -> Path:
    """CONFIG with `runs:` set to RUNS, written into FOLDER (the rest as it is)."""
    text = Path(config).read_text()
    out = folder / Path(config).name
    out.write_text(re.sub(r"runs: *\d+", f"runs: {runs}", text, count=1))
    return out


def staged(config: Path, datasets: str | None, classifiers: str | None) -> None:
    """One run in this process with a CPU timer on each stage; the figures printed."""
    gc.disable()  # as `bncbench run` does until the runner settles
    from bncbench import config as cfg
    from bncbench.cli.common import split
    from bncbench.engine import codec, runner, store, units
    from bncbench.preprocess import encode
    from bncbench.results import open as open_results

    seconds: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)

    def timed(owner, name: str, label: str) -> None:
        fn = getattr(owner, name)

        @functools.wraps(fn)
        def wrapper(*a, **k):
            t = time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                seconds[label] += time.thread_time() - t
                calls[label] += 1
        setattr(owner, name, wrapper)

    for owner, name, label in [
            (runner, "planned_dataset", "data set of the unit (planned_dataset)"),
            (runner, "warm_up", "warm-up (its preprocessing and fits)"),
            (units, "split", "fold split"), (encode, "dataset_matrix", "data set matrix"),
            (encode, "fit_cuts", "discretiser fit (cuts)"), (encode, "encode_rows", "encoding (codes)"),
            (units, "fold_counts", "shared counting (in each train time)"),
            (units.BayesNetEntry, "fit_fold", "fit_fold: fits, predictions, info, structure"),
            (store.EncodedOutput, "of", "stored form (codec) [writer]"),
            (codec, "instance_sums", "  of which metric sums [writer]"),
            (store.Store, "put_many", "store write, with the stored form [writer]")]:
        timed(owner, name, label)
    exp = cfg.load(str(config)).subset(datasets=split(datasets), classifiers=split(classifiers))
    with tempfile.TemporaryDirectory(prefix="bench-overhead-") as tmp:
        c0 = time.process_time()
        runner.run(exp, tmp, jobs=1, fresh=True, quiet=True, log=lambda line: None)
        cpu = time.process_time() - c0
        gc.enable()
        tasks = open_results(tmp).tasks
    stored = (tasks["train_time"] + tasks["test_time"]).groupby(tasks["label"]).sum()
    print(f"{config.name}: {len(tasks)} tasks, --jobs 1; run CPU {cpu:.2f} s; stored train + test (wall clock) "
          f"{float(stored.sum()):.2f} s: " + ", ".join(f"{k} {v:.2f}" for k, v in stored.items()))
    print("\n| stage | CPU s | calls |\n|---|---:|---:|")
    for label, s in seconds.items():
        print(f"| {label} | {s:.3f} | {calls[label]} |")


def whole(tree: Path, config: Path, datasets: str | None, classifiers: str | None) -> float:
    """User + system CPU seconds of one whole `bncbench run` process of TREE."""
    cmd = [sys.executable, "-m", "bncbench", "run", str(config), "--jobs", "1", "--fresh", "--quiet"]
    cmd += [f"--datasets={datasets}"] if datasets else []
    cmd += [f"--classifiers={classifiers}"] if classifiers else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix="bench-overhead-") as tmp:
        r = subprocess.run([*cmd, "--results", str(Path(tmp) / "res")], capture_output=True, text=True, cwd=tmp,
                           env={**os.environ, "PYTHONPATH": str(tree)}, check=False)
    if r.returncode != 0:
        raise SystemExit(f"bncbench run ({tree}) failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("--datasets")
    ap.add_argument("--classifiers")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", metavar="TREE")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-overhead-") as tmp:
        config = subset_config(a.config, a.runs, Path(tmp))
        if not a.against:
            staged(config, a.datasets, a.classifiers)
            return
        trees = {"this tree": ROOT, "against": Path(a.against).resolve()}
        cpu: dict[str, list[float]] = {k: [] for k in trees}
        for _ in range(a.repeat):
            for name, tree in trees.items():
                cpu[name].append(whole(tree, config, a.datasets, a.classifiers))
        print(f"{config.name}, runs {a.runs}, --jobs 1, whole process user + system CPU s "
              f"(median of {a.repeat}, alternating; load average {os.getloadavg()[0]:.1f} at the end):")
        for name, values in cpu.items():
            runs = " ".join(f"{v:.2f}" for v in values)
            print(f"  {name} ({trees[name]}): {statistics.median(values):.2f}  ({runs})")


if __name__ == "__main__":
    main()
