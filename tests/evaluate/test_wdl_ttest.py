"""`wdl --draw ttest[:ALPHA]` on a results store: the per-fold values it reads (Results.fold_values,
checked against the exported predictions and the data sets' sizes), its W/D/L against the t-test
worked out from the export, the config key, the refusals and the other commands under the rule."""

import csv
import math
import re
from collections import defaultdict

import numpy as np
import pytest

from bncbench.config import parse
from bncbench.errors import UserError
from bncbench.results import open as open_results
from tests.support.cli import SMALL, bnc_in, cli
from tests.support.predictions import read_predictions

LABELS = ["NB", "KDB1", "AODE"]
# 3-fold stratified CV, 2 runs: every fold of iris (150), labor-negotiations (57) and car (1728)
# holds a third of the rows, and trains on the other two thirds
SIZES = {"iris": (100, 50), "labor-negotiations": (38, 19), "car": (1152, 576)}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """SMALL run with `wdl: {draw: ttest}` in its config, and its predictions exported as CSV."""
    d = tmp_path_factory.mktemp("ttest")
    cfg = d / "small.yaml"
    cfg.write_text(SMALL + "wdl: {draw: ttest}\n")
    bnc_in("run", cfg, "--results", d / "res", "--quiet", check=True)
    bnc_in("export", d / "res", "--format", "csv", "--predictions", "--out", d / "export", check=True)
    return d


def _exported_zol(store) -> dict[tuple[str, str], list[tuple[int, int, float, int]]]:
    """{(data set, label): [(run, fold, zol, test rows)] in (run, fold) order} from the exported predictions."""
    out = {}
    for ds in SIZES:
        _, rows = read_predictions(store / "export", ds)
        for label, rs in rows.items():
            folds = defaultdict(list)
            for r in rs:
                folds[(r["run"], r["fold"])].append(r["predicted"] != r["true"])
            out[(ds, label)] = [(run, fold, sum(v) / len(v), len(v)) for (run, fold), v in sorted(folds.items())]
    return out


def test_fold_values_are_the_exported_folds_with_the_data_sets_sizes(store):
    exported = _exported_zol(store)
    with open_results(store / "res") as r:
        fv = r.fold_values("zol")
        acc = r.fold_values("accuracy", ["car"], ["NB", "AODE"])
    assert fv.datasets == list(SIZES) and fv.labels == LABELS and not fv.left_out
    for ds, (n_train, n_test) in SIZES.items():
        assert fv.runs[ds] == 2
        assert list(fv.n_test[ds]) == [n_test] * 6 and list(fv.n_train[ds]) == [n_train] * 6
        assert fv.test_train_ratio(ds) == 0.5
        for lab in LABELS:
            want = exported[(ds, lab)]
            assert [(run, fold) for run, fold, _, _ in want] == [(r, f) for r in (0, 1) for f in (0, 1, 2)]
            assert [n for *_, n in want] == [n_test] * 6
            np.testing.assert_allclose(fv.values[(ds, lab)], [z for _, _, z, _ in want], rtol=0, atol=1e-12)
    assert acc.datasets == ["car"] and acc.labels == ["NB", "AODE"]
    np.testing.assert_allclose(acc.values[("car", "AODE")], [100 * (1 - z) for _, _, z, _ in exported[("car", "AODE")]],
                               rtol=0, atol=1e-9)


def test_fold_values_leave_out_a_data_set_with_an_unfinished_cell(store, tmp_path):
    import shutil
    import sqlite3

    res = tmp_path / "res"
    shutil.copytree(store / "res", res)
    with sqlite3.connect(res / "results.sqlite") as c:
        assert c.execute("DELETE FROM tasks WHERE dataset = 'iris' AND label = 'NB' AND run = 1 AND fold = 2").rowcount
    with open_results(res) as r:
        fv = r.fold_values("zol")
    assert fv.datasets == ["labor-negotiations", "car"]
    assert fv.left_out == {"iris": "a classifier has unfinished or no tasks"}
    out = cli("wdl", res, "--draw", "ttest")
    assert "left out as incomplete for every pair: iris" in out


def _oracle_wdl(store, alpha: float) -> dict[tuple[str, str], tuple[int, int, int]]:
    """W/D/L of every ordered pair from the exported per-fold zol: t = mean(d) / sqrt((1/J + 1/2) var(d)),
    two-tailed p from Student's t with J − 1 degrees of freedom; lower zol is better."""
    from scipy.stats import t as t_dist

    exported = _exported_zol(store)
    out = {}
    for a in LABELS:
        for b in LABELS:
            if a == b:
                continue
            w = dr = lo = 0
            for ds in SIZES:
                d = [x[2] - y[2] for x, y in zip(exported[(ds, a)], exported[(ds, b)])]
                J, mean = len(d), sum(d) / len(d)
                var = sum((x - mean) ** 2 for x in d) / (J - 1)
                if var == 0:  # Weka: no difference (p = 1), or the same difference on every fold (p = 0)
                    p = 1.0 if mean == 0 else 0.0
                else:
                    p = 2 * t_dist.sf(abs(mean / math.sqrt((1 / J + 0.5) * var)), J - 1)
                if p > alpha:
                    dr += 1
                elif mean < 0:
                    w += 1
                else:
                    lo += 1
            out[(a, b)] = (w, dr, lo)
    return out


