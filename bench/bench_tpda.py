"""Distinct CI tests and fit + predict CPU seconds per fold of BAN(method="tpda") with the X² test of the 2002
procedure, on run 0 of configs/kban.yaml's protocol (docs/algorithms.md §4.7; bench/README.md).

BNCBENCH_MIRROR=../shared/uci python bench/bench_tpda.py [--folds 3] splice-c4.5 nursery
  --against DIR [--repeat 3]: the same folds fitted by the code checked out in DIR too (e.g. `git
  worktree add ../old 7bbc84e`), each side in its own process, alternating, DIR's first; the median
  of the repetitions, and whether both gave the same results (structures, `info_`, every CI test's
  statistic and the probabilities, bit for bit). Each process makes one untimed fit of the data set
  (loading the compiled kernels) before it times one."""

from __future__ import annotations

import argparse
import gc
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
    """Fit BAN(method="tpda") on the first `folds` folds of run 0 and predict their test rows: tests,
    fit + predict CPU seconds, accuracy and a digest of the structures, `info_`, every test's
    statistic (its bits) and the test rows' probabilities (their bits)."""
    from bncbench.classifiers import BAN
    from bncbench.classifiers.ban import x2_independence
    from bncbench.config import load
    from bncbench.engine.units import preprocessed_fold

    exp = load(config)
    spec = {d.name: d for d in exp.datasets}[name]
    made = []  # the X² test of each fit, for its cache
    init = x2_independence.X2Test.__init__

    def recorded(self, *args, **kwargs) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    x2_independence.X2Test.__init__ = recorded  # type: ignore[method-assign]
    units = [preprocessed_fold(spec, exp.preprocess, exp.cv, 0, f) for f in range(folds)]
    warm = units[0].encoded  # kernels loaded, and the data set's first fit made untimed (a run's warm-up)
    BAN(method="tpda", cardinalities=warm.cardinalities, n_classes=len(units[0].dataset.classes)).fit(
        warm.X_train, units[0].dataset.y[units[0].train])
    gc.freeze()  # as a run's workers: what is loaded is not traversed by the fits' collections
    tests, lacking, secs, correct, n = [], [], [], 0, 0
    digest = hashlib.sha256()
    for p in units:
        e = p.encoded
        y_tr, y_te = p.dataset.y[p.train], p.dataset.y[p.test]
        clf = BAN(method="tpda", ban_test="x2", cardinalities=e.cardinalities, n_classes=len(p.dataset.classes))
        t = time.process_time()
        clf.fit(e.X_train, y_tr)
        proba = clf.predict_proba(e.X_test)
        secs.append(time.process_time() - t)
        tests.append(clf.info_["distinct_tests"])
        lacking.append(clf.info_.get("tests_lacking_data", 0))
        correct += int((clf.classes_[np.argmax(proba, axis=1)] == y_te).sum())
        n += y_te.size
        digest.update(repr((clf.parents_, sorted(clf.info_.items()))).encode())
        digest.update(repr(sorted((k, o.independent, o.key, o.x2.hex(), o.df.hex(), o.log_p.hex())
                                  for k, o in made[-1].cache.items())).encode())
        digest.update(np.ascontiguousarray(proba).tobytes())
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
        print("| data set | distinct tests / fold | lacking data / fold | fit + predict CPU s / fold | accuracy |")
        print("|---|---:|---:|---:|---:|")
        for name in a.datasets:
            m = measure(a.config, name, a.folds)
            print(f"| {name} | {m['tests']:,.0f} | {m['lacking']:,.0f} | {m['seconds']:.3f} | {m['accuracy']:.2f} |",
                  flush=True)
        return
    here = Path(__file__).resolve().parents[1]
    print(f"| data set | distinct tests / fold | {a.against} CPU s / fold | this CPU s / fold | speed-up "
          "| runs (theirs; ours) | same results | accuracy |")
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
