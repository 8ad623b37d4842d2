"""The papers' figures drawn with matplotlib from their data (`Plot`; docs/algorithms.md §6.11); the
report layer (reporting/figures.py) gathers that data from a results store."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bncbench.errors import UserError
from bncbench.evaluate.figure_style import Style
from bncbench.evaluate.label_placement import Placed, place
from bncbench.evaluate.metrics import in_words

if TYPE_CHECKING:
    from bncbench.evaluate.bayes import BayesComparison

FORMATS = ("png", "svg", "pdf")
SPLIT = 2000       # paper 004: small data sets have fewer than 2000 instances
LOG_RANGE = 100.0  # a time axis is logarithmic when its largest value exceeds 100 × its smallest
LABELLED = 12      # the scatter names at most this many data sets, those farthest from the diagonal
WIDTH = 11.0       # inches: every figure is drawn this wide (the HTML report shows it at the page's width)
SIMPLEX_WIDTH = 6.0  # inches: the Bayesian simplex is a triangle, drawn narrower than WIDTH
SIMPLEX_GRID = 40    # hexagons across the simplex's base
CD_NAMES_SHARE = 2 / 3  # the CD diagram's names (both sides) take at most this share of its width
CD_MIN_FONT = 4.0      # points: the smallest the CD diagram's names are drawn to fit
GD_NAMES = 40      # the goal-difference axis names every data set up to this many, else every k-th
_SAVE_METADATA = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}


@dataclass
class Plot:
    """One figure: `name` (file stem: the kind, with `-metric` when the kind has several),
    `kind` (one of FIGURES), `title` (one short line, the metric in words), `data` (exactly what
    is drawn), `notes` (warnings), `caption` (what the figure shows, in full: the HTML report's)."""

    name: str
    kind: str
    title: str
    data: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    caption: str = ""


def size_words(group: str) -> str:
    """'< 2000' → 'fewer than 2000 instances', '≥ 2000' → '2000 instances or more'."""
    op, n = group.split(" ")
    return f"fewer than {n} instances" if op == "<" else f"{n} instances or more"


def cd_plot(t, metric: str) -> Plot:
    """The CD diagram of an `evaluate.ranks.RankTest` `t` of `metric`: its labels by average rank,
    the Nemenyi CD at its α and the cliques."""
    order = sorted(range(len(t.labels)), key=lambda i: (t.ranks[i], i))
    a = format(t.alpha, "g")
    words = in_words(metric, heading=True)
    return Plot("cd", "cd", f"{words}: average ranks over {t.n} data sets (Nemenyi test, α = {a}; Friedman p = "
                            f"{t.chi2_p:.2g})",
                {"metric": metric, "alpha": t.alpha, "labels": [t.labels[i] for i in order],
                 "ranks": [t.ranks[i] for i in order], "cd": t.cd_nemenyi, "n": t.n, "cliques": t.cliques,
                 "friedman_p": t.chi2_p},
                caption=f"{words}: average rank over {t.n} data sets (1 = best, at the right); classifiers joined "
                        f"by a bar do not differ (Nemenyi test, α = {a}: ranks differ by less than CD = "
                        f"{t.cd_nemenyi:.2f}; Friedman p = {t.chi2_p:.2g})")


def bayes_plot(c: BayesComparison) -> Plot:
    """The posterior sample of a Bayesian signed-rank test (`evaluate.bayes.BayesComparison`) on the
    probability simplex, with its three probabilities (as Benavoli et al. 2017 draw it)."""
    p = c.signed_rank.probabilities
    words = in_words(c.metric, heading=True)
    return Plot(f"bayes-{c.a}-vs-{c.b}", "bayes", f"{words}: {c.a} against {c.b}, Bayesian signed-rank test",
                {"a": c.a, "b": c.b, "metric": c.metric, "rope": c.rope, "n": len(c.signed_rank.datasets),
                 "probabilities": (p.a, p.rope, p.b), "sample": c.signed_rank.sample},
                caption=f"{words}: Bayesian signed-rank test of {c.a} against {c.b} over "
                        f"{len(c.signed_rank.datasets)} data sets, rope ±{c.rope:g}: {c.samples} posterior samples "
                        f"(seed {c.seed}) of (P({c.a} better), P(rope), P({c.b} better))")


def stability_plot(datasets: list[str], labels: list[str], values: dict[tuple[str, str], float]) -> Plot:
    """The stability heat map's data (docs/statistics.md: Structure stability): the mean pairwise
    Jaccard similarity per data set (row) and classifier (column), NaN where there is none."""
    return Plot("stability", "stability", "Structure stability: mean pairwise Jaccard similarity of the arc sets",
                {"datasets": datasets, "classifiers": labels,
                 "values": [[values[(d, lab)] for lab in labels] for d in datasets]},
                caption=f"Structure stability: mean pairwise Jaccard similarity of the arc sets learned on the "
                        f"folds × runs (1 = the same arcs in every fold) of {len(labels)} classifier(s) on "
                        f"{len(datasets)} data set(s)")


# -- drawing ------------------------------------------------------------------------------------
def draw(plot: Plot, title: bool = True, style: Style | None = None):
    """The matplotlib Figure of a Plot (no pyplot, no display) in `style` (default: the default
    style, `WIDTH` inches wide, wider when its bars need it); `title`: the plot's title above it
    (the HTML report prints it instead; never in the paper style)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    style = style or Style()
    kind = KIND[plot.kind]
    with matplotlib.rc_context(style.rc):
        fig = Figure(figsize=style.size(plot.kind, plot.data, kind.size), layout="constrained")
        FigureCanvasAgg(fig)  # a renderer to measure text with (the scatter's names)
        if title and style.titled:  # before the drawing: the scatter fixes the layout when it names its points
            fig.suptitle(plot.title, fontsize=9)
        kind.draw(fig, plot.data, style)
    return fig


_SIDE = {"b": "tab:blue", "a": "tab:orange", "": "0.6"}  # scatter colours: B better, A better, a draw
_MARKER = 26  # the scatter's marker area (points²)


def _draw_scatter(fig, d: dict, style: Style) -> None:
    """(a) y against x with the diagonal; (b) y − x against the data set's size (log scale). In
    both the points are coloured by the better classifier and named (`_name_points`); a
    single-column paper figure stacks the panels."""
    a, b, metric, points = d["a"], d["b"], d["metric"], d["points"]
    words = in_words(metric)
    if style.paper and fig.get_figwidth() < 5:
        ax, bx = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1.25, 1]})
    else:
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
        marks = {"color": _SIDE[side], "s": _MARKER, "edgecolors": "black", "linewidths": 0.4, "zorder": 2}
        ax.scatter([p["x"] for p in group], [p["y"] for p in group], label=label,
                   gid=f"scatter-points-{side or 'draw'}", **marks)
        bx.scatter([p["size"] for p in group], [p["y"] - p["x"] for p in group],
                   gid=f"difference-points-{side or 'draw'}", **marks)
    ax.set_xlim(lo - pad, hi + pad)
    ax.set_ylim(lo - pad, hi + pad)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{a}: {words}")
    ax.set_ylabel(f"{b}: {words}")
    bx.set_xscale("log")
    bx.set_xlabel("instances in the data set (log scale)")
    bx.set_ylabel(f"{b} − {a}: {words}")
    if style.paper:  # the caption says what the panels show
        ax.set_title("(a)")
        bx.set_title("(b)")
    else:
        ax.set_title(f"(a) below the diagonal: {d['below']} better; above: {d['above']} better")
        bx.set_title(f"(b) {b} − {a} by data-set size: below 0, {d['below']} better; above, {d['above']} better")
    m = max(abs(p["y"] - p["x"]) for p in points) or 1.0
    bx.set_ylim(-1.25 * m, 1.25 * m)
    fig.legend(loc="outside lower center", ncols=_columns(fig, 3), fontsize=8, frameon=False)
    _name_points(fig, ax, bx, d)


def _name_points(fig, ax, bx, d: dict) -> None:
    """Name the `labelled` data sets (farthest from the diagonal first) at their points in both
    panels, where a name overlaps no other, no point and no frame (`label_placement.place`); a
    name with no room is a number, and the key (the legend's title) says which data set each number
    is, which have no room even for a number and which are not named at all. Placing needs the
    final layout: it is computed, the names placed, the key written, and again while the key
    moves the panels (at most 3 times); then the layout is fixed."""
    points = d["points"]
    index = {p["dataset"]: i for i, p in enumerate(points)}
    order = [index[name] for name in d["labelled"]]
    names = [p["dataset"] for p in points]
    first = [(-1, 1) if p["y"] > p["x"] else (1, -1) for p in points]
    panels = ((ax, "scatter-label", [(p["x"], p["y"]) for p in points]),
              (bx, "difference-label", [(p["size"], p["y"] - p["x"]) for p in points]))
    key = ""
    for axis, _, _ in panels:  # the limits of the drawing, not those the names would give
        axis.set_xlim(axis.get_xlim())
        axis.set_ylim(axis.get_ylim())
    for attempt in range(3):
        _key_line(fig, key)
        fig.draw_without_rendering()
        if attempt == 2:  # the last: the key no longer moves the panels
            fig.set_layout_engine("none")
        renderer = fig.canvas.get_renderer()
        placed = [place(axis, renderer, xy, names, order, first, _MARKER, 7, gid) for axis, gid, xy in panels]
        new = scatter_key(names, order, placed, len(points))
        if new == key or attempt == 2:
            _key_line(fig, new)
            break
        key = new
        for p in placed:
            for note in (*p.names.values(), *p.numbers.values()):
                note.remove()
    fig.set_layout_engine("none")


def scatter_key(names: list[str], order: list[int], placed: list[Placed], n: int) -> str:
    """The scatter's key: each number that stands for a name, the data sets a panel ((a), (b))
    has no room to name, and how many are not named at all (beyond the `labelled` ones)."""
    numbered = [i for i in order if any(i in p.numbers for p in placed)]
    out = [f"{order.index(i) + 1} = {names[i]}" for i in numbered]
    for panel, p in zip("ab", placed):
        if p.left_out:
            out.append(f"no room in ({panel}) to name {', '.join(names[i] for i in p.left_out)}")
    if len(order) < n:
        out.append(f"not named: the {n - len(order)} data set(s) nearest the diagonal")
    return "; ".join(out)


def _key_line(fig, key: str) -> None:
    """The key as the title of the figure's legend, wrapped to the figure's width."""
    import textwrap

    chars = max(20, int(fig.get_figwidth() * 72 / (0.5 * 7)) - 8)  # about this many characters of 7 pt a line
    (legend,) = fig.legends
    lines = textwrap.wrap(key, chars, break_on_hyphens=False, break_long_words=False)  # names stay whole
    legend.set_title("\n".join(lines) or None, prop={"size": 7})
    legend.get_title().set_gid("scatter-key")


def _columns(fig, n: int) -> int:
    """A legend's columns: `n` side by side, one under the other on a figure a column wide."""
    return n if fig.get_figwidth() >= 5 else 1


def _draw_times(fig, d: dict, style: Style) -> None:
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
    fig.legend(handles=[*axes[0].get_legend_handles_labels()[0], *keys], loc="outside lower center",
               ncols=_columns(fig, 3), fontsize=8, frameon=False)


def _draw_wdl(fig, d: dict, style: Style) -> None:
    from matplotlib.ticker import MaxNLocator

    groups = list(d["groups"])
    colours = ("tab:green", "0.6", "tab:red")
    for r, (row, by_group) in enumerate(d["bars"].items()):
        for c, group in enumerate(groups):
            ax = fig.add_subplot(len(d["bars"]), len(groups), r * len(groups) + c + 1)
            others = list(by_group[group])
            n = len(d["groups"][group])
            ax.set_title(f"{row}: {group} instances ({n} data sets)" if style.paper else
                         f"{row} against each classifier: {n} data sets of {size_words(group)}")
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


def _draw_gd(fig, d: dict, style: Style) -> None:
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
    ax.set_ylabel(f"GD: wins − losses\n({in_words(d['metric'])})")
    ax.legend(fontsize=8, frameon=False)


def _draw_biasvar(fig, d: dict, style: Style) -> None:
    ax = fig.add_subplot()
    labels = d["classifiers"]
    ax.bar(range(len(labels)), d["bias"], color="tab:blue", label="bias")
    ax.bar(range(len(labels)), d["variance"], bottom=d["bias"], color="tab:orange", label="variance")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
    ax.set_ylabel("mean over data sets")
    fig.legend(loc="outside lower center", ncols=_columns(fig, 2), fontsize=8, frameon=False)


def _draw_cd(fig, d: dict, style: Style) -> None:
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
    numbers = []
    for r in range(1, k + 1):
        ax.plot([r, r], [0, -0.1], color="black", linewidth=1.0)
        numbers.append(ax.text(r, -0.14, str(r), ha="center", va="bottom", fontsize=8))
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
    names = []
    for i, (label, r) in enumerate(zip(labels, ranks)):
        right = i < rows                            # the better half at the right
        y = top + step * (i if right else k - 1 - i)
        end = 0.75 if right else k + 0.25
        ax.plot([r, r, end], [0, y, y], color="0.25", linewidth=0.8)
        names.append(ax.text(end + (-0.05 if right else 0.05), y, f"{label} ({r:.2f})",
                             ha="left" if right else "right", va="center", fontsize=8, gid=f"label-{i + 1}"))
    _fit_cd(fig, ax, names, numbers)


def _fit_cd(fig, ax, names: list, numbers: list) -> None:
    """The CD diagram's names smaller until the widest of each side take at most two thirds of the
    figure's width together (else the layout finds no room for the axis and names fall off the
    page), then the rank numbers every 2nd, 5th, 10th, ... where all of them would touch."""
    renderer = fig.canvas.get_renderer()
    width = fig.get_figwidth() * fig.dpi
    sides = sum(max((t.get_window_extent(renderer).width for t in names if t.get_ha() == ha), default=0.0)
                for ha in ("left", "right"))
    if sides > CD_NAMES_SHARE * width:
        size = max(CD_MIN_FONT, names[0].get_fontsize() * CD_NAMES_SHARE * width / sides)
        for t in names:
            t.set_fontsize(size)
    fig.get_layout_engine().execute(fig)
    room = ax.get_window_extent(renderer).width / len(numbers)  # pixels per rank on the axis
    widest = max(t.get_window_extent(renderer).width for t in numbers)
    every = next(n for n in (1, 2, 5, 10, 20, 50, 100, 200, 500, len(numbers)) if n * room >= 1.3 * widest)
    for r, t in enumerate(numbers, 1):
        t.set_visible(r == 1 or r % every == 0)


def _wrap_wide(fig, texts: list, share: float) -> None:
    """Each text whose first line is wider than `share` of the figure's width, that line wrapped
    onto lines of as many characters as fit (a long classifier name: else it runs off the page)."""
    import textwrap

    renderer = fig.canvas.get_renderer()
    room = share * fig.get_figwidth() * fig.dpi
    for t in texts:
        first, *rest = t.get_text().split("\n")
        wide = t.get_window_extent(renderer).width
        if wide > room:
            t.set_text("\n".join([*textwrap.wrap(first, max(8, int(len(first) * room / wide))), *rest]))


def simplex_xy(sample):
    """Points (θ_A, θ_rope, θ_B) of the simplex in the plane: A at (0, 0), B at (1, 0), rope at the top."""
    import numpy as np

    s = np.asarray(sample, dtype=float).reshape(-1, 3)
    return s[:, 2] + 0.5 * s[:, 1], s[:, 1] * math.sqrt(3) / 2


def _draw_bayes(fig, d: dict, style: Style) -> None:
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
    corners = [ax.text(0, -0.04, f"{d['a']} better\nP = {pa:.3f}", ha="center", va="top", gid="p-a"),
               ax.text(1, -0.04, f"{d['b']} better\nP = {pb:.3f}", ha="center", va="top", gid="p-b")]
    _wrap_wide(fig, corners, 0.45)
    ax.text(0.5, top + 0.03, f"rope (±{d['rope']:g}): practically equivalent\nP = {pr:.3f}", ha="center",
            va="bottom", gid="p-rope")
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.16, top + 0.14)


def _draw_stability(fig, d: dict, style: Style) -> None:
    """Data sets × classifiers shaded from 0 (white) to 1 (dark), each cell's value written in it,
    n/a cells hatched."""
    import numpy as np

    ax = fig.add_subplot()
    values = np.array(d["values"], dtype=float).reshape(len(d["datasets"]), len(d["classifiers"]))
    image = ax.imshow(np.ma.masked_invalid(values), cmap="Blues", vmin=0.0, vmax=1.0, aspect="auto",
                      interpolation="nearest")
    for (i, j), v in np.ndenumerate(values):
        if math.isnan(v):
            ax.add_patch(_hatched(j, i))
        ax.text(j, i, "n/a" if math.isnan(v) else f"{v:.2f}", ha="center", va="center", fontsize=7,
                color="white" if v > 0.6 else "black", gid=f"cell-{i}-{j}")
    ax.set_xticks(range(len(d["classifiers"])), d["classifiers"], rotation=45, ha="right")
    ax.set_yticks(range(len(d["datasets"])), d["datasets"])
    fig.colorbar(image, ax=ax, label="mean pairwise Jaccard", shrink=0.9)


def _hatched(x: float, y: float):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch="//", edgecolor="0.75", linewidth=0)


