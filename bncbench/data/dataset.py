"""The in-memory data set: typed columns in file order, class taken out."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Attribute:
    """One attribute. Nominal: `values` lists the declared values (code = position).
    Numeric: `values` is None."""

    name: str
    values: list[str] | None = None

    @property
    def nominal(self) -> bool:
        return self.values is not None


@dataclass(frozen=True)
class ClassColumn:
    """Which column of a user's file the class was taken from, and how (docs/datasets.md)."""

    name: str
    named: bool        # named by the entry's `class:`; else the last column, by default
    left_out: int = 0  # rows left out because their class value is missing


@dataclass
class Dataset:
    """A classification data set (docs/algorithms.md §1.8)."""

    name: str
    attributes: list[Attribute]
    columns: list[np.ndarray]
    y: np.ndarray
    classes: list[str]
    checksums: dict[str, str] = field(default_factory=dict)
    class_column: ClassColumn | None = None  # set for a user's file (data/userdata.py)

    @property
    def n_instances(self) -> int:
        return int(self.y.shape[0])

    @property
    def n_attributes(self) -> int:
        return len(self.attributes)

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    def has_missing(self, i: int) -> bool:
        col = self.columns[i]
        if self.attributes[i].nominal:
            return bool((col < 0).any())
        return bool(np.isnan(col).any())
