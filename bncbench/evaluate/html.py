"""One self-contained HTML report of a results store (`bncbench report RESULTS --format html`).

No network and no external file: CSS and a few lines of JavaScript (click a column header to
sort a table) are inline, figures are inline SVG. The page holds the provenance (the run's
stored `provenance`, the config, the data files and their checksums), one table per metric
(as `report` prints it), the W/D/L matrices and sign-test p-values (as `wdl` prints them), the
figures, and a comparison with a published table when one is given. The caller gathers the
inputs (`results.py` reads the store for the CLI); everything here formats values it is given.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bncbench.evaluate.compare import CAPTION, CSV_COLUMNS, SUMMARY_HEADER, Comparison, printed_rows
from bncbench.evaluate.compare import notes as comparison_notes
from bncbench.evaluate.metrics import LOWER_IS_BETTER
from bncbench.evaluate.report import MARK, NO_MEAN, difference_legend, summary_rows
from bncbench.evaluate.stats import round4
from bncbench.evaluate.wdl import coverage_notes, matrix, settings_notes

if TYPE_CHECKING:
    from bncbench.results import Summary

# the metrics that get a W/D/L matrix: those a classifier is judged by (not times or counts)
WDL_METRICS = ("zol", "rmse", "rmse_all", "cll", "logloss", "bias", "variance")


@dataclass
class Table:
    """One HTML table: `ident` is its element id, `footer` rows (summaries) are not sorted."""

    ident: str
    caption: str
    header: list[str]
    rows: list[list[str]]
    footer: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: bool = False  # cells are text (left-aligned, wrapped), not numbers


@dataclass
class ReportInput:
    """Everything the page shows."""

    title: str
    version: str                                    # bncbench writing the report
    provenance: dict[str, str]                      # the run's stored provenance
    config: str                                     # the config text the results were last run with
    data_files: list[tuple[str, str, str]]          # (data set, file or origin, sha256 or '')
    summaries: list[Summary]                        # one per metric the results have values of
    differences: dict[str, str]                     # data set -> how our version differs from the paper's
    wdl: dict[str, str]                             # draw, draws, tails
    figures: list[tuple[str, str]] = field(default_factory=list)   # (title, SVG text)
    comparison: Comparison | None = None
    comparison_source: str = ""                     # the published table's path
    coverage: str = ""                              # n of N data sets and the missing ones (Coverage.line)


def _cell(mean: float, sd: float) -> str:
    if math.isnan(mean):
        return "n/a"
    return round4(mean) if math.isnan(sd) else f"{round4(mean)} ± {round4(sd)}"


def metric_table(s: Summary, differences: dict[str, str]) -> Table:
    """A metric's table as `report` prints it (md): mean ± sd, the mean and average-rank rows;
    classifiers with no value at all (e.g. `selected` of a non-selective one) are left out."""
    labels = [lab for lab in s.labels if any(not math.isnan(s.values[(d, lab)][0]) for d in s.datasets)]
    rows = [[f"{d} {MARK}" if d in differences else d] + [_cell(*s.values[(d, lab)]) for lab in labels]
            for d in s.datasets]
    footer, notes = summary_rows(s.datasets, labels, s.values, LOWER_IS_BETTER[s.metric], NO_MEAN.get(s.metric, ""))
    notes.insert(0, s.coverage.line())
    dropped = [lab for lab in s.labels if lab not in labels]
    if dropped:
        notes.append(f"no {s.metric} values: {', '.join(dropped)}")
    if s.status_line():
        notes.append(f"warning: {s.status_line()}")
    return Table(f"metric-{s.metric}", f"{s.metric} (mean ± sd)", ["dataset"] + labels, rows, footer,
                 notes + difference_legend(s.datasets, differences))


def wdl_tables(s: Summary, settings: dict[str, str], differences: dict[str, str]) -> list[Table]:
    """The W/D/L matrix of every classifier against every other and its sign-test p-values, on
    the data sets finished for every classifier (as `bncbench wdl` computes them)."""
    excluded = [d for d in s.datasets if d in s.incomplete]
    datasets = [d for d in s.datasets if d not in excluded]
    labels, lower = s.labels, LOWER_IS_BETTER[s.metric]
    rule, draws, tails = settings.get("draw", "exact4"), settings.get("draws", "split"), settings.get("tails", "one")
    mat = matrix(datasets, labels, s.values, rule, lower, draws, tails)
    wins = [[a] + ["—" if a == b else str(mat[(a, b)][0]) for b in labels] for a in labels]
    ps = [[a] + ["—" if a == b else format(mat[(a, b)][1], ".4f") for b in labels] for a in labels]
    absent = {d: why for d, why in s.coverage.missing.items() if d not in s.datasets}
    notes = (coverage_notes(datasets, s.values, labels, labels, excluded, absent=absent)
             + settings_notes(s.metric, lower, rule, draws, tails)
             + difference_legend(datasets, differences))
    return [Table(f"wdl-{s.metric}", f"{s.metric}: wins-draws-losses of the row against the column",
                  ["W-D-L (row vs column)"] + labels, wins),
            Table(f"wdl-p-{s.metric}", f"{s.metric}: sign-test p-values", ["p (sign test)"] + labels, ps, notes=notes)]


def comparison_tables(c: Comparison, source: str) -> list[Table]:
    """The compared values and the summary per classifier, as `bncbench compare` prints them."""
    values, summary = printed_rows(c)
    return [Table("compare-values", f"{source}: {CAPTION}", list(CSV_COLUMNS), values),
            Table("compare-summary", "per classifier", SUMMARY_HEADER, summary, notes=comparison_notes(c))]


def _esc(x) -> str:
    return html.escape(str(x), quote=True)


def _table_html(t: Table) -> str:
    def tr(cells: list[str]) -> str:
        return (f'<tr><th scope="row">{_esc(cells[0])}</th>' + "".join(f"<td>{_esc(c)}</td>" for c in cells[1:])
                + "</tr>")

    head = "<tr>" + "".join(f'<th scope="col" title="sort">{_esc(h)}</th>' for h in t.header) + "</tr>"
    parts = [f'<div class="tbl" id="{_esc(t.ident)}">', f"<h3>{_esc(t.caption)}</h3>", '<div class="scroll">',
             f'<table class="sortable{" text" if t.text else ""}">', f"<thead>{head}</thead>",
             "<tbody>" + "".join(map(tr, t.rows)) + "</tbody>"]
    if t.footer:
        parts.append("<tfoot>" + "".join(map(tr, t.footer)) + "</tfoot>")
    parts += ["</table>", "</div>"]
    parts += [f'<p class="note">{_esc(n)}</p>' for n in t.notes]
    parts.append("</div>")
    return "\n".join(parts)


_SVG_REFERENCES = re.compile(r'(\bid="|url\(#|href="#)([^")]+)')


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG document as an element of the page: the XML declaration, doctype and metadata
    (creation date) dropped, and every id (and reference to one) prefixed, so figures drawn
    with the same ids (matplotlib's `patch_1`, clip paths) do not collide."""
    start = svg.find("<svg")
    if start < 0:
        raise ValueError("not an SVG document")
    body = re.sub(r"<metadata>.*?</metadata>\s*", "", svg[start:], flags=re.S)
    return _SVG_REFERENCES.sub(lambda m: f"{m[1]}{prefix}-{m[2]}", body)


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem;
line-height:1.4;color:#222}
h1{font-size:1.5rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc;margin-top:2rem}h3{font-size:1rem;margin:1.2rem 0 .3rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:right;white-space:nowrap}
th[scope=row],thead th:first-child{text-align:left}
table.text td{text-align:left;white-space:normal;overflow-wrap:anywhere}
thead th{background:#f3f3f3;cursor:pointer;position:sticky;top:0}
thead th[aria-sort=ascending]::after{content:" \\25B2"}thead th[aria-sort=descending]::after{content:" \\25BC"}
tfoot td{background:#fafafa;font-style:italic}
.note{font-size:.8rem;color:#555;margin:.2rem 0}
pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;font-size:.8rem}
figure{margin:1rem 0}.svg svg{max-width:100%;height:auto}
nav ul{padding-left:1.2rem}
@media (max-width:40rem){body{padding:0 .5rem}table{font-size:.75rem}th,td{padding:.15rem .3rem}}
"""

# Click a column header to sort the body rows by it (numbers by value, text alphabetically);
# a second click reverses the order. Footer rows (mean, average rank) stay where they are. The
# page's <html> element then says how many tables were made sortable (data-sortable).
SCRIPT = """
document.querySelectorAll("table.sortable thead th").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], i = th.cellIndex;
    var asc = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    function key(tr) { var t = tr.cells[i].textContent.trim(), x = parseFloat(t); return isNaN(x) ? t : x; }
    Array.from(body.rows).sort(function (a, b) {
      var x = key(a), y = key(b);
      var c = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
      return asc ? c : -c;
    }).forEach(function (tr) { body.appendChild(tr); });
  });
});
document.documentElement.setAttribute("data-sortable", document.querySelectorAll("table.sortable").length);
"""


def render(inp: ReportInput) -> str:
    """The whole page."""
    sections: list[tuple[str, str, str]] = []  # (id, heading, HTML)
    prov = [["written by", f"bncbench {inp.version}"]] + [[k, str(v)] for k, v in inp.provenance.items()]
    data = [list(row) for row in inp.data_files]
    sections.append(("provenance", "Provenance", "\n".join([
        _table_html(Table("provenance-run", "the run (stored with the results)", ["item", "value"], prov, text=True)),
        _table_html(Table("provenance-data", "data files (sha256 as verified on loading)",
                          ["data set", "file", "sha256"], data, text=True)),
        "<h3>config</h3>", f"<pre><code>{_esc(inp.config)}</code></pre>"])))
    sections.append(("metrics", "Metrics", "\n".join(_table_html(metric_table(s, inp.differences))
                                                     for s in inp.summaries)))
    sections.append(("wdl", "Wins, draws and losses", "\n".join(
        _table_html(t) for s in inp.summaries if s.metric in WDL_METRICS
        for t in wdl_tables(s, inp.wdl, inp.differences))))
    if inp.figures:
        sections.append(("figures", "Figures", "\n".join(
            f'<figure id="figure-{i + 1}"><figcaption>{_esc(title)}</figcaption>'
            f'<div class="svg">{inline_svg(svg, f"fig{i + 1}")}</div></figure>'
            for i, (title, svg) in enumerate(inp.figures))))
    if inp.comparison is not None:
        sections.append(("comparison", "Beside the published values", "\n".join(
            _table_html(t) for t in comparison_tables(inp.comparison, inp.comparison_source))))
    nav = "".join(f'<li><a href="#{i}">{_esc(h)}</a></li>' for i, h, _ in sections)
    body = "\n".join(f'<section id="{i}">\n<h2>{_esc(h)}</h2>\n{content}\n</section>' for i, h, content in sections)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_esc(inp.title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"<h1>{_esc(inp.title)}</h1>\n"
            + (f'<p class="note" id="coverage">{_esc(inp.coverage)}</p>\n' if inp.coverage else "")
            + f"<nav><ul>{nav}</ul></nav>\n{body}\n"
            f"<script>{SCRIPT}</script>\n</body>\n</html>\n")
