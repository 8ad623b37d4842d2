"""A unit's failures (engine/failures.py): a researcher's classifier that raises or returns what
is not probabilities is reported as theirs (label, data set, run, fold, exception, their file and
line) while every other task runs and is stored; a data file changed during a run stops its data
set's tasks (a worker computes only from the bytes the tasks were planned with); the driver's load
cache never serves a file as an earlier run read it; a damaged parsed copy in the download cache is
parsed again."""

import re
import sqlite3
import uuid
from pathlib import Path

import numpy as np
import pytest

from bncbench import config
from bncbench.data import catalog
from bncbench.engine import runner
from bncbench.engine.units import forget_loaded
from tests.support.cli import POOL, bnc

PLUG = '''
import hashlib
import os
import sys
from pathlib import Path

import numpy as np

from sklearn.base import BaseEstimator, ClassifierMixin

from bncbench.classifiers.nb.nb import NB

if os.environ.get("SWAP_STORE") and Path(os.environ["SWAP_STORE"]).exists():  # a worker started mid-run
    target = Path(os.environ["SWAP_CSV"])
    if os.environ.get("SWAP_WITH"):
        part = target.with_name(f".{os.getpid()}.part")
        part.write_bytes(Path(os.environ["SWAP_WITH"]).read_bytes())
        os.replace(part, target)
    else:
        target.unlink(missing_ok=True)


class Index(NB):
    def predict_proba(self, X):
        rows = [1, 2, 3]
        return rows[len(X)]


class Exits(NB):
    def _fit(self, Xc, y):
        sys.exit("leaving")


class Boom(BaseException):
    pass


class Base(NB):
    def _fit(self, Xc, y):
        raise Boom("a BaseException, not an Exception")


class Interrupts(NB):
    def _fit(self, Xc, y):
        raise KeyboardInterrupt


class Shape(NB):
    def predict_proba(self, X):
        return np.full((len(X), 9), 1 / 9)


class NaNs(NB):
    def predict_proba(self, X):
        p = super().predict_proba(X)
        p[0, 0] = np.nan
        return p


class Info(NB):
    def _fit(self, Xc, y):
        super()._fit(Xc, y)
        self.info_ = {"model": object()}


class Fold2(NB):
    """Fails on one training set only (FOLD2: the sha256 of its codes), with its int parameter."""

    def __init__(self, *, estimator="mestimate", m=1.0, missing="value", cardinalities=None, n_classes=None,
                 seed=0):
        super().__init__(estimator=estimator, m=m, missing=missing, cardinalities=cardinalities,
                         n_classes=n_classes)
        self.seed = seed

    def fit(self, X, y, counts=None):
        if hashlib.sha256(np.ascontiguousarray(X, dtype=np.int64).tobytes()).hexdigest() == FOLD2:
            raise ValueError(f"seed {self.seed + 1} is unlucky")
        return super().fit(X, y, counts=counts)


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no")


class Raises(NB):
    def _fit(self, Xc, y):
        raise Unprintable()


class NaNEstimator(BaseEstimator, ClassifierMixin):
    """A scikit-learn classifier of a researcher's whose probabilities are NaN."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        return np.full((len(X), len(self.classes_)), np.nan)


class WrongShapeEstimator(NaNEstimator):
    """A scikit-learn classifier of a researcher's that returns one column too few."""

    def predict_proba(self, X):
        return np.full((len(X), len(self.classes_) - 1), 0.5)
'''


def at(code: str) -> int:
    """The line of the plug-in's file that holds `code`."""
    return next(i for i, line in enumerate(PLUG.splitlines(), 1) if code in line)


def write_plugin(folder: Path, fold2: str = "") -> str:
    """The plug-in module (a fresh name: modules stay imported in this process); its name."""
    name = f"plug_{uuid.uuid4().hex[:10]}"
    (folder / f"{name}.py").write_text(PLUG.replace("== FOLD2", f"== {fold2!r}"))
    return name


def experiment(tmp_path: Path, entries: list[str], datasets: str = "[iris]", folds: int = 3, runs: int = 1,
               fold2: str = ""):
    module = write_plugin(tmp_path, fold2)
    lines = "".join(f"  - {e.replace('PLUG', module)}\n" for e in entries)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"name: t\ndatasets: {datasets}\ncv: {{scheme: stratified, folds: {folds}, runs: {runs}, seed: 1}}\n"
                   f"classifiers:\n  - {{name: NB}}\n{lines}")
    return config.load(str(cfg)), module


