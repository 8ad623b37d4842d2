"""`Results.structures` and `Results.attribute_names` (bncbench/results.py; docs/store.md:
Structures): the structures of a store equal those of the classifiers fitted directly on the fold
files `bncbench folds` writes (issue 38 item 6), and a store written before structures were kept
gets them by a refit with this code, only where this code computed its tasks."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bncbench import results
from bncbench.classifiers import REGISTRY
from bncbench.classifiers.learned import Learned
from bncbench.engine import refit
from bncbench.errors import UserError
from tests.engine.test_lineage import TAN, forget, store_then_refactor
from tests.engine.test_store_structures import as_format_3
from tests.oracles.baseline_features import read_fold_file
from tests.support.cli import bnc_in, run_store

ORACLE = """
name: shapes
datasets: [car, pima-ind-diabetes]
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, scope: global}
cv: {scheme: petal, folds: 3, runs: 2, seed: 0}
estimator: mestimate
m: 1
classifiers:
  - {name: TAN, label: TAN}
  - {name: KDB, k: 2, backoff: true, label: KDB2}
  - {name: STAN, ranking: mrmr, label: STAN-MRMR}
  - {name: AODE, label: AODE}
  - {name: sklearn.naive_bayes:CategoricalNB, label: CNB}
"""
# label: (the registry's name, its parameters), as the config above names them
FITTED: dict[str, tuple[str, dict[str, Any]]] = {"TAN": ("TAN", {}), "KDB2": ("KDB", {"k": 2, "backoff": True}),
                                                 "STAN-MRMR": ("STAN", {"ranking": "mrmr"}), "AODE": ("AODE", {})}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory):
    return run_store(tmp_path_factory, "shapes", ORACLE)


def _fitted_on_fold_files(folder: Path, dataset: str, label: str, run: int, fold: int) -> tuple[Learned, list[str]]:
    """What classifier `label` learns fitted by hand, through the Python API, on the fold's train
    file (the test file's rows for its per-row parts), and the files' attribute names."""
    name, params = FITTED[label]
    train, declared, y, classes = read_fold_file(folder / f"{dataset}-r{run}-f{fold}-train.arff")
    test, _, _, _ = read_fold_file(folder / f"{dataset}-r{run}-f{fold}-test.arff")
    assert all(d is not None for d in declared) and not np.isnan(np.column_stack(train)).any()
    cards = [len(d or ()) for d in declared]
    clf = REGISTRY[name](estimator="mestimate", m=1.0, cardinalities=cards, n_classes=len(classes), **params)
    clf.fit(np.column_stack(train).astype(np.int64), y)
    learned = clf.learned_structure(np.column_stack(test).astype(np.int64))
    assert learned is not None
    with open(folder / f"{dataset}-r{run}-f{fold}-train.arff") as f:
        names = [line.split()[1] for line in f if line.startswith("@attribute ")][:-1]
    return learned, names


@pytest.mark.parametrize("dataset", ["car", "pima-ind-diabetes"])
def test_structures_equal_classifiers_fitted_on_the_fold_files(shapes, tmp_path, dataset):
    folder = tmp_path / "folds"
    bnc_in("folds", shapes.parent / "config.yaml", "--dataset", dataset, "--out", folder, check=True)
    with results.open(shapes) as r:
        names = r.attribute_names(dataset)
        for label in FITTED:
            got = r.structures(dataset, label)
            assert [(s.run, s.fold) for s in got] == [(run, fold) for run in range(2) for fold in range(3)]
            for s in got:
                want, header = _fitted_on_fold_files(folder, dataset, label, s.run, s.fold)
                assert s.learned == want, (label, s.run, s.fold)
                assert names == header
        # a scikit-learn baseline reports no structure: each of its folds says so
        assert [s.learned for s in r.structures(dataset, "CNB")] == [None] * 6


def test_attribute_names_of_a_store_that_did_not_record_them(shapes, tmp_path):
    """A store of a run before the names were stored: the data set's file gives them."""
    import shutil

    res = tmp_path / "res"
    shutil.copytree(shapes, res)
    with results.open(res) as r:
        stored = r.attribute_names("car")
    with sqlite3.connect(res / "results.sqlite") as c:
        c.execute("DELETE FROM meta WHERE key = 'attributes'")
    c.close()
    with results.open(res) as r:
        assert r.attribute_names("car") == stored == ["buying", "maint", "doors", "persons", "lug_boot", "safety"]


def test_an_unknown_cell_is_one_line(shapes):
    with results.open(shapes) as r:
        with pytest.raises(UserError, match=r"'cars' has no results in .*did you mean 'car'"):
            r.structures("cars", "TAN")
        with pytest.raises(UserError, match=r"'TAM' has no results on car in .*did you mean 'TAN'.*"
                                            r"classifiers: TAN, KDB2, STAN-MRMR, AODE, CNB$"):
            r.structures("car", "TAM")


def test_reading_stored_structures_imports_no_engine(shapes):
    """A store that holds its structures is read without the engine that fits (or scikit-learn)."""
    code = (f"import sys; from bncbench import results; r = results.open({str(shapes)!r}); "
            f"assert r.structures('car', 'TAN')[0].learned.arcs; "
            f"print([m for m in ('sklearn', 'bncbench.engine.units', 'bncbench.engine.refit') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- a store written before structures were kept --------------------------------------------------
def test_a_store_of_this_code_without_structures_is_refitted(shapes, tmp_path):
    """Format 3 (no structure column) and every key current: each structure recomputed equals the
    one stored by the run; the store is not written."""
    import shutil

    res = tmp_path / "res"
    shutil.copytree(shapes, res)
    with results.open(res) as r:
        want = {lab: r.structures("pima-ind-diabetes", lab) for lab in (*FITTED, "CNB")}
    as_format_3(res)
    before = (res / "results.sqlite").read_bytes()
    with results.open(res) as r:  # the HTML report's way: no refit, the reason in one line
        with pytest.raises(UserError, match=r"stored before structures were; `bncbench structure .* --stability`"):
            r.structures("pima-ind-diabetes", "TAN", refit=False)
    with results.open(res) as r:
        assert {lab: r.structures("pima-ind-diabetes", lab) for lab in (*FITTED, "CNB")} == want
        assert all(f.learned is None for f in want["CNB"])  # scikit-learn's own: none, without a refit
    assert (res / "results.sqlite").read_bytes() == before


def test_the_html_report_of_an_older_store_does_not_refit_and_says_how(shapes, tmp_path, monkeypatch):
    """The HTML report's stability section over format-3 tasks: n/a cells whose note names the
    command that computes them, and no refit (engine/refit.py is not called)."""
    import shutil

    res = tmp_path / "res"
    shutil.copytree(shapes, res)
    as_format_3(res)
    page = tmp_path / "report.html"
    calls: list[str] = []
    real = refit.refit_structures

    def counted(*args, **kwargs):
        calls.append("refit")
        return real(*args, **kwargs)

    monkeypatch.setattr(refit, "refit_structures", counted)
    got = bnc_in("report", res, "--format", "html", "--out", page)
    assert got.returncode == 0, got.stderr
    text = page.read_text(encoding="utf-8")
    assert 'id="stability-table"' in text and "stored before structures were" in text
    assert f"bncbench structure {res} --stability" in text and not calls


@pytest.fixture
def older(monkeypatch, tmp_path):
    """A format-3 store whose tasks the previous version's code computed (test_lineage's
    `store_then_refactor`: this code, then engine/units.py "refactored"), with the structures its run
    stored before they were dropped."""
    res, write_record = store_then_refactor(monkeypatch, tmp_path)
    with results.open(res) as r:
        want = {lab: r.structures("synth:60x4x2:1", lab) for lab in ("NB", "TAN")}
    as_format_3(res)
    yield res, write_record, want
    monkeypatch.undo()
    forget()


def test_an_older_store_vouched_for_by_the_lineage_is_refitted(older):
    res, write_record, want = older
    write_record()  # the code lineage: the previous version's code is this code's (engine/lineage.py)
    with results.open(res) as r:
        got = {lab: r.structures("synth:60x4x2:1", lab) for lab in ("NB", "TAN")}
    assert got == want and all(s.learned is not None and s.learned.arcs for s in want["TAN"])


def test_an_older_store_of_other_code_is_refused(older):
    """No lineage vouches for the code that computed the tasks: one line, never another model."""
    res, _, _ = older
    with results.open(res) as r:
        for label in ("NB", "TAN"):
            with pytest.raises(UserError) as e:
                r.structures("synth:60x4x2:1", label)
            assert "\n" not in str(e.value) and "were stored without their structures by other code or data than " \
                "this bncbench" in str(e.value) and f"bncbench run CONFIG --results {res}" in str(e.value)


def test_only_the_classifiers_the_lineage_vouches_for_are_refitted(older):
    res, write_record, want = older
    write_record(lambda side: side[TAN].__setitem__(0, "0" * 64))  # TAN's previous code was other code
    with results.open(res) as r:
        assert r.structures("synth:60x4x2:1", "NB") == want["NB"]
        with pytest.raises(UserError, match="by other code or data than this bncbench"):
            r.structures("synth:60x4x2:1", "TAN")


def test_a_refit_that_does_not_predict_what_is_stored_is_refused(older, monkeypatch):
    """The last guard: a refit whose predictions differ from the stored ones is not answered."""
    res, write_record, _ = older
    write_record()
    real = refit.run_unit

    def other_model(*args, **kwargs):
        out = real(*args, **kwargs)
        out[0].proba = out[0].proba[:, ::-1]
        return out

    monkeypatch.setattr(refit, "run_unit", other_model)
    with results.open(res) as r, pytest.raises(UserError, match="does not predict what is stored"):
        r.structures("synth:60x4x2:1", "TAN")
