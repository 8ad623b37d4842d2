"""k-BAN's compiled scorer kernels (bncbench/classifiers/ban/kban_kernels.py, docs/algorithms.md §4.6
code notes) against the numpy expressions they replaced, bit for bit, on random values with NaN,
infinities and signed zeros."""

import numpy as np
import pytest

from bncbench.classifiers.ban import kban_kernels


def _values(rng, size):
    """Log-estimate-like floats with a few NaN, ±inf and ±0.0."""
    v = rng.normal(-2.0, 1.5, size)
    flat = v.reshape(-1)
    odd = rng.choice(flat.size, size=max(1, flat.size // 8), replace=False)
    flat[odd] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0], size=odd.size)
    return v


@pytest.mark.parametrize("seed", range(6))
def test_lead_equals_numpy_log_odds_less_base(seed):
    """out = (own[y·cells + cell] − table[o·cells + cell]) − base at the watched rows."""
    rng = np.random.default_rng(seed)
    n_classes, cells, n = int(rng.integers(2, 6)), int(rng.integers(1, 40)), 200
    y = rng.integers(0, n_classes, n)
    cell = rng.integers(0, cells, n)
    own, table = _values(rng, n_classes * cells), _values(rng, n_classes * cells)
    rows = rng.choice(n, size=60, replace=False)
    other = (y[rows] + rng.integers(1, n_classes, rows.size)) % n_classes
    base = _values(rng, rows.size)
    with np.errstate(invalid="ignore"):  # inf − inf: NaN, as in the kernel
        odds = own[y[rows] * cells + cell[rows]] - table[other * cells + cell[rows]]
        want = odds - base
    out = np.empty(rows.size)
    kban_kernels.lead(y * cells + cell, np.concatenate([own, table]), cells, rows, other - y[rows] + n_classes,
                      base, out)
    assert out.tobytes() == want.tobytes()
    zero = np.zeros(rows.size)  # the base's own log-odds: less 0.0, which leaves every float as it is
    kban_kernels.lead(y * cells + cell, np.concatenate([own, table]), cells, rows, other - y[rows] + n_classes,
                      zero, out)
    assert out.tobytes() == odds.tobytes()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("flat_type", [np.int32, np.int64])
def test_bounds_equal_numpy_sums_and_counts(seed, flat_type):
    """Per candidate, its keys' leads (their log-odds at the watched rows, as `lead` computes them,
    less their child's base key's) summed left to right in its change order, then the wrong rows
    reaching their gaps counted up and the right rows falling below their runner-up counted down;
    the keys' estimates scattered over one arena with gaps, their rows in shuffled slots."""
    rng = np.random.default_rng(100 + seed)
    n_classes, n, n_keys, n_wrong, n_right, n_cand = int(rng.integers(2, 5)), 150, 9, 30, 25, 50
    y = rng.integers(0, n_classes, n)
    rows = rng.choice(n, size=n_wrong + n_right, replace=False)
    other = (y[rows] + rng.integers(1, n_classes, rows.size)) % n_classes
    shift = other - y[rows] + n_classes
    arena, offsets, cells, flats, odds = [_values(rng, int(rng.integers(1, 5)))], [], [], [], []
    used = arena[0].size
    for _ in range(n_keys):
        width = int(rng.integers(1, 20))
        both = _values(rng, 2 * n_classes * width)
        flat = y * width + rng.integers(0, width, n)
        with np.errstate(invalid="ignore"):
            odds.append(both[flat[rows]] - both[flat[rows] + width * shift])
        offsets.append(used)
        cells.append(width)
        flats.append(flat)
        gap = _values(rng, int(rng.integers(1, 5)))
        arena += [both, gap]
        used += both.size + gap.size
    slot = rng.permutation(n_keys + 3)[:n_keys]  # rows of `flats` in any order, some unused
    table = rng.integers(0, 9, (n_keys + 3, n)).astype(flat_type)
    table[slot] = np.array(flats)
    base_of = np.where(np.arange(n_keys) < 3, -1, rng.integers(0, 3, n_keys))  # keys 0–2: base keys
    width = int(rng.integers(1, 4))
    idx = rng.integers(3, n_keys, (n_cand, width))
    idx[:, 1:][rng.random((n_cand, width - 1)) < 0.3] = -1  # shorter change lists
    gap_wrong, lost_below = _values(rng, n_wrong), _values(rng, n_right)
    with np.errstate(invalid="ignore"):  # inf − inf: NaN, as in the kernel
        leads = [odds[k] - odds[base_of[k]] if base_of[k] >= 0 else odds[k] for k in range(n_keys)]
        want = []
        for c in range(n_cand):
            lead = leads[idx[c, 0]]
            for w in range(1, width):
                if idx[c, w] >= 0:
                    lead = lead + leads[idx[c, w]]
            want.append(17 + np.count_nonzero(gap_wrong <= lead[:n_wrong])
                        - np.count_nonzero(lead[n_wrong:] < lost_below))
    got = np.empty(n_cand, dtype=np.int64)
    kban_kernels.bounds(table, np.concatenate(arena), slot.astype(np.int64), np.array(offsets), np.array(cells),
                        base_of, rows, shift, idx, n_wrong, gap_wrong, lost_below, 17, got)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_rows, n, size", [(400, 3, 4), (50, 7, 5), (300, 2000, 900), (1, 1, 1)])
