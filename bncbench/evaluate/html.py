"""One self-contained HTML report of a results store (`bncbench report RESULTS --format html`).

No network and no external file: CSS and a few lines of JavaScript (click a column header to
sort a table) are inline, figures are inline SVG. The page leads with its findings:

1. Summary: the experiment in one paragraph (data sets n of N, classifiers, protocol) with the
   coverage line; the average ranks of the summary metric with the Friedman test; its
   critical-difference diagram; the pairs that differ (Nemenyi, Holm, sign test); every judged
   metric at a glance; with a published table or a claims file, the reproduction status.
2. Tables: one per metric (as `report` prints it), the best value of each data set in bold;
   those of the metrics a classifier is judged by open, the others (accuracy, times, counts)
   collapsed; the W/D/L matrix of the summary metric with the records the sign test finds
   significant marked, its p-values and the other metrics' matrices collapsed (as `wdl`).
3. Figures (as `bncbench figures`), full width, the title as the caption only.
4. Beside the published values / the paper's claims (collapsed), and the provenance (collapsed:
   the run's stored `provenance`, the config, the data files and their checksums).

The caller gathers the inputs (`results.py` reads the store for the CLI); everything here
formats values it is given, and the same inputs give the same bytes.
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
from bncbench.evaluate.stats import draw_words, round4
from bncbench.evaluate.wdl import coverage_notes, matrix, settings_notes

if TYPE_CHECKING:
    from bncbench.evaluate.ranks import RankTest
    from bncbench.results import Summary

# the metrics a classifier is judged by: their tables are open and they get W/D/L matrices (not
# accuracy, which is 100 (1 − zol), nor times or counts); the summary metric is judged too
WDL_METRICS = ("zol", "rmse", "rmse_all", "cll", "logloss", "bias", "variance")
ALPHA = 0.05  # the significance level of every test the page reports
WORDS = {"zol": "zero-one loss", "accuracy": "accuracy (%)", "rmse": "RMSE of the true class's probability",
         "rmse_all": "RMSE over all classes' probabilities", "cll": "conditional log-likelihood",
         "logloss": "log loss", "bias": "Kohavi–Wolpert bias", "variance": "Kohavi–Wolpert variance",
         "train_time": "training time per fold (s)", "test_time": "classification time per fold (s)",
         "selected": "attributes kept", "elimination": "share of attributes eliminated"}


@dataclass
class Cell:
    """A table cell with a class (`best`, `sig win`, `sig loss`) and a tooltip."""

    text: str
    cls: str = ""
    title: str = ""


@dataclass
class Table:
    """One HTML table: `ident` is its element id, `footer` rows (summaries) are not sorted; a cell
    is text or a `Cell`."""

    ident: str
    caption: str
    header: list[str]
    rows: list[list[str | Cell]]
    footer: list[list[str | Cell]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: bool = False  # cells are text (left-aligned, wrapped), not numbers


@dataclass
class Claims:
    """A claims file judged against our runs (`bncbench claims`): its caption, (claim, printed,
    ours, verdict, holds) per claim, and the lines after them (how many hold, coverage)."""

    caption: str
    source: str
    verdicts: list[tuple[str, str, str, str, bool]]
    lines: list[str]


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
    figures: list[tuple[str, str]] = field(default_factory=list)   # (title, SVG text drawn without it)
    comparison: Comparison | None = None
    comparison_source: str = ""                     # the published table's path
    coverage: str = ""                              # n of N data sets and the missing ones (Coverage.line)
    name: str = ""                                  # the experiment's (config's) name
    protocol: dict = field(default_factory=dict)    # cv, preprocess, estimator, m, description (with defaults)
    primary: str = ""                               # the summary metric
    ranks: dict[str, RankTest] = field(default_factory=dict)  # metric -> rank test (two classifiers or more)
    cd: tuple[str, str] | None = None               # the summary metric's CD diagram: (caption, SVG text)
    claims: Claims | None = None


def _cell(mean: float, sd: float) -> str:
    if math.isnan(mean):
        return "n/a"
    return round4(mean) if math.isnan(sd) else f"{round4(mean)} ± {round4(sd)}"


def shown_labels(s: Summary) -> list[str]:
    """The classifiers with at least one value of the summary's metric (the others get no column)."""
    return [lab for lab in s.labels if any(not math.isnan(s.values[(d, lab)][0]) for d in s.datasets)]


