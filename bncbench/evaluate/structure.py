"""What the classifiers learned across folds, from their stored structures (docs/statistics.md:
Structure stability): each arc's share of the folds, the mean pairwise Jaccard similarity of the
arc sets, their tables (md, csv, latex) and the network as Graphviz DOT text, drawn by `dot`."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from bncbench.errors import UserError
from bncbench.evaluate.report import DECIMALS, format_grid, number, table_label
from bncbench.evaluate.values import FoldStructure

DRAWINGS = ("dot", "svg", "png", "pdf")  # --format of a drawing: DOT text, or rendered by Graphviz's `dot`
NONE = "reports no learned structure"    # the line of a classifier that reports none
DROPPED = "dropped per row: the mean share of test rows for which the model did not use it, over the models that " \
          "learned it"
CAPTION = "Structure stability: mean pairwise Jaccard similarity of the folds' arc sets"
INSTALL = "apt-get install graphviz on Debian and Ubuntu, brew install graphviz on macOS, or https://graphviz.org"


@dataclass(frozen=True)
class Shares:
    """How often each part of a structure was learned over `n` fitted models (folds × runs):
    arcs [(parent, child, share)] (attribute → attribute, by share descending, then the parent's
    and the child's column order), attributes [(attribute, share)] (those the class is a parent of,
    in column order), `names` the data set's attributes by column. What a model decides per test
    instance (RC, SR, NSR, AIT, the wrappers): arc_dropped {(parent, child): mean share of test rows
    in which the arc was not used, over the models that learned it}, attribute_dropped likewise;
    empty when no model decides anything per instance."""

    names: list[str]
    n: int
    arcs: list[tuple[str, str, float]]
    attributes: list[tuple[str, float]]
    arc_dropped: dict[tuple[str, str], float] = field(default_factory=dict)
    attribute_dropped: dict[str, float] = field(default_factory=dict)

    def selects(self) -> bool:
        """Whether any model left an attribute out (STAN, SKDB, a wrapper's selection)."""
        return any(share < 1.0 for _, share in self.attributes)


@dataclass(frozen=True)
class Stability:
    """The mean pairwise Jaccard similarity of one cell's arc sets: `value` (NaN when there is no
    pair), the models it is over (`n`) and their pairs; `why` says why there is no value."""

    value: float
    n: int
    pairs: int
    why: str = ""
    empty: bool = False  # no model learned an arc: 1 by convention, not a sign of stability


def _check_names(s: FoldStructure, names: list[str]) -> None:
    """UserError when a model names an attribute the data set does not have."""
    if s.learned is None:
        return
    used = [a for arc in s.learned.arcs for a in arc] + list(s.learned.attributes)
    if used and not 0 <= min(used) <= max(used) < len(names):
        raise UserError(f"the structure of run {s.run}, fold {s.fold} names attribute {max(used)}, but the data "
                        f"set has {len(names)} attributes")


def shares(structures: list[FoldStructure], names: list[str]) -> Shares | None:
    """The share of the models in `structures` that learned each arc and each class → attribute
    arc; None when none reports a structure (`FoldStructure.learned` None). A model that reports
    none among others that do is not counted."""
    for s in structures:
        _check_names(s, names)
    learned = [s.learned for s in structures if s.learned is not None]
    if not learned:
        return None
    n = len(learned)
    arcs = Counter(arc for m in learned for arc in set(m.arcs))
    attrs = Counter(a for m in learned for a in set(m.attributes))
    order = sorted(arcs, key=lambda arc: (-arcs[arc], arc))
    per_row = [m for m in learned if m.arc_dropped or m.attribute_dropped]
    arc_dropped = {(names[p], names[c]): _mean([m.arc_dropped.get((p, c), 0.0) for m in per_row if (p, c) in m.arcs])
                   for p, c in order} if any(m.arc_dropped for m in per_row) else {}
    attribute_dropped = {names[a]: _mean([m.attribute_dropped.get(a, 0.0) for m in per_row if a in m.attributes])
                         for a in sorted(attrs)} if any(m.attribute_dropped for m in per_row) else {}
    return Shares(list(names), n, [(names[p], names[c], arcs[(p, c)] / n) for p, c in order],
                  [(names[a], attrs[a] / n) for a in sorted(attrs)], arc_dropped, attribute_dropped)


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def jaccard(a: frozenset | set, b: frozenset | set) -> float:
    """|a ∩ b| / |a ∪ b|; 1 for two empty sets (two models without arcs learned the same network)."""
    union = len(a | b)
    return 1.0 if union == 0 else len(a & b) / union


def stability(structures: list[FoldStructure]) -> Stability:
    """The mean over all pairs of models (folds × runs) of the Jaccard similarity of their
    attribute → attribute arc sets (directed: a reversed arc is another arc); NaN with the reason
    when no model reports a structure or only one does."""
    sets = [frozenset(s.learned.arcs) for s in structures if s.learned is not None]
    if not sets:
        return Stability(math.nan, 0, 0, NONE)
    if len(sets) == 1:
        return Stability(math.nan, 1, 0, "one fold: no pair to compare")
    # each distinct pair of distinct arc sets once (a SPODE ensemble's folds share one set): fsum is
    # exact over the multiset of the pairs' values, so the mean is the one of every pair listed
    count = Counter(sets)
    values = [1.0] * sum(c * (c - 1) // 2 for c in count.values())
    for a, b in combinations(count, 2):
        values += [jaccard(a, b)] * (count[a] * count[b])
    return Stability(math.fsum(values) / len(values), len(sets), len(values), empty=not any(sets))


# -- tables -----------------------------------------------------------------------------------
def none_line(label: str, dataset: str) -> str:
    """The one line of a classifier that reports no structure."""
    return (f"{label} on {dataset} {NONE} (a scikit-learn baseline, or a classifier of your own without "
            f"learned_structure): nothing to show")


def _fixed(x: float) -> str:
    """A value at the tables' decimals, n/a for NaN."""
    return "n/a" if math.isnan(x) else number(x, DECIMALS)


def _full(x: float) -> str:
    """A value at full precision for csv ('' for NaN), as `report` writes its csv."""
    return "" if math.isnan(x) else repr(float(x))


def shares_text(s: Shares, fmt: str, label: str, dataset: str, fold: str = "") -> str:
    """The arcs table (parent, child, share; csv exactly those columns at full precision); md and
    latex add what the models dropped per test instance, the attributes' table when the classifier
    selects (or drops attributes per instance), and notes. `fold`: 'run R, fold F' when one model
    is shown."""
    if fmt == "csv":
        return format_grid(["parent", "child", "share"], [[p, c, _full(x)] for p, c, x in s.arcs], fmt)
    over = f"the model of {fold}" if fold else f"{s.n} folds × runs"
    share = (f"share: 1, the arcs of one model ({fold})" if fold else
             f"share: the fraction of the {s.n} folds × runs whose model learned the arc")
    notes = [f"{share}; arcs from the class are left out",
             f"{len(s.arcs)} arc(s) among {len(s.names)} attributes" + ("" if s.arcs else ": none learned")]
    dropped = ["dropped per row"] if s.arc_dropped else []
    if dropped:
        notes.append(f"{DROPPED} (decided per test instance)")
    rows = [[p, c, number(x, DECIMALS), *([_fixed(s.arc_dropped[(p, c)])] if dropped else [])]
            for p, c, x in s.arcs]
    out = format_grid(["parent", "child", "share", *dropped], rows, fmt, caption=f"{label} on {dataset}: arcs "
                      f"between attributes, {over}", notes=notes, label=table_label(dataset, label, "arcs"))
    if s.selects() or s.attribute_dropped:
        kept = dict(s.attributes)
        extra = ["dropped per row"] if s.attribute_dropped else []
        attrs = [[a, number(kept.get(a, 0.0), DECIMALS),
                  *([_fixed(s.attribute_dropped.get(a, math.nan))] if extra else [])] for a in s.names]
        lines = ["share: the fraction of the models whose class is a parent of the attribute (0: never selected)"]
        lines += [f"{DROPPED} (n/a: never selected)"] if extra else []
        out += "\n" + format_grid(["attribute", "share", *extra], attrs, fmt,
                                  caption=f"{label} on {dataset}: attributes, the class's children, {over}",
                                  notes=lines, label=table_label(dataset, label, "selected"))
    return out


def stability_grid(datasets: list[str], labels: list[str], cells: dict[tuple[str, str], Stability]
                   ) -> tuple[list[str], list[list[str]], list[str]]:
    """(header, rows, notes) of the stability table: a row per data set, a column per classifier,
    values at 4 decimals, n/a where there is none, the definition and the reasons for n/a as notes."""
    rows = [[d, *("n/a" if math.isnan(cells[(d, lab)].value) else number(cells[(d, lab)].value, DECIMALS)
                  for lab in labels)] for d in datasets]
    why: dict[str, list[str]] = {}
    for d in datasets:
        for lab in labels:
            if cells[(d, lab)].why:
                why.setdefault(cells[(d, lab)].why, []).append(f"{lab} on {d}")
    notes = ["stability: the mean Jaccard similarity |A ∩ B| / |A ∪ B| of the arc sets (attribute → attribute) "
             "of every pair of folds × runs; 1 = every fold learned the same arcs (two empty sets count as 1)"]
    notes += [f"n/a ({reason}): {', '.join(_cells(where))}" for reason, where in why.items()]
    empty = [f"{lab} on {d}" for d in datasets for lab in labels if cells[(d, lab)].empty]
    if empty:
        notes.append(f"1 by convention, no model learned an arc between attributes: {', '.join(_cells(empty))}")
    return ["dataset", *labels], rows, notes


def stability_text(datasets: list[str], labels: list[str], cells: dict[tuple[str, str], Stability], fmt: str,
                   notes: list[str] | None = None) -> str:
    """Data sets × classifiers of the mean pairwise Jaccard similarity (md, latex: `stability_grid`);
    csv the long form dataset,classifier,stability,models,pairs at full precision."""
    if fmt == "csv":
        rows = [[d, lab, _full(cells[(d, lab)].value), str(cells[(d, lab)].n), str(cells[(d, lab)].pairs)]
                for d in datasets for lab in labels]
        return format_grid(["dataset", "classifier", "stability", "models", "pairs"], rows, fmt)
    header, rows, lines = stability_grid(datasets, labels, cells)
    return format_grid(header, rows, fmt, caption=CAPTION, notes=lines + list(notes or []),
                       label=table_label("stability"))


def _cells(where: list[str]) -> list[str]:
    """At most 8 'L on D' cells, then how many more."""
    return where if len(where) <= 8 else [*where[:8], f"and {len(where) - 8} more"]


# -- the drawing ------------------------------------------------------------------------------
def _quote(s: str) -> str:
    """A DOT double-quoted string holding `s` as written."""
    return '"' + re.sub(r'(["\\])', r"\\\1", s).replace("\n", "\\n") + '"'


def _width(share: float) -> str:
    return format(0.6 + 2.4 * share, ".2f")


def dot_text(s: Shares, title: str, class_name: str = "class") -> str:
    """The network in Graphviz DOT: the class node, every attribute (never selected: dashed grey),
    arcs weighted (pen width) and labelled by share; the class's arcs thin and grey, labelled where
    their share is below 1."""
    kept = dict(s.attributes)
    lines = ["digraph structure {", f"  label={_quote(title)};", "  labelloc=t;", "  fontsize=12;",
             '  node [shape=ellipse, fontname="Helvetica", fontsize=11];',
             '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.7];',
             f'  c [label={_quote(class_name)}, shape=box, style="filled,bold", fillcolor="#dde8f5"];']
    for i, a in enumerate(s.names):
        style = "" if a in kept else ', style=dashed, color="#999999", fontcolor="#777777"'
        lines.append(f"  a{i} [label={_quote(a)}{style}];")
    index = {a: i for i, a in enumerate(s.names)}
    for a, share in s.attributes:
        label = "" if share == 1.0 else f", label={_quote(_label(share))}"
        lines.append(f'  c -> a{index[a]} [color="#b0b0b0", fontcolor="#777777"{label}];')
    for p, c, share in s.arcs:
        lines.append(f"  a{index[p]} -> a{index[c]} [penwidth={_width(share)}, label={_quote(_label(share))}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _label(share: float) -> str:
    return format(share, ".2f")


def render_dot(dot: str, fmt: str) -> bytes:
    """The DOT text drawn by Graphviz's `dot` layout as svg, png or pdf bytes; UserError (how to
    install it) without `dot` on the PATH or when it fails."""
    exe = shutil.which("dot")
    if exe is None:
        raise UserError(f"--format {fmt} draws with Graphviz's `dot` program, which is not installed: {INSTALL} "
                        f"(--format dot writes the DOT text without it)")
    try:
        r = subprocess.run([exe, f"-T{fmt}"], input=dot.encode("utf-8"), capture_output=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        raise UserError(f"--format {fmt}: Graphviz's dot did not finish in 300 s; write --format dot and draw it "
                        f"yourself (e.g. with another Graphviz layout)") from None
    if r.returncode != 0:
        first = (r.stderr.decode("utf-8", "replace").strip().splitlines() or ["no message"])[0]
        raise UserError(f"--format {fmt}: Graphviz's dot failed: {first}")
    return r.stdout
