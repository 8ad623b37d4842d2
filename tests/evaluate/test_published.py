"""Published columns (`--with FILE`, issue 39 item 3): a made-up paper's wide table beside a store
built here, in report, wdl, ranks, figures --only cd, the HTML report and a config's
`figures: cd: with:`. Ranks and W/D/L are recomputed here from the report's csv and the table's
values (scipy's rankdata, a plain count), never from the code under test."""

import csv
import io
import math
import re

import pytest
from scipy.stats import rankdata

from bncbench import config, results
from bncbench.errors import UserError
from bncbench.reporting import figures as rf
from tests.support.cli import SMALL, bnc_in, run_store

# Paper-TAN has every data set of the store (car with an sd); Paper-SVM lacks car; 'Iris' and
# 'segment' are rows of no data set of the store ('Iris' differs from iris in case only)
TABLE = ("dataset\tPaper-TAN\tPaper-SVM\n"
         "iris\t0.0600 ± 0.0150\t0.0400\n"
         "labor-negotiations\t0.1000\t0.0500 ± 0.0300\n"
         "car\t0.0700 ± 0.0200\t–\n"
         "Iris\t0.5\t0.5\n"
         "segment\t0.03\t0.02\n")
PUBLISHED = {("iris", "Paper-TAN"): (0.06, 0.015), ("iris", "Paper-SVM"): (0.04, math.nan),
             ("labor-negotiations", "Paper-TAN"): (0.1, math.nan), ("labor-negotiations", "Paper-SVM"): (0.05, 0.03),
             ("car", "Paper-TAN"): (0.07, 0.02), ("car", "Paper-SVM"): (math.nan, math.nan)}
STORED = ["NB", "KDB1", "AODE"]
LABELS = [*STORED, "Paper-TAN", "Paper-SVM"]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return run_store(tmp_path_factory, "pub", SMALL)


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "paper.tsv"
    path.write_text(TABLE)
    return path


def _stored(store, metric="zol") -> dict[tuple[str, str], float]:
    """{(data set, label): mean} of the stored classifiers, from `report --format csv` without --with."""
    out = bnc_in("report", store, "--metric", metric, "--format", "csv", check=True).stdout
    return {(r["dataset"], r["classifier"]): float(r["mean"]) for r in csv.DictReader(io.StringIO(out))}


def _one_line_exit_2(r, *words):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_report_csv_has_the_published_columns_as_given(store, table):
    r = bnc_in("report", store, "--with", table, "--format", "csv", check=True)
    rows = {(x["dataset"], x["classifier"]): x for x in csv.DictReader(io.StringIO(r.stdout))}
    assert {lab for _, lab in rows} == set(LABELS)
    for (d, lab), (mean, sd) in PUBLISHED.items():
        got = rows[(d, lab)]
        assert (float(got["mean"]) if got["mean"] else math.nan) == pytest.approx(mean, nan_ok=True)
        assert (float(got["sd"]) if got["sd"] else math.nan) == pytest.approx(sd, nan_ok=True)
    # the stored columns are unchanged by the join
    stored = _stored(store)
    assert all(float(rows[k]["mean"]) == v for k, v in stored.items())
    # what was joined and left out, on stderr: the unmatched rows (with the case hint), car for Paper-SVM
    assert "published columns" in r.stderr and "Paper-TAN, Paper-SVM" in r.stderr
    (unmatched,) = [ln for ln in r.stderr.splitlines() if "rows matching no data set" in ln]
    assert "Iris (the results have 'iris'" in unmatched and "segment" in unmatched
    (lacking,) = [ln for ln in r.stderr.splitlines() if "Paper-SVM (published) has no value" in ln]
    assert lacking.endswith(": car")


def test_report_md_columns_and_summary_rows_over_shared_data_sets(store, table):
    out = bnc_in("report", store, "--with", table, check=True).stdout
    header = next(ln for ln in out.splitlines() if ln.startswith("| dataset"))
    assert [c.strip() for c in header.strip("|").split("|")] == ["dataset", *LABELS]
    iris = next(ln for ln in out.splitlines() if ln.startswith("| iris"))
    assert "0.0600 ± 0.0150" in iris and "| 0.0400 " in iris
    car = next(ln for ln in out.splitlines() if ln.startswith("| car"))
    assert car.rstrip(" |").endswith("n/a")
    # the average-rank row: over iris and labor-negotiations, recomputed with scipy
    stored = _stored(store)
    values = {**stored, **{k: v[0] for k, v in PUBLISHED.items()}}
    want = [sum(rankdata([round(values[(d, lab)], 4) for lab in LABELS])[i] for d in ("iris", "labor-negotiations")) / 2
            for i in range(len(LABELS))]
    rank_row = next(ln for ln in out.splitlines() if ln.startswith("| average rank (2 of 3 data sets)"))
    assert [float(c) for c in rank_row.strip("|").split("|")[1:]] == [round(w, 2) for w in want]
    assert "Paper-SVM (published) has no value for 1 data set(s)" in out


