"""Slow plain-Python references for paper 003's SP, RC and SP+RC (docs/algorithms.md §4.8.1–§4.8.3).

Straight from the spec, sharing no code with bncbench: the spanning tree by brute force over all
(n − 1)-edge subsets, FDs checked by scanning the training rows for each test instance, the
canonical cover and the eliminations by the textbook attribute-closure algorithm on Python sets,
and the SPODE average multiplied out per instance with `tests.oracles.reference.Ref`'s estimates (the
same formulas as `ref_aode`). Missing values (−1) become the extra value K_i.
"""

from __future__ import annotations

import itertools
import math

from tests.oracles.reference import Ref, _code
from tests.oracles.ties import tie_key

LEAF_SHARE = 0.85


# -- SP ------------------------------------------------------------------------------------------
def _is_spanning_tree(n, edges):
    adj: dict[int, list[int]] = {i: [] for i in range(n)}
    for i, j in edges:
        adj[i].append(j)
        adj[j].append(i)
    seen, stack = {0}, [0]
    while stack:
        for k in adj[stack.pop()]:
            if k not in seen:
                seen.add(k)
                stack.append(k)
    return len(seen) == n


def brute_force_tree(w):
    """The maximum spanning tree Kruskal builds with ties broken by lexicographic (i, j): rank
    the edges by (−weight, i, j); among all spanning trees (every (n − 1)-subset of edges that
    connects all nodes), the one with the smallest sum of ranks is the unique minimum tree for
    those distinct ranks, which is Kruskal's. Also checks that it has the maximum total weight."""
    n = len(w)
    edges = [(i, j) for i in range(n) for j in range(i + 1, n)]
    rank = {e: r for r, e in enumerate(sorted(edges, key=lambda e: (-w[e[0]][e[1]], e[0], e[1])))}
    trees = [t for t in itertools.combinations(edges, n - 1) if _is_spanning_tree(n, t)]
    best = min(trees, key=lambda t: sum(rank[e] for e in t))
    # equal weights summed in another order may differ in the last bit: compare to 1e-12
    assert math.isclose(sum(w[i][j] for i, j in best), max(sum(w[i][j] for i, j in t) for t in trees),
                        rel_tol=1e-12, abs_tol=1e-12)
    return sorted(best)


def sp_parents_from_weights(w):
    """P of §4.8.1 from a weight matrix (list of lists)."""
    n = len(w)
    if n == 1:
        return [0]
    tree = brute_force_tree(w)
    degree = [0] * n
    for i, j in tree:
        degree[i] += 1
        degree[j] += 1
    branch = [i for i in range(n) if degree[i] >= 2]
    leaf_cmi = {}
    for i, j in tree:
        for leaf in (i, j):
            if degree[leaf] == 1:
                leaf_cmi[leaf] = w[i][j]
    leaves = sorted((i for i in range(n) if degree[i] == 1), key=lambda i: (-leaf_cmi[i], i))
    total = 0.0
    for i in leaves:
        total += leaf_cmi[i]
    if total <= 0:
        chosen = leaves
    else:
        chosen, acc = [], 0.0
        for i in leaves:
            acc += leaf_cmi[i]
            chosen.append(i)
            if acc > LEAF_SHARE * total:
                break
    return sorted(branch + chosen)


def ref_cmi_matrix(R):
    return [[0.0 if i == j else tie_key(R.cmi(i, j)) for j in range(R.n)] for i in range(R.n)]


# -- RC --------------------------------------------------------------------------------------------
def fd_holds(R, x, S, j, l_fd):
    """x_S → x_j holds in the training data: ≥ l_fd rows match x on S and all have X_j = x_j (under
    skip no missing value takes part)."""
    if any(R.is_missing(i, x[i]) for i in list(S) + [j]):
        return False
    match = [r for r in R.rows if all(r[i] == x[i] for i in S)]
    return len(match) >= l_fd and all(r[j] == x[j] for r in match)


