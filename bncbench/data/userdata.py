"""Your own data files: how a config's `{name, path}` entry is read (docs/algorithms.md §1.8)."""

from __future__ import annotations

import codecs
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from bncbench.data.dataset import ClassColumn, Dataset
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
              options: ReadOptions = ReadOptions(), where: str = "") -> Dataset:
    """Load a user's ARFF, CSV or TSV file as the module docstring says (DataError, one line, on
    anything it cannot read as meant). `where` names the config entry of the file
    ("config.yaml:LINE: datasets.I.path") in the message of a missing file."""
    p = Path(path)
    if not p.is_file():
        what = "is a folder, not a file" if p.is_dir() else ("is not a regular file (a device, a pipe or a socket)"
                                                              if p.exists() else "does not exist")
        where_looked = " (a relative path is looked for from the current folder, then from the config's folder)"
        raise UserError(f"{where + ': ' if where else ''}data set {name!r}: {path} {what}"
                        f"{where_looked if what == 'does not exist' else ''}")
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
        _check_header(table, path)
        ci = _class_index(table, cc, path)
        if table.declared[ci] is None:
            raise DataError(f"{path}: the class attribute {table.names[ci]!r} is numeric; bncbench classifies "
                            f"nominal classes: name a nominal attribute with `class:` in the data set's entry, or "
                            f"declare the class's values in the file (@attribute {table.names[ci]} {{a,b,c}})")
        drop = _indices(table, options.drop, "drop", path)
        _check_not_class(table, ci, drop, "drop", path)
        _check_attributes(table, ci, drop, path)
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
        _check_attributes(table, ci, drop, path)
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
    ds.class_column = ClassColumn(table.names[ci], class_column is not None, len(table.rows) - ds.n_instances)
    return ds


def decode(raw: bytes, encoding: str, path: str) -> str:
    """The file's text in `encoding` (UTF-8: a spreadsheet's byte-order mark is not part of a
    name); a byte not valid in it is refused with its line, column and value, a file in UTF-16 or
    UTF-32 read under another encoding with the encoding to name, and a NUL byte (not text) with
    its line (DataError)."""
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    bad = 0
    try:
        text: str | None = raw.decode(codec).removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        text, bad = None, e.start
    if text is not None and "\x00" not in text:
        return text
    wide = wide_encoding(raw)
    if wide is not None and codecs.lookup(wide).name != codecs.lookup(encoding).name:
        raise DataError(f"{path}: the file is in {wide.upper()}, not {encoding}; set `encoding: {wide}` in its entry")
    nul = raw.find(b"\x00")  # a NUL read as text, or in a file that is not text in any encoding
    at = nul if nul >= 0 else bad
    line = raw.count(b"\n", 0, at) + 1
    column = at - (raw.rfind(b"\n", 0, at) + 1) + 1
    if nul >= 0:
        raise DataError(f"{path}: line {line}, column {column}: a NUL byte: this is not a text file (a spreadsheet or "
                        f"another binary format?); save it as CSV")
    hint = ("add `encoding: latin-1` (or `cp1252` for a file from Windows) to its entry if it was written in "
            "another encoding") if codec == "utf-8-sig" else "name the encoding it was written in"
    raise DataError(f"{path}: line {line}, column {column}: byte 0x{raw[at]:02x} is not valid {encoding}; {hint}")


#: the byte-order marks of UTF-32 (first: UTF-32-LE's starts with UTF-16-LE's) and UTF-16
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def wide_encoding(raw: bytes) -> str | None:
    """"utf-16" or "utf-32" for a file that starts with their byte-order mark, "utf-16-le" (-be,
    "utf-32-le", -be) for one whose NUL bytes fall where that encoding puts them in text (every
    second or the last three of four bytes are NUL); only an encoding the whole file decodes in,
    without NUL characters, else None."""
    found = next((name for bom, name in _BOMS if raw.startswith(bom)), None)
    if found is None:
        head = raw[:4096]
        n = len(head) - len(head) % 4
        if n == 0 or b"\x00" not in head:
            return None
        layouts = (("utf-32-le", 4, (2, 3)), ("utf-32-be", 4, (0, 1)), ("utf-16-le", 2, (1,)), ("utf-16-be", 2, (0,)))
        found = next((name for name, step, offsets in layouts  # every byte at these offsets of a unit is NUL
                      if all(head[i + o] == 0 for i in range(0, n, step) for o in offsets)), None)
    if found is None:
        return None
    try:
        text = raw.decode(found)
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else found


def _check_attributes(table: RawTable, ci: int, drop: list[int], path: str) -> None:
    """At least one column besides the class is left to classify with."""
    if not set(range(len(table.names))) - {ci, *drop}:
        what = (f"every column but the class {table.names[ci]!r} is under drop:; keep at least one" if drop else
                f"the file holds only the class column {table.names[ci]!r}; add the attributes' columns")
        raise DataError(f"{path}: no attribute to classify with: {what}")


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


def is_number(token: str) -> bool:
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
    stray = [v for v in counts if not is_number(v)]
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
        shown = f" ({present[0]!r})" if present else " (it is missing in every row)"
        raise DataError(f"{path}: the class column {cname!r} has {len(present)} distinct value(s){shown}; a "
                        f"classification data set needs at least 2 (set `class:` in the config if the class "
                        f"is not the last column)")