def test_ranks_equal_numpy(seed, n_rows, n, size):
    """The keys head · size + col themselves where their range [0, n · size) is at most a quarter of
    the rows, else their ranks among the distinct keys (np.unique's inverse), by a presence vector
    or by sorting (the third case's range exceeds the vector's limit)."""
    rng = np.random.default_rng(300 + seed)
    head, col = rng.integers(0, n, n_rows), rng.integers(0, size, n_rows)
    key = head * size + col
    out = np.empty(n_rows, dtype=np.int64)
    got = kban_kernels.ranks(head, size, col, n, out)
    if 4 * n * size <= n_rows:
        assert got == n * size and out.tolist() == key.tolist()
    else:
        distinct, inverse = np.unique(key, return_inverse=True)
        assert got == distinct.size and out.tolist() == inverse.reshape(-1).tolist()


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("flat_type", [np.int32, np.int64])
def test_entries_equal_numpy_counts(seed, flat_type):
    """Each row's (own class, cell) entry y · cells + cell, the rows' counts per entry as floats
    (np.bincount), and per (class, cell) the class's count of the cell's configuration (cells no row
    has: configuration 0), as `_estimate_many` computed them with numpy."""
    rng = np.random.default_rng(400 + seed)
    n_classes, n_ctx, n = int(rng.integers(1, 6)), int(rng.integers(1, 9)), int(rng.integers(1, 300))
    y, ctx = rng.integers(0, n_classes, n), rng.integers(0, n_ctx, n)
    n_cells = int(rng.integers(1, 4)) * n_ctx + int(rng.integers(0, 5))  # some cells without a row
    cell = ctx + n_ctx * rng.integers(0, n_cells // n_ctx, n)  # a cell determines its configuration
    ctx_counts = np.bincount(y * n_ctx + ctx, minlength=n_classes * n_ctx).reshape(n_classes, n_ctx)
    cell_ctx = np.zeros(n_cells, dtype=np.int64)
    cell_ctx[cell] = ctx
    want_flat = y * n_cells + cell
    flat, num, den = np.full(n, -1, dtype=flat_type), np.zeros(n_classes * n_cells), np.empty(n_classes * n_cells)
    kban_kernels.entries(cell, n_cells, ctx, y, n_classes, ctx_counts, flat, num, den)
    assert flat.tolist() == want_flat.tolist()
    assert num.tobytes() == np.bincount(want_flat, minlength=n_classes * n_cells).astype(np.float64).tobytes()
    assert den.tobytes() == ctx_counts.take(cell_ctx, axis=1).reshape(-1).astype(np.float64).tobytes()


@pytest.mark.parametrize("seed", range(6))
def test_context_counts_equal_bincount(seed):
    rng = np.random.default_rng(500 + seed)
    n_classes, n, rows = int(rng.integers(1, 7)), int(rng.integers(1, 50)), int(rng.integers(0, 400))
    ids, y = rng.integers(0, n, rows), rng.integers(0, n_classes, rows)
    want = np.bincount(y * n + ids, minlength=n_classes * n).reshape(n_classes, n)
    assert kban_kernels.context_counts(ids, y, n, n_classes).tolist() == want.tolist()


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("flat_type", [np.int32, np.int64])
def test_swapped_equals_numpy_scores(seed, flat_type):
    """The base scores at the rows less each changed child's old factor plus its new one (numpy's
    (|Y|, rows) arrays, as `_hits` computed them), then the best score, the true class's hit
    (argmax's rule where a score is NaN) and the near ties, on scores with NaN, infinities, signed
    zeros and exact ties."""
    rng = np.random.default_rng(600 + seed)
    n_classes, n, n_changed = int(rng.integers(1, 7)), 120, int(rng.integers(0, 4))
    y = rng.integers(0, n_classes, n)
    arena, offsets, cells, flats, factors = [_values(rng, 3)], [], [], [], []
    used = arena[0].size
    for _ in range(2 * n_changed):
        width = int(rng.integers(1, 12))
        both = _values(rng, 2 * n_classes * width)
        if rng.random() < 0.3:  # equal estimates: exact ties between classes
            both[n_classes * width:] = both[n_classes * width]
        cell = rng.integers(0, width, n)
        flat = y * width + cell
        factor = both[n_classes * width:].reshape(n_classes, width)[:, cell].copy()
        factor[y, np.arange(n)] = both[flat]  # own class: the own estimates
        offsets.append(used)
        cells.append(width)
        flats.append(flat)
        factors.append(factor)
        arena += [both, _values(rng, int(rng.integers(1, 4)))]
        used += both.size + arena[-1].size
    slot = rng.permutation(2 * n_changed + 2)[:2 * n_changed]
    table = rng.integers(0, 9, (2 * n_changed + 2, n)).astype(flat_type)
    if n_changed:
        table[slot] = np.array(flats)
    base_sum = _values(rng, (n_classes, n))
    base_sum[:, rng.random(n) < 0.2] = 0.0  # rows whose classes tie
    rows = np.sort(rng.choice(n, size=int(rng.integers(1, n)), replace=False))
    with np.errstate(invalid="ignore"):
        approx = base_sum.take(rows, axis=1)
        for j in range(n_changed):
            approx -= factors[2 * j].take(rows, axis=1)
            approx += factors[2 * j + 1].take(rows, axis=1)
        top = approx.max(axis=0)
        close = np.count_nonzero(approx >= top - 1e-9 * np.maximum(1.0, np.abs(top)), axis=0) > 1
        own = y.take(rows)
        hit = approx[own, np.arange(rows.size)] == top
    nan = np.flatnonzero(np.isnan(top))
    hit[nan] = approx.take(nan, axis=1).argmax(axis=0) == own.take(nan)
    got_hit, got_close = np.empty(rows.size, dtype=bool), np.empty(rows.size, dtype=bool)
    kban_kernels.swapped(table, np.concatenate(arena), slot.astype(np.int64), np.array(offsets, dtype=np.int64),
                         np.array(cells, dtype=np.int64), base_sum, rows, y, 1e-9, got_hit, got_close)
    assert got_hit.tolist() == hit.tolist()
    assert got_close.tolist() == close.tolist()


@pytest.mark.parametrize("seed", range(8))
def test_best_two_equals_numpy(seed):
    """The column's max, its first class (argmax's rule: the first NaN where there is one) and the
    max of the other classes (the first class's entry set to −∞), as `set_base` computed them with
    numpy, on scores with NaN, infinities, signed zeros and exact ties."""
    rng = np.random.default_rng(700 + seed)
    n_classes, n = int(rng.integers(1, 7)), 300
    scores = _values(rng, (n_classes, n))
    scores[:, rng.random(n) < 0.2] = -1.5  # exact ties
    scores[rng.integers(0, n_classes, 40), rng.integers(0, n, 40)] = -1.5
    with np.errstate(invalid="ignore"):
        top = scores.max(axis=0)
        pred = np.zeros(n, dtype=np.int64)
        for c in range(n_classes - 1, -1, -1):
            pred[scores[c] == top] = c
        nan = np.flatnonzero(np.isnan(top))
        pred[nan] = scores.take(nan, axis=1).argmax(axis=0)
        rest = scores.copy()
        rest[pred, np.arange(n)] = -np.inf
        second = rest.max(axis=0)
    got_pred, got_top, got_second = np.empty(n, dtype=np.int64), np.empty(n), np.empty(n)
    kban_kernels.best_two(scores, got_pred, got_top, got_second)
    assert got_pred.tolist() == pred.tolist()
    # equal values (a zero's sign may differ from numpy's reduction's: the gaps top − second − tol
    # and top − score − tol that `set_base` makes of them are the same floats either way)
    np.testing.assert_array_equal(got_top, top)
    np.testing.assert_array_equal(got_second, second)
    tol = 1e-9 * np.maximum(1.0, np.abs(top))
    with np.errstate(invalid="ignore"):
        pairs = ((top - second - tol, got_top - got_second - tol), (top - scores - tol, got_top - scores - tol))
        for want, got in pairs:
            finite = np.isfinite(want)
            assert want[finite].tobytes() == got[finite].tobytes()
            np.testing.assert_array_equal(want, got)
