"""report and wdl: summary rows (mean, Demšar average ranks), data-set difference markers,
--datasets/--classifiers filters, incomplete stores, wide tables with missing cells, help texts."""

import math
import shutil
import sqlite3
from pathlib import Path

import pytest

from bncbench.errors import UserError
from bncbench.evaluate.metrics import METRICS
from bncbench.evaluate.report import format_report
from bncbench.evaluate.stats import average_ranks, ranks
from bncbench.evaluate.wdl import coverage_notes, settings_notes
from bncbench.evaluate.wide_table import read_wide_table
from bncbench.results import catalog_differences
from bncbench.results import open as open_results
from tests.support import predictions as recompute
from tests.support.cli import SMALL, bnc_in, run_store
from tests.support.cli import bnc as _bnc
from tests.support.skips import need

ROOT = Path(__file__).resolve().parents[2]
SHARED_UCI = (ROOT.parent / "shared" / "uci").resolve()

NAN = math.nan


def bnc(*args, env=None, check=False):
    """The command in its own process where it needs an environment of its own, else in this one."""
    if env:
        return _bnc(*args, env=env, cwd=ROOT, check=check)
    return bnc_in(*args, cwd=ROOT, check=check)


# ---------------------------------------------------------------- average ranks (stats.py)

def test_ranks_ties_share_the_average_rank():
    assert ranks([0.2, 0.1, 0.2, 0.3]) == [2.5, 1.0, 2.5, 4.0]
    assert ranks([0.2, 0.1, 0.2, 0.3], lower_is_better=False) == [2.5, 4.0, 2.5, 1.0]
    assert ranks([0.5, 0.5, 0.5]) == [2.0, 2.0, 2.0]
    with pytest.raises(ValueError):
        ranks([0.1, NAN])


def test_average_ranks_hand_worked():
    # per data set (lower is better): d1 → 1,2,3; d2 → 2.5,2.5,1; d3 → 3,1,2; d4 has a NaN (left
    # out); d5 → 2,2,2. Sums 8.5, 7.5, 8 over 4 data sets.
    table = [[0.10, 0.20, 0.30], [0.25, 0.25, 0.10], [0.30, 0.10, 0.20], [NAN, 0.10, 0.20], [0.5, 0.5, 0.5]]
    assert average_ranks(table) == ([2.125, 1.875, 2.0], 4)
    # higher is better: d1 → 3,2,1; d2 → 1.5,1.5,3; d3 → 1,3,2; d5 → 2,2,2
    assert average_ranks(table, lower_is_better=False) == ([1.875, 2.125, 2.0], 4)
    r, n = average_ranks([[NAN, 0.1]])
    assert n == 0 and all(math.isnan(x) for x in r)


# ---------------------------------------------------------------- report tables (report.py)

DS, LABS = ["d1", "d2", "d3"], ["A", "B"]
VALUES = {("d1", "A"): (0.1, 0.01), ("d1", "B"): (0.2, 0.02),
          ("d2", "A"): (0.3, NAN), ("d2", "B"): (0.3, NAN),
          ("d3", "A"): (0.5, 0.1), ("d3", "B"): (NAN, NAN)}


def _md_rows(text):
    return {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:-1]]
            for r in text.splitlines() if r.startswith("| ")}


def test_report_md_mean_and_rank_rows_over_complete_data_sets():
    md = format_report(DS, LABS, VALUES, "zol", "md", differences={"d2": "fewer rows than the paper's"})
    rows = _md_rows(md)
    # d3 lacks B: mean and ranks over d1, d2. Means (0.1+0.3)/2, (0.2+0.3)/2; ranks d1: 1, 2;
    # d2 tie: 1.5, 1.5 → 1.25, 1.75
    assert rows["mean (2 of 3 data sets)"] == ["0.2000", "0.2500"]
    assert rows["average rank (2 of 3 data sets)"] == ["1.25", "1.75"]
    assert rows["d2 †"] == ["0.3000", "0.3000"] and rows["d3"] == ["0.5000 ± 0.1000", "n/a"]
    lines = md.splitlines()
    assert "† our version differs from the paper's: d2: fewer rows than the paper's" in lines
    assert any("left out: d3" in ln for ln in lines)
    first = {key: next(i for i, ln in enumerate(lines) if ln.startswith(key))
             for key in ("| d3", "| mean", "| average")}
    assert first["| d3"] < first["| mean"] < first["| average"]


