"""Plain-Python reference of STAN's leave-one-out risks (docs/algorithms.md §4.5) by really
refitting without each training instance, over `tests/oracles/reference.py`'s `Ref`."""

from __future__ import annotations

import math

from tests.oracles.reference import Ref, _code


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
