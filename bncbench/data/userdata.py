"""Your own data files: how a config's `{name, path}` entry is read (docs/algorithms.md §1.8)."""

from __future__ import annotations

import codecs
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from bncbench.data.dataset import Dataset
from bncbench.data.loaders import (
    RawTable,
    build_dataset,
    column_list,
    parse_arff,
    parse_delimited,
)
from bncbench.errors import DataError, UserError
from bncbench.utils.suggest import did_you_mean

#: the strings pandas' read_csv reads as NA by default (pandas 2 and 3: `na_values` left unset)
PANDAS_NA = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
             "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null")
#: the missing-value markers of a CSV or TSV file whose entry sets no `missing_values`
DEFAULT_MISSING = ("?", *PANDAS_NA)
#: the text encoding of a file whose entry names none
DEFAULT_ENCODING = "utf-8"
#: bump when the reading of a user's file changes, so that its tasks are computed again
READER_VERSION = 1
#: how many stray tokens an error message names
_SHOWN = 5


@dataclass(frozen=True)
class ReadOptions:
    """A config entry's reading of its file: its missing-value markers (None: the defaults), the
    columns declared nominal or numeric, the columns left out (names), and its text encoding
    (UTF-8 by default, a byte-order mark accepted)."""

    missing_values: tuple[str, ...] | None = None
    nominal: tuple[str, ...] = ()
    numeric: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()
    encoding: str = DEFAULT_ENCODING

    def markers(self) -> tuple[str, ...]:
        """The missing-value markers in force: the entry's own plus the empty cell, or the defaults."""
        if self.missing_values is None:
            return DEFAULT_MISSING
        return tuple(dict.fromkeys(("", *self.missing_values)))


def file_format(path: str | Path) -> str:
    """"arff", "tsv" or "csv", from the file name's extension."""
    suffix = Path(path).suffix.lower()
    return {".arff": "arff", ".tsv": "tsv", ".tab": "tsv"}.get(suffix, "csv")


def load_user(name: str, path: str, class_column: int | str | None = None,
              options: ReadOptions = ReadOptions()) -> Dataset:
    """Load a user's ARFF, CSV or TSV file as the module docstring says (DataError, one line, on
    anything it cannot read as meant)."""
    p = Path(path)
    if not p.is_file():
        raise UserError(f"data set {name!r}: file {path} does not exist")
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise DataError(f"cannot read {path}: {e.strerror}") from None
    path = str(path)
    fmt = file_format(path)
    text = decode(raw, options.encoding, path)
    cc = -1 if class_column is None else class_column
    if fmt == "arff":
        if options.nominal or options.numeric or options.missing_values is not None:
            raise DataError(f"{path}: an ARFF file declares its columns' types and marks a missing value with ?; "
                            f"nominal, numeric and missing_values apply to CSV and TSV files")
        table = parse_arff(text, path)
        ci = _class_index(table, cc, path)
        drop = _indices(table, options.drop, "drop", path)
        _check_not_class(table, ci, drop, "drop", path)
        ds = build_dataset(name, table, ci, drop=drop, where=path)
    else:
        table = parse_delimited(text, path, "\t" if fmt == "tsv" else ",", 0, has_names=True)
        _check_header(table, path)
        ci = _class_index(table, cc, path)
        drop = _indices(table, options.drop, "drop", path)
        nominal = _indices(table, options.nominal, "nominal", path)
        numeric = _indices(table, options.numeric, "numeric", path)
        _check_not_class(table, ci, drop, "drop", path)
        _check_not_class(table, ci, numeric, "numeric", path)
        markers = options.markers()
        skip = set(drop) | {ci}
        numeric_cols = [j for j in range(len(table.names))
                        if j not in skip and _is_numeric(table, j, markers, j in nominal, j in numeric, path)]
        ds = build_dataset(name, table, ci, drop=drop, numeric=numeric_cols, missing_tokens=markers, where=path)
    recipe = {"format": fmt, "class": cc, "reader": READER_VERSION, "drop": list(options.drop),
              "nominal": list(options.nominal), "numeric": list(options.numeric),
              "missing_values": list(options.markers()) if fmt != "arff" else ["?"],
              **({"encoding": options.encoding} if options.encoding != DEFAULT_ENCODING else {})}
    ds.checksums = {path: hashlib.sha256(raw).hexdigest(),
                    "recipe": hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()}
    _check_classes(ds, table.names[ci], path)
    return ds