def test_report_ranks_higher_is_better_and_ties_after_rounding():
    vals = {("x", "A"): (-10.0, NAN), ("x", "B"): (-20.0, NAN), ("x", "C"): (-30.0, NAN),
            ("y", "A"): (0.12344, NAN), ("y", "B"): (0.12341, NAN), ("y", "C"): (0.2, NAN)}
    md = format_report(["x", "y"], ["A", "B", "C"], vals, "cll", "md", differences={})
    rows = _md_rows(md)
    # cll: higher is better. x → 1, 2, 3; y: A and B print as 0.1234 (a tie) → 2.5, 2.5, 1
    assert rows["average rank"] == ["1.75", "2.25", "2.00"]
    # CLL is a sum over each data set's test instances: no mean over data sets, and the note says why
    assert "mean" not in rows and "no mean row: CLL is a sum over each data set's test instances" in md
    # accuracy (also higher is better) has its mean row
    rows = _md_rows(format_report(["x", "y"], ["A", "B", "C"], vals, "accuracy", "md", differences={}))
    assert rows["average rank"] == ["1.75", "2.25", "2.00"]
    assert rows["mean"] == ["-4.9383", "-9.9383", "-14.9000"]


def test_report_latex_summary_rows_and_marker():
    tex = format_report(DS, LABS, VALUES, "zol", "latex", differences={"d2": "fewer rows"})
    lines = tex.splitlines()
    # footer names longer than the longest data set's are stacked (the table fits a column: test_latex.py)
    i = lines.index(r"\begin{tabular}[b]{@{}l@{}}mean (2 of 3\\data sets)\end{tabular} & \textbf{0.2000} & 0.2500 \\")
    assert lines[i - 1] == r"\midrule"
    assert lines[i + 1] == (r"\begin{tabular}[b]{@{}l@{}}average rank\\(2 of 3 data\\sets)\end{tabular} & "
                            r"\textbf{1.25} & 1.75 \\")
    assert r"d2 $^\dagger$ & \textbf{0.3000} & \textbf{0.3000} \\" in lines
    assert any(r"$^\dagger$ our version differs from the paper's: d2: fewer rows" in ln for ln in lines)


def test_report_csv_has_no_summary_rows():
    csv_text = format_report(DS, LABS, VALUES, "zol", "csv", differences={"d2": "x"})
    assert csv_text == ("dataset,classifier,metric,mean,sd\n"
                        "d1,A,zol,0.1,0.01\nd1,B,zol,0.2,0.02\n"
                        "d2,A,zol,0.3,\nd2,B,zol,0.3,\n"
                        "d3,A,zol,0.5,0.1\nd3,B,zol,,\n")


def test_catalog_differences_marks_only_catalog_entries_with_one():
    got = catalog_differences(["poker-hand", "iris", "synth:xor-2", "my-own-data"])
    assert list(got) == ["poker-hand"] and "25,010" in got["poker-hand"]


# ---------------------------------------------------------------- wide tables and W/D/L notes

def test_wide_table_missing_cells_and_plus_minus(tmp_path):
    t = tmp_path / "t.tsv"
    t.write_text("dataset\tA\tB\tC\n"
                 "d1\t0.1000\t0.2000\t—\n"
                 "d2\t0.2000 +/- 0.01\tn/a\t0.2080\n"
                 "\n"
                 "d3\t0.3000 ± 0.01\t0.2500 +- 0.1\t–\n"
                 "d4\t-\t0.4001\t\n"
                 "d5\t-0.5\tN/A\tnan\n", encoding="utf-8")
    ds, labels, values = read_wide_table(str(t))
    assert ds == ["d1", "d2", "d3", "d4", "d5"] and labels == ["A", "B", "C"]
    assert values[("d2", "A")][0] == 0.2 and values[("d3", "B")][0] == 0.25 and values[("d5", "A")][0] == -0.5
    missing = {k for k, v in values.items() if math.isnan(v[0])}
    assert missing == {("d1", "C"), ("d2", "B"), ("d3", "C"), ("d4", "A"), ("d4", "C"), ("d5", "B"), ("d5", "C")}


