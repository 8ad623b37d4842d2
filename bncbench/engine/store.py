"""Results store: one SQLite file per results directory (docs/store.md, docs/architecture.md)."""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import numpy as np

from bncbench import __version__
from bncbench.engine import codec
from bncbench.engine.output import TaskOutput
from bncbench.errors import StoreError, UserError
from bncbench.evaluate.metrics import FoldResult
from bncbench.evaluate.terms import INSTANCE_METRICS, instance_sums

FORMAT = 4  # docs/store.md: Format history
DB_NAME = "results.sqlite"

@dataclass
class EncodedOutput:
    """A task's output in its stored form (engine/codec.py), made where the task ran: a worker
    process sends the driver compressed float32 columns instead of float64 probabilities, and
    the driver's only work per task is the insert."""

    encoded: codec.Encoded
    train_time: float
    test_time: float
    info: dict
    structure: bytes  # codec.pack_structure of what the classifier learned

    @classmethod
    def of(cls, out: TaskOutput, classes: list[str]) -> EncodedOutput:
        return cls(codec.encode(out.test_index, out.y_true, out.proba, classes), out.train_time, out.test_time,
                   out.info, codec.pack_structure(out.structure))


SCHEMA = """
CREATE TABLE IF NOT EXISTS tasks (
    key TEXT PRIMARY KEY,       -- task hash (engine/runner.py task_key)
    dataset TEXT NOT NULL,
    label TEXT NOT NULL,
    run INTEGER NOT NULL,
    fold INTEGER NOT NULL,
    split TEXT NOT NULL REFERENCES splits(key),
    n_classes INTEGER NOT NULL,
    pred BLOB NOT NULL,         -- zlib(int16 predicted class codes)
    proba BLOB NOT NULL,        -- zlib(byte-shuffled float32 (n, n_classes) probabilities)
    sums TEXT NOT NULL,         -- JSON {metric: exact float64 sum of its per-instance terms}
    train_time REAL NOT NULL,
    test_time REAL NOT NULL,
    info TEXT NOT NULL,         -- JSON of what the classifier reported
    finished TEXT NOT NULL,
    checksum TEXT,              -- sha256 of the row's stored values (`task_checksum`); NULL: written by format 2
    structure BLOB              -- zlib(JSON of what the classifier learned, null: none); NULL: stored before format 4
);
CREATE INDEX IF NOT EXISTS tasks_cell ON tasks (dataset, label);
CREATE TABLE IF NOT EXISTS splits (
    key TEXT PRIMARY KEY,       -- sha256 of the content
    n INTEGER NOT NULL,         -- test instances
    test_index BLOB NOT NULL,   -- zlib(int64 first row, then differences)
    y_true BLOB NOT NULL,       -- zlib(int16 class codes)
    classes TEXT NOT NULL       -- JSON list of class names (code = position)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


# the stored values of a task that its checksum covers, in this order (all but `finished`)
CHECKED = ("key", "dataset", "label", "run", "fold", "split", "n_classes", "pred", "proba", "sums", "train_time",
           "test_time", "info")


def task_checksum(values, structure: bytes | None = None) -> str:
    """sha256 of a task's stored values (`CHECKED`, in order, then its `structure` where one is
    stored), each as its length and bytes: text as UTF-8, blobs as they are, numbers as their repr
    (exact for floats)."""
    h = hashlib.sha256()
    for v in (*values, structure) if structure is not None else values:
        if isinstance(v, bytes):
            b = v
        elif isinstance(v, str):
            b = v.encode()
        elif v is None:
            b = b"None"
        else:
            b = repr(float(v) if isinstance(v, (float, np.floating)) else int(v)).encode()
        h.update(b"%d:" % len(b))
        h.update(b)
    return h.hexdigest()


def _shortened(message: str, limit: int = 160) -> str:
    """SQLite's message on one line, without the stored text some messages quote whole."""
    message = " ".join(message.split())
    return message if len(message) <= limit else message[:limit] + "…"


