"""`bncbench fit` and `bncbench predict` (docs/models.md): the files fit writes, the CSV predict prints,
and bad input refused in one line with exit code 2, nothing written."""

import csv
import io
import json
import zipfile

import numpy as np
import pytest

from bncbench.classifiers import REGISTRY
from bncbench.engine.units import load_dataset
from bncbench.experiment import DatasetSpec
from bncbench.models import modelfile
from bncbench.models.fitting import encode_all
from bncbench.preprocess.settings import PreprocessSettings
from tests.support.cli import bnc_in

CONFIG = """
name: models
datasets: [car, house-votes-84]
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, scope: global}
cv: {scheme: petal, folds: 10, runs: 1, seed: 0}
classifiers:
  - {name: TAN, label: TAN}
  - {name: AODE, label: AODE}
  - {name: "sklearn.naive_bayes:CategoricalNB", label: CNB, encoding: ordinal}
"""


@pytest.fixture
def cfg(tmp_path):
    p = tmp_path / "models.yaml"
    p.write_text(CONFIG)
    return p


def _one_line_exit_2(r):
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("error: "), r.stderr


def _votes_csv(path, rows):
    ds = load_dataset(DatasetSpec("house-votes-84"))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Class", *(a.name for a in ds.attributes)])  # the class first: ignored wherever it is
        w.writerows(rows)
    return ds


def test_fit_writes_the_model_and_the_bif_of_a_network(tmp_path, cfg):
    out = tmp_path / "models"
    r = bnc_in("fit", cfg, "--dataset", "car", "--classifier", "TAN", "--out", out, check=True)
    assert sorted(p.name for p in out.iterdir()) == ["car-TAN.bif", "car-TAN.bncmodel"]
    assert r.stdout == ""
    text = (out / "car-TAN.bif").read_text()
    assert text.startswith("network car-TAN {") and "probability ( class ) {" in text
    with zipfile.ZipFile(out / "car-TAN.bncmodel") as z:
        header = json.loads(z.read("header.json"))
    assert header["format"] == "bncbench-model" and header["version"] == modelfile.VERSION
    assert header["classifier"]["class"] == "TAN" and header["preprocessing"]["names"][0] == "buying"


def test_fit_of_an_ensemble_says_why_there_is_no_bif(tmp_path, cfg):
    out = tmp_path / "models"
    r = bnc_in("fit", cfg, "--dataset", "car", "--classifier", "AODE", "--out", out, check=True)
    assert sorted(p.name for p in out.iterdir()) == ["car-AODE.bncmodel"]
    assert r.stdout.count("\n") == 1 and r.stdout.startswith("no BIF for AODE: it averages one SPODE")


def test_predict_prints_a_probability_per_class_and_the_class(tmp_path, cfg):
    """On a file with missing cells and an undeclared value, as many rows as the file, each as the
    fitted classifier gives them for the engine's codes."""
    bnc_in("fit", cfg, "--dataset", "house-votes-84", "--classifier", "AODE", "--out", tmp_path, check=True)
    ds = _votes_csv(tmp_path / "new.csv", [["democrat", *(["y"] * 16)], ["", *(["?"] * 16)],
                                           ["republican", *(["maybe", "n"] * 8)]])
    r = bnc_in("predict", tmp_path / "house-votes-84-AODE.bncmodel", tmp_path / "new.csv", check=True)
    table = list(csv.reader(io.StringIO(r.stdout)))
    assert table[0] == ["P(democrat)", "P(republican)", "predicted"]
    assert len(table) == 4
    proba = np.array([[float(x) for x in row[:2]] for row in table[1:]])
    X, pre = encode_all(ds, PreprocessSettings(missing="distinct", scope="global"))
    clf = REGISTRY["AODE"](missing="value", cardinalities=pre.cardinalities, n_classes=2).fit(X, ds.y)
    k = pre.cardinalities - 1  # the code of a missing vote (every vote has missing values)
    codes = np.array([[ds.attributes[0].values.index("y")] * 16, k, [k[0], ds.attributes[1].values.index("n")] * 8])
    assert np.array_equal(proba, clf.predict_proba(codes))
    assert [row[2] for row in table[1:]] == [ds.classes[c] for c in np.argmax(proba, axis=1)]


def test_predict_writes_out(tmp_path, cfg):
    bnc_in("fit", cfg, "--dataset", "house-votes-84", "--classifier", "TAN", "--out", tmp_path, check=True)
    _votes_csv(tmp_path / "new.csv", [["democrat", *(["y"] * 16)]])
    r = bnc_in("predict", tmp_path / "house-votes-84-TAN.bncmodel", tmp_path / "new.csv", "--out",
               tmp_path / "p.csv", check=True)
    assert r.stdout == "" and (tmp_path / "p.csv").read_text().startswith("P(democrat),P(republican),predicted\n")


