"""Plain-Python oracles for CFWNB (docs/algorithms.md §4.10) and FKDB (§4.11): loops, dicts and
`math`, written from the spec, sharing no code with bncbench (nor with tests/oracles/basic.py).

Data: lists of rows of value codes (−1 = missing), class codes 0..C−1, `cards[i]` = K_i.
A missing value is the extra value K_i of its attribute. With missing="value" it is counted
in |A_i| iff the training data has a missing value of A_i (§1.5); with "skip" an instance
takes part only in the counts whose variables it has known, and a missing test value is left
out of the product.
"""

from __future__ import annotations

import math
from collections import Counter

from tests.oracles.ties import tie_key


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
        match = lambda r: all(r[p] == w for p, w in zip(parents, pvals))
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


# -- CFWNB --------------------------------------------------------------------------------------

def _mi(pairs, values_a, values_b, card_a, card_b, smoothed):
    """I(A;B) in bits from a list of (a, b) observations (§4.10 step 1)."""
    T = len(pairs)
    nab = Counter(pairs)
    na = Counter(a for a, _ in pairs)
    nb = Counter(b for _, b in pairs)
    total = 0.0
    if smoothed:
        for a in values_a:
            for b in values_b:
                p = (nab[(a, b)] + 1 / (card_a * card_b)) / (T + 1)
                pa = (na[a] + 1 / card_a) / (T + 1)
                pb = (nb[b] + 1 / card_b) / (T + 1)
                total += p * math.log2(p / (pa * pb))
        return total
    for (a, b), k in nab.items():
        if k / T < 1e-6:  # terms with joint probability below 1e-6 are skipped
            continue
        total += (k / T) * math.log2(k * T / (na[a] * nb[b]))
    return total


def ref_cfwnb_weights(X, y, n_classes, cards, cfwnb_mi="ml", missing="value"):
    """(weights, relevance, redundancy) of §4.10 steps 1–3."""
    D = Data(X, y, n_classes, cards, missing)
    n = D.n
    smoothed = cfwnb_mi == "smoothed"
    rel = []
    for i in range(n):
        obs = [(r[i], yy) for r, yy in zip(D.rows, D.y) if D.known(i, r[i])]
        rel.append(_mi(obs, D.values(i), range(D.C), D.card[i], D.C, smoothed))
    red = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                obs = [(r[i], r[j]) for r in D.rows if D.known(i, r[i]) and D.known(j, r[j])]
                red[i][j] = _mi(obs, D.values(i), D.values(j), D.card[i], D.card[j], smoothed)
    mean_rel = sum(rel) / n
    nrel = [v / mean_rel if mean_rel != 0 else 0.0 for v in rel]
    weights = []
    if n == 1:
        return [1 / (1 + math.exp(-nrel[0]))], rel, red
    mean_red = sum(red[i][j] for i in range(n) for j in range(n) if i != j) / (n * (n - 1))
    for i in range(n):
        avg = sum((red[i][j] / mean_red if mean_red != 0 else 0.0) for j in range(n) if j != i) / (n - 1)
        weights.append(1 / (1 + math.exp(-(nrel[i] - avg))))
    return weights, rel, red


def ref_cfwnb(X, y, Xt, n_classes, cards, cfwnb_mi="ml", estimator="mestimate", m=1.0, missing="value"):
    """(posteriors of Xt, weights): P(c|x) ∝ P̂(c) Π P̂(a_i|c)^{w_i} (§4.10 step 4)."""
    w, _, _ = ref_cfwnb_weights(X, y, n_classes, cards, cfwnb_mi, missing)
    D = Data(X, y, n_classes, cards, missing)
    out = []
    for r in Xt:
        r = D.code(r)
        scores = []
        for c in range(n_classes):
            s = D.log_prior(c, estimator, m)
            for i in range(D.n):
                if D.known(i, r[i]):
                    s += w[i] * D.log_cond(i, r[i], c, [], [], estimator, m)
            scores.append(s)
        out.append(D.softmax(scores))
    return out, w


# -- FKDB ---------------------------------------------------------------------------------------

def _class_mi(D, i):
    obs = [(r[i], yy) for r, yy in zip(D.rows, D.y) if D.known(i, r[i])]
    T = len(obs)
    nab, na, nc = Counter(obs), Counter(a for a, _ in obs), Counter(c for _, c in obs)
    return sum((k / T) * math.log2(k * T / (na[a] * nc[c])) for (a, c), k in nab.items())


