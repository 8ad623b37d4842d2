"""The one-file HTML report (`report --format html`, docs/cli.md): inputs as words and tables; the page: templates/."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from bncbench.evaluate.compare import (
    CAPTION,
    CSV_COLUMNS,
    SUMMARY_HEADER,
    PublishedComparison,
    printed_rows,
)
from bncbench.evaluate.compare import notes as comparison_notes
from bncbench.evaluate.metrics import JUDGED, LOWER_IS_BETTER, NO_MEAN, WORDS
from bncbench.evaluate.report import MARK, MATH, best_of_row, cell, difference_legend, summary_rows
from bncbench.evaluate.stats import draw_words
from bncbench.evaluate.wdl import coverage_notes, matrix, settings_notes, with_folds

if TYPE_CHECKING:
    from markupsafe import Markup

    from bncbench.evaluate.bayes import BayesComparison
    from bncbench.evaluate.ranks import RankTest
    from bncbench.evaluate.ttest import PairedFolds
    from bncbench.evaluate.values import Summary
    from bncbench.evaluate.versus_base import VersusBase

ALPHA = 0.05  # the significance level of every test the page reports


@dataclass
class Cell:
    """A table cell with a class (`best`, `sig win`, `sig loss`) and a tooltip."""

    text: str
    cls: str = ""
    title: str = ""


@dataclass
class Table:
    """One HTML table: `ident` its element id, `footer` rows unsorted, a cell text or a `Cell`."""

    ident: str
    caption: str
    header: list[str]
    rows: Sequence[Sequence[str | Cell]]
    footer: Sequence[Sequence[str | Cell]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: bool = False  # cells are text (left-aligned, wrapped), not numbers
    metric: str = ""    # the metric the caption begins with ('zol: ...'), which LaTeX names in words


@dataclass
class Details:
    """A collapsed block of tables: `summary` always shown, the tables on a click."""

    ident: str
    summary: str
    tables: list[Table]
    heading: bool = True  # each table's caption as its heading (False: the summary says it)


@dataclass(frozen=True)
class Run:
    """A piece of a summary paragraph: `text` as written, `style` '' (plain), 'code' (a name of the
    results: a metric), 'math' (`tex` its LaTeX) or 'break' (a line break; no text)."""

    text: str
    style: str = ""
    tex: str = ""


@dataclass
class Paragraph:
    """A paragraph of the summary (`summary_blocks`): its element id, its runs, its class on the page;
    with `items`, the paragraph leads a list of them."""

    ident: str
    runs: list[Run]
    cls: str = ""
    items: list[list[Run]] = field(default_factory=list)


@dataclass
class Figure:
    """A figure of the summary: the CD diagram (the page shows it; text has none)."""

    ident: str
    caption: str
    svg: str


Block = Paragraph | Table | Figure  # what the summary is made of, in order


@dataclass
class Claims:
    """A claims file judged (`bncbench claims`): (claim, printed, ours, verdict, holds) each, then its lines."""

    caption: str
    source: str
    verdicts: list[tuple[str, str, str, str, bool]]
    lines: list[str]


@dataclass
class BayesBlock:
    """One pair of the Bayesian comparisons section: its heading, the signed-rank test in words, the
    simplex (SVG text, "" when not drawn), the per-data-set correlated t-tests and the notes."""

    caption: str
    lines: list[str]
    svg: str = ""
    table: Table | None = None


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
    comparison: PublishedComparison | None = None
    comparison_source: str = ""                     # the published table's path
    coverage: str = ""                              # n of N data sets and the missing ones (Coverage.line)
    name: str = ""                                  # the experiment's (config's) name
    protocol: dict = field(default_factory=dict)    # cv, preprocess, estimator, m, description (with defaults)
    primary: str = ""                               # the summary metric
    ranks: dict[str, RankTest] = field(default_factory=dict)  # metric -> rank test (two classifiers or more)
    cd: tuple[str, str] | None = None               # the summary metric's CD diagram: (caption, SVG text)
    claims: Claims | None = None
    folds: Mapping[str, PairedFolds] = field(default_factory=dict)  # metric -> per-fold values (ttest draw rule)
    bayes: list[BayesBlock] = field(default_factory=list)  # the config's figures: bayes: pairs
    classes: dict[str, str] = field(default_factory=dict)  # data set -> its class column (a user's file)
    stability: tuple[Table, str] | None = None      # the structures' stability: its table, its heat map (SVG text)
    versus: dict[str, VersusBase | str] = field(default_factory=dict)  # metric -> its cells against --base, or why not
    published: list[str] = field(default_factory=list)  # --with: the labels of the published columns joined


def shown_labels(s: Summary) -> list[str]:
    """The classifiers with at least one value of the summary's metric (the others get no column)."""
    return [lab for lab in s.labels if any(not math.isnan(s.values[(d, lab)][0]) for d in s.datasets)]