def _best(cells: list[str], lower: bool) -> list[str | Cell]:
    """`cells` (numbers as printed, 'n/a', 'mean ± sd') with the best value(s) as a `Cell` of class
    `best` when at least two have a value; equal printed values are all best."""
    nums = [float(c.split(" ± ")[0]) if c not in ("n/a", "") else math.nan for c in cells]
    have = [x for x in nums if not math.isnan(x)]
    if len(have) < 2:
        return list(cells)
    top = min(have) if lower else max(have)
    return [Cell(c, "best", "the best of the row") if x == top else c for c, x in zip(cells, nums)]


def metric_table(s: Summary, differences: dict[str, str]) -> Table:
    """A metric's table as `report` prints it (md): mean ± sd, the mean and average-rank rows,
    the best value of each row marked; classifiers with no value at all (e.g. `selected` of a
    non-selective one) are left out."""
    labels = shown_labels(s)
    lower = LOWER_IS_BETTER[s.metric]
    rows = [[f"{d} {MARK}" if d in differences else d] + _best([_cell(*s.values[(d, lab)]) for lab in labels], lower)
            for d in s.datasets]
    footer, notes = summary_rows(s.datasets, labels, s.values, lower, NO_MEAN.get(s.metric, ""))
    footer = [[r[0]] + _best(r[1:], lower or r[0].startswith("average rank")) for r in footer]
    notes = [n for n in notes if not n.startswith("average rank: 1 = best")]  # the section's legend says it
    if not s.coverage.complete:  # else the summary's coverage line says it for every table
        notes.insert(0, s.coverage.line())
    dropped = [lab for lab in s.labels if lab not in labels]
    if dropped:
        notes.append(f"no {s.metric} values: {', '.join(dropped)}")
    if s.status_line():
        notes.append(f"warning: {s.status_line()}")
    direction = "lower" if lower else "higher"
    return Table(f"metric-{s.metric}", f"{s.metric}: {WORDS.get(s.metric, s.metric)}, mean ± sd ({direction} is better)",
                 ["dataset"] + labels,
                 rows, footer, notes + difference_legend(s.datasets, differences))


def wdl_tables(s: Summary, settings: dict[str, str], differences: dict[str, str]) -> list[Table]:
    """The W/D/L matrix of every classifier against every other, the records the sign test finds
    significant (p ≤ `ALPHA`) marked, and its sign-test p-values, on the data sets finished for
    every classifier (as `bncbench wdl` computes them)."""
    excluded = [d for d in s.datasets if d in s.incomplete]
    datasets = [d for d in s.datasets if d not in excluded]
    labels, lower = shown_labels(s), LOWER_IS_BETTER[s.metric]
    rule, draws, tails = settings.get("draw", "exact4"), settings.get("draws", "split"), settings.get("tails", "one")
    mat = matrix(datasets, labels, s.values, rule, lower, draws, tails)

    def record(a: str, b: str) -> str | Cell:
        if a == b:
            return "—"
        r, p = mat[(a, b)]
        if p > ALPHA or r.wins == r.losses:
            return Cell(str(r), title=f"sign test p = {p:.4f}")
        return Cell(f"{r}*", "sig win" if r.wins > r.losses else "sig loss", f"sign test p = {p:.4f} ≤ {ALPHA:g}")

    wins = [[a] + [record(a, b) for b in labels] for a in labels]
    ps = [[a] + ["—" if a == b else format(mat[(a, b)][1], ".4f") for b in labels] for a in labels]
    absent = {d: why for d, why in s.coverage.missing.items() if d not in s.datasets}
    notes = (coverage_notes(datasets, s.values, labels, labels, excluded, absent=absent)
             + settings_notes(s.metric, lower, rule, draws, tails)
             + difference_legend(datasets, differences))
    return [Table(f"wdl-{s.metric}", f"{s.metric}: wins-draws-losses of the row against the column",
                  ["W-D-L (row vs column)"] + labels, wins,
                  notes=[(f"* the sign test finds the record significant (p ≤ {ALPHA:g}): green when the row "
                          "wins more, red when it loses more; hover a cell for its p")]),
            Table(f"wdl-p-{s.metric}", f"{s.metric}: sign-test p-values", ["p (sign test)"] + labels, ps, notes=notes)]


