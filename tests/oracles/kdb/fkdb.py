"""Plain-Python oracle for FKDB (docs/algorithms.md §4.11) over the row data of
tests/oracles/rows.py, written from the spec, sharing no code with bncbench."""

from __future__ import annotations

import math
from collections import Counter

from tests.oracles.rows import Data
from tests.oracles.ties import tie_key


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
    parents: list[list[int]] = [[] for _ in range(n)]
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
