"""What a network's parent lists and its per-row choices report as learned (docs/algorithms.md §11)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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

