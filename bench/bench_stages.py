"""Benchmark (issue 40, item 2): where one classifier's CPU goes on a config's folds, task by task.

    BNCBENCH_MIRROR=../shared/uci python bench/bench_stages.py CONFIG DATASET LABEL [--units N]
        [--repeat R] [--against TREE] [--profile STAGE]

Runs the first N (run, fold) units of DATASET in CONFIG as a worker does (preprocessing, the
fold's counts, fit, predict_proba, then the untimed prediction_info and learned_structure), after
one untimed warm-up unit, and prints the CPU seconds (time.process_time) of each stage summed
over the units: fit + count and predict are what a task's train and test time measure; prep,
info and structure are the run's cost outside them. `--against TREE` runs the same in another
checkout of bncbench (PYTHONPATH=TREE), alternating with this one, R times each, and prints the
medians side by side. `--profile STAGE` (fit, predict, info, structure, prep or all) prints the
cProfile of that stage instead (this tree, one repetition).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("prep", "count", "fit", "predict", "info", "structure")


def measure(config: str, dataset: str, label: str, units: int, profile: str | None) -> dict[str, float]:
    """CPU seconds per stage over the first `units` units of DATASET (this process's bncbench)."""
    from bncbench.config import load
    from bncbench.engine.entries import entry_of
    from bncbench.engine.units import fold_counts, preprocessed_fold
    from bncbench.preprocess.folds import FOLD_SCHEMES

    exp = load(config)
    spec_ds = next(d for d in exp.datasets if d.name == dataset)
    spec = next(c for c in exp.classifiers if c.label == label)
    entry = entry_of(spec)
    cv = exp.cv
    folds = 1 if cv.sampled else cv.folds
    todo = [(r, f) for r in range(cv.runs) for f in range(folds)][:units]
    spent = dict.fromkeys(STAGES, 0.0)
    prof = cProfile.Profile() if profile else None
    for i, (run, fold) in enumerate([todo[0]] + todo):  # the first: an untimed warm-up
        def timed(stage, fn, *args, warm=i == 0, **kw):
            t = time.process_time()
            on = prof is not None and profile in (stage, "all") and not warm
            if on:
                prof.enable()
            try:
                return fn(*args, **kw)
            finally:
                if on:
                    prof.disable()
                if not warm:
                    spent[stage] += time.process_time() - t

        p = timed("prep", preprocessed_fold, spec_ds, exp.preprocess, cv, run, fold)
        ds, enc = p.dataset, p.encoded
        tables = timed("count", fold_counts, spec_ds, p.settings, ds, p.train, p.test, enc, entry.needs_pairs,
                       complement=cv.scheme in FOLD_SCHEMES)
        clf = entry.build(spec, enc.cardinalities, ds.n_classes, p.settings.missing)
        timed("fit", clf.fit, enc.X_train, ds.y[p.train], counts=tables)
        timed("predict", clf.predict_proba, enc.X_test)
        timed("info", clf.prediction_info, enc.X_test)
        timed("structure", clf.learned_structure, enc.X_test)
    if prof is not None:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    return spent


def child(tree: Path, a: argparse.Namespace) -> dict[str, float]:
    """`measure` in a new process running the bncbench of TREE."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    r = subprocess.run([sys.executable, __file__, a.config, a.dataset, a.label, "--units", str(a.units), "--json"],
                       capture_output=True, text=True, env=env, check=False)
    if r.returncode != 0:
        raise SystemExit(f"{tree}: {r.stderr.strip()[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("dataset")
    ap.add_argument("label")
    ap.add_argument("--units", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", type=Path, default=None)
    ap.add_argument("--profile", choices=(*STAGES, "all"), default=None)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one measurement, as JSON (the children)
    a = ap.parse_args()
    if a.json or a.profile:
        spent = measure(a.config, a.dataset, a.label, a.units, a.profile)
        print(json.dumps(spent))
        return
    trees = [("this", ROOT)] + ([("against", a.against.resolve())] if a.against else [])
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
    for _ in range(a.repeat):
        for name, tree in trees:
            runs[name].append(child(tree, a))
    print(f"{a.dataset} {a.label}, {a.units} units of {Path(a.config).name}: CPU seconds, median of {a.repeat}\n")
    print("| tree | " + " | ".join(STAGES) + " | fit+count+predict | outside |")
    print("|---|" + "---|" * (len(STAGES) + 2))
    for name, _ in trees:
        med = {s: statistics.median(r[s] for r in runs[name]) for s in STAGES}
        task = med["count"] + med["fit"] + med["predict"]
        print(f"| {name} | " + " | ".join(f"{med[s]:.3f}" for s in STAGES)
              + f" | {task:.3f} | {med['prep'] + med['info'] + med['structure']:.3f} |")


if __name__ == "__main__":
    main()
