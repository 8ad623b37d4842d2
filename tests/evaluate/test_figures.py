"""`bncbench figures` (issue 13): every figure as a valid PNG/SVG/PDF, its plotted data equal to
what `report`, `wdl` and `gd` print (computed by those commands, not by the figure code), refusals
in one line, byte-identical output, the `figures:` config section, and no matplotlib on import."""

import csv
import io
import math
import subprocess
import sys
from pathlib import Path

import pytest

from bncbench import results
from tests.support.cli import SMALL, bnc_in, run_store

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = (ROOT / "configs" / "default.yaml").read_text()
SIGNATURES = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF-"}


def _valid(path: Path, fmt: str) -> bool:
    data = path.read_bytes()
    if not data:
        return False
    return b"<svg" in data[:500] and data.rstrip().endswith(b"</svg>") if fmt == "svg" else \
        data.startswith(SIGNATURES[fmt])


@pytest.fixture(scope="module")
def default_store(tmp_path_factory):
    """Results of configs/default.yaml (its figures: section: scatter, times, wdl, gd; one run)."""
    return run_store(tmp_path_factory, "fig-default", DEFAULT)


@pytest.fixture(scope="module")
def repeated_store(tmp_path_factory):
    """Results of a config with two runs and no figures: section (bias and variance exist)."""
    return run_store(tmp_path_factory, "fig-small", SMALL)


@pytest.fixture(scope="module")
def one_run_store(tmp_path_factory):
    """One run and no figures: section: making all figures skips biasvar."""
    return run_store(tmp_path_factory, "fig-one", SMALL.replace("runs: 2", "runs: 1"))


