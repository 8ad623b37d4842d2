"""The papers' figures gathered from an open results store (docs/algorithms.md §6.11): each kind's
data as a `Plot`, with the command-line options merged over the config's `figures:` section; the
drawing is evaluate/figures.py's."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from bncbench.errors import UserError
from bncbench.evaluate.figure_style import Style, style
from bncbench.evaluate.figures import (
    FIGURES,
    LABELLED,
    LOG_RANGE,
    SPLIT,
    UNASKED,
    Plot,
    bayes_plot,
    cd_plot,
    size_words,
    svg_text,
)
from bncbench.evaluate.metrics import in_words
from bncbench.reporting.analyses import bayes
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    from bncbench.evaluate.values import FoldValues, Summary
    from bncbench.evaluate.wide_table import WideTable
    from bncbench.results import Results


class NotApplicable(UserError):
    """A figure these results cannot show (bias/variance of a store with one run per fold)."""



@dataclass
class Options:
    """Command-line settings; each given one overrides the config's `figures:` section."""

    a: str | None = None                          # scatter: x axis
    b: str | None = None                          # scatter: y axis
    metric: list[str] | None = None               # scatter, wdl, gd (one figure per metric)
    rows: list[str] | None = None                 # wdl: classifiers compared against the others
    pairs: list[tuple[str, str]] | None = None    # gd: GD(A; B) curves; bayes: A against B
    alpha: float | None = None                    # cd: significance level of the Nemenyi test
    rope: float | None = None                     # bayes: the region of practical equivalence
    with_table: str | None = None                 # cd: a published wide table's columns beside the stored ones



class Source:
    """A results store as the figures read it: labels, stored settings, summaries, sizes."""

    def __init__(self, results: Results):
        exp = results.experiment
        self.results = results
        self.labels: list[str] = self.summary("zol").labels  # every label planned in the store, in order
        tasks = results.tasks
        self.tasks = tasks[tasks["current"]]
        self.settings: dict[str, Any] = exp.figures  # {figure: its entry}, and style, width
        self.wdl = exp.wdl
        self.cv = exp.cv
        self.user_datasets = {d.name for d in exp.datasets if d.path is not None}

    def summary(self, metric: str) -> Summary:
        """The store's summary of `metric` over all cells."""
        return self.results.summary(metric)

    def folds(self, metric: str, labels: list[str], kind: str) -> FoldValues | None:
        """The per-fold values of `labels` that the `wdl:` draw rule needs (the t-test's), else None."""
        from bncbench.evaluate.stats import needs_folds

        if not needs_folds(self.wdl.draw):
            return None
        try:
            return self.results.fold_values(metric, None, labels)
        except UserError as e:
            raise UserError(f"{kind}: draw rule {self.wdl.draw}: {e}") from None

    @cached_property
    def sizes(self) -> dict[str, int]:
        """{data set: number of instances} (module docstring: data-set size)."""
        from bncbench.data import catalog

        out = {}
        for key, g in self.tasks.groupby("dataset", sort=False):
            ds = str(key)
            n = int(g.groupby(["label", "run"])["n_test"].sum().max())
            if self.cv.scheme == "petal-bv":
                n = int(g["n_test"].max()) * self.cv.divisor
                if ds not in self.user_datasets:
                    try:
                        n = int(catalog.expected_counts(ds)[1]["instances"])
                    except (UserError, KeyError):
                        pass  # not a catalog data set: the estimate from the test set
            out[ds] = n
        return out


def _check_labels(option: str, wanted, labels: list[str]) -> None:
    for lab in wanted:
        if lab not in labels:
            raise UserError(f"{option}: no classifier {lab!r} in the results{did_you_mean(lab, labels)}; "
                            f"available: {', '.join(labels)}")


def _values(src: Source, metric: str, labels: list[str], kind: str) -> tuple[list[str], dict, list[str]]:
    """(data sets, {(data set, label): (mean, sd)}, notes) of `metric`; UserError when none of
    `labels` has a value."""
    try:
        s = src.summary(metric)
    except UserError as e:
        raise UserError(f"{kind}: {e}") from None
    notes = [f"warning: {s.status_line()}"] if s.status_line() else []
    if all(math.isnan(s.values[(d, lab)][0]) for d in s.datasets for lab in labels):
        raise UserError(f"{kind}: the results have no {metric} value for {', '.join(labels)}")
    return s.datasets, s.values, notes


