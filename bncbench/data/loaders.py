"""Parsers for ARFF files and delimited UCI text files into a `Dataset`."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

import numpy as np

from bncbench.data.dataset import Attribute, Dataset
from bncbench.errors import DataError
from bncbench.utils.suggest import did_you_mean

_NUMERIC_TYPES = {"numeric", "real", "integer"}


def _split_values(text: str) -> list[str]:
    """Split a comma-separated ARFF value list, honouring single and double quotes."""
    reader = csv.reader(io.StringIO(text), quotechar="'", skipinitialspace=True, escapechar="\\")
    row = next(reader, [])
    return [v.strip().strip('"') for v in row]


def _unquote(name: str) -> str:
    name = name.strip()
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        return name[1:-1]
    return name


_ATTR_RE = re.compile(r"""^@attribute\s+('[^']*'|"[^"]*"|\S+)\s+(.*)$""", re.IGNORECASE)


@dataclass
class RawTable:
    """Columns as strings plus declared types, before the class is taken out."""

    names: list[str]
    declared: list[list[str] | None]  # nominal values, or None for numeric
    rows: list[list[str]] = field(default_factory=list)
    typed: bool = False  # True when the file declares the types (ARFF)
    lines: list[int] = field(default_factory=list)  # the file line number of each row (1-based)


def parse_arff(text: str, where: str) -> RawTable:
    """Parse dense ARFF text. `where` names the file in error messages."""
    names: list[str] = []
    declared: list[list[str] | None] = []
    lines = text.splitlines()
    i = 0
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith("%"):
            continue
        low = s.lower()
        if low.startswith("@relation"):
            continue
        if low.startswith("@attribute"):
            m = _ATTR_RE.match(s)
            if not m:
                raise DataError(f"{where}:{i + 1}: cannot parse attribute declaration {s[:60]!r}")
            names.append(_unquote(m.group(1)))
            typ = m.group(2).strip()
            if typ.startswith("{"):
                if not typ.endswith("}"):
                    raise DataError(f"{where}:{i + 1}: unterminated nominal value list")
                declared.append(_split_values(typ[1:-1]))
            elif typ.lower() in _NUMERIC_TYPES:
                declared.append(None)
            else:
                raise DataError(f"{where}:{i + 1}: attribute type {typ!r} is not supported (nominal or numeric only)")
            continue
        if low.startswith("@data"):
            break
        raise DataError(f"{where}:{i + 1}: unexpected line before @data: {s[:60]!r}")
    else:
        raise DataError(f"{where}: no @data section (truncated or not an ARFF file)")
    if not names:
        raise DataError(f"{where}: no @attribute declarations")
    table = RawTable(names, declared, typed=True)
    width = len(names)
    body = [(ln, l) for ln, l in enumerate(lines[i + 1:], start=i + 2) if l.strip() and not l.lstrip().startswith("%")]
    # one reader over the data lines: `line_num` (lines consumed) maps each row to its file line
    reader = csv.reader((l for _, l in body), quotechar="'", skipinitialspace=True, escapechar="\\")
    for row in reader:
        line_no = body[reader.line_num - 1][0]
        if row and row[0].startswith("{"):
            raise DataError(f"{where}:{line_no}: sparse ARFF rows are not supported")
        if len(row) != width:
            raise DataError(f"{where}:{line_no}: {len(row)} values, expected {width} (truncated or malformed file)")
        table.rows.append([v.strip().strip('"') for v in row])
        table.lines.append(line_no)
    return table


def parse_delimited(text: str, where: str, sep: str, header_lines: int = 0,
                    has_names: bool = False) -> RawTable:
    """Parse a UCI text file (`sep` a delimiter such as "," or "\t", or "whitespace"; no type
    declarations; `has_names`: the first row names the columns)."""
    lines = text.splitlines()[header_lines:]
    names: list[str] = []
    rows: list[list[str]] = []
    numbers: list[int] = []
    names_line = 0
    for ln, line in enumerate(lines, start=header_lines + 1):
        s = line.strip()
        if not s:
            continue
        if sep == "whitespace":
            vals = s.split()
        else:
            vals = [v.strip().strip('"') for v in next(csv.reader([s], delimiter=sep, quotechar='"'))]
        if has_names and not names_line:
            names, names_line = vals, ln
            continue
        rows.append(vals)
        numbers.append(ln)
    if not rows:
        raise DataError(f"{where}: no data rows" + (" (only a header line)" if names_line else " (empty file)"))
    width = len(names) if names_line else len(rows[0])
    for ln, vals in zip(numbers, rows):
        if len(vals) != width:
            expected = f"but the header names {width} columns" if names_line else f"expected {width}"
            raise DataError(f"{where}:{ln}: {len(vals)} values, {expected} (truncated or malformed line)")
    if not names_line:
        names = [f"a{j + 1}" for j in range(width)]
    return RawTable(names, [None] * width, rows, lines=numbers)


