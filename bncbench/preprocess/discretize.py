"""Cut points of equal-frequency and MDL discretisation, of one column and of every numeric column
of a matrix, and a matrix's codes (docs/algorithms.md §1.2, §1.3, §1.7): what the runner and the
scikit-learn transformers both compute, with numpy alone."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from bncbench.preprocess.columns import categorical_codes

#: the equal-frequency methods (§1.2) and the MDL methods (§1.3)
EQFREQ_METHODS = ("petal", "weka", "quantile")
MDL_METHODS = ("weka", "petal")


def eqfreq_petal(values: np.ndarray, bins: int = 5) -> np.ndarray:
    """Quantile cuts on the sorted float32 values (Webb-group C++ rule, §1.2 a)."""
    return _quantile_cuts(np.sort(np.asarray(values, dtype=np.float32)), bins)


def eqfreq_quantile(values: np.ndarray, bins: int = 5) -> np.ndarray:
    """The same quantile cuts on the sorted float64 values (§1.2 c): each cut is a data value."""
    return _quantile_cuts(np.sort(np.asarray(values, dtype=np.float64)), bins)


def _quantile_cuts(v: np.ndarray, bins: int) -> np.ndarray:
    """Cuts v[⌊s·i⌋ − 1] of the sorted values v (dtype kept), k = min(bins, m), s = m/k, each
    kept if it differs from the last kept cut and lies below the maximum."""
    m = v.shape[0]
    if m == 0:
        return np.empty(0, dtype=v.dtype)
    k = min(bins, m)
    size = m / k
    cuts: list = []
    vmax = v[m - 1]
    for i in range(1, k):
        c = v[math.floor(size * i) - 1]
        if (not cuts or c != cuts[-1]) and c < vmax:
            cuts.append(c)
    return np.array(cuts, dtype=v.dtype)


def eqfreq_weka(values: np.ndarray, bins: int = 5) -> np.ndarray:
    """Weka 3.6 `unsupervised.attribute.Discretize -F -B bins` (greedy, midpoint cuts, §1.2 b)."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    m = v.shape[0]
    remaining = float(m)
    target = remaining / bins
    cuts: list[float] = []
    count = 0.0
    last_count = 0.0
    last_pos = -1
    for i in range(m - 1):
        count += 1.0
        remaining -= 1.0
        if not v[i] < v[i + 1]:
            continue
        if len(cuts) >= bins - 1:
            break
        if count >= target:
            if (target - last_count) < (count - target) and last_pos != -1:
                cuts.append((v[last_pos] + v[last_pos + 1]) / 2)
                count -= last_count
                last_count = count
                last_pos = i
            else:
                cuts.append((v[i] + v[i + 1]) / 2)
                count = 0.0
                last_count = 0.0
                last_pos = -1
            target = (remaining + count) / (bins - len(cuts))
        else:
            last_pos = i
            last_count = count
    if len(cuts) < bins - 1 and last_pos != -1:
        cuts.append((v[last_pos] + v[last_pos + 1]) / 2)
    return np.array(cuts, dtype=np.float64)


