"""Benchmark (issue 40, item 3): is a data set's first fold timed like the others?

    BNCBENCH_MIRROR=../shared/uci python bench/bench_first_fold.py CONFIG [--repeat N] [--against TREE]
        [--datasets A,B] [--classifiers L1,L2]

Runs CONFIG (run 0 only is read) N times (default 5) as `bncbench run --jobs 1 --fresh --quiet` into
a new results folder, so that each data set's fold 0 is its first fit in the process, and prints
per data set and classifier the stored train time of fold 0 over the median of the other folds
of run 0 (the median of the N repetitions), then per classifier the same over all data sets: the
sum of fold 0's times over the sum of the other folds' medians. With `--against TREE` (another
checkout of bncbench, PYTHONPATH=TREE) that code runs too, alternating with this tree's, in the
same repetitions. Target (issue 40): every per-classifier ratio at most 1.25; exit status 1 if
this tree's is above.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.25


def one_run(config: str, results: Path, tree: Path, extra: list[str]) -> dict[tuple[str, str], list[float]]:
    """{(data set, label): run 0's train times in fold order} of one whole `bncbench run`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # run from the results' folder: `python -m` puts the working folder first on the import path
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(Path(config).resolve()), "--results",
                        str(results), "--jobs", "1", "--fresh", "--quiet", "--strict", *extra], check=False,
                       capture_output=True, text=True, env=env, cwd=results.parent)
    if r.returncode != 0:
        raise SystemExit(f"bncbench run {config} ({tree}) failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    from bncbench.results import open as open_results

    tasks = open_results(str(results)).tasks
    tasks = tasks[tasks["current"] & (tasks["run"] == 0)].sort_values("fold")
    groups = tasks.groupby(["dataset", "label"], sort=False)
    return {(str(k[0]), str(k[1])): [float(x) for x in g["train_time"]] for k, g in groups}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--against", metavar="TREE", help="another bncbench checkout, run alternately with this one")
    ap.add_argument("--datasets", help="only these data sets of the config (as bncbench run --datasets)")
    ap.add_argument("--classifiers", help="only these labels of the config (as bncbench run --classifiers)")
    a = ap.parse_args()
    extra = [*(["--datasets", a.datasets] if a.datasets else []),
             *(["--classifiers", a.classifiers] if a.classifiers else [])]
    trees = {"this tree": ROOT, **({"against": Path(a.against).resolve()} if a.against else {})}
    runs: dict[str, list[dict]] = {side: [] for side in trees}
    with tempfile.TemporaryDirectory(prefix="bench-first-fold-") as tmp:
        for i in range(a.repeat):
            for side, tree in trees.items():
                runs[side].append(one_run(a.config, Path(tmp) / f"{side.split()[0]}-{i}", tree, extra))
    print(f"{Path(a.config).name}{' ' + ' '.join(extra) if extra else ''}: --jobs 1, run 0; fold 0's train time "
          f"over the median of folds 1-9, median of {a.repeat} repetitions"
          f"{' alternating with ' + a.against if a.against else ''}; load average at the end "
          f"{os.getloadavg()[0]:.2f}\n")
    head = " | ".join(f"{side}: fold 0 (ms) | rest (ms) | ratio" for side in trees)
    print(f"| data set | classifier | {head} |")
    print("|---|---|" + "---|---|---|" * len(trees))
    totals: dict[str, dict[str, list[list[float]]]] = {side: {} for side in trees}
    for key in runs["this tree"][0]:
        cells = []
        for side in trees:
            first = [r[key][0] for r in runs[side]]
            rest = [statistics.median(r[key][1:]) for r in runs[side]]
            ratio = statistics.median(f / m for f, m in zip(first, rest))
            cells.append(f"{statistics.median(first) * 1000:.1f} | {statistics.median(rest) * 1000:.1f} | {ratio:.2f}")
            sums = totals[side].setdefault(key[1], [[0.0] * a.repeat, [0.0] * a.repeat])
            for i, (f, m) in enumerate(zip(first, rest)):
                sums[0][i] += f
                sums[1][i] += m
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")
    print("\n| classifier | " + " | ".join(f"{side}: Σ fold 0 / Σ rest" for side in trees) + " |")
    print("|---|" + "---|" * len(trees))
    ok = True
    for label in totals["this tree"]:
        cells = []
        for side in trees:
            f, m = totals[side][label]
            ratio = statistics.median(x / y for x, y in zip(f, m))
            ok &= side != "this tree" or ratio <= TARGET
            cells.append(f"{ratio:.2f}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