def decode(raw: bytes, encoding: str, path: str) -> str:
    """The file's text in `encoding` (UTF-8: a spreadsheet's byte-order mark is not part of a
    name); a byte not valid in it is refused with its line, column and value (DataError)."""
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        hint = ("add `encoding: latin-1` (or `cp1252` for a file from Windows) to its entry if it was written in "
                "another encoding") if codec == "utf-8-sig" else "name the encoding it was written in"
        raise DataError(f"{path}: line {line}, column {column}: byte 0x{raw[e.start]:02x} is not valid {encoding}; "
                        f"{hint}") from None


def _check_header(table: RawTable, path: str) -> None:
    """Every column has a name of its own."""
    seen: dict[str, int] = {}
    for j, n in enumerate(table.names):
        if not n:
            raise DataError(f"{path}: column {j + 1} has no name in the header line (a pandas index written "
                            f"with to_csv? write with index=False, or name the column)")
        if n in seen:
            raise DataError(f"{path}: the header names columns {seen[n] + 1} and {j + 1} both {n!r}; give each "
                            f"column its own name")
        seen[n] = j


def _class_index(table: RawTable, cc: int | str, path: str) -> int:
    width = len(table.names)
    if isinstance(cc, str):
        if cc not in table.names:
            raise DataError(f"{path}: class: no column {cc!r}{did_you_mean(cc, table.names)}; the columns are "
                            f"{column_list(table.names)}")
        return table.names.index(cc)
    if not -width <= cc < width:
        raise DataError(f"{path}: class: column {cc} is out of range (the file has {width} columns)")
    return cc % width


def _indices(table: RawTable, names: tuple[str, ...], key: str, path: str) -> list[int]:
    """The column indices of `names` (one line naming the first unknown one and the nearest)."""
    out = []
    for n in names:
        if n not in table.names:
            raise DataError(f"{path}: {key}: no column {n!r}{did_you_mean(n, table.names)}; the columns are "
                            f"{column_list(table.names)}")
        out.append(table.names.index(n))
    return out


def _check_not_class(table: RawTable, ci: int, cols: list[int], key: str, path: str) -> None:
    if ci in cols:
        raise DataError(f"{path}: {key}: {table.names[ci]!r} is the class column"
                        + (" (the class is always nominal)" if key == "numeric" else ""))


def _number(token: str) -> bool:
    """Whether a cell is a finite number as a CSV writes one ("1_000", "inf" and "nan" are not)."""
    if "_" in token:
        return False
    try:
        return math.isfinite(float(token))
    except ValueError:
        return False


def _is_numeric(table: RawTable, j: int, markers: tuple[str, ...], nominal: bool, numeric: bool, path: str) -> bool:
    """Whether column j is numeric: declared, or inferred from its cells (DataError when a column
    that is mostly numbers, or declared numeric, holds other tokens)."""
    if nominal:
        return False
    missing = set(markers)
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for r, row in enumerate(table.rows):
        v = row[j]
        if v in missing:
            continue
        if v not in counts:
            counts[v] = 0
            first[v] = table.lines[r]
        counts[v] += 1
    stray = [v for v in counts if not _number(v)]
    if not stray:
        return True
    n_stray = sum(counts[v] for v in stray)
    n_numbers = sum(counts.values()) - n_stray
    if not numeric and n_numbers <= n_stray:
        return False
    stray.sort(key=first.__getitem__)
    shown = ", ".join(f"{v!r} ({counts[v]}×, first on line {first[v]})" if counts[v] > 1
                      else f"{v!r} (line {first[v]})" for v in stray[:_SHOWN])
    more = f" and {len(stray) - _SHOWN} more" if len(stray) > _SHOWN else ""
    name = table.names[j]
    if numeric:
        raise DataError(f"{path}: column {name!r} is declared numeric but holds {shown}{more}; list the markers "
                        f"of missing values under missing_values: (docs/datasets.md)")
    raise DataError(f"{path}: column {name!r} holds {n_numbers} numbers and {n_stray} other cell(s): {shown}{more}; "
                    f"list them under missing_values: if they mark missing values, or declare the column "
                    f"nominal: [{name}] (docs/datasets.md)")


def _check_classes(ds: Dataset, cname: str, path: str) -> None:
    present = sorted({ds.classes[c] for c in set(ds.y.tolist())})
    if len(present) < 2:
        shown = f" ({present[0]!r})" if present else ""
        raise DataError(f"{path}: the class column {cname!r} has {len(present)} distinct value(s){shown}; a "
                        f"classification data set needs at least 2 (set `class:` in the config if the class "
                        f"is not the last column)")
