"""New rows for a fitted model: an ARFF or CSV file's columns into the model's codes, by its stored
preprocessing (docs/models.md: Predicting)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bncbench.data.loaders import RawTable, column_list, parse_arff, parse_delimited
from bncbench.data.userdata import DEFAULT_MISSING, decode, file_format
from bncbench.errors import DataError, UserError
from bncbench.models.fitting import Preprocessing
from bncbench.preprocess.discretize import apply_cuts


def read_table(path: str | Path) -> tuple[RawTable, tuple[str, ...]]:
    """The rows of an ARFF, CSV or TSV file (by its extension, as a config's own file is read) and
    its missing-value markers."""
    p = Path(path)
    if not p.is_file():
        raise UserError(f"{path}: {'is a folder, not a file' if p.is_dir() else 'no such file'}")
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None
    try:
        text = decode(raw, "utf-8", str(path))
    except DataError as e:  # its advice is a config entry's `encoding:`, which predict has not
        raise DataError(f"{str(e).rsplit('; ', 1)[0]}; save it as UTF-8 text (predict reads UTF-8 only)") from None
    fmt = file_format(path)
    if fmt == "arff":
        return parse_arff(text, str(path)), ("?",)
    return parse_delimited(text, str(path), "\t" if fmt == "tsv" else ",", 0, has_names=True), DEFAULT_MISSING


def codes(pre: Preprocessing, table: RawTable, markers: tuple[str, ...], where: str) -> np.ndarray:
    """The (rows, attributes) int64 codes the model's classifier takes: each attribute's column
    found by name (other columns, such as the class, ignored), a missing or undeclared nominal
    value and a missing number missing (−1), imputed under `missing: impute`, numbers binned by
    the stored cut points, and a missing value given its own code where the model has one."""
    where_col = {n: j for j, n in enumerate(table.names)}
    twice = [n for n in pre.names if table.names.count(n) > 1]
    if twice:
        raise UserError(f"{where}: the column {twice[0]!r} is there more than once; keep one")
    absent = [n for n in pre.names if n not in where_col]
    if absent:
        raise UserError(f"{where}: no column {', '.join(repr(n) for n in absent[:5])}"
                        f"{' ...' if len(absent) > 5 else ''}; the model needs the columns {column_list(pre.names)}")
    cols = list(zip(*table.rows)) if table.rows else [() for _ in table.names]
    n = len(table.rows)
    out = np.empty((n, len(pre.names)), dtype=np.int64)
    miss_tokens = np.array(markers)
    for i, name in enumerate(pre.names):
        cells = np.array(cols[where_col[name]], dtype=str) if n else np.empty(0, dtype=str)
        missing = np.isin(cells, miss_tokens)
        values = pre.values[i]
        if values is not None:
            index = {v: k for k, v in enumerate(values)}
            uniq, inv = np.unique(cells, return_inverse=True)
            known = np.array([index.get(str(u), -1) for u in uniq], dtype=np.int64)
            x = np.where(missing, -1, known[inv.reshape(-1)]) if n else np.empty(0, np.int64)
            col = x.astype(np.float64)
            col[x < 0] = np.nan
        else:
            col = np.full(n, np.nan)
            try:
                col[~missing] = cells[~missing].astype(np.float64)
            except ValueError:
                r, bad = next((r, str(c)) for r, c in enumerate(cells) if not missing[r] and not _is_float(c))
                raise DataError(f"{where}: column {name!r}, row {r + 1}: {bad!r} is not a number") from None
        if pre.imputed is not None:
            col = np.where(np.isnan(col), pre.imputed[i], col)
        cut = pre.cuts[i]
        c = np.where(np.isnan(col), -1, col).astype(np.int64) if cut is None else apply_cuts(col, cut).astype(np.int64)
        c[np.isnan(col)] = int(pre.cardinalities[i]) - 1 if pre.missing_code[i] else -1
        out[:, i] = c
    return out


def _is_float(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True
