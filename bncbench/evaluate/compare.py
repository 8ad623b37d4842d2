"""Our results beside a published table, cell by cell, at the printed precision (docs/algorithms.md §6.10)."""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from bncbench.errors import UserError
from bncbench.evaluate import options, wide_table
from bncbench.evaluate.metrics import METRICS
from bncbench.evaluate.report import format_grid
from bncbench.evaluate.wide_table import MISSING_CELLS, split_cell

_HEADER = re.compile(r"^(?P<name>.*\S)\s*\((?P<metric>[a-z_]+)\)$")

# metric -> (data sets, labels, {(data set, label): (mean, sd)}), e.g. from Results.summary
OurValues = dict[str, tuple[list[str], list[str], dict[tuple[str, str], tuple[float, float]]]]


@dataclass(frozen=True)
class Column:
    """One classifier column of a published table."""

    header: str   # as written
    name: str     # the classifier's name in the paper (the header without ' (METRIC)')
    metric: str | None  # the metric the header names, None for a plain header


@dataclass
class Published:
    """A published wide table with each cell's printed text (mean, sd; None when not printed)."""

    path: str
    datasets: list[str]
    columns: list[Column]
    cells: dict[tuple[str, str], tuple[str | None, str | None]]  # (data set, header) -> texts


@dataclass(frozen=True)
class Row:
    """One compared value: a statistic ('zol mean', 'rmse sd') of one classifier on one data set."""

    dataset: str        # our name of the data set
    classifier: str     # our label
    statistic: str
    ours: float         # NaN when we have no value
    paper: str          # as printed
    decimals: int       # the paper's printed decimals

    @property
    def ours_printed(self) -> str | None:
        """Our value rounded as the paper prints (None when we have none)."""
        return None if math.isnan(self.ours) else format(float(self.ours), f".{self.decimals}f")

    @property
    def difference(self) -> Decimal | None:
        """Ours as printed minus the paper's value, exact (None when we have no value)."""
        printed = self.ours_printed
        return None if printed is None else Decimal(printed) - Decimal(self.paper)

    @property
    def equal(self) -> bool:
        return self.difference == 0


@dataclass
class PublishedComparison:
    """Every compared value, and what of the table could not be compared."""

    rows: list[Row]
    metrics: list[str]
    missing_datasets: list[str] = field(default_factory=list)  # in the table, not in the results
    unmatched_columns: list[str] = field(default_factory=list)  # table headers with no classifier of ours
    missing_reasons: dict[str, str] = field(default_factory=dict)  # missing data set -> why (coverage.REASONS)
    flags: dict[str, str] = field(default_factory=dict)        # our label -> the project's flag (`reconstruction_flag`)
    differences: dict[str, str] = field(default_factory=dict)  # our data set -> how it differs from the paper's
    coverage: str = ""                                         # the results' n of N data sets (Coverage.line)

    def reasons(self) -> list[str]:
        """Per classifier with values that differ, the reasons the project records for it: its
        flag (a reconstruction) and the data sets of those values whose version differs from the
        paper's; "none recorded" when there is neither."""
        out = []
        for lab, eq, n, _ in self.summary():
            if eq == n:
                continue
            why = [self.flags[lab]] if lab in self.flags else []
            versions = list(dict.fromkeys(r.dataset for r in self.rows
                                          if r.classifier == lab and not r.equal and r.dataset in self.differences))
            if versions:
                why.append(f"data-set version differs from the paper's on {', '.join(versions)}")
            out.append(f"  {lab} ({eq} of {n} equal): {'; '.join(why) if why else 'no reason recorded by the project'}")
        return (["why values differ, as the project records it (classifier registry, data catalog):"] + out
                if out else [])

    def summary(self) -> list[tuple[str, int, int, Decimal | None]]:
        """(classifier, values equal, values compared, max |difference|) per classifier, in row order."""
        out = []
        for lab in dict.fromkeys(r.classifier for r in self.rows):
            rows = [r for r in self.rows if r.classifier == lab]
            diffs = [abs(r.difference) for r in rows if r.difference is not None]
            out.append((lab, sum(r.equal for r in rows), len(rows), max(diffs) if diffs else None))
        return out

    def total_line(self) -> str:
        """'N of M values equal at the printed precision' (with the metrics compared)."""
        n = sum(r.equal for r in self.rows)
        return f"{n} of {len(self.rows)} values equal at the printed precision ({', '.join(self.metrics)})"


