"""The corrected resampled t-test of `wdl --draw ttest` against a hand-worked example, scipy's paired
t-test and Weka 3.6 (PairedStatsCorrected, and PairedCorrectedTTester's verdicts on the per-fold
results of Weka's own Experimenter)."""

import csv
import math
import subprocess
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from bncbench.data.sources import SHIPPED_MIRROR
from bncbench.evaluate.stats import draw_words, parse_draw
from bncbench.evaluate.ttest import corrected_ttest, verdict
from bncbench.evaluate.wdl import matrix, outcomes
from bncbench.results import FoldValues
from tests.support.weka import JAVA, paired_corrected_tester

# 5 folds (n_test / n_train = 1/4): d = (0.02, 0.05, 0.04, 0, 0.04), mean 0.03, var 4e-4, so
# t = 0.03 / sqrt((1/5 + 1/4) · 4e-4) = sqrt(5), df = 4; with Student's t of 4 degrees of freedom,
# P(|T| ≤ t) = (3x − x³)/2 for x = t / sqrt(4 + t²) = sqrt(5)/3, so p = 1 − 11·sqrt(5)/27 = 0.08901.
A = [0.80, 0.85, 0.90, 0.75, 0.80]
B = [0.78, 0.80, 0.86, 0.75, 0.76]


def test_hand_worked_example():
    r = corrected_ttest(np.array(A), np.array(B), 0.25)
    assert r.t == pytest.approx(math.sqrt(5), rel=1e-12)
    assert r.df == 4
    assert r.p == pytest.approx(1 - 11 * math.sqrt(5) / 27, rel=1e-12)
    assert verdict(np.array(A), np.array(B), 0.25, 0.05, lower_is_better=False) == 0  # p = 0.089 > 0.05
    assert verdict(np.array(A), np.array(B), 0.25, 0.10, lower_is_better=False) == 1  # A higher: better
    assert verdict(np.array(A), np.array(B), 0.25, 0.10, lower_is_better=True) == -1  # A higher: worse
    assert verdict(np.array(B), np.array(A), 0.25, 0.10, lower_is_better=True) == 1


@pytest.mark.parametrize("seed", range(6))
def test_ratio_zero_is_scipys_paired_t_test(seed):
    from scipy.stats import ttest_rel

    rng = np.random.default_rng(seed)
    J = int(rng.integers(3, 60))
    a = rng.normal(0.2, 0.05, J)
    b = a + rng.normal(0.01 * seed, 0.03, J)
    want = ttest_rel(a, b)
    got = corrected_ttest(a, b, 0.0)
    assert got.t == pytest.approx(want.statistic, rel=1e-12)
    assert got.p == pytest.approx(want.pvalue, rel=1e-9, abs=1e-300)
    assert got.df == J - 1


def test_correction_divides_t_by_the_variance_factor():
    from scipy.stats import t as t_dist

    rng = np.random.default_rng(7)
    a, b = rng.normal(0.3, 0.1, 30), rng.normal(0.28, 0.1, 30)
    plain = corrected_ttest(a, b, 0.0).t
    got = corrected_ttest(a, b, 1 / 9)  # 10-fold CV: n_test / n_train = 1/9
    assert got.t == pytest.approx(plain * math.sqrt((1 / 30) / (1 / 30 + 1 / 9)), rel=1e-12)
    assert got.p == pytest.approx(2 * t_dist.sf(abs(got.t), 29), rel=1e-12)


def test_degenerate_cases_as_weka():
    same = corrected_ttest(np.array([0.1, 0.2, 0.3]), np.array([0.1, 0.2, 0.3]), 0.5)
    assert (same.t, same.p) == (0.0, 1.0)  # every difference 0: no difference
    shifted = corrected_ttest(np.array([0.15, 0.25, 0.35]), np.array([0.1, 0.2, 0.3]), 0.5)
    assert shifted.p == 0.0 and shifted.t == math.inf  # the same difference on every fold: significant
    assert verdict(np.array([0.15, 0.25, 0.35]), np.array([0.1, 0.2, 0.3]), 0.5, 0.01, True) == -1
    one = corrected_ttest(np.array([0.9]), np.array([0.1]), 0.5)
    assert one.p == 1.0 and one.df == 0  # one fold: nothing to test
    tiny = corrected_ttest(np.array([1.0, 1.0, 1.0]), np.array([1.0, 1.0, 1.0 - 1e-7]), 0.1)
    assert tiny.p == 0.0  # sd(d) ≤ 1e-6 (Weka's Utils.SMALL) with a difference: significant


