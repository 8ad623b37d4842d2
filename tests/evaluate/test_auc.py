"""The auc metric (docs/algorithms.md §5.7): hand-worked folds with ties, the summary over folds and
runs, scikit-learn's roc_auc_score on every fold of the default experiment's data sets, and a
store whose folds of one class are left out and counted."""

import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from bncbench.evaluate.auc import fold_auc
from bncbench.evaluate.metrics import FoldResult, summarize
from bncbench.results import open as open_results
from tests.support.cli import bnc_in, run_store

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------- hand-worked folds

# Three classes; P(y | x) per test instance, ties of 0.4 and 0.2 within columns:
#
#   row true  P(0)  P(1)  P(2)
#   0   0     0.6   0.2   0.2
#   1   0     0.4   0.4   0.2
#   2   1     0.4   0.5   0.1
#   3   2     0.2   0.3   0.5
#   4   2     0.4   0.2   0.4
#
# Â(i|j): over the pairs (an instance of i, one of j), 1 where P(i|·) is higher on i's, ½ on a tie.
#   (0, 1): Â(0|1): 0.6 > 0.4, 0.4 = 0.4 → 1.5/2 = 0.75;   Â(1|0): 0.5 > 0.2, 0.5 > 0.4 → 1;  A = 0.875
#   (0, 2): Â(0|2): 0.6 > 0.2, 0.6 > 0.4, 0.4 > 0.2, 0.4 = 0.4 → 3.5/4 = 0.875;  Â(2|0): 4/4 = 1;  A = 0.9375
#   (1, 2): Â(1|2): 0.5 > 0.3, 0.5 > 0.2 → 1;  Â(2|1): 0.5 > 0.1, 0.4 > 0.1 → 1;  A = 1
# M = (0.875 + 0.9375 + 1) / 3 = 0.9375. A test set of rows 0–2 holds classes 0 and 1 only: M = A(0, 1).
P3 = np.array([[0.6, 0.2, 0.2], [0.4, 0.4, 0.2], [0.4, 0.5, 0.1], [0.2, 0.3, 0.5], [0.4, 0.2, 0.4]])
Y3 = np.array([0, 0, 1, 2, 2])


def test_hand_and_till_hand_worked_with_ties():
    assert fold_auc(Y3, P3) == 0.9375
    assert fold_auc(Y3[:3], P3[:3]) == 0.875  # only the classes present in the test set


def test_two_classes_hand_worked_with_ties():
    # P(1 | x) of the class-1 instances 0.9, 0.6, 0.4 against the class-0 ones 0.6, 0.3: of the 6
    # pairs, 0.9 beats both, 0.6 ties 0.6 (½) and beats 0.3, 0.4 loses to 0.6 and beats 0.3 → 4.5/6
    p1 = np.array([0.9, 0.6, 0.4, 0.6, 0.3])
    y = np.array([1, 1, 1, 0, 0])
    assert fold_auc(y, np.column_stack([1 - p1, p1])) == 0.75
    assert fold_auc(1 - y, np.column_stack([p1, 1 - p1])) == 0.75  # the classes' codes swapped


