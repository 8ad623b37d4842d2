"""Plain-Python oracle of selective KDB (docs/algorithms.md §4.12), written from the spec alone.

No bncbench code and no numpy: counts are dicts, leave-one-out is done by brute force (for each
training instance the counts are rebuilt WITHOUT it), and the back-off rules are applied as the
spec words them. Slow by design; used by tests/classifiers/kdb/test_skdb.py on small random data.

Conventions: X rows are lists of value codes with −1 for a missing value, which becomes one
more value (code K_i, counted in |X_i| iff it occurs in the training data); y holds class
codes 0..n_classes−1.
"""

from __future__ import annotations

import math
from collections import Counter

from tests.oracles.ties import tie_key


def _internal(X, cards):
    return [[v if v >= 0 else cards[i] for i, v in enumerate(r)] for r in X]


def smoothing_cards(X, cards):
    """|X_i|: declared values plus the missing value if the training data has one (§1.5)."""
    return [cards[i] + (1 if any(r[i] < 0 for r in X) else 0) for i in range(len(cards))]


# -- structure (§3, §4.3) ---------------------------------------------------------------------
def _mi(rows, y, i):
    n = len(rows)
    cxy = Counter((r[i], c) for r, c in zip(rows, y))
    cx = Counter(r[i] for r in rows)
    cy = Counter(y)
    return sum((k / n) * math.log2(k * n / (cx[v] * cy[c])) for (v, c), k in cxy.items())


def _cmi(rows, y, i, j):
    n = len(rows)
    cijy = Counter((r[i], r[j], c) for r, c in zip(rows, y))
    ciy = Counter((r[i], c) for r, c in zip(rows, y))
    cjy = Counter((r[j], c) for r, c in zip(rows, y))
    cy = Counter(y)
    return sum((k / n) * math.log2(cy[c] * k / (ciy[(a, c)] * cjy[(b, c)])) for (a, b, c), k in cijy.items())


def ref_structure(X, y, cards, k_max):
    """KDB with k_max parents: attributes by descending I(X;Y) (stable), each attribute's
    parents = the ≤ k_max preceding attributes with the largest I(X_i;X_j|Y), in that CMI order
    (ties → earlier in the MI order)."""
    rows = _internal(X, cards)
    n = len(cards)
    mi = [tie_key(_mi(rows, y, i)) for i in range(n)]
    order = sorted(range(n), key=lambda i: -mi[i])  # sorted() is stable
    parents: list[list[int]] = [[] for _ in range(n)]
    for pos, a in enumerate(order):
        parents[a] = sorted(order[:pos], key=lambda p: -tie_key(_cmi(rows, y, a, p)))[:k_max]
    return order, parents


# -- estimates (§2.1, §2.2) -------------------------------------------------------------------
def _estimate(num, den, card, estimator, m, cells, total):
    if estimator == "mestimate":
        return (num + m / card) / (den + m)
    if estimator == "laplace":
        return (num + 1) / (den + card)
    # laplace_joint: P̂(x, ctx) / P̂(ctx), each a Laplace-smoothed joint estimate
    return ((num + 1) / (total + cells * card)) / ((den + 1) / (total + cells))


def _prior(count, total, n_classes, estimator, m):
    if estimator == "mestimate":
        return (count + m / n_classes) / (total + m)
    return (count + 1) / (total + n_classes)


class _Counts:
    """Dict counts of a training set for every attribute, parent depth and prefix."""

    def __init__(self, rows, y, parents):
        self.N = len(rows)
        self.cy = Counter(y)
        self.joint: Counter[tuple] = Counter()  # (a, d, prefix, x_a, y)
        self.ctx: Counter[tuple] = Counter()    # (a, d, prefix, y)
        self.xall: Counter[tuple] = Counter()   # (a, d, prefix, x_a): all classes
        self.pall: Counter[tuple] = Counter()   # (a, d, prefix): all classes
        for r, c in zip(rows, y):
            for a, par in enumerate(parents):
                for d in range(len(par) + 1):
                    pre = tuple(r[p] for p in par[:d])
                    self.joint[(a, d, pre, r[a], c)] += 1
                    self.ctx[(a, d, pre, c)] += 1
                    self.xall[(a, d, pre, r[a])] += 1
                    self.pall[(a, d, pre)] += 1


def _normalise(p):
    t = sum(p)
    return [v / t for v in p]


def _p_true(post, yt, variant):
    """P(y_t | x) from normalised probabilities (petal) or log scores (textbook)."""
    if variant == "petal":
        return post[yt]
    mx = max(post)
    e = [math.exp(v - mx) for v in post]
    return e[yt] / sum(e)