def test_ranks_over_the_data_sets_every_column_has(store, table):
    r = bnc_in("ranks", store, "--with", table, "--format", "csv", check=True)
    got = {}
    for row in csv.DictReader(io.StringIO(r.stdout)):
        got[row["a"]], got[row["b"]] = float(row["rank_a"]), float(row["rank_b"])
        assert row["n"] == "2"
    stored = _stored(store)
    values = {**stored, **{k: v[0] for k, v in PUBLISHED.items()}}
    per = [rankdata([round(values[(d, lab)], 4) for lab in LABELS]) for d in ("iris", "labor-negotiations")]
    assert got == {lab: pytest.approx((per[0][i] + per[1][i]) / 2) for i, lab in enumerate(LABELS)}
    assert "left out (a classifier has no value): car" in r.stderr
    assert "Paper-SVM (published) has no value for 1 data set(s)" in r.stderr
    # --control may name a published column
    r = bnc_in("ranks", store, "--with", table, "--control", "Paper-TAN", check=True)
    assert "Paper-TAN" in r.stdout and "Bonferroni" in r.stdout


def test_wdl_counts_each_pair_on_the_data_sets_both_have(store, table):
    r = bnc_in("wdl", store, "--with", table, "--format", "csv", "--draw", "exact4", check=True)
    rows = {(x["row"], x["column"]): x for x in csv.DictReader(io.StringIO(r.stdout))}
    stored = _stored(store)
    values = {**stored, **{k: v[0] for k, v in PUBLISHED.items()}}
    for a in ("Paper-SVM", "Paper-TAN"):
        for b in STORED:
            shared = [d for d in ("iris", "labor-negotiations", "car") if not math.isnan(values[(d, a)])]
            diffs = [round(values[(d, a)], 4) - round(values[(d, b)], 4) for d in shared]
            want = (sum(x < 0 for x in diffs), sum(x == 0 for x in diffs), sum(x > 0 for x in diffs))  # lower wins
            got = rows[(a, b)]
            assert (int(got["wins"]), int(got["draws"]), int(got["losses"])) == want, (a, b)
            assert int(got["n"]) == len(shared)
    assert "Paper-SVM (published) has no value" in r.stderr


def test_wdl_t_test_refuses_a_published_column(store, table):
    _one_line_exit_2(bnc_in("wdl", store, "--with", table, "--draw", "ttest"), "--draw ttest", "per-fold",
                     "--draw exact4")


def test_wdl_with_on_a_wide_table_refused(table):
    _one_line_exit_2(bnc_in("wdl", table, "--with", table), "--with is for a results store")


@pytest.mark.parametrize("command", [["report"], ["report", "--format", "html"], ["wdl"], ["ranks"],
                                     ["figures", "--only", "cd"]])
def test_bad_published_tables_one_line_exit_2(store, tmp_path, command):
    out = ["--out", tmp_path / "o"]
    extra = out if command[0] in ("figures",) or "html" in command else []
    r = bnc_in(*command[:1], store, *command[1:], *extra, "--with", tmp_path / "none.tsv")
    _one_line_exit_2(r, "--with", "none.tsv", "cannot read")
    bad = tmp_path / "bad.tsv"
    bad.write_text("dataset\tP\tQ\niris\t0.1\n")
    _one_line_exit_2(bnc_in(*command[:1], store, *command[1:], *extra, "--with", bad),
                     "bad.tsv:2", "2 cells, the header has 3")
    percent = tmp_path / "percent.tsv"
    percent.write_text("dataset\tP\tQ\niris\t0.05\t5.3\ncar\t0.1\t7.1\n")
    _one_line_exit_2(bnc_in(*command[:1], store, *command[1:], *extra, "--with", percent),
                     "column 'Q'", "5.3", "percentage", "divide the column by 100")
    clash = tmp_path / "clash.tsv"
    clash.write_text("dataset\tNB\tQ\niris\t0.05\t0.05\n")
    _one_line_exit_2(bnc_in(*command[:1], store, *command[1:], *extra, "--with", clash),
                     "column 'NB' is also a classifier of the results")
    none = tmp_path / "nomatch.tsv"
    none.write_text("dataset\tP\tQ\nIRIS\t0.05\t0.05\n")
    _one_line_exit_2(bnc_in(*command[:1], store, *command[1:], *extra, "--with", none),
                     "none of its data sets (IRIS)", "matched exactly")
    assert not (tmp_path / "o").exists()  # nothing written