def stored(res: Path) -> dict[tuple[str, str], int]:
    with sqlite3.connect(res / "results.sqlite") as db:
        return {(d, label): n for d, label, n in
                db.execute("SELECT dataset, label, count(*) FROM tasks GROUP BY dataset, label")}


def run(exp, res: Path, **kw):
    lines: list[str] = []
    stats = runner.run(exp, str(res), quiet=True, log=lines.append, **kw)
    return stats, lines


# --- a researcher's classifier that fails: theirs, the run goes on ------------------------------------

@pytest.mark.parametrize("cls, words", [
    ("Index", ["IndexError: list index out of range", f"line {at('rows[len(X)]')}, in predict_proba"]),
    ("Exits", ["SystemExit: leaving", f"line {at('sys.exit(')}, in _fit"]),
    ("Base", ["Boom: a BaseException, not an Exception", f"line {at('raise Boom(')}, in _fit"]),
    ("Shape", ["predict_proba returned an array of shape (50, 9); expected (50, 3)", "in predict_proba"]),
    ("NaNs", ["predict_proba returned 1 NaN or infinite value(s) of 150", "in predict_proba"]),
    ("Raises", ["Unprintable: (its message cannot be shown)", f"line {at('raise Unprintable()')}, in _fit"]),
    ("NaNEstimator", ["predict_proba returned 150 NaN or infinite value(s) of 150",
                      f"line {at('np.full((len(X), len(self.classes_)), np.nan)') - 1}, in predict_proba"]),
    ("Info", ["info_ is not a JSON object (TypeError: Object of type object is not JSON serializable)",
              f"line {at('class Info') + 1}, in _fit"]),
])
def test_a_failing_plugin_is_reported_as_theirs_and_the_rest_is_stored(tmp_path, cls, words):
    exp, module = experiment(tmp_path, [f'{{name: "PLUG:{cls}", label: X}}'], datasets="[iris, zoo]")
    stats, lines = run(exp, tmp_path / "res")
    assert stats["run"] == 6 and stats["failed"] == 6
    assert stored(tmp_path / "res") == {("iris", "NB"): 3, ("zoo", "NB"): 3}
    assert len(lines) == 2 and lines[0].startswith("error: X failed on iris, run 0, fold ")
    assert all(w in lines[0] for w in words) and f"{module}.py" in lines[0], lines[0]
    assert [x.split(":")[1] for x in stats["failures"]] == [" X on iris", " X on zoo"]
    assert all("3 of 3 task(s) (first: run 0, fold 0)" in x for x in stats["failures"]), stats["failures"]
    assert all(w in stats["failures"][0] for w in words), stats["failures"]


def test_a_plugin_failing_on_one_fold_only_fails_that_task(tmp_path):
    """A plug-in with an int parameter that fails on fold 2 of run 1 only: that task alone fails."""
    import hashlib

    from bncbench.engine.units import preprocessed_fold
    from bncbench.experiment import CVSpec

    exp, _ = experiment(tmp_path, [])
    X = preprocessed_fold(exp.datasets[0], exp.preprocess, CVSpec("stratified", 3, seed=1), 1, 2).encoded.X_train
    fold2 = hashlib.sha256(np.ascontiguousarray(X, dtype=np.int64).tobytes()).hexdigest()
    exp, module = experiment(tmp_path, ['{name: "PLUG:Fold2", label: F, seed: 6}'], runs=2, fold2=fold2)
    stats, lines = run(exp, tmp_path / "res")
    assert stats["failed"] == 1 and stats["run"] == 11
    where = tmp_path / f"{module}.py"  # outside the current folder: named in full
    assert lines == [f"error: F failed on iris, run 1, fold 2: ValueError: seed 7 is unlucky "
                     f"({where}, line {at('unlucky')}, in fit); the other tasks go on"]
    assert stats["failures"] == [f"failed: F on iris: 1 of 6 task(s) (first: run 1, fold 2): ValueError: seed 7 is "
                                 f"unlucky ({where}, line {at('unlucky')}, in fit); once it is fixed, the same command "
                                 f"computes these (all of F's tasks if the fix edits its code)"]
    assert stored(tmp_path / "res") == {("iris", "NB"): 6, ("iris", "F"): 5}


def test_an_interrupt_raised_in_a_plugin_stays_an_interrupt(tmp_path):
    """KeyboardInterrupt cannot be told from Ctrl-C: the run stops (exit 130), the finished units kept."""
    exp, _ = experiment(tmp_path, ['{name: "PLUG:Interrupts", label: K}'])
    with pytest.raises(KeyboardInterrupt):
        run(exp, tmp_path / "res")


