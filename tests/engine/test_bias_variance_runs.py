"""Kohavi–Wolpert over repeated CV on a real data set (docs/algorithms.md §5.5): for every
(data set, classifier) row of `bncbench report`, bias + variance equals the mean ZOL over the runs
(each run predicts every instance once), with paper 003's protocol (50 × 2-fold CV)."""

import csv
import io

from tests.support.cli import bnc_in

CONFIG = """
name: kw
datasets: [iris, labor-negotiations]
preprocess: {missing: impute, discretizer: mdl, mdl_method: weka, scope: fold}
cv: {scheme: stratified, folds: 2, runs: 50, seed: 1}
estimator: laplace_joint
classifiers: [NB, AODE, {name: KDB, k: 2}]
"""


def _report(res, metric):
    out = bnc_in("report", res, "--metric", metric, "--format", "csv", check=True).stdout
    return {(r["dataset"], r["classifier"]): float(r["mean"]) for r in csv.DictReader(io.StringIO(out))}


def test_bias_plus_variance_is_the_mean_zol_of_the_runs(tmp_path):
    cfg = tmp_path / "kw.yaml"
    cfg.write_text(CONFIG)
    bnc_in("run", cfg, "--results", tmp_path / "res", "--quiet", check=True)
    zol, bias, var = (_report(tmp_path / "res", m) for m in ("zol", "bias", "variance"))
    assert len(zol) == 6 and zol.keys() == bias.keys() == var.keys()
    for key in zol:
        assert abs(bias[key] + var[key] - zol[key]) < 1e-12, key
        assert var[key] > 0  # 50 different training samples: the predictions do vary