def test_an_sd_that_is_not_a_number_is_named(store, tmp_path):
    bad = tmp_path / "sd.tsv"
    bad.write_text("dataset\tP\niris\t0.05\ncar\t0.1 ± x\n")
    _one_line_exit_2(bnc_in("ranks", store, "--with", bad), "--with", "sd.tsv:3", "'x' (P) is not a number")


def test_accuracy_in_percent_is_kept_fractions_refused(store, tmp_path):
    fractions = tmp_path / "acc.tsv"
    fractions.write_text("dataset\tP\niris\t0.94\ncar\t0.93\n")
    _one_line_exit_2(bnc_in("report", store, "--metric", "accuracy", "--with", fractions),
                     "column 'P'", "percent", "multiply the column by 100")
    percent = tmp_path / "pct.tsv"
    percent.write_text("dataset\tP\niris\t94.0 ± 3.1\ncar\t93\n")
    out = bnc_in("report", store, "--metric", "accuracy", "--with", percent, "--format", "csv", check=True).stdout
    got = {(x["dataset"], x["classifier"]): (x["mean"], x["sd"]) for x in csv.DictReader(io.StringIO(out))}
    assert got[("iris", "P")] == ("94.0", "3.1") and got[("car", "P")] == ("93.0", "")
    assert got[("labor-negotiations", "P")] == ("", "")


def test_cd_figure_draws_the_published_columns(store, table, tmp_path):
    r = bnc_in("figures", store, "--only", "cd", "--with", table, "--format", "svg", "--out", tmp_path / "f",
               check=True)
    svg = (tmp_path / "f" / "cd.svg").read_text()
    assert ">Paper-TAN<" in svg or "Paper-TAN" in re.sub(r"<[^>]+>", "", svg)
    assert "Paper-SVM" in svg
    assert "left out 1 data set(s) where a classifier has no value: car" in r.stderr
    (plot,) = rf.plots(rf.Source(results.open(str(store))), ["cd"], rf.Options(with_table=str(table)))
    ranks = bnc_in("ranks", store, "--with", table, "--format", "csv", check=True).stdout
    want = {}
    for row in csv.DictReader(io.StringIO(ranks)):
        want[row["a"]], want[row["b"]] = float(row["rank_a"]), float(row["rank_b"])
    assert dict(zip(plot.data["labels"], plot.data["ranks"])) == pytest.approx(want)
    assert set(plot.data["labels"]) == set(LABELS) and plot.data["n"] == 2


def test_with_is_for_the_cd_figure_only(store, table, tmp_path):
    _one_line_exit_2(bnc_in("figures", store, "--with", table, "--out", tmp_path / "f"), "--only cd")
    assert not (tmp_path / "f").exists()


def test_html_report_has_the_published_columns(store, table, tmp_path):
    bnc_in("report", store, "--format", "html", "--with", table, "--out", tmp_path / "r.html", check=True)
    page = (tmp_path / "r.html").read_text()
    assert "Paper-TAN" in page and "Paper-SVM" in page
    assert "published columns" in page and "0.0600 ± 0.0150" in page
    assert "left out wherever Paper-SVM is compared" in page
    # the experiment's paragraph names the classifiers run, the published ones apart
    assert "compares 3 classifiers (NB, KDB1, AODE)" in page
    assert "Published columns beside them: Paper-TAN, Paper-SVM." in page


