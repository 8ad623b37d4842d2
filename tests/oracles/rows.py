"""The row data of the CFWNB and FKDB oracles: loops, dicts and `math`, written from the spec,
sharing no code with bncbench (nor with tests/oracles/reference.py).

Data: lists of rows of value codes (−1 = missing), class codes 0..C−1, `cards[i]` = K_i.
A missing value is the extra value K_i of its attribute. With missing="value" it is counted
in |A_i| iff the training data has a missing value of A_i (§1.5); with "skip" an instance
takes part only in the counts whose variables it has known, and a missing test value is left
out of the product.
"""

from __future__ import annotations

import math


class Data:
    def __init__(self, X, y, n_classes, cards, missing):
        self.skip = missing == "skip"
        self.K = [int(k) for k in cards]
        self.n = len(self.K)
        self.C = n_classes
        self.rows = [[(int(v) if v >= 0 else self.K[i]) for i, v in enumerate(r)] for r in X]
        self.y = [int(c) for c in y]
        self.N = len(self.y)
        has_missing = [any(r[i] == self.K[i] for r in self.rows) for i in range(self.n)]
        self.card = [self.K[i] + (1 if (has_missing[i] and not self.skip) else 0) for i in range(self.n)]

    def code(self, r):
        return [(int(v) if v >= 0 else self.K[i]) for i, v in enumerate(r)]

    def known(self, i, v):
        return not (self.skip and v == self.K[i])

    def values(self, i):
        """The values of A_i in the smoothed sums: 0..|A_i|−1 (the missing slot K_i is among
        them iff it is a value)."""
        return range(self.card[i])

    # -- estimates for classification (§2.1 / §2.2), as in the base class ------------------
    def log_prior(self, c, estimator, m):
        nc = sum(1 for yy in self.y if yy == c)
        if estimator == "mestimate":
            return math.log((nc + m / self.C) / (self.N + m))
        return math.log((nc + 1) / (self.N + self.C))

    def log_cond(self, i, v, c, parents, pvals, estimator, m):
        """ln P̂(x_i = v | y = c, parents = pvals); the rows are those with the child and the
        parents known (under skip); laplace_joint's P̂(π, y) counts the rows with the parents
        known."""
        def ok(r, attrs):
            return all(self.known(a, r[a]) for a in attrs)
        rows = [(r, yy) for r, yy in zip(self.rows, self.y) if ok(r, parents + [i])]
        ctx_rows = [(r, yy) for r, yy in zip(self.rows, self.y) if ok(r, parents)]

        def match(r):
            return all(r[p] == w for p, w in zip(parents, pvals))

        num = sum(1 for r, yy in rows if yy == c and r[i] == v and match(r))
        card = self.card[i]
        if estimator == "mestimate":
            den = sum(1 for r, yy in rows if yy == c and match(r))
            return math.log((num + m / card) / (den + m))
        if estimator == "laplace":
            den = sum(1 for r, yy in rows if yy == c and match(r))
            return math.log((num + 1) / (den + card))
        # laplace_joint: P̂(x_i, π, y) / P̂(π, y), both Laplace-smoothed joints over their known rows
        den = sum(1 for r, yy in ctx_rows if yy == c and match(r))
        cells = self.C * math.prod(self.card[p] for p in parents)
        return math.log((num + 1) / (len(rows) + cells * card)) - math.log((den + 1) / (len(ctx_rows) + cells))

    @staticmethod
    def softmax(scores):
        top = max(scores)
        e = [math.exp(s - top) for s in scores]
        t = sum(e)
        return [x / t for x in e]
