"""`report --base LABEL [--draw TEST]`: each cell against the base classifier on its data set
(evaluate/versus_base.py), against a hand-worked example, and against Weka 3.6's
PairedCorrectedTTester on the per-fold values of a real store (its `v`/`*` through the metric's
direction); the md, latex, csv and html outputs and the refusals."""

import csv
import math
import re
import subprocess
from collections import defaultdict

import numpy as np
import pytest

from bncbench.errors import UserError
from bncbench.evaluate.report import format_report
from bncbench.evaluate.values import FoldValues
from bncbench.evaluate.versus_base import judge, parse_test, versus_base
from tests.evaluate.test_latex import tex_tables
from tests.support.cli import SMALL, bnc_in, cli, run_store
from tests.support.predictions import read_predictions
from tests.support.weka import paired_corrected_tester

# The hand-worked t-test of tests/evaluate/test_ttest.py: 5 folds, n_test / n_train = 1/4,
# d = A − B = (0.02, 0.05, 0.04, 0, 0.04): t = sqrt(5), df = 4, p = 1 − 11·sqrt(5)/27 = 0.08901.
A = [0.80, 0.85, 0.90, 0.75, 0.80]
B = [0.78, 0.80, 0.86, 0.75, 0.76]
P_AB = 1 - 11 * math.sqrt(5) / 27


def _folds(pairs: dict[str, tuple[list[float], list[float]]], left_out: dict[str, str] | None = None) -> FoldValues:
    """The per-fold values of one (base, other) pair: {data set: (other's, base's)}; 5 folds of 10
    test and 40 training rows each."""
    fv = FoldValues("accuracy", "stratified", list(pairs), ["B", "X"], {}, {}, {}, {}, dict(left_out or {}))
    for d, (x, b) in pairs.items():
        fv.values[(d, "X")], fv.values[(d, "B")] = np.array(x), np.array(b)
        fv.runs[d], fv.n_train[d], fv.n_test[d] = 1, np.full(len(x), 40.0), np.full(len(x), 10.0)
    return fv


def _relabel(fv: FoldValues, label: str) -> FoldValues:
    fv.labels = ["B", label]
    fv.values = {(d, label if lab == "X" else lab): v for (d, lab), v in fv.values.items()}
    return fv


def test_hand_worked_t_test_in_the_metrics_direction():
    # data set x: A against the base B, p = 0.089; C equals the base on every fold (p = 1);
    # data set y: A's pair has no paired fold values (left out), C is 0.1 below the base on every fold
    # (Weka: the same nonzero difference on every fold is significant)
    folds = {"A": _relabel(_folds({"x": (A, B)}, {"y": "the classifiers were run on different folds"}), "A"),
             "C": _relabel(_folds({"x": (B, B), "y": ([b - 0.1 for b in B], B)}), "C")}
    for alpha, lower, want_a in ((0.05, False, 0), (0.10, False, 1), (0.10, True, -1)):
        v = versus_base("B", ["B", "A", "C"], ["x", "y"], folds, "ttest", alpha, lower)
        assert v.verdicts[("x", "A")].sign == want_a
        assert v.verdicts[("x", "A")].p == pytest.approx(P_AB, rel=1e-12)
        assert v.verdicts[("x", "C")].sign == 0 and v.verdicts[("x", "C")].p == 1.0
        assert v.verdicts[("y", "C")].sign == (1 if lower else -1) and v.verdicts[("y", "C")].p == 0.0
        assert v.untested == {("y", "A"): "the classifiers were run on different folds"}
        assert ("x", "B") not in v.verdicts and ("y", "B") not in v.verdicts
        c = "(0/1/1)" if not lower else "(1/1/0)"
        a = {0: "(0/1/0)", 1: "(1/0/0)", -1: "(0/0/1)"}[want_a]
        assert v.count_row(["B", "A", "C"]) == ["(better/equal/worse)", "", a, c]
    v = versus_base("B", ["B", "A", "C"], ["x", "y"], folds, "ttest", 0.10, False)  # accuracy: higher is better
    values = {("x", "B"): (0.788, 0.01), ("x", "A"): (0.82, 0.01), ("x", "C"): (0.788, 0.01),
              ("y", "B"): (0.788, 0.01), ("y", "A"): (math.nan, math.nan), ("y", "C"): (0.688, 0.01)}
    md = format_report(["x", "y"], ["B", "A", "C"], values, "accuracy", "md", versus=v)
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]] for line in md.splitlines()
            if line.startswith("| ")}
    assert rows["x"] == ["0.7880 ± 0.0100", "0.8200 ± 0.0100 ∘", "0.7880 ± 0.0100"]
    assert rows["y"] == ["0.7880 ± 0.0100", "n/a", "0.6880 ± 0.0100 •"]
    assert rows["(better/equal/worse)"] == ["", "(1/0/0)", "(0/1/1)"]
    assert rows["mean (1 of 2 data sets)"][1] == "0.8200"  # the marks are no part of the values summarised
    assert ("∘ significantly better, • significantly worse than B on the data set (higher is better): the corrected "
            "resampled t-test on the paired folds (Nadeau & Bengio 2003, as Weka's Experimenter), two-tailed, "
            "α = 0.1") in md
    assert "not tested against B (the classifiers were run on different folds): A on y" in md


