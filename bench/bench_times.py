"""Benchmark: fit and test time of a grid's classifiers in one process, against ratio targets.

    python bench/bench_times.py CONFIG [--repeat N] [--target DATASET:LABEL/BASE<=X ...]

Runs CONFIG in one process (`--jobs 1 --fresh --quiet --strict`; BNCBENCH_MIRROR or the cache
needed) N times and prints per data set and classifier the total fit and test seconds over its
folds (median of the repetitions; fit includes the fold's shared counting, as stored), then each
target: LABEL's total (fit + test) over BASE's on DATASET at most X. Exit status 1 if a target is
missed. The issues' grids:

    python bench/bench_times.py bench/configs/ait-times.yaml \
        --target letter-recog:SKDB/KDB<=10 --target adult:TAN-AIT/TAN<=4 --target adult:KDB-AIT/KDB<=4
    python bench/bench_times.py bench/configs/aode-times.yaml \
        --target adult:SR/AODE<=2 --target adult:NSR/AODE<=2 --target adult:SP+RC/AODE<=10 \
        --target adult:PAA/AODE<=10 --target adult:CAA/AODE<=10 --target adult:PAE/AODE<=10 --target adult:CAE/AODE<=10
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def one_run(config: str, results: Path) -> dict[tuple[str, str], tuple[float, float]]:
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", config, "--results", str(results), "--jobs", "1",
                        "--fresh", "--quiet", "--strict"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"bncbench run {config} failed ({r.returncode}): {r.stderr.strip()}")
    from bncbench.results import open as open_results

    tasks = open_results(str(results)).tasks
    tasks = tasks[tasks["current"]]
    sums = tasks.groupby(["dataset", "label"], sort=False)[["train_time", "test_time"]].sum()
    return {k: (float(r.train_time), float(r.test_time)) for k, r in sums.iterrows()}


def parse_target(text: str) -> tuple[str, str, str, float]:
    m = re.fullmatch(r"([^:]+):([^/]+)/(.+)<=([0-9.]+)", text)
    if not m:
        raise SystemExit(f"--target {text!r}: expected DATASET:LABEL/BASE<=X")
    return m.group(1), m.group(2), m.group(3), float(m.group(4))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--target", action="append", default=[])
    a = ap.parse_args()
    targets = [parse_target(t) for t in a.target]
    with tempfile.TemporaryDirectory(prefix="bench-times-") as tmp:
        runs = [one_run(a.config, Path(tmp) / "res") for _ in range(a.repeat)]
    med = {k: (statistics.median(r[k][0] for r in runs), statistics.median(r[k][1] for r in runs)) for k in runs[0]}
    print(f"{Path(a.config).name}: --jobs 1, median of {a.repeat} runs; seconds summed over the folds\n")
    print("| data set | classifier | fit (s) | test (s) | total (s) |")
    print("|---|---|---|---|---|")
    for (ds, label), (fit, test) in med.items():
        print(f"| {ds} | {label} | {fit:.3f} | {test:.3f} | {fit + test:.3f} |")
    ok = True
    if targets:
        print("\n| target | ratio | limit | met |")
        print("|---|---|---|---|")
    for ds, label, base, limit in targets:
        if (ds, label) not in med or (ds, base) not in med:
            raise SystemExit(f"--target {ds}:{label}/{base}: not in the results of {a.config}")
        ratio = sum(med[(ds, label)]) / sum(med[(ds, base)])
        ok &= ratio <= limit
        print(f"| {label} / {base} on {ds} (fit + test) | {ratio:.2f}x | {limit:g}x | {'yes' if ratio <= limit else 'NO'} |")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