def _sorted_values(values: set[str]) -> list[str]:
    """Nominal values in order: by number when every value is a number, else as text."""
    try:
        return sorted(values, key=float)
    except ValueError:
        return sorted(values)


def column_list(names: list[str], limit: int = 12) -> str:
    """The column names of an error message; "..." only when some are left out."""
    if len(names) <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit])}, ... ({len(names)} columns)"


def build_dataset(name: str, table: RawTable, class_column: int | str, *,
                  drop: list[int] | None = None, numeric: list[int] | str | None = None,
                  missing_tokens: tuple[str, ...] = ("?",), class_strip: str = "",
                  class_map: dict[str, str] | None = None, class_blocks: dict | None = None,
                  where: str = "") -> Dataset:
    """Turn a `RawTable` into a `Dataset` (docs/algorithms.md §1.8)."""
    width = len(table.names)
    if class_blocks is not None:
        size, labels = int(class_blocks["size"]), list(class_blocks["labels"])
        n = len(table.rows)
        if n != size * len(labels):
            raise DataError(f"{where}: {n} rows, expected {size} × {len(labels)} class blocks (truncated file?)")
        table = RawTable(table.names + ["class"], table.declared + [labels],
                         [r + [labels[i // size]] for i, r in enumerate(table.rows)], table.typed, table.lines)
        class_column = width
        width += 1
        if numeric == "all":
            numeric = list(range(width - 1))
    if isinstance(class_column, str):
        if class_column not in table.names:
            raise DataError(f"{where}: no column named {class_column!r}{did_you_mean(class_column, table.names)} "
                            f"(columns: {column_list(table.names)})")
        ci = table.names.index(class_column)
    else:
        if not -width <= class_column < width:
            raise DataError(f"{where}: class column {class_column} is out of range (file has {width} columns)")
        ci = class_column % width
    drop_set = {d % width for d in (drop or [])}
    if numeric == "all":
        numeric = [j for j in range(width) if j != ci]
    numeric_set = {c % width for c in (numeric or [])}
    missing = set(missing_tokens)
    cols = list(zip(*table.rows)) if table.rows else [() for _ in range(width)]

    raw_class = [v.rstrip(class_strip) if class_strip else v for v in cols[ci]]
    if class_map:
        raw_class = [class_map.get(v, v) if v not in missing else v for v in raw_class]
    keep = np.array([v not in missing for v in raw_class], dtype=bool)
    line_of = [ln for ln, k in zip(table.lines, keep) if k] if len(table.lines) == len(table.rows) else None
    declared_classes = table.declared[ci]
    if declared_classes is not None and not class_map and (table.typed or class_blocks is not None):
        classes = list(declared_classes)
    else:
        classes = _sorted_values({v for v, k in zip(raw_class, keep) if k})
    cindex = {v: k for k, v in enumerate(classes)}
    try:
        y = np.array([cindex[v] for v, k in zip(raw_class, keep) if k], dtype=np.int32)
    except KeyError as e:
        raise DataError(f"{where}: class value {e.args[0]!r} is not declared") from None

    attributes: list[Attribute] = []
    columns: list[np.ndarray] = []
    for j in range(width):
        if j == ci or j in drop_set:
            continue
        col = [v for v, k in zip(cols[j], keep) if k]
        decl = table.declared[j]
        is_numeric = decl is None if table.typed else j in numeric_set
        if is_numeric:
            arr = np.empty(len(col), dtype=np.float64)
            for r, v in enumerate(col):
                if v in missing:
                    arr[r] = np.nan
                else:
                    try:
                        arr[r] = float(v)
                    except ValueError:
                        at = f"line {line_of[r]}" if line_of else f"row {r + 1}"
                        raise DataError(f"{where}: column {table.names[j]!r}, {at}: {v!r} is not a number") from None
            attributes.append(Attribute(table.names[j]))
            columns.append(arr)
        else:
            values = list(decl) if decl is not None else _sorted_values({v for v in col if v not in missing})
            index = {v: k for k, v in enumerate(values)}
            try:
                codes = np.array([-1 if v in missing else index[v] for v in col], dtype=np.int32)
            except KeyError as e:
                raise DataError(f"{where}: column {table.names[j]!r}: value {e.args[0]!r} is not declared") from None
            attributes.append(Attribute(table.names[j], values))
            columns.append(codes)
    return Dataset(name, attributes, columns, y, classes)