def _csv(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def _report(store, metric: str) -> dict[tuple[str, str], float]:
    rows = _csv(bnc_in("report", store, "--metric", metric, "--format", "csv", check=True).stdout)
    return {(r["dataset"], r["classifier"]): float(r["mean"]) for r in rows}


def _plots(store, only, **options):
    from bncbench.reporting import figures as rf

    return rf.plots(rf.Source(results.open(str(store))), only, rf.Options(**options))


# ------------------------------------------------------------------ files

def test_config_figures_are_written_as_png_and_svg(default_store, tmp_path):
    r = bnc_in("figures", default_store, "--format", "png,svg", "--out", tmp_path, check=True)
    names = ("scatter", "times", "wdl", "gd")  # the figures: section of configs/default.yaml
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{n}.{f}" for n in names for f in ("png", "svg"))
    for n in names:
        for f in ("png", "svg"):
            assert _valid(tmp_path / f"{n}.{f}", f), f"{n}.{f}"
    assert f"wrote 8 file(s) to {tmp_path}" in r.stderr


def test_every_figure_in_every_format(repeated_store, tmp_path):
    names = ("scatter", "times", "wdl", "gd", "biasvar")
    bnc_in("figures", repeated_store, "--only", ",".join(names), "--format", "png,svg,pdf", "--out", tmp_path,
           check=True)
    assert len(list(tmp_path.iterdir())) == 15
    for name in names:
        for f in ("png", "svg", "pdf"):
            assert _valid(tmp_path / f"{name}.{f}", f), f"{name}.{f}"


def test_one_figure_alone(repeated_store, tmp_path):
    bnc_in("figures", repeated_store, "--only", "biasvar", "--out", tmp_path, check=True)
    assert [p.name for p in tmp_path.iterdir()] == ["biasvar.png"] and _valid(tmp_path / "biasvar.png", "png")


def test_default_folder_and_one_file_per_metric(repeated_store):
    bnc_in("figures", repeated_store, "--only", "scatter", "--metric", "zol,rmse", "--format", "svg", check=True)
    assert sorted(p.name for p in (repeated_store / "figures").iterdir()) == ["scatter-rmse.svg", "scatter-zol.svg"]


def test_same_results_give_byte_identical_files(default_store, tmp_path):
    for out in ("a", "b"):
        bnc_in("figures", default_store, "--format", "png,svg,pdf", "--out", tmp_path / out, check=True)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(files) == 12
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


# ------------------------------------------------------------------ the plotted data

def test_scatter_points_are_the_reports_numbers(default_store):
    (plot,) = _plots(default_store, ["scatter"])
    assert (plot.data["a"], plot.data["b"], plot.data["metric"]) == ("TAN", "STAN-MRMR", "zol")  # the config's
    zol = _report(default_store, "zol")
    datasets = list(dict.fromkeys(d for d, _ in zol))
    assert [p["dataset"] for p in plot.data["points"]] == datasets
    for p in plot.data["points"]:
        assert p["x"] == zol[(p["dataset"], "TAN")] and p["y"] == zol[(p["dataset"], "STAN-MRMR")]
    # sizes: the instances of the data sets (catalog counts, independent of the store)
    from bncbench.data import catalog

    assert {p["dataset"]: p["size"] for p in plot.data["points"]} == \
        {d: catalog.expected_counts(d)[1]["instances"] for d in datasets}


def test_options_override_the_config(default_store):
    (plot,) = _plots(default_store, ["scatter"], a="NB", b="KDB1", metric=["rmse"])
    rmse = _report(default_store, "rmse")
    assert [(p["x"], p["y"]) for p in plot.data["points"]] == \
        [(rmse[(d, "NB")], rmse[(d, "KDB1")]) for d in dict.fromkeys(d for d, _ in rmse)]


def test_times_and_biasvar_are_means_of_the_reports_numbers(repeated_store):
    times, biasvar = _plots(repeated_store, ["times", "biasvar"])
    labels = ["NB", "KDB1", "AODE"]
    assert times.data["classifiers"] == biasvar.data["classifiers"] == labels
    for metric, key, plot in (("train_time", "train_time", times), ("test_time", "test_time", times),
                              ("bias", "bias", biasvar), ("variance", "variance", biasvar)):
        rep = _report(repeated_store, metric)
        for lab, value in zip(labels, plot.data[key]):
            mine = [v for (d, la), v in rep.items() if la == lab]
            assert value == pytest.approx(math.fsum(mine) / len(mine), rel=1e-12), (metric, lab)


def test_wdl_bars_are_the_wdl_commands_counts_by_size(repeated_store):
    from bncbench.reporting import figures as rf

    src = rf.Source(results.open(str(repeated_store)))
    plot = rf.wdl_data(src, ["KDB1"], "zol", 200)  # iris (150) and labor (57) are small, car (1728) large
    assert plot.data["groups"] == {"< 200": ["iris", "labor-negotiations"], "≥ 200": ["car"]}
    for group, datasets in plot.data["groups"].items():
        rows = _csv(bnc_in("wdl", repeated_store, "--rows", "KDB1", "--datasets", ",".join(datasets),
                           "--format", "csv", check=True).stdout)
        assert {r["column"]: (int(r["wins"]), int(r["draws"]), int(r["losses"])) for r in rows} == \
            plot.data["bars"]["KDB1"][group]


def test_gd_curves_are_the_gd_commands(default_store):
    (plot,) = _plots(default_store, ["gd"])
    rows = _csv(bnc_in("gd", default_store, "--pairs", "STAN-MRMR:TAN,AODE:NB", "--format", "csv", check=True).stdout)
    assert plot.data["datasets"] == [r["dataset"] for r in rows]
    for name in ("GD(STAN-MRMR;TAN)", "GD(AODE;NB)"):
        assert plot.data["curves"][name] == [int(r[name]) for r in rows]


def test_figures_for_html_gives_svg_text_without_the_title(default_store):
    from bncbench.evaluate.figures import render
    from bncbench.reporting.figures import figures_for_html

    with results.open(default_store) as r:
        got = figures_for_html(r)
        again = figures_for_html(r)
    assert [p.kind for p, _ in got] == ["scatter", "times", "wdl", "gd"]
    for plot, svg in got:
        assert isinstance(svg, str) and "<svg" in svg[:500] and svg.rstrip().endswith("</svg>")
        head = plot.title.split(":")[0] + ":" if plot.kind != "times" else "Training and classification time"
        assert head not in svg and head in render(plot, "svg").decode()   # the caption, not in the image
        assert "zol" not in plot.title and "\n" not in plot.title and len(plot.title) <= 80
    assert again == got


# ------------------------------------------------------------------ what each drawing holds

def _printed(x: float) -> float:
    return float(f"{x:.4f}")


def test_scatter_drawing_names_the_better_side_and_the_farthest_data_sets(default_store):
    """Panel (a): y against x, coloured by the better one (exact4 as printed: the smaller zol);
    panel (b): y − x against the catalog's size; every data set named at its point in both panels
    (7 fit), farthest from the diagonal first (computed here from report's numbers)."""
    from bncbench.data import catalog
    from bncbench.evaluate.figures import LABELLED, draw

    (plot,) = _plots(default_store, ["scatter"])
    zol = _report(default_store, "zol")
    datasets = list(dict.fromkeys(d for d, _ in zol))
    x = {d: zol[(d, "TAN")] for d in datasets}
    y = {d: zol[(d, "STAN-MRMR")] for d in datasets}
    size = {d: catalog.expected_counts(d)[1]["instances"] for d in datasets}
    side = {d: "b" if _printed(y[d]) < _printed(x[d]) else "a" if _printed(y[d]) > _printed(x[d]) else "draw"
            for d in datasets}
    fig = draw(plot)
    ax, bx = fig.axes
    for axis, panel, point in ((ax, "scatter", lambda d: (x[d], y[d])),
                               (bx, "difference", lambda d: (size[d], y[d] - x[d]))):
        got = {c.get_gid(): sorted(map(tuple, c.get_offsets().tolist())) for c in axis.collections}
        want: dict[str, list[tuple]] = {}
        for d in datasets:
            want.setdefault(f"{panel}-points-{side[d]}", []).append(point(d))
        assert got == {k: sorted(v) for k, v in want.items()}
        names = {t.get_text(): t.xy for t in axis.texts if (t.get_gid() or "").startswith(f"{panel}-label-")}
        assert names == {d: point(d) for d in datasets}
    far = sorted(datasets, key=lambda d: -abs(y[d] - x[d]))[:LABELLED]
    assert plot.data["labelled"] == far
    assert bx.get_xscale() == "log"
    # lower zol is better: below the diagonal (y < x) STAN-MRMR is better
    assert ax.get_title() == "(a) below the diagonal: STAN-MRMR better; above: TAN better"
    assert bx.get_title().startswith("(b) STAN-MRMR − TAN by data-set size: below 0, STAN-MRMR better")
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    sides = list(side.values())
    assert legend == [f"STAN-MRMR better ({sides.count('b')})", f"draw ({sides.count('draw')})"]
    assert "draws: equal at 4 decimals" in plot.caption and "exact4" not in plot.caption
    assert ax.get_xlabel() == "TAN: zero-one loss" and ax.get_ylabel() == "STAN-MRMR: zero-one loss"
    # accuracy: higher is better, so below the diagonal the x classifier (TAN) is better
    (acc,) = _plots(default_store, ["scatter"], metric=["accuracy"])
    assert draw(acc).axes[0].get_title() == "(a) below the diagonal: TAN better; above: STAN-MRMR better"


def test_times_drawing_one_scale_with_the_spread(default_store):
    """Both panels share one y axis (log where the report's times span more than 100×); per
    classifier the box's whiskers end at the least and greatest of report's per-data-set times,
    its median line at their median, the diamond at their mean."""
    import statistics

    from bncbench.evaluate.figures import draw

    (plot,) = _plots(default_store, ["times"])
    fig = draw(plot)
    a0, a1 = fig.axes
    assert a0.get_shared_y_axes().joined(a0, a1)
    every = []
    for ax, metric in ((a0, "train_time"), (a1, "test_time")):
        rep = _report(default_store, metric)
        lines = {ln.get_gid(): ln for ln in ax.get_lines() if ln.get_gid()}
        (means,) = [c for c in ax.collections if c.get_gid() == f"mean-{metric}"]
        for i, lab in enumerate(plot.data["classifiers"]):
            v = [value for (d, la), value in rep.items() if la == lab]
            every += v
            assert set(lines[f"least-{metric}-{lab}"].get_ydata()) == {min(v)}
            assert set(lines[f"greatest-{metric}-{lab}"].get_ydata()) == {max(v)}
            assert list(lines[f"median-{metric}-{lab}"].get_ydata()) == pytest.approx([statistics.median(v)] * 2,
                                                                                       rel=1e-12)
            assert tuple(means.get_offsets()[i]) == (i, pytest.approx(math.fsum(v) / len(v), rel=1e-12))
    # log exactly when the measured times span more than 100× (they are real timings: whether they
    # do depends on the machine and the code's speed, so the test follows the data)
    log = min(every) > 0 and max(every) > 100 * min(every)
    assert a0.get_yscale() == a1.get_yscale() == ("log" if log else "linear") and plot.data["log"] is log
    assert ("(log scale)" in a0.get_ylabel()) is log


def test_wdl_drawing_has_no_empty_panel_and_says_the_draw_rule_in_words(default_store):
    from bncbench.evaluate.figures import draw

    (plot,) = _plots(default_store, ["wdl"])
    assert list(plot.data["groups"]) == ["< 2000"] and len(plot.data["groups"]["< 2000"]) == 7  # all < 2000
    assert any("no panel of data sets with 2000 instances or more" in n for n in plot.notes)
    (ax,) = draw(plot).axes
    assert ax.get_title() == "STAN-MRMR against each classifier: 7 data sets of fewer than 2000 instances"
    assert "draws: equal at 4 decimals" in plot.caption and "exact4" not in plot.caption
    heights = sorted(round(p.get_height()) for p in ax.patches)
    want = sorted(x for wdl in plot.data["bars"]["STAN-MRMR"]["< 2000"].values() for x in wdl)
    assert heights == want


def test_draw_rules_in_words():
    from bncbench.evaluate.stats import draw_words

    assert draw_words("exact4") == "equal at 4 decimals"
    assert draw_words("relative:0.05") == "at most 5 % apart"
    assert draw_words("relative:0") == "equal"


def test_gd_axis_names_the_data_sets(default_store):
    from bncbench.evaluate.figures import draw

    (plot,) = _plots(default_store, ["gd"])
    rows = _csv(bnc_in("gd", default_store, "--pairs", "STAN-MRMR:TAN,AODE:NB", "--format", "csv", check=True).stdout)
    (ax,) = draw(plot).axes
    assert [t.get_text() for t in ax.get_xticklabels()] == [r["dataset"] for r in rows]
    assert list(ax.get_xticks()) == list(range(1, len(rows) + 1))
    assert "draws: equal at 4 decimals" in plot.caption and ax.get_ylabel() == "GD: wins − losses\n(zero-one loss)"


# ------------------------------------------------------------------ refusals

@pytest.mark.parametrize("args, says", [
    (["--metric", "bias"], "needs repeated runs"),                               # one-run results
    (["--only", "scatter", "--a", "NB", "--b", "TAN", "--metric", "selected"], "no selected value"),
    (["--only", "biasvar"], "repeated runs"),
    (["--only", "scater"], "did you mean 'scatter'"),
    (["--a", "TANN"], "--a: no classifier 'TANN'"),
    (["--metric", "zoll"], "--metric: unknown metric 'zoll'"),
    (["--format", "jpg"], "--format: 'jpg'"),
    (["--only", "gd", "--pairs", "NB"], "--pairs:"),
])
def test_refusals_are_one_line_exit_2(default_store, tmp_path, args, says):
    r = bnc_in("figures", default_store, "--out", tmp_path / "out", *args)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], r.stderr
    assert not (tmp_path / "out").exists()