def significant_records(s: Summary, settings: dict[str, str]) -> tuple[list[str], int]:
    """(['A 6-0-1 B (p = 0.0156)', ...] for each pair whose sign test gives p ≤ `ALPHA`, the
    winner first; the number of pairs) on the data sets finished for every classifier."""
    datasets = [d for d in s.datasets if d not in s.incomplete]
    labels, lower = shown_labels(s), LOWER_IS_BETTER[s.metric]
    mat = matrix(datasets, labels, s.values, settings.get("draw", "exact4"), lower, settings.get("draws", "split"),
                 settings.get("tails", "one"))
    pairs = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:]]
    out = []
    for a, b in pairs:
        r, p = mat[(a, b)]
        if p <= ALPHA and r.wins != r.losses:
            w, x, y = (a, b, r) if r.wins > r.losses else (b, a, mat[(b, a)][0])
            out.append(f"{w} {y} {x} (p = {_p(p)})")
    return out, len(pairs)


def comparison_tables(c: Comparison, source: str) -> list[Table]:
    """The compared values and the summary per classifier, as `bncbench compare` prints them."""
    values, summary = printed_rows(c)
    return [Table("compare-values", f"{source}: {CAPTION}", list(CSV_COLUMNS), values),
            Table("compare-summary", "per classifier", SUMMARY_HEADER, summary, notes=comparison_notes(c))]


# -- the summary -------------------------------------------------------------------------------
def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def protocol_text(p: dict) -> str:
    """The evaluation and preprocessing of a config (`ReportInput.protocol`) in words."""
    cv, pre = p.get("cv", {}), p.get("preprocess", {})
    runs = int(cv.get("runs", 1))
    if cv.get("scheme") == "petal-bv":
        how = (f"{_count(runs, 'run')} of the bias–variance experiment of the Webb group's C++ system (per run a "
               f"training sample and a test set of N // {cv.get('divisor') or 3} instances each, seed "
               f"{cv.get('seed', 0)})")
    else:
        folds = "the C++ system's folds" if cv.get("scheme") == "petal" else "stratified folds"
        how = f"{_count(runs, 'run')} of {cv.get('folds', 10)}-fold cross-validation ({folds}, seed {cv.get('seed', 0)})"
    missing = {"distinct": "missing values kept as a value of their own", "impute": "missing values imputed",
               "skip": "instances with a missing value skipped"}.get(pre.get("missing"), f"missing: {pre.get('missing')}")
    if pre.get("discretizer") == "mdl":
        disc = f"MDL discretisation ({pre.get('mdl_method')})"
    else:
        disc = f"equal-frequency discretisation into {pre.get('bins')} bins ({pre.get('eqfreq_method')})"
    scope = "fitted on each training set" if pre.get("scope") == "fold" else "fitted once on the whole data set"
    est = {"mestimate": f"the m-estimate (m = {p.get('m', 1)})", "laplace": "Laplace estimates",
           "laplace_joint": "Laplace estimates of the joint counts"}.get(p.get("estimator"), str(p.get("estimator")))
    return f"{how}; {missing}, {disc} {scope}; probabilities by {est}"


