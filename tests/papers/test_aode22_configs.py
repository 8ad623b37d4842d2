"""Paper 003's configs and the bad input of its classifiers: one line naming the key, exit 2."""

from pathlib import Path

import pytest

from bncbench import config as cfg
from bncbench.experiment import WdlSettings
from tests.support.cli import assert_refused

ROOT = Path(__file__).resolve().parents[2]
LABELS = ["AODE", "SP", "SP+RC", "RC", "PAA", "CAA", "PAE", "CAE", "SR", "NSR"]


@pytest.mark.parametrize("name,estimator", [("aode22", "laplace"), ("aode22-laplace-joint", "laplace_joint")])
def test_paper_configs(name, estimator):
    exp = cfg.load(str(ROOT / "configs" / f"{name}.yaml"))
    assert [c.label for c in exp.classifiers] == LABELS and len(exp.datasets) == 22
    assert (exp.cv.scheme, exp.cv.folds, exp.cv.runs) == ("stratified", 2, 50)
    assert (exp.preprocess.missing, exp.preprocess.discretizer, exp.preprocess.mdl_method) == ("impute", "mdl", "weka")
    assert {c.params.get("estimator") for c in exp.classifiers} == {estimator}
    assert exp.wdl == WdlSettings(draw="exact4", draws="ignore", tails="two")


def test_large_config_compares_the_canonical_cover():
    exp = cfg.load(str(ROOT / "configs" / "aode22-large.yaml"))
    assert [d.name for d in exp.datasets] == ["pendigits", "sign", "nursery", "magic", "letter-recog"]
    assert [(c.label, c.params.get("rc_canonical_cover", True)) for c in exp.classifiers] == [
        ("SP+RC", True), ("SP+RC-nocover", False)]


@pytest.mark.parametrize("entry,key", [
    ("{name: NSR, nsr_ratio: 1.5}", "nsr_ratio"),
    ("{name: NSR, nsr_ratio: 0}", "nsr_ratio"),
    ("{name: SR, sr_min_freq: -1}", "sr_min_freq"),
    ("{name: SR, sr_minfreq: 10}", "sr_minfreq"),
    ("{name: SPRC, rc_min_support: 0}", "rc_min_support"),
    ("{name: PAE, wrapper_loss: auc}", "wrapper_loss"),
    ("{name: RC, rc_cover: false}", "rc_cover"),
])
def test_bad_parameters(tmp_path, entry, key):
    assert_refused(tmp_path, entry, key)