def _best(cells: list[str], lower: bool) -> list[str | Cell]:
    """`cells` as printed with the best value(s) (report.best_of_row) a `Cell` of class `best`."""
    return [Cell(c, "best", "the best of the row") if best else c for c, best in zip(cells, best_of_row(cells, lower))]


def metric_table(s: Summary, differences: dict[str, str], versus: VersusBase | str | None = None) -> Table:
    """A metric's table as `report` prints it, the best of each row marked, classifiers with no value left out;
    `versus`: its cells against a base column (marked, with a count row and the legend), or why they are not."""
    labels = shown_labels(s)
    lower = LOWER_IS_BETTER[s.metric]
    rows = [[f"{d} {MARK}" if d in differences else d, *_best([cell(*s.values[(d, lab)]) for lab in labels], lower)]
            for d in s.datasets]
    sums, notes = summary_rows(s.datasets, labels, s.values, lower, NO_MEAN.get(s.metric, ""))
    footer = [[r[0], *_best(r[1:], lower or r[0].startswith("average rank"))] for r in sums]
    notes = [n for n in notes if not n.startswith("average rank: 1 = best")]  # the section's legend says it
    if not s.coverage.complete:  # else the summary's coverage line says it for every table
        notes.insert(0, s.coverage.line())
    dropped = [lab for lab in s.labels if lab not in labels]
    if dropped:
        notes.append(f"no {s.metric} values: {', '.join(dropped)}")
    if s.status_line():
        notes.append(f"warning: {s.status_line()}")
    if isinstance(versus, str):
        notes.append(versus)
    elif versus is not None:
        rows, footer, legend = _versus_cells(versus, s.datasets, labels, rows, footer, lower)
        notes += legend
    direction = "lower" if lower else "higher"
    return Table(f"metric-{s.metric}",
                 f"{s.metric}: {WORDS.get(s.metric, s.metric)}, mean ± sd ({direction} is better)",
                 ["dataset", *labels], rows, footer, notes + difference_legend(s.datasets, differences))


def _versus_cells(v: VersusBase, datasets: list[str], labels: list[str], rows: list, footer: list,
                  lower: bool) -> tuple[list, list, list[str]]:
    """A metric table's rows with each cell's mark against the base (a class and its p as tooltip),
    its footer with the count row, and the legend (evaluate/versus_base.py)."""
    def marked(c: str | Cell, d: str, lab: str) -> str | Cell:
        got = v.verdicts.get((d, lab))
        if got is None:
            return c
        text, cls, title = (c.text, c.cls, c.title) if isinstance(c, Cell) else (c, "", "")
        word = v.word(d, lab)
        cls = " ".join(x for x in (cls, {"better": "win", "worse": "loss"}.get(word, "")) if x)
        test = f"significantly {word} than {v.base}" if word else f"not significantly different from {v.base}"
        return Cell(text + v.mark(d, lab), cls, "; ".join(x for x in (title, f"{test} (p = {_p(got.p)})") if x))

    rows = [[r[0], *(marked(c, d, lab) for c, lab in zip(r[1:], labels))] for r, d in zip(rows, datasets)]
    return rows, [*footer, v.count_row(labels)], v.legend(lower)


