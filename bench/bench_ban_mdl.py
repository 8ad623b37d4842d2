"""Benchmark (issue 40, item 1): BAN-MDL's fit + predict CPU per fold on kban's folds, against another tree.

    BNCBENCH_MIRROR=../shared/uci python bench/bench_ban_mdl.py [DATASET ...] [--folds F] [--repeat N]
        [--against TREE]

For each data set (default: the ones with most BAN-MDL time in kban), folds 0..F−1 of run 0 of
configs/kban.yaml, preprocessed as the engine does, are fitted by `BAN(method="hc")` once untimed and
once timed (fit + predict_proba, CPU seconds); printed: the mean per fold. With `--against TREE` each
repetition runs this tree and TREE (PYTHONPATH) in turn in their own processes, prints the median of
N per data set, and checks that both found the same parents, info and probabilities bit for bit.
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ["spambase", "kr-vs-kp", "thyroid", "splice-c4.5", "satellite", "mushrooms", "hypothyroid", "sonar",
       "syncon", "cylinder-bands", "chess", "lung-cancer", "zoo"]


def fit_predict(ban: type, enc, y, counts, n_classes: int):
    """BAN-MDL fitted on a fold's training codes (with its counts) and its test probabilities."""
    clf = ban(method="hc", estimator="laplace", cardinalities=enc.cardinalities, n_classes=n_classes)
    clf.fit(enc.X_train, y, counts=counts)
    return clf, clf.predict_proba(enc.X_test)


def measure(names: list[str], folds: int) -> dict:
    """{data set: ms per fold, (data set, fold): (parents, info, probability bytes)} of this process's code."""
    from bncbench.classifiers.ban.ban import BAN
    from bncbench.config import load
    from bncbench.engine.units import fit_counts, preprocessed_fold

    exp = load(str(ROOT / "configs" / "kban.yaml"))
    specs = {d.name: d for d in exp.datasets}
    out: dict = {}
    for name in names:
        spent = 0.0
        for fold in range(folds):
            p = preprocessed_fold(specs[name], exp.preprocess, exp.cv, 0, fold)
            enc, ds, y = p.encoded, p.dataset, p.dataset.y[p.train]
            counts = fit_counts(enc.X_train, y, enc.cardinalities, ds.n_classes, False)

            fit_predict(BAN, enc, y, counts, ds.n_classes)  # untimed: the kernels loaded, the memory touched
            t = time.process_time()
            clf, proba = fit_predict(BAN, enc, y, counts, ds.n_classes)
            spent += time.process_time() - t
            out[name, fold] = (clf.parents_, clf.info_, proba.tobytes())
        out[name] = spent / folds * 1000
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("datasets", nargs="*", default=TOP)
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", metavar="TREE")
    ap.add_argument("--dump", help=argparse.SUPPRESS)  # a child process's output file
    a = ap.parse_args()
    if a.dump or not a.against:
        got = measure(a.datasets, a.folds)
        if a.dump:
            Path(a.dump).write_bytes(pickle.dumps(got))
            return
        for name in a.datasets:
            print(f"{name}: {got[name]:.1f} ms/fold")
        return
    trees = {"new": ROOT, "old": Path(a.against).resolve()}
    ms: dict[str, dict[str, list[float]]] = {k: {d: [] for d in a.datasets} for k in trees}
    found: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="bench-ban-mdl-") as tmp:
        for _ in range(a.repeat):
            for side, tree in trees.items():
                dump = Path(tmp) / side
                subprocess.run([sys.executable, str(Path(__file__).resolve()), *a.datasets, "--folds", str(a.folds),
                                "--dump", str(dump)], check=True, env={**os.environ, "PYTHONPATH": str(tree)})
                found[side] = pickle.loads(dump.read_bytes())
                for d in a.datasets:
                    ms[side][d].append(found[side][d])
    same = all(found["new"][d, f] == found["old"][d, f] for d in a.datasets for f in range(a.folds))
    print(f"median of {a.repeat} alternating, {a.folds} folds each; load average {os.getloadavg()[0]:.1f}; "
          f"the same parents, info and probabilities: {same}\n")
    print("| data set | old ms/fold | new ms/fold | speed-up |\n|---|---:|---:|---:|")
    old_all = new_all = 0.0
    for d in a.datasets:
        o, n = statistics.median(ms["old"][d]), statistics.median(ms["new"][d])
        old_all, new_all = old_all + o, new_all + n
        print(f"| {d} | {o:.1f} | {n:.1f} | {o / n:.2f}× |")
    print(f"| all | {old_all:.1f} | {new_all:.1f} | {old_all / new_all:.2f}× |")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
