"""Every output says what it covers (bncbench/evaluate/coverage.py): n of N data sets and why the
others are missing — report, wdl, compare, claims, figures and the HTML report; `report` shows
only the classifiers that have the metric, and a mean row only where a mean means something."""

import shutil
import sqlite3
from pathlib import Path

import pytest

from bncbench.evaluate.coverage import NOT_AVAILABLE, NOT_FINISHED, NOT_RUN, REASONS, Coverage
from tests.support.cli import bnc_in

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """
name: cov
datasets: [iris, zoo, phoneme, labor-negotiations]
preprocess: {missing: distinct, discretizer: eqfreq, eqfreq_method: petal, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers:
  - {name: NB}
  - {name: KDB, k: 1, label: KDB1}
  - {name: STAN, ranking: mi, label: STAN}
"""
# phoneme is in the catalog but held nowhere (not in the shipped mirror, no BNCBENCH_MIRROR);
# labor-negotiations is left out of the run with --datasets
UNAVAILABLE = f"not available ({REASONS[NOT_AVAILABLE]}): phoneme"
NOT_RUN_TEXT = f"not run ({REASONS[NOT_RUN]}): labor-negotiations"


def bnc(*args, check=True):
    return bnc_in(*args, cwd=ROOT, check=check)


def test_coverage_line_and_suffix():
    c = Coverage(["a", "b", "c", "d", "e"], {"b": NOT_AVAILABLE, "d": NOT_RUN, "e": NOT_AVAILABLE})
    assert c.covered == ["a", "c"] and not c.complete
    assert c.line() == (f"data sets: 2 of 5; not available ({REASONS[NOT_AVAILABLE]}): b, e; "
                        f"not run ({REASONS[NOT_RUN]}): d")
    assert c.suffix(2) == " (2 of 5 data sets)" and c.suffix(5) == "" and c.suffix(1, of=1) == ""
    assert Coverage(["a", "b"], {}).line() == "data sets: all 2"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    d = tmp_path_factory.mktemp("cov")
    cfg = d / "cov.yaml"
    cfg.write_text(CONFIG)
    r = bnc("run", cfg, "--results", d / "res", "--datasets", "iris,zoo,phoneme")
    assert "1 data set(s) not available, skipped: phoneme" in r.stderr
    return d / "res"


def _lines(text: str) -> list[str]:
    return text.splitlines()


def test_report_names_the_missing_data_sets_and_why(store):
    out = bnc("report", store).stdout
    assert [ln.split("|")[1].strip() for ln in _lines(out) if ln.startswith("| ")][1:3] == ["iris", "zoo"]
    assert f"data sets: 2 of 4; {UNAVAILABLE}; {NOT_RUN_TEXT}" in _lines(out)
    # csv is the table only; the coverage goes to stderr
    r = bnc("report", store, "--format", "csv")
    assert "phoneme" not in r.stdout and f"note: data sets: 2 of 4; {UNAVAILABLE}; {NOT_RUN_TEXT}" in r.stderr


def test_report_shows_only_classifiers_with_the_metric(store):
    out = bnc("report", store, "--metric", "selected").stdout
    header = next(ln for ln in _lines(out) if ln.startswith("| dataset"))
    assert [c.strip() for c in header.split("|")[1:-1]] == ["dataset", "STAN"]
    assert "not shown, having no selected values: NB, KDB1" in out
    # a count of each data set's own attributes: no mean row (said why); one classifier: no
    # average-rank row either (its rank is 1 everywhere; issue 22 item 4)
    rows = {ln.split("|")[1].strip() for ln in _lines(out) if ln.startswith("| ")}
    assert not any(r.startswith(("mean", "average rank")) for r in rows)
    assert "no mean row: selected: the attributes kept are a count" in out
    assert "no average-rank row: one classifier (its rank is 1 on every data set)" in out
    # zol: every classifier, with its mean row
    zol = bnc("report", store).stdout
    assert "| mean " in zol and "not shown" not in zol
    header = next(ln for ln in _lines(zol) if ln.startswith("| dataset"))
    assert [c.strip() for c in header.split("|")[1:-1]] == ["dataset", "NB", "KDB1", "STAN"]
    # a metric no classifier has: one line, exit 2
    r = bnc("report", store, "--metric", "elimination", check=False)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "no classifier" in r.stderr


def test_wdl_names_the_missing_data_sets(store):
    out = bnc("wdl", store).stdout
    assert f"data sets: 2 of 4 used; not in the results: {UNAVAILABLE}; {NOT_RUN_TEXT}" in _lines(out)
    # --metric selected compares only the classifiers that have it, and says so
    r = bnc("wdl", store, "--metric", "selected")
    assert "wdl: left out, having no selected values: NB, KDB1" in r.stderr


