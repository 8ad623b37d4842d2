"""k-BAN's structure scorer (paper 002, docs/algorithms.md §4.6): the training-set accuracy of a candidate
structure, by leave-one-out count subtraction or resubstitution, with the bounds that let the
greedy search of `kban.py` settle most candidates without counting every row."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from bncbench.classifiers.ban import kban_kernels
from bncbench.classifiers.kernels.estimators import log_cond, log_prior, prior

Structure = tuple[tuple[int, ...], ...]  # per attribute, its attribute parents (sorted)
# relative score gap below which a row's prediction is recomputed by the in-order sum (the swapped-
# factor sum is off by a few ulps of the row's scores, far below this)
_TIE_TOL = 1e-9
# right rows scored first, at least, when a candidate's count may still fall to the best so far
_FIRST_ROWS = 32
# right rows (at least) that `upper_bounds` watches for sure losses
_WATCHED_RIGHT = 64
# log-odds (keys × watched rows) that one call of `upper_bounds`' kernel holds at most
_BATCH = 1 << 20
# new estimates that `upper_bounds` makes at once (in one `log_cond` call)
_NEW = 64
# parts of the attributes after which `set_base` keeps the partial in-order sums of the base
_PARTS = 4


def _ranks(head: np.ndarray, size: int, col: np.ndarray, n: int) -> tuple[np.ndarray, int]:
    """Indices of the keys head · size + col (values in [0, n · size)) in a range of about their
    distinct values, and the range's size (§4.6; `kban_kernels.ranks`)."""
    out = np.empty(head.size, dtype=np.int64)
    return out, int(kban_kernels.ranks(head, size, col, n, out))


