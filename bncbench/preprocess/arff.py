"""ARFF export of preprocessed folds, so any result can be re-checked in Weka or elsewhere."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bncbench.data.dataset import Dataset
from bncbench.preprocess.encode import Encoded
from bncbench.utils.files import atomic_write

MISSING_VALUE = "_missing_"


def _quote(s: str) -> str:
    if any(ch in s for ch in " ,'\"{}%\\") or s == "?" or not s:
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return s


def value_names(ds: Dataset, enc: Encoded, missing_mode: str) -> list[list[str]]:
    """Names of the codes 0..K−1 of each encoded attribute (code order = ARFF declaration order)."""
    out = []
    for i, a in enumerate(ds.attributes):
        k = int(enc.cardinalities[i])
        if a.values is not None:
            names = list(a.values)
        else:
            c = enc.cuts[i]
            edges = ["-inf"] + [repr(float(x)) for x in c] + ["inf"]
            names = [f"({edges[j]}-{edges[j + 1]}]" for j in range(len(c) + 1)]
        if len(names) < k:  # the distinct missing value
            names.append(MISSING_VALUE)
        out.append(names[:k] if missing_mode == "distinct" else names)
    return out


def write_arff(path: Path, relation: str, ds: Dataset, names: list[list[str]], X: np.ndarray, y: np.ndarray) -> None:
    """Rows of codes `X` (code c of attribute j written as names[j][c], −1 as ?) with classes `y`."""
    declarations = [f"{{{','.join(_quote(v) for v in vals)}}}" for vals in names]
    rows = [["?" if c < 0 else _quote(names[j][c]) for j, c in enumerate(row)] for row in X]
    _write(path, relation, ds, declarations, rows, y)


def write_raw_arff(path: Path, relation: str, ds: Dataset, index: np.ndarray) -> None:
    """The undiscretised rows `index` of a data set, what a baseline with `input: raw` starts
    from: numeric attributes as numbers (repr of the float64), nominal ones by their declared
    values, ? for a missing value."""
    declarations = ["numeric" if a.values is None else f"{{{','.join(_quote(v) for v in a.values)}}}"
                    for a in ds.attributes]
    columns = []
    for a, col in zip(ds.attributes, ds.columns):
        part = col[index]
        if a.values is None:
            columns.append(["?" if np.isnan(v) else repr(float(v)) for v in part])
        else:
            columns.append(["?" if c < 0 else _quote(a.values[c]) for c in part])
    _write(path, relation, ds, declarations, [list(r) for r in zip(*columns)] or [[] for _ in index], ds.y[index])


def _write(path: Path, relation: str, ds: Dataset, declarations: list[str], rows: list[list[str]],
           y: np.ndarray) -> None:
    """An ARFF file of the data set's attributes (their `declarations`), the rows' cells and classes."""
    lines = [f"@relation {_quote(relation)}", ""]
    for a, declared in zip(ds.attributes, declarations):
        lines.append(f"@attribute {_quote(a.name)} {declared}")
    lines.append(f"@attribute class {{{','.join(_quote(c) for c in ds.classes)}}}")
    lines += ["", "@data"]
    for cells, label in zip(rows, y):
        lines.append(",".join([*cells, _quote(ds.classes[label])]))
    with atomic_write(path, "w", encoding="utf-8", suffix="") as f:
        f.write("\n".join(lines) + "\n")
