"""Slow plain-Python references for IWAODE (docs/algorithms.md §4.14) and TAODE (§4.13).

Loops and dicts straight from the spec, sharing no code with bncbench: every count is taken
from the rows, every estimate from §2's formulas, every probability multiplied out (no log
space beyond what the formulas need). Missing values (−1) become the extra value K_i.
"""

from __future__ import annotations

import math
from collections import Counter


class Counts:
    """The training data as dicts of counts, and §2's estimates on them."""

    def __init__(self, X, y, n_classes, cards, estimator, m, missing):
        self.N = len(y)
        self.n = len(cards)
        self.Y = n_classes
        self.K = list(cards)
        self.est, self.m = estimator, m
        self.skip = missing == "skip"
        self.rows = [[v if v >= 0 else self.K[i] for i, v in enumerate(r)] for r in X]
        self.y = list(y)
        # |X_i|: the declared values, plus "missing" under value iff training has one (§1.5)
        self.card = [self.K[i] + (0 if self.skip or all(r[i] >= 0 for r in X) else 1) for i in range(self.n)]
        self.cy = Counter(self.y)
        self.c1: Counter[tuple[int, int, int]] = Counter()  # (i, v, y)
        self.c2: Counter[tuple[int, int, int, int, int]] = Counter()  # (i, v, j, w, y), i ≠ j
        self.f1: Counter[tuple[int, int]] = Counter()  # (i, v): frequency over all classes
        for r, c in zip(self.rows, self.y):
            for i in range(self.n):
                self.c1[(i, r[i], c)] += 1
                self.f1[(i, r[i])] += 1
                for j in range(self.n):
                    if j != i:
                        self.c2[(i, r[i], j, r[j], c)] += 1

    def missing(self, i, v):
        return self.skip and v == self.K[i]

    def known(self, i):
        """Training rows whose X_i is known (all rows unless skipping)."""
        return sum(1 for r in self.rows if not self.missing(i, r[i]))

    def p_y(self, c):
        if self.est == "mestimate":
            return (self.cy[c] + self.m / self.Y) / (self.N + self.m)
        return (self.cy[c] + 1) / (self.N + self.Y)

    def p_xy(self, p, v, c):
        """P̂(x_p, y) (under skip over the rows with X_p known)."""
        total = self.known(p) if self.skip else self.N
        cells = self.card[p] * self.Y
        if self.est == "mestimate":
            return (self.c1[(p, v, c)] + self.m / cells) / (total + self.m)
        return (self.c1[(p, v, c)] + 1) / (total + cells)

    def p_xxy(self, c_, vc, p, vp, c):
        """P̂(x_c, x_p, y) (value mode only: IWAODE)."""
        cells = self.card[c_] * self.card[p] * self.Y
        if self.est == "mestimate":
            return (self.c2[(c_, vc, p, vp, c)] + self.m / cells) / (self.N + self.m)
        return (self.c2[(c_, vc, p, vp, c)] + 1) / (self.N + cells)

    def p_x_given_y(self, i, v, c):
        """P̂(x_i | y); 1 for a skipped missing value."""
        if self.missing(i, v):
            return 1.0
        num = self.c1[(i, v, c)]
        if self.est == "laplace_joint":  # P̂(x_i, y) / P̂(y), both Laplace joints
            tot = self.known(i)
            return ((num + 1) / (tot + self.Y * self.card[i])) / ((self.cy[c] + 1) / (self.N + self.Y))
        den = sum(self.c1[(i, w, c)] for w in range(self.K[i])) if self.skip else self.cy[c]
        if self.est == "mestimate":
            return (num + self.m / self.card[i]) / (den + self.m)
        return (num + 1) / (den + self.card[i])

    def p_x_given_xy(self, c_, vc, p, vp, c):
        """P̂(x_c | x_p, y); 1 for a skipped missing child."""
        if self.missing(c_, vc):
            return 1.0
        num = self.c2[(c_, vc, p, vp, c)]
        # instances with the superparent's value and the class (under skip: the child known)
        den = sum(self.c2[(c_, w, p, vp, c)] for w in range(self.K[c_] + (0 if self.skip else 1)))
        if self.est == "laplace_joint":  # P̂(x_c, x_p, y) / P̂(x_p, y), both Laplace joints over N
            return ((num + 1) / (self.N + self.Y * self.card[p] * self.card[c_])) / \
                ((den + 1) / (self.N + self.Y * self.card[p]))
        if self.est == "mestimate":
            return (num + self.m / self.card[c_]) / (den + self.m)
        return (num + 1) / (den + self.card[c_])

    def spode(self, p, r, c):
        """P_p(y, x) = P̂(y, x_p) Π_{c≠p} P̂(x_c | y, x_p)."""
        out = self.p_xy(p, r[p], c)
        for ch in range(self.n):
            if ch != p:
                out *= self.p_x_given_xy(ch, r[ch], p, r[p], c)
        return out

    def nb(self, r, c):
        out = self.p_y(c)
        for i in range(self.n):
            out *= self.p_x_given_y(i, r[i], c)
        return out


