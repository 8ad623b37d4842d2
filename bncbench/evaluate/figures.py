"""The papers' figures from a results store, drawn with matplotlib (docs/algorithms.md §6.11)."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from bncbench.errors import UserError
from bncbench.utils.suggest import did_you_mean

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

    from bncbench.evaluate.bayes import Comparison
    from bncbench.results import FoldValues, Results, Summary

FIGURES = ("scatter", "times", "wdl", "gd", "biasvar", "cd", "bayes")
UNASKED = FIGURES[:-1]  # made when neither --only nor the config names figures: bayes compares a pair one names
FORMATS = ("png", "svg", "pdf")
SPLIT = 2000       # paper 004: small data sets have fewer than 2000 instances
LOG_RANGE = 100.0  # a time axis is logarithmic when its largest value exceeds 100 × its smallest
LABELLED = 5       # the scatter names this many data sets, those farthest from the diagonal
WIDTH = 11.0       # inches: every figure is drawn this wide (the HTML report shows it at the page's width)
SIMPLEX_WIDTH = 6.0  # inches: the Bayesian simplex is a triangle, drawn narrower than WIDTH
SIMPLEX_GRID = 40    # hexagons across the simplex's base
GD_NAMES = 40      # the goal-difference axis names every data set up to this many, else every k-th
_SAVE_METADATA = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}
_RC: dict[RcKeyType, Any] = {"svg.hashsalt": "bncbench", "svg.fonttype": "none", "font.size": 9, "axes.titlesize": 9}


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


@dataclass
class Plot:
    """One figure: `name` (file stem: the kind, with `-metric` when the kind has several),
    `kind` (one of FIGURES), `title`, `data` (exactly what is drawn), `notes` (warnings)."""

    name: str
    kind: str
    title: str
    data: dict[str, Any]
    notes: list[str] = field(default_factory=list)


class Source:
    """A results store as the figures read it: labels, stored settings, summaries, sizes."""

    def __init__(self, results: Results):
        exp = results.experiment
        self.results = results
        self.labels: list[str] = self.summary("zol").labels  # every label planned in the store, in order
        tasks = results.tasks
        self.tasks = tasks[tasks["current"]]
        self.settings: dict[str, dict] = exp.figures
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
    far = sorted((p for p in points if p["y"] != p["x"]), key=lambda p: -abs(p["y"] - p["x"]))
    below, above = (b, a) if lower else (a, b)
    return Plot("scatter", "scatter", f"{metric} of {a} (x) and {b} (y), one point per data set: below the "
                                      f"diagonal {below} is better (draws: {draw_words(rule)})",
                {"a": a, "b": b, "metric": metric, "rule": rule, "below": below, "above": above,
                 "points": points, "labelled": [p["dataset"] for p in far[:LABELLED]]}, notes)


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
    return Plot("times", "times", f"training and classification time per fold on each of {len(used)} data sets "
                                  f"(seconds): box = middle half, whiskers = least and greatest, diamond = mean",
                data, notes)


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
    incomplete = src.summary(metric).incomplete
    left_out = [d for d in datasets if d in incomplete or d not in src.sizes]
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
        notes.append(f"wdl: no panel of data sets with {_size_words(group)}: the results have none")
    bars: dict[str, dict[str, dict[str, tuple[int, int, int]]]] = {}
    for group, ds in groups.items():
        mat = matrix(ds, labels, values, rule, LOWER_IS_BETTER[metric], draws, tails, folds)
        for row in rows:
            bars.setdefault(row, {})[group] = {
                other: (mat[(row, other)][0].wins, mat[(row, other)][0].draws, mat[(row, other)][0].losses)
                for other in labels if other != row}
    return Plot("wdl", "wdl", f"{metric}: wins, draws and losses of {', '.join(rows)} against each other classifier, "
                              f"by data-set size (draws: {draw_words(rule)})",
                {"metric": metric, "rule": rule, "split": split, "groups": groups, "bars": bars}, notes)


def _size_words(group: str) -> str:
    """'< 2000' → 'fewer than 2000 instances', '≥ 2000' → '2000 instances or more'."""
    op, n = group.split(" ")
    return f"fewer than {n} instances" if op == "<" else f"{n} instances or more"


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
    return Plot("gd", "gd", f"{metric}: goal difference GD(A; B) = wins − losses of A against B over the first t "
                            f"data sets, in table order (draws: {draw_words(rule)})",
                {"metric": metric, "rule": rule, "datasets": datasets, "curves": curves,
                 "first_large": large[0] if large else None}, notes)


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
    return Plot("biasvar", "biasvar", f"Kohavi–Wolpert bias and variance, means over {len(used)} data sets", data,
                notes)


def cd_data(src: Source, classifiers: list[str], metric: str, alpha: float = 0.05) -> Plot:
    """Average ranks and the Nemenyi cliques of `classifiers` over the data sets where every one
    has a value (evaluate/ranks.compare_classifiers, as `bncbench ranks`)."""
    from bncbench.evaluate.metrics import LOWER_IS_BETTER
    from bncbench.evaluate.ranks import compare_classifiers

    datasets, values, notes = _values(src, metric, classifiers, "cd")
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


def cd_plot(t, metric: str) -> Plot:
    """The CD diagram of an `evaluate.ranks.RankTest` `t` of `metric`: its labels by average rank,
    the Nemenyi CD at its α and the cliques."""
    order = sorted(range(len(t.labels)), key=lambda i: (t.ranks[i], i))
    a = format(t.alpha, "g")
    return Plot("cd", "cd", f"{metric}: average rank over {t.n} data sets (1 = best, at the right); classifiers "
                            f"joined by a bar do not differ\n(Nemenyi test, α = {a}: ranks differ by less than "
                            f"CD = {t.cd_nemenyi:.2f}; Friedman p = {t.chi2_p:.2g})",
                {"metric": metric, "alpha": t.alpha, "labels": [t.labels[i] for i in order],
                 "ranks": [t.ranks[i] for i in order], "cd": t.cd_nemenyi, "n": t.n, "cliques": t.cliques,
                 "friedman_p": t.chi2_p})


def bayes_plot(c: Comparison) -> Plot:
    """The posterior sample of a Bayesian signed-rank test (`evaluate.bayes.Comparison`) on the
    probability simplex, with its three probabilities (as Benavoli et al. 2017 draw it)."""
    p = c.signed_rank.probabilities
    return Plot(f"bayes-{c.a}-vs-{c.b}", "bayes",
                f"{c.metric}: Bayesian signed-rank test of {c.a} against {c.b} over {len(c.signed_rank.datasets)} "
                f"data sets, rope ±{c.rope:g}:\n{c.samples} posterior samples (seed {c.seed}) of (P({c.a} better), "
                f"P(rope), P({c.b} better))",
                {"a": c.a, "b": c.b, "metric": c.metric, "rope": c.rope, "n": len(c.signed_rank.datasets),
                 "probabilities": (p.a, p.rope, p.b), "sample": c.signed_rank.sample})


def bayes_data(src: Source, a: str, b: str, metric: str, rope: float | None, samples: int | None = None,
               seed: int | None = None) -> Plot:
    """The signed-rank test's posterior of A against B (`Results.bayes`, seeded as `bncbench bayes`);
    NotApplicable when the results cannot give it (skipped with a note when making all figures)."""
    try:
        return bayes_plot(src.results.bayes(a, b, metric, rope, samples=samples, seed=seed))
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
    wanted = only or list(src.settings) or UNASKED
    return [k for k in FIGURES if k in wanted]


def plots(src: Source, only: list[str] | None = None, options: Options | None = None) -> list[Plot]:
    """The figures `kinds(src, only)` with their settings (module docstring); UserError for a
    figure that cannot be made, NotApplicable for biasvar without repeated runs and for a Bayesian
    comparison the results cannot give."""
    options = options or Options()
    for opt, wanted in (("--a", [options.a] if options.a else []), ("--b", [options.b] if options.b else []),
                        ("--rows", options.rows or []), ("--pairs", [x for p in options.pairs or [] for x in p])):
        _check_labels(opt, wanted, src.labels)
    default_metric = src.wdl.default_metric
    out = []
    for kind in kinds(src, only):
        conf = src.settings.get(kind, {})
        metrics = options.metric or conf.get("metric") or [default_metric]
        if kind == "times":
            made = [times_data(src, conf.get("classifiers") or src.labels)]
        elif kind == "biasvar":
            made = [biasvar_data(src, conf.get("classifiers") or src.labels)]
        elif kind == "cd":
            made = [cd_data(src, conf.get("classifiers") or src.labels, m, options.alpha or conf.get("alpha", 0.05))
                    for m in metrics]
        elif kind == "bayes":
            pairs = options.pairs or conf.get("pairs") or [(src.labels[0], (src.labels[1:] or src.labels)[0])]
            if any(a == b for a, b in pairs):
                raise NotApplicable("bayes: each pair needs two different classifiers")
            rope = options.rope if options.rope is not None else conf.get("rope")
            made = [bayes_data(src, a, b, m, rope, conf.get("samples"), conf.get("seed")) for a, b in pairs
                    for m in metrics]
            for p in made if len(metrics) > 1 else []:
                p.name += f"-{p.data['metric']}"
        elif kind == "scatter":
            a = options.a or conf.get("a") or src.labels[0]
            b = options.b or conf.get("b") or next((x for x in src.labels if x != a), a)
            if a == b:
                raise UserError(f"scatter: needs two different classifiers, got {a!r} twice")
            made = [scatter_data(src, a, b, m) for m in metrics]
        elif kind == "wdl":
            made = [wdl_data(src, options.rows or conf.get("rows") or src.labels[:1], m, conf.get("split", SPLIT))
                    for m in metrics]
        else:
            pairs = options.pairs or conf.get("pairs") or [(src.labels[0], (src.labels[1:] or src.labels)[0])]
            if any(a == b for a, b in pairs):
                raise UserError("gd: each pair needs two different classifiers")
            made = [gd_data(src, pairs, m) for m in metrics]
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
        plot.notes.append(f"figures: {coverage.line()}")
    return plot


# -- drawing ------------------------------------------------------------------------------------
def draw(plot: Plot, title: bool = True):
    """The matplotlib Figure of a Plot (no pyplot, no display), `WIDTH` inches wide (wider when
    its bars need it); `title`: the plot's title above it (the HTML report prints it instead)."""
    from matplotlib.figure import Figure

    d = plot.data
    bars = len(d["classifiers"]) if "classifiers" in d else 0          # times, biasvar
    if plot.kind == "wdl":
        bars = len(d["groups"]) * max(len(others) for by_group in d["bars"].values() for others in by_group.values())
    drawer, width, height = {
        "scatter": (_draw_scatter, WIDTH, 3.5),
        "times": (_draw_times, max(WIDTH, 0.9 * bars + 2), 3.0),
        "wdl": (_draw_wdl, max(WIDTH, 0.9 * bars + 2), 2.4 * len(d.get("bars", ())) + 0.6),
        "gd": (_draw_gd, WIDTH, 3.1),
        "biasvar": (_draw_biasvar, max(WIDTH, 0.8 * bars + 1.5), 3.2),
        "cd": (_draw_cd, WIDTH, 1.0 + 0.22 * ((len(d.get("labels", ())) + 1) // 2) + 0.12 * len(d.get("cliques", ()))),
        "bayes": (_draw_bayes, SIMPLEX_WIDTH, 0.8 * SIMPLEX_WIDTH),
    }[plot.kind]
    fig = Figure(figsize=(width, height), layout="constrained")
    drawer(fig, d)
    if title:
        fig.suptitle(plot.title, fontsize=9)
    return fig


_SIDE = {"b": "tab:blue", "a": "tab:orange", "": "0.6"}  # scatter colours: B better, A better, a draw


def _draw_scatter(fig, d: dict) -> None:
    """(a) y against x with the diagonal; (b) y − x against the data set's size (log scale). In
    both the points are coloured by the better classifier and the `labelled` data sets named."""
    a, b, metric, points = d["a"], d["b"], d["metric"], d["points"]
    ax, bx = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.35]})
    xs, ys = [p["x"] for p in points], [p["y"] for p in points]
    lo, hi = min(xs + ys), max(xs + ys)
    pad = 0.06 * (hi - lo) or 0.05 * (abs(hi) or 1.0)
    ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="0.5", linewidth=0.8, linestyle="--", zorder=1,
            gid="diagonal")
    bx.axhline(0, color="0.5", linewidth=0.8, linestyle="--", zorder=1)
    for side, who in (("b", b), ("a", a), ("", "")):
        group = [p for p in points if p["better"] == who]
        if not group:
            continue
        label = f"{who} better ({len(group)})" if who else f"draw ({len(group)})"
        style = {"color": _SIDE[side], "s": 26, "edgecolors": "black", "linewidths": 0.4, "zorder": 2}
        ax.scatter([p["x"] for p in group], [p["y"] for p in group], label=label,
                   gid=f"scatter-points-{side or 'draw'}", **style)
        bx.scatter([p["size"] for p in group], [p["y"] - p["x"] for p in group],
                   gid=f"difference-points-{side or 'draw'}", **style)
    for p in points:
        if p["dataset"] in d["labelled"]:
            up = p["y"] > p["x"]
            for axis, panel, xy in ((ax, "scatter", (p["x"], p["y"])),
                                    (bx, "difference", (p["size"], p["y"] - p["x"]))):
                note = axis.annotate(p["dataset"], xy, xytext=(-4, 5) if up else (4, -5), textcoords="offset points",
                                     ha="right" if up else "left", va="bottom" if up else "top", fontsize=7)
                note.set_gid(f"{panel}-label-{p['dataset']}")  # ids in an SVG are unique
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(lo - pad, hi + pad)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{a} ({metric})")
    ax.set_ylabel(f"{b} ({metric})")
    ax.set_title(f"(a) below the diagonal: {d['below']} better; above: {d['above']} better")
    bx.set_xscale("log")
    bx.set_xlabel("instances in the data set (log scale)")
    bx.set_ylabel(f"{b} − {a} ({metric})")
    bx.set_title(f"(b) {b} − {a} by data-set size: below 0, {d['below']} better; above, {d['above']} better")
    m = max(abs(p["y"] - p["x"]) for p in points) or 1.0
    bx.set_ylim(-1.25 * m, 1.25 * m)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)


