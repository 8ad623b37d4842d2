"""A scikit-learn classifier as a baseline (engine/baseline.py): the runner's probabilities equal
the estimator fitted directly on the fold files `bncbench folds` writes; CategoricalNB has NB's
Laplace terms; a class absent from a training fold; the entry's one-line errors; task identity;
resume after kill -9."""

import os
import signal
import subprocess
import sys

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import CategoricalNB
from typer.testing import CliRunner

from bncbench import config, results
from bncbench.cli.app import app
from bncbench.errors import UserError
from tests.oracles import baseline_features as oracle
from tests.support.cli import assert_refused

DATASETS = ("iris", "labor-negotiations", "house-votes-84")  # shipped: numeric; mixed, missing; nominal, missing
SEED, FOLDS = 4, 3
CONFIG = f"""
name: sk
datasets: [{", ".join(DATASETS)}]
preprocess: {{missing: distinct, discretizer: eqfreq, scope: fold}}
cv: {{scheme: stratified, folds: {FOLDS}, runs: 1, seed: {SEED}}}
estimator: laplace
classifiers:
  - {{name: NB}}
  - {{name: "sklearn.linear_model:LogisticRegression", label: LR, C: 0.5, max_iter: 1000}}
  - {{name: "sklearn.ensemble:RandomForestClassifier", label: RF, n_estimators: 15}}
  - {{name: "sklearn.naive_bayes:CategoricalNB", label: CNB, encoding: ordinal, min_categories: 6}}
  - {{name: "sklearn.ensemble:RandomForestClassifier", label: RF-raw, n_estimators: 15, input: raw}}
  - {{name: "sklearn.linear_model:LogisticRegression", label: LR-raw, input: raw, max_iter: 1000}}
"""


def seed_of(run: int, fold: int) -> int:
    """The documented random_state of a (run, fold): SeedSequence([cv.seed, run, fold])'s first word."""
    return int(np.random.SeedSequence([SEED, run, fold]).generate_state(1)[0])


def invoke(*args) -> None:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exit_code == 0, (r.output, r.exception)


@pytest.fixture(scope="module")
def baseline_run(tmp_path_factory):
    """The config run, and each data set's fold files: the codes and (--raw) the raw rows."""
    d = tmp_path_factory.mktemp("baselines")
    cfg = d / "sk.yaml"
    cfg.write_text(CONFIG)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BNCBENCH_MIRROR", "")  # the shipped mirror only
        mp.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))  # config.plugin_path extends it
        invoke("run", cfg, "--results", d / "res", "--quiet")
        for name in DATASETS:
            invoke("folds", cfg, "--dataset", name, "--out", d / "codes")
            invoke("folds", cfg, "--dataset", name, "--out", d / "raw", "--raw")
    return d


def full_proba(est, X, n_classes: int) -> np.ndarray:
    out = np.zeros((X.shape[0], n_classes))
    out[:, est.classes_] = est.predict_proba(X)
    return out


@pytest.mark.parametrize("dataset", DATASETS)
def test_runner_equals_the_estimator_fitted_on_the_fold_files(baseline_run, dataset):
    with results.open(baseline_run / "res") as r:
        pred = r.predictions(dataset)
    for fold in range(FOLDS):
        stem = f"{dataset}-r0-f{fold}"
        tr, declared, y, classes = oracle.read_fold_file(baseline_run / "codes" / f"{stem}-train.arff")
        te, _, y_test, _ = oracle.read_fold_file(baseline_run / "codes" / f"{stem}-test.arff")
        raw_tr, raw_declared, _, _ = oracle.read_fold_file(baseline_run / "raw" / f"{stem}-train.arff")
        raw_te, _, _, _ = oracle.read_fold_file(baseline_run / "raw" / f"{stem}-test.arff")
        codes_tr, codes_te = np.column_stack(tr), np.column_stack(te)
        onehot = oracle.onehot(codes_tr, codes_te, [len(v or ()) for v in declared])
        has_missing = [bool(np.isnan(np.concatenate([a, b])).any()) for a, b in zip(raw_tr, raw_te)]
        raw = oracle.raw_features(raw_tr, raw_te, raw_declared, "distinct", has_missing)
        rs = seed_of(0, fold)
        cases = {
            "LR": (LogisticRegression(C=0.5, max_iter=1000, random_state=rs), onehot),
            "RF": (RandomForestClassifier(n_estimators=15, random_state=rs), onehot),
            "CNB": (CategoricalNB(min_categories=6), (codes_tr, codes_te)),
            "RF-raw": (RandomForestClassifier(n_estimators=15, random_state=rs), raw),
            "LR-raw": (LogisticRegression(max_iter=1000, random_state=rs), raw),
        }
        for label, (est, (X, Xt)) in cases.items():
            rows = pred[(pred["label"] == label) & (pred["fold"] == fold)]
            stored = rows[[f"P({c})" for c in classes]].to_numpy()
            assert np.array_equal(rows["true"].to_numpy(), np.asarray(classes, dtype=object)[y_test])
            want = full_proba(est.fit(X, y), Xt, len(classes))
            np.testing.assert_allclose(stored, want, rtol=0, atol=2e-7, err_msg=f"{label} fold {fold}")
            np.testing.assert_allclose(stored.sum(axis=1), 1.0, atol=1e-6)