class DamagedStore(StoreError):
    """The file itself is damaged: SQLite cannot read its header, its schema or its pages
    (`bncbench store check` and `store salvage` read what survives: engine/recover.py)."""


def damaged_advice(location: str) -> str:
    """What to do with a store whose file is damaged: two commands that read what survives of it."""
    return (f"`bncbench store check {location}` lists the intact tasks and `bncbench store salvage {location} "
            f"--out NEW` keeps them")


def store_failure(location: str, action: str, e: sqlite3.Error) -> StoreError:
    """What an SQLite error while `action` ("open", "read" or "write") the store at `location` means, and what to do."""
    msg, said = str(e).lower(), _shortened(str(e))
    if "full" in msg:
        what, todo = "the disk is full", "free some space and run the same command again to resume"
    elif "readonly" in msg or "read-only" in msg:
        what = "the store or its folder became read-only"
        todo = "make it writable (or copy the folder somewhere writable) and run the same command again to resume"
    elif "locked" in msg or "busy" in msg:
        what = "another process kept the store locked for 60 s"
        todo = "wait until the other bncbench command ends, or choose another --results folder"
    elif "malformed" in msg or "not a database" in msg or "corrupt" in msg:
        return DamagedStore(location, f"cannot {action} the results store: the file is damaged ({said})",
                            damaged_advice(location))
    elif "i/o" in msg:
        what, todo = f"a disk input/output error ({said})", "check the disk, then run the same command again to resume"
    else:
        what, todo = said, "run the same command again; if it fails again, choose another --results folder"
    return StoreError(location, f"cannot {action} the results store: {what}", todo)


# SQLite errors that mean a bug of ours (a constraint, a statement), not the environment: they stay
# as they are (the CLI's "internal error" line and log)
_OURS = (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError, sqlite3.NotSupportedError)