def _wdl_size(d: dict) -> tuple[float, float]:
    bars = len(d["groups"]) * max(len(others) for by_group in d["bars"].values() for others in by_group.values())
    return max(WIDTH, 0.9 * bars + 2), 2.4 * len(d.get("bars", ())) + 0.6


@dataclass(frozen=True)
class Kind:
    """A kind of figure: its name, the keys of its entry in a config's `figures:` section, how it
    is drawn from its data and at which size (inches, from its data), and whether `bncbench
    figures` makes it when neither --only nor the config names figures."""

    name: str
    keys: frozenset[str]
    draw: Callable[[Any, dict, Style], None]
    size: Callable[[dict], tuple[float, float]]
    unasked: bool = True


#: the figures of `bncbench figures`, in the order it makes them
KINDS = (
    Kind("scatter", frozenset({"a", "b", "metric"}), _draw_scatter, lambda d: (WIDTH, 3.5)),
    Kind("times", frozenset({"classifiers"}), _draw_times,
         lambda d: (max(WIDTH, 0.9 * len(d["classifiers"]) + 2), 3.0)),
    Kind("wdl", frozenset({"rows", "metric", "split"}), _draw_wdl, _wdl_size),
    Kind("gd", frozenset({"pairs", "metric"}), _draw_gd, lambda d: (WIDTH, 3.1)),
    Kind("biasvar", frozenset({"classifiers"}), _draw_biasvar,
         lambda d: (max(WIDTH, 0.8 * len(d["classifiers"]) + 1.5), 3.2)),
    Kind("cd", frozenset({"classifiers", "metric", "alpha", "with"}), _draw_cd,
         lambda d: (WIDTH, 1.0 + 0.22 * ((len(d["labels"]) + 1) // 2) + 0.12 * len(d["cliques"]))),
    # bayes compares a pair one names: made only when asked for
    Kind("bayes", frozenset({"pairs", "metric", "rope", "samples", "seed"}), _draw_bayes,
         lambda d: (SIMPLEX_WIDTH, 0.8 * SIMPLEX_WIDTH), unasked=False),
    # reads every cell's learned structures: made only when asked for (the HTML report has its section)
    Kind("stability", frozenset({"classifiers"}), _draw_stability,
         lambda d: (max(WIDTH, 0.8 * len(d["classifiers"]) + 3), 1.2 + 0.3 * len(d["datasets"])), unasked=False),
)
KIND = {k.name: k for k in KINDS}
FIGURES = tuple(KIND)
UNASKED = tuple(k.name for k in KINDS if k.unasked)


def render(plot: Plot, fmt: str, title: bool = True, style: Style | None = None) -> bytes:
    """The figure as PNG, SVG or PDF bytes in `style` (`title`: with the plot's title drawn above
    it, in the default style); the same Plot always gives the same bytes."""
    import matplotlib

    if fmt not in FORMATS:
        raise UserError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    style = style or Style()
    with matplotlib.rc_context(style.rc):
        fig = draw(plot, title, style)
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=style.dpi, metadata=_SAVE_METADATA[fmt],
                    bbox_inches="tight" if style.tight else None)
    return buf.getvalue()


def svg_text(plot: Plot, title: bool = True) -> str:
    """`render(plot, "svg", title)` as text."""
    return render(plot, "svg", title).decode("utf-8")
