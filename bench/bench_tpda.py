"""Distinct CI tests and fit CPU seconds per fold of BAN(method="tpda") with the X² test of the 2002
procedure, on run 0 of configs/kban.yaml's protocol (docs/algorithms.md §4.7; bench/README.md).

BNCBENCH_MIRROR=../shared/uci python bench/bench_tpda.py [--folds 3] splice-c4.5 nursery"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from bncbench.classifiers import BAN
from bncbench.config import load
from bncbench.engine.units import preprocessed_fold


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--folds", type=int, default=3, help="first F folds of run 0 (default 3)")
    ap.add_argument("--config", default="configs/kban.yaml")
    a = ap.parse_args()
    exp = load(a.config)
    specs = {d.name: d for d in exp.datasets}
    print("| data set | test | distinct tests / fold | lacking data / fold | fit CPU s / fold | accuracy |")
    print("|---|---|---:|---:|---:|---:|")
    for name in a.datasets:
        folds = [preprocessed_fold(specs[name], exp.preprocess, exp.cv.scheme, exp.cv.folds, 0, f, exp.cv.seed)
                 for f in range(a.folds)]
        tests, lacking, secs, correct, n = [], [], [], 0, 0
        for p in folds:
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
        print(f"| {name} | x2 | {statistics.mean(tests):,.0f} | {statistics.mean(lacking):,.0f} | "
              f"{statistics.median(secs):.3f} | {100 * correct / n:.2f} |", flush=True)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
