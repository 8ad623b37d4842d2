"""The plain-Python reference of counts, estimates and information measures that the NB, TAN,
KDB, AODE and AIT oracles share (plain Python loops and dicts).

It re-derives every count, information measure and estimate from the spec (docs/algorithms.md
§2–§3) without sharing code with bncbench's vectorised classifiers, so the tests can compare the
two on many random inputs (numpy-groupies style).
"""

from __future__ import annotations

import math
from collections import Counter


class Ref:
    def __init__(self, X, y, n_classes, cards, estimator, m, missing, card=None):
        self.N = len(y)
        self.n = len(cards)
        self.Y = n_classes
        self.est, self.m, self.missing = estimator, m, missing
        self.skip = missing == "skip"
        # internal values: −1 → K_i (the missing slot)
        self.K = list(cards)
        self.rows = [[(v if v >= 0 else self.K[i]) for i, v in enumerate(r)] for r in X]
        self.y = list(y)
        if card is not None:  # smoothing cardinalities fixed by the caller (leave-one-out)
            self.card = list(card)
        elif self.skip:
            self.card = list(cards)
        else:
            self.card = [cards[i] + (1 if any(r[i] < 0 for r in X) else 0) for i in range(self.n)]
        self.cy = Counter(self.y)

    def is_missing(self, i, v):
        return self.skip and v == self.K[i]

    def log_prior(self, c):
        if self.est == "mestimate":
            return math.log((self.cy[c] + self.m / self.Y) / (self.N + self.m))
        return math.log((self.cy[c] + 1) / (self.N + self.Y))

    def cond(self, num, den, card, ctx_cells=None, tot_num=None, tot_den=None):
        if self.est == "mestimate":
            return math.log((num + self.m / card) / (den + self.m))
        if self.est == "laplace":
            return math.log((num + 1) / (den + card))
        return math.log((num + 1) / (tot_num + ctx_cells * card)) - math.log((den + 1) / (tot_den + ctx_cells))

    # -- NB factor ----------------------------------------------------------------------
    def nb_factor(self, i, v, c):
        """ln P̂(x_i = v | y = c) (0 for a skipped missing value)."""
        if self.is_missing(i, v):
            return 0.0
        num = sum(1 for r, yy in zip(self.rows, self.y) if yy == c and r[i] == v)
        if self.skip:
            den = sum(1 for r, yy in zip(self.rows, self.y) if yy == c and not self.is_missing(i, r[i]))
            tot = sum(1 for r in self.rows if not self.is_missing(i, r[i]))
        else:
            den = self.cy[c]
            tot = self.N
        if self.est == "laplace_joint":
            den = self.cy[c]
        return self.cond(num, den, self.card[i], self.Y, tot, self.N)

    def pair_factor(self, i, v, p, w, c):
        """ln P̂(x_i = v | y = c, x_p = w)."""
        if self.is_missing(i, v):
            return 0.0
        if self.is_missing(p, w):
            return self.nb_factor(i, v, c)
        num = sum(1 for r, yy in zip(self.rows, self.y) if yy == c and r[i] == v and r[p] == w)
        if self.est == "laplace_joint":  # P̂(x_p, y) counts every instance with the parent known
            den = sum(1 for r, yy in zip(self.rows, self.y) if yy == c and r[p] == w)
            tot_num = sum(1 for r in self.rows if not self.is_missing(i, r[i]) and not self.is_missing(p, r[p]))
            tot_den = sum(1 for r in self.rows if not self.is_missing(p, r[p]))
        elif self.skip:
            den = sum(1 for r, yy in zip(self.rows, self.y) if yy == c and r[p] == w and not self.is_missing(i, r[i]))
            tot_num = sum(1 for r in self.rows if not self.is_missing(i, r[i]) and not self.is_missing(p, r[p]))
            tot_den = sum(1 for r in self.rows if not self.is_missing(p, r[p]))
        else:
            den = sum(1 for r, yy in zip(self.rows, self.y) if yy == c and r[p] == w)
            tot_num = tot_den = self.N
        return self.cond(num, den, self.card[i], self.Y * self.card[p], tot_num, tot_den)

    # -- information measures (ML, bits) -------------------------------------------------------
    def values(self, i):
        return range(self.K[i] + (0 if self.skip else 1))

    def mi(self, i):
        rows = [(r[i], yy) for r, yy in zip(self.rows, self.y) if not self.is_missing(i, r[i])]
        n = len(rows)
        cxy = Counter(rows)
        cx = Counter(v for v, _ in rows)
        cy = Counter(c for _, c in rows)
        return sum((k / n) * math.log2(k * n / (cx[v] * cy[c])) for (v, c), k in cxy.items())

    def cmi(self, i, j):
        rows = [(r[i], r[j], yy) for r, yy in zip(self.rows, self.y)
                if not self.is_missing(i, r[i]) and not self.is_missing(j, r[j])]
        n = len(rows)
        cijy = Counter(rows)
        ciy = Counter((a, c) for a, _, c in rows)
        cjy = Counter((b, c) for _, b, c in rows)
        cy = Counter(c for _, _, c in rows)
        return sum((k / n) * math.log2(cy[c] * k / (ciy[(a, c)] * cjy[(b, c)])) for (a, b, c), k in cijy.items())

    def softmax(self, scores):
        mx = max(scores)
        e = [math.exp(s - mx) for s in scores]
        t = sum(e)
        return [x / t for x in e]


def _code(i, v, K):
    return v if v >= 0 else K[i]

