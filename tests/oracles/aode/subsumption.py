"""Slow plain-Python reference for SR and NSR (docs/algorithms.md §4.8.5) on top of AODE (§4.4).

Written from the spec with loops over the training rows, sharing no code with bncbench: for each
test instance the counts N(x_j) and N(x_i, x_j) are taken by scanning the rows, the subsumption
scan runs attribute by attribute with its tie rule, and every estimate comes from §2's formulas
with §2.4's missing-value denominators (AODE's conventions, as tests/oracles/reference.py has them).
Missing values (−1) become the extra value K_i.
"""

from __future__ import annotations

import math


class _Data:
    """The training rows (−1 → K_i), the class column and §2's estimates by counting rows."""

    def __init__(self, X, y, n_classes, cards, estimator, m, missing):
        self.K = list(cards)
        self.n = len(cards)
        self.Y = n_classes
        self.est, self.m = estimator, m
        self.skip = missing == "skip"
        self.rows = [[v if v >= 0 else self.K[i] for i, v in enumerate(r)] for r in X]
        self.y = list(y)
        self.N = len(self.y)
        # |X_i|: declared values, plus the value "missing" under value iff training has one (§1.5)
        self.card = [self.K[i] + (0 if self.skip or all(r[i] >= 0 for r in X) else 1) for i in range(self.n)]

    def missing(self, i, v):
        return self.skip and v == self.K[i]

    def count(self, cond, c=None):
        return sum(1 for r, yy in zip(self.rows, self.y) if (c is None or yy == c) and cond(r))

    # -- §2 estimates --------------------------------------------------------------------------
    def prior(self, c):
        n_c = self.y.count(c)
        if self.est == "mestimate":
            return (n_c + self.m / self.Y) / (self.N + self.m)
        return (n_c + 1) / (self.N + self.Y)

    def joint(self, p, v, c):
        """P̂(x_p, y); under skip the total is the rows with X_p known (§2.4)."""
        num = self.count(lambda r: r[p] == v, c)
        total = self.count(lambda r: not self.missing(p, r[p])) if self.skip else self.N
        cells = self.Y * self.card[p]
        if self.est == "mestimate":
            return (num + self.m / cells) / (total + self.m)
        return (num + 1) / (total + cells)

    def cond(self, ch, v, p, w, c):
        """P̂(x_ch | y, x_p); 1 for a skipped missing child. The denominator N(x_p, y) counts under
        skip only the rows with the child known (§2.4); laplace_joint uses totals N (AODE's
        approximation under skip)."""
        if self.missing(ch, v):
            return 1.0
        num = self.count(lambda r: r[p] == w and r[ch] == v, c)
        den = self.count(lambda r: r[p] == w and not self.missing(ch, r[ch]), c)
        if self.est == "mestimate":
            return (num + self.m / self.card[ch]) / (den + self.m)
        if self.est == "laplace":
            return (num + 1) / (den + self.card[ch])
        cells = self.Y * self.card[p]
        return ((num + 1) / (self.N + cells * self.card[ch])) / ((den + 1) / (self.N + cells))

    def nb_cond(self, i, v, c):
        """P̂(x_i | y) of the naive-Bayes fallback; 1 for a skipped missing value."""
        if self.missing(i, v):
            return 1.0
        num = self.count(lambda r: r[i] == v, c)
        if self.est == "laplace_joint":
            tot = self.count(lambda r: not self.missing(i, r[i])) if self.skip else self.N
            return ((num + 1) / (tot + self.Y * self.card[i])) / ((self.y.count(c) + 1) / (self.N + self.Y))
        den = self.count(lambda r: not self.missing(i, r[i]), c)
        if self.est == "mestimate":
            return (num + self.m / self.card[i]) / (den + self.m)
        return (num + 1) / (den + self.card[i])


def deleted_by_scan(D: _Data, r, l, strict, ratio):
    """§4.8.5's scan for one test instance r (internal values): generalisation marks g[i] = j,
    or −1. ratio None: SR (N(x_i, x_j) = N(x_j)); else NSR (N(x_i, x_j) ≥ ratio·N(x_j))."""
    n = D.n
    freq = [D.count(lambda row, a=a: row[a] == r[a]) for a in range(n)]  # N(x_a)
    g = [-1] * n
    for i in range(n):
        if D.missing(i, r[i]):
            continue
        for j in range(n):
            if j == i or D.missing(j, r[j]) or g[j] == i:
                continue
            if not (freq[j] > l if strict else freq[j] >= l):
                continue
            both = D.count(lambda row, i=i, j=j: row[i] == r[i] and row[j] == r[j])  # N(x_i, x_j)
            if not (both == freq[j] if ratio is None else both >= ratio * freq[j]):
                continue
            if freq[i] == freq[j] and i < j:  # mutual: only the larger index is deleted
                continue
            g[i] = j
            break
    return g


def ref_subsumption(X, y, Xt, n_classes, cards, *, sr_min_freq=50, sr_strict=None, nsr_ratio=None,
                    min_freq=1, estimator="mestimate", m=1.0, missing="value"):
    """(probabilities of each row of Xt, [set of deleted attributes of each row]). nsr_ratio None
    is SR; a number is NSR. sr_strict None: N(x_j) > l for SR, N(x_j) ≥ l for NSR."""
    if sr_strict is None:
        sr_strict = nsr_ratio is None
    D = _Data(X, y, n_classes, cards, estimator, m, missing)
    n, Y = D.n, n_classes
    probs, deleted = [], []
    for raw in Xt:
        r = [v if v >= 0 else D.K[i] for i, v in enumerate(raw)]
        g = deleted_by_scan(D, r, sr_min_freq, sr_strict, nsr_ratio)
        gone = {i for i in range(n) if g[i] >= 0}
        deleted.append(gone)
        P = [p for p in range(n) if p not in gone and not D.missing(p, r[p])
             and D.count(lambda row, p=p, r=r: row[p] == r[p]) >= min_freq]
        if not P:  # naive Bayes over every known attribute (Weka AODEsr's fallback)
            s = []
            for c in range(Y):
                v = D.prior(c)
                for i in range(n):
                    v *= D.nb_cond(i, r[i], c)
                s.append(v)
        else:
            s = []
            for c in range(Y):
                total = 0.0
                for p in P:
                    lt = math.log(D.joint(p, r[p], c))
                    for ch in range(n):
                        if ch != p and ch not in gone:
                            lt += math.log(D.cond(ch, r[ch], p, r[p], c))
                    total += math.exp(lt)
                s.append(total / len(P))
        t = sum(s)
        probs.append([v / t for v in s])
    return probs, deleted