def _decimals(text: str) -> int:
    """The decimals a number is printed with ('0.0567' → 4, '12' → 0)."""
    exponent = Decimal(text).as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _number(text: str | None) -> str | None:
    """`text` if it is a finite number as printed, None for a missing value; ValueError otherwise."""
    if text is None or text.lower() in MISSING_CELLS or text.lower() == "nan":
        return None
    if math.isinf(float(text)):  # float: ValueError for anything but a number
        raise ValueError(text)
    return text


def read_published(path: str) -> Published:
    """A published wide table (`wide_table.read` checks its shape and means) with the printed
    text of every mean and sd; UserError for an unreadable table or an sd that is not a number."""
    table = wide_table.read(path)
    columns = []
    for h in table.labels:
        m = _HEADER.match(h)
        columns.append(Column(h, m["name"], m["metric"]) if m and m["metric"] in METRICS else Column(h, h, None))
    cells = {}
    for ds in table.datasets:
        for h in table.labels:
            cell = table.cells[(ds, h)]
            mean, sd = split_cell(cell)
            try:
                cells[(ds, h)] = (_number(mean), _number(sd))
            except ValueError:
                raise UserError(f"{path}:{table.lines[ds]}: {cell.strip()!r} ({h}): the sd is not a number") from None
    return Published(path, table.datasets, columns, cells)


@dataclass
class Plan:
    """The columns a comparison uses: [(column, our label, metric)], the metrics in use, and the
    headers of the table that name no classifier of ours."""

    columns: list[tuple[Column, str, str]]
    metrics: list[str]
    unmatched: list[str]


def plan_columns(table: Published, metrics: list[str] | None, mapping: dict[str, str], labels: list[str],
                 only: list[str] | None = None) -> Plan:
    """Which columns of a published table to compare with which of our labels and metrics (§6.10)."""
    for m in metrics or []:
        try:
            options.metric(m)
        except ValueError as e:
            raise UserError(f"--metric: {e}") from None
    names = list(dict.fromkeys(c.name for c in table.columns))
    for paper in mapping:
        if paper not in names:
            raise UserError(f"--map: {paper!r} is not a classifier of {table.path}; "
                            f"its classifiers: {', '.join(names)}")
    plain = metrics[0] if metrics else "zol"
    chosen: list[tuple[Column, str, str]] = []
    unmatched: list[str] = []
    for c in table.columns:
        metric = c.metric or plain
        label = mapping.get(c.name, c.name)
        if (metrics and metric not in metrics) or (only and label not in only):
            continue
        if label in labels:
            same = next((o.header for o, lab, m in chosen if (lab, m) == (label, metric)), None)
            if same:
                raise UserError(f"{table.path}: columns {same!r} and {c.header!r} both hold {label}'s {metric}; "
                                f"choose one with --metric, --classifiers or --map")
            chosen.append((c, label, metric))
        else:
            unmatched.append(c.header)
    if not chosen:
        raise UserError(f"{table.path}: no column to compare: none of {', '.join(c.header for c in table.columns)} "
                        f"is a classifier of the results ({', '.join(only or labels)}) in "
                        f"{', '.join(metrics) if metrics else 'the metrics it names'}; relate names with "
                        f"--map PAPER=OURS")
    return Plan(chosen, list(dict.fromkeys(m for _, _, m in chosen)), unmatched)


def compare(table: Published, plan: Plan, ours: OurValues, resolve: Callable[[str], str | None]) -> PublishedComparison:
    """Every printed mean and sd of the plan's columns beside ours (docs/algorithms.md §6.10)."""
    our_datasets = {d for ds, _, _ in ours.values() for d in ds}
    matched, missing = [], []
    for name in table.datasets:
        own = name if name in our_datasets else resolve(name)
        if own in our_datasets:
            matched.append((name, own))
        else:
            missing.append(name)
    if not matched:
        raise UserError(f"{table.path}: none of its data sets ({', '.join(table.datasets)}) is in the results")
    rows = []
    for name, own in matched:
        for column, label, metric in plan.columns:
            mean_text, sd_text = table.cells[(name, column.header)]
            mean, sd = ours[metric][2].get((own, label), (math.nan, math.nan))
            for stat, value, printed in (("mean", mean, mean_text), ("sd", sd, sd_text)):
                if printed is not None:
                    rows.append(Row(own, label, f"{metric} {stat}", value, printed, _decimals(printed)))
    return PublishedComparison(rows, plan.metrics, missing, plan.unmatched)


