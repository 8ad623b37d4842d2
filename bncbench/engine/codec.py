"""How a task's output becomes the stored columns of the results store, and back (docs/architecture.md)."""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from bncbench.evaluate.terms import instance_sums


def split_digest(test_index: np.ndarray, y_true: np.ndarray, classes_json: str) -> str:
    """A split's key: sha256 of its test rows (int64), classes (int16) and class names (JSON)."""
    index = np.ascontiguousarray(test_index, dtype="<i8")
    y = np.ascontiguousarray(y_true, dtype="<i2")
    return hashlib.sha256(index.tobytes() + b"\0" + y.tobytes() + b"\0" + classes_json.encode()).hexdigest()


@dataclass
class Encoded:
    """A task's stored form: its fold's split (shared by the fold's classifiers) and its own columns."""

    split_key: str
    n: int
    test_index: np.ndarray  # int64, packed by pack_split only when the split is new
    y_true: np.ndarray      # int16
    classes_json: str
    n_classes: int
    pred: bytes
    proba: bytes
    sums: str


def pack_ints(a: np.ndarray, dtype: str) -> bytes:
    return zlib.compress(np.ascontiguousarray(a, dtype=dtype).tobytes(), 1)


def unpack_ints(b: bytes, dtype: str) -> np.ndarray:
    return np.frombuffer(zlib.decompress(b), dtype=dtype).astype(np.int64)


def pack_proba(p: np.ndarray) -> bytes:
    """float32, byte-shuffled (all first bytes, then all second bytes, ...), zlib."""
    f = np.ascontiguousarray(p, dtype="<f4")
    return zlib.compress(f.view(np.uint8).reshape(-1, 4).T.tobytes(), 1)


def unpack_proba(b: bytes, n: int, n_classes: int) -> np.ndarray:
    raw = np.frombuffer(zlib.decompress(b), dtype=np.uint8).reshape(4, -1).T
    return np.ascontiguousarray(raw).view("<f4").reshape(n, n_classes).astype(np.float64)


def pack_index(idx: np.ndarray) -> bytes:
    """The first row number, then differences to the previous one (int64), zlib."""
    return pack_ints(np.diff(np.asarray(idx, dtype=np.int64), prepend=0), "<i8")


def unpack_index(b: bytes) -> np.ndarray:
    return np.cumsum(unpack_ints(b, "<i8"))


# the keys of `Learned.to_json()` (classifiers/learned.py), stored by position
_STRUCTURE_KEYS = ("format", "arcs", "attributes", "submodels", "arc_dropped", "attribute_dropped")


def pack_structure(learned: dict | None) -> bytes:
    """A task's learned structure (`Learned.to_json()`, or None: the classifier reports none) as
    zlib'd JSON: a list of its values in `_STRUCTURE_KEYS` order (an object of other keys as it is);
    an ensemble's arcs, when they are exactly its submodels' superparent-to-child arcs, left out
    (null) and rebuilt by `unpack_structure`; per-row arc shares that follow the arcs one for one,
    their shares only (docs/store.md: Structures)."""
    if learned is not None and tuple(learned) == _STRUCTURE_KEYS:
        arcs, dropped = learned["arcs"], learned["arc_dropped"]
        if dropped and [d[:2] for d in dropped] == arcs:  # a share for every arc, in the arcs' order
            learned = {**learned, "arc_dropped": [d[2] for d in dropped]}
        if learned["submodels"] and arcs == _submodel_arcs(learned["submodels"]):
            learned = {**learned, "arcs": None}
        form: Any = [learned[k] for k in _STRUCTURE_KEYS]
    else:
        form = learned
    return zlib.compress(json.dumps(form, separators=(",", ":")).encode(), 6)


def unpack_structure(b: bytes) -> dict | None:
    """The inverse of `pack_structure`."""
    form = json.loads(zlib.decompress(b))
    learned = dict(zip(_STRUCTURE_KEYS, form, strict=True)) if isinstance(form, list) else form
    if learned is not None and learned["arcs"] is None:
        learned["arcs"] = _submodel_arcs(learned["submodels"])
    if learned is not None and learned["arc_dropped"] and not isinstance(learned["arc_dropped"][0], list):
        learned["arc_dropped"] = [[*arc, share] for arc, share in zip(learned["arcs"], learned["arc_dropped"],
                                                                        strict=True)]
    return learned


def _submodel_arcs(submodels: list) -> list[list[int]]:
    """The sorted, distinct superparent-to-child arcs of an ensemble's submodels ([superparent, [children]])."""
    return [list(a) for a in sorted({(sp, c) for sp, children in submodels for c in children})]


def encode(test_index: np.ndarray, y_true: np.ndarray, proba: np.ndarray, classes: list[str]) -> Encoded:
    """The stored form of one task's output (probabilities as produced, float64)."""
    index = np.ascontiguousarray(test_index, dtype="<i8")
    y = np.ascontiguousarray(y_true, dtype="<i2")
    classes_json = json.dumps(list(classes))
    split_key = split_digest(index, y, classes_json)
    proba = np.asarray(proba, dtype=np.float64)
    pred = np.argmax(proba, axis=1) if proba.shape[0] else np.empty(0, dtype=np.int64)
    return Encoded(split_key, int(proba.shape[0]), index, y, classes_json, int(proba.shape[1]), pack_ints(pred, "<i2"),
                   pack_proba(proba), json.dumps(instance_sums(y_true, proba)))