def test_predict_refuses_bad_input(tmp_path, cfg):
    bnc_in("fit", cfg, "--dataset", "house-votes-84", "--classifier", "TAN", "--out", tmp_path, check=True)
    model = tmp_path / "house-votes-84-TAN.bncmodel"
    (tmp_path / "short.csv").write_text("handicapped-infants,Class\ny,democrat\n")
    r = bnc_in("predict", model, tmp_path / "short.csv")
    _one_line_exit_2(r)
    assert "no column 'water-project-cost-sharing'" in r.stderr
    _one_line_exit_2(bnc_in("predict", model, tmp_path / "absent.csv"))
    (tmp_path / "bad.bncmodel").write_text("not a model")
    _votes_csv(tmp_path / "new.csv", [["democrat", *(["y"] * 16)]])
    _one_line_exit_2(r := bnc_in("predict", tmp_path / "bad.bncmodel", tmp_path / "new.csv"))
    assert "not a bncbench model file" in r.stderr
    with zipfile.ZipFile(model) as z:
        members = {n: z.read(n) for n in z.namelist()}
    header = json.loads(members["header.json"])
    header["version"] = modelfile.VERSION + 1
    members["header.json"] = json.dumps(header).encode()
    with zipfile.ZipFile(tmp_path / "newer.bncmodel", "w") as z:
        for n, data in members.items():
            z.writestr(n, data)
    _one_line_exit_2(r := bnc_in("predict", tmp_path / "newer.bncmodel", tmp_path / "new.csv",
                                 "--out", tmp_path / "p.csv"))
    assert f"format version {modelfile.VERSION + 1}" in r.stderr and not (tmp_path / "p.csv").exists()


@pytest.mark.parametrize("content,expected", [
    (b"Class,handicapped-infants,handicapped-infants\ndemocrat,y,n\n", "'handicapped-infants' is there more than once"),
    (b"Class,handicapped-infants\ndemocr\xe4t,y\n", "save it as UTF-8"),
], ids=["a column twice", "latin-1"])
def test_predict_refuses_a_data_file_it_cannot_read_as_meant(tmp_path, cfg, content, expected):
    bnc_in("fit", cfg, "--dataset", "house-votes-84", "--classifier", "TAN", "--out", tmp_path, check=True)
    (tmp_path / "new.csv").write_bytes(content)
    r = bnc_in("predict", tmp_path / "house-votes-84-TAN.bncmodel", tmp_path / "new.csv")
    _one_line_exit_2(r)
    assert expected in r.stderr and "entry" not in r.stderr  # no config entry to set an encoding in


def test_fit_refuses_an_out_that_is_not_a_folder(tmp_path, cfg):
    (tmp_path / "file").write_text("mine")
    (tmp_path / "broken").symlink_to(tmp_path / "nowhere")
    for out in ("file", "broken"):
        r = bnc_in("fit", cfg, "--dataset", "car", "--classifier", "TAN", "--out", tmp_path / out)
        _one_line_exit_2(r)
        assert "is not a folder" in r.stderr
    assert (tmp_path / "file").read_text() == "mine" and not (tmp_path / "nowhere").exists()
    r = bnc_in("fit", cfg, "--dataset", "car", "--classifier", "TAN", "--out", tmp_path / "file" / "sub")
    _one_line_exit_2(r)  # a folder that cannot be made: said as --out's
    assert r.stderr.startswith(f"error: --out {tmp_path / 'file' / 'sub'}: cannot write"), r.stderr


@pytest.mark.parametrize("args,expected", [
    (["--dataset", "car", "--classifier", "CNB"], "scikit-learn baseline"),
    (["--dataset", "car", "--classifier", "KDB9"], "--classifier: no classifier labelled 'KDB9'"),
    (["--dataset", "iris", "--classifier", "TAN"], "--dataset: 'iris'"),
])
def test_fit_refuses_bad_input(tmp_path, cfg, args, expected):
    r = bnc_in("fit", cfg, *args, "--out", tmp_path / "models")
    _one_line_exit_2(r)
    assert expected in r.stderr and not (tmp_path / "models").exists()


def test_predict_never_writes_over_its_model_or_its_data(tmp_path, cfg):
    bnc_in("fit", cfg, "--dataset", "house-votes-84", "--classifier", "TAN", "--out", tmp_path, check=True)
    model = tmp_path / "house-votes-84-TAN.bncmodel"
    _votes_csv(tmp_path / "new.csv", [["democrat", *(["y"] * 16)]])
    before = {p: p.read_bytes() for p in (model, tmp_path / "new.csv")}
    for out, what in ((tmp_path / "new.csv", "DATA"), (model, "MODEL")):
        r = bnc_in("predict", model, tmp_path / "new.csv", "--out", out)
        _one_line_exit_2(r)
        assert f"is the {what} file" in r.stderr
    assert all(p.read_bytes() == data for p, data in before.items())