def _guarded(action: str) -> Callable[[Callable], Callable]:
    """A `Store` method whose SQLite errors become `store_failure`'s one line."""
    def wrap(method: Callable) -> Callable:
        @functools.wraps(method)
        def call(self: Store, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except _OURS:
                raise
            except sqlite3.Error as e:
                raise store_failure(self.location, action, e) from None
        return call
    return wrap


# the columns without which a table of this name is not the store's (docs/store.md: Tables)
_TABLES = {"tasks": {"key", "dataset", "label", "run", "fold"},
           "splits": {"key", "n", "test_index", "y_true", "classes"},
           "meta": {"key", "value"}}
# the JSON type of each meta record (docs/store.md: `meta` — JSON values by key)
_META_TYPES: dict[str, type] = {"format": int, "written_by": str, "experiment": dict, "config": str, "sections": dict,
                                "provenance": dict, "attributes": dict}


def meta_problem(name: str, value) -> str | None:
    """Why the stored meta record `name` does not read back (None when it does)."""
    try:
        got = json.loads(value)
    except (TypeError, ValueError):
        return "its JSON does not parse"
    want = _META_TYPES.get(name)
    if want is not None and (not isinstance(got, want) or isinstance(got, bool)):
        return f"not a JSON {'object' if want is dict else want.__name__}"
    if name == "experiment" and not (isinstance(got.get("datasets"), list) and isinstance(got.get("labels"), list)
                                     and isinstance(got.get("keys"), dict)):
        return "its datasets, labels or keys are missing"
    if name == "attributes" and not all(type(v) is list and all(type(a) is str for a in v) for v in got.values()):
        return "a data set's attribute names are not a list of names"
    return None


def store_path(location: str | Path) -> Path:
    """The store file of a results directory, or `location` itself when it names a .sqlite file."""
    p = Path(location)
    return p if p.suffix == ".sqlite" else p / DB_NAME


class Store:
    """The results store of one directory. `readonly=True` opens the file with SQLite's
    mode=ro (falling back to immutable=1 where even the lock files cannot be created, as on a
    read-only mount): nothing is ever written by reading commands."""

    def __init__(self, location: str | Path, create: bool = True, readonly: bool = False, inspect: bool = False):
        path = store_path(location)
        self.path, self.readonly, self.location = path, readonly, str(location)
        # `inspect` (store check, store salvage): open a store with missing tables or damaged
        # meta records too, to report them and keep the rest
        self.inspect = inspect
        self.tables: set[str] = set()  # the store's tables present in the file (`_check_format`)
        if path.is_dir():
            raise UserError(f"{location}: {path} is a folder, not a results store file; give the results folder "
                            f"that holds {DB_NAME}")
        if not path.is_file() and (readonly or not create):
            raise UserError(f"{location}: no results here (expected {path.name if path.suffix else DB_NAME}; "
                            f"run `bncbench run CONFIG --results {location}` first)")
        self._db: sqlite3.Connection | None = None
        # decoded splits (test rows, classes, class names), read-only and shared by the tasks that use them
        self._splits: dict[str, tuple[np.ndarray, np.ndarray, list]] = {}
        self._absent: set[str] | None = None  # the tasks table's columns of later formats it lacks (`_columns`)
        self.damaged: set[str] = set()  # keys of stored tasks read so far that fail their checksum or decoding
        try:
            if readonly:
                self._db = self._open_readonly(path, location)
                self._check_format(location)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                # the runner writes from one background thread at a time (runner._Writer)
                self._db = sqlite3.connect(path, timeout=60, check_same_thread=False)
                self._check_format(location)  # before anything is written to the file
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.executescript(SCHEMA)
                self.tables = set(_TABLES)
                self._upgrade()
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (json.dumps(FORMAT),))
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('written_by', ?)",
                                (json.dumps(f"bncbench {__version__}"),))
                self.db.commit()
        except sqlite3.Error as e:
            self._discard()
            raise store_failure(self.location, "open", e) from None
        except OSError as e:
            self._discard()
            raise UserError(f"{location}: cannot open the results store ({e}); "
                            "choose another --results folder") from None
        except UserError:
            self._discard()
            raise

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection (`close` ends it)."""
        if self._db is None:
            raise RuntimeError(f"{self.path}: the results store is closed")
        return self._db

    def _discard(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @staticmethod
    def _open_readonly(path: Path, location) -> sqlite3.Connection:
        uri = "file:" + quote(str(path.resolve()))
        db = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=60)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            db.close()
        # A read-only folder where SQLite cannot create its lock files. A store closed cleanly
        # is one self-contained file there and can be read as immutable; one whose run was
        # killed keeps finished tasks in its -wal file, which immutable=1 would not see.
        wal = path.with_name(path.name + "-wal")
        if wal.is_file() and wal.stat().st_size > 0:
            raise UserError(f"{location}: this store's run was interrupted ({wal.name} holds finished tasks) and it is "
                            f"on a read-only folder, where SQLite cannot read them; copy the folder (with {wal.name}) "
                            f"somewhere writable and read the copy")
        db = sqlite3.connect(uri + "?immutable=1", uri=True)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db

    def _check_schema(self, location) -> None:
        """Refuse a file that is not a results store (an SQLite file of another program: `run`
        writes nothing into it); note the store's tables present (`tables`)."""
        names = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                               "AND name NOT LIKE 'sqlite_%'")]
        columns = {name: {r[1] for r in self.db.execute(f"PRAGMA table_info({json.dumps(name)})")} for name in names}
        self.tables = {t for t in _TABLES if t in columns}
        wrong = [f"its {t} table has no column {', '.join(sorted(_TABLES[t] - columns[t]))}"
                 for t in sorted(self.tables) if _TABLES[t] - columns[t]]
        if names and (wrong or not self.tables):
            why = wrong[0] if wrong else f"it holds the table(s) {', '.join(sorted(names)[:5])}"
            todo = ("choose another --results folder: run writes only into a new folder or a results store"
                    if not self.readonly else "give the results folder of a bncbench run")
            raise UserError(f"{location}: {self.path} is an SQLite file but not a bncbench results store ({why}); "
                            f"{todo}")

    def _check_tables(self, location) -> None:
        """A reader refuses an empty file and a store that lost one of its tables, each with what
        to do (`inspect` opens those; `run` creates the tables)."""
        if not self.readonly or self.inspect or len(self.tables) == len(_TABLES):
            return
        if not self.tables:
            size = self.path.stat().st_size
            raise UserError(f"{location}: the results store is empty (no tables: a file of {size} bytes); "
                            f"`bncbench run CONFIG --results {location}` computes its tasks")
        lost = sorted(set(_TABLES) - self.tables)
        raise DamagedStore(location, f"the results store is damaged: its {' and '.join(lost)} "
                           f"table{'s are' if len(lost) > 1 else ' is'} gone",
                           f"`bncbench store check {location}` shows what is left, and `bncbench run CONFIG "
                           f"--results {location}` computes the lost tasks again")

    def _check_format(self, location) -> None:
        """Refuse a file that is not a results store (`_check_schema`), a store this code cannot
        read: format 1 (bncbench 0.2), or a newer format than `FORMAT` (docs/store.md: Format
        history); before anything is written to it."""
        self._check_schema(location)
        cols = [r[1] for r in self.db.execute("PRAGMA table_info(tasks)")]
        if cols and "split" not in cols:
            raise UserError(f"{location}: this results store was written by bncbench 0.2 (store format 1), which "
                            f"this version does not read; run the config again into a new --results folder")
        self._check_tables(location)
        if "meta" not in self.tables:
            return
        found = dict(self.db.execute("SELECT key, value FROM meta WHERE key IN ('format', 'written_by')"))
        try:
            fmt = int(json.loads(found.get("format", str(FORMAT))))
        except (TypeError, ValueError):
            if self.inspect:
                return  # `store check` names the damaged record; `store salvage` leaves it behind
            raise UserError(f"{location}: this results store names no readable format ({found['format']!r} in its "
                            f"meta table); it was not written by bncbench, or is damaged: `bncbench store check "
                            f"{location}` shows what is intact, `bncbench store salvage {location} --out NEW` keeps "
                            f"it") from None
        if fmt > FORMAT:
            by = found.get("written_by", '"a newer bncbench"')
            by = json.loads(by) if meta_problem("written_by", by) is None else "a newer bncbench"
            raise UserError(f"{location}: this results store is format {fmt}, written by {by}; this bncbench "
                            f"({__version__}) reads formats 2 to {FORMAT}: upgrade bncbench to read it, or run the "
                            f"config again into a new --results folder")
        if not self.inspect:  # before anything is written: `run` refuses such a store untouched
            for key, value in self.db.execute("SELECT key, value FROM meta WHERE key NOT IN ('format', 'written_by')"):
                problem = meta_problem(key, value)
                if problem is not None:
                    raise self._damaged_meta(key, problem)

    def _upgrade(self) -> None:
        """A format-2 or 3 store opened for writing becomes format 4: its tasks gain the checksum
        column, NULL (unverifiable) for those stored before format 3, and the structure column, NULL
        (not recorded) for those stored before format 4 (docs/store.md: Format history)."""
        for column, kind in (("checksum", "TEXT"), ("structure", "BLOB")):
            if column not in [r[1] for r in self.db.execute("PRAGMA table_info(tasks)")]:
                self.db.execute(f"ALTER TABLE tasks ADD COLUMN {column} {kind}")
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('format', ?)", (json.dumps(FORMAT),))

    def close(self) -> None:
        if self._db is None:
            return
        if not self.readonly:
            try:  # leave one self-contained file (no -wal/-shm), readable on read-only media
                self.db.execute("PRAGMA journal_mode=DELETE")
            except sqlite3.Error:
                pass  # another process still has it open; it stays in WAL mode
        self._discard()

    @_guarded("read")
    def done_keys(self) -> set[str]:
        """The keys of the stored tasks that are intact (a damaged one is computed again; see `damaged`)."""
        done = set()
        for row in self.db.execute(f"SELECT {self._columns} FROM tasks t LEFT JOIN splits s ON s.key = t.split"):
            if self._verified(row, with_proba=False) is not None:
                done.add(row[0])
        return done

    @_guarded("write")
    def put(self, key: str, dataset: str, label: str, run: int, fold: int, out: TaskOutput | EncodedOutput,
            classes: list[str]) -> None:
        """Write one finished task (and its fold's split, if new) in one transaction; a task
        already stored under `key` is replaced."""
        self.put_many([(key, dataset, label, run, fold, out, classes)])

    @_guarded("write")
    def put_many(self, tasks: list[tuple[str, str, str, int, int, TaskOutput | EncodedOutput, list[str]]]) -> None:
        """Write finished tasks in one transaction (docs/architecture.md)."""
        enc = [(t, t[5] if isinstance(t[5], EncodedOutput) else EncodedOutput.of(t[5], t[6])) for t in tasks]
        splits = {e.encoded.split_key: e.encoded for _, e in enc}
        values = [((key, dataset, label, run, fold, e.encoded.split_key, e.encoded.n_classes, e.encoded.pred,
                    e.encoded.proba, e.encoded.sums, float(e.train_time), float(e.test_time),
                    json.dumps(e.info, sort_keys=True)), e.structure)
                  for (key, dataset, label, run, fold, _, _), e in enc]
        rows = [(*v, task_checksum(v, structure), structure) for v, structure in values]
        with self.db:
            for k, e in splits.items():
                if self.db.execute("SELECT 1 FROM splits WHERE key = ?", (k,)).fetchone() is None:
                    self.db.execute("INSERT INTO splits VALUES (?,?,?,?,?)",
                                    (k, e.n, codec.pack_index(e.test_index), codec.pack_ints(e.y_true, "<i2"),
                                     e.classes_json))
            self.db.executemany("INSERT OR REPLACE INTO tasks (key, dataset, label, run, fold, split, n_classes, pred, "
                                "proba, sums, train_time, test_time, info, finished, checksum, structure) "
                                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,datetime('now'),?,?)", rows)

    _COLUMNS = ("t.key, t.dataset, t.label, t.run, t.fold, t.n_classes, s.n, s.test_index, s.y_true, s.classes, "
                "t.pred, t.proba, t.sums, t.train_time, t.test_time, t.info, t.split, t.checksum, t.structure")

    @property
    def _columns(self) -> str:
        """`_COLUMNS`, with NULL for a column that a file of an earlier format read as it is lacks
        (format 2: no checksum; formats 2 and 3: no structure)."""
        if self._absent is None:
            present = {r[1] for r in self.db.execute("PRAGMA table_info(tasks)")}
            self._absent = {c for c in ("checksum", "structure") if c not in present}
        columns = self._COLUMNS
        for c in self._absent:
            columns = columns.replace(f"t.{c}", "NULL")
        return columns

    def _split(self, key: str, test_index: bytes, y_true: bytes, classes: str) -> tuple[np.ndarray, np.ndarray, list]:
        """A split's decoded test rows, classes and class names, decoded and verified against its key
        once (read-only arrays); ValueError when they do not match it (a damaged split)."""
        got = self._splits.get(key)
        if got is None:
            index, y = codec.unpack_index(test_index), codec.unpack_ints(y_true, "<i2")
            if codec.split_digest(index, y, classes) != key:
                raise ValueError(f"split {key[:12]} does not match its key")
            index.flags.writeable = y.flags.writeable = False
            got = self._splits[key] = (index, y, json.loads(classes))
        return got

    @staticmethod
    def _intact(row) -> bool:
        """Whether a row of `_COLUMNS` matches its checksum (a format-2 task has none: taken as it is)."""
        key, dataset, label, run, fold, nc, _, _, _, _, pred, proba, sums, tt, st, info, split, checksum, learned = row
        return checksum is None or task_checksum((key, dataset, label, run, fold, split, nc, pred, proba, sums, tt,
                                                  st, info), learned) == checksum

    def _result(self, row, with_proba: bool = True) -> tuple[str, FoldResult]:
        key, _, _, run, fold, nc, n, ti, yt, classes, pred, proba, sums, tt, st, info, split, _, _ = row
        index, y, names = self._split(split, ti, yt, classes)
        sums = json.loads(sums)
        p = codec.unpack_proba(proba, n, nc) if with_proba or set(INSTANCE_METRICS) - set(sums) else None
        if p is not None and set(INSTANCE_METRICS) - set(sums):
            # a per-instance metric added after this task was stored: from the float32 probabilities
            sums = {**instance_sums(y, p), **sums}
        return key, FoldResult(run, fold, index, y, p if with_proba else None, tt, st,
                               json.loads(info), pred=codec.unpack_ints(pred, "<i2"), sums=sums, classes=list(names))

    def _verified(self, row, with_proba: bool) -> tuple[str, FoldResult] | None:
        """`_result` of a row that matches its checksum and decodes; None (its key noted in
        `damaged`) otherwise."""
        if self._intact(row):
            try:
                return self._result(row, with_proba)
            except (ValueError, TypeError, zlib.error):  # a blob or split that does not decode (or is missing)
                pass
        self.damaged.add(row[0])
        return None

    def _rows(self, keys: list[str]):
        """The stored rows (`_columns`) of `keys`, read 500 keys at a time."""
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            yield from self.db.execute(f"SELECT {self._columns} FROM tasks t LEFT JOIN splits s ON s.key = t.split "
                                       f"WHERE t.key IN ({','.join('?' * len(chunk))})", chunk)

    @_guarded("read")
    def get(self, keys: list[str], with_proba: bool = True) -> dict[str, FoldResult]:
        """The stored tasks of `keys` that are intact; a damaged one is left out and noted in `damaged`."""
        out = {}
        for row in self._rows(keys):
            got = self._verified(row, with_proba)
            if got is not None:
                out[got[0]] = got[1]
        return out

    @_guarded("read")
    def structures(self, keys: list[str]) -> dict[str, tuple[FoldResult, bytes | None]]:
        """The stored tasks of `keys` that are intact (without probabilities), each with its stored
        structure (`codec.pack_structure`; None: not recorded, a task stored before format 4)."""
        out = {}
        for row in self._rows(keys):
            got = self._verified(row, with_proba=False)
            if got is not None:
                out[got[0]] = (got[1], row[18])
        return out

    def scan(self) -> tuple[list[tuple[str, str, str, int, int, str]], list[str]]:
        """Every stored task's (key, data set, label, run, fold, state), state "intact", "damaged"
        (its checksum, split or decoding fails) or "unverifiable" (format 2: no checksum); and the
        rowids SQLite could not read (a damaged page), probed one by one where a full scan fails."""
        tasks, lost = [], []
        query = f"SELECT {self._columns} FROM tasks t LEFT JOIN splits s ON s.key = t.split"
        try:
            rows = [list(self.db.execute(query))]
        except sqlite3.DatabaseError:
            rows = []
            top = self.db.execute("SELECT max(rowid) FROM tasks").fetchone()[0] or 0
            for rowid in range(1, top + 1):
                try:
                    rows.append(list(self.db.execute(query + " WHERE t.rowid = ?", (rowid,))))
                except sqlite3.DatabaseError:
                    lost.append(str(rowid))
        for row in (r for batch in rows for r in batch):
            state = "damaged" if self._verified(row, with_proba=False) is None else \
                "unverifiable" if row[17] is None else "intact"
            tasks.append((row[0], row[1], row[2], row[3], row[4], state))
        return tasks, lost

    def integrity(self) -> list[str]:
        """SQLite's own integrity check of the file (['ok'] when it finds nothing)."""
        try:
            return [r[0] for r in self.db.execute("PRAGMA integrity_check(20)")]
        except sqlite3.DatabaseError as e:
            return [str(e)]

    def readable_meta(self) -> tuple[dict[str, str], list[str]]:
        """The meta entries (but format and writer) whose stored JSON reads back, and the names of
        those that do not (damaged), for `copy_intact`."""
        try:
            names = [r[0] for r in self.db.execute("SELECT key FROM meta WHERE key NOT IN ('format', 'written_by')")]
        except sqlite3.DatabaseError:
            return {}, ["meta"]
        entries, damaged = {}, []
        for name in names:
            try:
                value = self.db.execute("SELECT value FROM meta WHERE key = ?", (name,)).fetchone()[0]
            except sqlite3.DatabaseError:
                value = None
            if meta_problem(name, value) is not None:
                damaged.append(name)
                continue
            entries[name] = value
        return entries, damaged

    @_guarded("write")
    def copy_intact(self, source: Store, keys: set[str], meta: dict[str, str]) -> int:
        """Copy the tasks `keys` of `source` (intact ones), the splits they use and the `meta`
        entries (`readable_meta`) into this store, in one transaction; the number copied (a task
        SQLite can no longer read from a damaged `source` is left out)."""
        cols = "key, dataset, label, run, fold, split, n_classes, pred, proba, sums, train_time, test_time, info, " \
               "finished, checksum, structure"
        read = ", ".join("NULL" if c in ("checksum", "structure") and f"t.{c}" not in source._columns else c
                         for c in cols.split(", "))  # a store of an earlier format lacks these columns
        n = 0
        with self.db:
            for key, value in meta.items():
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
            for key in sorted(keys):
                try:
                    row = source.db.execute(f"SELECT {read} FROM tasks WHERE key = ?", (key,)).fetchone()
                    split = source.db.execute("SELECT key, n, test_index, y_true, classes FROM splits WHERE key = ?",
                                              (row[5],)).fetchone()
                except sqlite3.DatabaseError:
                    continue
                self.db.execute("INSERT OR IGNORE INTO splits VALUES (?,?,?,?,?)", split)
                checksum = row[14] or task_checksum(row[:13], row[15])  # a format-2 task gets its checksum here
                self.db.execute(f"INSERT OR REPLACE INTO tasks ({cols}) VALUES ({','.join('?' * 16)})",
                                (*row[:14], checksum, row[15]))
                n += 1
        return n

    @_guarded("write")
    def rekey(self, keys: dict[str, str]) -> set[str]:
        """Store each task of `keys` ({new key: stored key}) under its new key, its checksum made
        for it, in one transaction (a code lineage's carried-over tasks: engine/lineage.py); the
        new keys of those moved (a stored task that fails its checksum is left where it is)."""
        moved = set()
        with self.db:
            for new, old in keys.items():
                row = self.db.execute(f"SELECT {', '.join(CHECKED)}, structure, checksum FROM tasks WHERE key = ?",
                                      (old,)).fetchone()
                if row is None or (row[-1] is not None and task_checksum(row[:-2], row[-2]) != row[-1]):
                    continue
                checksum = None if row[-1] is None else task_checksum((new, *row[1:-2]), row[-2])
                self.db.execute("DELETE FROM tasks WHERE key = ?", (new,))
                self.db.execute("UPDATE tasks SET key = ?, checksum = ? WHERE key = ?", (new, checksum, old))
                moved.add(new)
        return moved

    @_guarded("read")
    def rows(self) -> list[tuple[str, str, str, int, int, float, float, str]]:
        """(key, dataset, label, run, fold, train_time, test_time, finished) of every stored task."""
        return list(self.db.execute("SELECT key, dataset, label, run, fold, train_time, test_time, finished "
                                    "FROM tasks"))

    @_guarded("write")
    def set_meta(self, key: str, value) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value, sort_keys=True)))

    @_guarded("read")
    def get_meta(self, key: str, default=None):
        """The meta record `key` (`default` when there is none); StoreError when it does not read back."""
        if "meta" not in self.tables:
            return default  # a store that lost its meta table, opened by `inspect` or for writing
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if not row:
            return default
        problem = meta_problem(key, row[0])
        if problem is not None:
            raise self._damaged_meta(key, problem)
        return json.loads(row[0])

    def _damaged_meta(self, key: str, problem: str) -> StoreError:
        return StoreError(self.location, f"the results store's {key} record (meta table) is damaged ({problem})",
                          f"`bncbench store salvage {self.location} --out NEW` keeps its intact tasks without it, "
                          f"and `bncbench run CONFIG --results NEW` writes it again")
