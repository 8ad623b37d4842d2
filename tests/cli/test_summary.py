"""bncbench summary: the HTML report's summary as text (issue 39 item 6). The text is the page's
summary with the tags stripped (the same blocks, html.summary_blocks), in text, md and LaTeX; the
LaTeX compiles and its PDF reads as the text; the ranks are `bncbench ranks`'; bad input is one
line and exit 2, writing nothing."""

import csv
import io
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import html5lib
import pytest

from tests.evaluate.test_latex import compile_latex
from tests.support.cli import bnc_in, run_store
from tests.support.skips import need

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """
name: findings
description: a test of the summary
datasets: [iris, labor-negotiations, zoo, wine, house-votes-84, soybean, pima-ind-diabetes]
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers: [NB, TAN, AODE]
"""
#: the page's elements that hold a block of text (a separator between two); <code> does not
BLOCK_TAGS = {"p", "li", "ul", "div", "h3", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "br", "section"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return run_store(tmp_path_factory, "findings", CONFIG)


def _words(text: str) -> list[str]:
    return text.split()


def _page_summary(page: str) -> list[str]:
    """The words of the page's summary section, tags stripped (a block element a separator), without
    its heading and the CD figure (a drawing: text has none)."""
    doc = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    (section,) = [s for s in doc.iter("section") if s.get("id") == "summary"]
    parts: list[str] = []

    def walk(e) -> None:
        if e.tag in ("h2", "figure"):
            parts.append(" " + (e.tail or ""))
            return
        sep = " " if e.tag in BLOCK_TAGS else ""
        parts.append(sep + (e.text or ""))
        for child in e:
            walk(child)
        parts.append(sep + (e.tail or ""))

    walk(section)
    return _words("".join(parts))


def _reproduction(store, folder) -> list:
    """--compare paper 000's dev table, --claims a claims file on `store` (written into `folder`)."""
    claims = folder / "claims.yaml"
    claims.write_text(f"paper: test\nresults: {{main: {store}}}\nclaims:\n  - text: AODE beats NB\n"
                      "    wdl: {results: main, metric: zol, row: AODE, column: NB, expect: better}\n")
    return ["--compare", ROOT / "papers" / "stan70" / "dev.tsv", "--claims", claims]


def _summary(*args, check=True):
    return bnc_in("summary", *map(str, args), check=check)


@pytest.mark.parametrize("reproduction", [False, True], ids=["plain", "compare-claims"])
def test_text_and_md_are_the_pages_summary(store, tmp_path, reproduction):
    """The same words as the page's summary, in the same order; with --compare and --claims the
    reproduction status too."""
    extra = _reproduction(store, tmp_path) if reproduction else []
    page = tmp_path / "report.html"
    bnc_in("report", store, "--format", "html", "--out", page, *extra, check=True)
    want = _page_summary(page.read_text(encoding="utf-8"))
    assert want[:6] == ["The", "experiment", "findings", "(a", "test", "of"] and "Friedman" in want
    assert ("Beside" in want and "Claims" in want) == reproduction
    text = _summary(store, *extra).stdout
    assert max(len(line) for line in text.splitlines() if "  " not in line) <= 88  # paragraphs wrapped (tables not)
    assert _words(re.sub(r"^- ", "", text, flags=re.M)) == want
    md = _summary(store, "--format", "md", *extra).stdout
    plain = re.sub(r"^\|[-|]+\|$", "", md, flags=re.M)            # the tables' rules
    plain = re.sub(r"^- |\|", " ", plain, flags=re.M).replace("`", "")  # list items, cell bars, code
    assert _words(plain) == want
    out = tmp_path / "s.md"
    r = _summary(store, "--format", "md", "--out", out, *extra)
    assert r.stdout == "" and out.read_text(encoding="utf-8") == md and str(out) in r.stderr


def test_ranks_and_metric_are_the_ranks_commands(store):
    """--metric rmse: the summary is of rmse, its average ranks those `bncbench ranks` prints."""
    r = bnc_in("ranks", store, "--metric", "rmse", "--format", "csv", check=True)
    rank = {}
    for row in csv.DictReader(io.StringIO(r.stdout)):
        rank.update({row["a"]: round(float(row["rank_a"]), 2), row["b"]: round(float(row["rank_b"]), 2)})
    text = _summary(store, "--metric", "rmse").stdout
    said = " ".join(text.split())
    assert "The summary below is of rmse (RMSE of the true class's probability, lower is better)" in said
    header, row = [ln.split() for ln in text.split("rmse: average rank over 7 data sets (1 = best)\n\n")[1]
                   .splitlines()[:2]]
    assert header[0] == "classifier" and row[:2] == ["average", "rank"]
    assert {lab: float(x) for lab, x in zip(header[1:], row[2:])} == rank
    small = _summary(store, "--classifiers", "NB", "--datasets", "iris,zoo").stdout
    assert "zol: one classifier has values; no ranks to compare." in " ".join(small.split())


def test_latex_compiles_and_reads_as_the_text(store, tmp_path):
    extra = _reproduction(store, tmp_path)
    shutil.copy(extra[1], tmp_path / "dev.tsv")
    extra[1], extra[-1] = "dev.tsv", extra[-1].name  # paths as short as a paper's, whatever the checkout's
    tex = bnc_in("summary", store, "--format", "latex", *extra, cwd=tmp_path, check=True).stdout
    assert "--" not in tex and "\\texttt{zol}" in tex and "\\begin{itemize}" in tex
    assert "\\label{tab:findings-ranks}" in tex and "\\label{tab:findings-glance}" in tex
    compile_latex(tex, tmp_path)
    exe = shutil.which("pdftotext")
    if exe is None:
        need("BNCBENCH_REQUIRE_LATEX", "pdftotext is not installed (apt-get install poppler-utils)")
    pdf = subprocess.run([exe, "-layout", tmp_path / "doc.pdf", "-"], capture_output=True, text=True,
                         check=True).stdout
    said = " ".join(unicodedata.normalize("NFC", pdf).split())
    for phrase in ("The experiment findings (a test of the summary) compares 3 classifiers (NB, TAN, AODE)",
                   "Friedman test over 7 data sets", "Demšar 2006", "Iman–Davenport", "Pairs that differ (α = 0.05):",
                   "Holm’s procedure (adjusted p ≤ 0.05)", "Every judged metric at a glance", "logloss",
                   "Beside", "values equal at the printed precision", "Claims of paper test"):
        assert phrase in said, phrase
    assert "\\" not in pdf and "$" not in pdf and "--" not in pdf
    assert "Overfull \\hbox" not in (tmp_path / "doc.log").read_text(errors="replace")  # every table fits the page


def test_bad_input_is_one_line_and_exit_2(store, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    several = tmp_path / "results"
    for name in ("a", "b"):
        shutil.copytree(store, several / name)
    for args, word in (([tmp_path / "absent"], "absent"),
                       ([several], "holds"),
                       ([store, "--metric", "nosuch"], "--metric"),
                       ([store, "--metric", "bias"], "--metric bias"),
                       ([store, "--datasets", "nosuch"], "nosuch"),
                       ([store, "--classifiers", "KDB9"], "KDB9"),
                       ([store, "--out", blocker / "s.txt"], "--out"),
                       ([store, "--compare", tmp_path / "absent.tsv"], "absent.tsv"),
                       ([store, "--claims", tmp_path / "absent.yaml"], "absent.yaml")):
        r = _summary(*args, check=False)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and word in lines[0], (args, r.stderr)
        assert r.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "results"]


def test_protocol_defaults_are_the_base_classs_without_importing_it():
    """The summary's estimator and m of a config that sets neither: BayesNetClassifier's defaults,
    read from its source (so the summary imports no scikit-learn: tests/cli/test_light_reading.py)."""
    import inspect

    from bncbench.classifiers import BayesNetClassifier, base_defaults

    params = inspect.signature(BayesNetClassifier.__init__).parameters
    assert base_defaults() == {k: p.default for k, p in params.items() if p.kind == p.KEYWORD_ONLY}
