"""Wide tables read from files: a published table as a paper prints it (docs/algorithms.md §6.10)."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

from bncbench.errors import UserError

MISSING_CELLS = ("", "-", "–", "—", "n/a")  # a wide-table cell holding no value (n/a in any case; also nan)
SD_SEPARATORS = ("±", "+/-", "+-")  # between mean and sd in a cell
MAX_TABLE_BYTES = 4 << 20  # a paper's table is a few KiB: more is not one (and is never read whole)


@dataclass
class WideTable:
    """A wide table as read: its data sets and classifier columns in file order, each cell's text
    and mean, and the line of each data set's row (for messages)."""

    path: str
    datasets: list[str]
    labels: list[str]                         # the header's classifier columns, stripped
    cells: dict[tuple[str, str], str]         # (data set, label) -> the cell as written
    means: dict[tuple[str, str], float]       # (data set, label) -> the cell's mean (NaN: missing)
    lines: dict[str, int]                     # data set -> line number of its row in the file


def _parse_mean(cell: str) -> float | None:
    """The mean of a wide-table cell ('0.1234', '0.1234 ± 0.01', '+-', '+/-'); NaN for a missing
    value; None when it is not a number."""
    txt = cell
    for sep in SD_SEPARATORS:
        txt = txt.split(sep)[0]
    txt = txt.strip()
    if txt.lower() in MISSING_CELLS:
        return math.nan
    try:
        x = float(txt)
    except ValueError:
        return None
    return None if math.isinf(x) else x  # 'nan' (as numpy writes a missing value) is missing too


def split_cell(cell: str) -> tuple[str, str | None]:
    """(mean text, sd text or None) of a cell, stripped."""
    for sep in SD_SEPARATORS:
        if sep in cell:
            mean, sd = cell.split(sep, 1)
            return mean.strip(), sd.strip()
    return cell.strip(), None


def read(path: str, columns: int = 2) -> WideTable:
    """A wide table (TSV or CSV, see the module docstring) of at least `columns` classifier
    columns, its shape and every cell's mean checked; UserError naming the file and line of the
    first problem."""
    p = Path(path)
    if p.exists() and not p.is_file():
        raise UserError(f"{path}: not a file (a folder or a device); give a TSV or CSV table")
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_TABLE_BYTES + 1)
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror}") from None
    if len(raw) > MAX_TABLE_BYTES:
        raise UserError(f"{path}: larger than {MAX_TABLE_BYTES >> 20} MiB; a published table is a short TSV or CSV "
                        f"file (is this the right file?)")
    if raw.startswith(b"SQLite format 3\x00"):
        raise UserError(f"{path}: an SQLite file, not a table; give its results directory or name it results.sqlite")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not a UTF-8 text table (byte {e.start}); save it as UTF-8 TSV or CSV") from None
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delim = "\t" if "\t" in first else ","
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    rows = []  # (line number in the file, cells)
    for r in reader:
        if r and any(c.strip() for c in r):
            rows.append((reader.line_num, r))
    if len(rows) < 2 or len(rows[0][1]) < 1 + columns:
        names = ", ".join(["dataset", *["classifier"] * columns, "..."])
        semicolons = " (its cells are separated by ';': save it as TSV or comma-separated CSV)" if (
            rows and len(rows[0][1]) == 1 and ";" in first) else ""
        raise UserError(f"{path}: expected a header ({names}) and at least one row{semicolons}")
    header = rows[0][1]
    labels = [h.strip() for h in header[1:]]
    for i, lab in enumerate(labels):
        if not lab or lab in labels[:i]:
            raise UserError(f"{path}:{rows[0][0]}: column {i + 2} of the header is "
                            f"{'empty' if not lab else f'{lab!r} again'}; every classifier needs its own name")
    table = WideTable(path, [], labels, {}, {}, {})
    for ln, r in rows[1:]:
        if len(r) != len(header):
            raise UserError(f"{path}:{ln}: {len(r)} cells, the header has {len(header)}")
        ds = r[0].strip()
        if not ds:
            raise UserError(f"{path}:{ln}: the first cell (the data set's name) is empty")
        if ds in table.lines:
            raise UserError(f"{path}:{ln}: data set {ds!r} is already on line {table.lines[ds]}")
        table.lines[ds] = ln
        table.datasets.append(ds)
        for lab, cell in zip(labels, r[1:]):
            mean = _parse_mean(cell)
            if mean is None:
                raise UserError(f"{path}:{ln}: {cell.strip()!r} ({lab}) is not a number, 'mean ± sd', "
                                f"or a missing value (-, –, —, n/a, empty)")
            table.cells[(ds, lab)] = cell
            table.means[(ds, lab)] = mean
    return table


def read_wide_table(path: str) -> tuple[list[str], list[str], dict]:
    """(data sets, classifiers, {(data set, classifier): (mean, NaN)}) of a wide table (`read`):
    only the means are used; a missing value is NaN."""
    t = read(path)
    return t.datasets, t.labels, {k: (mean, math.nan) for k, mean in t.means.items()}