def test_draw_rule_parsing_and_words():
    assert parse_draw("ttest") == ("ttest", 0.05)
    assert parse_draw("ttest:0.01") == ("ttest", 0.01)
    for bad in ("ttest:2", "ttest:0", "ttest:1", "ttest:x", "ttest:", "ttest:nan", "ttests", "relative:-1"):
        with pytest.raises(ValueError, match="ttest\\[:ALPHA\\]"):
            parse_draw(bad)
    assert draw_words("ttest:0.01") == "no significant difference on the folds (corrected resampled t-test, α = 0.01)"


def test_outcomes_need_the_folds_and_skip_data_sets_without_them():
    values = {("x", "A"): (0.8, 0.0), ("x", "B"): (0.5, 0.0), ("y", "A"): (0.8, 0.0), ("y", "B"): (0.5, 0.0)}
    folds = FoldValues("zol", "stratified", ["x"], ["A", "B"], {("x", "A"): np.array(A), ("x", "B"): np.array(B)},
                       {"x": 1}, {"x": np.full(5, 40.0)}, {"x": np.full(5, 10.0)}, {"y": "the classifiers were run on "
                                                                                     "different folds"})
    with pytest.raises(ValueError):
        outcomes(["x", "y"], values, "A", "B", "ttest", True)
    assert outcomes(["x", "y"], values, "A", "B", "ttest:0.1", True, folds) == [-1, None]
    assert outcomes(["x", "y"], values, "A", "B", "exact4", True) == [-1, -1]  # the means alone


# -- Weka 3.6 ---------------------------------------------------------------------------------
@pytest.mark.weka
def test_p_and_significance_equal_wekas_paired_stats_corrected(weka, tmp_path):
    rng = np.random.default_rng(3)
    cases = [(0.25, 0.05, A, B), (0.5, 0.05, [0.1, 0.2, 0.3], [0.1, 0.2, 0.3]),
             (0.5, 0.05, [0.15, 0.25, 0.35], [0.1, 0.2, 0.3]), (0.5, 0.05, [0.9], [0.1])]
    for i in range(12):
        J = int(rng.integers(2, 40))
        x = np.round(rng.normal(80, 5, J), 6)
        cases.append((float(rng.choice([0.0, 1 / 9, 0.5, 1.0])), float(rng.choice([0.05, 0.01, 0.2])),
                      list(x), list(np.round(x + rng.normal(i - 5, 3, J), 6))))
    lines = [f"{r!r} {al!r} {','.join(map(repr, map(float, x)))} {','.join(map(repr, map(float, y)))}"
             for r, al, x, y in cases]
    (tmp_path / "cases.txt").write_text("\n".join(lines) + "\n")
    got = weka("ttest", str(tmp_path / "cases.txt")).split("\n")
    assert len(got) == len(cases) + 1
    for (ratio, alpha, a, b), line in zip(cases, got):
        p, sig = line.split()
        ours = corrected_ttest(np.array(a), np.array(b), ratio)
        assert ours.p == pytest.approx(float(p), rel=1e-9, abs=1e-15), (ratio, a, b)
        assert verdict(np.array(a), np.array(b), ratio, alpha, lower_is_better=False) == int(sig), (ratio, alpha, a, b)


SCHEMES = ("weka.classifiers.rules.ZeroR", "weka.classifiers.bayes.NaiveBayes", "weka.classifiers.trees.J48")
ARFFS = ("iris.arff", "labor.arff", "vote.arff")