def test_an_error_of_a_classifier_of_bncbench_is_a_bug(tmp_path, monkeypatch):
    """bncbench's own classifier raising (even through a function defined outside bncbench) is not
    reported as the researcher's: it propagates, and the CLI calls it a bug (exit 3)."""
    from bncbench.classifiers.nb.nb import NB

    def broken(self, Xc, y):
        raise ZeroDivisionError("a deliberate bug")

    monkeypatch.setattr(NB, "_fit", broken)
    exp, _ = experiment(tmp_path, [])
    with pytest.raises(ZeroDivisionError):
        run(exp, tmp_path / "res")


def test_a_scikit_learn_baseline_that_fails_names_the_frame_in_scikit_learn(tmp_path):
    """CategoricalNB without min_categories meets a test code it was not fitted on: an IndexError in
    scikit-learn, on the folds where that happens; the other folds and classifiers are stored."""
    exp, _ = experiment(tmp_path, ['{name: "sklearn.naive_bayes:CategoricalNB", label: CNB, encoding: ordinal}'],
                        datasets="[labor-negotiations]", folds=5)
    stats, lines = run(exp, tmp_path / "res")
    assert stats["failed"] >= 1 and stats["run"] == 10 - stats["failed"]
    assert re.match(r"error: CNB failed on labor-negotiations, run 0, fold \d: IndexError: .*\(.*sklearn.*\.py, "
                    r"line \d+, in \w+\); the other tasks go on", lines[0]), lines


def test_a_researchers_estimator_with_a_wrong_shape_is_theirs(tmp_path):
    exp, module = experiment(tmp_path, ['{name: "PLUG:WrongShapeEstimator", label: W}'])
    stats, lines = run(exp, tmp_path / "res")
    assert stats["failed"] == 3 and stored(tmp_path / "res") == {("iris", "NB"): 3}
    assert lines[0].startswith("error: W failed on iris, run 0, fold 0: OutputError: predict_proba returned shape "
                               "(50, 2) for classes_ [0, 1, 2]; expected (50, 3)"), lines
    line = at("np.full((len(X), len(self.classes_) - 1), 0.5)") - 1
    assert lines[0].endswith(f"{module}.py, line {line}, in predict_proba); the other tasks go on"), lines


@pytest.mark.slow
def test_a_failing_plugin_on_dask(tmp_path):
    exp, module = experiment(tmp_path, ['{name: "PLUG:Index", label: X}'])
    stats, lines = run(exp, tmp_path / "res", executor="dask", jobs=1)
    assert stats["run"] == 3 and stats["failed"] == 3
    assert f"{module}.py, line {at('rows[len(X)]')}, in predict_proba" in lines[0], lines