@pytest.mark.parametrize("body,where", [
    ("d1,0.1,0.2\n\nd2,0.1,abc\n", ":4: 'abc' (B) is not a number"),
    ("d1,0.1,0.2\nd2,?,0.2\n", ":3: '?' (A) is not a number"),
    ("d1,0.1,0.2\nd1,0.3,0.2\n", ":3: data set 'd1' is already on line 2"),
    ("d1,0.1\n", ":2: 2 cells, the header has 3"),
])
def test_wide_table_errors_name_file_and_line(tmp_path, body, where):
    t = tmp_path / "bad.csv"
    t.write_text("dataset,A,B\n" + body)
    with pytest.raises(UserError) as e:
        read_wide_table(str(t))
    assert str(e.value).startswith(f"{t}{where}") and "\n" not in str(e.value)


def test_coverage_notes_same_or_per_pair():
    v = {("d1", "A"): (0.1, NAN), ("d1", "B"): (0.2, NAN), ("d1", "C"): (0.1, NAN),
         ("d2", "A"): (0.1, NAN), ("d2", "B"): (NAN, NAN), ("d2", "C"): (0.1, NAN)}
    assert coverage_notes(["d1", "d2"], v, ["A", "C"], ["A", "C"]) == ["data sets: 2, all used"]
    assert coverage_notes(["d1", "d2"], v, ["A", "B", "C"], ["A", "B", "C"]) == [
        "data sets: 2; a pair leaves out the data sets where either has a missing value:",
        "  A vs B: 1 used; left out: d2", "  B vs C: 1 used; left out: d2", "  every other pair: 2 used"]
    assert coverage_notes(["d1", "d2"], v, ["B"], ["A", "C"], excluded=["d3"]) == [
        "data sets: 1 of 3 used; left out as incomplete for every pair: d3; left out for a missing value: d2"]


def test_settings_notes_state_rule_test_and_direction():
    assert settings_notes("zol", True, "relative:0.05", "ignore", "two") == [
        "metric: zol (lower is better)",
        "draw: |a−b| ≤ 0.05·max(|a|, |b|) (--draw relative:0.05)",
        "sign test: two-tailed, p = min(1, 2·P(X ≥ max(W, L))) with X ∼ B(W + L, 1/2) (--tails two); "
        "draws ignored (--draws ignore)"]
    notes = settings_notes("cll", False, "exact4", "split", "one")
    assert notes[0] == "metric: cll (higher is better)"
    assert notes[1] == "draw: equal after rounding to 4 decimals (--draw exact4)"
    assert "one-tailed" in notes[2] and "split" in notes[2]


def _csv_rows(out):
    lines = out.splitlines()
    assert lines[0] == "row,column,wins,draws,losses,p,n"
    return {tuple(ln.split(",")[:2]): ln.split(",")[2:] for ln in lines[1:]}