def _code(r, K):
    return [v if v >= 0 else K[i] for i, v in enumerate(r)]


def _normalise(v):
    s = sum(v)
    return [x / s for x in v] if s != 0 else [1.0 / len(v)] * len(v)


def _inverse_normalise(v):
    """§4.14 step 3: normalise, 1 − value, normalise."""
    return _normalise([1.0 - x for x in _normalise(v)])


def _plogp(p, q):
    return -p * math.log(q) if p > 0 else 0.0


def ref_iwaode(X, y, Xt, n_classes, cards, estimator="mestimate", m=1.0, weight_power="children"):
    """(probabilities of each row of Xt, [W_p before normalisation])."""
    R = Counts(X, y, n_classes, cards, estimator, m, "value")
    n, Y = R.n, n_classes
    HY = sum(_plogp(R.p_y(c), R.p_y(c)) for c in range(Y))
    HXY = [sum(_plogp(R.p_xy(p, v, c), R.p_x_given_y(p, v, c)) for v in range(R.card[p]) for c in range(Y))
           for p in range(n)]
    HXXY = {(ch, p): sum(_plogp(R.p_xxy(ch, a, p, b, c), R.p_x_given_xy(ch, a, p, b, c))
                         for a in range(R.card[ch]) for b in range(R.card[p]) for c in range(Y))
            for p in range(n) for ch in range(n) if ch != p}
    W_raw = [HY + HXY[p] + sum(HXXY[(ch, p)] for ch in range(n) if ch != p) for p in range(n)]
    W = _inverse_normalise(W_raw)
    out = []
    for r in Xt:
        r = _code(r, R.K)
        w_raw = []
        for p in range(n):
            h = HY + sum(_plogp(R.p_xy(p, r[p], c), R.p_x_given_y(p, r[p], c)) for c in range(Y))
            for ch in range(n):
                if ch != p:
                    h += sum(_plogp(R.p_xxy(ch, r[ch], p, r[p], c), R.p_x_given_xy(ch, r[ch], p, r[p], c))
                             for c in range(Y))
            w_raw.append(h)
        w = _inverse_normalise(w_raw)
        # the products underflow on many attributes, so multiply in logs here
        scores = []
        for c in range(Y):
            terms = []
            for p in range(n):
                lt = math.log(R.p_xy(p, r[p], c))
                for ch in range(n):
                    if ch != p:
                        lt += math.log(R.p_x_given_xy(ch, r[ch], p, r[p], c))
                        if weight_power == "children":
                            lt += math.log(W[p] + w[p])
                if weight_power == "once":
                    lt += math.log(W[p] + w[p])
                terms.append(lt)
            mx = max(terms)
            scores.append(mx + math.log(sum(math.exp(t - mx) for t in terms) / n))
        mx = max(scores)
        out.append(_normalise([math.exp(s - mx) for s in scores]))
    return out, W_raw


def ref_taode(X, y, Xt, n_classes, cards, min_freq=1, weight="likelihood", estimator="mestimate", m=1.0,
              missing="value"):
    """Probabilities of each row of Xt (plain products: keep the test data small)."""
    R = Counts(X, y, n_classes, cards, estimator, m, missing)
    n, Y = R.n, n_classes
    out = []
    for r in Xt:
        r = _code(r, R.K)
        Q = [p for p in range(n) if not R.missing(p, r[p]) and R.f1[(p, r[p])] >= min_freq]
        if not Q:
            out.append(_normalise([R.nb(r, c) for c in range(Y)]))
            continue
        P = {p: [R.spode(p, r, c) for c in range(Y)] for p in Q}
        like = [sum(P[p]) for p in Q]  # Σ_y P_p(y, x)
        if weight == "likelihood":
            w = _normalise(like)
        elif weight == "uniform":
            w = [1.0 / len(Q)] * len(Q)
        else:  # "log_likelihood"
            w = _inverse_normalise([-math.log(v) for v in like])
        out.append(_normalise([sum(wp * P[p][c] for wp, p in zip(w, Q)) for c in range(Y)]))
    return out