@pytest.mark.parametrize("seed", range(5))
def test_many_classes_and_ties_against_scikit_learn(seed):
    """Random folds of 2 to 6 classes, probabilities on a coarse grid (many ties), some classes absent."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(seed)
    for c in range(2, 7):
        n = int(rng.integers(5, 60))
        y = rng.integers(0, c, n) if c == 2 else rng.choice(rng.permutation(c)[:max(2, c - seed % 3)], n)
        p = np.round(rng.dirichlet(np.ones(c), n), 1)
        p = (p / p.sum(axis=1, keepdims=True)).astype(np.float32).astype(np.float64)
        if len(set(y)) < 2:
            continue
        want = (roc_auc_score(y == 1, p[:, 1]) if c == 2 else
                roc_auc_score(y, p, multi_class="ovo", average="macro", labels=list(range(c))))
        assert fold_auc(y, p) == pytest.approx(want, abs=1e-12), (seed, c)


def test_one_class_or_none_has_no_auc():
    assert math.isnan(fold_auc(np.array([2, 2]), P3[3:]))
    assert math.isnan(fold_auc(np.array([], dtype=int), np.empty((0, 3))))


def _fold(run, fold, auc):
    return FoldResult(run, fold, np.arange(3), np.array([0, 1, 1]), None, 0.0, 0.0, pred=np.zeros(3, dtype=int),
                      sums={}, auc=auc)


def test_summary_is_the_mean_of_the_folds_per_run_then_over_runs():
    # run 0: folds 1.0, 0.5 and one left out (one class) → 0.75; run 1: 0.75, 0.25 → 0.5; mean 0.625,
    # sd of the two run means (0.75, 0.5): √(2 · 0.125² / 1) = 0.1767767
    folds = [_fold(0, 0, 1.0), _fold(0, 1, 0.5), _fold(0, 2, math.nan), _fold(1, 0, 0.75), _fold(1, 1, 0.25)]
    mean, sd = summarize("auc", folds)
    assert mean == 0.625 and sd == pytest.approx(0.125 * math.sqrt(2), abs=1e-15)
    # one run: the mean of its folds, sd over them (ddof 1)
    mean, sd = summarize("auc", folds[:3])
    assert mean == 0.75 and sd == pytest.approx(math.sqrt(0.125), abs=1e-15)
    with pytest.raises(ValueError):
        summarize("auc", [_fold(0, 0, None)])


# ---------------------------------------------------------------- against scikit-learn

def _default_data_sets_config() -> str:
    """configs/default.yaml's data sets and protocol, with one classifier of each family it runs
    (NB, TAN, AODE) and two runs (a summary over runs)."""
    conf = yaml.safe_load((ROOT / "configs" / "default.yaml").read_text())
    conf.update(name="auc", classifiers=["NB", "TAN", "AODE"], cv={**conf["cv"], "runs": 2})
    conf.pop("figures", None)
    return yaml.safe_dump(conf, sort_keys=False)


@pytest.fixture(scope="module")
def default_store(tmp_path_factory):
    return run_store(tmp_path_factory, "auc", _default_data_sets_config())


def test_every_fold_of_the_default_data_sets_against_scikit_learn(default_store):
    """Each fold's AUC equals roc_auc_score on the same stored float32 probabilities (read through
    `predictions`): binary on P(second class), else multi_class='ovo', average='macro' (scikit-learn's
    Hand and Till) over the fold's classes; each cell's value is the mean over runs of its folds'
    mean, its sd that of the run means. A fold of one class (labor-negotiations has one in run 1)
    has none: its data set has no paired per-fold values, and its cells are over the other folds."""
    from sklearn.metrics import roc_auc_score

    datasets = yaml.safe_load((ROOT / "configs" / "default.yaml").read_text())["datasets"]
    with open_results(default_store) as r:
        folds = r.fold_values("auc")
        summary = r.summary("auc")
        one_class = set()
        for ds in datasets:
            pred = r.predictions(ds)
            columns = [c for c in pred.columns if c.startswith("P(")]
            classes = [c[2:-1] for c in columns]
            for lab in ["NB", "TAN", "AODE"]:
                want: list[float] = []
                per_run: dict[int, list[float]] = {}
                for (run, fold), f in pred[pred["label"] == lab].groupby(["run", "fold"], sort=True):
                    y = np.array([classes.index(t) for t in f["true"]])
                    p = f[columns].to_numpy()
                    assert p.dtype == np.float64 and np.array_equal(p, p.astype(np.float32))  # float32 values
                    if len(set(y)) < 2:
                        one_class.add((ds, run, fold))
                        want.append(math.nan)
                        continue
                    auc = (roc_auc_score(y == 1, p[:, 1]) if len(classes) == 2 else
                           roc_auc_score(y, p, multi_class="ovo", average="macro", labels=list(range(len(classes)))))
                    want.append(auc)
                    per_run.setdefault(int(f["run"].iloc[0]), []).append(auc)
                assert len(want) == 20, (ds, lab)
                if ds in folds.datasets:
                    np.testing.assert_allclose(folds.values[(ds, lab)], want, rtol=0, atol=1e-12, err_msg=f"{ds} {lab}")
                else:
                    n = int(np.isnan(want).sum())
                    assert n and folds.left_out[ds] == (f"auc has no value on {n} of its folds (a test set of fewer "
                                                        f"than two classes: no ROC curve)")
                run_means = [np.mean(v) for v in per_run.values()]
                assert summary.values[(ds, lab)][0] == pytest.approx(np.mean(run_means), abs=1e-12), (ds, lab)
                assert summary.values[(ds, lab)][1] == pytest.approx(np.std(run_means, ddof=1), abs=1e-12), (ds, lab)
        assert len(folds.datasets) >= 6 and summary.one_class == one_class
        assert one_class == {("labor-negotiations", 1, f) for _, _, f in one_class}  # as the docstring says


def test_report_ranks_auc_higher_is_better(default_store):
    out = bnc_in("report", default_store, "--metric", "auc", cwd=ROOT, check=True).stdout
    assert out.startswith("auc") and "average rank: 1 = best (higher is better)" in out
    ranks = bnc_in("ranks", default_store, "--metric", "auc", cwd=ROOT, check=True).stdout
    assert "higher is better" in ranks


# ---------------------------------------------------------------- folds of one class

def test_folds_of_one_class_are_left_out_and_counted(tmp_path):
    """12 instances of class a and 2 of b in 7 stratified folds: the two b's fall in two folds; the
    other 5 test sets hold a only, and each cell's AUC is the mean over its 2 other folds."""
    from sklearn.metrics import roc_auc_score

    rows = [f"{i % 3},{i % 2},a\n" for i in range(12)] + ["0,1,b\n", "2,0,b\n"]
    (tmp_path / "few.csv").write_text("x,y,class\n" + "".join(rows))
    cfg = tmp_path / "few.yaml"
    cfg.write_text(f"name: few\ndatasets: [{{name: few, path: {tmp_path / 'few.csv'}}}]\n"
                   "cv: {scheme: stratified, folds: 7, runs: 1, seed: 1}\nclassifiers: [NB, AODE]\n")
    res = tmp_path / "res"
    bnc_in("run", cfg, "--results", res, "--quiet", cwd=ROOT, check=True)
    with open_results(res) as r:
        s = r.summary("auc")
        nb = r.predictions("few").query("label == 'NB'")
        by_fold = list(nb.groupby(["run", "fold"]))
        assert s.one_class == {("few", run, fold) for (run, fold), g in by_fold if g["true"].nunique() == 1}
        assert len(s.one_class) == 5
        want = [roc_auc_score(g["true"] == "b", g["P(b)"]) for _, g in by_fold if g["true"].nunique() == 2]
        assert len(want) == 2 and s.values[("few", "NB")][0] == pytest.approx(np.mean(want), abs=1e-12)
        assert s.values[("few", "NB")][1] == pytest.approx(np.std(want, ddof=1), abs=1e-12)
        assert r.fold_values("auc").left_out == {"few": "auc has no value on 5 of its folds (a test set of fewer than "
                                                        "two classes: no ROC curve)"}
    out = bnc_in("report", res, "--metric", "auc", cwd=ROOT, check=True)
    note = "auc: 5 fold(s) left out, their test set holding one class (no ROC curve): few (5)"
    assert note in out.stdout and note in out.stderr
    wdl = bnc_in("wdl", res, "--metric", "auc", cwd=ROOT, check=True)
    assert note in wdl.stdout and note in wdl.stderr
    assert bnc_in("report", res, "--metric", "zol", cwd=ROOT, check=True).stderr == ""  # no note on others
