"""Slow, obviously-correct reference implementations (plain Python loops and dicts).

They re-derive every count, information measure, structure and estimate from the spec
(docs/algorithms.md §2–§4) without sharing code with bncbench's vectorised classifiers, so the
tests can compare the two on many random inputs (numpy-groupies style).
"""

from __future__ import annotations

import math
from collections import Counter

from tests.oracles.ties import tie_key


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


def ref_nb(X, y, Xt, n_classes, cards, estimator="mestimate", m=1.0, missing="value"):
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    out = []
    for r in Xt:
        r = [_code(i, v, R.K) for i, v in enumerate(r)]
        out.append(R.softmax([R.log_prior(c) + sum(R.nb_factor(i, r[i], c) for i in range(R.n))
                              for c in range(n_classes)]))
    return out


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


def brute_force_loo_risks(X, y, n_classes, cards, parents, ranking, estimator="mestimate", m=1.0,
                          missing="value", backoff=False, include_empty=True):
    """STAN's CV risk of every prefix model by real leave-one-out: for each training instance,
    re-count everything without it (structure fixed), then score it with the prefix models."""
    full = Ref(X, y, n_classes, cards, estimator, m, missing)
    card = full.card
    n = len(cards)
    se = [0.0] * (n + 1)
    for t in range(len(y)):
        keep = [r for r in range(len(y)) if r != t]
        R = Ref([X[r] for r in keep], [y[r] for r in keep], n_classes, cards, estimator, m, missing, card=card)
        row = [_code(i, v, R.K) for i, v in enumerate(X[t])]
        scores = [R.log_prior(c) for c in range(n_classes)]
        for s in range(n + 1):
            if s > 0:
                a = ranking[s - 1]
                p = parents[a]
                for c in range(n_classes):
                    use_parent = p >= 0
                    if use_parent and backoff:
                        use_parent = any(rr[a] == row[a] and rr[p] == row[p] for rr in R.rows)
                    scores[c] += R.pair_factor(a, row[a], p, row[p], c) if use_parent else R.nb_factor(a, row[a], c)
            post = R.softmax(scores)
            se[s] += (1 - post[y[t]]) ** 2
    return [math.sqrt(x / len(y)) for x in se]
