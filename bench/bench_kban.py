"""3-BAN's fit CPU seconds per fold with another commit's structure scorer against this tree's, side by
side in one process, and whether the fits are identical (docs/algorithms.md §4.6; bench/README.md,
"Issue 28: 3-BAN").

BNCBENCH_MIRROR=../shared/uci python bench/bench_kban.py [--ref main] [--folds 2] [--repeat 3] thyroid spambase

The other commit's `bncbench/classifiers/ban/kban_scorer.py` (`git show REF:...`) is loaded as a
module of its own; each fold is fitted alternately with it and with this tree's scorer, `--repeat`
times each (median per fold, mean over the folds of run 0 of configs/kban.yaml's protocol).
Identical: the same `parents_`, `steps_`, `trace_`, and test predictions and probabilities bit for bit.
Exit status 1 if a fit differs."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import types

import numpy as np

from bncbench.classifiers import KBAN
from bncbench.classifiers.ban import kban_scorer
from bncbench.config import load
from bncbench.engine.units import preprocessed_fold


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--ref", default="main", help="the commit whose scorer is compared (default main)")
    ap.add_argument("--folds", type=int, default=2, help="first F folds of run 0 (default 2)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--config", default="configs/kban.yaml")
    a = ap.parse_args()
    ref = types.ModuleType("ref_kban_scorer")
    exec(subprocess.check_output(["git", "show", f"{a.ref}:bncbench/classifiers/ban/kban_scorer.py"], text=True),
         ref.__dict__)
    scorers = {"ref": ref.StructureScorer, "new": kban_scorer.StructureScorer}
    exp = load(a.config)
    specs = {d.name: d for d in exp.datasets}
    params = next(c.params for c in exp.classifiers if c.name == "KBAN")  # 3-BAN's, as the grid fits it
    print(f"| data set | N × n | {a.ref} fit CPU s / fold | this tree | speed-up | identical |")
    print("|---|---|---:|---:|---:|---|")
    total, all_same = {"ref": 0.0, "new": 0.0}, True
    for name in a.datasets:
        secs: dict[str, list[float]] = {"ref": [], "new": []}
        same = True
        for f in range(a.folds):
            p = preprocessed_fold(specs[name], exp.preprocess, exp.cv, 0, f)
            e, y = p.encoded, p.dataset.y[p.train]
            fits, got = {}, {"ref": [], "new": []}
            for kind in ["ref", "new"] * a.repeat:
                kban_scorer.StructureScorer = scorers[kind]  # what KBAN._fit imports
                clf = KBAN(**params, cardinalities=e.cardinalities, n_classes=len(p.dataset.classes))
                t = time.process_time()
                clf.fit(e.X_train, y)
                got[kind].append(time.process_time() - t)
                fits[kind] = (clf.parents_, clf.steps_, clf.trace_, clf.predict(e.X_test).tobytes(),
                              clf.predict_proba(e.X_test).tobytes())
            kban_scorer.StructureScorer = scorers["new"]
            for kind, s in secs.items():
                s.append(statistics.median(got[kind]))
            same &= fits["ref"] == fits["new"]
        med = {kind: statistics.mean(s) for kind, s in secs.items()}
        for kind in total:
            total[kind] += med[kind]
        all_same &= same
        print(f"| {name} | {e.X_train.shape[0]} × {e.X_train.shape[1]} | {med['ref']:.3f} | {med['new']:.3f} | "
              f"{med['ref'] / med['new']:.2f}× | {'yes' if same else '**no**'} |", flush=True)
    print(f"| all | | {total['ref']:.3f} | {total['new']:.3f} | {total['ref'] / total['new']:.2f}× | |")
    return 0 if all_same else 1


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
