"""Paper-style tables (Markdown, CSV, LaTeX); wide tables are read by `wide_table`."""

from __future__ import annotations

import csv
import io
import math

from bncbench.errors import UserError
from bncbench.evaluate.stats import average_ranks, round4

MARK = "†"  # after the name of a data set whose version differs from the paper's

# The metrics whose mean over data sets a table does not show, and why: the value grows with the
# data set, so data sets of different sizes do not average to anything (the average rank, taken
# within each data set, is still shown). Every other metric's value is a mean or a share per
# instance or a time, and its mean over data sets is shown.
NO_MEAN = {"cll": "CLL is a sum over each data set's test instances; data sets of different sizes do not average",
           "selected": "the attributes kept are a count out of each data set's own number of attributes"}


def _cell(mean: float, sd: float) -> str:
    if math.isnan(mean):
        return "n/a"
    return round4(mean) if math.isnan(sd) else f"{round4(mean)} ± {round4(sd)}"


def _num(x: float) -> str:
    return "" if math.isnan(x) else repr(float(x))


def difference_legend(datasets, differences: dict[str, str]) -> list[str]:
    """One legend line per marked data set, in table order."""
    return [f"{MARK} our version differs from the paper's: {ds}: {differences[ds]}"
            for ds in datasets if ds in differences]


def summary_rows(datasets, labels, values, lower_is_better: bool,
                 no_mean: str = "") -> tuple[list[list[str]], list[str]]:
    """The mean row and the average-rank row of a report table, and their notes (docs/algorithms.md §6.7)."""
    complete = [ds for ds in datasets if not any(math.isnan(values[(ds, lab)][0]) for lab in labels)]
    n, total = len(complete), len(datasets)
    if n:
        means = [round4(math.fsum(values[(ds, lab)][0] for ds in complete) / n) for lab in labels]
        avg, _ = average_ranks([[float(round4(values[(ds, lab)][0])) for lab in labels] for ds in complete],
                               lower_is_better)
        rank_cells = [format(r, ".2f") for r in avg]
    else:
        means = rank_cells = ["n/a"] * len(labels)
    over = "" if n == total else f" ({n} of {total} data sets)"
    ranked = len(labels) >= 2
    rows = ([] if no_mean else [[f"mean{over}"] + means]) + ([[f"average rank{over}"] + rank_cells] if ranked else [])
    notes = ([(f"average rank: 1 = best ({'lower' if lower_is_better else 'higher'} is better); "
               "equal values as printed share the average of their ranks")] if ranked else
             ["no average-rank row: one classifier (its rank is 1 on every data set)"])
    if no_mean:
        notes.append(f"no mean row: {no_mean}")
    if n < total and rows:
        left = [ds for ds in datasets if ds not in complete]
        what = " and ".join(r[0].split(" (")[0] for r in rows)
        notes.append(f"{what} over the {n} data set(s) where every classifier shown has a value; "
                     f"left out: {', '.join(left)}")
    return rows, notes


def format_report(datasets, labels, values, metric: str, fmt: str, differences: dict[str, str] | None = None,
                  lower_is_better: bool | None = None, notes: list[str] | None = None,
                  no_mean: str | None = None) -> str:
    """One row per data set, one column per classifier, in md, latex or csv (docs/algorithms.md §6.7)."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["dataset", "classifier", "metric", "mean", "sd"])
        for ds in datasets:
            for lab in labels:
                m, s = values[(ds, lab)]
                w.writerow([ds, lab, metric, _num(m), _num(s)])
        return buf.getvalue()
    differences = differences or {}
    if lower_is_better is None:
        from bncbench.evaluate.metrics import LOWER_IS_BETTER

        lower_is_better = LOWER_IS_BETTER[metric]
    rows = [[f"{ds} {MARK}" if ds in differences else ds] + [_cell(*values[(ds, lab)]) for lab in labels]
            for ds in datasets]
    footer, summary_notes = summary_rows(datasets, labels, values, lower_is_better,
                                         NO_MEAN.get(metric, "") if no_mean is None else no_mean)
    return format_grid(["dataset"] + list(labels), rows, fmt, caption=f"{metric} (mean ± sd)", footer=footer,
                       notes=list(notes or []) + summary_notes + difference_legend(datasets, differences))


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "±": r"$\pm$", MARK: r"$^\dagger$", "−": r"$-$", "≤": r"$\le$", "≥": r"$\ge$", "·": r"$\cdot$",
                  "∼": r"$\sim$"}


def _latex(s) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(s))


def format_grid(header: list[str], rows: list[list[str]], fmt: str, caption: str = "",
                footer: list[list[str]] | None = None, notes: list[str] | None = None) -> str:
    """A table in md, csv or latex. `footer` rows (e.g. summaries) follow the body (set off by a
    rule in LaTeX); `notes` are lines under the table (md, latex; csv has none)."""
    footer, notes = footer or [], notes or []
    if fmt == "csv":
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([header] + rows + footer)
        return buf.getvalue()
    if fmt == "latex":
        lines = [r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\hline",
                 " & ".join(_latex(h) for h in header) + r" \\", r"\hline"]
        lines += [" & ".join(_latex(c) for c in r) + r" \\" for r in rows]
        if footer:
            lines += [r"\hline"] + [" & ".join(_latex(c) for c in r) + r" \\" for r in footer]
        lines += [r"\hline", r"\end{tabular}"]
        if caption:
            lines.insert(0, f"% {caption}")
        if notes:
            lines += [r"\par\smallskip"] + [r"{\footnotesize " + _latex(n) + r"}\par" for n in notes]
        return "\n".join(lines) + "\n"
    if fmt != "md":
        raise UserError(f"unknown format {fmt!r}; choose md, csv or latex")
    body = rows + footer
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]

    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"

    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in body]
    head = f"{caption}\n\n" if caption else ""
    return head + "\n".join(out) + "\n" + ("\n" + "\n".join(notes) + "\n" if notes else "")