def brute_force_loo_losses(X, y, n_classes, cards, order, parents, k_max, variant="petal",
                           estimator="mestimate", m=1.0):
    """Leave-one-out RMSE sqrt(Σ_t (1 − p(y_t))² / N) of every model (s, k), s = 0..n (row 0 =
    class only), k = 0..k_max, with the counts refitted without each held-out instance.

    petal: the walk for attribute a goes from depth d to d + 1 only while d < m and at least 2
    training instances, the held-out one included, have its value x_a and the prefix of d + 1
    parents; model k uses the node at depth min(k, D); probabilities multiplied and normalised
    after each attribute. textbook: model k uses all min(k, m) parents; log scores."""
    rows = _internal(X, cards)
    card = smoothing_cards(X, cards)
    N, n = len(rows), len(cards)
    se = [[0.0] * (k_max + 1) for _ in range(n + 1)]
    for t in range(N):
        rest = [r for i, r in enumerate(rows) if i != t]
        rest_y = [c for i, c in enumerate(y) if i != t]
        C = _Counts(rest, rest_y, parents)
        r, yt = rows[t], y[t]
        prior = [_prior(C.cy[c], C.N, n_classes, estimator, m) for c in range(n_classes)]
        if variant == "petal":
            post = [_normalise(prior) for _ in range(k_max + 1)]
        else:
            post = [[math.log(p) for p in prior] for _ in range(k_max + 1)]
        for k in range(k_max + 1):
            se[0][k] += (1 - _p_true(post[k], yt, variant)) ** 2
        for s, a in enumerate(order, start=1):
            par = parents[a]
            depth = len(par)
            if variant == "petal":
                depth = 0
                while depth < len(par) and \
                        C.xall[(a, depth + 1, tuple(r[p] for p in par[:depth + 1]), r[a])] + 1 >= 2:
                    depth += 1
            for k in range(k_max + 1):
                d = min(k, depth)
                pre = tuple(r[p] for p in par[:d])
                cells = n_classes * math.prod(card[p] for p in par[:d])
                f = [_estimate(C.joint[(a, d, pre, r[a], c)], C.ctx[(a, d, pre, c)], card[a], estimator, m,
                               cells, C.N) for c in range(n_classes)]
                if variant == "petal":
                    post[k] = _normalise([p * q for p, q in zip(post[k], f)])
                else:
                    post[k] = [p + math.log(q) for p, q in zip(post[k], f)]
                se[s][k] += (1 - _p_true(post[k], yt, variant)) ** 2
    return [[math.sqrt(v / N) for v in row] for row in se]


def ref_select(losses, variant="petal", select_k=True):
    """(s*, k*) by §4.12 step 4: scan s = 1..n and within s k = 0..k_max (only k_max without
    k selection), strict improvement only. petal: the initial best is the class-only loss
    with all attributes and the first k as its model; textbook: the class-only model."""
    n, K = len(losses) - 1, len(losses[0]) - 1
    ks = list(range(K + 1)) if select_k else [K]
    best = losses[0][ks[0]]
    best_s, best_k = (n, ks[0]) if variant == "petal" else (0, ks[0])
    for s in range(1, n + 1):
        for k in ks:
            if losses[s][k] < best:
                best, best_s, best_k = losses[s][k], s, k
    return best_s, best_k


def ref_predict(X, y, Xt, n_classes, cards, order, parents, s, k, estimator="mestimate", m=1.0):
    """P(y | x) of the selected model: attributes order[:s], each with its first min(k, m)
    parents; the deepest prefix of those that occurred in training (any class); plain estimates."""
    rows = _internal(X, cards)
    card = smoothing_cards(X, cards)
    N = len(rows)
    out = []
    for r in _internal(Xt, cards):
        scores = []
        for c in range(n_classes):
            score = math.log(_prior(sum(1 for v in y if v == c), N, n_classes, estimator, m))
            for a in order[:s]:
                par = parents[a][:k]
                d = 0
                while d < len(par) and any(all(q[p] == r[p] for p in par[:d + 1]) for q in rows):
                    d += 1
                pre = par[:d]
                match = [(q, v) for q, v in zip(rows, y) if all(q[p] == r[p] for p in pre)]
                num = sum(1 for q, v in match if v == c and q[a] == r[a])
                den = sum(1 for q, v in match if v == c)
                cells = n_classes * math.prod(card[p] for p in pre)
                score += math.log(_estimate(num, den, card[a], estimator, m, cells, N))
            scores.append(score)
        mx = max(scores)
        e = [math.exp(v - mx) for v in scores]
        out.append([v / sum(e) for v in e])
    return out


def ref_skdb(X, y, Xt, n_classes, cards, k_max=5, select_k=True, variant="petal", estimator="mestimate", m=1.0):
    """The whole classifier: structure, leave-one-out losses, (s*, k*) and test posteriors."""
    order, parents = ref_structure(X, y, cards, k_max)
    losses = brute_force_loo_losses(X, y, n_classes, cards, order, parents, k_max, variant, estimator, m)
    s, k = ref_select(losses, variant, select_k)
    proba = ref_predict(X, y, Xt, n_classes, cards, order, parents, s, k, estimator, m)
    return {"order": order, "parents": parents, "losses": losses, "s": s, "k": k, "proba": proba}