def _draw_times(fig, d: dict) -> None:
    """Training and classification time side by side on one shared y scale: a box per classifier
    over the data sets and its mean (a diamond)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    labels = d["classifiers"]
    axes = fig.subplots(1, 2, sharey=True)
    for i, (ax, metric, name) in enumerate(zip(axes, ("train_time", "test_time"), ("training", "classification"))):
        values = d[f"{metric}_values"]
        colour = "tab:blue" if i == 0 else "tab:orange"
        box = ax.boxplot(values, positions=range(len(labels)), widths=0.5, whis=(0, 100), showfliers=False,
                         patch_artist=True, boxprops={"facecolor": colour, "alpha": 0.35, "edgecolor": colour},
                         medianprops={"color": colour, "linewidth": 1.5}, whiskerprops={"color": colour},
                         capprops={"color": colour})
        for j, lab in enumerate(labels):  # named, so the least, greatest and median can be read back
            box["caps"][2 * j].set_gid(f"least-{metric}-{lab}")
            box["caps"][2 * j + 1].set_gid(f"greatest-{metric}-{lab}")
            box["medians"][j].set_gid(f"median-{metric}-{lab}")
        ax.scatter(range(len(labels)), [0.0 if math.isnan(v) else v for v in d[metric]], marker="D", s=18,
                   color="black", zorder=3, label="mean over the data sets" if i == 0 else None, gid=f"mean-{metric}")
        ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
        ax.set_title(f"({'ab'[i]}) {name} time")
        ax.grid(axis="y", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
    if d["log"]:
        axes[0].set_yscale("log")
    axes[0].set_ylabel("seconds per fold" + (" (log scale)" if d["log"] else ""))
    keys = [Patch(facecolor="0.85", edgecolor="0.4", label="middle half of the data sets (line: median)"),
            Line2D([], [], color="0.4", label="whiskers: least to greatest")]
    fig.legend(handles=[*axes[0].get_legend_handles_labels()[0], *keys], loc="outside lower center", ncols=3,
               fontsize=8, frameon=False)


def _draw_wdl(fig, d: dict) -> None:
    from matplotlib.ticker import MaxNLocator

    groups = list(d["groups"])
    colours = ("tab:green", "0.6", "tab:red")
    for r, (row, by_group) in enumerate(d["bars"].items()):
        for c, group in enumerate(groups):
            ax = fig.add_subplot(len(d["bars"]), len(groups), r * len(groups) + c + 1)
            others = list(by_group[group])
            ax.set_title(f"{row} against each classifier: {len(d['groups'][group])} data sets of "
                         f"{_size_words(group)}")
            for j, (what, colour) in enumerate(zip(("wins", "draws", "losses"), colours)):
                xs = [i + (j - 1) * 0.27 for i in range(len(others))]
                counts = [by_group[group][o][j] for o in others]
                bars = ax.bar(xs, counts, width=0.27, color=colour, label=what if (r, c) == (0, 0) else None)
                ax.bar_label(bars, fontsize=6, padding=1)
            ax.set_xticks(range(len(others)), others, rotation=45, ha="right")
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_ylabel("data sets")
            ax.margins(y=0.15)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)


def _draw_gd(fig, d: dict) -> None:
    from matplotlib.ticker import MaxNLocator

    ax = fig.add_subplot()
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    names = d["datasets"]
    ts = list(range(1, len(names) + 1))
    for name, curve in d["curves"].items():
        ax.plot(ts, curve, marker="o", markersize=3, linewidth=1.2, label=name)
    ax.axhline(0, color="0.5", linewidth=0.8)
    if d["first_large"]:
        ax.axvline(d["first_large"] - 0.5, color="0.5", linewidth=0.8, linestyle="--")
        ax.annotate(f"{SPLIT} instances or more →", (d["first_large"] - 0.5, 1), xycoords=("data", "axes fraction"),
                    xytext=(3, -12), textcoords="offset points", fontsize=7, color="0.3")
    step = -(-len(names) // GD_NAMES)
    ax.set_xticks(ts[::step], names[::step], rotation=45, ha="right", rotation_mode="anchor",
                  fontsize=7 if len(names) > 20 else 8)
    ax.set_xlim(0.5, len(names) + 0.5)
    ax.set_xlabel("data set t, in table order" + (f" (every {step}th named)" if step > 1 else ""))
    ax.set_ylabel(f"GD ({d['metric']}): wins − losses")
    ax.legend(fontsize=8, frameon=False)


def _draw_biasvar(fig, d: dict) -> None:
    ax = fig.add_subplot()
    labels = d["classifiers"]
    ax.bar(range(len(labels)), d["bias"], color="tab:blue", label="bias")
    ax.bar(range(len(labels)), d["variance"], bottom=d["bias"], color="tab:orange", label="variance")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
    ax.set_ylabel("mean over data sets")
    fig.legend(loc="outside lower center", ncols=2, fontsize=8, frameon=False)


def _draw_cd(fig, d: dict) -> None:
    """Demšar's (2006) Fig. 1(a): the rank axis with rank 1 at the right, the CD above it, the
    Nemenyi cliques as thick bars under it, then the classifiers, the better half at the right."""
    ax = fig.add_subplot()
    ax.set_axis_off()
    labels, ranks, k = d["labels"], d["ranks"], len(d["labels"])
    rows, step = (k + 1) // 2, 0.22
    top = 0.5 + 0.12 * len(d["cliques"])         # y of the first label row (y grows downwards)
    ax.set_xlim(k + 0.1, 0.9)                      # rank 1 at the right
    ax.set_ylim(top + step * rows, -0.75)
    ax.plot([1, k], [0, 0], color="black", linewidth=1.0, gid="axis")
    for r in range(1, k + 1):
        ax.plot([r, r], [0, -0.1], color="black", linewidth=1.0)
        ax.text(r, -0.14, str(r), ha="center", va="bottom", fontsize=8)
    for r in range(1, k):
        ax.plot([r + 0.5, r + 0.5], [0, -0.05], color="black", linewidth=0.6)
    ax.plot([k, k - d["cd"]], [-0.55, -0.55], color="black", linewidth=1.0, gid="cd")
    for x in (k, k - d["cd"]):
        ax.plot([x, x], [-0.59, -0.51], color="black", linewidth=1.0)
    ax.text(k - d["cd"] / 2, -0.6, f"CD = {d['cd']:.2f}", ha="center", va="bottom", fontsize=8)
    for j, group in enumerate(d["cliques"]):
        first, last = ranks[labels.index(group[0])], ranks[labels.index(group[-1])]
        y = 0.12 + 0.12 * j
        ax.plot([first - 0.04, last + 0.04], [y, y], color="black", linewidth=3.0, solid_capstyle="butt",
                gid=f"clique-{j + 1}")
    for i, (label, r) in enumerate(zip(labels, ranks)):
        right = i < rows                            # the better half at the right
        y = top + step * (i if right else k - 1 - i)
        end = 0.75 if right else k + 0.25
        ax.plot([r, r, end], [0, y, y], color="0.25", linewidth=0.8)
        ax.text(end + (-0.05 if right else 0.05), y, f"{label} ({r:.2f})", ha="left" if right else "right",
                va="center", fontsize=8, gid=f"label-{i + 1}")


def simplex_xy(sample):
    """Points (θ_A, θ_rope, θ_B) of the simplex in the plane: A at (0, 0), B at (1, 0), rope at the top."""
    import numpy as np

    s = np.asarray(sample, dtype=float).reshape(-1, 3)
    return s[:, 2] + 0.5 * s[:, 1], s[:, 1] * math.sqrt(3) / 2


def _draw_bayes(fig, d: dict) -> None:
    """The triangle of (P(A better), P(rope), P(B better)) with the posterior samples as hexagons
    shaded by their count; lines from the centre to the sides' midpoints bound where each of the
    three is the largest (the region that counts a sample for it)."""
    ax = fig.add_subplot()
    ax.set_aspect("equal")
    ax.set_axis_off()
    top = math.sqrt(3) / 2
    xs, ys = simplex_xy(d["sample"])
    ax.hexbin(xs, ys, gridsize=SIMPLEX_GRID, extent=(0.0, 1.0, 0.0, top), mincnt=1, cmap="Blues", linewidths=0.0,
              gid="posterior")
    ax.plot([0, 1, 0.5, 0], [0, 0, top, 0], color="black", linewidth=1.0, gid="triangle")
    cx, cy = 0.5, top / 3
    for mx, my in ((0.5, 0.0), (0.25, top / 2), (0.75, top / 2)):
        ax.plot([cx, mx], [cy, my], color="tab:orange", linewidth=0.8)
    pa, pr, pb = d["probabilities"]
    ax.text(0, -0.04, f"{d['a']} better\nP = {pa:.3f}", ha="center", va="top", gid="p-a")
    ax.text(1, -0.04, f"{d['b']} better\nP = {pb:.3f}", ha="center", va="top", gid="p-b")
    ax.text(0.5, top + 0.03, f"rope (±{d['rope']:g}): practically equivalent\nP = {pr:.3f}", ha="center",
            va="bottom", gid="p-rope")
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.16, top + 0.14)


def render(plot: Plot, fmt: str, title: bool = True) -> bytes:
    """The figure as PNG, SVG or PDF bytes (`title`: with the plot's title drawn above it); the
    same Plot always gives the same bytes."""
    import matplotlib

    if fmt not in FORMATS:
        raise UserError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    with matplotlib.rc_context(_RC):
        fig = draw(plot, title)
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=150, metadata=_SAVE_METADATA[fmt], bbox_inches="tight")
    return buf.getvalue()


def svg_text(plot: Plot, title: bool = True) -> str:
    """`render(plot, "svg", title)` as text."""
    return render(plot, "svg", title).decode("utf-8")


@contextmanager
def _handle(results: Results | str) -> Iterator[Results]:
    """An open results handle: `results` itself, or the store at that path, opened for the block."""
    if not isinstance(results, str):
        yield results
        return
    from bncbench.results import open as open_results

    with open_results(results) as r:
        yield r


def figures_for_html(results: Results | str, skip: tuple[str, ...] = ()) -> list[tuple[Plot, str]]:
    """[(Plot, SVG text without its title), ...] of the HTML report's figures (docs/algorithms.md §6.11)."""
    with _handle(results) as r:
        try:
            src = Source(r)
        except UserError:
            return []
        out = []
        for kind in kinds(src):
            if kind == "bayes":  # the report's own section (html_report._bayes), with the tables
                continue
            try:
                made = plots(src, [kind])
            except UserError:
                continue
            out += [(p, svg_text(p, title=False)) for p in made if p.name not in skip]
        return out


def cd_svg(results: Results | str, metric: str | None = None, alpha: float | None = None,
           title: bool = True) -> str | None:
    """The critical-difference diagram of a store as SVG text, or None (docs/algorithms.md §6.11)."""
    with _handle(results) as r:
        try:
            made = plots(Source(r), ["cd"], Options(metric=[metric] if metric else None, alpha=alpha))
        except UserError:
            return None
        return svg_text(made[0], title)
