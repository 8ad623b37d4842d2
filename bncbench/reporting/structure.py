"""The learned structures of an open results store, for `bncbench structure`, the stability figure
and the HTML report's section (docs/statistics.md: Structure stability); the computing and the
drawing are evaluate/structure.py's."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bncbench.errors import StoreError, UserError
from bncbench.evaluate.structure import Stability, stability
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    from bncbench.evaluate.values import FoldStructure
    from bncbench.results import Results


def cells(r: Results) -> tuple[list[str], list[str]]:
    """(data sets, labels) of the store's cells, in the layout's order."""
    s = r.summary("zol")
    return s.datasets, s.labels


def _pick(option: str, wanted: list[str] | None, available: list[str]) -> list[str]:
    """The `available` names that `wanted` keeps (all when None), in their order; UserError naming
    `option` for a name not in the results."""
    for w in wanted or []:
        if w not in available:
            raise UserError(f"{option}: {w!r} is not in the results{did_you_mean(w, available)}; "
                            f"available: {', '.join(available)}")
    return [a for a in available if wanted is None or a in wanted]


def parse_fold(text: str) -> tuple[int, int]:
    """--fold RUN:FOLD as (run, fold); UserError unless two whole numbers ≥ 0."""
    m = re.fullmatch(r"\s*([0-9]+)\s*:\s*([0-9]+)\s*", text)
    if m is None:
        raise UserError(f"--fold: {text!r} is not RUN:FOLD (two whole numbers from 0, as stored: e.g. 0:3)")
    return int(m[1]), int(m[2])


def cell_structures(r: Results, dataset: str, label: str,
                    fold: tuple[int, int] | None = None) -> tuple[list[FoldStructure], list[str]]:
    """(the stored structures of one cell, the data set's attribute names): every finished fold ×
    run, or only `fold` (run, fold); UserError naming what is available when a name or the fold is
    not in the store."""
    datasets, labels = cells(r)
    _pick("--dataset", [dataset], datasets)
    _pick("--classifier", [label], labels)
    found = r.structures(dataset, label)
    if not found:
        damaged = r.summary("zol", [dataset], [label]).damaged
        why = (f"its {damaged} stored task(s) fail their checksum (damaged); `bncbench store check {r.location}` "
               f"lists them" if damaged else "run its config to compute them")
        raise UserError(f"{label} on {dataset}: no finished task in {r.location} ({why})")
    if fold is not None:
        chosen = [s for s in found if (s.run, s.fold) == fold]
        if not chosen:
            stored = ", ".join(f"{s.run}:{s.fold}" for s in sorted(found, key=lambda s: (s.run, s.fold)))
            raise UserError(f"--fold {fold[0]}:{fold[1]}: {label} on {dataset} has no such finished fold; "
                            f"stored: {stored}")
        found = chosen
    return found, r.attribute_names(dataset)


def stability_cells(r: Results, datasets: list[str] | None = None, labels: list[str] | None = None,
                    options: tuple[str, str] = ("--dataset", "--classifier"), refit: bool = True,
                    ) -> tuple[list[str], list[str], dict[tuple[str, str], Stability]]:
    """(data sets, labels, {(data set, label): Stability}) of every cell of the store, or of those
    `datasets` and `labels` keep (a name not in the store: UserError naming `options`); a cell with
    no finished task, or whose structures the store cannot give (said in `Stability.why`; with
    `refit` False, tasks stored before structures were), has no value."""
    all_datasets, all_labels = cells(r)
    datasets, labels = _pick(options[0], datasets, all_datasets), _pick(options[1], labels, all_labels)
    out = {}
    for d in datasets:
        for lab in labels:
            try:
                found = r.structures(d, lab, refit)
            except StoreError:
                raise
            except UserError as e:  # e.g. an older store's task that cannot be refitted: that cell only
                out[(d, lab)] = Stability(float("nan"), 0, 0, f"structures not available: {e}")
                continue
            out[(d, lab)] = stability(found) if found else Stability(float("nan"), 0, 0, "no finished task")
    return datasets, labels, out