CSV_COLUMNS = ("dataset", "classifier", "statistic", "ours", "paper", "difference", "equal")


def _signed(d: Decimal | None) -> str:
    return "" if d is None else ("+" if d > 0 else "") + format(d, "f")


def printed_rows(c: PublishedComparison) -> tuple[list[list[str]], list[list[str]]]:
    """The value rows (CSV_COLUMNS, ours rounded as printed) and the summary rows (classifier,
    equal, compared, max abs difference) as the md, latex and HTML tables show them."""
    values = [[r.dataset, r.classifier, r.statistic, r.ours_printed or "n/a", r.paper, _signed(r.difference),
               "yes" if r.equal else "no"] for r in c.rows]
    summary = [[lab, str(eq), str(n), "n/a" if mx is None else format(mx, "f")] for lab, eq, n, mx in c.summary()]
    return values, summary


SUMMARY_HEADER = ["classifier", "equal", "compared", "max abs difference"]
CAPTION = "ours beside the paper's printed values (ours rounded as printed; difference = ours − paper)"


def format_published(c: PublishedComparison, fmt: str) -> str:
    """md / latex: the compared values, the summary per classifier, the total and what was left
    out. csv: exactly CSV_COLUMNS, one line per value (ours at full precision), nothing else."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(CSV_COLUMNS)
        for r in c.rows:
            w.writerow([r.dataset, r.classifier, r.statistic, "" if math.isnan(r.ours) else repr(float(r.ours)),
                        r.paper, _signed(r.difference), "yes" if r.equal else "no"])
        return buf.getvalue()
    values, summary = printed_rows(c)
    paper = fmt == "latex"  # a paper's captions, whole sentences
    first = "Our values beside the paper's printed values (ours rounded as printed; difference = ours − paper)"
    return (format_grid(list(CSV_COLUMNS), values, fmt, caption=first if paper else CAPTION) + "\n"
            + format_grid(SUMMARY_HEADER, summary, fmt, notes=notes(c),
                          caption="Values equal to the paper's at its printed precision, per classifier" if paper
                          else "per classifier"))


_RECONSTRUCTION = re.compile(r"\breconstruction\b", re.IGNORECASE)
_NOT_REPRODUCED = re.compile(r"\b(?:is |are )?not reproduced\b|\bdoes not reproduce\b", re.IGNORECASE)
_SECTION = re.compile(r"docs/algorithms\.md (§[0-9.]*[0-9])")
_CONFIDENCE = re.compile(r"\b(low|medium) confidence\b", re.IGNORECASE)


def reconstruction_flag(*docstrings: str | None) -> str | None:
    """The project's reconstruction flag on a classifier, read from its docstrings (docs/algorithms.md §6.10)."""
    paragraphs = [" ".join((d or "").strip().split("\n\n")[0].split()) for d in docstrings]
    text = " ".join(paragraphs)
    if _RECONSTRUCTION.search(text):
        kind = "reconstruction"
    elif _NOT_REPRODUCED.search(text):
        kind = "flagged as not reproduced"
    else:
        return None
    details = list(dict.fromkeys(f"docs/algorithms.md {m}" for m in _SECTION.findall(text)))
    details += list(dict.fromkeys(f"{m.lower()} confidence" for m in _CONFIDENCE.findall(text)))
    return kind + (f" ({'; '.join(details)})" if details else "")


def notes(c: PublishedComparison) -> list[str]:
    """The total, the coverage, why values differ and what of the table was not compared, one
    line each."""
    out = [c.total_line()]
    if c.coverage:
        out.append(f"results: {c.coverage}")
    out += c.reasons()
    if c.missing_datasets:
        groups: dict[str, list[str]] = {}
        for d in c.missing_datasets:
            groups.setdefault(c.missing_reasons.get(d, ""), []).append(d)
        out.append("in the table but not in the results: "
                   + "; ".join(f"{why}: {', '.join(ds)}" if why else ", ".join(ds) for why, ds in groups.items()))
    if c.unmatched_columns:
        out.append(f"columns with no classifier of ours (--map PAPER=OURS): {', '.join(c.unmatched_columns)}")
    return out
