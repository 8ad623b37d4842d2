"""W/D/L matrices and sign-test p-values over data sets (paper 000 Tables 2–3, paper 004 Table 2)."""

from __future__ import annotations

import csv
import io

from bncbench.evaluate.report import format_grid
from bncbench.evaluate.stats import sign_test, wdl


def matrix(datasets, labels, values, rule: str, lower_is_better: bool, draws: str, tails: str):
    """{(row, col): (WDL, p)} for every ordered pair of different classifiers."""
    out = {}
    for a in labels:
        for b in labels:
            if a == b:
                continue
            r = wdl([values[(d, a)][0] for d in datasets], [values[(d, b)][0] for d in datasets], rule, lower_is_better)
            out[(a, b)] = (r, sign_test(r, draws, tails))
    return out


def format_wdl(rows, cols, mat, fmt: str, metric: str) -> str:
    """The W/D/L matrix of `rows` against `cols` and its p-values (csv: one line per pair)."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["row", "column", "wins", "draws", "losses", "p"])
        for a in rows:
            for b in cols:
                if a != b:
                    r, p = mat[(a, b)]
                    w.writerow([a, b, r.wins, r.draws, r.losses, repr(p)])
        return buf.getvalue()
    rows_w = [[a] + ["—" if a == b else str(mat[(a, b)][0]) for b in cols] for a in rows]
    rows_p = [[a] + ["—" if a == b else format(mat[(a, b)][1], ".4f") for b in cols] for a in rows]
    return (format_grid(["W-D-L (row vs column)"] + list(cols), rows_w, fmt,
                        caption=f"{metric}: wins-draws-losses of the row against the column")
            + "\n" + format_grid(["p (sign test)"] + list(cols), rows_p, fmt, caption=f"{metric}: sign-test p-values"))
