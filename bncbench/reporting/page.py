"""The inputs of the HTML report gathered from one open results store (docs/algorithms.md §6.11)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING

from bncbench.errors import UserError
from bncbench.evaluate import html
from bncbench.evaluate.figures import bayes_plot, cd_plot, svg_text
from bncbench.evaluate.metrics import JUDGED, LOWER_IS_BETTER, METRICS, REPEATED_RUN_METRICS, in_words
from bncbench.evaluate.ranks import compare_classifiers
from bncbench.evaluate.stats import needs_folds
from bncbench.evaluate.values import FoldValues
from bncbench.reporting import analyses
from bncbench.reporting.figures import figures_for_html
from bncbench.results import data_files

if TYPE_CHECKING:
    from bncbench.evaluate.values import Summary
    from bncbench.evaluate.versus_base import VersusBase
    from bncbench.evaluate.wide_table import WideTable
    from bncbench.experiment import Experiment
    from bncbench.results import Results


def page(r: Results, table: str | None, datasets: list[str] | None, classifiers: list[str] | None,
         claims_file: str | None = None, warn: Callable[[str], None] = lambda line: None,
         base: str | None = None, draw: str | None = None, published: WideTable | None = None) -> str:
    """The page of `report --format html` of the open store `r` (--compare `table`, --claims
    `claims_file`, --base `base` --draw `draw`); `warn` gets the comparison's lines on what the
    store does not show in full. The `published` table's columns (--with, else the config's
    `figures: cd: with:`) join the summary metric's table, ranks, CD diagram and W/D/L matrix."""
    inp = summary_input(r, datasets, classifiers, None, table, claims_file, warn, published)
    summaries, primary, ranks = inp.summaries, inp.primary, inp.ranks
    first = summaries[0]
    cd = None
    if primary in ranks:
        caption = (f"{in_words(primary, heading=True)}: average ranks, 1 (best) at the right; a bar joins "
                   f"classifiers whose ranks differ by less than CD (Nemenyi test, α = {html.ALPHA:g})")
        cd = (caption, svg_text(cd_plot(ranks[primary], primary), title=False))
    figures = [(p.caption or p.title, svg) for p, svg in figures_for_html(r)
               if not (p.kind == "cd" and p.data["metric"] == primary)]  # the summary shows that one
    stored = r.provenance.get("data")  # the user's files of the last run: file, sha256, class, warning
    own = {d: rec for d, rec in stored.items() if isinstance(rec, dict)} if isinstance(stored, dict) else {}
    classes = {d: rec.get("class", "") + (f" — warning: {rec['warning']}" if rec.get("warning") else "")
               for d, rec in own.items()}
    return html.render(replace(
        inp, data_files=data_files(first.datasets, own), differences=r.differences(first.datasets), figures=figures,
        cd=cd, bayes=_bayes(r, r.experiment, datasets), classes=classes,
        stability=_stability(r, first.datasets, [lab for lab in first.labels if lab not in inp.published]),
        versus=_versus(r, summaries, base, draw, inp.published) if base is not None else {}))


def summary_input(r: Results, datasets: list[str] | None, classifiers: list[str] | None, metric: str | None = None,
                  table: str | None = None, claims_file: str | None = None,
                  warn: Callable[[str], None] = lambda line: None,
                  published: WideTable | None = None) -> html.ReportInput:
    """What the page's summary is made of (`html.summary_blocks`; `bncbench summary`), of the open store
    `r`: every metric's summary (the `published` columns joined, as for `page`), the rank tests, the
    protocol, the comparison with the published `table` and the claims file judged (the reproduction
    status; `warn` as for `page`); `metric` the summary's [default: `primary_metric`]. The rest of
    the page's inputs are left empty."""
    from bncbench import __version__

    summaries = _summaries(r, datasets, classifiers)
    exp = r.experiment
    metrics = [s.metric for s in summaries]
    if metric is not None and metric not in metrics:
        raise UserError(f"--metric {metric}: the results have no {metric} values; they have {', '.join(metrics)}")
    primary = metric or primary_metric(exp, metrics)
    own_summaries = summaries  # the stored classifiers' (per-fold values: theirs only)
    summaries, joined, published_labels = _with_published(r, summaries, primary, published, warn)
    first = summaries[0]
    name = ", ".join(first.configs) or Path(r.location).name
    return html.ReportInput(
        title=f"bncbench report: {name}", version=__version__, provenance=r.provenance, config=r.config_text,
        data_files=[], summaries=summaries, differences={}, wdl=asdict(exp.wdl),
        coverage=" ".join([first.coverage.line(), *joined]), name=name, protocol=protocol(exp), primary=primary,
        ranks=_rank_tests(summaries, primary), folds=_folds(r, own_summaries, primary), comparison_source=table or "",
        comparison=analyses.comparison(r, table, metrics, classifiers, {}, warn) if table else None,
        claims=_claims(r, claims_file) if claims_file else None, published=published_labels)


