"""Plain-Python reference of AODE (docs/algorithms.md §4.4) over `tests/oracles/reference.py`'s `Ref`."""

from __future__ import annotations

import math

from tests.oracles.reference import Ref, _code


def ref_aode(X, y, Xt, n_classes, cards, min_freq=1, estimator="mestimate", m=1.0, missing="value"):
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    n = R.n

    def joint(p, w, c):
        num = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w)
        total = sum(1 for row in R.rows if not R.is_missing(p, row[p])) if R.skip else R.N
        cells = R.card[p] * n_classes
        if estimator == "mestimate":
            return math.log((num + m / cells) / (total + m))
        return math.log((num + 1) / (total + cells))

    def cond(ch, v, p, w, c):
        if R.is_missing(ch, v):
            return 0.0
        num = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w and row[ch] == v)
        den = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w
                  and not R.is_missing(ch, row[ch]))
        return R.cond(num, den, R.card[ch], n_classes * R.card[p], R.N, R.N)

    out = []
    for r in Xt:
        r = [_code(i, v, R.K) for i, v in enumerate(r)]
        Q = [p for p in range(n) if not R.is_missing(p, r[p])
             and sum(1 for row in R.rows if row[p] == r[p]) >= min_freq]
        if not Q:
            scores = [R.log_prior(c) + sum(R.nb_factor(i, r[i], c) for i in range(n)) for c in range(n_classes)]
            out.append(R.softmax(scores))
            continue
        probs = []
        for c in range(n_classes):
            total = 0.0
            for p in Q:
                s = joint(p, r[p], c) + sum(cond(ch, r[ch], p, r[p], c) for ch in range(n) if ch != p)
                total += math.exp(s)
            probs.append(total / len(Q))
        t = sum(probs)
        out.append([x / t for x in probs])
    return out

