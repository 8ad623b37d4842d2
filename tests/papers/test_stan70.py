"""Acceptance: paper 000's printed TAN, AODE, KDB1 values of the 7 dev data sets (84 numbers)."""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import bnc_in

ROOT = Path(__file__).resolve().parents[2]
DEV = ["car", "nursery", "house-votes-84", "magic", "pendigits", "wine", "pima-ind-diabetes"]


def _reproduce(mirror, tmp_path, labels):
    """Run configs/stan70.yaml on the dev data sets for `labels` and compare with the paper."""
    env = dict(os.environ, BNCBENCH_MIRROR=str(mirror), BNCBENCH_CACHE=str(tmp_path / "cache"))
    res = tmp_path / "res"
    subprocess.run([sys.executable, "-m", "bncbench", "run", str(ROOT / "configs/stan70.yaml"), "--results", str(res),
                    "--datasets", ",".join(DEV), "--classifiers", ",".join(labels), "--quiet", "--jobs", "2"],
                   check=True, env=env, capture_output=True)
    got = {}
    for metric in ("zol", "rmse"):
        out = bnc_in("report", res, "--metric", metric, "--format", "csv", check=True).stdout
        for row in csv.DictReader(io.StringIO(out)):
            got[(row["dataset"], row["classifier"], metric)] = (format(float(row["mean"]), ".4f"),
                                                                format(float(row["sd"]), ".4f"))
    ref = mirror.parent / "reference" / "stan70-dev.tsv"
    checked, wrong = 0, []
    for row in csv.DictReader(io.StringIO(ref.read_text()), delimiter="\t"):
        name = row["classifier"]
        label = name.replace("STAN", "STAN-") if name.startswith("STAN") else name
        if label not in labels:
            continue
        for metric in ("zol", "rmse"):
            want = (row[metric], row[f"{metric}_sd"])
            have = got[(row["dataset"], label, metric)]
            checked += 2
            if have != want:
                wrong.append(f"{row['dataset']} {label} {metric}: {have} != {want}")
    return checked, wrong


@pytest.mark.mirror
@pytest.mark.slow
def test_stan70_dev_values_to_four_decimals(mirror, tmp_path):
    """Issue 2: TAN, AODE, KDB1 — 84 numbers."""
    checked, wrong = _reproduce(mirror, tmp_path, ["TAN", "AODE", "KDB1"])
    assert checked == 84
    assert not wrong, "\n".join(wrong)


@pytest.mark.mirror
@pytest.mark.slow
def test_stan70_dev_stan_values_to_four_decimals(mirror, tmp_path):
    """Issue 4: the five STAN rankings — 140 numbers."""
    checked, wrong = _reproduce(mirror, tmp_path, ["STAN-MI", "STAN-SU", "STAN-JMI", "STAN-CMIM", "STAN-MRMR"])
    assert checked == 140
    assert not wrong, "\n".join(wrong)
