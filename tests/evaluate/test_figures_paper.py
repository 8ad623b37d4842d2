"""Figures for print (issue 39 item 5): `figures --style paper` (and `style: paper` in a config's
`figures:`) gives PDFs exactly a column wide (the MediaBox), without a title, the metric in words,
a serif font embedded as TrueType (Type 42), no raster image in a line or scatter plot; the
scatter's names never overlap each other, a point or the frame (a crowded made-up scatter: every
name's drawn box inside its axes and disjoint, or the key says which are not named); the HTML
report's simplex at most 600 px tall; refusals in one line."""

import re
import shutil
import subprocess
from typing import Any

import html5lib
import pytest

from tests.support.cli import SMALL, bnc_in, run_store
from tests.support.skips import need

PT = {"single": 237.6, "double": 504.0}  # 3.3 in and 7 in in PostScript points
PAPER = SMALL + """figures:
  style: paper
  scatter: {a: NB, b: AODE, metric: [zol]}
  times: {}
  gd: {pairs: ["AODE:NB"]}
  cd: {}
  bayes: {pairs: ["AODE:NB"], samples: 2000}
"""
KINDS = ("scatter", "times", "gd", "cd", "bayes-AODE-vs-NB")
COLUMN = {"scatter": "double", "times": "double", "gd": "double", "cd": "single", "bayes-AODE-vs-NB": "single"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Results of a small config whose figures: section asks for the paper style."""
    return run_store(tmp_path_factory, "fig-paper", PAPER)


def _media_box(pdf: bytes) -> tuple[float, float]:
    (box,) = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    return float(box[0]), float(box[1])


def _fonts(pdf: bytes) -> list[str]:
    return [m.decode() for m in re.findall(rb"/BaseFont /([A-Za-z0-9+\-]+)", pdf)]


def test_config_style_paper_gives_column_wide_pdfs_with_serif_fonts_embedded(store, tmp_path):
    r = bnc_in("figures", store, "--format", "pdf,png", "--out", tmp_path, check=True)
    assert f"wrote {2 * len(KINDS)} file(s)" in r.stderr
    for kind in KINDS:
        pdf = (tmp_path / f"{kind}.pdf").read_bytes()
        width, height = _media_box(pdf)
        assert width == PT[COLUMN[kind]] and 0 < height < 800, (kind, width, height)
        fonts = _fonts(pdf)
        assert fonts and all("Serif" in f for f in fonts), (kind, fonts)   # DejaVu Serif, matplotlib's own
        assert b"/FontFile2" in pdf and b"/CIDFontType2" in pdf            # TrueType embedded (Type 42)
        assert b"/Type3" not in pdf and b"/Subtype /Image" not in pdf       # vector: no raster, no Type 3
    with_pdfinfo = shutil.which("pdfinfo")
    if with_pdfinfo:  # poppler's reading of the same page, where it is installed
        out = subprocess.run([with_pdfinfo, tmp_path / "cd.pdf"], capture_output=True, text=True, check=True).stdout
        assert re.search(r"Page size:\s+237\.6 x", out), out


def test_width_option_and_default_style_override_the_config(store, tmp_path):
    bnc_in("figures", store, "--only", "scatter,cd", "--format", "pdf", "--width", "double", "--out", tmp_path / "d",
           check=True)
    bnc_in("figures", store, "--only", "scatter,cd", "--format", "pdf", "--width", "single", "--out", tmp_path / "s",
           check=True)
    for kind in ("scatter", "cd"):
        assert _media_box((tmp_path / "d" / f"{kind}.pdf").read_bytes())[0] == PT["double"]
        assert _media_box((tmp_path / "s" / f"{kind}.pdf").read_bytes())[0] == PT["single"]
    bnc_in("figures", store, "--only", "cd", "--format", "pdf", "--style", "default", "--out", tmp_path / "x",
           check=True)
    pdf = (tmp_path / "x" / "cd.pdf").read_bytes()
    assert _media_box(pdf)[0] > PT["double"] and not any("Serif" in f for f in _fonts(pdf))


def test_same_results_give_byte_identical_paper_files(store, tmp_path):
    for out in ("a", "b"):
        bnc_in("figures", store, "--only", "scatter,cd", "--format", "pdf,png,svg", "--out", tmp_path / out,
               check=True)
    for p in (tmp_path / "a").iterdir():
        assert p.read_bytes() == (tmp_path / "b" / p.name).read_bytes(), p.name


def _texts(fig) -> list[str]:
    from matplotlib.text import Text

    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def test_paper_figures_have_no_title_and_the_metric_in_words(store):
    from bncbench import results
    from bncbench.evaluate.figure_style import style
    from bncbench.evaluate.figures import draw
    from bncbench.reporting import figures as rf

    paper = style("paper")
    with results.open(str(store)) as r:
        made = rf.plots(rf.Source(r), ["scatter", "gd", "cd", "bayes"])
    for plot in made:
        fig = draw(plot, style=paper)
        texts = _texts(fig)
        assert fig.get_suptitle() == "" and plot.title not in texts and plot.caption not in texts, plot.kind
        assert not any("zol" in t for t in texts), (plot.kind, texts)
        assert "DejaVu Serif" in fig.findobj(lambda a: hasattr(a, "get_fontname"))[0].get_fontname()
        default = _texts(draw(plot))
        assert plot.title in default and "zol" not in plot.title    # the default style keeps a short title
    scatter = draw(made[0], style=paper)
    assert {a.get_xlabel() for a in scatter.axes} >= {"NB: zero-one loss"}
    assert "AODE − NB: zero-one loss" in {a.get_ylabel() for a in scatter.axes}


@pytest.mark.parametrize("width", ["single", "double"])
def test_paper_figures_draw_nothing_outside_the_page(store, width):
    """Every figure the small store gives, at either width: what is drawn (its tight box: every
    text, tick label, legend) lies on the page, which is exactly the column's width."""
    from bncbench import results
    from bncbench.evaluate.figure_style import WIDTHS, style
    from bncbench.evaluate.figures import draw
    from bncbench.reporting import figures as rf

    with results.open(str(store)) as r:
        made = rf.plots(rf.Source(r), ["scatter", "times", "wdl", "gd", "biasvar", "cd", "bayes", "stability"])
    assert sorted({p.kind for p in made}) == ["bayes", "biasvar", "cd", "gd", "scatter", "stability", "times", "wdl"]
    for plot in made:
        fig = draw(plot, style=style("paper", width))
        fig.draw_without_rendering()  # the layout, as saving runs it
        w, h = fig.get_size_inches()
        box = fig.get_tightbbox(fig.canvas.get_renderer())
        assert w == WIDTHS[width], plot.kind
        tol = 0.02  # inches
        assert -tol <= box.x0 and box.x1 <= w + tol and -tol <= box.y0 and box.y1 <= h + tol, (plot.kind, box, w, h)


# ------------------------------------------------------------------ the scatter's names

def _crowded(n: int, spread: float):
    """A made-up scatter of `n` data sets with long names, most of them in a small cluster."""
    from bncbench.evaluate.figures import LABELLED, Plot

    points: list[dict[str, Any]] = []
    for i in range(n):
        x = 0.10 + spread * ((i * 7) % 11) / 11 + (0.15 if i % 5 == 0 else 0.0)
        y = x + spread * (((i * 3) % 7) - 3) / 7
        points.append({"dataset": f"data-set-number-{i}", "x": x, "y": y, "size": 100 + 37 * i,
                       "better": "A" if y > x else "B" if y < x else ""})
    far = sorted(points, key=lambda p: -abs(p["y"] - p["x"]))
    return Plot("scatter", "scatter", "t", {"a": "A", "b": "B", "metric": "zol", "rule": "exact4", "below": "B",
                                            "above": "A", "points": points,
                                            "labelled": [p["dataset"] for p in far[:LABELLED]]})


def _boxes_hold(fig, plot) -> None:
    """Every name or number of both panels inside its axes, clear of every other one and of every
    point's marker; each labelled data set named or numbered in a panel, or the key says it is not;
    each number in the key; the data sets beyond the labelled ones counted in the key."""
    import math

    from matplotlib.text import Text

    from bncbench.evaluate.figures import LABELLED

    renderer = fig.canvas.get_renderer()
    points = plot.data["points"]
    (legend,) = fig.legends
    key = " ".join(legend.get_title().get_text().split())
    for axis, panel, xy in ((fig.axes[0], "scatter", [(p["x"], p["y"]) for p in points]),
                            (fig.axes[1], "difference", [(p["size"], p["y"] - p["x"]) for p in points])):
        frame = axis.get_window_extent(renderer)
        notes = [t for t in axis.texts if (t.get_gid() or "").startswith(f"{panel}-label-")]
        boxes = []
        for t in notes:
            t.update_positions(renderer)
            boxes.append(Text.get_window_extent(t, renderer))
        r = math.sqrt(26) / 2 * renderer.points_to_pixels(1.0)
        for b in boxes:
            assert frame.x0 <= b.x0 and b.x1 <= frame.x1 and frame.y0 <= b.y0 and b.y1 <= frame.y1
            for px, py in axis.transData.transform(xy):
                assert not (b.x0 < px + r and px - r < b.x1 and b.y0 < py + r and py - r < b.y1)
        for i, b in enumerate(boxes):
            for c in boxes[i + 1:]:
                assert not b.overlaps(c), (b, c)
        named = {t.get_gid()[len(panel) + 7:]: t.get_text() for t in notes}
        label = "a" if panel == "scatter" else "b"
        for n, d in enumerate(plot.data["labelled"], 1):
            if d not in named:
                assert re.search(rf"no room in \({label}\) to name [^;]*\b{d}\b", key), (d, key)
            elif named[d] != d:
                assert named[d] == str(n) and f"{n} = {d}" in key
    beyond = len(points) - LABELLED
    if beyond > 0:
        assert f"not named: the {beyond} data set(s) nearest the diagonal" in key


@pytest.mark.parametrize("width", ["single", "double"])
def test_crowded_scatter_names_overlap_nothing_in_the_paper_style(width):
    from bncbench.evaluate.figure_style import style
    from bncbench.evaluate.figures import draw

    plot = _crowded(20, 0.02)
    fig = draw(plot, style=style("paper", width))
    _boxes_hold(fig, plot)
    key = fig.legends[0].get_title().get_text()
    assert "=" in key or "no room" in key   # so crowded that some names could not stay


def test_crowded_scatter_names_overlap_nothing_in_the_default_style():
    from bncbench.evaluate.figures import draw

    for n, spread in ((7, 0.2), (30, 0.01)):
        plot = _crowded(n, spread)
        _boxes_hold(draw(plot), plot)


def test_sparse_scatter_names_every_point_without_a_key():
    from bncbench.evaluate.figure_style import style
    from bncbench.evaluate.figures import draw

    plot = _crowded(7, 0.2)
    fig = draw(plot, style=style("paper"))
    assert fig.legends[0].get_title().get_text() == ""
    for ax in fig.axes:
        assert sorted(t.get_text() for t in ax.texts) == sorted(p["dataset"] for p in plot.data["points"])


# ------------------------------------------------------------------ the HTML report's simplex

def _svg_of(block) -> tuple[float, float]:
    (svg,) = [e for e in block.iter() if isinstance(e.tag, str) and e.tag.split("}")[-1] == "svg"]
    _, _, w, h = map(float, svg.get("viewBox").split())
    return w, h


def test_html_simplex_is_at_most_600_px_tall(store, tmp_path):
    page = bnc_in("report", store, "--format", "html", check=True).stdout
    doc = html5lib.parse(page, namespaceHTMLElements=False)
    (block,) = [e for e in doc.iter("div") if e.get("id") == "bayes-1"]
    (div,) = [e for e in block.iter("div") if "simplex" in (e.get("class") or "").split()]
    w, h = _svg_of(div)
    (rem,) = re.findall(r"\.svg\.simplex svg\{max-width:([\d.]+)rem", page)
    assert float(rem) * 16 * h / w <= 600                    # the widest it is shown, 16 px a rem


@pytest.mark.browser
def test_html_simplex_as_chromium_draws_it_is_at_most_600_px_tall(store, tmp_path):
    page = bnc_in("report", store, "--format", "html", check=True).stdout
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        need("BNCBENCH_REQUIRE_BROWSER", "headless Chromium is needed (apt-get install chromium)")
    probe = ('<script>window.addEventListener("load", function () {var s = document.querySelector('
             '"#bayes-1 svg").getBoundingClientRect(); document.documentElement.setAttribute("data-simplex", '
             '[Math.round(s.width), Math.round(s.height)].join(" ")); });</script>')
    (tmp_path / "page.html").write_text(page.replace("</body>", probe + "</body>"), encoding="utf-8")
    r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1600,1000",
                        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", (tmp_path / "page.html").as_uri()],
                       capture_output=True, text=True, timeout=180, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    got = html5lib.parse(r.stdout, namespaceHTMLElements=False).get("data-simplex")
    assert got is not None
    width, height = map(int, got.split())
    assert 0 < height <= 600 and width > 300


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("args, says", [
    (["--style", "fancy"], "--style: 'fancy' is not one of default, paper"),
    (["--style", "default", "--width", "single"], "--width: only with --style paper"),
    (["--width", "triple"], "--width: 'triple' is not one of single, double"),
])
def test_refusals_are_one_line_exit_2(store, tmp_path, args, says):
    r = bnc_in("figures", store, "--out", tmp_path / "out", *args)
    assert says in r.stderr, r.stderr
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


@pytest.mark.parametrize("section, key", [
    ("figures:\n  style: fancy\n", "figures.style"),
    ("figures:\n  width: single\n", "figures.width"),
    ("figures:\n  style: paper\n  width: wide\n", "figures.width"),
])
def test_bad_style_in_the_config_is_one_line_naming_the_key(tmp_path, section, key):
    (tmp_path / "c.yaml").write_text(SMALL + section)
    r = bnc_in("run", tmp_path / "c.yaml", "--results", tmp_path / "res", "--quiet")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and key in r.stderr, r.stderr


def test_style_alone_in_the_config_draws_the_usual_figures(tmp_path):
    """A figures: section that only sets the style names no figure: the usual ones are drawn."""
    from bncbench.config import parse

    exp = parse(SMALL + "figures:\n  style: paper\n  width: single\n")
    assert exp.figures == {"style": "paper", "width": "single"}
    from bncbench.experiment import Experiment

    assert Experiment.from_json(exp.to_json()).figures == exp.figures
    from bncbench.reporting.figures import UNASKED, kinds

    class Src:
        settings = exp.figures

    assert kinds(Src()) == list(UNASKED)  # type: ignore[arg-type]


@pytest.mark.parametrize("look", [("default", None), ("paper", "single"), ("paper", "double")])
def test_cd_of_many_long_names_fits_its_page(look):
    """26 classifiers of long names (a paper's columns beside ours): the layout applies (no
    warning that it collapsed), every name lies on the paper page, and the rank numbers shown do
    not touch one another."""
    import warnings

    from bncbench.evaluate.figure_style import WIDTHS, style
    from bncbench.evaluate.figures import Plot, draw, render

    k = 26
    labels = [f"Published-classifier-number-{i}" for i in range(k)]
    ranks = [1 + 25 * i / (k - 1) for i in range(k)]
    plot = Plot("cd", "cd", "t", {"metric": "zol", "alpha": 0.05, "labels": labels, "ranks": ranks, "cd": 15.0,
                                  "n": 7, "cliques": [labels[3:20]], "friedman_p": 0.04})
    look_style = style(*look)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        render(plot, "png", style=look_style)
        fig = draw(plot, style=look_style)
        fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    (ax,) = fig.axes
    if look[0] == "paper":
        w = fig.get_figwidth()
        box = fig.get_tightbbox(renderer)
        assert w == WIDTHS[look[1]] and -0.02 <= box.x0 and box.x1 <= w + 0.02, (box, w)
    shown = [t.get_window_extent(renderer) for t in ax.texts if t.get_visible() and t.get_text().isdigit()]
    assert len(shown) >= 3
    assert not any(a.overlaps(b) for i, a in enumerate(shown) for b in shown[i + 1:])


@pytest.mark.parametrize("name", ["Friedman et al. (1997) tree-augmented naive Bayes", "y" * 120])
@pytest.mark.parametrize("look", [("default", None), ("paper", "single"), ("paper", "double")])
def test_simplex_of_a_long_name_fits_its_page(name, look):
    """A long classifier name at a corner of the simplex is wrapped: the layout applies (no
    warning that it collapsed) and, on the paper page, nothing is drawn off it."""
    import warnings

    import numpy as np

    from bncbench.evaluate.figure_style import style
    from bncbench.evaluate.figures import Plot, draw

    sample = np.random.default_rng(0).dirichlet([2, 3, 2], 500)
    plot = Plot("bayes-x", "bayes", "t", {"a": name, "b": "NB", "metric": "zol", "rope": 0.01, "n": 7,
                                          "probabilities": (0.2, 0.5, 0.3), "sample": sample})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = draw(plot, style=style(*look))
        fig.draw_without_rendering()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    if look[0] == "paper":
        assert -0.02 <= box.x0 and box.x1 <= fig.get_figwidth() + 0.02, (box, fig.get_figwidth())
    texts = {t.get_gid(): t.get_text() for t in fig.axes[0].texts}
    assert texts["p-a"].replace("\n", " ").replace(" ", "") == f"{name} better P = 0.200".replace(" ", "")
