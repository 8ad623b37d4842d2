"""Plain-Python oracle for CFWNB (docs/algorithms.md §4.10) over the row data of
tests/oracles/rows.py, written from the spec, sharing no code with bncbench."""

from __future__ import annotations

import math
from collections import Counter

from tests.oracles.rows import Data


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