# -- the data of each figure ------------------------------------------------------------------
def scatter_data(src: Source, a: str, b: str, metric: str) -> Plot:
    """The scatter figure's points: A's mean against B's per data set (docs/algorithms.md §6.11)."""
    from bncbench.evaluate.metrics import LOWER_IS_BETTER
    from bncbench.evaluate.stats import draw_words
    from bncbench.evaluate.wdl import outcomes

    rule = src.wdl.draw
    lower = LOWER_IS_BETTER[metric]
    datasets, values, notes = _values(src, metric, [a, b], "scatter")
    folds = src.folds(metric, [a, b], "scatter")
    points = []
    for d, o in zip(datasets, outcomes(datasets, values, a, b, rule, lower, folds)):
        x, y = values[(d, a)][0], values[(d, b)][0]
        if not (math.isnan(x) or math.isnan(y)):
            points.append({"dataset": d, "x": x, "y": y, "size": src.sizes[d],
                           "better": a if o == 1 else b if o == -1 else ""})
    unjudged = [p["dataset"] for p in points if folds is not None and p["dataset"] not in folds.datasets]
    if unjudged:
        notes.append(f"scatter: no paired fold values for the t-test, shown as neither better: {', '.join(unjudged)}")
    if not points:
        raise UserError(f"scatter: no data set has a {metric} value for both {a} and {b}")
    far = sorted(points, key=lambda p: -abs(p["y"] - p["x"]))
    below, above = (b, a) if lower else (a, b)
    words = in_words(metric, heading=True)
    return Plot("scatter", "scatter", f"{words}: {a} (x) against {b} (y) per data set",
                {"a": a, "b": b, "metric": metric, "rule": rule, "below": below, "above": above,
                 "points": points, "labelled": [p["dataset"] for p in far[:LABELLED]]}, notes,
                caption=f"{words} of {a} (x) and {b} (y), one point per data set: below the diagonal {below} is "
                        f"better (draws: {draw_words(rule)})")


def times_data(src: Source, classifiers: list[str]) -> Plot:
    """Per classifier its mean training and test time per fold on each data set (`<metric>_values`,
    in table order) and their mean over the data sets (`<metric>`); `log`: one logarithmic scale
    for both, when every value is positive and the largest exceeds `LOG_RANGE` × the smallest."""
    data: dict[str, Any] = {"classifiers": classifiers}
    notes: list[str] = []
    used: set[str] = set()
    for metric in ("train_time", "test_time"):
        datasets, values, more = _values(src, metric, classifiers, "times")
        notes += [n for n in more if n not in notes]
        per = [[values[(d, lab)][0] for d in datasets if not math.isnan(values[(d, lab)][0])] for lab in classifiers]
        used |= {d for d in datasets if any(not math.isnan(values[(d, lab)][0]) for lab in classifiers)}
        data[f"{metric}_values"] = per
        data[metric] = [math.fsum(v) / len(v) if v else math.nan for v in per]
    every = [x for metric in ("train_time", "test_time") for v in data[f"{metric}_values"] for x in v]
    data["log"] = bool(every) and min(every) > 0 and max(every) > LOG_RANGE * min(every)
    data["n"] = len(used)
    return Plot("times", "times", f"Training and classification time per fold on {len(used)} data sets", data, notes,
                caption=f"Training and classification time per fold on each of {len(used)} data sets (seconds): "
                        f"box = middle half, whiskers = least and greatest, diamond = mean")