def _argmax0(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`a.argmax(axis=0)` of a (|Y|, n) array (the first index of the maximum; of the first NaN
    where there is one) and `a.max(axis=0)`, by |Y| passes along the rows: numpy reduces an
    argmax along the short class axis element by element, tens of times slower."""
    top = a.max(axis=0)
    arg = np.zeros(a.shape[1], dtype=np.int64)
    for c in range(a.shape[0] - 1, -1, -1):
        arg[a[c] == top] = c  # later classes first, so the smallest index of the maximum wins
    nan = np.flatnonzero(np.isnan(top))
    if nan.size:
        arg[nan] = a.take(nan, axis=1).argmax(axis=0)
    return arg, top


class _Estimates(NamedTuple):
    """ln P̂(x_child | y, π) of one (child, parent set) per occurring (π, x) cell and class."""

    cell: np.ndarray   # (N,) each row's cell
    table: np.ndarray  # (|Y|, cells) the estimates
    own: np.ndarray    # (|Y| · cells,) flat, class-major: a (class, cell) entry's estimate for a row of
    #                    that cell and class (under leave-one-out with the row's own count removed)
    flat: np.ndarray   # (N,) each row's (own class, cell) entry in `own`: y · cells + cell (a row of `_flats`)
    both: np.ndarray   # (2 · |Y| · cells,) `own`, then `table` flat: one gather reads either (`_log_odds`)
    slot: int          # its row of the scorer's `_flats` (`flat` is that row), for `upper_bounds`' one call
    off: int           # where `both` starts in the scorer's `_arena` (`both` is that part of it)


class StructureScorer:
    """Training-set accuracy of a structure, leave-one-out or resubstitution, with bounds (§4.6)."""

    def __init__(self, Xc: np.ndarray, y: np.ndarray, sizes: np.ndarray, card: np.ndarray, n_classes: int,
                 estimator: str, m: float, loo: bool):
        self.y, self.card, self.C = y, card, n_classes
        self.sizes = np.asarray(sizes, dtype=np.int64)
        self.estimator, self.m, self.loo = estimator, m, loo
        N = y.size
        self.N = N
        self.total = float(N - 1) if loo else float(N)
        cc = np.bincount(y, minlength=n_classes).astype(np.float64)
        if loo:  # the held-out row's own class count removed
            num = cc[:, None] - (np.arange(n_classes)[:, None] == y[None, :])
            self._prior = np.log(prior(num, self.total, n_classes, estimator, m))
        else:
            self._prior = np.repeat(log_prior(cc, estimator, m)[:, None], N, axis=1)
        self._yi = y.astype(np.int64)
        self._own_at = self._yi * N + np.arange(N)  # each row's own class in a flat (|Y|, N) array
        self._cols = np.ascontiguousarray(Xc.T, dtype=np.int64)  # attribute columns
        self._factors: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        self._cells: dict[tuple[int, tuple[int, ...]], _Estimates] = {}
        self._config_ids: dict[tuple[int, ...], tuple[np.ndarray, int]] = {}
        self._contexts: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
        self._rises: dict[tuple[int, tuple[int, ...], tuple[int, ...]], np.ndarray] = {}
        # the numbers of `key_ids`: per (child, parents) key its number, per number its key
        self._ids: dict[tuple[int, tuple[int, ...]], int] = {}
        self._keys: list[tuple[int, tuple[int, ...]]] = []
        # the arena of `upper_bounds`: every cached estimate's `flat` a row of `_flats` (freed rows
        # reused), its `both` a part of `_arena` (rebuilt from the live ones when full)
        self._flats = np.empty((0, N), dtype=np.int32 if n_classes * N < 2 ** 31 else np.int64)
        self._free: list[int] = []
        self._arena = np.empty(0)
        self._used = 0
        # `set_base`'s partial sums: (attributes summed, their parent sets, the prior plus their factors)
        self._partial: list[tuple[int, Structure, np.ndarray]] = []

    def _configs(self, parents: tuple[int, ...]) -> tuple[np.ndarray, int]:
        """Per row the index of its parent configuration, and the number of indices (about the
        configurations that occur, see `_ranks`): from the configurations of all parents but the
        last, refined by the last one's values."""
        got = self._config_ids.get(parents)
        if got is None:
            if parents:
                head, n = self._configs(parents[:-1])
                p = parents[-1]
                got = _ranks(head, int(self.sizes[p]), self._cols[p], n)
            else:
                got = np.zeros(self.N, dtype=np.int64), 1
            self._config_ids[parents] = got
        return got

    def _context(self, parents: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Per row the index of its parent configuration (`_configs`), and the
        (|Y|, configurations) counts N(π, y)."""
        got = self._contexts.get(parents)
        if got is None:
            ids, n = self._configs(parents)
            got = ids, kban_kernels.context_counts(ids, self._yi, n, self.C)
            self._contexts[parents] = got
        return got

    def _estimates(self, child: int, parents: tuple[int, ...]) -> _Estimates:
        """ln P̂(x_child | y, π) without materialising the (|Y|, N) factor (see `_Estimates`); cached."""
        got = self._cells.get((child, parents))
        if got is None:
            self._estimate_many([(child, parents)])
            got = self._cells[child, parents]
        return got

    def _estimate_many(self, keys: list[tuple[int, tuple[int, ...]]]) -> None:
        """`_estimates` of the (child, parents) `keys` (not cached yet) into the cache, their
        estimates in one element-wise `log_cond` call (each float as a call of its own gives it)."""
        if not keys:
            return
        parts = []
        for child, parents in keys:
            ctx, ctx_counts = self._context(parents)
            cell, n_cells = _ranks(ctx, int(self.sizes[child]), self._cols[child], ctx_counts.shape[1])
            parts.append((cell, n_cells, ctx, ctx_counts))
        sizes = [self.C * n_cells for _, n_cells, _, _ in parts]
        num = np.zeros(sum(sizes))  # N(π, x, y) per key, class and cell
        den = np.empty(num.size)  # N(π, y)
        start, slots = 0, []
        for (cell, n_cells, ctx, ctx_counts), size in zip(parts, sizes):
            slots.append(self._slot())  # its row of `_flats`: each row's (own class, cell)
            kban_kernels.entries(cell, n_cells, ctx, self._yi, self.C, ctx_counts, self._flats[slots[-1]],
                                 num[start:start + size], den[start:start + size])
            start += size
        card = np.repeat(self.card[[child for child, _ in keys]], sizes)
        cells = np.repeat([self.C * float(math.prod(int(self.card[p]) for p in parents)) for _, parents in keys],
                          sizes)
        est = (self.estimator, self.m)
        tables = log_cond(num, den, card, *est, ctx_cells=cells, tot_num=self.total, tot_den=self.total)
        if self.loo:  # the entries that hold a row, with that row's count removed
            held = np.flatnonzero(num)
            tables_own = tables.copy()
            tables_own[held] = log_cond(num.take(held) - 1.0, den.take(held) - 1.0, card.take(held), *est,
                                        ctx_cells=cells.take(held), tot_num=self.total, tot_den=self.total)
        else:
            tables_own = tables
        start = 0
        for key, (cell, n_cells, _, _), slot, size in zip(keys, parts, slots, sizes):
            off = self._room(2 * size)
            both = self._arena[off:off + 2 * size]
            both[:size] = tables_own[start:start + size]
            both[size:] = tables[start:start + size]
            start += size
            table = both[size:].reshape(self.C, n_cells)
            self._cells[key] = _Estimates(cell, table, both[:size], self._flats[slot], both, slot, off)

    def _slot(self) -> int:
        """A free row of `_flats`: twice the rows where none is left (the live estimates' `flat`
        then views of the new array)."""
        if not self._free:
            rows = len(self._flats)
            self._free = list(range(2 * rows + 8 - 1, rows - 1, -1))
            self._flats = np.concatenate([self._flats, np.empty((rows + 8, self.N), dtype=self._flats.dtype)])
            for key, e in self._cells.items():
                self._cells[key] = _Estimates(e.cell, e.table, e.own, self._flats[e.slot], e.both, e.slot, e.off)
        return self._free.pop()

    def _room(self, size: int) -> int:
        """Where `size` floats of `_arena` start that a new estimate may take: after the used part,
        or, where that lacks room, after the live estimates' parts copied into a new arena (the
        estimates of `_cells` then views of it; a view taken before stays valid, of the old one)."""
        if self._used + size > self._arena.size:
            total = sum(e.both.size for e in self._cells.values()) + size
            self._arena, self._used = np.empty(max(2 * total, 1 << 12)), 0
            for key, e in self._cells.items():
                both = self._arena[self._used:self._used + e.both.size]
                both[:] = e.both
                half = both.size // 2
                self._cells[key] = _Estimates(e.cell, both[half:].reshape(e.table.shape), both[:half], e.flat, both,
                                              e.slot, self._used)
                self._used += both.size
        self._used += size
        return self._used - size

    def _at(self, child: int, parents: tuple[int, ...], rows: np.ndarray) -> np.ndarray:
        """(|Y|, rows): the factor ln P̂(x_child | y, π) at `rows` (held-out row's own
        contribution removed under leave-one-out)."""
        e = self._estimates(child, parents)
        got = e.table.take(e.cell.take(rows), axis=1)
        got.reshape(-1)[self._yi.take(rows) * rows.size + np.arange(rows.size)] = e.own.take(e.flat.take(rows))
        return got

    def factor(self, child: int, parents: tuple[int, ...]) -> np.ndarray:
        """(|Y|, N): ln P̂(x_child | y, π) of each training row for each class, held-out row's
        own contribution removed under leave-one-out; cached."""
        key = (child, parents)
        got = self._factors.get(key)
        if got is None:
            e = self._estimates(child, parents)
            got = self._factors[key] = e.table.take(e.cell, axis=1)
            got.reshape(-1)[self._own_at] = e.own.take(e.flat)
        return got

    def _sums(self, structure: Structure) -> np.ndarray:
        """(|Y|, N) log scores: the prior, then the factors in attribute order (a fixed
        summation order, so equal scores are exactly equal, §0.3)."""
        jll = self._prior.copy()
        for i, par in enumerate(structure):
            jll += self.factor(i, par)
        return jll

    def _base_sums(self, structure: Structure) -> np.ndarray:
        """`_sums(structure)`, resumed from the last partial sum kept whose attributes have the
        same parents in `structure` (the same additions in the same order from there)."""
        self._partial = [part for part in self._partial if structure[:part[0]] == part[1]]
        start, jll = (self._partial[-1][0], self._partial[-1][2]) if self._partial else (0, self._prior)
        every = -(-len(structure) // _PARTS)
        mine = False  # whether `jll` is this call's own array (a kept sum and the prior are not added to)
        for i in range(start, len(structure)):
            if i > start and i % every == 0:
                self._partial.append((i, structure[:i], jll))
                mine = False
            if mine:
                jll += self.factor(i, structure[i])
            else:  # the same sums, into a new array
                jll, mine = jll + self.factor(i, structure[i]), True
        return jll if mine else jll.copy()

    def scores(self, structure: Structure) -> np.ndarray:
        """(N, |Y|) log scores of the training rows (in-order sums, see `_sums`)."""
        return self._sums(structure).T

    def set_base(self, structure: Structure) -> None:
        """The structure that candidates are compared with (the wrapper's current one): its
        in-order scores, predictions, and per row the gap between its two best classes."""
        self._base = structure
        b = self._base_sum = self._base_sums(structure)
        N = self.N
        pred, top, second = np.empty(N, dtype=np.int64), np.empty(N), np.empty(N)
        kban_kernels.best_two(b, pred, top, second)
        hit = pred == self.y
        self._base_correct = int(np.count_nonzero(hit))
        # a row keeps its correctness when the change of scores cannot close its gap: for a right
        # row the gap from the true class to the second best, for a wrong row from the predicted
        # class to the true one (less a tolerance that covers the swapped-sum rounding)
        tol = _TIE_TOL * np.maximum(1.0, np.abs(top))
        self._wrong = np.flatnonzero(~hit)
        right = np.flatnonzero(hit)
        if self.C > 1:
            self._gap_right = np.where(hit, top - second - tol, np.inf)
            self._gap_wrong = (top - b.reshape(-1).take(self._own_at) - tol).take(self._wrong)
            # the right rows of the smallest gaps, watched by `upper_bounds` (see there)
            watched = min(right.size, max(_WATCHED_RIGHT, self._wrong.size))
            if watched < right.size:
                right = right[np.argpartition(self._gap_right.take(right), watched - 1)[:watched]]
        else:
            self._gap_right = np.full(N, np.inf)
            self._gap_wrong = np.full(self._wrong.size, np.inf)
            right = right[:0]
        runner_up = b.take(right, axis=1)
        runner_up.reshape(-1)[self._yi.take(right) * right.size + np.arange(right.size)] = -np.inf
        runner_up = _argmax0(runner_up)[0]
        flat = b.reshape(-1)
        self._lost_below = flat.take(runner_up * N + right) - flat.take(self._own_at.take(right)) - tol.take(right)
        # the watched rows (wrong rows, then watched right rows), their true class, and the class
        # whose log-odds against the true class `_lead` follows: the predicted one, the runner-up
        watch = np.concatenate([self._wrong, right])
        self._watch = (watch, self._yi.take(watch), np.concatenate([pred.take(self._wrong), runner_up]))
        # per watched row, (other − true class + |Y|): `_log_odds` finds the other class's entry of
        # `both` that many tables (of `cells` entries) after the row's own entry
        self._watch_shift = self._watch[2] - self._watch[1] + self.C
        self._zero = np.zeros(watch.size)
        self._base_odds: dict[int, np.ndarray] = {}
        # cached factors and rises that no candidate of this base can use any more: a candidate
        # only adds parents, so a node's parent set is always a superset of its base parents
        self._factors = {key: f for key, f in self._factors.items() if set(key[1]) >= set(structure[key[0]])}
        keep = {key: f for key, f in self._cells.items() if set(key[1]) >= set(structure[key[0]])}
        self._free.extend(f.slot for key, f in self._cells.items() if key not in keep)
        self._cells = keep
        self._rises = {key: r for key, r in self._rises.items() if key[1] == structure[key[0]]}

    def _log_odds(self, child: int, parents: tuple[int, ...], base: np.ndarray,
                  out: np.ndarray | None = None) -> np.ndarray:
        """Per watched row, the factor's log-odds of the true class against the row's other
        watched class (the predicted one for a wrong row, the runner-up for a right row), less
        `base` (into `out` if given)."""
        e = self._estimates(child, parents)
        out = np.empty(base.size) if out is None else out
        # own class y: entry y · cells + cell of `both`; other class o: |Y| · cells + o · cells + cell
        kban_kernels.lead(e.flat, e.both, e.table.shape[1], self._watch[0], self._watch_shift, base, out)
        return out

    def _lead(self, child: int, parents: tuple[int, ...], out: np.ndarray | None = None) -> np.ndarray:
        """Per watched row, how much giving `child` the parents `parents` instead of its base
        parents raises the true class against the row's other watched class."""
        base = self._base_odds.get(child)
        if base is None:  # x − 0.0 is x, bit for bit
            base = self._base_odds[child] = self._log_odds(child, self._base[child], self._zero)
        return self._log_odds(child, parents, base, out)

    def key_ids(self, changes: list[list[tuple[int, tuple[int, ...]]]], width: int) -> np.ndarray:
        """The (child, parents) keys of `changes` as numbers of this scorer (the same key, the same
        number), a row per change padded with −1 to `width` columns, for `bounds_of`."""
        ids = self._ids
        rows = []
        for change in changes:
            row = []
            for key in change:
                got = ids.get(key)
                if got is None:
                    got = ids[key] = len(self._keys)
                    self._keys.append(key)
                row.append(got)
            rows.append(row + [-1] * (width - len(row)))
        return np.array(rows, dtype=np.int64).reshape(len(changes), width)

    def upper_bounds(self, changes: list[list[tuple[int, tuple[int, ...]]]]) -> np.ndarray:
        """An upper bound of the count of each candidate, given by its changes from the base (`bounds_of`)."""
        return self.bounds_of(self.key_ids(changes, max((len(c) for c in changes), default=1)))

    def bounds_of(self, ids: np.ndarray) -> np.ndarray:
        """An upper bound of the count of each candidate, given by the numbers (`key_ids`) of its
        changed keys in the order their leads are added, all at once: one compiled call over the
        arena of estimates per batch of candidates whose keys' log-odds at the watched rows fit in
        `_BATCH` floats (§4.6)."""
        got = np.empty(len(ids), dtype=np.int64)
        most = max(1, _BATCH // (2 * self._watch[0].size + 1))  # changed keys per batch (and their base keys)
        start = 0
        while start < len(ids):
            flat = ids[start:].reshape(-1)
            real = flat >= 0
            numbers, firsts, where = np.unique(flat[real], return_index=True, return_inverse=True)
            stop = len(ids)
            if numbers.size > most:  # up to the candidate that brings the batch's `most`-th key
                stop = start + int(np.sort(np.flatnonzero(real).take(firsts))[most - 1]) // ids.shape[1] + 1
                flat = ids[start:stop].reshape(-1)
                real = flat >= 0
                numbers, where = np.unique(flat[real], return_inverse=True)
            chunk = ids[start:stop]
            keys = [self._keys[k] for k in numbers.tolist()]
            children = sorted({child for child, _ in keys})
            at = {child: len(keys) + q for q, child in enumerate(children)}
            base_of = [at[child] for child, _ in keys] + [-1] * len(children)
            keys += [(child, self._base[child]) for child in children]
            new = [key for key in keys if key not in self._cells]
            for first in range(0, len(new), _NEW):
                self._estimate_many(new[first:first + _NEW])
            got_keys = [self._cells[key] for key in keys]  # after the last rebuild of the arena
            idx = np.full(flat.size, -1, dtype=np.int64)
            idx[real] = where.reshape(-1)
            kban_kernels.bounds(self._flats, self._arena, np.array([e.slot for e in got_keys], dtype=np.int64),
                                np.array([e.off for e in got_keys], dtype=np.int64),
                                np.array([e.table.shape[1] for e in got_keys], dtype=np.int64),
                                np.array(base_of, dtype=np.int64), self._watch[0], self._watch_shift,
                                idx.reshape(chunk.shape), self._wrong.size, self._gap_wrong, self._lost_below,
                                self._base_correct, got[start:stop])
            start = stop
        return got

    def _rise(self, child: int, old: tuple[int, ...], new: tuple[int, ...]) -> np.ndarray:
        """Per row, for the change d of `child`'s factor from parents `old` to `new`: how much any
        class can gain on the row's true class, max_y d − d[true]."""
        key = (child, old, new)
        got = self._rises.get(key)
        if got is None:
            # per (π_new, x) cell rather than per row: the new cell of a row determines its old
            # one (the new parents include the old), so d is a cell's table difference except in
            # the row's own class; the max over the other classes is the cell's best or, where
            # that is the own class, its second best (the same floats as d row by row)
            if self.C == 1:
                return self._rises.setdefault(key, np.zeros(self.N))
            if not set(old) <= set(new):  # not a candidate of the wrapper: row by row
                d = self.factor(child, new) - self.factor(child, old)
                got = self._rises[key] = d.max(axis=0) - d.reshape(-1).take(self._own_at)
                return got
            en, eo = self._estimates(child, new), self._estimates(child, old)
            d_own = en.own.take(en.flat) - eo.own.take(eo.flat)
            n_new = en.table.shape[1]
            old_of = np.zeros(n_new, dtype=np.int64)
            old_of[en.cell] = eo.cell
            diff = en.table - eo.table.take(old_of, axis=1)
            if np.isnan(diff).any():  # undefined estimates (m = 0): the classes in argsort's order, NaN last
                top2 = np.argsort(-diff, axis=0, kind="stable")[:2]
                best = top2[0].take(en.cell)
                other = np.where(best == self.y, top2[1].take(en.cell), best)
                d_other = diff.reshape(-1).take(other * n_new + en.cell)
            else:
                best, top = _argmax0(diff)
                diff.reshape(-1)[best * n_new + np.arange(n_new)] = -np.inf
                second = diff.max(axis=0)
                # per (class, cell): the change of the best class other than that one
                other = np.where(best == np.arange(self.C)[:, None], second, top)
                d_other = other.reshape(-1).take(en.flat)
            got = self._rises[key] = np.maximum(d_other, d_own) - d_own
        return got

    def _hits(self, structure: Structure, changed: list[int], rows: np.ndarray) -> int:
        """How many of `rows` `structure` predicts right, from the base scores with changed factors (§4.6)."""
        base = self._base
        keys = [key for i in changed for key in ((i, base[i]), (i, structure[i]))]
        for key in keys:
            self._estimates(*key)
        got = [self._cells[key] for key in keys]  # after the last rebuild of the arena
        hit, close = np.empty(rows.size, dtype=bool), np.empty(rows.size, dtype=bool)
        kban_kernels.swapped(self._flats, self._arena, np.array([e.slot for e in got], dtype=np.int64),
                             np.array([e.off for e in got], dtype=np.int64),
                             np.array([e.table.shape[1] for e in got], dtype=np.int64), self._base_sum, rows,
                             self._yi, _TIE_TOL, hit, close)
        own = self._yi.take(rows)
        redo = np.flatnonzero(close)
        if redo.size:
            at = rows.take(redo)
            exact = self._prior.take(at, axis=1)
            for i, par in enumerate(structure):
                exact += self.factor(i, par).take(at, axis=1) if par == base[i] else self._at(i, par, at)
            hit[redo] = exact.argmax(axis=0) == own.take(redo)
        return int(np.count_nonzero(hit))

    def correct(self, structure: Structure, changed: list[int] | None = None, beat: int = -1) -> int:
        """Number of training rows whose (leave-one-out) prediction is right, or some count ≤ `beat` (§4.6)."""
        base = self._base
        if changed is None:
            changed = [i for i, par in enumerate(structure) if par != base[i]]
        if not changed:
            return self._base_correct
        n_wrong = self._wrong.size
        lead = self._lead(changed[0], structure[changed[0]])[:n_wrong]
        for i in changed[1:]:
            lead = lead + self._lead(i, structure[i])[:n_wrong]
        up = self._wrong[self._gap_wrong <= lead]
        if self._base_correct + up.size <= beat:
            return self._base_correct + up.size
        got = self._base_correct + (self._hits(structure, changed, up) if up.size else 0)
        if got <= beat:
            return got
        rise = self._rise(changed[0], base[changed[0]], structure[changed[0]])
        for i in changed[1:]:
            rise = rise + self._rise(i, base[i], structure[i])
        down = np.flatnonzero(self._gap_right <= rise)
        # most candidates that get here still lose more rows than they gained over `beat`: score
        # first the rows the rises overshoot their gaps most, and the rest only if still needed
        first = max(_FIRST_ROWS, 4 * (got - beat))
        if down.size > 2 * first:
            over = rise.take(down) - self._gap_right.take(down)
            pick = np.argpartition(over, down.size - first)[down.size - first:]
            got -= first - self._hits(structure, changed, down.take(pick))
            if got <= beat:
                return got
            down = np.delete(down, pick)
        return got - (down.size - self._hits(structure, changed, down)) if down.size else got
