"""Benchmark (issues 12 and 20): 3-BAN, BAN and BAN-MDL against Weka 3.6's BayesNet hill climber on the same folds.

    BNCBENCH_MIRROR=../shared/uci python bench/bench_kban_weka.py [--repeat N] [--xmx SIZE] [DATASET ...]

(default: adult nursery, 3 repetitions, the JVM's own heap limit; needs Weka 3.6 at
/usr/share/java/weka.jar and javac.) Exports the 10 folds of each DATASET with `bncbench folds`
under paper 002's protocol (configs/kban.yaml: missing as a value, Weka's MDL discretisation
fitted per training fold, stratified 10-fold, seed 1; run 0 only), so Weka and bncbench see the
same discretised training and test sets. Weka: `weka.classifiers.bayes.BayesNet -Q
weka.classifiers.bayes.net.search.local.HillClimber -- -P 4 -S MDL -E
weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5` (initial structure naive Bayes, at
most 4 parents counting the class, MDL score, no arc reversal, ADTree on), training and test time
measured inside the JVM by bench/java/WekaTime.java (file reading excluded), peak RSS of the JVM
by /usr/bin/time -v when present. bncbench, in this one process: KBAN(k=3), BAN(method="tpda")
(the X² test, `ban_test: x2`, as configs/kban.yaml runs it) and BAN(method="hc"), all with estimator="laplace" and otherwise the defaults configs/kban.yaml uses,
fit and predict_proba time summed over the 10 folds. Each row shows the repetition whose total
(fit + test) is the median of N (Weka and bncbench alternate per data set). Targets, on every data
set: BAN-MDL and BAN (fit + test) ≤ 0.5 × Weka's (issue 20 for BAN), 3-BAN ≤ 1 ×. Prints Markdown tables; exit status
1 if a target is missed.
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bncbench import config
from bncbench.classifiers import BAN, KBAN
from bncbench.errors import UserError
from fold_timing import load_folds, time_on_folds

ROOT = Path(__file__).resolve().parent.parent
WEKA = "/usr/share/java/weka.jar"
CONFIG = """
name: kban-weka-bench
datasets: [{name}]
preprocess: {{missing: distinct, discretizer: mdl, mdl_method: weka, scope: fold}}
cv: {{scheme: stratified, folds: 10, runs: 1, seed: 1}}
estimator: laplace
classifiers: [NB]
"""
WEKA_CLASS = "weka.classifiers.bayes.BayesNet"
WEKA_OPTS = ["-Q", "weka.classifiers.bayes.net.search.local.HillClimber", "--", "-P", "4", "-S", "MDL",
             "-E", "weka.classifiers.bayes.net.estimate.SimpleEstimator", "--", "-A", "0.5"]
OURS = {"3-BAN": lambda c, k: KBAN(k=3, estimator="laplace", cardinalities=c, n_classes=k),
        "BAN": lambda c, k: BAN(method="tpda", ban_test="x2", estimator="laplace", cardinalities=c, n_classes=k),
        "BAN-MDL": lambda c, k: BAN(method="hc", estimator="laplace", cardinalities=c, n_classes=k)}
TARGETS = {"BAN-MDL": 0.5, "BAN": 0.5, "3-BAN": 1.0}


def export(name: str, tmp: Path) -> tuple[Path, str]:
    """Write DATASET's folds as ARFF under tmp/name; return the directory and the files' prefix."""
    out = tmp / name
    cfg = tmp / f"{name}.yaml"
    cfg.write_text(CONFIG.format(name=name))
    try:
        prefix = config.load(str(cfg)).datasets[0].name
    except UserError as e:
        raise SystemExit(f"{name}: {e}") from None
    r = subprocess.run([sys.executable, "-m", "bncbench", "folds", str(cfg), "--dataset", name, "--runs", "1",
                        "--out", str(out)], check=False, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"bncbench folds {name} failed ({r.returncode}): {r.stderr.strip()}")
    return out, prefix


def run_weka(out: Path, prefix: str, classes: Path, xmx: str) -> tuple:
    """One JVM over the 10 folds: (fit s, test s, ZOL, peak RSS in MB, whole JVM's wall s, its
    user + system CPU s); the last three None without /usr/bin/time."""
    cmd = ["java", *([f"-Xmx{xmx}"] if xmx else []), "-cp", f"{WEKA}:{classes}", "WekaTime", WEKA_CLASS,
           str(out), prefix, "10", *WEKA_OPTS]
    timed = Path("/usr/bin/time").exists()
    if timed:
        cmd = ["/usr/bin/time", "-v", *cmd]
    r = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"Weka failed ({r.returncode}) on {prefix}: {r.stderr.strip()[-2000:]}")
    fit, test, zol = map(float, r.stdout.split())
    rss = wall = cpu = None
    if timed:
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
        rss = int(m.group(1)) / 1024 if m else None
        u = re.search(r"User time \(seconds\): ([0-9.]+)", r.stderr)
        s = re.search(r"System time \(seconds\): ([0-9.]+)", r.stderr)
        cpu = float(u.group(1)) + float(s.group(1)) if u and s else None
        e = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([0-9:.]+)", r.stderr)
        if e:
            wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(e.group(1).split(":"))))
    return fit, test, zol, rss, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("datasets", nargs="*", default=["adult", "nursery"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--xmx", default="", help="the JVM's -Xmx, e.g. 1g (default: the JVM's own limit)")
    a = ap.parse_args()
    if shutil.which("java") is None or shutil.which("javac") is None or not Path(WEKA).exists():
        raise SystemExit(f"needs java, javac and Weka 3.6 at {WEKA}")
    weka: dict[str, list[tuple]] = {}
    ours: dict[tuple[str, str], list[tuple]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-kban-weka-") as tmp:
        tmp = Path(tmp)
        subprocess.run(["javac", "-nowarn", "-cp", WEKA, "-d", str(tmp), str(ROOT / "bench/java/WekaTime.java")],
                       check=True, capture_output=True)
        data = {}
        for name in a.datasets:
            out, prefix = export(name, tmp)
            data[name] = (out, prefix, load_folds(out, prefix))
        for _ in range(a.repeat):
            for name, (out, prefix, folds) in data.items():
                weka.setdefault(name, []).append(run_weka(out, prefix, tmp, a.xmx))
                for label in OURS:
                    ours.setdefault((name, label), []).append(time_on_folds(folds, OURS[label]))
    heap = f"-Xmx{a.xmx}" if a.xmx else "default -Xmx"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def med(runs: list[tuple]) -> tuple:
        """The repetition whose fit + test is the median (the lower one for an even count)."""
        total = statistics.median_low(r[0] + r[1] for r in runs)
        return next(r for r in runs if r[0] + r[1] == total)

    print(f"10-fold (paper 002's protocol, run 0), seconds summed over the folds, the median "
          f"of {a.repeat} repetitions by total; Weka: BayesNet {' '.join(WEKA_OPTS)}, {heap}\n")
    print("| data set | classifier | fit (s) | test (s) | total (s) | ratio to Weka | ZOL |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    verdicts = []
    for name in a.datasets:
        w = med(weka[name])
        wtotal = w[0] + w[1]
        print(f"| {name} | Weka BayesNet HillClimber MDL | {w[0]:.2f} | {w[1]:.2f} | {wtotal:.2f} | 1.00 "
              f"| {w[2]:.4f} |")
        for label in OURS:
            r = med(ours[(name, label)])
            total = r[0] + r[1]
            ratio = total / wtotal
            met = ratio <= TARGETS[label]
            ok &= met
            verdicts.append((name, label, ratio, TARGETS[label], met))
            print(f"| {name} | {label} | {r[0]:.2f} | {r[1]:.2f} | {total:.2f} | {ratio:.2f} | {r[2]:.4f} |")
    print()
    for name in a.datasets:
        w = med(weka[name])
        rss = [r[3] for r in weka[name] if r[3] is not None]
        print(f"Weka on {name}: peak RSS of the JVM {max(rss):.0f} MB (max over the runs; {heap}); the median "
              f"run's whole JVM (start and ARFF reading included): wall {w[4]:.2f} s, CPU {w[5]:.2f} s" if rss
              else f"Weka on {name}: peak RSS not measured (no /usr/bin/time); {heap}")
    print(f"bncbench (this process, all data sets and classifiers, ARFF parsing included): peak RSS {peak:.0f} MB")
    print("\n| target | ratio | limit | met |")
    print("|---|---|---|---|")
    for name, label, ratio, limit, met in verdicts:
        print(f"| {label} / Weka on {name} (fit + test) | {ratio:.2f}x | {limit:g}x | {'yes' if met else 'NO'} |")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