def wdl_data(src: Source, rows: list[str], metric: str, split: int) -> Plot:
    """W/D/L of each row classifier against every other one, on the data sets with fewer than
    `split` instances and on the others (a group with no data set is left out, with a note); data
    sets incomplete for any classifier are left out (as `bncbench wdl` does)."""
    from bncbench.evaluate.metrics import LOWER_IS_BETTER
    from bncbench.evaluate.stats import draw_words
    from bncbench.evaluate.wdl import matrix, with_folds

    rule, draws, tails = src.wdl.draw, src.wdl.draws, src.wdl.tails
    labels = src.labels
    datasets, values, notes = _values(src, metric, labels, "wdl")
    unfinished = src.summary(metric).unfinished(labels)
    left_out = [d for d in datasets if d in unfinished or d not in src.sizes]
    if left_out:
        notes.append(f"wdl: left out {len(left_out)} incomplete data set(s): {', '.join(left_out)}")
    folds = src.folds(metric, labels, "wdl")
    _, unpaired = with_folds([d for d in datasets if d not in left_out], folds)
    if unpaired:
        notes.append(f"wdl: left out {len(unpaired)} data set(s) without paired fold values for the t-test: "
                     + ", ".join(f"{d} ({why})" for d, why in unpaired.items()))
        left_out += list(unpaired)
    groups = {f"< {split}": [d for d in datasets if d not in left_out and src.sizes[d] < split],
              f"≥ {split}": [d for d in datasets if d not in left_out and src.sizes[d] >= split]}
    for group in [g for g, ds in groups.items() if not ds]:
        del groups[group]
        notes.append(f"wdl: no panel of data sets with {size_words(group)}: the results have none")
    bars: dict[str, dict[str, dict[str, tuple[int, int, int]]]] = {}
    for group, ds in groups.items():
        mat = matrix(ds, labels, values, rule, LOWER_IS_BETTER[metric], draws, tails, folds)
        for row in rows:
            bars.setdefault(row, {})[group] = {
                other: (mat[(row, other)][0].wins, mat[(row, other)][0].draws, mat[(row, other)][0].losses)
                for other in labels if other != row}
    words = in_words(metric, heading=True)
    return Plot("wdl", "wdl", f"{words}: wins, draws and losses of {', '.join(rows)}",
                {"metric": metric, "rule": rule, "split": split, "groups": groups, "bars": bars}, notes,
                caption=f"{words}: wins, draws and losses of {', '.join(rows)} against each other classifier, by "
                        f"data-set size (draws: {draw_words(rule)})")


def gd_data(src: Source, pairs: list[tuple[str, str]], metric: str) -> Plot:
    """GD(A; B | S_t), t = 1..N, per pair (paired.gd_rows, the draw rule of the `wdl:` section)."""
    from bncbench.evaluate.metrics import LOWER_IS_BETTER
    from bncbench.evaluate.paired import gd_rows
    from bncbench.evaluate.stats import draw_words

    rule = src.wdl.draw
    labels = sorted({x for p in pairs for x in p})
    datasets, values, notes = _values(src, metric, labels, "gd")
    folds = src.folds(metric, labels, "gd")
    if folds is not None and folds.left_out:
        notes.append("gd: not counted, no paired fold values for the t-test: "
                     + ", ".join(f"{d} ({why})" for d, why in folds.left_out.items()))
    header, rows = gd_rows(datasets, values, pairs, rule, LOWER_IS_BETTER[metric], folds)
    curves = {name: [int(r[2 + i]) for r in rows] for i, name in enumerate(header[2:])}
    large = [t for t, d in enumerate(datasets, 1) if src.sizes.get(d, 0) >= SPLIT]
    words = in_words(metric, heading=True)
    return Plot("gd", "gd", f"{words}: goal difference GD(A; B) over the data sets",
                {"metric": metric, "rule": rule, "datasets": datasets, "curves": curves,
                 "first_large": large[0] if large else None}, notes,
                caption=f"{words}: goal difference GD(A; B) = wins − losses of A against B over the first t data "
                        f"sets, in table order (draws: {draw_words(rule)})")


def biasvar_data(src: Source, classifiers: list[str]) -> Plot:
    """Mean bias and variance per classifier over the data sets where every one has both."""
    try:
        datasets, bias, notes = _values(src, "bias", classifiers, "biasvar")
        _, var, _ = _values(src, "variance", classifiers, "biasvar")
    except UserError as e:
        raise NotApplicable(str(e)) from None
    used = [d for d in datasets if not any(math.isnan(x[(d, lab)][0]) for x in (bias, var) for lab in classifiers)]
    if not used:
        raise NotApplicable(f"biasvar: no data set has bias and variance for every one of {', '.join(classifiers)}")
    data = {"classifiers": classifiers, "datasets": used,
            "bias": [math.fsum(bias[(d, lab)][0] for d in used) / len(used) for lab in classifiers],
            "variance": [math.fsum(var[(d, lab)][0] for d in used) / len(used) for lab in classifiers]}
    title = f"Kohavi–Wolpert bias and variance, means over {len(used)} data sets"
    return Plot("biasvar", "biasvar", title, data, notes, caption=title)


