"""Compiled kernels of k-BAN's structure scorer (docs/algorithms.md §4.6, code notes): the watched
rows' leads of a candidate's changed factors and the bounds they give. Imported only where k-BAN
fits (numba's import and compile are paid there alone)."""

from __future__ import annotations

from bncbench.classifiers.ban.jit import kernel


@kernel
def lead(flat, both, cells, rows, shift, base, out):
    """out[r] = (own estimate − other class's estimate) − base[r] at watched row rows[r]: the row's
    entry flat[rows[r]] of `both` (own estimates, then the table) less the entry cells · shift[r]
    after it, in the order numpy would compute them."""
    for r in range(rows.size):
        at = flat[rows[r]]
        out[r] = (both[at] - both[at + cells * shift[r]]) - base[r]


@kernel
def bounds(leads, idx, n_wrong, gap_wrong, lost_below, base_correct, out):
    """Per candidate c, base_correct + the wrong rows whose summed lead reaches their gap − the
    watched right rows it drops below their runner-up, the leads leads[idx[c, 0]], leads[idx[c, 1]],
    … added in that order (`StructureScorer.upper_bounds`)."""
    for c in range(idx.shape[0]):
        got = base_correct
        for r in range(leads.shape[1]):
            s = leads[idx[c, 0], r]
            for w in range(1, idx.shape[1]):
                s += leads[idx[c, w], r]
            if r < n_wrong:
                if gap_wrong[r] <= s:
                    got += 1
            elif s < lost_below[r - n_wrong]:
                got -= 1
        out[c] = got
