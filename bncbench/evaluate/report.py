"""Paper-style tables (Markdown, CSV, LaTeX) and wide tables read from files."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from bncbench.errors import UserError
from bncbench.evaluate.stats import average_ranks, round4

MARK = "†"  # after the name of a data set whose version differs from the paper's
MISSING_CELLS = ("", "-", "–", "—", "n/a")  # a wide-table cell holding no value (n/a in any case; also nan)


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


def summary_rows(datasets, labels, values, lower_is_better: bool) -> tuple[list[list[str]], list[str]]:
    """The mean row and the average-rank row (Demšar 2006) of a report table, and the notes they
    need. Both are over the data sets where every shown classifier has a value; ranks are of the
    values as printed (rounded to 4 decimals), so equal printed values tie."""
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
    rows = [[f"mean{over}"] + means, [f"average rank{over}"] + rank_cells]
    notes = [f"average rank: 1 = best ({'lower' if lower_is_better else 'higher'} is better); "
             "equal values as printed share the average of their ranks"]
    if n < total:
        left = [ds for ds in datasets if ds not in complete]
        notes.append(f"mean and average rank over the {n} data set(s) where every classifier shown has a value; "
                     f"left out: {', '.join(left)}")
    return rows, notes


def format_report(datasets, labels, values, metric: str, fmt: str, differences: dict[str, str] | None = None,
                  lower_is_better: bool | None = None) -> str:
    """One row per data set, one column per classifier. md/latex end with a mean row and an
    average-rank row, and mark (†) data sets whose version differs from the paper's
    (`differences`: {data set: reason}, e.g. results.store_differences). csv is the long form at full precision, nothing more."""
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
    footer, notes = summary_rows(datasets, labels, values, lower_is_better)
    return format_grid(["dataset"] + list(labels), rows, fmt, caption=f"{metric} (mean ± sd)", footer=footer,
                       notes=notes + difference_legend(datasets, differences))


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "±": r"$\pm$", MARK: r"$^\dagger$", "−": r"$-$", "≤": r"$\le$", "≥": r"$\ge$", "·": r"$\cdot$", "∼": r"$\sim$"}


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
    return (f"{caption}\n\n" if caption else "") + "\n".join(out) + "\n" + ("\n" + "\n".join(notes) + "\n" if notes else "")


def _parse_mean(cell: str) -> float | None:
    """The mean of a wide-table cell ('0.1234', '0.1234 ± 0.01', '+-', '+/-'); NaN for a missing
    value; None when it is not a number."""
    txt = cell
    for sep in ("±", "+/-", "+-"):
        txt = txt.split(sep)[0]
    txt = txt.strip()
    if txt.lower() in MISSING_CELLS:
        return math.nan
    try:
        x = float(txt)
    except ValueError:
        return None
    return None if math.isinf(x) else x  # 'nan' (as numpy writes a missing value) is missing too


def read_wide_table(path: str) -> tuple[list[str], list[str], dict]:
    """A published table: first column the data set, one column per classifier (TSV or CSV).
    A cell may be 'mean' or 'mean ± sd' (also '+-' or '+/-'; only the mean is used); '-', '–',
    '—', 'n/a' or an empty cell is a missing value (NaN)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror}") from None
    if raw.startswith(b"SQLite format 3\x00"):
        raise UserError(f"{path}: an SQLite file, not a table; give its results directory or name it results.sqlite")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not a UTF-8 text table (byte {e.start}); save it as UTF-8 TSV or CSV") from None
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delim = "\t" if "\t" in first else ","
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    rows = []  # (line number in the file, cells)
    for r in reader:
        if r and any(c.strip() for c in r):
            rows.append((reader.line_num, r))
    if len(rows) < 2 or len(rows[0][1]) < 3:
        raise UserError(f"{path}: expected a header (dataset, classifier, classifier, ...) and at least one row")
    header = rows[0][1]
    labels = [h.strip() for h in header[1:]]
    for i, lab in enumerate(labels):
        if not lab or lab in labels[:i]:
            raise UserError(f"{path}:{rows[0][0]}: column {i + 2} of the header is "
                            f"{'empty' if not lab else f'{lab!r} again'}; every classifier needs its own name")
    datasets, values, seen = [], {}, {}
    for ln, r in rows[1:]:
        if len(r) != len(header):
            raise UserError(f"{path}:{ln}: {len(r)} cells, the header has {len(header)}")
        ds = r[0].strip()
        if not ds:
            raise UserError(f"{path}:{ln}: the first cell (the data set's name) is empty")
        if ds in seen:
            raise UserError(f"{path}:{ln}: data set {ds!r} is already on line {seen[ds]}")
        seen[ds] = ln
        datasets.append(ds)
        for lab, cell in zip(labels, r[1:]):
            mean = _parse_mean(cell)
            if mean is None:
                raise UserError(f"{path}:{ln}: {cell.strip()!r} ({lab}) is not a number, 'mean ± sd', "
                                f"or a missing value (-, –, —, n/a, empty)")
            values[(ds, lab)] = (mean, math.nan)
    return datasets, labels, values
