"""Benchmark: bncbench against Weka 3.6 on the same folds (exported as ARFF).

    python bench/bench_weka.py [DATASET]   (default adult; needs Weka: apt-get install weka)

Exports paper 000's folds of DATASET with `bncbench folds`, runs Weka's NaiveBayes, AODE and
BayesNet with TAN search on them (training and test time measured inside the JVM, file reading
excluded), and bncbench's NB, AODE and TAN on the same folds (fit and predict_proba time).
Prints a Markdown table.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from bncbench import config
from bncbench.classifiers import AODE, NB, TAN
from fold_timing import load_folds, time_on_folds

ROOT = Path(__file__).resolve().parent.parent
WEKA = "/usr/share/java/weka.jar"
CONFIG = """
name: weka-bench
datasets: [{name}]
preprocess: {{missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, scope: global}}
cv: {{scheme: petal, folds: 10, runs: 1, seed: 0}}
classifiers: [NB]
"""
WEKA_RUNS = [("NB", "weka.classifiers.bayes.NaiveBayes", []),
             ("AODE", "weka.classifiers.bayes.AODE", ["-F", "1", "-M", "-W", "1"]),
             ("TAN", "weka.classifiers.bayes.BayesNet",
              ["-Q", "weka.classifiers.bayes.net.search.local.TAN", "--", "-S", "BAYES", "-E",
               "weka.classifiers.bayes.net.estimate.SimpleEstimator", "--", "-A", "0.5"])]
OURS = {"NB": lambda c, k: NB(cardinalities=c, n_classes=k),
        "AODE": lambda c, k: AODE(cardinalities=c, n_classes=k),
        "TAN": lambda c, k: TAN(cardinalities=c, n_classes=k, info_precision="float32")}


def main(name: str = "adult") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cfg = tmp / "c.yaml"
        cfg.write_text(CONFIG.format(name=name))
        prefix = config.load(str(cfg)).datasets[0].name
        subprocess.run([sys.executable, "-m", "bncbench", "folds", str(cfg), "--dataset", name, "--out", str(tmp)],
                       check=True, capture_output=True)
        subprocess.run(["javac", "-cp", WEKA, "-d", str(tmp), str(ROOT / "bench/java/WekaTime.java")], check=True)
        print(f"data set: {name}, 10 folds (paper 000's protocol), times summed over the folds\n")
        print("| classifier | Weka 3.6 fit (s) | Weka test (s) | Weka ZOL | bncbench fit (s) | bncbench test (s) | bncbench ZOL |")
        print("|---|---|---|---|---|---|---|")
        folds = load_folds(tmp, prefix)
        for label, cls, opts in WEKA_RUNS:
            out = subprocess.run(["java", "-Xmx4g", "-cp", f"{WEKA}:{tmp}", "WekaTime", cls, str(tmp), prefix, "10",
                                  *opts], check=True, capture_output=True, text=True).stdout.split()
            wfit, wtest, wzol = map(float, out)
            fit, test, zol = time_on_folds(folds, OURS[label])
            print(f"| {label} | {wfit:.2f} | {wtest:.2f} | {wzol:.4f} | {fit:.2f} | {test:.2f} | {zol:.4f} |")
    print("\nWeka's NaiveBayes/AODE use Laplace / m-estimate smoothing as configured above; Weka's TAN is"
          " BayesNet's score-based TAN (not identical to §4.2), so ZOLs differ slightly.")


if __name__ == "__main__":
    main(*sys.argv[1:])
