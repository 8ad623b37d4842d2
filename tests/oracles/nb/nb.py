"""Plain-Python reference of NB (docs/algorithms.md §4.1) over `tests/oracles/reference.py`'s `Ref`."""

from __future__ import annotations

from tests.oracles.reference import Ref, _code


def ref_nb(X, y, Xt, n_classes, cards, estimator="mestimate", m=1.0, missing="value"):
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    out = []
    for r in Xt:
        r = [_code(i, v, R.K) for i, v in enumerate(r)]
        out.append(R.softmax([R.log_prior(c) + sum(R.nb_factor(i, r[i], c) for i in range(R.n))
                              for c in range(n_classes)]))
    return out

