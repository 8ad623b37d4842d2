"""What survives of a damaged results store, for `bncbench store check` and `store salvage`
(docs/store.md: Integrity). The user's file is never written: SQLite reads it as it is, else a
copy with a corrected header (a truncated file's page count, an overwritten header rebuilt), and
where SQLite cannot reach every row, the records of every table b-tree leaf page that survives
(in the file and in a `-wal` file left behind) are rebuilt into a scratch store. Every task kept
is verified by its checksum and its split by its key, as every reader does."""

from __future__ import annotations

import itertools
import json
import mmap
import shutil
import sqlite3
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from bncbench.engine import codec
from bncbench.engine.store import DamagedStore, Store, meta_problem, store_path, task_checksum
from bncbench.errors import UserError

MAGIC = b"SQLite format 3\x00"
_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)  # page sizes tried, SQLite's default first
_LEAF = 0x0D  # a table b-tree leaf page
_WAL_MAGIC = (0x377F0682, 0x377F0683)


def _header_page_size(head: bytes) -> int | None:
    """The page size the header names, None when the header is not SQLite's or the size is not valid."""
    if len(head) < 100 or not head.startswith(MAGIC):
        return None
    size = struct.unpack(">H", head[16:18])[0]
    size = 65536 if size == 1 else size
    return size if size >= 512 and size & (size - 1) == 0 else None


def _rebuilt_header(size: int, pages: int) -> bytes:
    """A header for a file of `pages` pages of `size` bytes: a rollback journal, no reserved bytes,
    no free-list (its pages are read as unused), UTF-8, schema format 4."""
    h = bytearray(100)
    h[:16] = MAGIC
    h[16:18] = struct.pack(">H", 1 if size == 65536 else size)
    h[18:24] = bytes((1, 1, 0, 64, 32, 32))
    struct.pack_into(">IIIIIII", h, 24, 1, pages, 0, 0, 1, 4, 0)
    struct.pack_into(">I", h, 56, 1)  # text encoding UTF-8
    struct.pack_into(">II", h, 92, 1, sqlite3.sqlite_version_info[0] * 1000000
                     + sqlite3.sqlite_version_info[1] * 1000 + sqlite3.sqlite_version_info[2])
    return bytes(h)


def _opens(path: Path) -> bool:
    """Whether SQLite reads the schema of the file at `path` and finds a table of the store in it."""
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return bool(names & {"tasks", "meta", "splits"})
    except sqlite3.DatabaseError:
        return False
    finally:
        db.close()


