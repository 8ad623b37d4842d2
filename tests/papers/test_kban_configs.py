"""Bad input of paper 002's classifiers: one line naming the key, exit 2, nothing written."""

import pytest

from tests.support.cli import assert_refused


@pytest.mark.parametrize("entry,key", [
    ("{name: KBAN, k: -1}", "k"),
    ("{name: KBAN, k: 1.5}", "k"),
    ("{name: KBAN, kban_eval: cv}", "kban_eval"),
    ("{name: BAN, method: k2}", "method"),
    ("{name: BAN, ban_max_parents: -2}", "ban_max_parents"),
])
def test_bad_parameters(tmp_path, entry, key):
    assert_refused(tmp_path, entry, f".{key}:")


def test_paper_config():
    from pathlib import Path

    from bncbench import config as cfg

    exp = cfg.load(str(Path(__file__).resolve().parents[2] / "configs" / "kban.yaml"))
    assert [c.label for c in exp.classifiers] == ["NB", "TAN", "BAN", "BAN-MDL", "3-BAN"]
    assert [c.params.get("method") for c in exp.classifiers[2:4]] == ["tpda", "hc"]
    assert exp.classifiers[4].params["k"] == 3 and len(exp.datasets) == 55
    assert {"mushrooms", "nursery"} <= {d.name for d in exp.datasets}
    assert (exp.cv.scheme, exp.cv.folds, exp.cv.runs) == ("stratified", 10, 20)
    assert (exp.preprocess.missing, exp.preprocess.discretizer) == ("distinct", "mdl")
    assert {c.params.get("estimator") for c in exp.classifiers} == {"laplace"}
