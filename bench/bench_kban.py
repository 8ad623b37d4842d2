"""3-BAN's fit CPU seconds per fold with another commit's k-BAN (its wrapper, structure scorer and
kernels) against this tree's, side by side in one process, and whether the fits are identical
(docs/algorithms.md §4.6; bench/README.md, "Issue 28: 3-BAN" and "Issue 40: 3-BAN's scorer in one
arena").

BNCBENCH_MIRROR=../shared/uci python bench/bench_kban.py [--ref main] [--folds 2] [--repeat 3] thyroid spambase

The other commit's `bncbench/classifiers/ban/kban.py`, `kban_scorer.py` and `kban_kernels.py` (`git
show REF:...`) are written to a temporary folder as modules of their own (their imports of each
other redirected there) and imported; each fold is fitted alternately with that KBAN and this
tree's, `--repeat` times each (median per fold, mean over the first `--folds` folds of run 0 of
configs/kban.yaml's protocol). Identical: the same `parents_`, `arcs_`, `steps_`, `trace_`,
`info_`, and test predictions and probabilities bit for bit. `--profile`: instead, a cProfile of
this tree's fit of fold 0 (after a warm-up fit) per data set. Exit status 1 if a fit differs."""

from __future__ import annotations

import argparse
import cProfile
import importlib
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bncbench.classifiers import KBAN
from bncbench.config import load
from bncbench.engine.units import preprocessed_fold

_FILES = {  # module → its file in the other commit, and the imports of its siblings to redirect
    "kban_kernels": ("bncbench/classifiers/ban/kban_kernels.py", []),
    "kban_scorer": ("bncbench/classifiers/ban/kban_scorer.py",
                    [("from bncbench.classifiers.ban import kban_kernels", "import ref_kban_kernels as kban_kernels")]),
    "kban": ("bncbench/classifiers/ban/kban.py",
             [("from bncbench.classifiers.ban.kban_scorer import", "from ref_kban_scorer import"),
              ("from bncbench.classifiers.kernels import jit, kban_kernels",
               "from bncbench.classifiers.kernels import jit\n        import ref_kban_kernels as kban_kernels")]),
}


def reference_kban(ref: str, folder: Path) -> type:
    """The KBAN class of commit `ref`, imported from modules written to `folder`."""
    for name, (path, redirects) in _FILES.items():
        text = subprocess.check_output(["git", "show", f"{ref}:{path}"], text=True)
        for old, new in redirects:
            text = text.replace(old, new)
        (folder / f"ref_{name}.py").write_text(text)
    sys.path.insert(0, str(folder))
    return importlib.import_module("ref_kban").KBAN


def fitted(clf, X_test: np.ndarray) -> tuple:
    """What must be identical between two fits."""
    return (clf.parents_, clf.arcs_, clf.steps_, clf.trace_, clf.info_, clf.predict(X_test).tobytes(),
            clf.predict_proba(X_test).tobytes())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--ref", default="main", help="the commit whose k-BAN is compared (default main)")
    ap.add_argument("--folds", type=int, default=2, help="first F folds of run 0 (default 2)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--config", default="configs/kban.yaml")
    ap.add_argument("--profile", action="store_true", help="profile this tree's fit of fold 0 instead")
    ap.add_argument("--sort", default="tottime", help="--profile: the column to sort by (default tottime)")
    ap.add_argument("--top", type=int, default=25, help="--profile: the lines to print (default 25)")
    a = ap.parse_args()
    exp = load(a.config)
    specs = {d.name: d for d in exp.datasets}
    params = next(c.params for c in exp.classifiers if c.name == "KBAN")  # 3-BAN's, as the grid fits it
    if a.profile:
        for name in a.datasets:
            p = preprocessed_fold(specs[name], exp.preprocess, exp.cv, 0, 0)
            e, y = p.encoded, p.dataset.y[p.train]
            made = [KBAN(**params, cardinalities=e.cardinalities, n_classes=len(p.dataset.classes)) for _ in "ab"]
            made[0].fit(e.X_train, y)
            prof = cProfile.Profile()
            t = time.process_time()
            prof.runcall(made[1].fit, e.X_train, y)
            print(f"## {name}: {time.process_time() - t:.3f} s (profiled)")
            pstats.Stats(prof).sort_stats(a.sort).print_stats(a.top)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        classes = {"ref": reference_kban(a.ref, Path(tmp)), "new": KBAN}
        print(f"| data set | N × n | {a.ref} fit CPU s / fold | this tree | speed-up | identical |")
        print("|---|---|---:|---:|---:|---|")
        total, all_same = {"ref": 0.0, "new": 0.0}, True
        p = preprocessed_fold(specs[a.datasets[0]], exp.preprocess, exp.cv, 0, 0)
        for cls in classes.values():  # untimed: each one's kernels loaded (the other commit's compiled)
            cls(**params, cardinalities=p.encoded.cardinalities, n_classes=len(p.dataset.classes)).fit(
                p.encoded.X_train, p.dataset.y[p.train])
        for name in a.datasets:
            secs: dict[str, list[float]] = {"ref": [], "new": []}
            same = True
            for f in range(a.folds):
                p = preprocessed_fold(specs[name], exp.preprocess, exp.cv, 0, f)
                e, y = p.encoded, p.dataset.y[p.train]
                fits, got = {}, {"ref": [], "new": []}
                for kind in ["ref", "new"] * a.repeat:
                    clf = classes[kind](**params, cardinalities=e.cardinalities, n_classes=len(p.dataset.classes))
                    t = time.process_time()
                    clf.fit(e.X_train, y)
                    got[kind].append(time.process_time() - t)
                    fits[kind] = fitted(clf, e.X_test)
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