def test_hand_worked_wilcoxon():
    # 6 folds, every difference positive and distinct: R+ = 21, R− = 0, exact two-sided p = 2/2^6;
    # 5 such folds: p = 2/2^5 = 0.0625
    base = [0.5, 0.6, 0.7, 0.8, 0.9, 0.4]
    six = [b + 0.01 * (i + 1) for i, b in enumerate(base)]
    got = judge(np.array(six), np.array(base), 0.25, "wilcoxon", 0.05, lower_is_better=True)
    assert got.sign == -1 and got.p == pytest.approx(2 / 64, rel=1e-12)  # higher error: worse
    assert judge(np.array(six), np.array(base), 0.25, "wilcoxon", 0.05, lower_is_better=False).sign == 1
    five = judge(np.array(six[:5]), np.array(base[:5]), 0.25, "wilcoxon", 0.05, lower_is_better=True)
    assert five.sign == 0 and five.p == pytest.approx(2 / 32, rel=1e-12)
    same = judge(np.array(base), np.array(base), 0.25, "wilcoxon", 0.05, lower_is_better=True)
    assert (same.sign, same.p) == (0, 1.0)


def test_test_parsing():
    assert parse_test("ttest") == ("ttest", 0.05)
    assert parse_test("ttest:0.01") == ("ttest", 0.01)
    assert parse_test("wilcoxon") == ("wilcoxon", 0.05)
    assert parse_test("wilcoxon:0.1") == ("wilcoxon", 0.1)
    for bad in ("exact4", "relative:0.05", "ttest:2", "ttest:", "wilcoxon:0", "wilcoxon:x", "sign"):
        with pytest.raises(ValueError, match=r"is not 'ttest\[:ALPHA\]' .* or 'wilcoxon\[:ALPHA\]'"):
            parse_test(bad)


# -- on a store --------------------------------------------------------------------------------
LABELS = ["NB", "KDB1", "AODE"]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """SMALL (3 data sets, NB, KDB1, AODE, 3-fold CV twice), its predictions exported as CSV."""
    res = run_store(tmp_path_factory, "versus", SMALL)
    bnc_in("export", res, "--format", "csv", "--predictions", "--out", res.parent / "export", check=True)
    return res


def _csv_words(text: str) -> dict[tuple[str, str], str]:
    return {(r["dataset"], r["classifier"]): r["versus_base"] for r in csv.DictReader(text.splitlines())}


def _md_marks(text: str) -> dict[tuple[str, str], str]:
    lines = [ln for ln in text.splitlines() if ln.startswith("| ")]
    header = [c.strip() for c in lines[0].split("|")[2:-1]]
    out = {}
    for ln in lines[1:]:
        cells = [c.strip() for c in ln.split("|")[1:-1]]
        if cells[0] in ("mean", "average rank", "(better/equal/worse)"):
            continue
        for lab, c in zip(header, cells[1:]):
            out[(cells[0], lab)] = {"∘": "better", "•": "worse"}.get(c[-1], "")
    return out


def _exported_folds(store) -> dict[tuple[str, str], list[tuple[int, int, int, float]]]:
    """{(data set, label): [(run, fold, test rows, zol)] in (run, fold) order} from the exported predictions."""
    out = {}
    for ds in ("iris", "labor-negotiations", "car"):
        _, rows = read_predictions(store.parent / "export", ds)
        for label, rs in rows.items():
            folds = defaultdict(list)
            for r in rs:
                folds[(r["run"], r["fold"])].append(r["predicted"] != r["true"])
            out[(ds, label)] = [(run, fold, len(v), sum(v) / len(v)) for (run, fold), v in sorted(folds.items())]
    return out


