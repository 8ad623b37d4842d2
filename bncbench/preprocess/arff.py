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
    lines = [f"@relation {_quote(relation)}", ""]
    for a, vals in zip(ds.attributes, names):
        lines.append(f"@attribute {_quote(a.name)} {{{','.join(_quote(v) for v in vals)}}}")
    lines.append(f"@attribute class {{{','.join(_quote(c) for c in ds.classes)}}}")
    lines += ["", "@data"]
    for row, label in zip(X, y):
        cells = ["?" if c < 0 else _quote(names[j][c]) for j, c in enumerate(row)]
        cells.append(_quote(ds.classes[label]))
        lines.append(",".join(cells))
    with atomic_write(path, "w", encoding="utf-8", suffix="") as f:
        f.write("\n".join(lines) + "\n")
