"""bncbench report --format html: one self-contained page of the default experiment that leads
with its findings (issue 22 item 4).

It passes html5lib's strict (WHATWG) parser without a parse error; the summary comes first (the
experiment in words from configs/default.yaml, the coverage, the average ranks and Friedman test
as `bncbench ranks` prints them, the CD diagram as inline SVG, the pairs that differ, every judged
metric at a glance, the reproduction status with --compare / --claims); then the tables, the best
value of each row in bold (checked against report's printed numbers), significant W/D/L records
marked (checked against a plain binomial sign test), the detailed matrices and the provenance
collapsed, the rows that mean nothing absent; the figures of `figures.figures_for_html` with their
titles as captions only; `processor` filled; the same bytes on a second run; nothing outside
itself; every value text, never markup (autoescape), but our SVG; and in headless Chromium (test
marked `browser`) the summary first with the CD diagram as inline SVG.
"""

import csv
import io
import math
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import html5lib  # a test dependency (pyproject.toml): imported, never skipped
import pytest

from tests.support.cli import bnc_in
from tests.support.skips import need

ROOT = Path(__file__).resolve().parents[2]
WDL = {"draw": "exact4", "draws": "split", "tails": "one"}  # the settings of a config without a wdl: section
TITLE = "bncbench report: default"
LABELS = ["NB", "TAN", "STAN-MRMR", "KDB1", "KDB2", "AODE"]
# configs/default.yaml: one run of 10-fold CV of NB, TAN, STAN-MRMR, KDB1, KDB2, AODE. Its metrics
# with values: every one but bias/variance (repeated runs) and elimination (paper 003's family);
# `selected` has values for STAN-MRMR only. Judged (open tables, W/D/L): zol, rmse, rmse_all, cll,
# logloss, auc; the summary metric is zol (no wdl: metric in the config).
JUDGED = ["zol", "rmse", "rmse_all", "cll", "logloss", "auc"]
OTHERS = ["accuracy", "train_time", "test_time", "selected"]
EXPECTED_IDS = (["ranks", "glance"]
                + [x for m in JUDGED for x in (f"metric-{m}", f"wdl-{m}", f"wdl-p-{m}")]
                + [f"metric-{m}" for m in OTHERS] + ["stability-table", "provenance-run", "provenance-data"])
COLLAPSED = ({f"wdl-p-{m}" for m in JUDGED} | {f"wdl-{m}" for m in JUDGED[1:]} | {f"metric-{m}" for m in OTHERS}
             | {"provenance-run", "provenance-data", "compare-values", "compare-summary", "claims-verdicts"})


def bnc(*args, check=False):
    return bnc_in(*args, cwd=ROOT, check=check)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The default experiment's results and its HTML report, without and with --compare and a
    claims file."""
    tmp = tmp_path_factory.mktemp("html")
    res = tmp / "default"
    bnc("run", "configs/default.yaml", "--results", res, "--quiet", check=True)
    claims = tmp / "claims.yaml"
    claims.write_text(f"""paper: "default (a test)"
results: {{main: {res}}}
wdl: {{draw: exact4, draws: ignore, tails: two}}
claims:
  - text: "AODE beats TAN in ZOL"
    wdl: {{results: main, metric: zol, row: AODE, column: TAN, expect: better}}
  - text: "KDB1 beats AODE in ZOL"
    wdl: {{results: main, metric: zol, row: KDB1, column: AODE, expect: better}}
