"""Distinct CI tests and fit CPU seconds per fold of BAN(method="tpda") with the X² test of the 2002
procedure, on run 0 of configs/kban.yaml's protocol (docs/algorithms.md §4.7; bench/README.md).

BNCBENCH_MIRROR=../shared/uci python bench/bench_tpda.py [--folds 3] splice-c4.5 nursery
  --against DIR [--repeat 3]: the same folds fitted by the code checked out in DIR too (e.g. `git
  worktree add ../old 7bbc84e`), each side in its own process, alternating, DIR's first; the median
  of the repetitions, and whether both found the same structures. Each process loads the compiled
  kernels before it times a fit."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def measure(config: str, name: str, folds: int) -> dict:
    """Fit BAN(method="tpda") on the first `folds` folds of run 0: tests, CPU seconds, accuracy and a
    digest of the structures."""
    from bncbench.classifiers import BAN
    from bncbench.config import load
    from bncbench.engine.units import preprocessed_fold

    exp = load(config)
    spec = {d.name: d for d in exp.datasets}[name]
    rng = np.random.default_rng(0)  # the compiled kernels loaded first (once per process), not timed
    BAN(method="tpda").fit(rng.integers(0, 3, (60, 5)), rng.integers(0, 2, 60))
    tests, lacking, secs, correct, n = [], [], [], 0, 0
    digest = hashlib.sha256()
    for f in range(folds):
        p = preprocessed_fold(spec, exp.preprocess, exp.cv, 0, f)
        e = p.encoded
        y_tr, y_te = p.dataset.y[p.train], p.dataset.y[p.test]
        clf = BAN(method="tpda", ban_test="x2", cardinalities=e.cardinalities, n_classes=len(p.dataset.classes))
        t = time.process_time()
        clf.fit(e.X_train, y_tr)
        secs.append(time.process_time() - t)
        tests.append(clf.info_["distinct_tests"])
        lacking.append(clf.info_.get("tests_lacking_data", 0))
        correct += int((clf.predict(e.X_test) == y_te).sum())
        n += y_te.size
        digest.update(repr(clf.parents_).encode())
    return {"tests": statistics.mean(tests), "lacking": statistics.mean(lacking), "seconds": statistics.median(secs),
            "accuracy": 100 * correct / n, "structures": digest.hexdigest()[:12]}


def in_process(code: Path, config: str, name: str, folds: int) -> dict:
    """`measure` run by the code in `code` (its own Python process)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run([sys.executable, __file__, "--one", name, "--folds", str(folds), "--config", config],
                         env=env, cwd=code, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="*")
    ap.add_argument("--folds", type=int, default=3, help="first F folds of run 0 (default 3)")
    ap.add_argument("--config", default="configs/kban.yaml")
    ap.add_argument("--against", type=Path, help="a checkout of other code, measured side by side")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions with --against (default 3)")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # one data set, as JSON (the subprocess of --against)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(measure(a.config, a.one, a.folds)))
        return
    if a.against is None:
        print("| data set | distinct tests / fold | lacking data / fold | fit CPU s / fold | accuracy |")
        print("|---|---:|---:|---:|---:|")
        for name in a.datasets:
            m = measure(a.config, name, a.folds)
            print(f"| {name} | {m['tests']:,.0f} | {m['lacking']:,.0f} | {m['seconds']:.3f} | {m['accuracy']:.2f} |",
                  flush=True)
        return
    here = Path(__file__).resolve().parents[1]
    print(f"| data set | distinct tests / fold | {a.against} fit CPU s / fold | this fit CPU s / fold | speed-up "
          "| runs (theirs; ours) | same structures | accuracy |")
    print("|---|---:|---:|---:|---:|---|---|---:|")
    for name in a.datasets:
        runs: dict[str, list[dict]] = {"theirs": [], "ours": []}
        for _ in range(a.repeat):
            runs["theirs"].append(in_process(a.against.resolve(), str(here / a.config), name, a.folds))
            runs["ours"].append(in_process(here, str(here / a.config), name, a.folds))
        t, o = ([r["seconds"] for r in runs[k]] for k in ("theirs", "ours"))
        same = {r["structures"] for r in runs["theirs"]} == {r["structures"] for r in runs["ours"]}
        m = runs["ours"][0]
        print(f"| {name} | {m['tests']:,.0f} | {statistics.median(t):.3f} | {statistics.median(o):.3f} | "
              f"{statistics.median(t) / statistics.median(o):.2f}× | {', '.join(f'{v:.2f}' for v in t)}; "
              f"{', '.join(f'{v:.2f}' for v in o)} | {'yes' if same else 'NO'} | {m['accuracy']:.2f} |", flush=True)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
