"""What a classifier learned, in one form for every model: its arcs, the attributes it uses, its
submodels, and what it decided per test instance (docs/algorithms.md §11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: the version of `Learned.to_json`'s form (a reader refuses a newer one)
FORMAT = 1


@dataclass(frozen=True)
class Submodel:
    """One member of an ensemble: a superparent (SPODE) and the children it keeps."""

    superparent: int
    children: tuple[int, ...]


@dataclass(frozen=True)
class Learned:
    """The structure one fitted classifier learned, attributes named by their column index in X.

    arcs: attribute → attribute arcs (parent, child), sorted; an ensemble's are the union of its
    submodels' arcs. attributes: the attributes the class is a parent of (all but those a selection
    left out), sorted. submodels: an ensemble's members (empty for one network). Parts decided per
    test instance, summarised over the test rows: arc_dropped {(parent, child): share of test rows
    in which the arc was not used}, attribute_dropped {attribute: share of test rows in which the
    attribute was left out}; both empty for a model that decides nothing per instance.
    """

    arcs: tuple[tuple[int, int], ...]
    attributes: tuple[int, ...]
    submodels: tuple[Submodel, ...] = ()
    arc_dropped: Mapping[tuple[int, int], float] = field(default_factory=dict)
    attribute_dropped: Mapping[int, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (lists of ints and floats; keys in a fixed order)."""
        return {"format": FORMAT,
                "arcs": [[p, c] for p, c in self.arcs],
                "attributes": list(self.attributes),
                "submodels": [[s.superparent, list(s.children)] for s in self.submodels],
                "arc_dropped": [[p, c, share] for (p, c), share in sorted(self.arc_dropped.items())],
                "attribute_dropped": [[a, share] for a, share in sorted(self.attribute_dropped.items())]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Learned:
        """The inverse of `to_json`; ValueError for a form newer than this code reads."""
        if int(d.get("format", 0)) > FORMAT:
            raise ValueError(f"a learned structure of format {d.get('format')} (this bncbench reads up to {FORMAT})")
        return cls(arcs=tuple((int(p), int(c)) for p, c in d["arcs"]),
                   attributes=tuple(int(a) for a in d["attributes"]),
                   submodels=tuple(Submodel(int(s), tuple(int(c) for c in ch)) for s, ch in d["submodels"]),
                   arc_dropped={(int(p), int(c)): float(s) for p, c, s in d["arc_dropped"]},
                   attribute_dropped={int(a): float(s) for a, s in d["attribute_dropped"]})
