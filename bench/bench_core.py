"""Benchmark: NB, TAN, STAN-MRMR, KDB1, AODE 10-fold CV in one process — time and peak memory.

    python bench/bench_core.py [DATASET] [LABEL,LABEL,...]

DATASET is a catalog name (default adult; needs BNCBENCH_MIRROR or the network) or a
synthetic `synth:ROWSxATTRSxCLASSES[:seed]` set. Prints a Markdown table (bench/README.md).
"""

from __future__ import annotations

import resource
import sys
import time

import numpy as np

from bncbench.classifiers import AODE, KDB, NB, STAN, TAN
from bncbench.data import catalog
from bncbench.preprocess.encode import encode_fold, fit_cuts
from bncbench.preprocess.folds import petal_folds
from bncbench.preprocess.settings import PreprocessSettings


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main(name: str = "adult", labels: str = "") -> None:
    t0 = time.perf_counter()
    ds = catalog.load(name)
    t_load = time.perf_counter() - t0
    s = PreprocessSettings(missing="distinct", discretizer="eqfreq", bins=5, eqfreq_method="petal", scope="global")
    t0 = time.perf_counter()
    cuts = fit_cuts(ds, np.arange(ds.n_instances), s)
    folds = petal_folds(ds.n_instances, 10, 0)
    encoded = [encode_fold(ds, np.flatnonzero(folds != f), np.flatnonzero(folds == f), s, cuts) for f in range(10)]
    t_pre = time.perf_counter() - t0
    rows = []
    makers = {"NB": lambda: NB(), "TAN": lambda: TAN(info_precision="float32"),
              "STAN-MRMR": lambda: STAN(ranking="mrmr", info_precision="float32"),
              "KDB1": lambda: KDB(k=1, backoff=True, info_precision="float32"), "AODE": lambda: AODE()}
    if labels:
        makers = {k: v for k, v in makers.items() if k in labels.split(",")}
    total = 0.0
    core = ("NB", "TAN", "KDB1", "AODE")
    for label, make in makers.items():
        fit_t = pred_t = 0.0
        err = 0
        for f, enc in enumerate(encoded):
            tr = folds != f
            clf = make()
            clf.cardinalities, clf.n_classes = enc.cardinalities, ds.n_classes
            a = time.perf_counter()
            clf.fit(enc.X_train, ds.y[tr])
            b = time.perf_counter()
            p = clf.predict_proba(enc.X_test)
            c = time.perf_counter()
            fit_t += b - a
            pred_t += c - b
            err += int((p.argmax(1) != ds.y[~tr]).sum())
        if label in core:
            total += fit_t + pred_t
        rows.append((label, fit_t, pred_t, err / ds.n_instances, peak_rss_mb()))
    print(f"data set: {name} ({ds.n_instances} rows, {ds.n_attributes} attributes); load {t_load:.2f} s, "
          f"preprocess 10 folds {t_pre:.2f} s")
    print()
    print("| classifier | fit, 10 folds (s) | predict, 10 folds (s) | ZOL | peak RSS so far (MB) |")
    print("|---|---|---|---|---|")
    for label, ft, pt, z, mem in rows:
        print(f"| {label} | {ft:.2f} | {pt:.2f} | {z:.4f} | {mem:.0f} |")
    print(f"| {'+'.join(l for l in core if l in makers)} | {total:.2f} (fit + predict) | | | {peak_rss_mb():.0f} |")
    fit = {r[0]: r[1] for r in rows}
    if "STAN-MRMR" in fit and "TAN" in fit:
        print(f"\nSTAN-MRMR fit / TAN fit = {fit['STAN-MRMR'] / fit['TAN']:.2f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