""")
    plain, compared = tmp / "report.html", tmp / "compared.html"
    r = bnc("report", res, "--format", "html", "--out", plain, check=True)
    assert r.stdout == "" and str(plain) in r.stderr
    bnc("report", res, "--format", "html", "--out", compared, "--compare", "papers/stan70/dev.tsv", "--claims", claims,
        check=True)
    return res, plain.read_text(encoding="utf-8"), compared.read_text(encoding="utf-8"), claims


def _strict_parse(text: str):
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(text)  # raises html5lib.html5parser.ParseError at the first parse error


def _text(e) -> str:
    return " ".join("".join(e.itertext()).split())


def _by_id(doc, ident: str):
    (e,) = [e for e in doc.iter() if isinstance(e.tag, str) and e.get("id") == ident]
    return e


def _table_ids(doc) -> list[str]:
    """The id of the block around each <table> (every table sits in <div class="tbl" id=...>)."""
    out = []
    for div in doc.iter("div"):
        if div.get("class") == "tbl":
            tables = list(div.iter("table"))
            assert len(tables) == 1
            out.append(div.get("id"))
    return out


def _collapsed(doc) -> set[str]:
    """The ids of the table blocks inside a <details> that is not open."""
    out = set()
    for det in doc.iter("details"):
        if det.get("open") is None:
            out |= {d.get("id") for d in det.iter("div") if d.get("class") == "tbl"}
    return out


def _rows(block) -> list[list]:
    """The rows of a table block as lists of its cells (elements)."""
    return [list(tr) for tr in block.iter("tr")]


def test_page_parses_strictly_summary_first_and_holds_every_table(pages):
    _, plain, compared, _ = pages
    doc = _strict_parse(plain)
    assert doc.find("head/title").text == TITLE
    body = doc.find("body")
    assert [s.get("id") for s in body.findall("section")] == ["summary", "tables", "figures", "stability",
                                                               "provenance"]
    assert [_text(a) for a in body.find("nav").iter("a")] == ["Summary", "Tables", "Figures", "Structure stability",
                                                              "Provenance"]
    assert _table_ids(doc) == EXPECTED_IDS
    assert _collapsed(doc) == COLLAPSED & set(EXPECTED_IDS)
    doc2 = _strict_parse(compared)
    assert [s.get("id") for s in doc2.find("body").findall("section")] == \
        ["summary", "tables", "figures", "stability", "comparison", "claims", "provenance"]
    assert _table_ids(doc2) == [*EXPECTED_IDS[:-2], "compare-values", "compare-summary", "claims-verdicts",
                                *EXPECTED_IDS[-2:]]
    assert _collapsed(doc2) == COLLAPSED


def test_summary_says_the_experiment_in_words(pages):
    """configs/default.yaml in words: 6 classifiers, 7 data sets of 7, petal folds, 1 run of 10
    folds, seed 0, distinct missing values, 5 equal-frequency bins (petal's cut points) on the whole
    data set, m-estimate m = 1; the coverage line under it."""
    _, plain, _, _ = pages
    doc = _strict_parse(plain)
    text = _text(_by_id(doc, "experiment"))
    assert text.startswith("The experiment default compares 6 classifiers (NB, TAN, STAN-MRMR, KDB1, KDB2, AODE) "
                           "on 7 of 7 data sets by 1 run of 10-fold cross-validation (the C++ "
                           "system's folds, seed 0); missing values kept as a value of their own, equal-frequency "
                           "discretisation into 5 bins (the C++ system's cut points) fitted once on the whole data "
                           "set; probabilities by "
                           "the m-estimate (m = 1).")
    assert "The summary below is of zol (zero-one loss, lower is better); every test is at α = 0.05." in text
    assert _text(_by_id(doc, "coverage")) == "data sets: all 7"


def test_protocol_of_a_config_without_estimator_or_m_has_the_defaults():
    """A config that sets neither `estimator` nor `m` is summarised with the base class's defaults."""
    from bncbench.config import parse
    from bncbench.reporting.page import protocol

    exp = parse("name: t\ndatasets: [iris]\nclassifiers: [{name: NB}]\n")
    assert "estimator" not in exp.shared and "m" not in exp.shared
    assert (protocol(exp)["estimator"], protocol(exp)["m"]) == ("mestimate", "1")


def _ranks_command(res, metric: str) -> tuple[dict[str, float], str, list[dict]]:
    """({label: average rank}, the Friedman line, the pair rows) as `bncbench ranks` prints them."""
    r = bnc("ranks", res, "--metric", metric, "--format", "csv", check=True)
    pairs = list(csv.DictReader(io.StringIO(r.stdout)))
    rank = {}
    for row in pairs:
        rank[row["a"]], rank[row["b"]] = float(row["rank_a"]), float(row["rank_b"])
    (friedman,) = re.findall(r"^Friedman: (χ²_F = [0-9.]+, df = \d+, p = [0-9.e-]+)", r.stderr, re.MULTILINE)
    return rank, friedman, pairs


def test_summary_ranks_friedman_and_pairs_are_the_ranks_commands(pages):
    res, plain, _, _ = pages
    doc = _strict_parse(plain)
    rank, friedman, pairs = _ranks_command(res, "zol")
    head, row = _rows(_by_id(doc, "ranks"))
    order = sorted(rank, key=lambda lab: (rank[lab], LABELS.index(lab)))
    assert [_text(c) for c in head] == ["classifier"] + order
    assert [_text(c) for c in row] == ["average rank"] + [format(rank[lab], ".2f") for lab in order]
    assert f"zol: Friedman test over 7 data sets: {friedman}:" in _text(_by_id(doc, "friedman"))
    nemenyi, holm, sign = [_text(li) for li in _by_id(doc, "pairs").iter("li")]
    for flag, said in (("differs_cd", nemenyi), ("differs_holm", holm)):
        differ = [f"{p['a']} and {p['b']}" for p in pairs if p[flag] == "true"]
        assert said.endswith(f": {len(differ)} of 15: {'; '.join(differ) if differ else 'none'}"), said
    assert nemenyi.startswith("Nemenyi (average ranks at least CD = 2.85 apart)") and holm.startswith("Holm's")
    wdl = bnc("wdl", res, "--metric", "zol", "--format", "csv", check=True).stdout
    significant = [r for r in csv.DictReader(io.StringIO(wdl)) if float(r["p"]) <= 0.05]
    assert not significant and sign.endswith(": 0 of 15: none")  # none in the default experiment's zol
    glance = {_text(r[0]): [_text(c) for c in r[1:]] for r in _rows(_by_id(doc, "glance"))[1:]}
    assert list(glance) == JUDGED
    for m in JUDGED:
        rank, friedman, pairs = _ranks_command(res, m)
        best = min(rank, key=lambda lab: (rank[lab], LABELS.index(lab)))
        assert glance[m][1] == f"{best} ({rank[best]:.2f})"
        assert glance[m][2] == friedman.rsplit("p = ", 1)[1]
        assert glance[m][3] == f"{sum(p['differs_holm'] == 'true' for p in pairs)} of 15"


def test_summary_holds_the_cd_diagram_inline(pages):
    from bncbench import results
    from bncbench.evaluate.figures import svg_text
    from bncbench.reporting.figures import Source, plots

    res, plain, _, _ = pages
    doc = _strict_parse(plain)
    summary = _by_id(doc, "summary")
    (fig,) = [f for f in summary.iter("figure") if f.get("id") == "cd"]
    svgs = [e for e in fig.iter() if isinstance(e.tag, str) and e.tag.split("}")[-1] == "svg"]
    assert len(svgs) == 1
    rank, _, _ = _ranks_command(res, "zol")
    texts = " ".join(_text(e) for e in svgs[0].iter() if isinstance(e.tag, str) and e.tag.endswith("text"))
    for lab, r in rank.items():
        assert f"{lab} ({r:.2f})" in texts
    assert "Nemenyi test" in _text(fig.find("figcaption"))
    # the same diagram as `figures --only cd` of every classifier, drawn without its title
    with results.open(res) as handle:
        whole = svg_text(plots(Source(handle), ["cd"])[0])
    assert "Friedman p" in whole and "Friedman p" not in texts


def test_summary_without_ranks_says_why(pages):
    """One classifier, or one data set: no ranks, no CD diagram, and the summary says why."""
    res, _, _, _ = pages
    for args, why in ((["--classifiers", "NB"], "one classifier has values"),
                      (["--datasets", "iris"], "fewer than two data sets where every classifier has a value")):
        doc = _strict_parse(bnc("report", res, "--format", "html", *args, check=True).stdout)
        assert _text(_by_id(doc, "friedman")) == f"zol: {why}; no ranks to compare."
        assert not [f for f in doc.iter("figure") if f.get("id") == "cd"]
        assert "ranks" not in _table_ids(doc)


def test_best_value_of_each_row_is_bold(pages):
    """Against report's printed zol table: the bold cells of a row are those holding its
    smallest printed mean (zol: lower is better); in the footer, the smallest mean and rank."""
    res, plain, _, _ = pages
    md = bnc("report", res, "--metric", "zol", check=True).stdout.splitlines()
    want = [[c.strip() for c in line.split("|")[1:-1]] for line in md
            if line.startswith("| ") and "dataset" not in line]
    doc = _strict_parse(plain)
    rows = _rows(_by_id(doc, "metric-zol"))[1:]
    assert [[_text(c) for c in r] for r in rows] == want and len(want) == 7 + 2
    for cells, printed in zip(rows, want):
        values = [float(x.split(" ± ")[0]) for x in printed[1:]]
        best = {i for i, v in enumerate(values) if v == min(values)}
        assert {i for i, c in enumerate(cells[1:]) if c.get("class") == "best"} == best, printed[0]
    # accuracy: higher is better
    rows = _rows(_by_id(doc, "metric-accuracy"))[1:8]
    for cells in rows:
        values = [float(_text(c).split(" ± ")[0]) for c in cells[1:]]
        assert {i for i, c in enumerate(cells[1:]) if c.get("class") == "best"} == \
            {i for i, v in enumerate(values) if v == max(values)}


def test_rows_that_mean_nothing_are_not_shown(pages):
    """selected (STAN-MRMR only, a count of each data set's attributes): no mean row and no
    average-rank row; cll (a sum over each data set's instances): no mean row, the rank kept."""
    _, plain, _, _ = pages
    doc = _strict_parse(plain)
    selected = _by_id(doc, "metric-selected")
    assert selected.find(".//tfoot") is None
    assert [_text(c) for c in _rows(selected)[0]] == ["dataset", "STAN-MRMR"]
    notes = [_text(p) for p in selected.iter("p")]
    assert any(n.startswith("no average-rank row: one classifier") for n in notes)
    assert any(n.startswith("no mean row: the attributes kept are a count") for n in notes)
    cll = _by_id(doc, "metric-cll")
    assert [_text(tr[0]) for tr in cll.find(".//tfoot")] == ["average rank"]


def _plain_sign_test(w: int, d: int, l: int) -> float:
    """One-tailed sign test, draws split evenly between W and L, one dropped if odd (§6)."""
    w, l = w + d // 2, l + d // 2
    n, k = w + l, max(w, l)
    return sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n


def test_significant_wdl_records_are_marked():
    """A over 6 data sets always lower than B (6-0-0, p = 1/64) and C equal to A on 3, worse on
    3 (3-3-0 for A: p = 0.25 with the draws split): only A–B is marked, green for A's row, red for
    B's; the summary lists it."""
    from bncbench.evaluate.html import Cell, significant_records, wdl_tables
    from bncbench.results import Summary

    ds = [f"d{i}" for i in range(6)]
    a = [0.10, 0.20, 0.30, 0.15, 0.25, 0.05]
    b = [x + 0.01 for x in a]
    c = [x if i < 3 else x + 0.02 for i, x in enumerate(a)]
    values = {(d, lab): (v, math.nan) for lab, col in (("A", a), ("B", b), ("C", c)) for d, v in zip(ds, col)}
    s = Summary("zol", ds, ["A", "B", "C"], values)
    wins, ps = wdl_tables(s, {"draw": "exact4", "draws": "split", "tails": "one"}, {})
    cells = {(r[0], lab): cell for r in wins.rows for lab, cell in zip(["A", "B", "C"], r[1:])}
    marked = {k: (v.text, v.cls) for k, v in cells.items() if isinstance(v, Cell) and v.cls}
    assert _plain_sign_test(6, 0, 0) == 1 / 64 <= 0.05 < _plain_sign_test(3, 3, 0)
    assert marked == {("A", "B"): ("6-0-0*", "sig win"), ("B", "A"): ("0-0-6*", "sig loss")}
    a_c = cells[("A", "C")]
    assert isinstance(a_c, Cell) and a_c.text == "3-3-0"
    assert a_c.title == f"sign test p = {_plain_sign_test(3, 3, 0):.4f}"
    assert ps.rows[0][2] == f"{1 / 64:.4f}"
    assert significant_records(s, {"draw": "exact4", "draws": "split", "tails": "one"}) == \
        (["A 6-0-0 B (p = 0.0156)"], 3)


EVIL = "<script>alert(1)</script>&\"'"


def test_values_are_text_never_markup():
    """A data set name, a classifier label, a claim, a config value, a provenance item and a
    figure's title holding markup and &"' come out escaped: no element of theirs in the page, the
    same text back when parsed; the figure's SVG (ours) is an element."""
    from bncbench.evaluate.html import Claims, ReportInput, render
    from bncbench.results import Summary

    datasets, labels = [EVIL, "d2", "d3"], [f"A{EVIL}", "B"]
    values = {(d, lab): (0.1 * i + j / 100, math.nan)
              for i, d in enumerate(datasets, 1) for j, lab in enumerate(labels)}
    claims = Claims(f"Claims of {EVIL}", "claims.yaml", [(EVIL, "1-0-0", "3-0-0", "holds", True)], [f"1 of 1 {EVIL}"])
    svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" id="a"><text>drawn</text></svg>'
    page = render(ReportInput(title=f"report {EVIL}", version="0", provenance={"host": EVIL}, config=f"name: {EVIL}\n",
                              data_files=[(EVIL, "x.csv", "")], summaries=[Summary("zol", datasets, labels, values)],
                              differences={}, wdl=WDL, figures=[(EVIL, svg)], claims=claims, name=EVIL))
    assert "<script>alert" not in page and "&\"'" not in page
    doc = _strict_parse(page)
    assert [e.text.split("(")[0].strip() for e in doc.iter("script")] == ["document.querySelectorAll"]  # ours only
    assert doc.find("head/title").text == _text(doc.find("body/h1")) == f"report {EVIL}"
    said = _text(_by_id(doc, "experiment"))
    assert f"The experiment {EVIL} compares 2 classifiers (A{EVIL}, B) on 3 data sets" in said
    head, first = _rows(_by_id(doc, "metric-zol"))[:2]
    assert [_text(c) for c in head] == ["dataset", f"A{EVIL}", "B"] and _text(first[0]) == EVIL
    assert [_text(c) for c in _rows(_by_id(doc, "claims-verdicts"))[1]] == ["1", EVIL, "1-0-0", "3-0-0", "holds"]
    assert f"Claims of {EVIL} (claims.yaml): 1 of 1 {EVIL}" == _text(_by_id(doc, "reproduction"))
    assert {_text(r[0]): _text(r[1]) for r in _rows(_by_id(doc, "provenance-run"))}["host"] == EVIL
    assert _text(_rows(_by_id(doc, "provenance-data"))[1][0]) == EVIL
    assert doc.find(".//pre/code").text == f"name: {EVIL}\n"
    figure = _by_id(doc, "figure-1")
    assert _text(figure.find("figcaption")) == EVIL
    assert [e.get("id") for e in figure.iter() if isinstance(e.tag, str) and e.tag.endswith("svg")] == ["fig1-a"]


def test_figures_full_width_with_one_title(pages):
    from bncbench import results
    from bncbench.reporting.figures import figures_for_html

    res, plain, _, _ = pages
    with results.open(res) as r:
        made = figures_for_html(r)
    doc = _strict_parse(plain)
    figures = list(_by_id(doc, "figures").iter("figure"))
    assert [_text(f.find("figcaption")) for f in figures] == [" ".join(p.caption.split()) for p, _ in made]
    for f, (plot, _) in zip(figures, made):  # one inline <svg> each, without the caption's text
        svgs = [e for e in f.iter() if isinstance(e.tag, str) and e.tag.split("}")[-1] == "svg"]
        assert len(svgs) == 1
        assert plot.caption.split(" (")[0] not in _text(svgs[0]) and "zol" not in plot.caption
    assert ".svg svg{width:100%;" in plain


def test_provenance_has_no_empty_item_and_names_the_processor(pages):
    _, plain, _, _ = pages
    doc = _strict_parse(plain)
    items = {_text(r[0]): _text(r[1]) for r in _rows(_by_id(doc, "provenance-run"))[1:]}
    assert all(items.values()), [k for k, v in items.items() if not v]
    cpuinfo = Path("/proc/cpuinfo")
    names = re.findall(r"^model name\s*:\s*(.+?)\s*$", cpuinfo.read_text(errors="replace"), re.MULTILINE) \
        if cpuinfo.exists() else []
    assert items["processor"] == (names[0] if names else platform.processor() or platform.machine())


def test_second_report_is_byte_identical(pages, tmp_path):
    res, plain, compared, claims = pages
    again = bnc("report", res, "--format", "html", check=True).stdout
    assert again == plain
    out = tmp_path / "again.html"
    bnc("report", res, "--format", "html", "--out", out, "--compare", "papers/stan70/dev.tsv", "--claims", claims,
        check=True)
    assert out.read_text(encoding="utf-8") == compared


def test_page_is_self_contained_with_unique_ids(pages):
    _, plain, compared, _ = pages
    for page in (plain, compared):
        doc = _strict_parse(page)
        assert doc.find("head/link") is None
        refs = [e.get(a) for e in doc.iter() for a in ("src", "href", "{http://www.w3.org/1999/xlink}href")
                if isinstance(e.tag, str) and e.get(a) is not None]
        outside = [r[:40] for r in refs if not r.startswith(("#", "data:"))]  # in-page links, embedded images
        assert refs and not outside, outside
        assert "@import" not in page and "url(http" not in page
        ids = re.findall(r'\sid="([^"]+)"', page)
        assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in plain
    assert "overflow-x:auto" in plain


def test_reproduction_status_in_the_summary(pages):
    """--compare: the total line `bncbench compare` prints; --claims: the count `bncbench claims`
    prints (AODE beats TAN 6-0-1: holds; KDB1 beats AODE 1-0-6: does not)."""
    res, _, compared, claims = pages
    total = next(line for line in bnc("compare", res, "papers/stan70/dev.tsv", check=True).stdout.splitlines()
                 if "values equal at the printed precision" in line)
    said = _text(_by_id(_strict_parse(compared), "reproduction"))
    assert f"Beside papers/stan70/dev.tsv: {total}" in said
    counted = next(line for line in bnc("claims", claims, check=True).stdout.splitlines()
                   if "judged claims hold" in line)
    assert counted == "1 of 2 judged claims hold in our runs."
    assert f"Claims of paper default (a test) ({claims}): {counted}" in said
    doc = _strict_parse(compared)
    verdicts = [[_text(c) for c in r] for r in _rows(_by_id(doc, "claims-verdicts"))[1:]]
    assert [(v[1], v[4]) for v in verdicts] == [("AODE beats TAN in ZOL", "holds"),
                                               ("KDB1 beats AODE in ZOL", "does not hold")]


def test_comparison_section_counts(pages):
    """Default results beside paper 000's dev values: the 4 dev data sets the default config
    holds (car, house-votes-84, wine, pima-ind-diabetes) × its 4 of paper 000's classifiers
    (TAN, STAN-MRMR, AODE, KDB1) × zol/rmse × mean/sd = 64 values."""
    _, _, compared, _ = pages
    doc = _strict_parse(compared)
    block = _by_id(doc, "compare-values")
    rows = list(block.find(".//tbody"))
    assert len(rows) == 64
    assert {"".join(tr[0].itertext()) for tr in rows} == {"car", "house-votes-84", "wine", "pima-ind-diabetes"}
    assert "in the table but not in the results: not in the configs run here: nursery, magic, pendigits" in compared


def test_importing_bncbench_does_not_import_matplotlib():
    code = ("import sys, bncbench, bncbench.cli, bncbench.results, bncbench.evaluate.html, bncbench.evaluate.compare;"
            "print('matplotlib' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert r.stdout.strip() == "False"


def test_bad_html_options_exit_2(pages, tmp_path):
    res, _, _, _ = pages
    for args, word in ((["--compare", "papers/stan70/dev.tsv"], "--compare"),
                       (["--claims", "papers/ait36/claims.yaml"], "--claims"),
                       (["--format", "html", "--label-metric", "NB=rmse"], "--label-metric"),
                       (["--format", "html", "--compare", tmp_path / "absent.tsv"], "absent.tsv"),
                       (["--format", "html", "--claims", tmp_path / "absent.yaml"], "absent.yaml")):
        r = bnc("report", res, *args)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and word in lines[0], r.stderr
    blocker = tmp_path / "file"
    blocker.write_text("")
    r = bnc("report", res, "--format", "html", "--out", blocker / "report.html")
    assert r.returncode == 2 and "--out" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.browser
def test_page_renders_in_headless_chromium_summary_first_with_the_cd_diagram(pages, tmp_path):
    """The DOM after Chromium loaded the page and ran its script: title, tables, sortable count;
    the first section is the summary and it holds the CD diagram as inline SVG, drawn (its
    rendered box is wider than tall and spans the page's width)."""
    exe = _chromium()
    if exe is None:
        need("BNCBENCH_REQUIRE_BROWSER", "headless Chromium is needed (apt-get install chromium)")
    _, _, compared, _ = pages
    probe = ('<script>window.addEventListener("load", function () {'
             'var s = document.querySelector("#cd svg").getBoundingClientRect();'
             'var b = document.body.getBoundingClientRect();'
             'document.documentElement.setAttribute("data-cd", [Math.round(s.width), Math.round(s.height), '
             'Math.round(b.width)].join(" ")); });</script>')
    page = tmp_path / "page.html"
    page.write_text(compared.replace("</body>", probe + "</body>"), encoding="utf-8")
    r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1280,900",
                        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
                       capture_output=True, text=True, timeout=180, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    dom = html5lib.parse(r.stdout, namespaceHTMLElements=False)
    title = dom.find("head/title")
    assert title is not None and title.text == TITLE
    n = len(EXPECTED_IDS) + 3
    assert len(list(dom.iter("table"))) == n
    assert dom.get("data-sortable") == str(n)  # the inline script ran to its end
    first = dom.find("body/section")
    assert first is not None and first.get("id") == "summary" and _text(first.find("h2")) == "Summary"
    (cd,) = [f for f in first.iter("figure") if f.get("id") == "cd"]
    assert any(isinstance(e.tag, str) and e.tag.split("}")[-1] == "svg" for e in cd.iter())
    probed = dom.get("data-cd")
    assert probed is not None
    width, height, page_width = map(int, probed.split())
    assert 0 < height < width and width >= 0.9 * page_width
