"""Paper 004's configs and the bad input its classifiers and evaluation scheme can get: each a
one-line error naming the key, exit code 2, nothing written."""

from pathlib import Path

import pytest

from bncbench import config as cfg
from tests.support.cli import bnc

ROOT = Path(__file__).resolve().parents[2]
LABELS = ["TAN", "KDB", "CFWNB", "FKDB", "SKDB", "TAODE", "IWAODE", "TAN-AIT", "KDB-AIT"]

BASE = """
name: bad
datasets: [zoo]
preprocess: {discretizer: mdl, mdl_method: petal}
cv: {scheme: petal, folds: 10, runs: 1, seed: 0}
classifiers:
  - CLASSIFIER
"""


@pytest.mark.parametrize("name", ["ait36", "ait36-bv"])
def test_paper_configs_have_the_papers_labels_and_protocol(name):
    exp = cfg.load(str(ROOT / "configs" / f"{name}.yaml"))
    assert [c.label for c in exp.classifiers] == LABELS
    assert len(exp.datasets) == 36 and exp.datasets[13].name == "crx"
    assert exp.datasets[13].settings(exp.preprocess).scope == "global"
    assert exp.datasets[12].settings(exp.preprocess).scope == "fold"  # credit-a: per fold
    assert (exp.preprocess.discretizer, exp.preprocess.mdl_method, exp.preprocess.missing) == ("mdl", "petal",
                                                                                                "distinct")
    assert exp.cv.scheme == ("petal-bv" if name == "ait36-bv" else "petal")
    params = {c.label: c.params for c in exp.classifiers}
    assert params["KDB-AIT"]["base"] == "KDB" and params["KDB-AIT"]["k"] == 2 and params["SKDB"]["k_max"] == 5
    assert all(p.get("info_precision", "float32") == "float32" for p in params.values())


@pytest.mark.parametrize("entry,cv,key", [
    ("{name: AIT, base: NB}", None, "base"),
    ("{name: AIT, base: KDB, cip_structure: pooled}", None, "cip_structure"),
    ("{name: SKDB, k_max: -1}", None, "k_max"),
    ("{name: SKDB, skdb_variant: exact}", None, "skdb_variant"),
    ("{name: CFWNB, cfwnb_mi: laplace}", None, "cfwnb_mi"),
    ("{name: NB}", "cv: {scheme: petal-bv, runs: 10, sample: 3}", "sample"),
    ("{name: NB}", "cv: {scheme: petal-bv, folds: 10}", "folds"),
    ("{name: NB}", "cv: {scheme: petal, divisor: 3}", "divisor"),
    ("{name: NB}", "cv: {scheme: bias-variance}", "scheme"),
])
def test_bad_input_is_one_line_naming_the_key(tmp_path, entry, cv, key):
    text = BASE.replace("CLASSIFIER", entry)
    if cv:
        text = text.replace("cv: {scheme: petal, folds: 10, runs: 1, seed: 0}", cv)
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    r = bnc("run", path, "--results", tmp_path / "res")
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and key in lines[0] and "bad.yaml:" in lines[0], r.stderr
    assert not (tmp_path / "res").exists()


def test_a_model_without_skip_is_refused_under_missing_skip(tmp_path):
    path = tmp_path / "skip.yaml"
    path.write_text(BASE.replace("CLASSIFIER", "{name: SKDB}").replace("mdl_method: petal", "missing: skip"))
    r = bnc("run", path, "--results", tmp_path / "res")
    assert r.returncode == 2 and "SKDB does not support" in r.stderr and len(r.stderr.strip().splitlines()) == 1