@pytest.mark.parametrize("dataset", ["labor-negotiations", "house-votes-84", "car"])
def test_categorical_nb_has_the_laplace_terms_of_nb(dataset, isolated_cache):
    """CategoricalNB(alpha=1, min_categories=K) on the ordinal codes: P(x_i | c) = (n_ic + 1) / (n_c + K_i),
    NB's Laplace terms. Its prior is the class frequency n_c / N, NB's (n_c + 1) / (N + C): with
    NB's prior given as class_prior the probabilities are NB's; with its own, they differ from
    NB's by that ratio of priors only."""
    from bncbench.classifiers import NB
    from bncbench.engine.units import preprocessed_fold
    from bncbench.experiment import CVSpec, DatasetSpec
    from bncbench.preprocess.features import encode_codes
    from bncbench.preprocess.settings import PreprocessSettings

    p = preprocessed_fold(DatasetSpec(dataset), PreprocessSettings(), CVSpec("stratified", 3, seed=2), 0, 1)
    enc, y, C = p.encoded, p.dataset.y[p.train], p.dataset.n_classes
    X, Xt = (encode_codes(x, enc.cardinalities, "ordinal") for x in (enc.X_train, enc.X_test))
    nb = NB(estimator="laplace", cardinalities=enc.cardinalities, n_classes=C).fit(enc.X_train, y)
    want = nb.predict_proba(enc.X_test)
    n_c = np.bincount(y, minlength=C)
    assert (n_c > 0).all()
    laplace_prior = (n_c + 1) / (y.size + C)
    matched = CategoricalNB(alpha=1, min_categories=enc.cardinalities, class_prior=laplace_prior).fit(X, y)
    np.testing.assert_allclose(matched.predict_proba(Xt), want, rtol=1e-10, atol=1e-13)
    own = CategoricalNB(alpha=1, min_categories=enc.cardinalities).fit(X, y)
    shift = np.log(want) - own.predict_log_proba(Xt) - np.log(laplace_prior / (n_c / y.size))
    np.testing.assert_allclose(shift - shift[:, :1], 0, atol=1e-9)  # a constant per row: the normaliser


def test_a_class_absent_from_a_training_fold(tmp_path, monkeypatch):
    """One instance of class a (the first class): the fold that tests it trains without it, and the
    baselines give it probability 0 there (their classes_ lack it); every row sums to 1."""
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    rng = np.random.default_rng(0)
    lines = [f"{x:.3f},{v},{'b' if x < 0.5 else 'c'}" for x, v in zip(rng.random(29), rng.choice(["u", "w"], 29))]
    (tmp_path / "rare.csv").write_text("x,v,cls\n" + "\n".join(["0.5,u,a", *lines]) + "\n")
    exp = config.parse(f"""
datasets: [{{name: rare, path: {tmp_path / "rare.csv"}}}]
cv: {{folds: 3, seed: 1}}
classifiers:
  - {{name: "sklearn.linear_model:LogisticRegression", label: LR}}
  - {{name: "sklearn.ensemble:RandomForestClassifier", label: RF-raw, n_estimators: 5, input: raw}}
""")
    from bncbench.engine import runner

    runner.run(exp, str(tmp_path / "res"), quiet=True, log=lambda *a: None)
    with results.open(tmp_path / "res") as r:
        pred = r.predictions("rare")
    absent = pred.loc[pred["true"] == "a", "fold"].iloc[0]
    for label in ("LR", "RF-raw"):
        rows = pred[pred["label"] == label]
        proba = rows[["P(a)", "P(b)", "P(c)"]].to_numpy()
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-6)
        assert (proba[rows["fold"].to_numpy() == absent, 0] == 0).all()
        assert (rows.loc[rows["fold"] == absent, "predicted"] != "a").all()
    lr = pred[(pred["label"] == "LR") & (pred["fold"] != absent)]
    assert (lr["P(a)"] > 0).all()  # trained with a: a probability of its own


