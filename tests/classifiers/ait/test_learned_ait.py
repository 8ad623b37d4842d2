"""What TAN-AIT and KDB-AIT report as learned (docs/algorithms.md §11): the training-data network's
arcs (checked against the posteriors in tests/classifiers/test_learned.py), and per test row the
share of those arcs the row's local networks left out, equal to a slow loop over the rows of
AIT's own local structures (`_structures`, one row at a time)."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import AIT
from bncbench.classifiers.kernels.learned_network import forget_rows
from tests.classifiers.test_learned import fitted

DATASETS = ["wine", "house-votes-84", "pima-ind-diabetes", "car", "random-0"]
CASES = [
    ("TAN-AIT", {}),
    ("TAN-AIT-per-label", {"cip_structure": "per_label"}),
    ("TAN-target-learning", {"ait": False}),
    ("KDB-AIT", {"base": "KDB"}),
    ("KDB-AIT-per-label-f32", {"base": "KDB", "cip_structure": "per_label", "info_precision": "float32"}),
    ("KDB-AIT-local-only", {"base": "KDB", "cii": False, "local_k": 1}),
]


def loop_shares(clf, rows: np.ndarray) -> dict:
    """Per arc of the reported network: the share of rows none of whose label's local network
    (after its threshold) has it, one row at a time."""
    X, lo, hi = clf._validate_X(rows, reset=False)
    Xc = clf._internal(X, lo, hi)
    arcs = clf.learned_structure().arcs
    dropped = dict.fromkeys(arcs, 0)
    for r in range(Xc.shape[0]):
        pruned = clf._structures(Xc[r:r + 1])["pruned"][0]  # (labels, n, k)
        for p, c in arcs:
            if p not in pruned[:, c, :]:
                dropped[p, c] += 1
    return {a: d / Xc.shape[0] for a, d in dropped.items()}


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("label,kw", CASES, ids=[c[0] for c in CASES])
def test_arc_shares_equal_a_loop_over_the_rows(label, kw, name):
    clf, X, _y, Xt, _cards, _nc = fitted(lambda **k: AIT(**kw, **k), name)
    rows = np.vstack([Xt, X[:80]])
    learned = clf.learned_structure(rows)
    want = loop_shares(clf, rows)
    assert learned.arcs == tuple(sorted((int(p), c) for c, par in enumerate(clf.parents_) for p in par))
    assert learned.arc_dropped.keys() == want.keys()
    for arc, share in want.items():
        assert learned.arc_dropped[arc] == pytest.approx(share, abs=1e-12), arc
    assert learned.attribute_dropped == {} and learned.submodels == ()


def test_the_local_networks_leave_arcs_out_on_these_data():
    shares = []
    for name in DATASETS:
        clf, X, _y, Xt, _cards, _nc = fitted(AIT, name)
        shares += clf.learned_structure(np.vstack([Xt, X])).arc_dropped.values()
    assert 0 < max(shares) and min(shares) < 1


def test_without_local_networks_nothing_is_per_row():
    clf, _X, _y, Xt, _cards, _nc = fitted(lambda **k: AIT(base="KDB", cip=False, **k), "car")
    learned = clf.learned_structure(Xt)
    assert learned == clf.learned_structure() and learned.arc_dropped == {}


def test_rows_in_several_chunks_give_the_same_shares(monkeypatch):
    import bncbench.classifiers.ait.ait as ait_module

    clf, X, _y, Xt, _cards, _nc = fitted(lambda **k: AIT(base="KDB", cip_structure="per_label", **k), "house-votes-84")
    rows = np.vstack([Xt, X])
    whole = clf.learned_structure(rows)
    monkeypatch.setattr(ait_module, "_CHUNK_ELEMENTS", 3000)  # a few rows per chunk
    forget_rows(clf)  # (the shares of these rows are kept: computed again)
    assert clf.learned_structure(rows) == whole
    assert whole.arc_dropped == pytest.approx(loop_shares(clf, rows), abs=1e-12)


@pytest.mark.parametrize("label,kw", CASES, ids=[c[0] for c in CASES])
def test_shares_after_predicting_are_those_of_the_rows_asked(label, kw):
    """Issue 40: `predict_proba` keeps the arcs each row's local networks drop; `learned_structure`
    reads them for the same rows (after a refit: computed again) and computes them for other rows."""
    clf, X, y, Xt, _cards, _nc = fitted(lambda **k: AIT(**kw, **k), "house-votes-84")
    clf.predict_proba(Xt)
    assert clf.learned_structure(Xt).arc_dropped == pytest.approx(loop_shares(clf, Xt), abs=1e-12)
    assert clf.learned_structure(X[:50]).arc_dropped == pytest.approx(loop_shares(clf, X[:50]), abs=1e-12)
    clf.predict_proba(Xt)
    clf.fit(X[: X.shape[0] // 2], y[: X.shape[0] // 2])  # another model: nothing kept of Xt
    assert clf.learned_structure(Xt).arc_dropped == pytest.approx(loop_shares(clf, Xt), abs=1e-12)
