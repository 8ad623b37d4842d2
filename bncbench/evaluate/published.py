"""Published columns beside stored ones (docs/statistics.md: Published columns): a paper's wide
table (evaluate/wide_table.py) joined to a metric's summary, each of its classifiers a column."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from bncbench.errors import UserError
from bncbench.evaluate import wide_table
from bncbench.evaluate.metrics import FRACTIONS, PERCENT
from bncbench.evaluate.values import Summary

#: where the analyses that need every classifier on a data set leave out a published column's gaps
LEFT_OUT_OF = "ranks, CD diagram, its W/D/L pairs, mean and average-rank rows"
LISTED = 8  # the names a line lists at most (a table of thousands of rows gives one short line)


@dataclass
class Joined:
    """A summary with the published columns appended (their means, the sd where printed), the
    published labels, and the lines that say what was joined and what was left out."""

    summary: Summary
    published: list[str]
    notes: list[str]


def read(path: str, option: str = "--with") -> wide_table.WideTable:
    """The wide table `path` as `wdl TABLE` reads it, one published column or more; its UserError
    prefixed with `option`."""
    try:
        return wide_table.read(path, columns=1)
    except UserError as e:
        raise UserError(f"{option} {e}") from None


def check_units(table: wide_table.WideTable, metric: str, option: str = "--with") -> None:
    """UserError naming the first column whose values are not in the metric's unit: a fraction
    metric (zol, rmse, ...) in [0, 1], accuracy in percent (a column of values all ≤ 1 is refused)."""
    where = f"{option} {table.path}"
    for lab in table.labels:
        got = [(ds, table.means[(ds, lab)]) for ds in table.datasets if not math.isnan(table.means[(ds, lab)])]
        if metric in FRACTIONS:
            ds, x = next(((d, x) for d, x in got if not 0.0 <= x <= 1.0), ("", 0.0))
            if ds and x > 1.0:
                raise UserError(f"{where}: column {lab!r} holds {x:g} on {ds!r}, a percentage: {metric} is a "
                                f"fraction in [0, 1]; divide the column by 100"
                                + (" (or, for accuracies, give --metric accuracy)" if metric == "zol" else ""))
            if ds:
                raise UserError(f"{where}: column {lab!r} holds {x:g} on {ds!r}: {metric} is a fraction in [0, 1]")
        elif metric in PERCENT:
            ds, x = next(((d, x) for d, x in got if not 0.0 <= x <= 100.0), ("", 0.0))
            if ds:
                raise UserError(f"{where}: column {lab!r} holds {x:g} on {ds!r}: {metric} is a percentage in "
                                f"[0, 100]")
            if got and all(x <= 1.0 for _, x in got):
                raise UserError(f"{where}: column {lab!r} holds only values ≤ 1 (e.g. {got[0][1]:g} on "
                                f"{got[0][0]!r}), fractions: {metric} is in percent; multiply the column by 100 "
                                f"(or, for error rates, give --metric zol)")


def _listed(names: list[str]) -> str:
    """`names` joined, at most LISTED of them, then how many more."""
    more = f", and {len(names) - LISTED} more" if len(names) > LISTED else ""
    return ", ".join(names[:LISTED]) + more


def _sd(table: wide_table.WideTable, ds: str, lab: str, option: str) -> float:
    """The sd printed in a cell ('mean ± sd'), NaN when none is; UserError naming `option` when
    it is not a number ≥ 0 or the cell has no mean."""
    if (ds, lab) not in table.cells:
        return math.nan
    _, sd = wide_table.split_cell(table.cells[(ds, lab)])
    if sd is None:
        return math.nan
    where = f"{option} {table.path}:{table.lines[ds]}"
    if math.isnan(table.means[(ds, lab)]):
        raise UserError(f"{where}: {table.cells[(ds, lab)].strip()!r} ({lab}) has an sd but no mean")
    try:
        x = float(sd)
    except ValueError:
        x = math.nan
    if not 0.0 <= x < math.inf:
        raise UserError(f"{where}: the sd {sd!r} ({lab}) is not a number ≥ 0")
    return x


def join(summary: Summary, table: wide_table.WideTable, option: str = "--with") -> Joined:
    """`summary` with `table`'s classifiers as columns after its own, on the summary's data sets
    (names matched exactly): a label the summary has, values not in the metric's unit
    (`check_units`) or a table matching none of its data sets is a UserError naming `option`."""
    where = f"{option} {table.path}"
    clash = [lab for lab in table.labels if lab in summary.labels]
    if clash:
        raise UserError(f"{where}: column {clash[0]!r} is also a classifier of the results; rename the table's "
                        f"column (e.g. {clash[0] + ' (published)'!r})")
    check_units(table, summary.metric, option)
    shown = set(summary.datasets)
    if not shown & set(table.datasets):
        raise UserError(f"{where}: none of its data sets ({_listed(table.datasets)}) is one of the results "
                        f"({_listed(summary.datasets)}); names are matched exactly")
    values = dict(summary.values)
    lacking: dict[str, list[str]] = {}
    for lab in table.labels:
        for ds in summary.datasets:
            mean = table.means.get((ds, lab), math.nan)
            values[(ds, lab)] = (mean, _sd(table, ds, lab, option))
            if math.isnan(mean):
                lacking.setdefault(lab, []).append(ds)
    notes = [f"published columns ({table.path}: means as printed, no per-fold values): {', '.join(table.labels)}"]
    unmatched = [ds for ds in table.datasets if ds not in shown]
    if unmatched:
        lower = {d.lower(): d for d in summary.datasets}
        named = [f"{ds} (the results have {lower[ds.lower()]!r}: names are matched exactly)"
                 if ds.lower() in lower else ds for ds in unmatched]
        notes.append(f"{where}: rows matching no data set shown, not used: {_listed(named)}")
    for lab, gaps in lacking.items():
        if len(gaps) == len(summary.datasets):
            raise UserError(f"{where}: column {lab!r} has no value on any data set shown ({_listed(gaps)}); "
                            f"give its values, or leave the column out of the table")
        notes.append(f"{lab} (published) has no value for {len(gaps)} data set(s), left out wherever {lab} is "
                     f"compared ({LEFT_OUT_OF}): {_listed(gaps)}")
    return Joined(replace(summary, labels=[*summary.labels, *table.labels], values=values), list(table.labels), notes)
