"""STAN: incremental leave-one-out equals brute-force leave-one-out; rankings; selection."""

from collections.abc import Sequence

import numpy as np
import pytest

from bncbench.classifiers import STAN, TAN
from bncbench.classifiers.tan.rankings import rank
from tests.oracles.tan.stan import brute_force_loo_risks
from tests.support.cli import bnc_in
from tests.support.data import random_data


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


# Seven attributes of 150 rows and the class (codes as digit strings), chosen from seeded random
# draws (noisy functions of the class and of earlier attributes) so that (1) every pick of every
# ranking below wins by at least 0.004 bits (no near tie: the rule, not float summation order,
# decides; see `gaps`), (2) the six orders differ from each other, and (3) each of these
# changes of a formula changes its order (checked with tests/oracles/tan/rankings.py): MRMR's mean
# redundancy (1/k) Σ I(X; X') → max_{X'} I(X; X') in the ratio and in the difference form, the
# ratio's + 0.01 → + 0, CMIM's min → max and → mean, I(X; Y | X') → I(X'; Y | X), JMI's Σ → max
# and → min, SU → MI, and SU's denominator H(X) + H(Y) → H(X).
RANK_Y = ("121202110110021102011101202002102021220102212000202012022001220212000011010222210222221100"
          "110000101201200011001102221010100101020111020012001012001122")
RANK_X = [
    "121200110120121100111200200012102021020102202000202012222201121212002011012222211220121100"
    "110200101101020011001121221010100101020020020200001022101121",
    "331200110330101100101000133022222323020102130000022012222201102212302211032302111020311101"
    "120000101201000212001121221010100302030020010200001221121132",
    "101001100000121100101001100122022200220022120002011212220102121012020221002022101121010100"
    "110001100202000010002101001011100022201022020202001201100222",
    "100100111110001000010101001010100001100100000010000010000101110010100010010000010000101110"
    "110000011101000011011000011000000101000111000110111110101111",
    "101010001110000100110000110101001111010100111000001010000011100110110001000000111001110101"
    "010100101100000010111101001111100001010111010101110000011101",
    "222212112222021202121101012000100102200222020210200022122212020022211012010222001122102201"
    "122220202001200001112200222111100102000222102110121012012022",
    "223233310320102222212100002120120131001300313002213111232303102220022212312032312203322210"
    "321301201033200021003103212020202013221133000010000010101310",
]
# the full orders (tests/oracles/tan/rankings.py, each pick by a margin of at least 0.004 bits)
RANK_ORDERS = {
    ("mi", "ratio"): [0, 1, 5, 3, 6, 2, 4],
    ("su", "ratio"): [0, 3, 1, 5, 6, 2, 4],
    ("mrmr", "ratio"): [0, 5, 3, 6, 4, 1, 2],
    ("mrmr", "difference"): [0, 5, 3, 6, 1, 4, 2],
    ("cmim", "ratio"): [0, 5, 6, 3, 1, 2, 4],
    ("jmi", "ratio"): [0, 5, 4, 1, 6, 3, 2],
}


def _ranking_data():
    X = np.array([[int(ch) for ch in col] for col in RANK_X]).T
    y = np.array([int(ch) for ch in RANK_Y])
    return X, y


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("method,form", list(RANK_ORDERS))
def test_rankings_by_hand(method, form, precision):
    """Every ranking's FULL order (MI, SU, MRMR in both forms, CMIM, JMI; §4.5.1) against the
    plain-Python oracle and against the orders written above."""
    from tests.oracles.tan import rankings as oracle

    X, y = _ranking_data()
    order, gaps = oracle.rank(X.tolist(), y.tolist(), method, form)
    assert order == RANK_ORDERS[(method, form)] and min(gaps) > 0.004
    s = STAN(ranking=method, mrmr_form=form, info_precision=precision, cardinalities=X.max(axis=0) + 1,
             n_classes=3).fit(X, y)
    assert s.ranking_ == order
    assert rank(s.counts_, method, precision, mrmr_form=form) == order


def test_rankings_differ_and_mutants_would_show():
    """The data above separate the rankings: each order differs from the others, and the
    oracle with MRMR's redundancy as a max (not the mean) gives other orders in both forms."""
    from tests.oracles.tan import rankings as oracle

    X, y = _ranking_data()
    orders = [tuple(o) for o in RANK_ORDERS.values()]
    assert len(set(orders)) == len(orders)
    cols = [X[:, i].tolist() for i in range(X.shape[1])]
    rel = [oracle.mi(c, y.tolist()) for c in cols]

    def max_redundancy(form):
        order = [int(np.argmax(rel))]
        while len(order) < len(cols):
            cand = [c for c in range(len(cols)) if c not in order]
            red = {c: max(oracle.mi(cols[c], cols[s]) for s in order) for c in cand}
            score = {c: rel[c] / (red[c] + 0.01) if form == "ratio" else rel[c] - red[c] for c in cand}
            order.append(max(cand, key=lambda c: (score[c], -c)))
        return order

    for form in ("ratio", "difference"):
        assert max_redundancy(form) != RANK_ORDERS[("mrmr", form)]


def test_rankings_keep_attribute_order_on_exact_ties():
    """§4.5.1: ties → the smallest attribute index. An exact copy of a column has bit-identical
    count blocks, so its MI and SU are the same floats wherever it stands; placed right after
    its original, its blocks with every other column are also the same, so its MRMR, CMIM and
    JMI scores are the same floats as the original's at every step. The original always comes
    first. (Only ties that are exact floats today; ties that are equal only in exact arithmetic
    are the subject of the tie rule of issue 19.)"""
    X, y = _ranking_data()
    cases: list[tuple[int, int, Sequence[str | tuple[str, str]]]] = [
        (src, at, methods) for src, at in ((1, 0), (1, 7), (4, 2)) for methods in [("mi", "su")]]
    cases += [(src, src + 1, list(RANK_ORDERS)) for src in (0, 3, 5)]
    for src, at, methods in cases:
        Xd = np.insert(X, at, X[:, src], axis=1)
        orig = src + (1 if at <= src else 0)  # the original column's new index
        first, second = min(at, orig), max(at, orig)
        for method in methods:
            method, form = method if isinstance(method, tuple) else (method, "ratio")
            order = STAN(ranking=method, mrmr_form=form, cardinalities=Xd.max(axis=0) + 1,
                         n_classes=3).fit(Xd, y).ranking_
            assert order.index(first) < order.index(second), (method, form, src, at, order)


def test_selected_recorded_in_results(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: [iris, house-votes-84]\ncv: {folds: 3}\nclassifiers:\n"
                   "  - {name: TAN}\n  - {name: STAN, ranking: mrmr, label: STAN-MRMR}\n")
    res = tmp_path / "r"
    bnc_in("run", cfg, "--results", res, "--quiet", check=True)
    out = bnc_in("report", res, "--metric", "selected", "--format", "csv", check=True).stdout.splitlines()
    rows = {tuple(l.split(",")[:2]): l.split(",")[3] for l in out[1:]}
    assert ("iris", "TAN") not in rows  # not a selective classifier: report shows only those with the metric
    assert 1 <= float(rows[("house-votes-84", "STAN-MRMR")]) <= 16
