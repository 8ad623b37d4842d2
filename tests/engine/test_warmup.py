"""The untimed warm-up (engine/warmup.py): once per (data set, classifier) in a process, on a slice of
the fold, its errors left to the timed fit, and no result changed by it."""

import gc
from typing import Any

import numpy as np
import pytest

from bncbench import config
from bncbench.engine import runner, warmup
from bncbench.engine.entries import entry_of
from bncbench.engine.units import preprocessed_fold, run_unit

CONFIG = """
name: warm
datasets: [iris, car]
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, scope: global}
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers:
  - {name: NB, label: NB}
  - {name: TAN, label: TAN}
  - {name: AODE, label: AODE}
"""


@pytest.fixture()
def planned(tmp_path, monkeypatch):
    """The config's experiment and units, with a process that has warmed nothing."""
    monkeypatch.setattr(warmup, "_warmed", set())
    monkeypatch.setattr(warmup, "_settled", True)  # no gc.freeze in the test process
    path = tmp_path / "warm.yaml"
    path.write_text(CONFIG)
    exp = config.load(str(path))
    units, _ = runner.plan(exp, runner.load_available(exp, True, print, True))
    return exp, units


def test_once_per_data_set_and_classifier(planned):
    """The first unit of a data set warms its three classifiers; its other units and a second call none."""
    exp, units = planned
    iris = [u for u in units if u.dataset.name == "iris"]
    car = [u for u in units if u.dataset.name == "car"]
    entries = [entry_of(c) for c in iris[0].classifiers]
    assert warmup.warm_up(iris[0], entries, exp.preprocess, exp.cv) == 3
    assert warmup.warm_up(iris[0], entries, exp.preprocess, exp.cv) == 0
    assert warmup.warm_up(iris[1], entries, exp.preprocess, exp.cv) == 0
    assert warmup.warm_up(car[1], entries, exp.preprocess, exp.cv) == 3


def test_slice(planned):
    """A tenth of the training rows, at least MIN_ROWS (all of a smaller fold), and no more test rows."""
    exp, units = planned
    car = next(u for u in units if u.dataset.name == "car")
    p = preprocessed_fold(car.dataset, exp.preprocess, exp.cv, car.run, car.fold)
    s = warmup.sliced(p)
    n = min(len(p.train), max(warmup.MIN_ROWS, len(p.train) // warmup.SHARE))
    assert len(s.train) == s.encoded.X_train.shape[0] == n < len(p.train)
    assert len(s.test) == s.encoded.X_test.shape[0] == min(len(p.test), n)
    assert np.array_equal(s.encoded.X_train, p.encoded.X_train[:n])
    assert s.encoded.cardinalities is p.encoded.cardinalities


def test_results_unchanged(planned):
    """The timed unit's probabilities and structures are bit for bit those without a warm-up."""
    exp, units = planned
    u = units[0]
    entries = [entry_of(c) for c in u.classifiers]
    cold = run_unit(u, entries, exp.preprocess, exp.cv)
    assert warmup.warm_up(u, entries, exp.preprocess, exp.cv) == 3
    warm = run_unit(u, entries, exp.preprocess, exp.cv)
    for a, b in zip(cold, warm, strict=True):
        assert a.proba.tobytes() == b.proba.tobytes()
        assert a.structure == b.structure and a.info == b.info


def test_error_left_to_the_timed_fit(planned):
    """A classifier that raises in the warm-up is counted as warmed; the exception is not raised there."""
    exp, units = planned

    class Raising:
        needs_counts = True
        needs_pairs = False

        def fit_fold(self, *args):
            raise ValueError("bad fit")

    raising: list[Any] = [Raising()] * len(units[0].classifiers)
    assert warmup.warm_up(units[0], raising, exp.preprocess, exp.cv) == 3


def test_settle_freezes_once(monkeypatch):
    """settle freezes the process's objects the first time only."""
    calls = []
    monkeypatch.setattr(warmup, "_settled", False)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(1))
    warmup.settle()
    warmup.settle()
    assert calls == [1]


def test_run_command_resumes_collections(tmp_path, monkeypatch):
    """`bncbench run` starts with garbage collection off; it is on again once the runner has settled,
    and after a run that failed before."""
    from bncbench.cli import run as cli_run
    from bncbench.errors import UserError

    frozen = []
    monkeypatch.setattr(warmup, "_settled", False)
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(gc.isenabled()))
    args = dict(results=str(tmp_path / "res"), datasets=None, classifiers="NB", jobs=1, executor=None,
                scheduler=None, fresh=False, strict=True, quiet=True)
    try:
        with pytest.raises(UserError):
            cli_run.run(str(tmp_path / "missing.yaml"), **args)  # type: ignore[arg-type]
        assert gc.isenabled() and frozen == []
        path = tmp_path / "warm.yaml"
        path.write_text(CONFIG)
        cli_run.run(str(path), **args)  # type: ignore[arg-type]
        assert frozen == [False] and gc.isenabled()
    finally:
        gc.enable()