def _xlnx(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    out = np.zeros_like(c)
    pos = c > 0
    out[pos] = c[pos] * np.log(c[pos])
    return out


def _class_sum(xlnx: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Σ over each row of class counts of c ln c: numpy's row sums, or with two classes the one
    addition they are (the same float, without the gathered matrix and the reduction)."""
    if counts.shape[1] == 2:
        return xlnx[counts[:, 0]] + xlnx[counts[:, 1]]
    return xlnx[counts].sum(axis=1)


def _entropies(counts: np.ndarray, xlnx: np.ndarray) -> np.ndarray:
    """Class entropy in bits of each row of integer class counts, none empty (Weka's formula: Σ
    xlnx form); `xlnx[c]` = c ln c (`_xlnx` of 0..N)."""
    total = counts.sum(axis=1)
    return (-_class_sum(xlnx, counts) + xlnx[total]) / (total * math.log(2))


_CHUNK_CELLS = 1 << 22  # columns searched together hold at most this many (row, class) counts (32 MB) ...


def mdl_columns(columns: list[tuple[np.ndarray, np.ndarray]], n_classes: int, method: str = "weka") -> list[np.ndarray]:
    """`mdl` of each (values, classes) column, searched together (§1.3): the nodes of one depth of
    every column's recursion are scored by one set of array operations, each node's candidates
    as a call on its rows alone scores them (the same float operations, row by row)."""
    out: list[np.ndarray] = []
    chunk: list[tuple[np.ndarray, np.ndarray]] = []
    cells = 0
    for col in columns:
        if chunk and (cells + len(col[0])) * n_classes > _CHUNK_CELLS:
            out += _mdl_chunk(chunk, n_classes, method == "petal")
            chunk, cells = [], 0
        chunk.append(col)
        cells += len(col[0])
    return out + (_mdl_chunk(chunk, n_classes, method == "petal") if chunk else [])


def _mdl_chunk(columns: list[tuple[np.ndarray, np.ndarray]], n_classes: int, petal: bool) -> list[np.ndarray]:
    """`mdl_columns` of a few columns: their sorted values laid end to end; a node is a range
    [lo, hi) of one column's, whose class counts are differences of the cumulative counts (integers:
    the very counts of its rows)."""
    dtype = np.float32 if petal else np.float64
    values, classes = [], []
    for v, y in columns:
        v = np.asarray(v, dtype=dtype)
        order = np.argsort(v, kind="stable")
        values.append(v[order])
        classes.append(np.asarray(y, dtype=np.int64)[order])
    lengths = np.array([v.shape[0] for v in values], dtype=np.int64)
    ends = np.cumsum(lengths)
    V: np.ndarray = np.concatenate(values)
    N = V.shape[0]
    cum = np.zeros((N + 1, n_classes), dtype=np.int64)  # class counts of V[0..p − 1]
    cum[np.arange(1, N + 1), np.concatenate(classes)] = 1
    np.cumsum(cum, axis=0, out=cum)
    bounds = np.flatnonzero(V[:-1] < V[1:])  # a cut between p and p + 1 (a node's lie within its column)
    xlnx = _xlnx(np.arange(int(lengths.max(initial=0)) + 1))  # c ln c of every count
    cuts: list[list] = [[] for _ in columns]
    log3 = np.array([0.0] + [math.log2(3 ** k - 2) for k in range(1, n_classes + 1)])  # log2(3^k − 2)
    lo, hi = ends - lengths, ends
    col = np.arange(len(columns))
    top = True
    while lo.size:
        first, stop = np.searchsorted(bounds, lo), np.searchsorted(bounds, hi - 1)
        has = stop > first  # candidates p with lo ≤ p ≤ hi − 2 (none when hi − lo < 2)
        lo, hi, col, first, stop = lo[has], hi[has], col[has], first[has], stop[has]
        if not lo.size:
            break
        count = stop - first
        seg = np.cumsum(count) - count  # each node's first candidate in the flat list
        node = np.repeat(np.arange(lo.size), count)
        cand = bounds[np.arange(int(count.sum())) - seg[node] + first[node]]
        n = hi - lo
        total = cum[hi] - cum[lo]
        left = cum[cand + 1] - cum[lo][node]
        right = total[node] - left
        nl = cand + 1 - lo[node]  # the rows left of the cut: Σ of `left`'s counts
        nr = n[node] - nl
        # Weka's entropyConditionedOnRows: (-Σ xlnx(cells) + Σ xlnx(row totals)) / (N ln 2)
        ent = (-_class_sum(xlnx, left) - _class_sum(xlnx, right) + xlnx[nl] + xlnx[nr]) / (n[node] * math.log(2))
        hit = ent == np.minimum.reduceat(ent, seg)[node]
        index = np.arange(ent.size)
        if petal:  # the rightmost of equal entropies
            best = np.maximum.reduceat(np.where(hit, index, -1), seg)
        else:  # the leftmost
            best = np.minimum.reduceat(np.where(hit, index, ent.size), seg)
        at = cand[best]
        # k: classes present in the node; the petal variant's top-level test counts the declared
        # classes instead (§1.3 rule 5, verified for paper 004: hungarian declares 5 classes, 2 present)
        k = np.full(lo.size, n_classes) if petal and top else (total > 0).sum(axis=1)
        k1, k2 = (left[best] > 0).sum(axis=1), (right[best] > 0).sum(axis=1)
        prior, e1, e2 = (_entropies(c, xlnx) for c in (total, left[best], right[best]))
        gain = prior - ent[best]
        # rule 5 as Python's floats compute it: the logarithms by `math`, the rest the same IEEE operations
        delta = log3[k] - (k * prior - k1 * e1 - k2 * e2)
        log_n = np.array([math.log2(size - 1) for size in n.tolist()])
        cut = np.flatnonzero(~(gain <= 0) & (gain > (log_n + delta) / n))
        i = at[cut]
        if petal:
            found = (V[i] + V[i + 1]) / np.float32(2)  # float32 values: the float32 midpoint
        else:
            found = (V[i] + V[i + 1]) / 2
        for c, x in zip(col[cut].tolist(), found.tolist()):
            cuts[c].append(x)
        lo, hi = np.concatenate([lo[cut], i + 1]), np.concatenate([i + 1, hi[cut]])
        col = np.concatenate([col[cut], col[cut]])
        if petal:  # a side is searched again only with more than 2 instances
            more = hi - lo > 2
            lo, hi, col = lo[more], hi[more], col[more]
        top = False
    return [np.array(sorted(c), dtype=dtype) for c in cuts]


def mdl(values: np.ndarray, y: np.ndarray, n_classes: int, method: str = "weka") -> np.ndarray:
    """Fayyad–Irani MDL cut points (§1.3); `method` "weka" (leftmost tie, float64) or
    "petal" (rightmost tie, float32 values, recurse only on sides with > 2 instances, the
    top-level test with k = `n_classes`, the declared classes, not those present)."""
    return mdl_columns([(values, y)], n_classes, method)[0]


def apply_cuts(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Bin index per value: first bin with v ≤ cut; NaN → len(cuts) + 1 (the extra bin)."""
    v = np.asarray(values, dtype=np.float64)
    missing = np.isnan(v)
    codes = np.searchsorted(cuts, v.astype(cuts.dtype) if cuts.dtype == np.float32 else v, side="left")
    codes = codes.astype(np.int32)
    codes[missing] = len(cuts) + 1
    return codes


def _numeric_cuts(X: np.ndarray, categorical: np.ndarray,
                  cut: Callable[[list[tuple[np.ndarray, np.ndarray]]], list[np.ndarray]]) -> list[np.ndarray | None]:
    """The cut points of each column of X: those of the numeric ones as `cut` gives them from their
    (column, known) pairs, in column order; None for a categorical one (`categorical`: a mask)."""
    numeric = [j for j in range(X.shape[1]) if not categorical[j]]
    found = iter(cut([(X[:, j], ~np.isnan(X[:, j])) for j in numeric]))
    return [None if categorical[j] else next(found) for j in range(X.shape[1])]


def eqfreq_cuts(X: np.ndarray, categorical: np.ndarray, bins: int, method: str) -> list[np.ndarray | None]:
    """Equal-frequency cut points of every numeric column of X (float64, NaN = missing) on its
    known values (§1.2; `method` one of EQFREQ_METHODS), None for a categorical column."""
    def petal(col: np.ndarray, known: np.ndarray) -> np.ndarray:
        nonlocal bins
        v = col[known]
        if 0 < v.size < bins:  # the C++ system's quirk: also lowers later columns' bins
            bins = v.size
        return eqfreq_petal(v, bins)

    if method == "petal":
        return _numeric_cuts(X, categorical, lambda columns: [petal(col, known) for col, known in columns])
    rule = eqfreq_quantile if method == "quantile" else eqfreq_weka
    return _numeric_cuts(X, categorical, lambda columns: [rule(col[known], bins) for col, known in columns])


def mdl_cuts(X: np.ndarray, categorical: np.ndarray, y: np.ndarray, n_classes: int,
             method: str) -> list[np.ndarray | None]:
    """MDL cut points of every numeric column of X (float64, NaN = missing) on the rows where it
    is known, y the class codes 0..n_classes − 1 (§1.3; `method` one of MDL_METHODS), None for a
    categorical column."""
    return _numeric_cuts(X, categorical, lambda columns: mdl_columns([(col[known], y[known]) for col, known in columns],
                                                                     n_classes, method))


def discretize(X: np.ndarray, cuts: list[np.ndarray | None]) -> np.ndarray:
    """int32 codes of X (float64, NaN = missing): a numeric column's value v to the first bin whose
    cut c has v ≤ c, a categorical column's (cuts None) codes kept, −1 for missing."""
    out = np.empty(X.shape, dtype=np.int32)
    for j in range(X.shape[1]):
        col = X[:, j]
        c = cuts[j]
        if c is None:
            out[:, j] = categorical_codes(col, j)
        else:
            codes = apply_cuts(col, c)
            codes[np.isnan(col)] = -1
            out[:, j] = codes
    return out
