"""What an ensemble of SPODEs reports as learned: its superparents, their children, and per test row
the SPODEs and children it left out (docs/algorithms.md §11)."""

from __future__ import annotations

from collections.abc import Iterable
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
