"""STAN: incremental leave-one-out equals brute-force leave-one-out; rankings; selection."""

import numpy as np
import pytest

from bncbench.classifiers import STAN, TAN
from bncbench.classifiers.tan.rankings import rank
from tests.classifiers.test_reference_agreement import random_data
from tests.oracles.basic import brute_force_loo_risks


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("est", ["mestimate", "laplace", "laplace_joint"])
@pytest.mark.parametrize("miss", ["value", "skip"])
@pytest.mark.parametrize("backoff", [False, True])
def test_incremental_loo_equals_brute_force(seed, est, miss, backoff):
    X, y, _, cards, nc = random_data(seed, n_train=40, n_attr=5)
    clf = STAN(ranking="mrmr", estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc,
               loo_backoff=backoff).fit(X, y)
    want = brute_force_loo_risks(X.tolist(), y.tolist(), nc, cards.tolist(), clf.parents_.tolist(), clf.ranking_,
                                 est, 1.0, miss, backoff)
    np.testing.assert_allclose(clf.loo_risk_, want, rtol=0, atol=1e-12)


def test_selection_takes_first_minimum_and_full_model_is_tan():
    X, y, Xt, cards, nc = random_data(4, n_train=80)
    s = STAN(ranking="mi", cardinalities=cards, n_classes=nc).fit(X, y)
    risks = s.loo_risk_[1:]
    assert s.n_selected_ == int(np.flatnonzero(risks == risks.min())[0]) + 1
    t = TAN(cardinalities=cards, n_classes=nc).fit(X, y)
    s.selected_ = s.ranking_  # model s = n is regular TAN
    np.testing.assert_allclose(s.predict_proba(Xt), t.predict_proba(Xt), rtol=0, atol=1e-12)


def _mi(x, y):
    import math
    from collections import Counter

    n = len(x)
    cxy, cx, cy = Counter(zip(x, y)), Counter(x), Counter(y)
    return sum(k / n * math.log2(k * n / (cx[a] * cy[b])) for (a, b), k in cxy.items())


def test_rankings_by_hand():
    """MI ranking and the first MRMR/CMIM/JMI picks against direct computations."""
    X, y, _, cards, nc = random_data(6, n_train=200, p_missing=0.0)
    s = STAN(cardinalities=cards, n_classes=nc).fit(X, y)
    mi = [_mi(X[:, i].tolist(), y.tolist()) for i in range(X.shape[1])]
    assert rank(s.counts_, "mi") == sorted(range(len(mi)), key=lambda i: -mi[i])
    first = int(np.argmax(mi))
    for method in ("mrmr", "cmim", "jmi"):
        assert rank(s.counts_, method)[0] == first
    # MRMR's second pick by the ratio formula of eq. 14
    aa = [_mi(X[:, first].tolist(), X[:, j].tolist()) for j in range(X.shape[1])]
    scores = {j: mi[j] / (aa[j] + 0.01) for j in range(X.shape[1]) if j != first}
    assert rank(s.counts_, "mrmr")[1] == max(sorted(scores), key=lambda j: scores[j])
    # CMIM's second pick: argmax I(X;Y|X_first); JMI's: the same (one selected attribute)
    joint = [_mi([f"{a},{b}" for a, b in zip(X[:, j], X[:, first])], y.tolist()) - mi[first]
             for j in range(X.shape[1])]
    cand = {j: joint[j] for j in range(X.shape[1]) if j != first}
    best = max(sorted(cand), key=lambda j: cand[j])
    assert rank(s.counts_, "cmim")[1] == best and rank(s.counts_, "jmi")[1] == best


def test_selected_recorded_in_results(tmp_path):
    import subprocess
    import sys

    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: [iris, house-votes-84]\ncv: {folds: 3}\nclassifiers:\n"
                   "  - {name: TAN}\n  - {name: STAN, ranking: mrmr, label: STAN-MRMR}\n")
    res = tmp_path / "r"
    subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(res), "--quiet"], check=True)
    out = subprocess.run([sys.executable, "-m", "bncbench", "report", str(res), "--metric", "selected", "--format",
                          "csv"], check=True, capture_output=True, text=True).stdout.splitlines()
    rows = {tuple(l.split(",")[:2]): l.split(",")[3] for l in out[1:]}
    assert rows[("iris", "TAN")] == ""  # not a selective classifier
    assert 1 <= float(rows[("house-votes-84", "STAN-MRMR")]) <= 16
