"""Paper-style tables (Markdown, CSV, LaTeX) and wide tables read from files."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from bncbench.errors import UserError
from bncbench.evaluate.stats import round4


def _cell(mean: float, sd: float) -> str:
    if math.isnan(mean):
        return "n/a"
    return round4(mean) if math.isnan(sd) else f"{round4(mean)} ± {round4(sd)}"


def _num(x: float) -> str:
    return "" if math.isnan(x) else repr(float(x))


def format_report(datasets, labels, values, metric: str, fmt: str) -> str:
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["dataset", "classifier", "metric", "mean", "sd"])
        for ds in datasets:
            for lab in labels:
                m, s = values[(ds, lab)]
                w.writerow([ds, lab, metric, _num(m), _num(s)])
        return buf.getvalue()
    rows = [[ds] + [_cell(*values[(ds, lab)]) for lab in labels] for ds in datasets]
    return format_grid(["dataset"] + labels, rows, fmt, caption=f"{metric} (mean ± sd)")


def format_grid(header: list[str], rows: list[list[str]], fmt: str, caption: str = "") -> str:
    if fmt == "csv":
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([header] + rows)
        return buf.getvalue()
    if fmt == "latex":
        def esc(s):
            return str(s).replace("_", r"\_").replace("±", r"$\pm$").replace("%", r"\%")

        lines = [r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\hline",
                 " & ".join(esc(h) for h in header) + r" \\", r"\hline"]
        lines += [" & ".join(esc(c) for c in r) + r" \\" for r in rows]
        lines += [r"\hline", r"\end{tabular}"]
        if caption:
            lines.insert(0, f"% {caption}")
        return "\n".join(lines) + "\n"
    if fmt != "md":
        raise UserError(f"unknown format {fmt!r}; choose md, csv or latex")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows]
    return (f"{caption}\n\n" if caption else "") + "\n".join(out) + "\n"


def read_wide_table(path: str) -> tuple[list[str], list[str], dict]:
    """A published table: first column the data set, one column per classifier (TSV or CSV).
    A cell may be 'mean' or 'mean ± sd' (only the mean is used)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror}") from None
    first = text.splitlines()[0] if text.strip() else ""
    delim = "\t" if "\t" in first else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delim))
    rows = [r for r in rows if r and any(c.strip() for c in r)]
    if len(rows) < 2 or len(rows[0]) < 3:
        raise UserError(f"{path}: expected a header (dataset, classifier, classifier, ...) and at least one row")
    labels = [h.strip() for h in rows[0][1:]]
    datasets, values = [], {}
    for ln, r in enumerate(rows[1:], start=2):
        if len(r) != len(rows[0]):
            raise UserError(f"{path}:{ln}: {len(r)} cells, the header has {len(rows[0])}")
        ds = r[0].strip()
        datasets.append(ds)
        for lab, cell in zip(labels, r[1:]):
            txt = cell.split("±")[0].split("+-")[0].strip()
            try:
                values[(ds, lab)] = (float(txt) if txt else math.nan, math.nan)
            except ValueError:
                raise UserError(f"{path}:{ln}: {cell!r} is not a number") from None
    return datasets, labels, values