def wdl_tables(s: Summary, settings: dict[str, str], differences: dict[str, str],
               folds: PairedFolds | None = None) -> list[Table]:
    """The W/D/L matrix, significant records (sign test p ≤ `ALPHA`) marked, and its p-values (as
    `wdl`; `folds`: the metric's per-fold values, which the ttest draw rule needs)."""
    labels, lower = shown_labels(s), LOWER_IS_BETTER[s.metric]
    excluded = s.unfinished(labels)
    datasets, unpaired = with_folds([d for d in s.datasets if d not in excluded], folds)
    rule, draws, tails = settings["draw"], settings["draws"], settings["tails"]
    mat = matrix(datasets, labels, s.values, rule, lower, draws, tails, folds)

    def record(a: str, b: str) -> str | Cell:
        if a == b:
            return "—"
        r, p = mat[(a, b)]
        if p > ALPHA or r.wins == r.losses:
            return Cell(str(r), title=f"sign test p = {p:.4f}")
        return Cell(f"{r}*", "sig win" if r.wins > r.losses else "sig loss", f"sign test p = {p:.4f} ≤ {ALPHA:g}")

    wins = [[a, *(record(a, b) for b in labels)] for a in labels]
    ps = [[a, *("—" if a == b else format(mat[(a, b)][1], ".4f") for b in labels)] for a in labels]
    absent = {d: why for d, why in s.coverage.missing.items() if d not in s.datasets}
    notes = (coverage_notes(datasets, s.values, labels, labels, excluded, absent=absent, unpaired=unpaired)
             + settings_notes(s.metric, lower, rule, draws, tails)
             + difference_legend(datasets, differences))
    return [Table(f"wdl-{s.metric}", f"{s.metric}: wins-draws-losses of the row against the column",
                  ["W-D-L (row vs column)"] + labels, wins,
                  notes=[(f"* the sign test finds the record significant (p ≤ {ALPHA:g}): green when the row "
                          "wins more, red when it loses more; hover a cell for its p")]),
            Table(f"wdl-p-{s.metric}", f"{s.metric}: sign-test p-values", ["p (sign test)"] + labels, ps, notes=notes)]


def significant_records(s: Summary, settings: dict[str, str],
                        folds: PairedFolds | None = None) -> tuple[list[str], int]:
    """(['A 6-0-1 B (p = 0.0156)', ...] per pair with sign-test p ≤ `ALPHA`, winner first; number of pairs)."""
    labels, lower = shown_labels(s), LOWER_IS_BETTER[s.metric]
    excluded = s.unfinished(labels)
    datasets, _ = with_folds([d for d in s.datasets if d not in excluded], folds)
    mat = matrix(datasets, labels, s.values, settings["draw"], lower, settings["draws"], settings["tails"], folds)
    pairs = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:]]
    out = []
    for a, b in pairs:
        r, p = mat[(a, b)]
        if p <= ALPHA and r.wins != r.losses:
            w, x, y = (a, b, r) if r.wins > r.losses else (b, a, mat[(b, a)][0])
            out.append(f"{w} {y} {x} (p = {_p(p)})")
    return out, len(pairs)