def test_wdl_cli_wide_table_with_missing_values(tmp_path):
    t = tmp_path / "t.csv"
    t.write_text("dataset,A,B,C\n"
                 "d1,0.1,0.2,0.3\n"
                 "d2,0.2,—,0.1\n"
                 "d3,0.3 +/- 0.02,0.1,0.3\n"
                 "d4,n/a,0.1,0.2\n")
    r = bnc("wdl", t, "--format", "csv", check=True)
    rows = _csv_rows(r.stdout)
    # A vs B on d1, d3 (d2, d4 missing): win, loss. A vs C on d1, d2, d3: win, loss, draw.
    # B vs C on d1, d3, d4: win, win, win.
    assert rows[("A", "B")][:3] == ["1", "0", "1"] and rows[("A", "B")][4] == "2"
    assert rows[("A", "C")][:3] == ["1", "1", "1"] and rows[("A", "C")][4] == "3"
    assert rows[("B", "C")][:3] == ["3", "0", "0"] and rows[("B", "C")][4] == "3"
    assert float(rows[("B", "C")][3]) == 0.125  # one-tailed, 3 of 3
    md = bnc("wdl", t, check=True).stdout.splitlines()
    assert "  A vs B: 2 used; left out: d2, d4" in md
    assert "  A vs C: 3 used; left out: d4" in md and "  B vs C: 3 used; left out: d2" in md
    assert "metric: values of t.csv (lower is better)" in md
    # a known --metric gives the direction; contradicting it is an error
    hi = _csv_rows(bnc("wdl", t, "--metric", "cll", "--format", "csv", check=True).stdout)
    assert hi[("B", "C")][:3] == ["0", "0", "3"]
    bad = bnc("wdl", t, "--metric", "zol", "--higher-is-better")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
    sub = _csv_rows(bnc("wdl", t, "--datasets", "d1,d3", "--classifiers", "A,C", "--format", "csv",
                        check=True).stdout)
    assert set(sub) == {("A", "C"), ("C", "A")} and sub[("A", "C")][:3] == ["1", "1", "0"]


def test_wdl_cli_wide_table_bad_cell_exit_2(tmp_path):
    t = tmp_path / "t.tsv"
    t.write_text("dataset\tA\tB\nd1\t0.1\t0.2\nd2\t0.1 *\t0.2\n")
    r = bnc("wdl", t)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        f"error: {t}:3: '0.1 *' (A) is not a number, 'mean ± sd', or a missing value (-, –, —, n/a, empty)"]


def test_wdl_refuses_sqlite_file_with_another_suffix(tmp_path, store):
    db = tmp_path / "copy.db"
    shutil.copy(store / "results.sqlite", db)
    r = bnc("wdl", db)
    assert r.returncode == 2 and "SQLite" in r.stderr and len(r.stderr.splitlines()) == 1


# ---------------------------------------------------------------- results stores through the CLI

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return run_store(tmp_path_factory, "rw", SMALL)


@pytest.fixture(scope="module")
def incomplete(store, tmp_path_factory):
    """The store with one of AODE's tasks on car removed: car is incomplete for AODE only."""
    d = tmp_path_factory.mktemp("inc") / "res"
    shutil.copytree(store, d)
    with sqlite3.connect(d / "results.sqlite") as c:
        n = c.execute("DELETE FROM tasks WHERE dataset = 'car' AND label = 'AODE' AND run = 1 AND fold = 0").rowcount
    assert n == 1
    return d


def _long(store, metric="zol", *extra):
    out = bnc("report", store, "--metric", metric, "--format", "csv", *extra, check=True).stdout.splitlines()
    return {(r.split(",")[0], r.split(",")[1]): float(r.split(",")[3]) for r in out[1:]}


@pytest.mark.parametrize("metric", ["zol", "cll"])
def test_report_summary_rows_on_a_store(store, metric):
    from scipy.stats import rankdata

    cells = _long(store, metric)
    ds, labs = ["iris", "labor-negotiations", "car"], ["NB", "KDB1", "AODE"]
    sign = 1 if metric == "zol" else -1
    want_mean = [format(sum(cells[(d, lab)] for d in ds) / 3, ".4f") for lab in labs]
    per_ds = [rankdata([sign * float(format(cells[(d, lab)], ".4f")) for lab in labs]) for d in ds]
    want_rank = [format(sum(r[i] for r in per_ds) / 3, ".2f") for i in range(3)]
    rows = _md_rows(bnc("report", store, "--metric", metric, check=True).stdout)
    assert rows["average rank"] == want_rank
    # a mean over data sets of CLL, a sum over each one's test instances, is not shown
    assert rows["mean"] == want_mean if metric == "zol" else "mean" not in rows


