"""Oracle: pgmpy reads the BIF that `bncbench fit` writes, and its exact posteriors of the class given
every attribute equal `bncbench predict`'s on every row of car, pima-ind-diabetes and nursery, to 1e-9,
for NB, TAN, KDB (k = 2) and STAN (issue 38, item 6)."""

import csv
import io

import numpy as np
import pytest
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader

from bncbench.engine.units import load_dataset
from bncbench.experiment import DatasetSpec
from tests.support.cli import bnc_in

CONFIG = """
name: bif
datasets: [car, pima-ind-diabetes, nursery]
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, scope: global}
cv: {scheme: petal, folds: 10, runs: 1, seed: 0}
info_precision: float32
classifiers:
  - {name: NB, label: NB}
  - {name: TAN, label: TAN}
  - {name: KDB, k: 2, backoff: true, label: KDB2}
  - {name: STAN, ranking: mrmr, label: STAN}
"""
#: the rows of each (data set, classifier) that also go through pgmpy's variable elimination
VE_ROWS = 25


def _csv(ds) -> str:
    """The data set as a CSV file with its class column: values as declared, numbers as text."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*(a.name for a in ds.attributes), "class"])
    cols = [[a.values[c] for c in col] if a.values is not None else [repr(float(v)) for v in col]
            for a, col in zip(ds.attributes, ds.columns)]
    w.writerows([*r, ds.classes[y]] for r, y in zip(zip(*cols), ds.y))
    return buf.getvalue()


def _interval(state: str) -> tuple[float, float]:
    """(lo, hi) of a bin's state name "(lo-hi]"."""
    body = state[1:-1]
    for i in range(1, len(body)):
        if body[i] == "-":
            try:
                return float(body[:i]), float(body[i + 1:])
            except ValueError:
                continue
    raise AssertionError(state)


def _state_index(values: list, states: list[str], numeric: bool) -> np.ndarray:
    """Each row's state of a variable, from its raw value: the state of that name, or the bin (lo, hi] holding
    it, compared in float32 (the precision of eqfreq_method petal's cut points, docs/models.md: BIF)."""
    if not numeric:
        pos = {s: k for k, s in enumerate(states)}
        return np.array([pos[v] for v in values])
    bounds = np.array([_interval(s) for s in states], dtype=np.float32)
    v = np.asarray(values, dtype=np.float32)[:, None]
    inside = (v > bounds[:, 0]) & (v <= bounds[:, 1])
    assert (inside.sum(axis=1) == 1).all()
    return inside.argmax(axis=1)


def _posteriors_from_cpds(model, rows_of: dict[str, np.ndarray], class_var: str) -> np.ndarray:
    """P(class | every attribute) on every row from the CPDs pgmpy read: their product, normalised."""
    classes = model.get_cpds(class_var).state_names[class_var]
    n = len(next(iter(rows_of.values())))
    logp = np.zeros((n, len(classes)))
    for cpd in model.get_cpds():
        values = np.log(cpd.get_values().reshape([cpd.variable_card, *cpd.cardinality[1:]]))
        for c in range(len(classes)):
            idx = tuple(np.full(n, c) if v == class_var else rows_of[v] for v in cpd.variables)
            logp[:, c] += values[idx]
    logp -= logp.max(axis=1, keepdims=True)
    p = np.exp(logp)
    return p / p.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def fitted(tmp_path_factory, mirror):
    """Every (data set, classifier) of CONFIG fitted (`bncbench fit`) and predicted on its own rows
    (`bncbench predict` on a CSV of them): {(data set, label): (BIF path, predicted probabilities, CSV rows)}."""
    d = tmp_path_factory.mktemp("bif")
    (d / "bif.yaml").write_text(CONFIG)
    env = {"BNCBENCH_MIRROR": str(mirror)}
    out = {}
    for name in ("car", "pima-ind-diabetes", "nursery"):
        ds = load_dataset(DatasetSpec(name))
        data = d / f"{name}.csv"
        data.write_text(_csv(ds))
        for label in ("NB", "TAN", "KDB2", "STAN"):
            bnc_in("fit", d / "bif.yaml", "--dataset", name, "--classifier", label, "--out", d / "models",
                   env=env, check=True)
            r = bnc_in("predict", d / "models" / f"{name}-{label}.bncmodel", data, env=env, check=True)
            table = list(csv.reader(io.StringIO(r.stdout)))
            assert table[0] == [*(f"P({c})" for c in ds.classes), "predicted"]
            proba = np.array([[float(x) for x in row[:-1]] for row in table[1:]])
            out[name, label] = (d / "models" / f"{name}-{label}.bif", proba, ds)
    return out


@pytest.mark.mirror
@pytest.mark.parametrize("label", ["NB", "TAN", "KDB2", "STAN"])
@pytest.mark.parametrize("name", ["car", "pima-ind-diabetes", "nursery"])
def test_pgmpy_exact_posteriors_equal_predict(fitted, name, label):
    path, proba, ds = fitted[name, label]
    model = BIFReader(str(path)).get_model()
    assert model.check_model()
    class_var = "class"
    classes = model.get_cpds(class_var).state_names[class_var]
    assert classes == ds.classes
    assert proba.shape == (ds.n_instances, ds.n_classes)
    rows_of = {}
    for a, col in zip(ds.attributes, ds.columns):
        if a.name not in model.nodes():
            continue  # an attribute the model does not use (STAN's unselected ones)
        states = model.get_cpds(a.name).state_names[a.name]
        values = [a.values[c] for c in col] if a.values is not None else list(col)
        rows_of[a.name] = _state_index(values, states, a.values is None)
    if label != "STAN":
        assert len(rows_of) == ds.n_attributes
    p = _posteriors_from_cpds(model, rows_of, class_var)
    assert np.abs(p - proba).max() < 1e-9
    ve = VariableElimination(model)
    for r in np.linspace(0, ds.n_instances - 1, VE_ROWS).astype(int):
        evidence = {v: model.get_cpds(v).state_names[v][rows_of[v][r]] for v in rows_of}
        q = ve.query([class_var], evidence=evidence, show_progress=False)
        exact = np.array([q.get_value(**{class_var: c}) for c in classes])
        assert np.abs(exact - proba[r]).max() < 1e-9, (r, exact, proba[r])
