"""One Bayesian network's parameters as a classifier predicts with them, for export (docs/models.md: BIF)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class NetworkTables:
    """The class prior ln P̂(y) and, per attribute of the network (`attributes`, column indices of X),
    its attribute parents and ln P̂(x_i | y, parents) over every table slot: shape (S_i, S_p1, ..., |Y|),
    S = K + 1 (the last slot: a missing or unseen code)."""

    log_prior: np.ndarray
    attributes: list[int]
    parents: list[tuple[int, ...]]
    log_tables: list[np.ndarray]


def factor_table(factor: Callable[[np.ndarray], np.ndarray], i: int, parents: Sequence[int], sizes: np.ndarray,
                 n_attributes: int) -> np.ndarray:
    """ln P̂(x_i | y, parents) at every slot configuration: `factor` (attribute i's (rows, |Y|) log
    factors of a matrix of internal codes) on a matrix holding each configuration of (x_i, parents)
    once, the other attributes 0 (which i's factor does not read). Shape (S_i, S_p1, ..., |Y|)."""
    shape = (int(sizes[i]), *(int(sizes[p]) for p in parents))
    grid = np.indices(shape).reshape(len(shape), -1)
    X = np.zeros((grid.shape[1], n_attributes), dtype=np.int64)
    for a, row in zip((i, *parents), grid):
        X[:, a] = row
    f = factor(X)
    return f.reshape(*shape, f.shape[1])