def comparison_tables(c: PublishedComparison, source: str) -> list[Table]:
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
               f"training sample and a test set of N // {cv['divisor']} instances each, seed "
               f"{cv.get('seed', 0)})")
    else:
        folds = "the C++ system's folds" if cv.get("scheme") == "petal" else "stratified folds"
        how = (f"{_count(runs, 'run')} of {cv.get('folds', 10)}-fold cross-validation ({folds}, seed "
               f"{cv.get('seed', 0)})")
    missing = str(pre.get("missing"))
    missing = {"distinct": "missing values kept as a value of their own", "impute": "missing values imputed",
               "skip": "instances with a missing value skipped"}.get(missing, f"missing: {missing}")
    cuts = {"petal": "the C++ system's cut points", "weka": "Weka 3.6's cut points",
            "quantile": "quantile cut points"}  # docs/algorithms.md §1.2, §1.3
    if pre.get("discretizer") == "mdl":
        method = str(pre.get("mdl_method"))
        disc = f"MDL discretisation (Fayyad & Irani 1993; {cuts.get(method, method)})"
    else:
        method = str(pre.get("eqfreq_method"))
        disc = f"equal-frequency discretisation into {pre.get('bins')} bins ({cuts.get(method, method)})"
    scope = "fitted on each training set" if pre.get("scope") == "fold" else "fitted once on the whole data set"
    est = str(p.get("estimator"))
    est = {"mestimate": f"the m-estimate (m = {p.get('m', 1)})", "laplace": "Laplace estimates",
           "laplace_joint": "Laplace estimates of the joint counts"}.get(est, est)
    return f"{how}; {missing}, {disc} {scope}; probabilities by {est}"


def experiment_runs(inp: ReportInput) -> list[Run]:
    """The experiment in one paragraph: classifiers, data sets n of N, protocol, the summary metric."""
    first = inp.summaries[0]
    labels, cov = [lab for lab in first.labels if lab not in inp.published], first.coverage
    n = len(first.datasets)
    of = f"{n} of {cov.total} data sets" if cov.total else _count(n, "data set")
    covered = of + ("" if cov.complete else " (the missing ones are named below)")
    described = f" ({inp.protocol['description'].strip()})" if inp.protocol.get("description") else ""
    primary = inp.primary or first.metric
    direction = "lower" if LOWER_IS_BETTER[primary] else "higher"
    return [Run(f"The experiment {inp.name or inp.title}{described} compares {_count(len(labels), 'classifier')} "
                f"({', '.join(labels)}) on {covered} by {protocol_text(inp.protocol)}. The summary below is of "),
            Run(primary, "code"),
            Run(f" ({WORDS.get(primary, primary)}, {direction} is better); every test is at α = {ALPHA:g}."
                + (f" Published columns beside them: {', '.join(inp.published)}." if inp.published else ""))]


def _p(p: float) -> str:
    """A p-value as `bncbench ranks` prints it: 4 decimals, or scientific notation below 0.0001."""
    if math.isnan(p):
        return "n/a"
    return format(p, ".4f") if p >= 1e-4 or p == 0 else format(p, ".2e")


def friedman_runs(t: RankTest, metric: str) -> list[Run]:
    """The Friedman test of one metric's average ranks in words."""
    k = len(t.labels)
    verdict = (f"the classifiers differ (p ≤ {ALPHA:g})" if t.chi2_p <= t.alpha
               else f"no difference detected (p > {ALPHA:g})")
    left = f"; left out (a classifier has no value): {', '.join(t.left_out)}" if t.left_out else ""
    return [Run(metric, "code"), Run(f": Friedman test over {t.n} data sets: "), Run("χ²_F", "math", MATH["χ²_F"]),
            Run(f" = {t.chi2:.3f}, df = {k - 1}, p = {_p(t.chi2_p)}: {verdict} (Demšar 2006; Iman–Davenport "),
            Run("F_F", "math", MATH["F_F"]), Run(f" = {t.ff:.3f}, p = {_p(t.ff_p)}){left}.")]


def pairs_lines(t: RankTest, s: Summary, settings: dict[str, str], folds: PairedFolds | None = None) -> list[str]:
    """The pairs that differ, one line per test: Nemenyi, Holm (average ranks), the sign test (W/D/L)."""
    rank = dict(zip(t.labels, t.ranks))

    def names(flag: str) -> str:
        pairs = sorted((p for p in t.pairs if getattr(p, flag)),
                       key=lambda p: (-abs(p.difference), t.labels.index(p.a), t.labels.index(p.b)))
        got = [" and ".join(sorted((p.a, p.b), key=lambda lab: (rank[lab], t.labels.index(lab)))) for p in pairs]
        return f"{len(got)} of {len(t.pairs)}" + (f": {'; '.join(got)}" if got else ": none")

    sig, n = significant_records(s, settings, folds)
    return [f"Nemenyi (average ranks at least CD = {t.cd_nemenyi:.2f} apart): {names('cd')}",
            f"Holm's procedure (adjusted p ≤ {ALPHA:g}): {names('holm')}",
            f"sign test on the wins and losses ({settings_text(settings)}): {len(sig)} of {n}"
            + (f": {'; '.join(sig)}" if sig else ": none")]


