"""The critical-difference diagram (`bncbench figures --only cd`, issue 22): its data are the
numbers `bncbench ranks` prints, the drawing holds them (read back from the matplotlib figure),
files and inline SVG are byte-identical on a second run, and every paper config's `figures:`
section asks for it."""

import csv
import io
import re
from pathlib import Path

import pytest

from bncbench import results
from tests.support.cli import bnc_in

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = (ROOT / "configs" / "default.yaml").read_text()
CD_SECTION = "figures:\n  cd: {metric: rmse, alpha: 0.1, classifiers: [NB, TAN, STAN-MRMR, KDB1, AODE]}\n"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Results of configs/default.yaml (7 data sets, 6 classifiers) with a figures: section that
    asks for the CD diagram of RMSE at α = 0.10 for five of the classifiers."""
    d = tmp_path_factory.mktemp("cd")
    (d / "config.yaml").write_text(DEFAULT[:DEFAULT.index("figures:")] + CD_SECTION)
    bnc_in("run", d / "config.yaml", "--results", d / "res", "--quiet", check=True)
    return d / "res"


def _plot(store, **options):
    from bncbench.reporting import figures as rf

    (plot,) = rf.plots(rf.Source(results.open(str(store))), ["cd"], rf.Options(**options))
    return plot


def _ranks_command(store, *args) -> tuple[dict[str, float], float]:
    """({label: average rank}, CD) as `bncbench ranks` prints them (csv, and the line on stderr)."""
    r = bnc_in("ranks", store, "--format", "csv", *args, check=True)
    rank = {}
    for row in csv.DictReader(io.StringIO(r.stdout)):
        rank[row["a"]], rank[row["b"]] = float(row["rank_a"]), float(row["rank_b"])
    (cd,) = re.findall(r"^Nemenyi: q = [0-9.]+, CD = q·√\(k\(k\+1\)/\(6N\)\) = ([0-9.]+):", r.stderr, re.MULTILINE)
    return rank, float(cd)


def _plain_cliques(ranks: dict[str, float], cd: float) -> list[list[str]]:
    """Maximal runs of classifiers, in rank order, whose ranks differ by less than cd (brute force)."""
    order = sorted(ranks, key=lambda lab: ranks[lab])
    spans = [(s, e) for s in range(len(order)) for e in range(s + 1, len(order))
             if ranks[order[e]] - ranks[order[s]] < cd]
    keep = [(s, e) for s, e in spans if not any(a <= s and e <= b and (a, b) != (s, e) for a, b in spans)]
    return [order[s:e + 1] for s, e in sorted(keep)]


def test_cd_data_are_the_ranks_commands_numbers(store):
    plot = _plot(store)
    d = plot.data
    assert (d["metric"], d["alpha"]) == ("rmse", 0.1)                    # the config's figures: section
    rank, cd = _ranks_command(store, "--metric", "rmse", "--alpha", "0.1",
                              "--classifiers", "NB,TAN,STAN-MRMR,KDB1,AODE")
    assert dict(zip(d["labels"], d["ranks"])) == rank and d["ranks"] == sorted(d["ranks"])
    assert round(d["cd"], 3) == cd and d["n"] == 7
    assert d["cliques"] == _plain_cliques(rank, d["cd"])
    other = _plot(store, metric=["zol"], alpha=0.05)                   # options override the section
    rank, cd = _ranks_command(store, "--classifiers", "NB,TAN,STAN-MRMR,KDB1,AODE")
    assert dict(zip(other.data["labels"], other.data["ranks"])) == rank and round(other.data["cd"], 3) == cd


def test_the_drawing_holds_the_ranks_cliques_and_cd(store):
    from bncbench.evaluate.figures import draw

    plot = _plot(store)
    d = plot.data
    fig = draw(plot)
    (ax,) = fig.axes
    assert ax.xaxis_inverted()                                          # rank 1 at the right
    lines = {ln.get_gid(): ln for ln in ax.get_lines() if ln.get_gid()}
    xs = lines["axis"].get_xdata()
    assert (min(xs), max(xs)) == (1, len(d["labels"]))
    cd = lines["cd"].get_xdata()
    assert abs(cd[0] - cd[1]) == pytest.approx(d["cd"], abs=1e-12)
    texts = {t.get_gid(): t for t in ax.texts if t.get_gid()}
    for i, (label, r) in enumerate(zip(d["labels"], d["ranks"]), 1):
        t = texts[f"label-{i}"]
        assert t.get_text() == f"{label} ({r:.2f})"
        # the label's leader line starts at its rank on the axis
        assert any(list(ln.get_xdata())[:2] == [r, r] and ln.get_ydata()[0] == 0 for ln in ax.get_lines())
        assert (t.get_position()[0] < 1) == (i <= (len(d["labels"]) + 1) // 2)  # the better half at the right
    for j, group in enumerate(d["cliques"], 1):
        x0, x1 = sorted(lines[f"clique-{j}"].get_xdata())
        rs = [d["ranks"][d["labels"].index(lab)] for lab in group]
        assert x0 == pytest.approx(min(rs) - 0.04) and x1 == pytest.approx(max(rs) + 0.04)
        inside = [lab for lab, r in zip(d["labels"], d["ranks"]) if x0 < r < x1]
        assert inside == group
    assert f"CD = {d['cd']:.2f}" in [t.get_text() for t in ax.texts]
    assert "Nemenyi test, α = 0.1" in fig.get_suptitle()


def test_cd_files_are_byte_identical_and_svg_inline(store, tmp_path):
    from bncbench.evaluate.figures import svg_text
    from bncbench.evaluate.html import inline_svg

    for out in ("a", "b"):
        r = bnc_in("figures", store, "--only", "cd", "--format", "png,svg,pdf", "--out", tmp_path / out, check=True)
        assert f"wrote 3 file(s) to {tmp_path / out}: cd.png, cd.svg, cd.pdf" in r.stderr
    for name in ("cd.png", "cd.svg", "cd.pdf"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    svg = svg_text(_plot(store))
    assert svg == (tmp_path / "a" / "cd.svg").read_text(encoding="utf-8") == svg_text(_plot(store))
    assert "<dc:date>" not in svg and "NB (" in svg                    # no date; text kept as text
    assert inline_svg(svg, "cd").startswith("<svg")
    assert svg_text(_plot(store, metric=["zol"])) != svg


def test_cd_is_in_every_paper_configs_figures_section():
    from bncbench import config

    for name in ("stan70", "ait36", "ait36-bv", "aode22", "kban"):
        text = (ROOT / "configs" / f"{name}.yaml").read_text()
        section = config.parse(text, name).figures
        assert "cd" in section and section["cd"]["metric"], name


@pytest.mark.parametrize("section, key", [
    ("  cd: {alpha: 1.5}", "figures.cd.alpha"),
    ("  cd: {alpha: x}", "figures.cd.alpha"),
    ("  cd: {classifiers: [NB, XX]}", "figures.cd.classifiers.1"),
    ("  cd: {rows: [NB]}", "figures.cd.rows"),
])
def test_bad_cd_section_is_one_line_naming_the_key(tmp_path, section, key):
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: bad\ndatasets: [zoo]\nclassifiers: [NB, TAN]\nfigures:\n{section}\n")
    r = bnc_in("run", path, "--results", tmp_path / "res")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and f"bad.yaml:5: {key}:" in lines[0], r.stderr


@pytest.mark.parametrize("args, says", [
    (["--alpha", "0"], "--alpha: 0 is not between 0 and 1"),
    (["--metric", "bias"], "needs repeated runs"),
    (["--metric", "selected"], "cd: needs at least 2 data sets where every classifier has a value, got 0 of 7"),
])
def test_cd_refusals_are_one_line_exit_2(store, tmp_path, args, says):
    r = bnc_in("figures", store, "--only", "cd", "--out", tmp_path / "out", *args)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], r.stderr
    assert not (tmp_path / "out").exists()


def test_cd_of_one_classifier_is_refused(tmp_path):
    cfg = tmp_path / "one.yaml"
    cfg.write_text("name: one\ndatasets: [iris, zoo]\ncv: {scheme: stratified, folds: 3, runs: 1, seed: 1}\n"
                   "classifiers: [NB]\n")
    bnc_in("run", cfg, "--results", tmp_path / "res", "--quiet", check=True)
    r = bnc_in("figures", tmp_path / "res", "--only", "cd", "--out", tmp_path / "out")
    assert r.returncode == 2 and r.stderr.strip() == "error: cd: needs at least 2 classifiers, got 1"
    from bncbench.errors import UserError

    with pytest.raises(UserError, match="cd: needs at least 2 classifiers, got 1"):
        _plot(tmp_path / "res")