def experiment_text(inp: ReportInput) -> str:
    """The experiment in one paragraph: what, on how many data sets of how many, with which
    classifiers, by which protocol, and the summary metric."""
    first = inp.summaries[0]
    labels, cov = first.labels, first.coverage
    n = len(first.datasets)
    of = f"{n} of {cov.total} data sets" if cov.total else _count(n, "data set")
    covered = of + ("" if cov.complete else " (the missing ones are named below)")
    described = f" ({inp.protocol['description'].strip()})" if inp.protocol.get("description") else ""
    primary = inp.primary or first.metric
    direction = "lower" if LOWER_IS_BETTER[primary] else "higher"
    return (f"The experiment {inp.name or inp.title}{described} compares {_count(len(labels), 'classifier')} "
            f"({', '.join(labels)}) on {covered} by "
            f"{protocol_text(inp.protocol)}. The summary below is of {primary} ({WORDS.get(primary, primary)}, "
            f"{direction} is better); every test is at α = {ALPHA:g}.")


def _p(p: float) -> str:
    """A p-value as `bncbench ranks` prints it: 4 decimals, or scientific notation below 0.0001."""
    if math.isnan(p):
        return "n/a"
    return format(p, ".4f") if p >= 1e-4 or p == 0 else format(p, ".2e")


def friedman_text(t: RankTest, metric: str) -> str:
    """The Friedman test of one metric's average ranks in words."""
    k = len(t.labels)
    verdict = (f"the classifiers differ (p ≤ {ALPHA:g})" if t.chi2_p <= t.alpha
               else f"no difference detected (p > {ALPHA:g})")
    left = f"; left out (a classifier has no value): {', '.join(t.left_out)}" if t.left_out else ""
    return (f"{metric}: Friedman test over {t.n} data sets: χ²_F = {t.chi2:.3f}, df = {k - 1}, p = {_p(t.chi2_p)}: "
            f"{verdict} (Demšar 2006; Iman–Davenport F_F = {t.ff:.3f}, p = {_p(t.ff_p)}){left}.")


def pairs_lines(t: RankTest, s: Summary, settings: dict[str, str]) -> list[str]:
    """The pairs that differ, one line per test: Nemenyi, Holm's procedure (on the average ranks)
    and the sign test (on the W/D/L records, the config's settings)."""
    rank = dict(zip(t.labels, t.ranks))

    def names(flag: str) -> str:
        pairs = sorted((p for p in t.pairs if getattr(p, flag)),
                       key=lambda p: (-abs(p.difference), t.labels.index(p.a), t.labels.index(p.b)))
        got = [" and ".join(sorted((p.a, p.b), key=lambda lab: (rank[lab], t.labels.index(lab)))) for p in pairs]
        return f"{len(got)} of {len(t.pairs)}" + (f": {'; '.join(got)}" if got else ": none")

    sig, n = significant_records(s, settings)
    return [f"Nemenyi (average ranks at least CD = {t.cd_nemenyi:.2f} apart): {names('cd')}",
            f"Holm's procedure (adjusted p ≤ {ALPHA:g}): {names('holm')}",
            f"sign test on the wins and losses ({settings_text(settings)}): {len(sig)} of {n}"
            + (f": {'; '.join(sig)}" if sig else ": none")]


def _ranks_table(t: RankTest, metric: str) -> Table:
    order = sorted(range(len(t.labels)), key=lambda i: (t.ranks[i], i))
    return Table("ranks", f"{metric}: average rank over {t.n} data sets (1 = best)", ["classifier"]
                 + [t.labels[i] for i in order], [["average rank"] + [format(t.ranks[i], ".2f") for i in order]])


def glance_table(inp: ReportInput) -> Table:
    """One row per judged metric: the best average rank, the Friedman p, the pairs Holm's
    procedure tells apart and the significant W/D/L records."""
    rows = []
    settings = inp.wdl
    primary = inp.primary or inp.summaries[0].metric
    for s in sorted(inp.summaries, key=lambda x: x.metric != primary):
        t = inp.ranks.get(s.metric)
        if t is None:
            continue
        i = min(range(len(t.labels)), key=lambda j: (t.ranks[j], j))
        holm = sum(p.holm for p in t.pairs)
        sig, n = significant_records(s, settings)
        rows.append([s.metric, "lower" if t.lower_is_better else "higher", f"{t.labels[i]} ({t.ranks[i]:.2f})",
                     Cell(_p(t.chi2_p), "sig" if t.chi2_p <= ALPHA else ""), f"{holm} of {len(t.pairs)}",
                     f"{len(sig)} of {n}"])
    return Table("glance", "every judged metric at a glance",
                 ["metric", "better when", "best average rank", "Friedman p", "pairs that differ (Holm)",
                  "significant W/D/L (sign test)"], rows)


