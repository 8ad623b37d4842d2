"""Plain-Python reference of AIT (paper 004, docs/algorithms.md §4.9), written from the spec with loops
over test instances, attribute pairs and labels, and counts taken directly from the training rows.
It shares no code with bncbench's vectorised AIT: only `tests/oracles/reference.py` (the plain reference
of counts, MI / CMI and estimates) and, for more than 16 attributes under float32, the GCC
`std::sort` emulation `bncbench.classifiers.kernels.ordering.gcc_descending` (tested on its own in
tests/classifiers/kernels/test_ordering.py) are used.
"""

from __future__ import annotations

import math
import struct
from collections import Counter

from bncbench.classifiers.kernels.ordering import gcc_descending
from tests.oracles.reference import Ref
from tests.oracles.ties import tie_key


def f32(x: float) -> float:
    """x rounded to a 32-bit float."""
    return struct.unpack("f", struct.pack("f", x))[0]


# -- §4.9.1 --------------------------------------------------------------------------------
def ref_threshold(values, default: str) -> float:
    """The knee threshold of a list (default search box: "first" or "last")."""
    L = sorted(values)
    M = len(L)
    if M < 3:
        return -math.inf
    m = -(-M // 5)
    q, r = divmod(M, m)
    boxes, start = [], 0
    for j in range(m):  # numpy array_split sizes: the first M mod m boxes get one more
        size = q + 1 if j < r else q
        boxes.append(list(range(start, start + size)))
        start += size
    acmi = [sum(L[p] for p in box) / len(box) for box in boxes]
    LT = m - 1 if default == "last" else 0
    for j in range(m - 1, 0, -1):  # Algorithm 2 / 4.2: j = m down to 2 (1-based)
        if acmi[j] - acmi[j - 1] >= 0.05 * abs(acmi[j - 1]) and acmi[j] > acmi[j - 1]:
            LT = j - 1
    best_k, best_theta = None, None
    for k in boxes[LT]:
        if 1 <= k <= M - 2:
            d1, d2 = L[k] - L[k - 1], L[k + 1] - L[k]
            ratio = abs(d1 * d2 + 1) / (math.sqrt(d1 * d1 + 1) * math.sqrt(d2 * d2 + 1))
            theta = math.acos(max(-1.0, min(1.0, ratio)))
        else:
            theta = 0.0
        if best_theta is None or theta > best_theta:
            best_k, best_theta = k, theta
    assert best_k is not None
    return L[best_k]


# -- information measures ------------------------------------------------------------------------
def cmi32(R: Ref, i: int, j: int) -> float:
    """I(X_i;X_j|Y) accumulated term by term in float32 in the C++ loop order (value of the higher
    attribute, value of the lower one, class; zero counts skipped), §0.3."""
    hi, lo = max(i, j), min(i, j)
    rows = [(r[hi], r[lo], yy) for r, yy in zip(R.rows, R.y)
            if not R.is_missing(hi, r[hi]) and not R.is_missing(lo, r[lo])]
    n = len(rows)
    c3 = Counter(rows)
    chi = Counter((a, c) for a, _, c in rows)
    clo = Counter((b, c) for _, b, c in rows)
    cy = Counter(c for _, _, c in rows)
    acc = 0.0
    for a in R.values(hi):
        for b in R.values(lo):
            for c in range(R.Y):
                k = c3[(a, b, c)]
                if k:
                    acc = f32(acc + (k / n) * math.log2(cy[c] * k / (chi[(a, c)] * clo[(b, c)])))
    return acc


def local_scores(R: Ref, r: list, float32: bool):
    """LMI(x_i; y), CLMI I(x_i; x_j | y) (dict over pairs i < j) per label, and their label sums."""
    n, Y = R.n, R.Y
    lmi = [[0.0] * Y for _ in range(n)]
    for i in range(n):
        if R.is_missing(i, r[i]):
            continue
        rows = [(row[i], yy) for row, yy in zip(R.rows, R.y) if not R.is_missing(i, row[i])]
        N = len(rows)
        cx = sum(1 for v, _ in rows if v == r[i])
        for c in range(Y):
            k = sum(1 for v, yy in rows if v == r[i] and yy == c)
            cy = sum(1 for _, yy in rows if yy == c)
            lmi[i][c] = (k / N) * math.log2(k * N / (cx * cy)) if k else 0.0
    clmi = {}
    for i in range(n):
        for j in range(i + 1, n):
            clmi[(i, j)] = [0.0] * Y
            if R.is_missing(i, r[i]) or R.is_missing(j, r[j]):
                continue
            pair_rows = [(row[i], row[j], yy) for row, yy in zip(R.rows, R.y)
                         if not R.is_missing(i, row[i]) and not R.is_missing(j, row[j])]
            N = len(pair_rows)
            for c in range(Y):
                k = sum(1 for a, b, yy in pair_rows if a == r[i] and b == r[j] and yy == c)
                ci = sum(1 for a, _, yy in pair_rows if a == r[i] and yy == c)
                cj = sum(1 for _, b, yy in pair_rows if b == r[j] and yy == c)
                cy = sum(1 for _, _, yy in pair_rows if yy == c)
                clmi[(i, j)][c] = (k / N) * math.log2(cy * k / (ci * cj)) if k else 0.0

    def label_sum(vals):
        s = 0.0
        for v in vals:
            s = f32(s + v) if float32 else s + v
        return s

    lmi_sum = [label_sum(v) for v in lmi]
    clmi_sum = {p: label_sum(v) for p, v in clmi.items()}
    if float32:
        lmi = [[f32(v) for v in row] for row in lmi]
        clmi = {p: [f32(v) for v in vals] for p, vals in clmi.items()}
    else:  # the tie rule (docs/algorithms.md §0.3)
        lmi = [[tie_key(v) for v in row] for row in lmi]
        clmi = {p: [tie_key(v) for v in vals] for p, vals in clmi.items()}
        lmi_sum = [tie_key(v) for v in lmi_sum]
        clmi_sum = {p: tie_key(v) for p, v in clmi_sum.items()}
    return lmi, lmi_sum, clmi, clmi_sum


# -- structures -------------------------------------------------------------------------------
def prim(w, n):
    """Maximum spanning tree from attribute 0 (§4.2): the heaviest edge from the tree to a new
    node; ties → the smaller new node, then the tree node added earliest."""
    parent = [-1] * n
    added = [0]
    while len(added) < n:
        best = None
        for c in range(n):
            if c in added:
                continue
            for p in added:
                if best is None or w[p][c] > best[0]:
                    best = (w[p][c], c, p)
        assert best is not None
        added.append(best[1])
        parent[best[1]] = best[2]
    return [[p] if p >= 0 else [] for p in parent]


def kdb_structure(score, w, n, k, gcc: bool, order=None):
    """Order by descending score (stable; GCC std::sort order with `gcc` and > 16 attributes), then
    the ≤ k preceding attributes with the largest weight, ties → earlier in the order."""
    if order is None:
        order = list(gcc_descending(score)) if gcc and n > 16 else sorted(range(n), key=lambda i: -score[i])
    parents: list[list[int]] = [[] for _ in range(n)]
    for pos, a in enumerate(order):
        prev = order[:pos]
        parents[a] = sorted(prev, key=lambda p: -w[a][p])[:k]  # stable: ties keep the order
    return [int(a) for a in order], parents


# -- estimates ---------------------------------------------------------------------------------
def factor(R: Ref, i, r, c, parents, backoff):
    """ln P̂(x_i | y = c, parents) as KDB's (§4.3): a missing child (skip) gives 0, a missing parent
    (skip) cuts the list, back-off drops trailing parents whose combination never occurred."""
    if R.is_missing(i, r[i]):
        return 0.0
    par = list(parents)
    if R.skip:
        for d, p in enumerate(par):
            if R.is_missing(p, r[p]):
                par = par[:d]
                break
    if backoff:
        while par and not any(all(row[p] == r[p] for p in par) for row in R.rows):
            par = par[:-1]
    rows = [(row, yy) for row, yy in zip(R.rows, R.y)
            if not (R.skip and any(R.is_missing(p, row[p]) for p in par + [i]))]
    ctx_rows = [(row, yy) for row, yy in zip(R.rows, R.y) if not (R.skip and any(R.is_missing(p, row[p]) for p in par))]
    num = sum(1 for row, yy in rows if yy == c and row[i] == r[i] and all(row[p] == r[p] for p in par))
    den_rows = ctx_rows if R.est == "laplace_joint" else rows
    den = sum(1 for row, yy in den_rows if yy == c and all(row[p] == r[p] for p in par))
    cells = R.Y * math.prod(R.card[p] for p in par)
    return R.cond(num, den, R.card[i], cells, len(rows), len(ctx_rows))


# -- the whole method ---------------------------------------------------------------------------
def ref_ait(X, y, Xt, n_classes, cards, base="TAN", k=2, backoff=True, cii=True, cip=True, ait=True,
            cip_structure="instance", ait_default_interval="paper", local_kdb_backoff=True,
            local_kdb_order="local", local_k=None, info_precision="float64", estimator="mestimate", m=1.0,
            missing="value"):
    """(probabilities, global parents after CII, threshold T_I, local structures per test row).

    Local structures: per test row a dict with `parents` (list over networks of per-attribute parent
    lists, before thresholding), `threshold` (T_P) and `pruned` (list over labels / networks)."""
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    n, Y = R.n, R.Y
    fl32 = info_precision == "float32"
    cmi = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                cmi[i][j] = cmi32(R, i, j) if fl32 else tie_key(R.cmi(i, j))
    if base == "TAN":
        gpar = prim(cmi, n)
        gorder = None
    else:
        mi = [f32(R.mi(i)) if fl32 else tie_key(R.mi(i)) for i in range(n)]
        gorder, gpar = kdb_structure(mi, cmi, n, k, fl32)
    cii_default = "last" if ait_default_interval in ("paper", "last") else "first"
    cip_default = "first" if ait_default_interval in ("paper", "first") else "last"
    TI = ref_threshold([cmi[i][j] for i in range(n) for j in range(i + 1, n)], cii_default) \
        if (ait and cii) else -math.inf
    gpar = [[p for p in par if cmi[i][p] > TI] for i, par in enumerate(gpar)]
    g_backoff = base == "KDB" and backoff
    l_backoff = base == "KDB" and local_kdb_backoff
    kk = 1 if base == "TAN" else (k if local_k is None else local_k)

    def pair(i, j):
        return (min(i, j), max(i, j))

    def learn(score, w):
        if base == "TAN":
            return prim(w, n)
        return kdb_structure(score, w, n, kk, fl32, gorder if local_kdb_order == "global" else None)[1]

    probs, local = [], []
    for row in Xt:
        r = [v if v >= 0 else R.K[i] for i, v in enumerate(row)]
        parts = []
        if cii:
            scores = [R.log_prior(c) + sum(factor(R, i, r, c, gpar[i], g_backoff) for i in range(n)) for c in range(Y)]
            parts.append(R.softmax(scores))
        lmi, lmi_sum, clmi, clmi_sum = local_scores(R, r, fl32)
        TP = ref_threshold([v for vals in clmi.values() for v in vals], cip_default) if ait else -math.inf
        if cip_structure == "instance":
            w = [[clmi_sum[pair(i, j)] if i != j else 0.0 for j in range(n)] for i in range(n)]
            nets = [learn(lmi_sum, w)]
            pruned = [[[p for p in nets[0][i] if clmi[pair(i, p)][c] > TP] for i in range(n)] for c in range(Y)]
            scores = [R.log_prior(c) + sum(factor(R, i, r, c, pruned[c][i], l_backoff) for i in range(n))
                      for c in range(Y)]
            pp = R.softmax(scores)
        else:
            nets, pruned = [], []
            total = [0.0] * Y
            for s in range(Y):
                w = [[clmi[pair(i, j)][s] if i != j else 0.0 for j in range(n)] for i in range(n)]
                net = learn([lmi[i][s] for i in range(n)], w)
                nets.append(net)
                pr = [[p for p in net[i] if clmi[pair(i, p)][s] > TP] for i in range(n)]
                pruned.append(pr)
                post = R.softmax([R.log_prior(c) + sum(factor(R, i, r, c, pr[i], l_backoff) for i in range(n))
                                  for c in range(Y)])
                total = [a + b for a, b in zip(total, post)]
            pp = [t / sum(total) for t in total]
        local.append({"parents": nets, "threshold": TP, "pruned": pruned})
        if cip:
            parts.append(pp)
        probs.append([sum(p[c] for p in parts) / len(parts) for c in range(Y)])
    return probs, gpar, TI, local