# --- the entry's errors: one line, exit 2 -----------------------------------------------------------

@pytest.mark.parametrize("entry, key", [
    ('{name: "sklearn.nosuch:Forest"}', "cannot import module 'sklearn.nosuch'"),
    ('{name: "sklearn.svm:LinearSVC"}', "has no predict_proba"),
    ('{name: "sklearn.ensemble:RandomForestClassifier", n_estimator: 10}', "did you mean 'n_estimators'"),
])
def test_refused_on_the_command_line(tmp_path, entry, key):
    assert_refused(tmp_path, entry, key)


def refusal(entry: str, preprocess: str = "") -> str:
    with pytest.raises(UserError) as e:
        config.parse(f"datasets: [zoo]\n{preprocess}m: 2\nclassifiers:\n  - {entry}\n", "c.yaml")
    assert "\n" not in str(e.value)
    return str(e.value)


@pytest.mark.parametrize("entry, words", [
    ('{name: "sklearn.linear_model:LinearRegression"}', ["classifiers.0.name", "is a regressor, not a classifier"]),
    ('{name: "sklearn.ensemble:RandomForestClassifier", n_estimators: -1}',
     ["classifiers.0.n_estimators", "'n_estimators' parameter", "Got -1"]),
    ('{name: "sklearn.ensemble:RandomForestClassifier", m: 1}', ["classifiers.0.m", "unknown parameter 'm'"]),
    ('{name: "sklearn.svm:SVC"}', ["SVC has no predict_proba", "probability: true"]),
    ('{name: "sklearn.ensemble:RandomForestClassifier", input: bins}', ["classifiers.0.input", "codes, raw"]),
    ('{name: "sklearn.naive_bayes:CategoricalNB", encoding: ordinal}', ["classifiers.0.encoding", "skip"]),
    ('{name: "sklearn.ensemble:RandomForestClassifier", label: "R,F"}', ["classifiers.0.label", "comma"]),
])
def test_refused_entries(entry, words):
    skip = "ordinal" in entry
    msg = refusal(entry, "preprocess: {missing: skip}\n" if skip else "")
    assert all(w in msg for w in words), msg
    assert msg.startswith(f"c.yaml:{5 if skip else 4}: ")


def test_accepted_entry_passes_none_of_the_shared_parameters():
    exp = config.parse('datasets: [zoo]\nm: 2\nestimator: laplace\nclassifiers:\n'
                       '  - {name: "sklearn.svm:SVC", probability: true}\n'
                       '  - {name: "sklearn.ensemble:RandomForestClassifier", encoding: ordinal}\n')
    assert [c.label for c in exp.classifiers] == ["SVC", "RandomForestClassifier"]
    assert [c.params for c in exp.classifiers] == [{"probability": True}, {"encoding": "ordinal"}]


# --- identity ---------------------------------------------------------------------------------------

def keys(text: str) -> list[str]:
    from bncbench.data import catalog
    from bncbench.engine import runner

    exp = config.parse(f"datasets: [iris]\ncv: {{folds: 2}}\nclassifiers:\n{text}")
    ds = catalog.load("iris")
    return [runner.task_key(ds, exp.datasets[0], exp, 0, 0, c) for c in exp.classifiers]


