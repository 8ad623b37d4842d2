"""Results store: one SQLite file per results directory.

Why SQLite: every finished task is committed in its own transaction (atomic; a `kill -9`
loses only tasks in flight), the primary key on the task hash makes resume a lookup, it
needs no extra dependency, and one file holds tasks, per-instance probabilities and
provenance. Only the driver process writes.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np

from bncbench.metrics import FoldResult

SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    key TEXT PRIMARY KEY,
    dataset TEXT NOT NULL,
    label TEXT NOT NULL,
    run INTEGER NOT NULL,
    fold INTEGER NOT NULL,
    n_classes INTEGER NOT NULL,
    test_index BLOB NOT NULL,
    y_true BLOB NOT NULL,
    proba BLOB NOT NULL,
    train_time REAL NOT NULL,
    test_time REAL NOT NULL,
    info TEXT NOT NULL,
    finished TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

DB_NAME = "results.sqlite"


class Store:
    def __init__(self, directory: str | Path, create: bool = True):
        self.dir = Path(directory)
        path = self.dir / DB_NAME
        if not create and not path.is_file():
            from bncbench.errors import UserError

            raise UserError(f"{directory}: no results here (expected {DB_NAME}; run `bncbench run CONFIG --results {directory}` first)")
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=60)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            self.db.commit()
        except (OSError, sqlite3.Error) as e:
            from bncbench.errors import UserError

            raise UserError(f"{directory}: cannot open the results store ({e}); choose another --results folder") from None

    def close(self) -> None:
        self.db.close()

    def done_keys(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT key FROM tasks")}

    def put(self, key: str, dataset: str, label: str, run: int, fold: int, r: FoldResult, info: dict) -> None:
        """Write one finished task in its own transaction."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO tasks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,datetime('now'))",
                (key, dataset, label, run, fold, int(r.proba.shape[1]),
                 np.ascontiguousarray(r.test_index, dtype="<i8").tobytes(),
                 np.ascontiguousarray(r.y_true, dtype="<i8").tobytes(),
                 np.ascontiguousarray(r.proba, dtype="<f8").tobytes(),
                 float(r.train_time), float(r.test_time), json.dumps(info, sort_keys=True)))

    def get(self, keys: list[str]) -> dict[str, FoldResult]:
        out = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = ",".join("?" * len(chunk))
            for row in self.db.execute(
                    f"SELECT key, run, fold, n_classes, test_index, y_true, proba, train_time, test_time, info "
                    f"FROM tasks WHERE key IN ({q})", chunk):
                key, run, fold, nc, ti, yt, pr, tt, st, info = row
                idx = np.frombuffer(ti, dtype="<i8")
                proba = np.frombuffer(pr, dtype="<f8").reshape(idx.size, nc)
                out[key] = FoldResult(run, fold, idx, np.frombuffer(yt, dtype="<i8"), proba, tt, st, json.loads(info))
        return out

    def set_meta(self, key: str, value) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value, sort_keys=True)))

    def get_meta(self, key: str, default=None):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default