def instance_fds(R, x, l_fd, lhs):
    """Left-reduced FDs of instance x as (S, j), S a sorted tuple, in the order (j, |S|, S)."""
    n = R.n
    single = {(a, j) for a in lhs for j in range(n) if j != a and fd_holds(R, x, (a,), j, l_fd)}
    out: list[tuple[tuple[int, ...], int]] = [((a,), j) for a, j in single]
    for a, b in itertools.combinations(sorted(lhs), 2):
        for j in range(n):
            if j in (a, b) or (a, j) in single or (b, j) in single:
                continue
            if fd_holds(R, x, (a, b), j, l_fd):
                out.append(((a, b), j))
    return sorted(out, key=lambda f: (f[1], len(f[0]), f[0]))


def closure(attrs, fds):
    """The attribute-closure algorithm: add a target whenever its LHS is inside the set."""
    result = set(attrs)
    changed = True
    while changed:
        changed = False
        for S, j in fds:
            if j not in result and set(S) <= result:
                result.add(j)
                changed = True
    return result


def canonical_cover(fds):
    """Remove, in order, every FD whose target is in the closure of its LHS under the others."""
    cover = list(fds)
    for f in list(fds):
        others = [g for g in cover if g != f]
        if f[1] in closure(f[0], others):
            cover = others
    return cover


def eliminate(fds, n):
    """§4.8.2 step 3: for j in index order, delete j iff K \\ {j} ≠ ∅ and j ∈ closure(K \\ {j})."""
    K = set(range(n))
    for j in range(n):
        rest = K - {j}
        if rest and j in closure(rest, fds):
            K = rest
    return sorted(set(range(n)) - K)


# -- the SPODE average -------------------------------------------------------------------------------
def _average(R, r, parents, children, min_freq, estimator, m):
    """P(y | x) of §4.8 for one instance r (internal codes)."""
    Y = R.Y

    def joint(p, w, c):
        num = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w)
        total = sum(1 for row in R.rows if not R.is_missing(p, row[p])) if R.skip else R.N
        cells = R.card[p] * Y
        if estimator == "mestimate":
            return math.log((num + m / cells) / (total + m))
        return math.log((num + 1) / (total + cells))

    def cond(ch, v, p, w, c):
        if R.is_missing(ch, v):
            return 0.0
        num = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w and row[ch] == v)
        den = sum(1 for row, yy in zip(R.rows, R.y) if yy == c and row[p] == w and not R.is_missing(ch, row[ch]))
        return R.cond(num, den, R.card[ch], Y * R.card[p], R.N, R.N)

    Q = [p for p in parents if not R.is_missing(p, r[p]) and sum(1 for row in R.rows if row[p] == r[p]) >= min_freq]
    if not Q:
        return R.softmax([R.log_prior(c) + sum(R.nb_factor(i, r[i], c) for i in children) for c in range(Y)])
    probs = [sum(math.exp(joint(p, r[p], c) + sum(cond(ch, r[ch], p, r[p], c) for ch in children if ch != p))
                 for p in Q) / len(Q) for c in range(Y)]
    t = sum(probs)
    return [x / t for x in probs]


def ref_sp(X, y, Xt, n_classes, cards, min_freq=1, estimator="mestimate", m=1.0, missing="value"):
    """(probabilities, P, CMI matrix) of SP."""
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    w = ref_cmi_matrix(R)
    P = sp_parents_from_weights(w)
    out = [_average(R, [_code(i, v, R.K) for i, v in enumerate(row)], P, list(range(R.n)), min_freq, estimator, m)
           for row in Xt]
    return out, P, w


def ref_rc(X, y, Xt, n_classes, cards, l_fd, cover=True, remove_as_parent=False, sp=False, min_freq=1,
           estimator="mestimate", m=1.0, missing="value"):
    """(probabilities, eliminated attributes per row, P) of RC, or of SP+RC with `sp`."""
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    P = sp_parents_from_weights(ref_cmi_matrix(R)) if sp else list(range(R.n))
    probs, gone = [], []
    for row in Xt:
        r = [_code(i, v, R.K) for i, v in enumerate(row)]
        fds = instance_fds(R, r, l_fd, P)
        if cover:
            fds = canonical_cover(fds)
        E = eliminate(fds, R.n)
        parents = [p for p in P if not (remove_as_parent and p in E)]
        probs.append(_average(R, r, parents, [i for i in range(R.n) if i not in E], min_freq, estimator, m))
        gone.append(E)
    return probs, gone, P