def settings_text(settings: dict[str, str]) -> str:
    """The config's W/D/L settings in words."""
    tails = "one-tailed" if settings.get("tails", "one") == "one" else "two-tailed"
    draws = "draws split between wins and losses" if settings.get("draws", "split") == "split" else "draws ignored"
    return f"draws: {draw_words(settings.get('draw', 'exact4'))}; {tails} sign test, {draws}"


def reproduction_lines(inp: ReportInput) -> list[str]:
    """The reproduction status: values equal to the published table's, claims that hold."""
    out = []
    if inp.comparison is not None:
        c = inp.comparison
        per = ", ".join(f"{lab} {eq} of {n}" for lab, eq, n, _ in c.summary())
        out.append(f"Beside {inp.comparison_source}: {c.total_line()}" + (f" — {per}" if per else "") + ".")
    if inp.claims is not None:
        out.append(f"{inp.claims.caption} ({inp.claims.source}): {inp.claims.lines[0]}")
    return out


def summary_html(inp: ReportInput) -> str:
    """The summary section's content."""
    parts = [f'<p id="experiment">{_esc(experiment_text(inp))}</p>']
    if inp.coverage:
        parts.append(f'<p class="note" id="coverage">{_esc(inp.coverage)}</p>')
    primary = inp.primary or inp.summaries[0].metric
    t = inp.ranks.get(primary)
    if t is None:
        s = next(x for x in inp.summaries if x.metric == primary)
        why = ("one classifier has values" if len(shown_labels(s)) < 2 else
               "fewer than two data sets where every classifier has a value")
        parts.append(f'<p id="friedman">{_esc(primary)}: {why}; no ranks to compare.</p>')
    else:
        parts.append(_table_html(_ranks_table(t, primary)))
        parts.append(f'<p id="friedman">{_esc(friedman_text(t, primary))}</p>')
        if inp.cd is not None:
            caption, svg = inp.cd
            parts.append(f'<figure id="cd"><div class="svg">{inline_svg(svg, "cd")}</div>'
                         f"<figcaption>{_esc(caption)}</figcaption></figure>")
        s = next(x for x in inp.summaries if x.metric == primary)
        parts.append(f'<div id="pairs"><p class="lead">Pairs that differ (α = {ALPHA:g}):</p><ul>'
                     + "".join(f"<li>{_esc(line)}</li>" for line in pairs_lines(t, s, inp.wdl)) + "</ul></div>")
    if len(inp.ranks) > 1 or (inp.ranks and primary not in inp.ranks):
        parts.append(_table_html(glance_table(inp)))
    lines = reproduction_lines(inp)
    if lines:
        parts.append('<p id="reproduction">' + "<br>".join(_esc(x) for x in lines) + "</p>")
    return "\n".join(parts)


# -- HTML --------------------------------------------------------------------------------------
def _esc(x) -> str:
    return html.escape(str(x), quote=True)


def _td(c: str | Cell) -> str:
    if isinstance(c, Cell):
        cls = f' class="{_esc(c.cls)}"' if c.cls else ""
        title = f' title="{_esc(c.title)}"' if c.title else ""
        return f"<td{cls}{title}>{_esc(c.text)}</td>"
    return f"<td>{_esc(c)}</td>"


