"""Benchmark: fit and test time of paper 004's classifiers (issue 10 targets).

    python bench/bench_ait_times.py [--repeat N]

Runs bench/configs/ait-times.yaml (letter-recog and adult, 10-fold, paper 004's protocol) in
one process (`--jobs 1 --fresh --quiet`, BNCBENCH_MIRROR or the cache needed), N times, and
prints per data set and classifier the total fit and test seconds over the 10 folds (median
of the repetitions; fit includes the fold's shared counting, as stored). Then the targets:
SKDB within 10x KDB (k = 2) on letter-recog (the reference C++ code: 44x), TAN-AIT and
KDB-AIT within 4x their base classifier on adult.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CONFIG = Path(__file__).with_name("configs") / "ait-times.yaml"
TARGETS = [("letter-recog", "SKDB", "KDB", 10.0), ("adult", "TAN-AIT", "TAN", 4.0), ("adult", "KDB-AIT", "KDB", 4.0)]


def one_run(results: Path) -> dict[tuple[str, str], tuple[float, float]]:
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(CONFIG), "--results", str(results), "--jobs",
                        "1", "--fresh", "--quiet", "--strict"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"bncbench run {CONFIG.name} failed ({r.returncode}): {r.stderr.strip()}")
    from bncbench.results import load

    tasks = load(str(results)).tasks
    tasks = tasks[tasks["current"]]
    sums = tasks.groupby(["dataset", "label"])[["train_time", "test_time"]].sum()
    return {k: (float(r.train_time), float(r.test_time)) for k, r in sums.iterrows()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-ait-") as tmp:
        runs = [one_run(Path(tmp) / "res") for _ in range(a.repeat)]
    keys = list(runs[0])
    med = {k: (statistics.median(r[k][0] for r in runs), statistics.median(r[k][1] for r in runs)) for k in keys}
    print(f"{CONFIG.name}: 10 folds, --jobs 1, median of {a.repeat} runs; seconds summed over the folds\n")
    print("| data set | classifier | fit (s) | test (s) | total (s) |")
    print("|---|---|---|---|---|")
    for (ds, label), (fit, test) in med.items():
        print(f"| {ds} | {label} | {fit:.3f} | {test:.3f} | {fit + test:.3f} |")
    print("\n| target | ratio | limit | met |")
    print("|---|---|---|---|")
    ok = True
    for ds, label, base, limit in TARGETS:
        ratio = sum(med[(ds, label)]) / sum(med[(ds, base)])
        ok &= ratio <= limit
        print(f"| {label} / {base} on {ds} (fit + test) | {ratio:.2f}x | {limit:.0f}x | {'yes' if ratio <= limit else 'NO'} |")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