def test_the_issues_plugin_raising_in_predict_proba_on_the_command_line(tmp_path):
    """The issue's reproduction: a plug-in raising IndexError in predict_proba was "internal error ...
    a bug in bncbench" (exit 3) with the plan abandoned. Now, in the workers of --jobs 2: its words
    at its line, every other task stored, one line per failed cell, exit 2; after the fix the same
    command (here in this process) computes only the failed tasks."""
    module = write_plugin(tmp_path)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"name: t\ndatasets: [iris, zoo]\ncv: {{folds: 3}}\nclassifiers:\n  - {{name: NB}}\n"
                   f"  - {{name: \"{module}:Index\", label: Bad}}\n")
    res = tmp_path / "res"
    r = bnc("run", cfg, "--results", res, "--jobs", "2", env=POOL, cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, r.stderr
    line = at("rows[len(X)]")
    errors = [x for x in lines if x.startswith("error:")]  # among the progress lines: one per cell
    shown = rf"error: Bad failed on (iris|zoo), run 0, fold \d: IndexError: list index out of range " \
        rf"\({module}\.py, line {line}, in predict_proba\); the other tasks go on"
    assert len(errors) == 2 and all(re.fullmatch(shown, x) for x in errors), lines
    assert "bug" not in r.stderr and "Traceback" not in r.stderr
    assert lines[-2:] == [f"failed: Bad on {d}: 3 of 3 task(s) (first: run 0, fold 0): IndexError: list index out "
                          f"of range ({module}.py, line {line}, in predict_proba); once it is fixed, the same "
                          f"command computes these (all of Bad's tasks if the fix edits its code)"
                          for d in ("iris", "zoo")], lines
    assert "done: 6 tasks run, 6 failed, 0 already finished" in r.stderr
    assert stored(res) == {("iris", "NB"): 3, ("zoo", "NB"): 3}
    plug = tmp_path / f"{module}.py"
    plug.write_text(plug.read_text().replace("return rows[len(X)]", "return super().predict_proba(X)"))
    r = bnc("run", cfg, "--results", res, cwd=tmp_path)
    assert r.returncode == 0 and "done: 6 tasks run, 6 already finished" in r.stderr, r.stderr
    assert stored(res) == {(d, label): 3 for d in ("iris", "zoo") for label in ("NB", "Bad")}


# --- inputs fixed for the whole run ------------------------------------------------------------------

def write_csv(path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = ["a,b,c,class"] + [f"{rng.integers(3)},{rng.integers(4)},{rng.integers(2)},{'xyz'[i % 3]}"
                              for i in range(60)]
    path.write_text("\n".join(rows) + "\n")


def csv_experiment(tmp_path: Path, jobs_note: str = ""):
    write_csv(tmp_path / "own.csv", 1)
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: t\ndatasets: [{name: own, path: own.csv}]\ncv: {folds: 3}\nclassifiers: [NB, TAN]\n")
    return config.load(str(cfg))


def test_the_driver_never_serves_a_file_as_an_earlier_run_read_it(tmp_path):
    """In one process (a notebook, a script, these tests): the file replaced between two runs is
    read again; before, the second run said "0 tasks run" from the first file's cached rows."""
    exp = csv_experiment(tmp_path)
    first, _ = run(exp, tmp_path / "res")
    write_csv(tmp_path / "own.csv", 2)
    second, _ = run(exp, tmp_path / "res")
    assert first["run"] == second["run"] == 6 and second["skipped"] == 0
    write_csv(tmp_path / "own.csv", 1)
    third, _ = run(exp, tmp_path / "res")
    assert third["run"] == 0 and third["skipped"] == 6


def test_workers_kept_from_an_earlier_run_read_the_file_again(tmp_path, monkeypatch):
    """joblib keeps its worker processes between runs of one process; a worker that read the
    first file reads the second again instead of calling it changed."""
    monkeypatch.setenv("BNCBENCH_POOL_WORTH", "0")
    exp = csv_experiment(tmp_path)
    first, _ = run(exp, tmp_path / "res", jobs=2)
    write_csv(tmp_path / "own.csv", 2)
    second, lines = run(exp, tmp_path / "res", jobs=2)
    assert first["run"] == second["run"] == 6 and second["failed"] == 0, lines


def test_a_worker_computes_only_from_the_planned_bytes(tmp_path):
    """What a worker does with a unit whose file changed after planning: every task a failure
    naming the file, without computing; the next unit of that run is refused without reading
    the file again; a new run (the file restored) is computed."""
    exp = csv_experiment(tmp_path)
    datasets = runner.load_available(exp, False, print)
    units, _ = runner.plan(exp, datasets)
    planned = runner.PlannedData.of(datasets)
    args = (exp.preprocess, exp.cv)
    write_csv(tmp_path / "own.csv", 2)
    outputs, _ = runner.run_unit_on_worker(units[0], planned, *args)  # the cached, planned rows
    assert not any(isinstance(o, runner.TaskFailure) for o in outputs)
    forget_loaded()  # a worker that reads the file now
    outputs, _ = runner.run_unit_on_worker(units[1], planned, *args)
    path = exp.datasets[0].path
    assert [(o.label, o.data, o.why) for o in outputs] == [
        (label, True, f"{path} changed during the run (its tasks were planned with other contents)")
        for label in ("NB", "TAN")]
    (tmp_path / "own.csv").unlink()  # known changed in this run: not read again
    assert runner.run_unit_on_worker(units[2], planned, *args)[0][0].why == outputs[0].why
    forget_loaded()
    deleted = runner.run_unit_on_worker(units[2], runner.PlannedData.of(datasets), *args)[0][0]
    assert deleted.why.startswith(f"{path} changed during the run (") and "data set 'own': " in deleted.why and \
        f"{path} does not exist" in deleted.why, deleted.why
    write_csv(tmp_path / "own.csv", 1)
    outputs, _ = runner.run_unit_on_worker(units[2], runner.PlannedData.of(datasets), *args)
    assert not any(isinstance(o, runner.TaskFailure) for o in outputs)


@pytest.mark.parametrize("change", ["replaced", "deleted"])
def test_a_file_changed_during_a_pooled_run_stops_its_tasks_only(tmp_path, monkeypatch, change):
    """The issue's reproduction: a user CSV replaced while `run --jobs 2` runs. The workers start
    after the driver planned (here the plug-in's module, imported by each worker, swaps the file
    then), so they read the other file: its data set's tasks stop with one line naming the file,
    iris's are stored, exit 2. With the file restored, the same command computes exactly the
    stopped tasks, and the store equals an uninterrupted run's (the file replaced; deleted: the
    same first run)."""
    module = write_plugin(tmp_path)
    write_csv(tmp_path / "own.csv", 1)
    write_csv(tmp_path / "other.csv", 2)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"name: t\ndatasets: [iris, {{name: own, path: own.csv}}]\ncv: {{folds: 3}}\n"
                   f"classifiers:\n  - {{name: NB}}\n  - {{name: \"{module}:Fold2\", label: P}}\n")
    res = tmp_path / "res"
    swap = {**POOL, "SWAP_STORE": str(res / "results.sqlite"), "SWAP_CSV": str(tmp_path / "own.csv"),
            "SWAP_WITH": str(tmp_path / "other.csv") if change == "replaced" else ""}
    original = (tmp_path / "own.csv").read_bytes()
    r = bnc("run", cfg, "--results", res, "--jobs", "2", env=swap, cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, r.stderr
    own = "own.csv"  # as the config names it
    errors = [x for x in lines if x.startswith("error:")]  # among the progress lines
    assert len(errors) == 1 and errors[0].startswith(f"error: data set own: {own} changed during the run ("), lines
    assert errors[0].endswith("; its tasks are not run (the others go on)"), lines
    assert lines[-1].startswith(f"failed: data set own: 6 task(s) not run: {own} changed during the run")
    assert lines[-1].endswith("; run the same command again once the file is as intended"), lines[-1]
    assert sum(x.startswith("failed:") for x in lines) == 1 and "bug" not in r.stderr
    assert stored(res) == {("iris", "NB"): 3, ("iris", "P"): 3}
    (tmp_path / "own.csv").write_bytes(original)
    if change == "deleted":
        return
    r = bnc("run", cfg, "--results", res, cwd=tmp_path)
    assert r.returncode == 0 and "done: 6 tasks run, 6 already finished" in r.stderr, r.stderr
    whole = tmp_path / "whole"
    monkeypatch.chdir(tmp_path)
    run(config.load(str(cfg)), whole)
    query = "SELECT key, proba, pred FROM tasks ORDER BY key"
    with sqlite3.connect(res / "results.sqlite") as a, sqlite3.connect(whole / "results.sqlite") as b:
        assert a.execute(query).fetchall() == b.execute(query).fetchall()


# --- a damaged parsed copy in the download cache -----------------------------------------------------

def _damaged(data: bytes) -> dict[str, bytes]:
    mid = len(data) // 2
    return {"empty": b"", "truncated": data[:300], "garbage": b"garbage", "half": data[:mid],
            "flipped": data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1:],
            "header": bytes([data[0] ^ 0xFF]) + data[1:], "directory end": data[:-10] + b"\0" * 10}


def test_a_damaged_parsed_copy_is_parsed_again_with_one_warning(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BNCBENCH_CACHE", str(tmp_path / "cache"))
    catalog._load_cached.cache_clear()
    good = catalog.load("iris")
    (copy,) = (tmp_path / "cache" / "parsed").glob("iris-*.npz")
    original = copy.read_bytes()
    capsys.readouterr()
    for what, data in _damaged(original).items():
        copy.write_bytes(data)
        catalog._load_cached.cache_clear()
        ds = catalog.load("iris")
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"warning: {copy}: the parsed copy of iris in the download cache "
                                                   f"cannot be read ("), (what, err)
        assert err[0].endswith("parsing its source again and replacing it"), err
        assert ds.checksums == good.checksums and (ds.y == good.y).all() and copy.read_bytes() == original, what
    catalog._load_cached.cache_clear()


def test_a_damaged_parsed_copy_on_the_command_line(tmp_path):
    """Was "internal error: BadZipFile" (exit 3); the run goes on after one warning line."""
    env = {"BNCBENCH_CACHE": str(tmp_path / "cache")}
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: t\ndatasets: [iris]\ncv: {folds: 2}\nclassifiers: [NB]\n")
    assert bnc("datasets", "verify", "iris", env=env).returncode == 0
    (copy,) = (tmp_path / "cache" / "parsed").glob("iris-*.npz")
    copy.write_bytes(copy.read_bytes()[:300])
    r = bnc("run", cfg, "--results", tmp_path / "res", "--quiet", env=env)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines() == [
        f"warning: {copy}: the parsed copy of iris in the download cache cannot be read (BadZipFile: File is not a "
        f"zip file); parsing its source again and replacing it"]
    assert stored(tmp_path / "res") == {("iris", "NB"): 2}