def _versus(r: Results, summaries: list[Summary], base: str, draw: str | None,
            published: list[str]) -> dict[str, VersusBase | str]:
    """{metric: its cells against the column `base`} of every table (--base, --draw), or why a
    table is not marked (no per-fold values; the base has no value of the metric)."""
    from bncbench.reporting.versus_base import DEFAULT_TEST, against_base, check_base

    check_base(base, summaries[0].labels, summaries[0].metric)  # a label of the results, or refused
    out: dict[str, VersusBase | str] = {}
    for s in summaries:
        labels = html.shown_labels(s)
        if s.metric in REPEATED_RUN_METRICS:
            out[s.metric] = f"not marked against {base}: {s.metric} has no value per fold"
        elif base not in labels:
            out[s.metric] = f"not marked: {base} has no {s.metric} values"
        else:
            out[s.metric] = against_base(r, s, labels, base, draw or DEFAULT_TEST, published)
    return out


def _with_published(r: Results, summaries: list[Summary], primary: str, published: WideTable | None,
                    warn: Callable[[str], None]) -> tuple[list[Summary], list[str], list[str]]:
    """(`summaries` with the published columns joined to the `primary` metric's, the join's notes,
    the published labels); the table is --with's (of the summary metric), else the config's
    `figures: cd: with:` (of the entry's first metric, else the summary metric; a file no longer
    readable, as in a results folder copied elsewhere, is left out and `warn` says so), else none."""
    from bncbench.evaluate.published import join, read

    metric, option = primary, "--with"
    if published is None:
        conf = r.experiment.figures.get("cd", {})
        if conf.get("with") is None:
            return summaries, [], []
        option = "figures.cd.with"
        try:
            published = read(conf["with"], option)
        except UserError as e:
            warn(f"warning: {e}; the page is made without the published columns")
            return summaries, [], []
        metric = (conf.get("metric") or [primary])[0]
    out, notes = [], []
    for s in summaries:
        if s.metric == metric:
            joined = join(s, published, option)
            s, notes = joined.summary, joined.notes
            if needs_folds(r.experiment.wdl.draw):
                notes.append(f"the published columns have no per-fold values: under the t-test draw rule "
                             f"({r.experiment.wdl.draw}) their W/D/L records count no data set")
        out.append(s)
    return out, [f"{n}." if not n.endswith(".") else n for n in notes], list(published.labels)


def _folds(r: Results, summaries: list[Summary], primary: str) -> dict[str, FoldValues]:
    """{metric: per-fold values} of the judged metrics when the `wdl:` draw rule is the t-test's,
    which needs them (else {}); a metric without per-fold values (bias, variance) gets none, so its
    W/D/L matrix leaves every data set out and says why."""
    exp = r.experiment
    if not needs_folds(exp.wdl.draw):
        return {}
    out = {}
    for s in summaries:
        if s.metric == primary or s.metric in JUDGED:
            labels = html.shown_labels(s)
            if s.metric in REPEATED_RUN_METRICS:
                why = f"{s.metric} has no value per fold"
                out[s.metric] = FoldValues(s.metric, exp.cv.scheme, [], labels, {}, {}, {}, {},
                                           {d: why for d in s.datasets})
            else:
                out[s.metric] = r.fold_values(s.metric, s.datasets, labels)
    return out