def cd_data(src: Source, classifiers: list[str], metric: str, alpha: float = 0.05,
            published: WideTable | None = None, option: str = "--with") -> Plot:
    """Average ranks and the Nemenyi cliques of `classifiers` over the data sets where every one
    has a value (evaluate/ranks.compare_classifiers, as `bncbench ranks`), with the columns of the
    `published` table (read from `option`) after them."""
    from bncbench.evaluate.metrics import LOWER_IS_BETTER
    from bncbench.evaluate.published import join
    from bncbench.evaluate.ranks import compare_classifiers

    datasets, values, notes = _values(src, metric, classifiers, "cd")
    if published is not None:
        joined = join(src.summary(metric), published, option)
        values, classifiers = joined.summary.values, [*classifiers, *joined.published]
        notes += [f"cd: {line}" for line in joined.notes]
    try:
        t = compare_classifiers(datasets, classifiers, values, LOWER_IS_BETTER[metric], alpha)
    except ValueError as e:
        raise UserError(f"cd: {e}") from None
    plot = cd_plot(t, metric)
    if t.left_out:
        plot.notes.append(f"cd: left out {len(t.left_out)} data set(s) where a classifier has no value: "
                          f"{', '.join(t.left_out)}")
    plot.notes[:0] = notes
    return plot


def bayes_data(src: Source, a: str, b: str, metric: str, rope: float | None, samples: int | None = None,
               seed: int | None = None) -> Plot:
    """The signed-rank test's posterior of A against B (`Results.bayes`, seeded as `bncbench bayes`);
    NotApplicable when the results cannot give it (skipped with a note when making all figures)."""
    try:
        return bayes_plot(bayes(src.results, a, b, metric, rope, samples=samples, seed=seed))
    except UserError as e:
        raise NotApplicable(f"bayes: {e}") from None


# -- which figures, with which settings ---------------------------------------------------------
def kinds(src: Source, only: list[str] | None = None) -> list[str]:
    """The figures to make, in FIGURES order: `only` (checked), else those of the stored
    `figures:` section, else UNASKED."""
    for name in only or []:
        if name not in FIGURES:
            raise UserError(f"--only: unknown figure {name!r}{did_you_mean(name, FIGURES)}; "
                            f"choose from {', '.join(FIGURES)}")
    wanted = only or [k for k in src.settings if k in FIGURES] or UNASKED
    return [k for k in FIGURES if k in wanted]


def figure_style(src: Source, name: str | None, width: str | None) -> Style:
    """The Style of --style `name` and --width `width`, each, when not given, the config's
    `figures:` `style:` and `width:` (docs/cli.md: figures)."""
    conf = src.settings
    name = name or conf.get("style")
    return style(name, width or (conf.get("width") if name == "paper" else None))


def _first_pair(src: Source) -> list[tuple[str, str]]:
    """The pair a figure of pairs shows unless told: the first label against the second."""
    return [(src.labels[0], (src.labels[1:] or src.labels)[0])]