def test_config_figures_cd_with(tmp_path, table):
    """`figures: cd: with:` is a file relative to the config's folder, read when the config is;
    `bncbench figures` draws it into the CD diagram."""
    text = ("name: cdwith\ndatasets: [iris, labor-negotiations]\ncv: {folds: 3, runs: 1}\n"
            "classifiers:\n  - {name: NB}\n  - {name: KDB, k: 1, label: KDB1}\nwdl: {draw: ttest}\n"
            "figures:\n  cd: {metric: zol, with: paper.tsv}\n")
    (tmp_path / "c.yaml").write_text(text)
    exp = config.parse(text, str(tmp_path / "c.yaml"))
    assert exp.figures["cd"]["with"] == str(table.resolve())
    with pytest.raises(UserError, match=r"c\.yaml:9: figures\.cd\.with: .*missing\.tsv: cannot read"):
        config.parse(text.replace("paper.tsv", "missing.tsv"), str(tmp_path / "c.yaml"))
    with pytest.raises(UserError, match=r"figures\.cd\.with: expected the file of a published wide table"):
        config.parse(text.replace("paper.tsv", "[a]"), str(tmp_path / "c.yaml"))
    # a column named as one of the config's classifiers is refused when the config is read, not at each figure
    (tmp_path / "clash.tsv").write_text("dataset\tKDB1\niris\t0.05\n")
    with pytest.raises(UserError, match=r"figures\.cd\.with: .*clash\.tsv: column 'KDB1' is also a classifier"):
        config.parse(text.replace("paper.tsv", "clash.tsv"), str(tmp_path / "c.yaml"))
    bnc_in("run", tmp_path / "c.yaml", "--results", tmp_path / "res", "--quiet", check=True)
    r = bnc_in("figures", tmp_path / "res", "--only", "cd", "--format", "svg", "--out", tmp_path / "f", check=True)
    assert "Paper-SVM" in (tmp_path / "f" / "cd.svg").read_text()
    assert "cd: published columns" in r.stderr
    # the HTML report takes the config's table; under its t-test draw rule the published W/D/L counts nothing
    bnc_in("report", tmp_path / "res", "--format", "html", "--out", tmp_path / "r.html", check=True)
    page = (tmp_path / "r.html").read_text()
    assert "Paper-TAN" in page and "their W/D/L records count no data set" in page
    # a join the config's table fails names the config's key, not an option never given
    (tmp_path / "paper.tsv").write_text("dataset\tP\nIRIS\t0.05\n")
    _one_line_exit_2(bnc_in("report", tmp_path / "res", "--format", "html", "--out", tmp_path / "r2.html"),
                     "figures.cd.with", "none of its data sets (IRIS)")
    assert not (tmp_path / "r2.html").exists()
    # the config's table gone (a results folder copied elsewhere): the page and the figures go on without it
    (tmp_path / "paper.tsv").unlink()
    r = bnc_in("report", tmp_path / "res", "--format", "html", "--out", tmp_path / "r3.html", check=True)
    assert "warning: figures.cd.with" in r.stderr and "cannot read" in r.stderr
    assert "Paper-TAN" not in (tmp_path / "r3.html").read_text()
    r = bnc_in("figures", tmp_path / "res", "--out", tmp_path / "f3", check=True)
    assert "skipped cd: figures.cd.with" in r.stderr
    _one_line_exit_2(bnc_in("figures", tmp_path / "res", "--only", "cd", "--out", tmp_path / "f4"), "figures.cd.with")
    (tmp_path / "paper.tsv").write_text(TABLE)
    # wdl under the config's t-test rule refuses a published column, and names the config's rule
    _one_line_exit_2(bnc_in("wdl", tmp_path / "res", "--with", table), "the config's wdl.draw ttest")
    assert bnc_in("wdl", tmp_path / "res", "--with", table, "--draw", "exact4").returncode == 0


def test_report_latex_with_published_columns_compiles(store, table, tmp_path):
    import shutil
    import subprocess

    from bncbench.evaluate.report import stacked
    from tests.evaluate.test_latex import compile_latex, tex_tables

    tex = bnc_in("report", store, "--with", table, "--format", "latex", check=True).stdout
    compile_latex(tex, tmp_path)
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", tmp_path / "doc.pdf", "-"], capture_output=True,
                              text=True, check=True).stdout
        # the notes as typeset (the columns beyond the page's width are not in the text layer)
        assert "published columns" in text and "Paper-SVM (published) has no value for 1 data set(s)" in text
    [(_, rows, firsts)] = tex_tables(tex)
    assert [c for c, _ in dict(zip(firsts, rows))["iris"][-2:]] == ["0.0600 $\\pm$ 0.0150", "0.0400"]
    assert " & ".join(stacked(h, align="r") for h in ("Paper-TAN", "Paper-SVM")) + " \\\\" in tex