def test_all_figures_skip_biasvar_of_one_run_with_a_note(one_run_store, tmp_path):
    r = bnc_in("figures", one_run_store, "--format", "svg", "--out", tmp_path, check=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cd.svg", "gd.svg", "scatter.svg", "times.svg", "wdl.svg"]
    assert "skipped biasvar:" in r.stderr


def test_incomplete_store_draws_what_is_finished_with_warnings(repeated_store, tmp_path):
    import shutil
    import sqlite3

    res = tmp_path / "res"
    shutil.copytree(repeated_store, res, ignore=shutil.ignore_patterns("figures"))
    with sqlite3.connect(res / "results.sqlite") as c:
        c.execute("DELETE FROM tasks WHERE dataset = 'car' AND label = 'AODE' AND run = 1 AND fold = 0")
    r = bnc_in("figures", res, "--format", "svg", "--out", tmp_path / "out", check=True)
    assert "warning: incomplete: 53 of 54 tasks finished" in r.stderr
    assert "wdl: left out 1 incomplete data set(s): car" in r.stderr
    assert len(list((tmp_path / "out").iterdir())) == 6
    wdl, biasvar = _plots(res, ["wdl", "biasvar"])  # in FIGURES order
    assert biasvar.data["datasets"] == ["iris", "labor-negotiations"]
    assert "car" not in [d for group in wdl.data["groups"].values() for d in group]


# ------------------------------------------------------------------ the figures: section

@pytest.mark.parametrize("section, key", [
    ("  scater: {}", "figures.scater"),
    ("  scatter: {a: TANN}", "figures.scatter.a"),
    ("  scatter: {metric: zoll}", "figures.scatter.metric"),
    ("  wdl: {rows: [NB], colour: red}", "figures.wdl.colour"),
    ("  wdl: {metric: [zol, x]}", "figures.wdl.metric.1"),
    ("  wdl: {split: 0}", "figures.wdl.split"),
    ("  gd: {pairs: [NB]}", "figures.gd.pairs.0"),
    ("  gd: {pairs: ['NB:XX']}", "figures.gd.pairs.0"),
    ("  times: 3", "figures.times"),
])
def test_bad_figures_section_is_one_line_naming_the_key(tmp_path, section, key):
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: bad\ndatasets: [zoo]\nclassifiers: [NB, TAN]\nfigures:\n{section}\n")
    r = bnc_in("run", path, "--results", tmp_path / "res")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and f"bad.yaml:5: {key}:" in lines[0], r.stderr
    assert not (tmp_path / "res").exists()


def test_figures_section_changes_no_task_and_is_stored(default_store):
    from bncbench import config
    from bncbench.engine import runner, units
    from bncbench.reporting.figures import Source

    without = DEFAULT[:DEFAULT.index("figures:")]
    a, b = config.parse(DEFAULT, "default.yaml"), config.parse(without, "default.yaml")
    assert a.figures and not b.figures
    assert a.digest() == b.digest() and runner.protocol_digest(a) == runner.protocol_digest(b)
    spec = a.datasets[0]
    ds = units.load_dataset(spec)
    for ca, cb in zip(a.classifiers, b.classifiers):
        assert runner.task_key(ds, spec, a, 0, 3, ca) == runner.task_key(ds, spec, b, 0, 3, cb)
    assert Source(results.open(str(default_store))).settings == a.figures  # read back from the stored sections


def test_stored_sections_read_back_as_the_config_parsed_them(tmp_path):
    """The JSON sections `bncbench run` stores give back the parsed Experiment (figures' pairs as
    tuples, a user file's reading options, the wdl settings); no class is imported to read them
    (`cls` None), and a built-in's `estimator_class` is still the class the config named."""
    import json

    from bncbench import config
    from bncbench.experiment import Experiment

    (tmp_path / "own.csv").write_text("a,b,c\n1,x,p\n2,y,q\n")
    text = DEFAULT + "wdl: {metric: rmse, draws: ignore}\ndescription: a test\n"
    text = text.replace("datasets: [", "datasets: [{name: own, path: own.csv, missing_values: ['?'], drop: [b]}, ")
    exp = config.parse(text, str(tmp_path / "c.yaml"))
    back = Experiment.from_json(json.loads(json.dumps(exp.to_json())), exp.source)
    assert back == exp and back.figures["gd"]["pairs"] == exp.figures["gd"]["pairs"]
    assert isinstance(back.figures["gd"]["pairs"][0], tuple)
    assert back.wdl.metric == "rmse" and back.wdl.draws == "ignore"
    assert all(c.cls is None for c in back.classifiers) and all(c.cls is not None for c in exp.classifiers)
    assert [c.estimator_class for c in back.classifiers] == [c.cls for c in exp.classifiers]
    assert back.datasets[0].read.drop == ("b",) and back.description == "a test"


def test_importing_bncbench_does_not_import_matplotlib():
    code = "import bncbench, bncbench.cli, bncbench.config, bncbench.results, sys; " \
           "assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