def _ranks_table(t: RankTest, metric: str) -> Table:
    order = sorted(range(len(t.labels)), key=lambda i: (t.ranks[i], i))
    return Table("ranks", f"{metric}: average rank over {t.n} data sets (1 = best)", ["classifier"]
                 + [t.labels[i] for i in order], [["average rank"] + [format(t.ranks[i], ".2f") for i in order]],
                 metric=metric)


def glance_table(inp: ReportInput) -> Table:
    """One row per judged metric: best average rank, Friedman p, pairs Holm tells apart, significant W/D/L."""
    rows = []
    settings = inp.wdl
    primary = inp.primary or inp.summaries[0].metric
    for s in sorted(inp.summaries, key=lambda x: x.metric != primary):
        t = inp.ranks.get(s.metric)
        if t is None:
            continue
        i = min(range(len(t.labels)), key=lambda j: (t.ranks[j], j))
        holm = sum(p.holm for p in t.pairs)
        sig, n = significant_records(s, settings, inp.folds.get(s.metric))
        rows.append([s.metric, "lower" if t.lower_is_better else "higher", f"{t.labels[i]} ({t.ranks[i]:.2f})",
                     Cell(_p(t.chi2_p), "sig" if t.chi2_p <= ALPHA else ""), f"{holm} of {len(t.pairs)}",
                     f"{len(sig)} of {n}"])
    return Table("glance", "Every judged metric at a glance",
                 ["metric", "better when", "best average rank", "Friedman p", "pairs that differ (Holm)",
                  "significant W/D/L (sign test)"], rows)


def settings_text(settings: dict[str, str]) -> str:
    """The config's W/D/L settings in words."""
    tails = "one-tailed" if settings["tails"] == "one" else "two-tailed"
    draws = "draws split between wins and losses" if settings["draws"] == "split" else "draws ignored"
    return f"draws: {draw_words(settings['draw'])}; {tails} sign test, {draws}"


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


def summary_blocks(inp: ReportInput) -> list[Block]:
    """The summary, block by block: the experiment in words, the coverage, the average ranks with
    the Friedman test, the CD diagram, the pairs that differ, every judged metric at a glance, the
    reproduction status. The page shows them (templates/summary.html.j2) and `bncbench summary`
    writes the same blocks as text (evaluate/findings.py)."""
    primary = inp.primary or inp.summaries[0].metric
    s = next(x for x in inp.summaries if x.metric == primary)
    t = inp.ranks.get(primary)
    out: list[Block] = [Paragraph("experiment", experiment_runs(inp))]
    if inp.coverage:
        out.append(Paragraph("coverage", [Run(inp.coverage)], "note"))
    if t is None:
        why = ("one classifier has values" if len(shown_labels(s)) < 2 else
               "fewer than two data sets where every classifier has a value")
        out.append(Paragraph("friedman", [Run(primary, "code"), Run(f": {why}; no ranks to compare.")]))
    else:
        out += [_ranks_table(t, primary), Paragraph("friedman", friedman_runs(t, primary))]
        if inp.cd is not None:
            out.append(Figure("cd", *inp.cd))
        out.append(Paragraph("pairs", [Run(f"Pairs that differ (α = {ALPHA:g}):")], "lead",
                             [[Run(line)] for line in pairs_lines(t, s, inp.wdl, inp.folds.get(primary))]))
    if len(inp.ranks) > 1 or (inp.ranks and primary not in inp.ranks):
        out.append(glance_table(inp))
    lines = reproduction_lines(inp)
    if lines:
        out.append(Paragraph("reproduction", [r for i, line in enumerate(lines)
                                              for r in ([Run("", "break")] if i else []) + [Run(line)]]))
    return out