def test_task_identity_of_a_baseline(isolated_cache, monkeypatch):
    """Its parameters over its defaults (a default written out is the same task), bncbench's
    options, and the installed version of its distribution (an upgrade re-runs it)."""
    from bncbench.engine import baseline, fingerprint, runner

    rf = '  - {name: "sklearn.ensemble:RandomForestClassifier", label: RF%s}\n'
    plain, at_default, other, raw = (keys(rf % x)[0] for x in ("", ", n_estimators: 100", ", n_estimators: 99",
                                                                ", input: raw"))
    assert plain == at_default and len({plain, other, raw}) == 3
    assert fingerprint.distribution_version("sklearn.ensemble._forest").startswith("scikit-learn 1.")
    monkeypatch.setattr(baseline, "distribution_version", lambda module: "scikit-learn 99.0")
    assert keys(rf % "") != [plain]
    # the adapter's code is the baseline's, not the Bayesian network classifiers'
    from bncbench.classifiers import NB

    nb = fingerprint.closure([NB.__module__, *fingerprint.PIPELINE_MODULES])
    ours = fingerprint.closure([baseline.ScikitLearnBaseline.__module__, *fingerprint.PIPELINE_MODULES])
    assert {"bncbench.engine.baseline", "bncbench.preprocess.features"} <= set(ours) - set(nb)
    # a worker with another version of the estimator's package is refused
    exp = config.parse('datasets: [iris]\nclassifiers: [{name: "sklearn.naive_bayes:CategoricalNB"}]\n')
    from bncbench.engine.units import Unit

    unit = Unit(exp.datasets[0], 0, 0, tuple(exp.classifiers), ("k",))
    code = runner.classifier_code(exp.classifiers[0])
    assert code.endswith(" scikit-learn 99.0")
    runner.check_worker_code(unit, {"sklearn.naive_bayes:CategoricalNB": code})
    with pytest.raises(UserError, match=r"other code for sklearn\.naive_bayes:CategoricalNB"):
        runner.check_worker_code(unit, {"sklearn.naive_bayes:CategoricalNB": code.replace("99.0", "1.9")})


def test_resumed_after_kill_9_gives_the_uninterrupted_report(tmp_path, monkeypatch):
    """A derived random_state depends on (cv.seed, run, fold) only, not on what ran before."""
    from tests.cli.test_cli import wait_for_tasks

    monkeypatch.setenv("BNCBENCH_MIRROR", "")
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    cfg = tmp_path / "rf.yaml"
    cfg.write_text('datasets: [iris, labor-negotiations, house-votes-84]\ncv: {folds: 4, runs: 3, seed: 2}\n'
                   'classifiers:\n  - {name: "sklearn.ensemble:RandomForestClassifier", label: RF, n_estimators: 10}\n'
                   '  - {name: "sklearn.ensemble:RandomForestClassifier", label: RF-raw, n_estimators: 10, '
                   'input: raw, max_features: 0.5}\n')
    invoke("run", cfg, "--results", tmp_path / "ref", "--quiet")
    proc = subprocess.Popen([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "res"),
                             "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = wait_for_tasks(tmp_path / "res" / "results.sqlite", 20)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 0 < done < 3 * 2 * 4 * 3, "the run finished before it could be killed"
    invoke("run", cfg, "--results", tmp_path / "res", "--quiet")
    for metric in ("zol", "rmse", "cll", "bias", "variance"):
        got, want = (CliRunner().invoke(app, ["report", str(tmp_path / x), "--metric", metric, "--format", "csv"])
                     for x in ("res", "ref"))
        assert got.exit_code == 0 and got.stdout == want.stdout, metric


def test_a_researchers_own_estimator_without_declared_constraints(tmp_path, monkeypatch):
    """A researcher's scikit-learn classifier that declares no `_parameter_constraints` (most do
    not) runs as a baseline: the same probabilities as scikit-learn's DummyClassifier (prior), which
    it reimplements."""
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    (tmp_path / "mine.py").write_text('''
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin


class Prior(BaseEstimator, ClassifierMixin):
    def __init__(self, smoothing=0.0):
        self.smoothing = smoothing

    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.prior_ = (counts + self.smoothing) / (counts.sum() + self.smoothing * len(counts))
        return self

    def predict_proba(self, X):
        return np.tile(self.prior_, (len(X), 1))
''')
    (tmp_path / "c.yaml").write_text("""
datasets: [iris, zoo]
cv: {folds: 3, seed: 1}
classifiers:
  - {name: "mine:Prior", label: Mine}
  - {name: "sklearn.dummy:DummyClassifier", label: Dummy, strategy: prior}
""")
    from bncbench.engine import runner

    exp = config.load(str(tmp_path / "c.yaml"))
    runner.run(exp, str(tmp_path / "res"), quiet=True, log=lambda *a: None)
    with results.open(tmp_path / "res") as r:
        for name in ("iris", "zoo"):
            pred = r.predictions(name)
            cols = [c for c in pred.columns if c.startswith("P(")]
            mine = pred[pred["label"] == "Mine"].sort_values(["run", "fold", "row"])[cols].to_numpy()
            dummy = pred[pred["label"] == "Dummy"].sort_values(["run", "fold", "row"])[cols].to_numpy()
            assert mine.shape == dummy.shape and len(mine) > 0
            np.testing.assert_allclose(mine, dummy, rtol=0, atol=1e-12)
