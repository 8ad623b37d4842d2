"""Benchmark (issue 40, item 4): a small `bncbench run` as a whole process against Weka's whole JVM.

    BNCBENCH_MIRROR=../shared/uci python bench/bench_startup.py [--repeat N] [--against TREE] [DATASET]

(default: nursery, 10 repetitions; needs Weka 3.6 at /usr/share/java/weka.jar and javac.) Times, as
whole processes (wall seconds from start to exit, measured here around the subprocess): `bncbench
run` of DATASET, run 0 of configs/kban.yaml's protocol (stratified 10-fold, seed 1, missing as a
value, Weka's MDL discretisation per training fold, Laplace) with 3-BAN only (`KBAN`, k = 3), into
a new results folder each time (`--quiet`, warm data and kernel caches, Python's bytecode cached
as in an installed package, whatever PYTHONDONTWRITEBYTECODE says); and the JVM of
bench_kban_weka.py (BayesNet with the MDL hill climber) on the same folds exported as ARFF. With
`--against TREE` (another checkout of bncbench) its `bncbench run` is timed too, PYTHONPATH=TREE,
so the two code versions are compared in one run. The sides alternate within each repetition;
prints every run, the medians and each median's ratio to Weka's, of the wall seconds and of the
CPU seconds (user + system of the process and its children: on a machine other jobs share, the
CPU seconds move less than the wall; the JVM's count its compiler and collector threads). Exit
status 1 if this tree's median wall is above Weka's (the issue's target: ≤ 1×).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_kban_weka import WEKA, WEKA_CLASS, WEKA_OPTS, export

ROOT = Path(__file__).resolve().parent.parent
CONFIG = """
name: startup-bench
datasets: [{name}]
preprocess: {{missing: distinct, discretizer: mdl, mdl_method: weka, scope: fold}}
cv: {{scheme: stratified, folds: 10, runs: 1, seed: 1}}
estimator: laplace
classifiers:
  - {{name: KBAN, k: 3, kban_eval: loo, label: 3-BAN}}
"""


def _children_cpu() -> float:
    """User + system CPU seconds of the children of this process that have ended."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one subprocess from start to exit; SystemExit if it fails."""
    cpu, t = _children_cpu(), time.perf_counter()
    r = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:4])} ... failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    return wall, _children_cpu() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset", nargs="?", default="nursery")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--against", metavar="TREE", help="another bncbench checkout, timed alternately with this one")
    a = ap.parse_args()
    if not Path(WEKA).exists():
        raise SystemExit(f"needs java, javac and Weka 3.6 at {WEKA}")
    trees = {"this tree": ROOT, **({f"--against {a.against}": Path(a.against).resolve()} if a.against else {})}
    times: dict[str, list[tuple[float, float]]] = {"Weka (whole JVM)": [], **{label: [] for label in trees}}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        tmp_path = Path(tmp)
        subprocess.run(["javac", "-nowarn", "-cp", WEKA, "-d", tmp, str(ROOT / "bench/java/WekaTime.java")],
                       check=True, capture_output=True)
        out, prefix = export(a.dataset, tmp_path)
        cfg = tmp_path / "startup.yaml"
        cfg.write_text(CONFIG.format(name=a.dataset))
        weka = ["java", "-cp", f"{WEKA}:{tmp}", "WekaTime", WEKA_CLASS, str(out), prefix, "10", *WEKA_OPTS]
        # as an installed bncbench runs: Python's bytecode cached (here in the temporary folder, the
        # untimed first run writing it), whatever PYTHONDONTWRITEBYTECODE the caller has set
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        envs = {label: {**base, "PYTHONPATH": str(tree), "PYTHONPYCACHEPREFIX": f"{tmp}/pycache-{i}"}
                for i, (label, tree) in enumerate(trees.items())}
        for env in envs.values():  # once each, untimed: the data and kernel caches filled
            timed([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", f"{tmp}/warm", "--quiet",
                   "--fresh"], env, tmp)
        for i in range(a.repeat):
            times["Weka (whole JVM)"].append(timed(weka))
            for label, env in envs.items():
                results = f"{tmp}/r{i}-{len(times[label])}-{label.split()[0]}"
                # run from tmp: `python -m` puts the working folder first on the import path
                times[label].append(timed([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", results,
                                           "--quiet"], env, tmp))
    print(f"{a.dataset}, 10-fold (run 0 of configs/kban.yaml's protocol), whole-process seconds, "
          f"{a.repeat} repetitions alternating; load average at the end {os.getloadavg()[0]:.2f}\n")
    medians = {}
    for i, what in enumerate(("wall", "CPU (user + system)")):
        medians[what] = {label: statistics.median(r[i] for r in runs) for label, runs in times.items()}
        weka_median = medians[what]["Weka (whole JVM)"]
        print(f"| process | median {what} (s) | ratio to Weka | runs (s) |")
        print("|---|---|---|---|")
        for label, runs in times.items():
            median = medians[what][label]
            print(f"| {label} | {median:.3f} | {median / weka_median:.2f} | {' '.join(f'{r[i]:.2f}' for r in runs)} |")
        print()
    sys.exit(0 if medians["wall"]["this tree"] <= medians["wall"]["Weka (whole JVM)"] else 1)


if __name__ == "__main__":
    main()