def _bayes(r: Results, exp: Experiment, datasets: list[str] | None) -> list[html.BayesBlock]:
    """A block per pair and metric of the config's `figures: bayes:` section (`Results.bayes`, as
    `bncbench bayes` with the section's rope, samples and seed); a pair that cannot be compared
    gets the reason."""
    conf = exp.figures.get("bayes")
    if conf is None:
        return []
    blocks = []
    for a, b in conf.get("pairs") or []:
        for metric in conf.get("metric") or [exp.wdl.default_metric]:
            try:
                c = analyses.bayes(r, a, b, metric, conf.get("rope"), datasets, conf.get("samples"), conf.get("seed"))
            except UserError as e:
                blocks.append(html.BayesBlock(f"{metric}: {a} against {b}", [f"not shown: {e}"]))
                continue
            blocks.append(html.bayes_block(c, svg_text(bayes_plot(c), title=False), f"bayes-table-{len(blocks) + 1}"))
    return blocks


def _stability(r: Results, datasets: list[str], labels: list[str]) -> tuple[html.Table, str] | None:
    """The stability section's table (every shown cell) and heat map (the classifiers that report a
    structure); None when no classifier reports one. Structures the store cannot give (an older
    store's, not refitted here): the table's notes say why, and how to compute them."""
    from bncbench.evaluate.figures import stability_plot
    from bncbench.evaluate.structure import CAPTION, NONE, stability_grid
    from bncbench.reporting.structure import stability_cells

    try:
        datasets, labels, cells = stability_cells(r, datasets, labels, refit=False)
    except UserError as e:
        return html.Table("stability-table", CAPTION, [], [], notes=[f"not shown: {e}"]), ""
    shown = [lab for lab in labels if any(cells[(d, lab)].n for d in datasets)]
    if not shown and all(s.why == NONE for s in cells.values()):
        return None  # no classifier here learns a structure
    header, rows, notes = stability_grid(datasets, labels, cells)
    svg = svg_text(stability_plot(datasets, shown, {c: s.value for c, s in cells.items()}), title=False) \
        if shown else ""
    return html.Table("stability-table", CAPTION, header, rows, notes=notes), svg


def _summaries(r: Results, datasets: list[str] | None, classifiers: list[str] | None) -> list[Summary]:
    """The summary of every metric the store has a value of, the first checking the filters."""
    first = r.summary(METRICS[0], datasets, classifiers)
    summaries = [first]
    for m in METRICS[1:]:
        try:
            s = r.summary(m, first.datasets, first.labels)
        except UserError:  # only a repeated-run metric of a one-run store
            if m not in REPEATED_RUN_METRICS:
                raise
            continue
        if any(not math.isnan(mean) for mean, _ in s.values.values()):
            summaries.append(s)
    return summaries


def _rank_tests(summaries: list[Summary], primary: str) -> dict:
    """{metric: RankTest} of the summary metric and the judged ones, where two classifiers or more have values."""
    ranks = {}
    for s in summaries:
        labels = html.shown_labels(s)
        if (s.metric == primary or s.metric in JUDGED) and len(labels) >= 2:
            try:
                ranks[s.metric] = compare_classifiers(s.datasets, labels, s.values, LOWER_IS_BETTER[s.metric],
                                                      html.ALPHA)
            except ValueError:  # fewer than two data sets where every classifier has a value
                continue
    return ranks


def primary_metric(exp: Experiment, metrics: list[str]) -> str:
    """The metric the HTML summary is of: the first the results have of the config's `wdl:`
    metric, the metrics of its `figures:` section (cd, wdl, scatter, gd), zol, else the first."""
    wanted = [exp.wdl.metric]
    for kind in ("cd", "wdl", "scatter", "gd"):
        wanted += exp.figures.get(kind, {}).get("metric") or []
    return next((m for m in [*wanted, "zol"] if m in metrics), metrics[0])


def protocol(exp: Experiment) -> dict:
    """The config's evaluation and preprocessing for the HTML summary's paragraph (`ReportInput.protocol`)."""
    return {"cv": asdict(exp.cv), "preprocess": asdict(exp.preprocess), "estimator": exp.shared_value("estimator"),
            "m": format(exp.shared_value("m"), "g"), "description": exp.description}


def _claims(r: Results, claims_file: str) -> html.Claims:
    """The claims file judged as `bncbench claims` judges it (reusing `r` for its own folder)."""
    caption, verdicts, _, lines = analyses.judge_claims(claims_file, opened=(r,))
    return html.Claims(caption, claims_file, [(v.text, v.printed, v.ours, v.verdict, v.holds) for v in verdicts],
                       lines)
