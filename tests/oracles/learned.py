"""Oracles of what a classifier reports as learned (docs/algorithms.md §11): posteriors rebuilt from
a reported structure alone, by plain counting over the training rows (missing = "value" only).

Given only a `Learned` (its arcs, attributes, submodels), these re-estimate every probability from
raw counts with the estimator of docs/algorithms.md §2 and multiply (one network) or average
(SPODEs). They share no code with bncbench's classifiers: if a classifier's predict_proba equals
them, the structure it reports is the one it predicts with.
"""

from __future__ import annotations

import math
from collections import Counter


class Counts:
    """Training rows in internal codes (−1 and codes ≥ K_i → the missing slot K_i), the smoothing
    cardinality of each attribute (K_i, plus one when training holds a missing value) and counters."""

    def __init__(self, X, y, cards, n_classes: int, estimator: str, m: float):
        self.K = [int(k) for k in cards]
        self.n = len(self.K)
        self.rows = [self.code(r) for r in X]
        self.y = [int(c) for c in y]
        self.N = len(self.y)
        self.Y = n_classes
        self.est, self.m = estimator, m
        self.card = [self.K[i] + (1 if any(r[i] < 0 for r in X) else 0) for i in range(self.n)]
        self.cy = Counter(self.y)
        self._cache: dict = {}

    def code(self, row) -> tuple[int, ...]:
        return tuple(int(v) if 0 <= v < self.K[i] else self.K[i] for i, v in enumerate(row))

    def counter(self, attrs: tuple[int, ...]) -> Counter:
        """Counter of (values of attrs..., class) over the training rows."""
        if attrs not in self._cache:
            self._cache[attrs] = Counter(tuple(r[a] for a in attrs) + (c,) for r, c in zip(self.rows, self.y))
        return self._cache[attrs]

    def freq(self, i: int, v: int) -> int:
        """N(x_i = v) over every class."""
        return sum(self.counter((i,))[(v, c)] for c in range(self.Y))

    def log_prior(self, c: int) -> float:
        if self.est == "mestimate":
            return math.log((self.cy[c] + self.m / self.Y) / (self.N + self.m))
        return math.log((self.cy[c] + 1) / (self.N + self.Y))

    def log_cond(self, i: int, parents: tuple[int, ...], row, c: int) -> float:
        """ln P̂(x_i | y = c, x_parents) of the test row (internal codes), §2."""
        parents = tuple(sorted(parents))
        ctx = tuple(row[p] for p in parents)
        num = self.counter(parents + (i,))[ctx + (row[i], c)]
        den = self.counter(parents)[ctx + (c,)]
        card = self.card[i]
        if self.est == "mestimate":
            return math.log((num + self.m / card) / (den + self.m))
        if self.est == "laplace":
            return math.log((num + 1) / (den + card))
        cells = self.Y * math.prod(self.card[p] for p in parents)
        return math.log((num + 1) / (self.N + cells * card)) - math.log((den + 1) / (self.N + cells))

    def log_joint(self, p: int, row, c: int) -> float:
        """ln P̂(x_p, y = c) of a superparent (§2)."""
        num = self.counter((p,))[(row[p], c)]
        cells = self.card[p] * self.Y
        if self.est == "mestimate":
            return math.log((num + self.m / cells) / (self.N + self.m))
        return math.log((num + 1) / (self.N + cells))

    def seen(self, parents: tuple[int, ...], row) -> bool:
        """Whether the row's configuration of `parents` occurs in training."""
        parents = tuple(sorted(parents))
        ctx = tuple(row[p] for p in parents)
        return any(self.counter(parents)[ctx + (c,)] for c in range(self.Y))


def softmax(scores: list[float]) -> list[float]:
    mx = max(scores)
    e = [math.exp(s - mx) for s in scores]
    return [x / sum(e) for x in e]


def network_parents(learned) -> dict[int, tuple[int, ...]]:
    """Each reported attribute's parents among the attributes, from the reported arcs."""
    return {a: tuple(p for p, c in learned.arcs if c == a) for a in learned.attributes}


def network_proba(cnt: Counts, Xt, learned, weights=None) -> list[list[float]]:
    """P(y | x) of each test row under the reported network: P̂(y) Π_{i ∈ attributes} P̂(x_i | y, π_i)^w_i."""
    parents = network_parents(learned)
    out = []
    for raw in Xt:
        row = cnt.code(raw)
        scores = []
        for c in range(cnt.Y):
            s = cnt.log_prior(c)
            for a, par in parents.items():
                s += (1.0 if weights is None else float(weights[a])) * cnt.log_cond(a, par, row, c)
            scores.append(s)
        out.append(softmax(scores))
    return out


def all_parents_seen(cnt: Counts, raw, learned) -> bool:
    """Whether every reported attribute's full parent configuration in the row occurs in training
    (where a back-off does not change the estimate)."""
    row = cnt.code(raw)
    return all(cnt.seen(par, row) for par in network_parents(learned).values() if par)


def spode_proba(cnt: Counts, Xt, learned, used, kept, fallback) -> list[list[float]]:
    """P(y | x) of each test row under the reported SPODEs: the mean over the submodels s with
    used(row index, superparent) of P̂(y, x_p) Π_{c ∈ children(s), kept(row index, c)} P̂(x_c | y, x_p);
    a row without one: naive Bayes over fallback(row index)."""
    out = []
    for t, raw in enumerate(Xt):
        row = cnt.code(raw)
        members = [s for s in learned.submodels if used(t, s.superparent)]
        scores = []
        for c in range(cnt.Y):
            if not members:
                scores.append(cnt.log_prior(c) + sum(cnt.log_cond(a, (), row, c) for a in fallback(t)))
                continue
            terms = [cnt.log_joint(s.superparent, row, c)
                     + sum(cnt.log_cond(ch, (s.superparent,), row, c) for ch in s.children if kept(t, ch))
                     for s in members]
            mx = max(terms)
            scores.append(mx + math.log(sum(math.exp(v - mx) for v in terms) / len(terms)))
        out.append(softmax(scores))
    return out