def test_report_base_leaves_the_published_columns_untested(store, table):
    """--base with --with: the stored columns are marked as without --with, the published ones
    get no mark and no count, and are named once; a published base is refused."""
    alone = bnc_in("report", store, "--base", "NB", "--format", "csv", check=True).stdout
    both = bnc_in("report", store, "--base", "NB", "--with", table, "--format", "csv", check=True)
    rows = list(csv.DictReader(io.StringIO(both.stdout)))
    words = {(r["dataset"], r["classifier"]): r["versus_base"] for r in rows}
    assert {k: v for k, v in words.items() if k[1] in STORED} == \
        {(r["dataset"], r["classifier"]): r["versus_base"] for r in csv.DictReader(io.StringIO(alone))}
    assert all(v == "" for k, v in words.items() if k[1] in ("Paper-TAN", "Paper-SVM"))
    assert "published columns: means only, no per-fold values): Paper-TAN, Paper-SVM" in both.stderr
    md = bnc_in("report", store, "--base", "NB", "--with", table, check=True).stdout
    count = next(line for line in md.splitlines() if line.startswith("| (better/equal/worse)"))
    cells = [c.strip() for c in count.strip("|").split("|")][1:]
    assert cells[LABELS.index("NB")] == "" and cells[-2:] == ["", ""]
    assert all(re.fullmatch(r"\(\d+/\d+/\d+\)", c) for c in cells[1:len(STORED)])
    _one_line_exit_2(bnc_in("report", store, "--base", "Paper-TAN", "--with", table), "published column")


def test_a_device_a_folder_or_a_huge_file_is_refused_unread(store, tmp_path):
    """/dev/zero never ends and a folder is no table: one line each, before anything is read whole."""
    from bncbench.evaluate.wide_table import MAX_TABLE_BYTES

    _one_line_exit_2(bnc_in("report", store, "--with", "/dev/zero"), "--with /dev/zero", "not a file")
    _one_line_exit_2(bnc_in("ranks", store, "--with", tmp_path), "not a file")
    huge = tmp_path / "huge.tsv"
    huge.write_text("dataset\tP\n" + "iris\t0.1\n" * (MAX_TABLE_BYTES // 9))
    _one_line_exit_2(bnc_in("report", store, "--with", huge), "huge.tsv", "larger than 4 MiB")


def test_a_column_without_a_value_shown_is_refused_and_long_lists_are_cut(store, tmp_path):
    """A column missing on every data set shown would leave no data set for the mean and rank
    rows: refused, naming it. A table of thousands of rows gives one short line."""
    empty = tmp_path / "empty.tsv"
    empty.write_text("dataset\tP\tQ\niris\t0.05\t–\ncar\t0.1\tn/a\n")
    _one_line_exit_2(bnc_in("report", store, "--with", empty, "--datasets", "iris,car"),
                     "column 'Q' has no value on any data set shown (iris, car)")
    many = tmp_path / "many.tsv"
    many.write_text("dataset\tP\n" + "".join(f"d{i}\t0.1\n" for i in range(3000)))
    r = bnc_in("ranks", store, "--with", many)
    _one_line_exit_2(r, "none of its data sets (d0, d1, d2, d3, d4, d5, d6, d7, and 2992 more)")
    assert len(r.stderr) < 400


@pytest.mark.parametrize("cell, words", [("0.05 ± -0.01", "the sd '-0.01' (P) is not a number ≥ 0"),
                                         ("0.05 ± inf", "the sd 'inf' (P) is not a number ≥ 0"),
                                         ("– ± 0.01", "'– ± 0.01' (P) has an sd but no mean")])
def test_an_sd_below_zero_infinite_or_without_a_mean_is_refused(store, tmp_path, cell, words):
    bad = tmp_path / "sd.tsv"
    bad.write_text(f"dataset\tP\niris\t0.05\ncar\t{cell}\n")
    _one_line_exit_2(bnc_in("report", store, "--with", bad), "sd.tsv:3", words)


def test_a_table_separated_by_semicolons_is_named_so(store, tmp_path):
    semi = tmp_path / "semi.csv"
    semi.write_text("dataset;P\niris;0,05\n")
    _one_line_exit_2(bnc_in("report", store, "--with", semi), "expected a header", "separated by ';'")