def _weka_marks(tmp_path, exported, metric: str, base: str, alpha: float) -> dict[tuple[str, str], str]:
    """Weka 3.6's PairedCorrectedTTester on the exported per-fold values of `metric` (zol, or
    accuracy = 100 (1 − zol)) against resultset `base`: {(data set, label): 'v' (higher than the
    base, significantly), '*' (lower) or ''}, from the results ARFF its Experimenter would write."""
    datasets = list(dict.fromkeys(d for d, _ in exported))
    lines = []
    for (d, lab), folds in exported.items():
        total = {run: sum(n for r, _, n, _ in folds if r == run) for run, _, _, _ in folds}
        for run, fold, n, zol in folds:
            value = zol if metric == "zol" else 100 * (1 - zol)
            lines.append(f"{d},{run + 1},{fold + 1},{lab},{total[run] - n},{n},{value!r}\n")
    arff = tmp_path / f"{metric}.arff"
    arff.write_text("@relation results\n"
                    f"@attribute Key_Dataset {{{','.join(datasets)}}}\n"
                    "@attribute Key_Run numeric\n@attribute Key_Fold numeric\n"
                    f"@attribute Key_Scheme {{{','.join(LABELS)}}}\n"
                    "@attribute Number_of_training_instances numeric\n"
                    "@attribute Number_of_testing_instances numeric\n"
                    "@attribute value numeric\n@data\n" + "".join(lines))
    marks = paired_corrected_tester(arff, LABELS.index(base) + 1, alpha)
    return {(d, LABELS[other - 1]): mark for (d, other), mark in marks.items()}


@pytest.mark.weka
@pytest.mark.parametrize("alpha", [0.05, 0.2])
def test_marks_are_wekas_experimenters_through_the_metrics_direction(weka, store, tmp_path, alpha):
    exported = _exported_folds(store)
    seen = set()
    for metric, higher in (("zol", {"v": "worse", "*": "better", "": ""}),
                           ("accuracy", {"v": "better", "*": "worse", "": ""})):
        for base in LABELS:
            marks = _weka_marks(tmp_path, exported, metric, base, alpha)
            assert {lab for _, lab in marks} == set(LABELS) - {base} and len(marks) == 6
            ours = _csv_words(cli("report", store, "--metric", metric, "--base", base, "--draw", f"ttest:{alpha}",
                                  "--format", "csv"))
            assert {k: w for k, w in ours.items() if k[1] != base} == {k: higher[m] for k, m in marks.items()}, \
                (metric, base, alpha)
            assert all(w == "" for (_, lab), w in ours.items() if lab == base)
            seen |= set(ours.values())
    assert seen == {"better", "worse", ""}  # both marks and unmarked cells occur


def test_md_latex_and_csv_mark_the_same_cells_and_count_them(store):
    csv_text = cli("report", store, "--base", "NB", "--format", "csv")
    words = _csv_words(csv_text)
    assert csv_text.splitlines()[0] == "dataset,classifier,metric,mean,sd,versus_base"
    md = cli("report", store, "--base", "NB")
    assert md == cli("report", store, "--base", "NB", "--draw", "ttest:0.05")  # the default test
    assert _md_marks(md) == words
    assert "better" in words.values()
    count = next(ln for ln in md.splitlines() if ln.startswith("| (better/equal/worse)"))
    cells = [c.strip() for c in count.split("|")[2:-1]]

    def n(word: str, lab: str) -> int:
        return sum(1 for (_, b), w in words.items() if b == lab and w == word)

    want = [""] + [f"({n('better', lab)}/{n('', lab)}/{n('worse', lab)})" for lab in LABELS[1:]]
    assert cells == want
    tex = cli("report", store, "--base", "NB", "--format", "latex")
    [(_, rows, firsts)] = tex_tables(tex)  # each cell's text: its mean, sd and mark
    for d, row in list(zip(firsts, rows))[:3]:
        for lab, (c, _) in zip(LABELS, row):
            assert c.endswith(r"$\circ$") == (words[(d, lab)] == "better"), (d, lab, c)
            assert c.endswith(r"$\bullet$") == (words[(d, lab)] == "worse"), (d, lab, c)
    assert [c for c, _ in dict(zip(firsts, rows))["(better/equal/worse)"]] == want
    assert (r"$\circ$ significantly better, $\bullet$ significantly worse than NB on the data set "
            r"(lower is better)") in tex
    # the values themselves are those of the table without --base
    plain = cli("report", store, "--format", "csv")
    assert [ln.rsplit(",", 1)[0] for ln in csv_text.splitlines()[1:]] == plain.splitlines()[1:]


