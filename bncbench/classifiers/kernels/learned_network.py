"""What a network's parent lists and its per-row choices report as learned (docs/algorithms.md §11)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from bncbench.classifiers.learned import Learned


def network_arcs(parents: Sequence[Iterable[int]],
                 children: Iterable[int] | None = None) -> tuple[tuple[int, int], ...]:
    """The sorted arcs (parent, child) into `children` (every attribute when None) of the parent lists
    `parents` (one list per attribute; TAN's −1 root marks none)."""
    keep = range(len(parents)) if children is None else children
    return tuple(sorted((int(p), int(c)) for c in keep for p in parents[int(c)] if int(p) >= 0))


def one_network(parents: Sequence[Iterable[int]], attributes: Iterable[int] | None = None) -> Learned:
    """One network: the class a parent of `attributes` (all when None), each of them a child of its
    parents in `parents`; the attributes left out keep no arcs into them (§11)."""
    attrs = tuple(sorted(int(a) for a in (range(len(parents)) if attributes is None else attributes)))
    return Learned(arcs=network_arcs(parents, attrs), attributes=attrs)


def shares(dropped: np.ndarray, items: Sequence) -> dict:
    """{item: share of the rows of `dropped` (rows, len(items)) bool that are True in its column};
    empty without rows (§11's per-instance summaries)."""
    if dropped.shape[0] == 0:
        return {}
    mean = dropped.mean(axis=0)
    return {item: float(s) for item, s in zip(items, mean.tolist())}


#: each model's last test rows and what `per_rows` computed of them: kept beside the model, not in
#: it, so neither a model file nor a copy of the model holds test rows, and a model loaded from a file
#: starts with none
_LAST_ROWS: weakref.WeakKeyDictionary[Any, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()


def per_rows(model: Any, Xc: np.ndarray, compute: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """compute(Xc), read-only, computed once for the same rows: the engine asks `predict_proba`,
    `prediction_info` and `learned_structure` about the same test rows, and RC's eliminations, SR's
    deletions and AIT's local networks cost more than the scoring. Each fit forgets the rows (`forget_rows`)."""
    last = _LAST_ROWS.get(model)
    if last is not None and last[0].shape == Xc.shape and np.array_equal(last[0], Xc):
        return last[1]
    out = compute(Xc)
    out.flags.writeable = False
    _LAST_ROWS[model] = (Xc.copy(), out)
    return out


def forget_rows(model: Any) -> None:
    """Drop what `per_rows` kept for `model` (its fit changed what the rows give)."""
    _LAST_ROWS.pop(model, None)