def test_report_summary_rows_zol_hand_checked(store, tmp_path):
    """Every ZOL cell of the small config, the mean row and the average-rank row against errors
    counted from the stored per-instance predictions (`bncbench export --predictions`): per run
    the wrong predictions over the instances, the mean of the 2 runs; ranks per data set on the
    printed values (1 = lowest, equal values share the mean rank), averaged."""
    bnc("export", store, "--format", "csv", "--predictions", "--out", tmp_path / "exp", check=True)
    ds, labs = ["iris", "labor-negotiations", "car"], ["NB", "KDB1", "AODE"]
    zol = {}
    for d in ds:
        _, by_label = recompute.read_predictions(tmp_path / "exp", d)
        for lab in labs:
            rows = by_label[lab]
            errors = [sum(r["predicted"] != r["true"] for r in rows if r["run"] == k) for k in (0, 1)]
            n = [sum(1 for r in rows if r["run"] == k) for k in (0, 1)]
            assert n[0] == n[1] > 0
            zol[(d, lab)] = (errors[0] / n[0] + errors[1] / n[1]) / 2
            pooled = (errors[0] + errors[1]) / (2 * n[0])
            assert pooled == pytest.approx(recompute.instance_metric(rows, "zol")[0], abs=1e-15)
    rows = _md_rows(bnc("report", store, check=True).stdout)
    printed = {d: [float(format(zol[(d, lab)], ".4f")) for lab in labs] for d in ds}
    for d in ds:
        assert [c.split(" ± ")[0] for c in rows[d]] == [format(zol[(d, lab)], ".4f") for lab in labs], d
    assert rows["mean"] == [format(sum(zol[(d, lab)] for d in ds) / 3, ".4f") for lab in labs]
    assert rows["average rank"] == [format(r, ".2f") for r in recompute.average_ranks(printed)]


def test_report_filters(store):
    r = bnc("report", store / "results.sqlite", "--datasets", "car,iris", "--classifiers", "AODE,NB",
            "--format", "csv", check=True)
    pairs = [tuple(ln.split(",")[:2]) for ln in r.stdout.splitlines()[1:]]
    assert sorted(pairs) == sorted([("iris", "NB"), ("iris", "AODE"), ("car", "NB"), ("car", "AODE")])
    md = bnc("report", store, "--datasets", "iris", check=True).stdout
    assert "labor-negotiations" not in md and "| iris" in md
    bad = bnc("report", store, "--classifiers", "NBB")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "NBB" in bad.stderr


def test_report_incomplete_store(incomplete):
    r = bnc("report", incomplete, check=True)
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("warning: incomplete")
    rows = _md_rows(r.stdout)
    assert rows["car"][2] == "n/a"
    assert "mean (2 of 3 data sets)" in rows and "average rank (2 of 3 data sets)" in rows
    c = bnc("report", incomplete, "--format", "csv", check=True)
    assert "mean" not in c.stdout.split("\n", 1)[1] and c.stdout.count("\n") == 1 + 9


def test_wdl_incomplete_store_leaves_out_data_set_for_every_pair(store, incomplete):
    r = bnc("wdl", incomplete, "--format", "csv", check=True)
    err = r.stderr.splitlines()
    assert len(err) == 2 and err[0].startswith("warning: incomplete")
    assert err[1] == "wdl: left out 1 incomplete data set(s): car"
    rows = _csv_rows(r.stdout)
    assert all(v[4] == "2" for v in rows.values())  # every pair: iris and labor-negotiations
    same = _csv_rows(bnc("wdl", store, "--datasets", "iris,labor-negotiations", "--format", "csv",
                         check=True).stdout)
    assert rows == same
    # hand-checked from the zol cells: NB vs KDB1 1-0-1, AODE beats both on iris and labor
    assert rows[("NB", "KDB1")][:3] == ["1", "0", "1"] and rows[("AODE", "NB")][:3] == ["2", "0", "0"]
    md = bnc("wdl", incomplete, check=True).stdout
    assert "data sets: 2 of 3 used; left out as incomplete for every pair: car" in md
    # car is complete for NB and KDB1: a matrix of those two keeps it
    r2 = bnc("wdl", incomplete, "--rows", "NB", "--columns", "KDB1", "--format", "csv", check=True)
    assert len(r2.stderr.splitlines()) == 1 and _csv_rows(r2.stdout)[("NB", "KDB1")][4] == "3"