def corrected_copy(path: Path, scratch: Path) -> tuple[Path, str] | None:
    """A copy of the store file at `path` in `scratch` that SQLite opens: its page count set to the
    file's length (a truncated file), else its first 100 bytes rebuilt; with what was corrected.
    None when neither helps."""
    copy = scratch / "corrected.sqlite"
    with open(path, "rb") as f:
        head = f.read(100)
    size = path.stat().st_size
    own = _header_page_size(head)
    tries = [(own, False)] if own else []
    tries += [(s, True) for s in _SIZES]
    shutil.copyfile(path, copy)
    for page, rebuild in tries:  # each try rewrites the header and the length of the one copy
        pages = -(-size // page)
        if pages < 1:
            continue
        with open(copy, "r+b") as f:
            f.truncate(pages * page)  # a last page cut part-way: its end read as zeros
            if rebuild:
                f.write(_rebuilt_header(page, pages))
            else:
                f.seek(28)
                f.write(struct.pack(">I", pages))
        if _opens(copy):
            what = (f"the header's page count set to the file's {pages} page(s)" if not rebuild else
                    f"its first 100 bytes (the SQLite header) rebuilt, {page}-byte pages")
            return copy, what
    copy.unlink(missing_ok=True)
    return None


# -- reading the leaf pages that survive --------------------------------------------------------
def _varint(b: bytes, i: int) -> tuple[int, int]:
    """SQLite's variable-length integer at `b[i]`: its value and the index after it."""
    v = 0
    for k in range(8):
        c = b[i + k]
        v = (v << 7) | (c & 0x7F)
        if c < 0x80:
            return v, i + k + 1
    return (v << 8) | b[i + 8], i + 9


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _record(payload: bytes) -> list | None:
    """The values of an SQLite record (None: it does not decode as one)."""
    try:
        end, i = _varint(payload, 0)
        types = []
        while i < end:
            t, i = _varint(payload, i)
            types.append(t)
        if i != end:
            return None
        values: list = []
        at = end
        for t in types:
            if t == 0:
                values.append(None)
            elif t in _INT_SIZES:
                n = _INT_SIZES[t]
                values.append(int.from_bytes(payload[at:at + n], "big", signed=True))
                at += n
            elif t == 7:
                values.append(struct.unpack(">d", payload[at:at + 8])[0])
                at += 8
            elif t in (8, 9):
                values.append(t - 8)
            elif t >= 12:
                n = (t - 12) // 2
                raw = payload[at:at + n]
                values.append(raw if t % 2 == 0 else raw.decode())
                at += n
            else:
                return None
        return values if at == len(payload) else None
    except (IndexError, UnicodeDecodeError, struct.error):
        return None


def _cells(page: bytes, number: int, usable: int, read: Callable[[int], bytes | None]) -> Iterator[bytes]:
    """The payloads of the cells of a table leaf page (overflow chains followed through `read`)."""
    head = 100 if number == 1 else 0
    if len(page) < head + 8 or page[head] != _LEAF:
        return
    n = struct.unpack(">H", page[head + 3:head + 5])[0]
    limit = usable - 35  # the most a cell holds on its page
    least = (usable - 12) * 32 // 255 - 23
    for k in range(n):
        try:
            at = struct.unpack(">H", page[head + 8 + 2 * k:head + 10 + 2 * k])[0]
            size, at = _varint(page, at)
            _, at = _varint(page, at)  # the rowid
            if size <= limit:
                yield page[at:at + size]
                continue
            local = least + (size - least) % (usable - 4)
            local = local if local <= limit else least
            parts = [page[at:at + local]]
            got, nxt = local, struct.unpack(">I", page[at + local:at + local + 4])[0]
            for _ in range(size // (usable - 4) + 2):
                if got >= size or nxt == 0:
                    break
                over = read(nxt)
                if over is None:
                    break
                parts.append(over[4:4 + min(usable - 4, size - got)])
                got += len(parts[-1])
                nxt = struct.unpack(">I", over[:4])[0]
            if got == size:
                yield b"".join(parts)
        except (IndexError, struct.error):
            continue


def _wal_frames(wal: Path, size: int) -> list[tuple[int, bytes]]:
    """(page number, page) of every frame of a `-wal` file of `size`-byte pages, oldest first."""
    try:
        data = wal.read_bytes()
    except OSError:
        return []
    if len(data) < 32 or struct.unpack(">I", data[:4])[0] not in _WAL_MAGIC \
            or struct.unpack(">I", data[8:12])[0] != size:
        return []
    frames = []
    for at in range(32, len(data) - 24 - size + 1, 24 + size):
        frames.append((struct.unpack(">I", data[at:at + 4])[0], data[at + 24:at + 24 + size]))
    return frames


@dataclass
class _Found:
    """The verified records read from pages: tasks by key, splits by key, meta values by name."""

    tasks: dict[str, list] = field(default_factory=dict)
    splits: dict[str, list] = field(default_factory=dict)
    meta: dict[str, set[str]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.tasks) + len(self.splits) + len(self.meta)


# the types of a task's record, column by column (engine/store.py: SCHEMA); the checksum (format 3) is text
# or NULL, the structure (format 4) a blob or NULL
_TASK: tuple[type | tuple[type, ...], ...] = (str, str, str, int, int, str, int, bytes, bytes, str, (int, float),
                                              (int, float), str, str, (str, type(None)), (bytes, type(None)))


def _is_task(v: list) -> bool:
    return len(v) in (14, 15, 16) and all(isinstance(x, k) for x, k in zip(v, _TASK))


def _split_intact(v: list) -> bool:
    try:
        return codec.split_digest(codec.unpack_index(v[2]), codec.unpack_ints(v[3], "<i2"), v[4]) == v[0]
    except (ValueError, TypeError, zlib.error):
        return False


def _read_pages(path: Path, size: int) -> _Found:
    """The records of every table leaf page of the file and of its `-wal` file, read with `size`-byte pages."""
    found = _Found()
    with open(path, "rb") as f:
        length = f.seek(0, 2)
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if length else None
    try:
        with open(path, "rb") as f:
            head = f.read(100)
        usable = size - (head[20] if _header_page_size(head) == size else 0)
        frames = _wal_frames(path.with_name(path.name + "-wal"), size)
        latest = dict(frames)

        def read(number: int) -> bytes | None:
            if number in latest:
                return latest[number]
            at = (number - 1) * size
            return mm[at:at + size] if mm is not None and 0 < number and at + size <= length else None

        pages = ((n, mm[(n - 1) * size:n * size]) for n in range(1, length // size + 1)) if mm is not None else ()
        for number, page in itertools.chain(pages, frames):
            for payload in _cells(page, number, usable, read):
                v = _record(payload)
                if v is None:
                    continue
                if _is_task(v):
                    v = [*v[:10], float(v[10]), float(v[11]), *v[12:], None, None][:16]
                    if v[14] is None or task_checksum(v[:13], v[15]) == v[14]:
                        found.tasks.setdefault(v[0], v)
                elif len(v) == 5 and [type(x) for x in v] == [str, int, bytes, bytes, str] and _split_intact(v):
                    found.splits.setdefault(v[0], v)
                elif len(v) == 2 and all(isinstance(x, str) for x in v) and v[0] != "table":
                    found.meta.setdefault(v[0], set()).add(v[1])
    finally:
        if mm is not None:
            mm.close()
    return found


def from_pages(path: Path, scratch: Path) -> tuple[Store, int] | None:
    """A scratch store in `scratch` rebuilt from the records of the file's surviving leaf pages
    (tasks that match their checksum, splits that match their key, meta records found once with
    one value), opened read-only, and the number of pages read; None when no page holds a record
    of a results store."""
    length = path.stat().st_size
    with open(path, "rb") as f:
        own = _header_page_size(f.read(100))
    found, size = _Found(), 0
    for size in ([own] if own else []) + [s for s in _SIZES if s != own]:
        found = _read_pages(path, size)
        if found.tasks or found.splits:
            break
    if not found:
        return None
    target = scratch / "pages.sqlite"
    built = Store(target)
    try:
        with built.db:
            for value in found.splits.values():
                built.db.execute("INSERT INTO splits VALUES (?,?,?,?,?)", value)
            for value in found.tasks.values():
                built.db.execute("INSERT INTO tasks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", value)
            for name, values in found.meta.items():
                if len(values) == 1 and name not in ("format", "written_by"):
                    built.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, next(iter(values))))
    finally:
        built.close()
    return Store(target, readonly=True, inspect=True), max(1, length // size)


# -- a survey of a store: what check reports and salvage keeps -----------------------------------
@dataclass
class Survey:
    """What can be read of a store: how SQLite read it ("" as it is), SQLite's integrity check,
    every task found (key, data set, label, run, fold, state, the source that holds it), the rows
    SQLite could not read, the meta records that read back and the names of those that do not, and
    the tasks read from the pages directly (SQLite could not reach them) and the pages read."""

    how: str
    integrity: list[str]
    tasks: list[tuple[str, str, str, int, int, str, Store]]
    lost: list[str]
    meta: dict[str, str]
    damaged_meta: list[str]
    fmt: object
    writer: object
    tables: set[str]
    empty: bool
    sources: list[Store]
    recovered: int = 0
    pages: int = 0

    def reading(self) -> str:
        """How the store was read, in a few words ("" when SQLite read it as it is)."""
        parts = [self.how] if self.how else []
        if self.pages:
            parts.append(f"{self.recovered} task(s) read from its {self.pages} page(s) directly")
        return "; ".join(parts)

    def close(self) -> None:
        for s in self.sources:
            s.close()

    @property
    def kept(self) -> list[tuple[str, str, str, int, int, str, Store]]:
        """The tasks a salvage keeps: every one not damaged."""
        return [t for t in self.tasks if t[5] != "damaged"]

    @property
    def intact(self) -> bool:
        return (self.how == "" and not self.pages and self.integrity == ["ok"] and not self.lost
                and not self.damaged_meta
                and len(self.tables) == 3 and not any(t[5] == "damaged" for t in self.tasks))


def _raw_meta(store: Store, name: str):
    """A meta record's value if it reads back, else the text '(damaged)'."""
    if "meta" not in store.tables:
        return None
    try:
        row = store.db.execute("SELECT value FROM meta WHERE key = ?", (name,)).fetchone()
    except sqlite3.DatabaseError:
        return "(damaged)"
    if row is None:
        return None
    return "(damaged)" if meta_problem(name, row[0]) else json.loads(row[0])


def survey(location: str, scratch: Path) -> Survey:
    """What can be read of the store at `location` (scratch copies go into `scratch`): SQLite's
    reading of the file as it is, else of a corrected copy (`corrected_copy`); and where SQLite
    cannot reach every row, or the tasks table is gone, the records of the pages that survive
    (`from_pages`). UserError when nothing of a results store can be read."""
    path = store_path(location)
    how, primary, sources = "", None, []
    try:
        primary = Store(location, readonly=True, inspect=True)
    except DamagedStore as e:
        if not path.is_file():
            raise
        fixed = corrected_copy(path, scratch)
        if fixed is None:
            how = f"SQLite cannot read it ({e.what.split(': ', 1)[-1]})"
        else:
            primary = Store(fixed[0], readonly=True, inspect=True)
            primary.location = location
            how = f"read from a copy with {fixed[1]}"
    tasks: list = []
    lost: list[str] = []
    integrity = ["not checked: SQLite cannot read the file"]
    meta: dict[str, str] = {}
    damaged_meta: list[str] = []
    fmt: object = None
    writer: object = None
    tables: set[str] = set()
    unreadable = primary is None
    recovered = n_pages = 0
    if primary is not None:
        sources.append(primary)
        tables = set(primary.tables)
        integrity = primary.integrity()
        try:
            found, lost = primary.scan()
            tasks = [(*t, primary) for t in found]
        except sqlite3.DatabaseError:
            unreadable = True
        meta, damaged_meta = primary.readable_meta()
        if "meta" not in tables:
            damaged_meta = []
        fmt, writer = _raw_meta(primary, "format"), _raw_meta(primary, "written_by")
        for name in ("format", "written_by"):
            if _raw_meta(primary, name) == "(damaged)":
                damaged_meta.append(name)
    empty = primary is not None and not tables
    if unreadable or lost or (primary is not None and "tasks" not in tables and not empty):
        pages = from_pages(path, scratch)
        if pages is not None:
            store, n = pages
            sources.append(store)
            store.location = location
            have = {t[0] for t in tasks if t[5] != "damaged"}
            extra = [(*t, store) for t in store.scan()[0] if t[0] not in have]
            tasks = [t for t in tasks if t[5] != "damaged" or t[0] not in {e[0] for e in extra}] + extra
            got, _ = store.readable_meta()
            meta = {**got, **meta}
            damaged_meta = [m for m in damaged_meta if m not in meta]
            recovered, n_pages = len(extra), n
    if not sources:
        raise UserError(f"{location}: SQLite cannot read {path.name} and none of its pages holds a task of a results "
                        f"store: it is not a bncbench results store, or nothing of it survives; run the config again "
                        f"into a new --results folder")
    return Survey(how, integrity, tasks, lost, meta, damaged_meta, fmt, writer, tables, empty, sources, recovered,
                  n_pages)