@pytest.fixture(scope="module")
def experimenter(weka, tmp_path_factory):
    """Weka's Experimenter, 10 runs of 10-fold CV of ZeroR, NaiveBayes and J48 on iris, labor and
    vote (one Experiment per scheme, at once), merged into one results ARFF as the Experimenter's
    InstancesResultListener would write it (only the columns the tester reads, values verbatim)."""
    d = tmp_path_factory.mktemp("experimenter")

    def run(scheme: str) -> str:
        out = d / f"{scheme.rsplit('.', 1)[1]}.csv"
        args = [*JAVA, "weka.experiment.Experiment", "-r", "-L", "1", "-U", "10",
                *[x for a in ARFFS for x in ("-T", str(SHIPPED_MIRROR / "arff" / a))],
                "-D", f"weka.experiment.CSVResultListener -O {out}",
                "-P", "weka.experiment.CrossValidationResultProducer", "--", "-X", "10",
                "-W", "weka.experiment.ClassifierSplitEvaluator", "--", "-W", scheme]
        subprocess.run(args, check=True, capture_output=True, cwd=d)
        return out.read_text()

    with ThreadPoolExecutor(len(SCHEMES)) as pool:
        texts = list(pool.map(run, SCHEMES))
    cols = ["Key_Dataset", "Key_Run", "Key_Fold", "Key_Scheme", "Number_of_training_instances",
            "Number_of_testing_instances", "Percent_correct"]
    rows = [[r[c] for c in cols] for text in texts for r in csv.DictReader(text.splitlines())]
    datasets = list(dict.fromkeys(r[0] for r in rows))
    arff = d / "results.arff"
    arff.write_text("@relation results\n"
                    f"@attribute Key_Dataset {{{','.join(datasets)}}}\n"
                    "@attribute Key_Run numeric\n@attribute Key_Fold numeric\n"
                    f"@attribute Key_Scheme {{{','.join(SCHEMES)}}}\n"
                    + "".join(f"@attribute {c} numeric\n" for c in cols[4:])
                    + "@data\n" + "".join(",".join(r) + "\n" for r in rows))
    return arff, datasets, rows


def _tester(arff, base: int, alpha: float) -> dict[tuple[str, int], str]:
    """PairedCorrectedTTester's marks against resultset `base` (1-based)."""
    return paired_corrected_tester(arff, base, alpha)


def _fold_values(datasets, rows) -> FoldValues:
    """Weka's per-fold Percent_correct as bncbench's FoldValues (labels = the schemes' indexes 1..3)."""
    fv = FoldValues("accuracy", "stratified", list(datasets), [str(i + 1) for i in range(len(SCHEMES))],
                    {}, {}, {}, {})
    for ds in datasets:
        for i, scheme in enumerate(SCHEMES):
            mine = sorted((float(r[1]), float(r[2]), float(r[4]), float(r[5]), float(r[6]))
                          for r in rows if r[0] == ds and r[3] == scheme)
            fv.values[(ds, str(i + 1))] = np.array([m[4] for m in mine])
            fv.n_train[ds], fv.n_test[ds] = np.array([m[2] for m in mine]), np.array([m[3] for m in mine])
            fv.runs[ds] = len({m[0] for m in mine})
    return fv


@pytest.mark.weka
@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_verdicts_equal_wekas_paired_corrected_ttester(experimenter, alpha):
    arff, datasets, rows = experimenter
    folds = _fold_values(datasets, rows)
    assert len(datasets) == 3 and all(len(v) == 100 for v in folds.values.values())
    labels = folds.labels
    means = {k: (float(v.mean()), 0.0) for k, v in folds.values.items()}
    mat = matrix(datasets, labels, means, f"ttest:{alpha}", False, "split", "one", folds)
    seen = set()
    for base in (1, 2):
        marks = _tester(arff, base, alpha)
        assert {other for _, other in marks} == {i for i in (1, 2, 3) if i != base}
        wins = draws = losses = 0
        for (ds, other), mark in marks.items():
            ours = verdict(folds.values[(ds, str(base))], folds.values[(ds, str(other))],
                           folds.test_train_ratio(ds), alpha, lower_is_better=False)
            assert {1: "*", 0: "", -1: "v"}[ours] == mark, (ds, base, other, alpha)
            seen.add(mark)
            if other == 3:  # the base against J48 over the 3 data sets, as the matrix counts it
                wins, draws, losses = wins + (mark == "*"), draws + (mark == ""), losses + (mark == "v")
        r = mat[(str(base), "3")][0]
        assert (r.wins, r.draws, r.losses) == (wins, draws, losses)
    assert seen == {"v", "*", ""}  # wins, losses and draws all occur