def test_wdl_store_states_settings(store):
    md = bnc("wdl", store, "--draw", "relative:0.05", "--draws", "ignore", "--tails", "two",
             check=True).stdout.splitlines()
    assert "data sets: 3, all used" in md and "metric: zol (lower is better)" in md
    assert "draw: |a−b| ≤ 0.05·max(|a|, |b|) (--draw relative:0.05)" in md
    assert any(ln.startswith("sign test: two-tailed") and "draws ignored" in ln for ln in md)
    r = bnc("wdl", store, "--higher-is-better")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1


def test_user_data_set_with_a_catalog_name_gets_no_marker(tmp_path):
    shutil.copy(ROOT / "datasets" / "mirror" / "arff" / "iris.arff", tmp_path / "mine.arff")
    cfg = tmp_path / "user.yaml"
    cfg.write_text(f"name: user\ndatasets: [{{name: poker-hand, path: {tmp_path / 'mine.arff'}}}]\n"
                   "cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}\nclassifiers: [NB, AODE]\n")
    res = tmp_path / "res"
    bnc("run", cfg, "--results", res, "--quiet", check=True)
    with open_results(res) as r:
        assert r.differences(["poker-hand"]) == {}
    md = bnc("report", res, check=True).stdout
    assert "†" not in md and "| poker-hand " in md


@pytest.mark.mirror
def test_marker_for_a_catalog_difference(tmp_path):
    if not (SHARED_UCI / "arff" / "glass.arff").is_file():
        need("BNCBENCH_REQUIRE_MIRROR", f"glass.arff is not in the UCI mirror {SHARED_UCI}")
    cfg = tmp_path / "g.yaml"
    cfg.write_text("name: g\ndatasets: [iris, glass-id]\ncv: {scheme: stratified, folds: 3, runs: 1, seed: 1}\n"
                   "classifiers: [NB, AODE]\n")
    res = tmp_path / "res"
    bnc("run", cfg, "--results", res, "--quiet", env={"BNCBENCH_MIRROR": str(SHARED_UCI),
                                                      "BNCBENCH_CACHE": str(tmp_path / "cache")}, check=True)
    md = bnc("report", res, check=True).stdout.splitlines()
    assert any(ln.startswith("| glass-id † ") for ln in md) and any(ln.startswith("| iris ") for ln in md)
    legend = [ln for ln in md if ln.startswith("†")]
    assert len(legend) == 1 and legend[0].startswith("† our version differs from the paper's: glass-id: the UCI/Weka")
    w = bnc("wdl", res, check=True).stdout.splitlines()
    assert any(ln.startswith("† our version differs from the paper's: glass-id:") for ln in w)
    assert "†" not in bnc("report", res, "--format", "csv", check=True).stdout


# ---------------------------------------------------------------- help texts

@pytest.mark.parametrize("command", ["report", "wdl"])
def test_help_has_examples_metavars_and_every_metric(command):
    r = bnc(command, "--help", env={"COLUMNS": "80"}, check=True)
    text = r.stdout
    assert "Examples:" in text and f"bncbench {command} results/" in text
    assert "--metric METRIC" in text and "--format FORMAT" in text and "--datasets A,B" in text
    assert "--classifiers L1,L2" in text
    assert "<str>" not in text and "{" not in text
    assert all(len(ln) <= 80 for ln in text.splitlines()), [ln for ln in text.splitlines() if len(ln) > 80]
    for m in METRICS:
        assert f" {m}" in text, m
