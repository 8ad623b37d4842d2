"""Plain-Python oracle for PAA, CAA, PAE, CAE (docs/algorithms.md §4.8.4): the leave-one-out loss of a
model (P, C) by really refitting without each training instance (every count re-derived from
the remaining rows, smoothing cardinalities of the whole training set), the greedy searches on
top of it, and the selected model's posteriors. No bncbench code is used; the estimates are
written from §2.1/§2.2 with AODE's conventions (§4.4, `Ref` of tests/oracles/reference.py)."""

from __future__ import annotations

import math

from tests.oracles.reference import Ref, _code


def _joint(R: Ref, p: int, w: int, c: int) -> float:
    """ln P̂(x_p = w, y = c)."""
    num = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w)
    total = sum(1 for row in R.rows if not R.is_missing(p, row[p])) if R.skip else R.N
    cells = R.card[p] * R.Y
    if R.est == "mestimate":
        return math.log((num + R.m / cells) / (total + R.m))
    return math.log((num + 1) / (total + cells))


def _cond(R: Ref, ch: int, v: int, p: int, w: int, c: int) -> float:
    """ln P̂(x_ch = v | y = c, x_p = w) (0 for a skipped missing child; laplace_joint totals N)."""
    if R.is_missing(ch, v):
        return 0.0
    num = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w and row[ch] == v)
    den = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w and not R.is_missing(ch, row[ch]))
    return R.cond(num, den, R.card[ch], R.Y * R.card[p], R.N, R.N)


def _factors(R: Ref, row: list[int], min_freq: int) -> dict:
    """Every estimate the model family needs for one instance `row` (internal codes) under the
    counts of R."""
    n, Y = R.n, R.Y
    qual = [not R.is_missing(p, row[p]) and sum(1 for r in R.rows if r[p] == row[p]) >= min_freq
            for p in range(n)]
    return {
        "prior": [R.log_prior(c) for c in range(Y)],
        "nb": [[R.nb_factor(i, row[i], c) for c in range(Y)] for i in range(n)],
        "qual": qual,
        "joint": [[_joint(R, p, row[p], c) for c in range(Y)] if qual[p] else None for p in range(n)],
        "cond": [[[_cond(R, ch, row[ch], p, row[p], c) for c in range(Y)] if ch != p else None
                  for ch in range(n)] if qual[p] else None for p in range(n)],
    }


def loo_factors(X, y, n_classes, cards, estimator, m, missing, min_freq=1) -> list[dict]:
    """Per training instance t: the estimates of the refit on D \\ {t} at t's values."""
    full = Ref(X, y, n_classes, cards, estimator, m, missing)
    out = []
    for t in range(len(y)):
        keep = [r for r in range(len(y)) if r != t]
        R = Ref([X[r] for r in keep], [y[r] for r in keep], n_classes, cards, estimator, m, missing, card=full.card)
        out.append(_factors(R, [_code(i, v, R.K) for i, v in enumerate(X[t])], min_freq))
    return out


def posterior(f: dict, P, C, n_classes: int) -> list[float]:
    """P(y | x) of the model (P, C) from one instance's estimates: the average of the qualifying
    SPODEs in P over children C, or NB over C when none qualifies."""
    Px = [p for p in sorted(P) if f["qual"][p]]
    if not Px:
        scores = [f["prior"][c] + sum(f["nb"][i][c] for i in sorted(C)) for c in range(n_classes)]
        mx = max(scores)
        e = [math.exp(s - mx) for s in scores]
        return [v / sum(e) for v in e]
    probs = []
    for c in range(n_classes):
        total = 0.0
        for p in Px:
            s = f["joint"][p][c] + sum(f["cond"][p][ch][c] for ch in sorted(C) if ch != p)
            total += math.exp(s)
        probs.append(total / len(Px))
    t = sum(probs)
    return [v / t for v in probs]


def loo_loss(factors: list[dict], y, n_classes: int, P, C, loss: str = "rmse") -> float:
    """LOO RMSE of the true class, sqrt(Σ (1 − p(y_t))² / N), or the LOO zero-one loss."""
    total = 0.0
    for f, yt in zip(factors, y):
        post = posterior(f, P, C, n_classes)
        if loss == "rmse":
            total += (1.0 - post[yt]) ** 2
        else:  # classes within a relative 1e-12 of the best are tied: the first one wins
            best = max(post)
            total += 1.0 if min(c for c in range(n_classes) if post[c] >= best * (1 - 1e-12)) != yt else 0.0
    if loss == "rmse":
        return math.sqrt(total / len(y))
    return total / len(y)


def greedy(kind: str, factors: list[dict], y, n_classes: int, n: int, loss: str = "rmse"):
    """§4.8.4's search: (P, C, losses of the accepted models, start model first)."""
    P = [] if kind == "PAA" else list(range(n))
    C = [] if kind == "CAA" else list(range(n))
    current = loo_loss(factors, y, n_classes, P, C, loss)
    path = [current]
    while True:
        if kind == "PAA":
            cands = [a for a in range(n) if a not in P]
        elif kind == "CAA":
            cands = [a for a in range(n) if a not in C]
        elif kind == "PAE":
            cands = list(P) if len(P) > 1 else []
        else:
            cands = list(C) if len(C) > 1 else []
        best = None
        for a in cands:
            if kind == "PAA":
                value = loo_loss(factors, y, n_classes, P + [a], C, loss)
            elif kind == "CAA":
                value = loo_loss(factors, y, n_classes, P, C + [a], loss)
            elif kind == "PAE":
                value = loo_loss(factors, y, n_classes, [p for p in P if p != a], C, loss)
            else:
                value = loo_loss(factors, y, n_classes, P, [c for c in C if c != a], loss)
            if best is None or value < best[0]:
                best = (value, a)
        if best is None or not best[0] < current:
            return sorted(P), sorted(C), path
        a = best[1]
        if kind == "PAA":
            P.append(a)
        elif kind == "CAA":
            C.append(a)
        elif kind == "PAE":
            P.remove(a)
        else:
            C.remove(a)
        current = best[0]
        path.append(current)


def ref_predict(X, y, Xt, n_classes, cards, P, C, estimator, m, missing, min_freq=1):
    """Posteriors of the model (P, C) fitted on all of (X, y), for the rows of Xt."""
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    return [posterior(_factors(R, [_code(i, v, R.K) for i, v in enumerate(r)], min_freq), P, C, n_classes)
            for r in Xt]