def _csv_wdl(text: str) -> dict[tuple[str, str], tuple[int, int, int]]:
    rows = list(csv.DictReader(text.splitlines()))
    return {(r["row"], r["column"]): (int(r["wins"]), int(r["draws"]), int(r["losses"])) for r in rows}


@pytest.mark.parametrize("rule,alpha", [("ttest", 0.05), ("ttest:0.01", 0.01), ("ttest:0.3", 0.3)])
def test_wdl_counts_the_t_tests_verdicts(store, rule, alpha):
    got = _csv_wdl(cli("wdl", store / "res", "--draw", rule, "--format", "csv"))
    assert got == _oracle_wdl(store, alpha)


def test_the_config_key_is_the_default_and_the_notes_say_the_rule(store):
    default = cli("wdl", store / "res")
    assert default == cli("wdl", store / "res", "--draw", "ttest:0.05").replace("--draw ttest:0.05", "--draw ttest")
    assert ("draw: a win or loss only where the corrected resampled t-test on the data set's paired folds rejects "
            "equality (two-tailed, α = 0.05; Nadeau & Bengio 2003, as Weka's PairedCorrectedTTester), else a draw "
            "(--draw ttest)") in default
    assert "data sets: 3, all used" in default
    assert "(--draw exact4)" in cli("wdl", store / "res", "--draw", "exact4")
    with pytest.raises(UserError, match=r"the config.s wdl\.draw ttest: variance has no value per fold"):
        cli("wdl", store / "res", "--metric", "variance")
    with pytest.raises(UserError, match=r"--draw ttest: bias has no value per fold \(Kohavi–Wolpert over runs\)"):
        cli("wdl", store / "res", "--metric", "bias", "--draw", "ttest")
    assert default == cli("wdl", store / "res")  # deterministic


def test_config_validates_the_rule():
    parse(SMALL + "wdl: {draw: 'ttest:0.01'}\n")
    for bad in ("'ttest:2'", "'ttest:x'"):
        with pytest.raises(UserError, match=r"wdl.*draw.*ttest\[:ALPHA\]"):
            parse(SMALL + f"wdl: {{draw: {bad}}}\n")


@pytest.mark.parametrize("args,message", [
    (["--draw", "ttest:2"], r"--draw: draw rule 'ttest:2' is not .*'ttest\[:ALPHA\]' \(0 < ALPHA < 1"),
    (["--draw", "ttest:x"], r"--draw: draw rule 'ttest:x' is not"),
])
def test_refused_in_one_line(store, args, message):
    r = bnc_in("wdl", store / "res", *args)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert re.search(message, r.stderr), r.stderr


def test_a_wide_table_is_refused(tmp_path):
    t = tmp_path / "t.tsv"
    t.write_text("dataset\tA\tB\nx\t0.1\t0.2\ny\t0.3\t0.2\n")
    with pytest.raises(UserError, match=r"--draw ttest: the t-test needs each data set's per-fold values, which a wide "
                                        r"table \(.*t.tsv\) does not hold; give a results store"):
        cli("wdl", t, "--draw", "ttest")


def test_gd_figures_and_html_follow_the_rule(store, tmp_path):
    gd = cli("gd", store / "res", "--pairs", "AODE:NB", "--format", "csv").splitlines()
    oracle = _oracle_wdl(store, 0.05)[("AODE", "NB")]
    assert gd[-1].split(",")[-1] == str(oracle[0] - oracle[2])  # wins − losses over the 3 data sets
    from bncbench.reporting.figures import Source, wdl_data

    with open_results(store / "res") as r:
        plot = wdl_data(Source(r), ["AODE"], "zol", 2000)
    assert plot.data["bars"]["AODE"]["< 2000"]["NB"] == oracle
    assert "draws: no significant difference on the folds (corrected resampled t-test, α = 0.05)" in plot.caption
    page = cli("report", store / "res", "--format", "html")
    assert "corrected resampled t-test on the data set&#39;s paired folds" in page
    assert "no paired fold values for the t-test: iris, labor-negotiations, car (bias has no value per fold)" in page


def test_claims_refuse_the_rule(tmp_path):
    from bncbench.evaluate.claims import load

    f = tmp_path / "claims.yaml"
    f.write_text("results: {main: res}\nwdl: {draw: ttest}\nclaims:\n"
                 "  - text: t\n    wdl: {results: main, metric: zol, row: A, column: B, expect: better}\n")
    with pytest.raises(UserError, match=r"wdl.draw: 'ttest' is not supported in a claims file"):
        load(str(f))