def _times(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    return [times_data(src, conf.get("classifiers") or src.labels)]


def _biasvar(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    return [biasvar_data(src, conf.get("classifiers") or src.labels)]


def _cd(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    from bncbench.evaluate.published import read

    option = "--with" if o.with_table else "figures.cd.with"
    path = o.with_table or conf.get("with")
    try:
        published = read(path, option) if path else None
    except UserError as e:  # the config's file, gone (a results folder copied elsewhere): --only cd says so
        raise (e if o.with_table else NotApplicable(f"cd: {e}")) from None
    return [cd_data(src, conf.get("classifiers") or src.labels, m, o.alpha or conf.get("alpha", 0.05), published,
                    option) for m in metrics]


def _bayes(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    pairs = o.pairs or conf.get("pairs") or _first_pair(src)
    if any(a == b for a, b in pairs):
        raise NotApplicable("bayes: each pair needs two different classifiers")
    rope = o.rope if o.rope is not None else conf.get("rope")
    made = [bayes_data(src, a, b, m, rope, conf.get("samples"), conf.get("seed")) for a, b in pairs for m in metrics]
    for p in made if len(metrics) > 1 else []:
        p.name += f"-{p.data['metric']}"
    return made


def _scatter(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    a = o.a or conf.get("a") or src.labels[0]
    b = o.b or conf.get("b") or next((x for x in src.labels if x != a), a)
    if a == b:
        raise UserError(f"scatter: needs two different classifiers, got {a!r} twice")
    return [scatter_data(src, a, b, m) for m in metrics]


def _wdl(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    return [wdl_data(src, o.rows or conf.get("rows") or src.labels[:1], m, conf.get("split", SPLIT)) for m in metrics]


def _gd(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    pairs = o.pairs or conf.get("pairs") or _first_pair(src)
    if any(a == b for a, b in pairs):
        raise UserError("gd: each pair needs two different classifiers")
    return [gd_data(src, pairs, m) for m in metrics]


def _stability(src: Source, conf: dict, o: Options, metrics: list[str]) -> list[Plot]:
    from bncbench.evaluate.figures import stability_plot
    from bncbench.reporting.structure import stability_cells

    datasets, labels, got = stability_cells(src.results)
    wanted = conf.get("classifiers") or labels
    shown = [lab for lab in wanted if any(got[(d, lab)].n for d in datasets)]
    if not shown:
        raise NotApplicable(f"stability: no classifier of {', '.join(wanted)} reports a learned structure")
    plot = stability_plot(datasets, shown, {c: s.value for c, s in got.items()})
    for lab in (lab for lab in wanted if lab not in shown):  # each with its reason: none reported, or unreadable
        why = sorted({got[(d, lab)].why for d in datasets if got[(d, lab)].why})
        more = f" (and {len(why) - 1} other reason(s))" if len(why) > 1 else ""
        plot.notes.append(f"stability: {lab} not shown: {why[0]}{more}")
    return [plot]


#: each figure kind's data (evaluate/figures.py KINDS draws it): the options merged over the
#: config's `figures:` entry `conf`, one Plot per metric (bayes: per pair and metric)
MAKERS: dict[str, Callable[[Source, dict, Options, list[str]], list[Plot]]] = {
    "scatter": _scatter, "times": _times, "wdl": _wdl, "gd": _gd, "biasvar": _biasvar, "cd": _cd, "bayes": _bayes,
    "stability": _stability}


def plots(src: Source, only: list[str] | None = None, options: Options | None = None) -> list[Plot]:
    """The figures `kinds(src, only)` with their settings (module docstring); UserError for a
    figure that cannot be made, NotApplicable for biasvar without repeated runs and for a Bayesian
    comparison the results cannot give."""
    options = options or Options()
    for opt, wanted in (("--a", [options.a] if options.a else []), ("--b", [options.b] if options.b else []),
                        ("--rows", options.rows or []), ("--pairs", [x for p in options.pairs or [] for x in p])):
        _check_labels(opt, wanted, src.labels)
    out = []
    for kind in kinds(src, only):
        conf = src.settings.get(kind, {})
        made = MAKERS[kind](src, conf, options, options.metric or conf.get("metric") or [src.wdl.default_metric])
        if len(made) > 1 and kind != "bayes":
            for p in made:
                p.name = f"{p.kind}-{p.data['metric']}"
        out += [_with_coverage(p, src.summary("zol").coverage) for p in made]
    return out


def _with_coverage(plot: Plot, coverage) -> Plot:
    """`plot` with its title saying "n of N data sets" and a note naming the missing ones, when
    the results do not cover every data set of their configs."""
    if not coverage.complete:
        plot.title += f" — {len(coverage.covered)} of {coverage.total} data sets"
        plot.caption += f" — {len(coverage.covered)} of {coverage.total} data sets"
        plot.notes.append(f"figures: {coverage.line()}")
    return plot


def figures_for_html(r: Results) -> list[tuple[Plot, str]]:
    """[(Plot, SVG text without its title), ...] of the HTML report's figures (docs/algorithms.md §6.11)."""
    try:
        src = Source(r)
    except UserError:
        return []
    out = []
    for kind in kinds(src):
        if kind == "bayes":  # the report's own section (reporting/page.py `_bayes`), with the tables
            continue
        try:
            made = plots(src, [kind])
        except UserError:
            continue
        out += [(p, svg_text(p, title=False)) for p in made]
    return out