def _best_rank(inp: ReportInput, s: Summary) -> str:
    """': best average rank L (r)' of a metric, or ': L only' for one classifier."""
    labels = shown_labels(s)
    t = inp.ranks.get(s.metric)
    if t is not None:
        i = min(range(len(t.labels)), key=lambda j: (t.ranks[j], j))
        return f": best average rank {t.labels[i]} ({t.ranks[i]:.2f})"
    return f": {labels[0]} only" if len(labels) == 1 else ""


def table_blocks(inp: ReportInput) -> list[Table | Details]:
    """The tables section: the judged metrics' open (the summary metric's first), the others collapsed."""
    primary = inp.primary or inp.summaries[0].metric
    judged = [s for s in inp.summaries if s.metric == primary or s.metric in JUDGED]  # tables open, W/D/L
    judged.sort(key=lambda s: s.metric != primary)
    rest = [s for s in inp.summaries if s not in judged]
    out: list[Table | Details] = []
    for s in judged:
        out.append(metric_table(s, inp.differences, inp.versus.get(s.metric)))
        if len(shown_labels(s)) < 2:
            continue
        wins, ps = wdl_tables(s, inp.wdl, inp.differences, inp.folds.get(s.metric))
        if s.metric == primary:
            out += [wins, Details(f"details-wdl-p-{s.metric}", ps.caption, [ps], heading=False)]
        else:
            sig, n = significant_records(s, inp.wdl, inp.folds.get(s.metric))
            out.append(Details(f"details-wdl-{s.metric}", f"{s.metric}: wins-draws-losses of each classifier against "
                               f"each other, {len(sig)} of {n} significant (sign test)", [wins, ps]))
    for s in rest:
        t = metric_table(s, inp.differences, inp.versus.get(s.metric))
        out.append(Details(f"details-{t.ident}", t.caption + _best_rank(inp, s), [t], heading=False))
    return out


def claims_table(c: Claims) -> Table:
    """Each claim with its printed value, ours and the verdict, those that hold marked."""
    rows: list[list[str | Cell]] = [[str(i), text, printed, ours, Cell(verdict, "holds" if holds else "")]
                                    for i, (text, printed, ours, verdict, holds) in enumerate(c.verdicts, 1)]
    return Table("claims-verdicts", f"{c.caption} ({c.source})", ["#", "claim", "printed", "ours", "verdict"], rows,
                 notes=c.lines, text=True)


def provenance_tables(inp: ReportInput) -> tuple[Table, Table]:
    """The run's provenance (items with no value left out) and the data files."""
    prov: list[list[str | Cell]] = [["written by", f"bncbench {inp.version}"]]
    prov += [[k, str(v)] for k, v in inp.provenance.items() if str(v).strip() and not isinstance(v, dict)]
    head = ["data set", "file", "sha256"] + (["class"] if inp.classes else [])
    rows: list[list[str | Cell]] = [[*row, *([inp.classes.get(row[0], "")] if inp.classes else [])]
                                    for row in inp.data_files]
    return (Table("provenance-run", "the run (stored with the results)", ["item", "value"], prov, text=True),
            Table("provenance-data", "data files (sha256 as verified on loading)", head, rows, text=True))


