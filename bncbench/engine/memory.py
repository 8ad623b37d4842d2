"""The memory a run's workers need, estimated before anything starts: a plan that cannot fit is
refused with one line (docs/cli.md: run)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bncbench.data.dataset import Dataset
from bncbench.engine.entries import entry_of
from bncbench.engine.units import fold_independent
from bncbench.errors import UserError
from bncbench.preprocess.folds import FOLD_SCHEMES
from bncbench.preprocess.settings import PreprocessSettings
from bncbench.utils import memory

if TYPE_CHECKING:  # the engine runs a validated Experiment; it never parses configs
    from bncbench.experiment import DatasetSpec, Experiment

#: bytes of one count (the count tables are int64: classifiers/kernels/counts.py)
COUNT = 8
#: bytes of one code of the preprocessed rows (int32: preprocess/encode.py)
CODE = 4


def attribute_slots(ds: Dataset, settings: PreprocessSettings) -> np.ndarray:
    """Each attribute's slots in the count tables (`classifiers.base.fit_counts`: its codes after
    preprocessing, one for a missing value under `missing: distinct` where it has one, and the
    extra slot every table keeps): a nominal attribute's declared values; a numeric one's intervals,
    at most min(bins, its distinct values) under eqfreq (the imputed mean may add one), at least one
    under MDL (known only once fitted)."""
    slots = np.empty(ds.n_attributes, dtype=np.int64)
    for i, a in enumerate(ds.attributes):
        if a.values is not None:
            k = len(a.values)
        elif settings.discretizer == "eqfreq":
            col = ds.columns[i]
            known = col[~np.isnan(col)]
            imputed = settings.missing == "impute" and known.size < col.size
            k = min(settings.bins, max(1, np.unique(known).size + imputed))
        else:
            k = 1
        slots[i] = k + (settings.missing == "distinct" and ds.has_missing(i)) + 1
    return slots


@dataclass(frozen=True)
class Need:
    """What the workers of one data set hold: each its rows (columns and codes) and count tables."""

    dataset: str
    own_file: bool                # read from a file of one's own (its entry can drop columns)
    pair_labels: tuple[str, ...]  # the classifiers that count attribute pairs
    heaviest: str                 # the classifier whose own working memory is the largest ('' if none)
    attributes: int
    values: int                   # the count tables' value axis: every attribute's slots
    classes: int
    data: int                     # bytes of its columns and codes in a worker
    table: int                    # bytes of one set of count tables
    tables: int                   # sets a worker holds at once
    working: int                  # bytes the heaviest classifier builds beyond the count tables
    workers: int                  # workers on its units at once

    @property
    def per_worker(self) -> int:
        return self.data + self.tables * self.table + self.working

    @property
    def total(self) -> int:
        return self.workers * self.per_worker


def need(exp: Experiment, spec: DatasetSpec, ds: Dataset, workers: int) -> Need:
    """The memory the units of data set `ds` (of the config's entry `spec`) need at once in `workers` workers.

    A unit counts once for all its classifiers (engine/units.py): the (x_i, y) table, and the
    (x_i, x_j, y) table of every pair of values when a classifier needs pairs (NEEDS_PAIRS: all but
    NB and BAN), V² × classes counts for V values; a fold-independent encoding under k-fold CV
    counts every row once and subtracts the test rows' counts (units.fold_counts), three sets of
    tables at once. The classifiers of a unit run one after another, so on top comes the working
    memory of the one that builds most: its WORKING_TABLES sets of V² × classes 8-byte values
    (classifiers/base.py). A scikit-learn baseline (which takes no counts) is not estimated."""
    settings = spec.settings(exp.preprocess)
    entries = {c.label: entry_of(c) for c in exp.classifiers}
    bncs = [c for c in exp.classifiers if entries[c.label].needs_counts]
    pairs = tuple(c.label for c in bncs if entries[c.label].needs_pairs)
    values = int(attribute_slots(ds, settings).sum())
    c = ds.n_classes
    table = COUNT * (c + values * c + (values * values * c if pairs else 0)) if bncs else 0
    working = {b.label: math.ceil(working_tables(b.label, b.estimator_class) * COUNT * values * values * c)
               for b in bncs}
    heaviest = max(working, key=working.__getitem__, default="")
    complement = fold_independent(settings) and exp.cv.scheme in FOLD_SCHEMES
    data = sum(col.nbytes for col in ds.columns) + ds.y.nbytes + CODE * ds.n_instances * ds.n_attributes
    units = exp.cv.runs * exp.cv.folds
    return Need(ds.name, spec.path is not None, pairs, heaviest, ds.n_attributes, values, c, data, table,
                3 if complement else 1, working.get(heaviest, 0), max(1, min(workers, units)))


def working_tables(label: str, cls: type) -> float:
    """The sets of pair tables classifier `cls` declares it builds (classifiers/base.py
    `WORKING_TABLES`; 0 for a class that does not declare them): a plug-in's declaration that is no
    number ≥ 0 is refused with one line."""
    declared = getattr(cls, "WORKING_TABLES", 0.0)
    if isinstance(declared, bool) or not isinstance(declared, (int, float)) or not 0 <= declared < math.inf:
        raise UserError(f"classifier {label!r}: WORKING_TABLES = {declared!r} is not a number ≥ 0 of sets of the "
                        f"pair tables its fit builds (docs/adding-a-classifier.md)")
    return float(declared)


def check_plan(exp: Experiment, datasets: dict[str, Dataset], jobs: int, executor: str = "local",
               scheduler: str | None = None) -> None:
    """Refuse (UserError, one line) a run whose workers on this machine would need more memory
    than it has available (utils/memory.py): `jobs` workers (a LocalCluster's under `--executor
    dask`); nothing to check for the workers of a cluster named by `scheduler`."""
    if scheduler:
        return
    try:
        found = memory.available()
    except ValueError as e:
        raise UserError(str(e)) from None
    if found is None:
        return
    available, where = found
    needs = [need(exp, spec, datasets[spec.name], jobs) for spec in exp.datasets]
    over = [n for n in needs if n.total > available]
    if over:
        raise UserError(refusal(over[0], available, where, len(over) - 1))


def refusal(n: Need, available: int, where: str, others: int = 0) -> str:
    """The one line that refuses a plan: the data set, its classifiers, the estimate, the memory
    available and what to do."""
    tables = "count tables of attribute pairs" if n.pair_labels else "count tables"
    held = f"its rows, {tables} and {n.heaviest}'s own working tables ({memory.size(n.working)})" if n.working \
        else f"its rows and {tables}"
    heavy = n.pair_labels + ((n.heaviest,) if n.working and n.heaviest not in n.pair_labels else ())
    at_once = f" × {n.workers} workers at once = {memory.size(n.total)}" if n.workers > 1 else ""
    if n.workers > 1 and n.per_worker <= available:
        todo = f"run it with --jobs {available // n.per_worker} or fewer, or on a machine with more memory"
    elif heavy:
        drop = " (drop: in its entry)" if n.own_file else ""
        todo = (f"leave {', '.join(heavy)} out for it (NB builds no tables of attribute pairs), give it fewer "
                f"attributes{drop} or fewer bins, or use a machine with more memory")
    else:
        todo = "give it fewer rows or attributes, or use a machine with more memory"
    more = f" (and {others} other data set(s))" if others else ""
    labels = f" with {', '.join(n.pair_labels)}" if n.pair_labels else ""
    return (f"data set {n.dataset!r}{more}{labels} does not fit in memory: {n.attributes} attributes, {n.values} "
            f"values, {n.classes} classes; {held} need about {memory.size(n.per_worker)} per worker"
            f"{at_once}, more than the {memory.size(available)} available ({where}); {todo} (docs/cli.md: run)")