def _triples(D, i, j):
    return [(r[i], r[j], yy) for r, yy in zip(D.rows, D.y) if D.known(i, r[i]) and D.known(j, r[j])]


def _cmi(D, i, j):
    """I(X_i;X_j|Y) = Σ (N(x_i,x_j,y)/T) log2 [N_y N(x_i,x_j,y) / (N(x_i,y) N(x_j,y))] (§3)."""
    t = _triples(D, i, j)
    T = len(t)
    nijy = Counter(t)
    niy = Counter((a, c) for a, _, c in t)
    njy = Counter((b, c) for _, b, c in t)
    ny = Counter(c for _, _, c in t)
    return sum((k / T) * math.log2(ny[c] * k / (niy[(a, c)] * njy[(b, c)])) for (a, b, c), k in nijy.items())


def _cond_entropy(D, i, j):
    """H(X_i | X_j, Y) = −Σ P(x_i, x_j, y) log2 P(x_i | x_j, y), ML frequencies (§3)."""
    t = _triples(D, i, j)
    T = len(t)
    nijy = Counter(t)
    njy = Counter((b, c) for _, b, c in t)
    return -sum((k / T) * math.log2(k / njy[(b, c)]) for (a, b, c), k in nijy.items())


def _has_path(parents, src, dst):
    """Whether a directed path src → … → dst exists (parents[v] lists v's parents)."""
    children = {v: [u for u in range(len(parents)) if v in parents[u]] for v in range(len(parents))}
    stack, seen = [src], set()
    while stack:
        v = stack.pop()
        if v == dst:
            return True
        if v in seen:
            continue
        seen.add(v)
        stack.extend(children[v])
    return False


def ref_fkdb_structure(D, k):
    """(order, parents) by §4.11 with float64 information values."""
    n = D.n
    mi = [tie_key(_class_mi(D, i)) for i in range(n)]
    order = sorted(range(n), key=lambda i: -mi[i])  # stable: ties keep attribute order
    pos = {a: p for p, a in enumerate(order)}
    pairs = []
    for i in range(n):
        for j in range(i + 1, n):
            a, b = (i, j) if pos[i] < pos[j] else (j, i)  # a earlier in the MI order
            pairs.append((-tie_key(_cmi(D, a, b)), pos[a], pos[b], a, b))
    pairs.sort()  # CMI descending, then (earlier position, later position)
    parents = [[] for _ in range(n)]
    for _, _, _, a, b in pairs:
        if tie_key(_cond_entropy(D, a, b)) < tie_key(_cond_entropy(D, b, a)):  # H(a | b, Y) < H(b | a, Y): b → a
            parent, child = b, a
        else:                                                # a → b (also on a tie: a is earlier)
            parent, child = a, b
        if len(parents[child]) < k and not _has_path(parents, child, parent):
            parents[child].append(parent)
    return order, parents


def ref_fkdb(X, y, Xt, n_classes, cards, k=2, backoff=True, estimator="mestimate", m=1.0, missing="value"):
    """(posteriors of Xt, order, parents). Prediction as KDB (§4.3): P̂(x_i | y, Π_i) with the
    parents in the order their arcs were added; under skip a missing parent cuts the list
    there; with back-off, while the parents' values never occurred together in the training
    data, the last parent is dropped (§4.3's "never occurred in training": any training row,
    whatever its class or child value, also under skip)."""
    D = Data(X, y, n_classes, cards, missing)
    order, parents = ref_fkdb_structure(D, k)
    out = []
    for r in Xt:
        r = D.code(r)
        scores = []
        for c in range(n_classes):
            s = D.log_prior(c, estimator, m)
            for i in range(D.n):
                if not D.known(i, r[i]):
                    continue
                par = list(parents[i])
                for d, p in enumerate(par):
                    if not D.known(p, r[p]):
                        par = par[:d]
                        break
                if backoff:
                    while par and not any(all(row[p] == r[p] for p in par) for row in D.rows):
                        par = par[:-1]
                s += D.log_cond(i, r[i], c, par, [r[p] for p in par], estimator, m)
            scores.append(s)
        out.append(D.softmax(scores))
    return out, order, parents