_SVG_REFERENCES = re.compile(r'(\bid="|url\(#|href="#)([^")]+)')


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG document as an element of the page, its metadata dropped and every id prefixed by `prefix`."""
    # drops the XML declaration, doctype and creation date; figures drawn with the same ids (matplotlib's
    # `patch_1`, clip paths) must not collide on one page
    start = svg.find("<svg")
    if start < 0:
        raise ValueError("not an SVG document")
    body = re.sub(r"<metadata>.*?</metadata>\s*", "", svg[start:], flags=re.S)
    return _SVG_REFERENCES.sub(lambda m: f"{m[1]}{prefix}-{m[2]}", body)


def bayes_block(c: BayesComparison, svg: str, ident: str) -> BayesBlock:
    """The section's block of one comparison (`evaluate.bayes.BayesComparison`) with its simplex `svg`."""
    from bncbench.evaluate.bayes import notes

    p = c.signed_rank.probabilities
    heads = [f"P({c.a} better)", "P(rope)", f"P({c.b} better)"]
    rows = [[t.dataset, f"{t.mean_difference:.4f}", *(f"{x:.3f}" for x in (t.probabilities.a, t.probabilities.rope,
                                                                          t.probabilities.b)), str(t.folds)]
            for t in c.per_dataset]
    line = (f"Over {len(c.signed_rank.datasets)} data sets (Bayesian signed-rank test): P({c.a} better) = {p.a:.3f}, "
            f"P(rope) = {p.rope:.3f}, P({c.b} better) = {p.b:.3f}")
    if not rows:
        return BayesBlock(f"{WORDS.get(c.metric, c.metric)}: {c.a} against {c.b}", [line, *notes(c)], svg)
    table = Table(ident, f"{c.metric}: Bayesian correlated t-test on each data set's folds",
                  ["data set", f"mean {c.a} − {c.b}", *heads, "folds"], rows, notes=notes(c))
    return BayesBlock(f"{WORDS.get(c.metric, c.metric)}: {c.a} against {c.b}", [line], svg, table)


def _svg(svg: str, prefix: str) -> Markup:
    """An SVG document of figures.py as an element of the page (`inline_svg`)."""
    from markupsafe import Markup

    # The one value the templates do not escape: SVG we drew (matplotlib escapes the text in it),
    # inlined as markup, not shown as text. Every other value is escaped by autoescape.
    return Markup(inline_svg(svg, prefix))


def render(inp: ReportInput) -> str:
    """The whole page: templates/report.html.j2 with a partial per section, every value autoescaped."""
    import jinja2

    sections = [("summary", "Summary"), ("tables", "Tables")] + ([("figures", "Figures")] if inp.figures else [])
    comparison = claims = None
    if inp.bayes:
        sections.append(("bayes", "Bayesian comparisons"))
    if inp.stability is not None:
        sections.append(("stability", "Structure stability"))
    if inp.comparison is not None:
        sections.append(("comparison", "Beside the published values"))
        comparison = Details("details-comparison", f"{inp.comparison_source}: {inp.comparison.total_line()}",
                             comparison_tables(inp.comparison, inp.comparison_source))
    if inp.claims is not None:
        sections.append(("claims", "The paper's claims"))
        claims = Details("details-claims", f"{inp.claims.caption}: {inp.claims.lines[0]}", [claims_table(inp.claims)],
                         heading=False)
    sections.append(("provenance", "Provenance"))
    run, data = provenance_tables(inp)
    env = jinja2.Environment(loader=jinja2.PackageLoader("bncbench.evaluate"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.tests.update(cell=lambda x: isinstance(x, Cell), details=lambda x: isinstance(x, Details),
                     table=lambda x: isinstance(x, Table), figure=lambda x: isinstance(x, Figure))
    summary = [replace(b, svg=_svg(b.svg, b.ident)) if isinstance(b, Figure) else b for b in summary_blocks(inp)]
    return env.get_template("report.html.j2").render(
        title=inp.title, sections=sections, summary=summary, blocks=table_blocks(inp),
        figures=[(" ".join(title.split()), _svg(svg, f"fig{i}")) for i, (title, svg) in enumerate(inp.figures, 1)],
        comparison=comparison, claims=claims, run=run, data=data, config=inp.config,
        bayes=[(b, _svg(b.svg, f"bayes{i}") if b.svg else "") for i, b in enumerate(inp.bayes, 1)],
        stability=None if inp.stability is None else
        (inp.stability[0], _svg(inp.stability[1], "stability") if inp.stability[1] else ""))
