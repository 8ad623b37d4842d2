"""Independent oracle: Weka 3.6 (Debian's weka.jar) on folds exported with `bncbench folds`."""

import numpy as np
import pytest

from bncbench.classifiers import AODE, NB
from bncbench.cli.run import folds
from bncbench.data import catalog
from bncbench.data.sources import SHIPPED_MIRROR
from bncbench.preprocess import discretize

DATASETS = ["labor-negotiations", "house-votes-84", "soybean", "iris", "wine", "pima-ind-diabetes", "car"]

CONFIG = """
name: weka-check
datasets: [{datasets}]
preprocess: {{missing: skip, discretizer: {disc}, eqfreq_method: weka, mdl_method: weka, scope: fold}}
cv: {{scheme: stratified, folds: 3, runs: 1, seed: 1}}
estimator: laplace
classifiers: [NB]
"""


def _export(tmp_path, name, disc):
    cfg = tmp_path / "weka.yaml"
    cfg.write_text(CONFIG.format(datasets=name, disc=disc))
    out = tmp_path / "folds"
    folds(str(cfg), dataset=name, out=str(out))  # `bncbench folds`, in this process
    return out


def _ours(cls, kwargs, train_path, test_path):
    from bncbench.data.loaders import build_dataset, parse_arff

    tr = build_dataset("t", parse_arff(train_path.read_text(), str(train_path)), -1)
    te = build_dataset("t", parse_arff(test_path.read_text(), str(test_path)), -1)
    cards = [len(a.values) for a in tr.attributes if a.values is not None]
    assert len(cards) == tr.n_attributes  # the exported folds are discretised: every attribute nominal
    Xtr, Xte = np.column_stack(tr.columns), np.column_stack(te.columns)
    clf = cls(missing="skip", cardinalities=cards, n_classes=len(tr.classes), **kwargs)
    return clf.fit(Xtr, tr.y).predict_proba(Xte)


@pytest.mark.weka
@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("disc", ["eqfreq", "mdl"])
def test_posteriors_equal_weka(weka, tmp_path, name, disc):
    out = _export(tmp_path, name, disc)
    checked = 0
    for f in range(3):
        train, test = out / f"{name}-r0-f{f}-train.arff", out / f"{name}-r0-f{f}-test.arff"
        for weka_name, cls, kwargs, opts in [
            ("NaiveBayes", NB, {"estimator": "laplace"}, []),
            ("AODE", AODE, {"estimator": "laplace", "min_freq": 1}, ["-F", "1"]),
            ("AODE", AODE, {"estimator": "mestimate", "m": 1.0, "min_freq": 1}, ["-F", "1", "-M", "-W", "1"]),
        ]:
            want = np.loadtxt(weka("dist", weka_name, str(train), str(test), *opts).splitlines(), ndmin=2)
            got = _ours(cls, kwargs, train, test)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-6, err_msg=f"{weka_name} {opts} fold {f}")
            checked += got.shape[0]
    assert checked > 0


def _columns(path):
    from bncbench.data.loaders import build_dataset, parse_arff

    return build_dataset("t", parse_arff(path.read_text(), str(path)), -1)


@pytest.mark.weka
@pytest.mark.parametrize("file", ["iris.arff", "wine.arff", "diabetes.arff", "labor.arff"])
@pytest.mark.parametrize("method", ["eqfreq", "mdl"])
def test_cut_points_equal_weka(weka, tmp_path, file, method):
    src = SHIPPED_MIRROR / "arff" / file
    text = src.read_text()
    if file == "wine.arff":  # Weka's oracle takes the class as the last attribute: move it there
        ds = catalog.load("wine")
        lines = ["@relation wine"] + [f"@attribute a{i} numeric" for i in range(ds.n_attributes)]
        lines += ["@attribute class {" + ",".join(ds.classes) + "}", "@data"]
        for r in range(ds.n_instances):
            lines.append(",".join(repr(float(c[r])) for c in ds.columns) + "," + ds.classes[ds.y[r]])
        text = "\n".join(lines) + "\n"
    path = tmp_path / file
    path.write_text(text)
    ds = _columns(path)
    want = {}
    for line in weka("cuts", method, str(path)).splitlines():
        parts = line.split()
        want[int(parts[0])] = [float(x) for x in parts[1:]]
    numeric = [i for i, a in enumerate(ds.attributes) if not a.nominal]
    assert numeric and sorted(want) == numeric  # class is last, so attribute indices coincide
    for i in numeric:
        col = ds.columns[i]
        known = ~np.isnan(col)
        if method == "eqfreq":
            got = discretize.eqfreq_weka(col[known], 5)
        else:
            got = discretize.mdl(col[known], ds.y[known], ds.n_classes, "weka")
        assert got.tolist() == want[i], f"attribute {ds.attributes[i].name}"