def _table_html(t: Table, heading: bool = True) -> str:
    def tr(cells: list) -> str:
        return f'<tr><th scope="row">{_esc(cells[0])}</th>' + "".join(_td(c) for c in cells[1:]) + "</tr>"

    head = "<tr>" + "".join(f'<th scope="col" title="sort">{_esc(h)}</th>' for h in t.header) + "</tr>"
    parts = [f'<div class="tbl" id="{_esc(t.ident)}">'] + ([f"<h3>{_esc(t.caption)}</h3>"] if heading else [])
    parts += ['<div class="scroll">', f'<table class="sortable{" text" if t.text else ""}">', f"<thead>{head}</thead>",
              "<tbody>" + "".join(map(tr, t.rows)) + "</tbody>"]
    if t.footer:
        parts.append("<tfoot>" + "".join(map(tr, t.footer)) + "</tfoot>")
    parts += ["</table>", "</div>"]
    parts += [f'<p class="note">{_esc(n)}</p>' for n in t.notes]
    parts.append("</div>")
    return "\n".join(parts)


def _details(summary: str, content: str, ident: str = "", open_: bool = False) -> str:
    """A collapsed block: `summary` always shown, `content` on a click."""
    attrs = (f' id="{_esc(ident)}"' if ident else "") + (" open" if open_ else "")
    return f"<details{attrs}><summary>{_esc(summary)}</summary>\n{content}\n</details>"


def _best_rank(inp: ReportInput, s: Summary) -> str:
    """': best average rank L (r)' of a metric, or ': L only' for one classifier."""
    labels = shown_labels(s)
    t = inp.ranks.get(s.metric)
    if t is not None:
        i = min(range(len(t.labels)), key=lambda j: (t.ranks[j], j))
        return f": best average rank {t.labels[i]} ({t.ranks[i]:.2f})"
    return f": {labels[0]} only" if len(labels) == 1 else ""


def tables_html(inp: ReportInput) -> str:
    """The tables section: the judged metrics' tables open (the summary metric's first, with its
    W/D/L matrix), the others collapsed."""
    primary = inp.primary or inp.summaries[0].metric
    judged = [s for s in inp.summaries if s.metric == primary or s.metric in WDL_METRICS]
    judged.sort(key=lambda s: s.metric != primary)
    rest = [s for s in inp.summaries if s not in judged]
    parts = [('<p class="note">Cells: mean ± sd; <b>bold</b>: the best value of the row (equal printed values all '
              "bold); average rank: per data set 1 = best, equal printed values share the average of their ranks "
              "(Demšar 2006). Click a column header to sort.</p>")]
    for s in judged:
        parts.append(_table_html(metric_table(s, inp.differences)))
        if len(shown_labels(s)) < 2:
            continue
        wins, ps = wdl_tables(s, inp.wdl, inp.differences)
        sig, n = significant_records(s, inp.wdl)
        if s.metric == primary:
            parts.append(_table_html(wins))
            parts.append(_details(ps.caption, _table_html(ps, heading=False), f"details-wdl-p-{s.metric}"))
        else:
            parts.append(_details(f"{s.metric}: wins-draws-losses of each classifier against each other, "
                                  f"{len(sig)} of {n} significant (sign test)",
                                  _table_html(wins) + "\n" + _table_html(ps), f"details-wdl-{s.metric}"))
    for s in rest:
        t = metric_table(s, inp.differences)
        parts.append(_details(t.caption + _best_rank(inp, s), _table_html(t, heading=False), f"details-{t.ident}"))
    return "\n".join(parts)


def figures_html(figures: list[tuple[str, str]]) -> str:
    """Each figure full width, its title as the caption (the SVG is drawn without one)."""
    return "\n".join(f'<figure id="figure-{i + 1}"><figcaption>{_esc(" ".join(title.split()))}</figcaption>'
                     f'<div class="svg">{inline_svg(svg, f"fig{i + 1}")}</div></figure>'
                     for i, (title, svg) in enumerate(figures))


def claims_html(c: Claims) -> str:
    rows = [[str(i), text, printed, ours, Cell(verdict, "holds" if holds else "")]
            for i, (text, printed, ours, verdict, holds) in enumerate(c.verdicts, 1)]
    return _table_html(Table("claims-verdicts", f"{c.caption} ({c.source})", ["#", "claim", "printed", "ours", "verdict"], rows,
                             notes=c.lines, text=True), heading=False)


