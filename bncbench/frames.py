"""A results store's tasks and predictions as pandas DataFrames, and their export as parquet or
CSV files (`Results.tasks`, `.predictions`, `.export`; `bncbench export`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from bncbench.errors import UserError
from bncbench.evaluate.metrics import INSTANCE_METRICS, FoldResult, aggregate
from bncbench.utils.files import atomic_path

FORMATS = ("parquet", "csv")


def tasks_frame(layout: dict, rows: dict[str, tuple], folds: dict[str, FoldResult]) -> pd.DataFrame:
    """One row per finished task (`folds`, by key; `rows`: the store's row of each key) with its
    per-fold metric values, in layout order; `current` marks the tasks of the latest plan."""
    current = {k for keys in layout["keys"].values() for k in keys}
    records = []
    for key, f in folds.items():
        _, ds, label, run, fold, tt, st, finished = rows[key]
        n = len(f.y_true)
        rec = {"dataset": ds, "label": label, "run": run, "fold": fold, "n_test": n,
               "train_time": tt, "test_time": st}
        rec.update({m: aggregate(m, f.sums[m], n) for m in INSTANCE_METRICS})
        rec.update({"info": json.dumps(f.info or {}, sort_keys=True), "current": key in current,
                    "finished": finished, "key": key})
        records.append(rec)
    order_ds = {d: i for i, d in enumerate(layout["datasets"])}
    order_lab = {lab: i for i, lab in enumerate(layout["labels"])}
    cols = ["dataset", "label", "run", "fold", "n_test", "train_time", "test_time", *INSTANCE_METRICS,
            "info", "current", "finished", "key"]
    df = pd.DataFrame.from_records(records, columns=cols)
    if len(df):
        df = (df.assign(_d=df["dataset"].map(lambda d: order_ds.get(d, len(order_ds))),
                        _l=df["label"].map(lambda lab: order_lab.get(lab, len(order_lab))))
              .sort_values(["_d", "dataset", "_l", "label", "run", "fold"], kind="stable")
              .drop(columns=["_d", "_l"]).reset_index(drop=True))
    return df


def predictions_frame(tasks: pd.DataFrame, folds: dict[str, FoldResult]) -> pd.DataFrame:
    """One row per test instance of each of `tasks` (read with probabilities: `folds`): label,
    run, fold, row, true and predicted class names, one column `P(<class>)` per class name."""
    parts = []
    classes: list[str] = []
    for key, label in zip(tasks["key"], tasks["label"]):
        f = folds[key]
        classes = list(f.classes or [])
        names = np.asarray(classes, dtype=object)
        part = pd.DataFrame({"label": label, "run": f.run, "fold": f.fold, "row": f.test_index,
                             "true": names[f.y_true], "predicted": names[f.pred]})
        prob = pd.DataFrame(f.proba, columns=[f"P({c})" for c in classes])
        parts.append(pd.concat([part, prob], axis=1))
    if not parts:
        return pd.DataFrame(columns=["label", "run", "fold", "row", "true", "predicted"])
    return pd.concat(parts, ignore_index=True)


def check_format(fmt: str) -> None:
    """UserError unless tables can be written as `fmt` here (parquet needs pyarrow)."""
    if fmt not in FORMATS:
        raise UserError(f"--format: {fmt!r} is not parquet or csv")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserError("--format parquet needs pyarrow: pip install pyarrow") from None


def write_tables(tables: list[tuple[str, Callable[[], pd.DataFrame]]], fmt: str, out: str) -> list[Path]:
    """Write each (name, table) as `out`/name.fmt; the files written. Each file is written to a
    temporary name and renamed, so an interrupted export leaves no half-written file."""
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"--out {out}: cannot create the folder ({e.strerror})") from None
    written = []
    for name, make in tables:
        target = folder / f"{name}.{fmt}"
        try:
            # public: a 0600 export would be hidden from everyone else
            with atomic_path(target, public=True) as tmp:
                df = make()
                if fmt == "parquet":
                    df.to_parquet(tmp, index=False)
                else:
                    df.to_csv(tmp, index=False)
        except OSError as e:
            raise UserError(f"--out {out}: cannot write {target.name} ({e.strerror}); the files before it are "
                            f"complete") from None
        written.append(target)
    return written
