"""Plain-Python reference of TAN (docs/algorithms.md §4.2): Petal's Prim over tie-ruled CMI, then the
estimates of `tests/oracles/reference.py`'s `Ref`."""

from __future__ import annotations

from tests.oracles.reference import Ref, _code
from tests.oracles.ties import tie_key


def ref_tan(X, y, Xt, n_classes, cards, estimator="mestimate", m=1.0, missing="value"):
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    n = R.n
    w = [[tie_key(R.cmi(i, j)) if i != j else 0.0 for j in range(n)] for i in range(n)]
    parent = [-1] * n
    added = [0]
    while len(added) < n:
        # the heaviest edge from the tree to a new node; ties → the smaller new node, then the
        # tree node added earliest (Petal's Prim, §4.2)
        best = None
        for c in range(n):
            if c in added:
                continue
            for p in added:
                if best is None or w[p][c] > best[0]:
                    best = (w[p][c], c, p)
        assert best is not None
        added.append(best[1])
        parent[best[1]] = best[2]
    out = []
    for r in Xt:
        r = [_code(i, v, R.K) for i, v in enumerate(r)]
        scores = []
        for c in range(n_classes):
            s = R.log_prior(c)
            for i in range(n):
                s += R.nb_factor(i, r[i], c) if parent[i] < 0 else R.pair_factor(i, r[i], parent[i], r[parent[i]], c)
            scores.append(s)
        out.append(R.softmax(scores))
    return out, parent

