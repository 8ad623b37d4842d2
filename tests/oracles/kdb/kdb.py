"""Plain-Python reference of KDB (docs/algorithms.md §4.3) over `tests/oracles/reference.py`'s `Ref`."""

from __future__ import annotations

import math

from tests.oracles.reference import Ref, _code
from tests.oracles.ties import tie_key


def ref_kdb(X, y, Xt, n_classes, cards, k=1, backoff=False, estimator="mestimate", m=1.0, missing="value"):
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    n = R.n
    mi = [tie_key(R.mi(i)) for i in range(n)]
    order = sorted(range(n), key=lambda i: -mi[i])  # Python's sort is stable
    parents = {}
    for pos, a in enumerate(order):
        prev = order[:pos]
        parents[a] = sorted(prev, key=lambda p: -tie_key(R.cmi(a, p)))[:k]

    def factor(i, r, c):
        if R.is_missing(i, r[i]):
            return 0.0
        par = list(parents[i])
        if R.skip:  # a missing parent truncates the parent list
            for d, p in enumerate(par):
                if R.is_missing(p, r[p]):
                    par = par[:d]
                    break
        if backoff:
            while par and not any(all(row[p] == r[p] for p in par) for row in R.rows):
                par = par[:-1]
        rows = [(row, yy) for row, yy in zip(R.rows, R.y)
                if not (R.skip and any(R.is_missing(p, row[p]) for p in par + [i]))]
        ctx_rows = [(row, yy) for row, yy in zip(R.rows, R.y)
                    if not (R.skip and any(R.is_missing(p, row[p]) for p in par))]
        num = sum(1 for row, yy in rows if yy == c and row[i] == r[i] and all(row[p] == r[p] for p in par))
        den_rows = ctx_rows if estimator == "laplace_joint" else rows
        den = sum(1 for row, yy in den_rows if yy == c and all(row[p] == r[p] for p in par))
        cells = n_classes * math.prod(R.card[p] for p in par)
        return R.cond(num, den, R.card[i], cells, len(rows), len(ctx_rows))

    out = []
    for r in Xt:
        r = [_code(i, v, R.K) for i, v in enumerate(r)]
        out.append(R.softmax([R.log_prior(c) + sum(factor(i, r, c) for i in range(n)) for c in range(n_classes)]))
    return out, parents

