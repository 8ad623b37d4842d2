"""bncbench report --format html: one self-contained page of the default experiment.

It passes html5lib's strict (WHATWG) parser without a parse error, holds every table the default
config gives (one per metric it has values of, a W/D/L matrix and p-values per loss metric,
provenance, data files, and the comparison with --compare) and every figure of
`figures.figures_for_html`, references nothing outside itself, and opens in headless Chromium
(test marked `browser`) with its title, tables and the sort script's count in the DOM.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import html5lib  # a test dependency (pyproject.toml): imported, never skipped
import pytest

from tests.support.cli import bnc as _bnc
from tests.support.skips import need

ROOT = Path(__file__).resolve().parents[2]
TITLE = "bncbench report: default"
# configs/default.yaml: one run of 10-fold CV of NB, TAN, STAN-MRMR, KDB1, KDB2, AODE. Its metrics
# with values: every one but bias/variance (repeated runs) and elimination (paper 003's family);
# `selected` has values for STAN-MRMR only.
METRIC_TABLES = ["zol", "accuracy", "rmse", "rmse_all", "cll", "logloss", "train_time", "test_time", "selected"]
WDL_TABLES = ["zol", "rmse", "rmse_all", "cll", "logloss"]
EXPECTED_IDS = (["provenance-run", "provenance-data"] + [f"metric-{m}" for m in METRIC_TABLES]
                + [x for m in WDL_TABLES for x in (f"wdl-{m}", f"wdl-p-{m}")])
LABELS = ["NB", "TAN", "STAN-MRMR", "KDB1", "KDB2", "AODE"]


def bnc(*args, check=False):
    return _bnc(*args, cwd=ROOT, check=check)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The default experiment's results and its HTML report, without and with --compare."""
    tmp = tmp_path_factory.mktemp("html")
    res = tmp / "default"
    bnc("run", "configs/default.yaml", "--results", res, "--quiet", check=True)
    plain, compared = tmp / "report.html", tmp / "compared.html"
    r = bnc("report", res, "--format", "html", "--out", plain, check=True)
    assert r.stdout == "" and str(plain) in r.stderr
    bnc("report", res, "--format", "html", "--out", compared, "--compare", "papers/stan70/dev.tsv", check=True)
    return res, plain.read_text(encoding="utf-8"), compared.read_text(encoding="utf-8")


def _strict_parse(text: str):
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(text)  # raises html5lib.html5parser.ParseError at the first parse error


def _table_ids(doc) -> list[str]:
    """The id of the block around each <table> (every table sits in <div class="tbl" id=...>)."""
    out = []
    for div in doc.iter("div"):
        if div.get("class") == "tbl":
            tables = list(div.iter("table"))
            assert len(tables) == 1
            out.append(div.get("id"))
    return out


def test_page_parses_strictly_and_holds_every_table(pages):
    _, plain, compared = pages
    doc = _strict_parse(plain)
    assert doc.find("head/title").text == TITLE
    assert _table_ids(doc) == EXPECTED_IDS
    assert len(list(doc.iter("table"))) == len(EXPECTED_IDS) == 21
    doc2 = _strict_parse(compared)
    assert _table_ids(doc2) == EXPECTED_IDS + ["compare-values", "compare-summary"]


def test_page_holds_every_figure_inline(pages):
    from bncbench.evaluate.figures import figures_for_html

    res, plain, _ = pages
    titles = [t for t, _ in figures_for_html(str(res))]
    assert titles, "the default config's figures: section names figures"
    doc = _strict_parse(plain)
    figures = list(doc.iter("figure"))
    assert [f.find("figcaption").text for f in figures] == titles
    for f in figures:  # one inline <svg> each, nothing else embedded but its own data: images
        assert sum(isinstance(e.tag, str) and e.tag.split("}")[-1] == "svg" for e in f.iter()) == 1


def test_page_is_self_contained_with_unique_ids(pages):
    _, plain, _ = pages
    doc = _strict_parse(plain)
    assert doc.find("head/link") is None
    refs = [e.get(a) for e in doc.iter() for a in ("src", "href", "{http://www.w3.org/1999/xlink}href")
            if isinstance(e.tag, str) and e.get(a) is not None]
    outside = [r[:40] for r in refs if not r.startswith(("#", "data:"))]  # in-page links, embedded images
    assert refs and not outside, outside
    assert "@import" not in plain and "url(http" not in plain
    ids = re.findall(r'\sid="([^"]+)"', plain)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in plain
    assert "overflow-x:auto" in plain


def test_metric_table_shows_the_report_numbers(pages):
    """The zol table holds report's printed cells (the md report is the reference)."""
    res, plain, _ = pages
    md = bnc("report", res, "--metric", "zol", check=True).stdout.splitlines()
    want = [[c.strip() for c in line.split("|")[1:-1]] for line in md[2:] if line.startswith("| ") and "dataset" not in line]
    doc = _strict_parse(plain)
    block = next(d for d in doc.iter("div") if d.get("id") == "metric-zol")
    got = [["".join(c.itertext()) for c in tr] for tr in block.iter("tr")][1:]
    assert got == want and len(want) == 7 + 2  # 7 data sets, the mean and average-rank rows
    assert [["".join(c.itertext()) for c in tr] for tr in block.iter("tr")][0] == ["dataset"] + LABELS


def test_comparison_section_counts(pages):
    """Default results beside paper 000's dev values: the 4 dev data sets the default config
    holds (car, house-votes-84, wine, pima-ind-diabetes) × its 4 of paper 000's classifiers
    (TAN, STAN-MRMR, AODE, KDB1) × zol/rmse × mean/sd = 64 values."""
    _, _, compared = pages
    doc = _strict_parse(compared)
    block = next(d for d in doc.iter("div") if d.get("id") == "compare-values")
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
    res, _, _ = pages
    for args, word in ((["--compare", "papers/stan70/dev.tsv"], "--compare"),
                       (["--format", "pdf"], "--format"),
                       (["--format", "html", "--label-metric", "NB=rmse"], "--label-metric"),
                       (["--format", "html", "--compare", tmp_path / "absent.tsv"], "absent.tsv")):
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
def test_page_renders_in_headless_chromium(pages, tmp_path):
    """The DOM after Chromium loaded the page and ran its script: title, tables, sortable count."""
    exe = _chromium()
    if exe is None:
        need("BNCBENCH_REQUIRE_BROWSER", "headless Chromium is needed (apt-get install chromium)")
    _, _, compared = pages
    page = tmp_path / "page.html"
    page.write_text(compared, encoding="utf-8")
    r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    dom = html5lib.parse(r.stdout, namespaceHTMLElements=False)
    assert dom.find("head/title").text == TITLE
    n = len(EXPECTED_IDS) + 2
    assert len(list(dom.iter("table"))) == n
    assert dom.get("data-sortable") == str(n)  # the inline script ran to its end