def provenance_html(inp: ReportInput) -> str:
    """The run's provenance (items with no value left out), the data files and the config."""
    prov = [["written by", f"bncbench {inp.version}"]] + [[k, str(v)] for k, v in inp.provenance.items()
                                                          if str(v).strip()]
    data = [list(row) for row in inp.data_files]
    return "\n".join([
        _table_html(Table("provenance-run", "the run (stored with the results)", ["item", "value"], prov, text=True)),
        _table_html(Table("provenance-data", "data files (sha256 as verified on loading)",
                          ["data set", "file", "sha256"], data, text=True)),
        "<h3>config</h3>", f"<pre><code>{_esc(inp.config)}</code></pre>"])


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
line-height:1.35;color:#222}
h1{font-size:1.5rem;margin:1rem 0 .3rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc;margin:1.5rem 0 .5rem}
h3{font-size:1rem;margin:.8rem 0 .25rem}
nav ul{list-style:none;padding:0;margin:0 0 .5rem;display:flex;flex-wrap:wrap;gap:0 1.2rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums}
th,td{border:1px solid #ddd;padding:.05rem .45rem;text-align:right;white-space:nowrap}
th[scope=row],thead th:first-child{text-align:left}
table.text td,table.text th{text-align:left;white-space:normal;overflow-wrap:anywhere}
ul{margin:.1rem 0 .4rem;padding-left:1.4rem}p.lead{margin-bottom:0}
thead th{background:#f3f3f3;cursor:pointer;position:sticky;top:0}
thead th[aria-sort=ascending]::after{content:" \\25B2"}thead th[aria-sort=descending]::after{content:" \\25BC"}
tfoot td{background:#fafafa;font-style:italic}
td.best{font-weight:bold}td.sig{font-weight:bold}td.win{background:#dff3df}td.loss{background:#f8dddd}
td.holds{background:#dff3df}
p{margin:.5rem 0}.note{font-size:.8rem;color:#555;margin:.15rem 0}
details{margin:.4rem 0}summary{cursor:pointer;font-size:.95rem}details>.tbl h3{margin-top:.4rem}
pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;font-size:.8rem}
figure{margin:.8rem 0}figcaption{font-size:.9rem;margin-bottom:.2rem}.svg svg{width:100%;height:auto;display:block}
@media (max-width:40rem){body{padding:0 .5rem}table{font-size:.75rem}th,td{padding:.1rem .3rem}}
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
    sections: list[tuple[str, str, str]] = [("summary", "Summary", summary_html(inp)),
                                            ("tables", "Tables", tables_html(inp))]
    if inp.figures:
        sections.append(("figures", "Figures", figures_html(inp.figures)))
    if inp.comparison is not None:
        sections.append(("comparison", "Beside the published values", _details(
            f"{inp.comparison_source}: {inp.comparison.total_line()}",
            "\n".join(_table_html(t) for t in comparison_tables(inp.comparison, inp.comparison_source)),
            "details-comparison")))
    if inp.claims is not None:
        sections.append(("claims", "The paper's claims", _details(
            f"{inp.claims.caption}: {inp.claims.lines[0]}", claims_html(inp.claims), "details-claims")))
    sections.append(("provenance", "Provenance", _details(
        "bncbench version, machine, data files and their checksums, the config", provenance_html(inp),
        "details-provenance")))
    nav = "".join(f'<li><a href="#{i}">{_esc(h)}</a></li>' for i, h, _ in sections)
    body = "\n".join(f'<section id="{i}">\n<h2>{_esc(h)}</h2>\n{content}\n</section>' for i, h, content in sections)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_esc(inp.title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"<h1>{_esc(inp.title)}</h1>\n<nav><ul>{nav}</ul></nav>\n{body}\n"
            f"<script>{SCRIPT}</script>\n</body>\n</html>\n")
