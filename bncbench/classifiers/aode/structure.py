"""What an ensemble of SPODEs reports as learned: its superparents, their children, and per test row
the SPODEs and children it left out (docs/algorithms.md §11)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from bncbench.classifiers.estimator_api import check_fitted
from bncbench.classifiers.kernels.learned_network import shares
from bncbench.classifiers.learned import Learned, Submodel


def row_codes(model: Any, X) -> np.ndarray:
    """The internal codes of the test rows X (value codes, −1 = missing), as `predict_proba` takes them."""
    check_fitted(model)
    X, lo, hi = model._validate_X(X, reset=False)
    return model._internal(X, lo, hi)


#: each model's last test rows and what `per_rows` computed of them: kept beside the model, not in
#: it, so neither a model file nor a copy of the model holds test rows, and a model loaded from a file
#: starts with none
_LAST_ROWS: weakref.WeakKeyDictionary[Any, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()


def per_rows(model: Any, Xc: np.ndarray, compute: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """compute(Xc), read-only, computed once for the same rows: the engine asks `predict_proba`,
    `prediction_info` and `learned_structure` about the same test rows, and RC's eliminations and
    SR's deletions cost more than the scoring. Each fit forgets the rows (`forget_rows`)."""
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


def superparent_ok(model: Any, Xc: np.ndarray) -> np.ndarray:
    """(rows, n) bool: whether each attribute's value of each row qualifies it as a superparent
    (AODE's `parent_ok_`: frequency ≥ min_freq, and not missing under skip; §4.4)."""
    return model.parent_ok_[Xc + model.counts_.offsets[None, :]]


def spodes(parents: Iterable[int], children: np.ndarray, used: np.ndarray | None = None, kept: np.ndarray | None = None,
           dropped: np.ndarray | None = None) -> Learned:
    """The ensemble of one SPODE per superparent of `parents` (attribute indices) with the children
    `children` (bool, n) other than itself (§11). Given the test rows: `used` (rows, n) whether the
    row's SPODE of each superparent took part, `kept` (rows, n) whether each attribute was a child
    for the row (all when None), and `dropped` (rows, n) the attributes the row left out (their
    shares become `attribute_dropped`). An arc p → c counts as dropped for a row unless both the
    row's SPODE of p took part and c was a child for it."""
    P = [int(p) for p in parents]
    subs = tuple(Submodel(p, tuple(c for c in np.flatnonzero(children).tolist() if c != p)) for p in P)
    arcs = tuple(sorted((s.superparent, c) for s in subs for c in s.children))
    in_model = children.copy()
    in_model[P] = True
    attributes = tuple(np.flatnonzero(in_model).tolist())
    arc_dropped: dict = {}
    attribute_dropped: dict = {}
    if used is not None:
        kept = np.broadcast_to(children, used.shape) if kept is None else kept & children
        rows = used.shape[0]
        if rows and arcs:
            # rows in which both the SPODE of p and the child c took part, for every (p, c) at once
            both = used[:, P].T.astype(np.float64) @ kept.astype(np.float64)  # (|P|, n)
            pos = {p: r for r, p in enumerate(P)}
            arc_dropped = {(p, c): (rows - float(both[pos[p], c])) / rows for p, c in arcs}
        if dropped is not None:
            attribute_dropped = shares(dropped[:, list(attributes)], attributes)
    return Learned(arcs=arcs, attributes=attributes, submodels=subs, arc_dropped=arc_dropped,
                   attribute_dropped=attribute_dropped)