def test_compare_names_missing_data_sets_with_their_reason(store, tmp_path):
    table = tmp_path / "paper.tsv"
    table.write_text("dataset\tNB\tKDB1\niris\t0.0500\t0.0600\nphoneme\t0.2\t0.1\nlabor\t0.1\t0.1\n"
                     "nursery\t0.1\t0.1\n")
    out = bnc("compare", store, table).stdout
    assert (f"in the table but not in the results: {NOT_AVAILABLE}: phoneme; {NOT_RUN}: labor; "
            f"not in the configs run here: nursery") in out
    assert f"results: data sets: 2 of 4; {UNAVAILABLE}; {NOT_RUN_TEXT}" in out
    # the project records no reason for NB or KDB1 (neither is a reconstruction)
    assert "  NB (0 of 1 equal): no reason recorded by the project" in out


def test_figures_and_html_name_the_missing_data_sets(store, tmp_path):
    r = bnc("figures", store, "--only", "scatter", "--out", tmp_path / "fig", "--format", "svg")
    assert f"figures: data sets: 2 of 4; {UNAVAILABLE}; {NOT_RUN_TEXT}" in r.stderr
    assert "— 2 of 4 data sets" in (tmp_path / "fig" / "scatter.svg").read_text()
    page = bnc("report", store, "--format", "html").stdout
    assert '<p class="note" id="coverage">data sets: 2 of 4; not available' in page
    assert page.count(f"data sets: 2 of 4; not available ({REASONS[NOT_AVAILABLE]}): phoneme") >= 2  # top, tables


def test_unfinished_data_set_is_named_not_finished(store, tmp_path):
    d = tmp_path / "res"
    shutil.copytree(store, d)
    with sqlite3.connect(d / "results.sqlite") as c:
        assert c.execute("DELETE FROM tasks WHERE dataset = 'zoo' AND label = 'NB' AND fold = 0").rowcount == 1
    out = bnc("report", d).stdout
    assert f"data sets: 1 of 4; {UNAVAILABLE}; {NOT_RUN_TEXT}; {NOT_FINISHED} ({REASONS[NOT_FINISHED]}): zoo" in out


def test_claims_say_on_how_many_data_sets_and_judge_what_they_can(store, tmp_path):
    claims = tmp_path / "claims.yaml"
    claims.write_text('paper: "test — a paper whose title is long enough to wrap the caption of the claims at 100 '
                      'columns"\n' + f"""results: {{main: {store}, other: {tmp_path / 'absent'}}}
wdl: {{draw: exact4, draws: ignore, tails: two}}
tables:
  - {{caption: T, results: main, metric: zol, columns: [NB], rows: [KDB1], cells: [[1-0-3]]}}
claims:
  - text: "a claim whose text is long enough to need two lines in a list that fits one hundred columns of text"
    wdl: {{results: main, metric: zol, row: KDB1, column: NB, expect: better}}
  - text: "on iris and labor only"
    wdl: {{results: main, metric: zol, row: KDB1, column: NB, expect: better, datasets: [iris, labor-negotiations]}}
  - text: "a claim of the missing results"
    wdl: {{results: other, metric: zol, row: KDB1, column: NB, printed: 3-0-1}}
""")
    r = bnc("claims", claims)
    out = r.stdout
    assert max(len(ln) for ln in _lines(out)) <= 100
    verdicts = [ln.strip() for ln in _lines(out) if ln.strip().startswith("- verdict:")]
    assert verdicts[0].endswith("(2 of 4 data sets)") and verdicts[1].endswith("(1 of 2 data sets)")
    assert verdicts[2] == "- verdict: not judged: results 'other' missing"
    assert "- printed: 3-0-1 (p=0.6250)" in out  # the printed record is shown though not judged
    text = " ".join(out.split())
    assert "of 2 judged claims hold in our runs (1 of 3 not judged)." in text
    assert f"not judged: 1 claim(s) of results 'other': {tmp_path / 'absent'} does not exist" in text
    assert f"results 'main' ({store}): data sets: 2 of 4; {UNAVAILABLE}; {NOT_RUN_TEXT}" in text
    assert "records over fewer data sets than the paper's cannot equal the printed ones" in text
    # csv: the verdict table, the summary lines on stderr
    c = bnc("claims", claims, "--format", "csv")
    assert "(2 of 4 data sets)" in c.stdout and "judged claims hold" in c.stderr