def test_html_marks_every_metric_with_per_fold_values(store):
    page = cli("report", store, "--format", "html", "--base", "KDB1", "--draw", "wilcoxon:0.3")
    words = _csv_words(cli("report", store, "--base", "KDB1", "--draw", "wilcoxon:0.3", "--format", "csv"))
    table = page.split('id="metric-zol"')[1].split("</table>")[0]
    for (d, lab), w in words.items():
        row = table.split(f'<th scope="row">{d}</th>')[1].split("</tr>")[0]
        cell = re.findall(r"<td[^>]*>[^<]*</td>", row)[LABELS.index(lab)]
        assert cell.endswith({"better": " ∘</td>", "worse": " •</td>", "": "</td>"}[w]), (d, lab, cell)
        if w:
            assert f"significantly {w} than KDB1 (p = " in cell and ("win" if w == "better" else "loss") in cell
    assert "(better/equal/worse)</th><td>" in table
    assert "Wilcoxon&#39;s signed-ranks test on the paired folds" in page
    assert "not marked against KDB1: bias has no value per fold" in page  # SMALL has 2 runs: bias has a table


@pytest.mark.parametrize("args,message", [
    (["--base", "TAN"], r"--base: no column 'TAN' in the zol table; its classifiers: NB, KDB1, AODE"),
    (["--base", "NB", "--classifiers", "KDB1,AODE"], r"--base: no column 'NB' in the zol table; its classifiers: "
                                                      r"KDB1, AODE"),
    (["--base", "NB", "--metric", "bias"], r"--base: bias has no value per fold \(Kohavi–Wolpert over runs\)"),
    (["--draw", "ttest"], r"--draw is for --base LABEL"),
    (["--base", "NB", "--draw", "exact4"], r"--draw: 'exact4' is not 'ttest\[:ALPHA\]'"),
    (["--base", "NB", "--draw", "ttest:1"], r"--draw: 'ttest:1' is not 'ttest\[:ALPHA\]'"),
    (["--base", "NB", "--label-metric", "AODE=rmse"], r"--base compares every column in --metric"),
    (["--base", "TAN", "--format", "html"], r"--base: no column 'TAN'"),
])
def test_refused_in_one_line(store, args, message):
    r = bnc_in("report", store, *args)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert re.search(message, r.stderr), r.stderr
    assert r.stdout == ""


def test_a_cell_without_paired_folds_is_left_unmarked_and_named(store, tmp_path):
    import shutil
    import sqlite3

    res = tmp_path / "res"
    shutil.copytree(store, res)
    with sqlite3.connect(res / "results.sqlite") as c:
        assert c.execute("DELETE FROM tasks WHERE dataset = 'car' AND label = 'AODE' AND run = 1 AND fold = 2").rowcount
    md = cli("report", res, "--base", "NB")
    assert "not tested against NB (a classifier has unfinished or no tasks): AODE on car" in md
    assert _md_marks(md)[("car", "AODE")] == ""
    assert _md_marks(md)[("car", "KDB1")] == "better"  # KDB1's pair with NB is complete on car
    with pytest.raises(UserError):
        cli("report", res, "--base", "NB", "--metric", "variance")


def test_latex_compiles_with_both_marks(store, tmp_path):
    from tests.evaluate.test_latex import compile_latex

    tex = cli("report", store, "--base", "AODE", "--format", "latex")
    words = _csv_words(cli("report", store, "--base", "AODE", "--format", "csv"))
    assert {"better", "worse"} <= set(words.values())  # on car, NB is worse than AODE and KDB1 better
    compile_latex(tex, tmp_path)
    text = subprocess.run(["pdftotext", "-layout", tmp_path / "doc.pdf", "-"], capture_output=True, text=True,
                          check=True).stdout
    assert text.count("◦") == list(words.values()).count("better") + 1  # the cells, then the legend
    assert text.count("•") == list(words.values()).count("worse") + 1
    assert "◦ significantly better, • significantly worse than AODE on the data set (lower is better)" in text
    # the count row's name on two lines, its counts on the second
    assert re.search(r"\(better/equal/\s+worse\)\s+\(\d/\d/\d\)\s+\(\d/\d/\d\)", text), text
