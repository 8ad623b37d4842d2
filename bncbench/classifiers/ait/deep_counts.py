"""AIT's estimates with two or more parents: the training counts of each attribute set, tabulated once
per prediction and gathered for every query at once (paper 004, docs/algorithms.md §4.9.3)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bncbench.classifiers.kernels.counts import count_flat, lookup
from bncbench.classifiers.kernels.estimators import log_cond

#: largest dense table of training counts over an attribute set and the class (else sparse)
_DENSE_CELLS = 1 << 22
#: largest space of group codes (attribute set × child position) indexed by an array (else a dict)
_DENSE_CODES = 1 << 20
#: training rows × attribute sets counted in one block
_BLOCK = 1 << 17


class _Groups:
    """The groups of queries of one kind (with or without the classes, d attributes) met so far: each
    group's slot, and per slot the group's description (`DeepCounts._add`) and its context cells."""

    def __init__(self, space: int, width: int) -> None:
        self.index: np.ndarray | dict[int, int] = np.full(space, -1, dtype=np.int64) if space <= _DENSE_CODES else {}
        self.ints = np.zeros((0, width), dtype=np.int64)
        self.floats = np.zeros(0)

    def add(self, ints: np.ndarray, floats: np.ndarray) -> np.ndarray:
        """Append the descriptions of new groups; returns their slots."""
        start = self.ints.shape[0]
        self.ints = np.concatenate([self.ints, ints])
        self.floats = np.concatenate([self.floats, floats])
        return np.arange(start, self.ints.shape[0])


class DeepCounts:
    """The training counts one prediction call (global and local networks) needs for its estimates
    with ≥ 2 parents: each table over an attribute set and the class counted once, the dense ones
    end to end in one pool, and each group of queries (attribute set and child position) described
    once (where its tables are in the pool), so that the queries of many groups are one gather."""

    def __init__(self, model: Any) -> None:
        self.cols, self.ytr = model._cols, model._ytr
        self.sizes, self.K, self.card = model.sizes_, model.cardinalities_, model.card_
        self.nc = int(model.n_classes_)
        self.estimator, self.m = model.estimator, model.m
        self.skip = model.missing == "skip"
        self.ljoint = model.estimator == "laplace_joint"
        self.tables: dict = {}
        self.pool = np.zeros(0, dtype=np.int64)
        self.used = 0
        self.pool_at: dict = {}
        self.set_at: dict[tuple[int, bool], dict[int, int]] = {}  # (size, with class) → set code → offset
        self.groups: dict[tuple[bool, int], _Groups] = {}

    def grouped(self, Xq, row, child, par, cls) -> np.ndarray:
        """Queries with ≥ 2 parents grouped by {child} ∪ parents, their training counts tabulated once:
        ln P̂ per query and class of `cls` (Q, L), or with `cls` None the count of the parents' values."""
        n = Xq.shape[1]
        fs = _sorted_rows(np.concatenate([par, child[:, None]], axis=1))
        role = sum((par[:, t] < child).astype(np.int64) for t in range(par.shape[1]))  # the child's place in fs
        d = fs.shape[1]
        code = np.zeros(row.size, dtype=np.int64)
        for t in range(d):
            code = code * n + fs[:, t]
        code = code * d + role
        slot, g = self._slots(code, fs, role, n, cls is None)
        desc = g.ints[slot]
        if not desc[:, 0].all():  # a sparse table: group by group
            return self._by_group(Xq, row, fs, role, code, cls)
        vals = Xq[row[:, None], fs]                            # (Q, d): values in the set's order
        pvals = [np.where(role > t, vals[:, t], vals[:, t + 1]) for t in range(d - 1)]  # the parents' values
        if cls is None:  # the count of the parents' values, over every class and child value
            return self.pool[_cell(desc[:, 1], pvals, desc, 2)]
        num = self.pool[_cell(desc[:, 1], [vals[:, t] for t in range(d)], desc, 2)[:, None] + cls]
        den = self.pool[_cell(desc[:, d + 2], pvals, desc, d + 3)[:, None] + cls]
        card = desc[:, 2 * d + 2][:, None]
        if not self.ljoint:
            return log_cond(num, den, card, self.estimator, self.m)
        return log_cond(num, den, card, self.estimator, self.m, ctx_cells=g.floats[slot][:, None],
                        tot_num=desc[:, 2 * d + 3][:, None], tot_den=desc[:, 2 * d + 4][:, None])

    def _slots(self, code, fs, role, n: int, summed: bool) -> tuple[np.ndarray, _Groups]:
        """Each query's slot among the groups of its kind, describing the groups met for the first time."""
        d = fs.shape[1]
        g = self.groups.get((summed, d))
        if g is None:
            g = self.groups[(summed, d)] = _Groups(n ** d * d, d + 1 if summed else 2 * d + 5)
        if isinstance(g.index, np.ndarray):
            slot = g.index[code]
            new = np.flatnonzero(slot < 0)
            if new.size:
                uniq, first = np.unique(code[new], return_index=True)
                g.index[uniq] = self._add(g, fs[new[first]], role[new[first]], summed)
                slot = g.index[code]
        else:
            index = g.index
            uniq, first, inv = np.unique(code, return_index=True, return_inverse=True)
            unseen = np.array([c not in index for c in uniq.tolist()], dtype=bool)
            if unseen.any():
                index.update(zip(uniq[unseen].tolist(), self._add(g, fs[first[unseen]], role[first[unseen]],
                                                                  summed).tolist()))
            slot = np.array([index[c] for c in uniq.tolist()], dtype=np.int64)[inv.reshape(-1)]
        return slot, g

    def _add(self, g: _Groups, fs: np.ndarray, role: np.ndarray, summed: bool) -> np.ndarray:
        """Describe the new groups (attribute sets `fs` (G, d), child positions `role`) in `g`; returns their slots."""
        G, d = fs.shape
        others = np.arange(d)[None, :] != role[:, None]
        pset = fs[others].reshape(G, d - 1)
        cells = self.nc * self.card[pset].prod(axis=1).astype(np.float64)  # (unused for a sparse group)
        if self.skip:  # the tables count the rows where some attributes are known: group by group
            rows = [self._describe(tuple(a), r, summed) for a, r in zip(fs.tolist(), role.tolist())]
            return g.add(np.array(rows, dtype=np.int64).reshape(G, -1), cells)
        # every table counts all training rows: the tables of all new groups counted at once, and the
        # counts summed over the child's values (and the classes) are the table of its parents' values
        S = self.sizes[fs]
        dense = S.prod(axis=1) * self.nc <= _DENSE_CELLS
        PS = S[others].reshape(G, d - 1)
        if summed:
            at = self._count_sets(pset, dense, False)
            ints = np.concatenate([np.ones((G, 1), dtype=np.int64), at[:, None], _strides(PS, 1)], axis=1)
        else:
            N = self.cols.shape[1] if self.cols is not None else 0
            ints = np.concatenate([np.ones((G, 1), dtype=np.int64), self._count_sets(fs, dense, True)[:, None],
                                   _strides(S, self.nc), self._count_sets(pset, dense, True)[:, None],
                                   _strides(PS, self.nc), self.card[fs[np.arange(G), role]][:, None],
                                   np.full((G, 2), N, dtype=np.int64)], axis=1)
        return g.add(ints * dense[:, None], cells)

    def _count_sets(self, A: np.ndarray, dense: np.ndarray, with_class: bool) -> np.ndarray:
        """Where the pool holds the table over each attribute set of A (T, d) (and the class) for the
        rows where `dense` (0 elsewhere), counting those it does not hold yet over every training row,
        a bounded block of sets × rows at a time."""
        cols, ytr = self.cols, self.ytr
        assert cols is not None and ytr is not None  # kept in fit whenever a table has ≥ 2 parents
        n, N = cols.shape
        T, d = A.shape
        known = self.set_at.setdefault((d, with_class), {})
        code = np.zeros(T, dtype=np.int64)
        for t in range(d):
            code = code * n + A[:, t]
        codes = code.tolist()
        new = np.array([ok and c not in known for c, ok in zip(codes, dense.tolist())], dtype=bool)
        if new.any():
            _, first = np.unique(code[new], return_index=True)
            B = A[np.flatnonzero(new)[first]]
            S = self.sizes[B]
            space = S.prod(axis=1) * (self.nc if with_class else 1)
            step = max(1, _BLOCK // max(N, 1))
            self._reserve(int(space.sum()))
            for s in range(0, B.shape[0], step):
                a, sz, sp = B[s:s + step], S[s:s + step], space[s:s + step]
                flat = cols[a[:, 0]]  # (sets, rows): a new array
                for t in range(1, d):
                    flat *= sz[:, t, None]
                    flat += cols[a[:, t]]
                if with_class:
                    flat *= self.nc
                    flat += ytr
                start = np.concatenate([[0], np.cumsum(sp)[:-1]])
                flat += start[:, None]
                total = int(sp.sum())
                self.pool[self.used:self.used + total] = count_flat(flat, total)
                key = np.zeros(a.shape[0], dtype=np.int64)
                for t in range(d):
                    key = key * n + a[:, t]
                known.update(zip(key.tolist(), (self.used + start).tolist()))
                self.used += total
        return np.array([known[c] if ok else 0 for c, ok in zip(codes, dense.tolist())], dtype=np.int64)

    def _reserve(self, cells: int) -> None:
        """Room in the pool for `cells` more cells."""
        if self.used + cells > self.pool.size:
            grown = np.empty(max(2 * self.pool.size, self.used + cells, 1 << 16), dtype=np.int64)
            grown[:self.used] = self.pool[:self.used]
            self.pool = grown

    def _rows_of(self, attrs: tuple, r: int) -> tuple[tuple | None, tuple | None]:
        """The attributes whose known values select the training rows of the numerator's and the
        denominator's table (all rows: None)."""
        if not self.skip:
            return None, None
        return attrs, (attrs[:r] + attrs[r + 1:] if self.ljoint else attrs)

    def _describe(self, attrs: tuple, r: int, summed: bool) -> list[int]:
        """[all tables dense, then where the pool holds them: (offset, strides of the values) of the
        table of counts (and of the denominator's), the child's number of values and the two
        tables' numbers of rows]; the first 0 and the rest 0 when a table is sparse."""
        d = len(attrs)
        width = d + 1 if summed else 2 * d + 5
        num_rows, den_rows = self._rows_of(attrs, r)
        if summed:
            if self.train_table(attrs, None)[0] is None:
                return [0] * width
            base, strides = self.pooled(("marginal", attrs, None, r, True))
            return [1, base, *strides[:d - 1]]
        if self.train_table(attrs, num_rows)[0] is None or self.train_table(attrs, den_rows)[0] is None:
            return [0] * width
        nb, ns = self.pooled(("table", attrs, num_rows))
        db, ds = self.pooled(("marginal", attrs, den_rows, r, False))
        return [1, nb, *ns[:d], db, *ds[:d - 1], int(self.card[attrs[r]]),
                self.train_table(attrs, num_rows)[2], self.train_table(attrs, den_rows)[2]]

    def _by_group(self, Xq, row, fs, role, code, cls) -> np.ndarray:
        """`grouped` group by group, for calls where some table is sparse."""
        uniq, first, inv = np.unique(code, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        order = np.argsort(inv, kind="stable")
        bounds = np.concatenate([[0], np.cumsum(np.bincount(inv, minlength=uniq.size))])
        out = np.zeros(row.size) if cls is None else np.zeros(cls.shape)
        for g in range(uniq.size):
            attrs = tuple(int(a) for a in fs[first[g]])
            r = int(role[first[g]])
            num_rows, den_rows = self._rows_of(attrs, r)
            q = order[bounds[g]:bounds[g + 1]]
            vals = Xq[row[q][:, None], np.asarray(attrs)]
            if cls is None:
                out[q] = self._count(attrs, None, vals, None, r)
                continue
            num = self._count(attrs, num_rows, vals, cls[q], None)
            den = self._count(attrs, den_rows, vals, cls[q], r)
            if self.ljoint:  # the joint-Laplace form needs the context cells and the numbers of rows
                pset = attrs[:r] + attrs[r + 1:]
                cells = self.nc * float(math.prod(int(self.card[a]) for a in pset))
                out[q] = log_cond(num, den, self.card[attrs[r]], self.estimator, self.m, ctx_cells=cells,
                                  tot_num=self.train_table(attrs, num_rows)[2],
                                  tot_den=self.train_table(attrs, den_rows)[2])
            else:
                out[q] = log_cond(num, den, self.card[attrs[r]], self.estimator, self.m)
        return out

    def pooled(self, key: tuple) -> tuple[int, tuple[int, ...]]:
        """(offset, strides in cells) of the dense table `key` ("table" or "marginal", as
        `train_table` and `_margin` take them) in the pool: the tables end to end in one array, each
        copied in once."""
        got = self.pool_at.get(key)
        if got is None:
            if key[0] == "table":
                tab = self.train_table(key[1], key[2])[0]
                assert tab is not None  # the pool holds dense tables only
            else:
                tab = self._margin(key[1], key[2], key[3], key[4])
            self._reserve(tab.size)
            self.pool[self.used:self.used + tab.size] = tab.ravel()
            got = self.pool_at[key] = (self.used, tuple(s // tab.itemsize for s in tab.strides))
            self.used += tab.size
        return got

    def _margin(self, attrs: tuple, rows_of, drop: int, summed: bool) -> np.ndarray:
        """The dense training counts of `attrs` and the class summed over attribute `attrs[drop]` (and
        with `summed` over the classes)."""
        mkey = ("marginal", attrs, rows_of, drop, summed)
        if mkey not in self.tables:
            arr = self.train_table(attrs, rows_of)[0].sum(axis=drop)
            self.tables[mkey] = arr.sum(axis=-1) if summed else arr
        return self.tables[mkey]

    def train_table(self, attrs: tuple, rows_of: tuple | None):
        """Counts of the training configurations of `attrs` (sorted) and the class over the training
        rows where every attribute of `rows_of` is known (all rows when None): (dense array of shape
        (sizes..., |Y|) or None, sparse (keys, counts) or None, number of rows)."""
        key = ("table", attrs, rows_of)
        if key not in self.tables:
            cols, ytr = self.cols, self.ytr
            assert cols is not None and ytr is not None  # kept in fit whenever a table has ≥ 2 parents
            nc = self.nc
            sizes = [int(self.sizes[a]) for a in attrs]
            flat = cols[attrs[0]].copy()  # mixed-radix key of (attrs..., class), built in place
            for a, size in zip(attrs[1:], sizes[1:]):
                flat *= size
                flat += cols[a]
            flat *= nc
            flat += ytr
            if rows_of:
                mask = np.ones(flat.size, dtype=bool)
                for a in rows_of:
                    mask &= cols[a] < self.K[a]
                flat = flat[mask]
            space = int(np.prod(sizes)) * nc
            if space <= _DENSE_CELLS:
                self.tables[key] = (count_flat(flat, space).reshape(*sizes, nc), None, flat.size)
            else:
                self.tables[key] = (None, np.unique(flat, return_counts=True), flat.size)
        return self.tables[key]

    def _count(self, attrs: tuple, rows_of, vals, cls, drop: int | None) -> np.ndarray:
        """Training counts at the value combinations `vals` (Q, len(attrs)) of `attrs`: per class of
        `cls` (Q, L), or summed over the classes when `cls` is None; summed over every value of
        attribute `attrs[drop]` when `drop` is given."""
        dense, sparse, _ = self.train_table(attrs, rows_of)
        nc = self.nc
        keep = [t for t in range(len(attrs)) if t != drop]
        if dense is not None:  # (drop is None only for the numerator, with classes)
            arr = dense if drop is None else self._margin(attrs, rows_of, drop, cls is None)
            if cls is None:
                return arr[tuple(vals[:, t] for t in keep)]
            return arr[tuple(vals[:, t][:, None] for t in keep) + (cls,)]
        keys, counts = sparse
        sizes = [int(self.sizes[a]) for a in attrs]
        stride = [nc * int(np.prod(sizes[t + 1:])) for t in range(len(attrs))]  # of each attribute in the key
        base = sum(vals[:, t].astype(np.int64) * stride[t] for t in keep)
        slots = range(sizes[drop]) if drop is not None else [0]
        classes = cls if cls is not None else np.arange(nc)[None, :]
        total: np.ndarray | int = 0
        for v in slots:
            key = (base + (v * stride[drop] if drop is not None else 0))[:, None] + classes
            total = total + lookup(keys, counts, key)
        assert isinstance(total, np.ndarray)  # slots is never empty
        return total if cls is not None else total.sum(axis=1)


def _strides(sizes: np.ndarray, last: int) -> np.ndarray:
    """Per row of `sizes` (T, d): the strides in cells of a C-order table of those sizes followed by
    an axis of `last` cells."""
    tail = np.cumprod(sizes[:, :0:-1], axis=1)[:, ::-1]  # products of the sizes after each position
    return np.concatenate([tail, np.ones((sizes.shape[0], 1), dtype=np.int64)], axis=1) * last


def _sorted_rows(A: np.ndarray) -> np.ndarray:
    """Each row of the integer array A (Q, w) sorted; w ≤ 3 by a sorting network of minima and maxima."""
    if A.shape[1] == 2:
        return np.stack([np.minimum(A[:, 0], A[:, 1]), np.maximum(A[:, 0], A[:, 1])], axis=1)
    if A.shape[1] == 3:
        lo, hi = np.minimum(A[:, 0], A[:, 1]), np.maximum(A[:, 0], A[:, 1])
        mid = np.maximum(lo, A[:, 2])
        return np.stack([np.minimum(lo, A[:, 2]), np.minimum(hi, mid), np.maximum(hi, mid)], axis=1)
    return np.sort(A, axis=1)


def _cell(base: np.ndarray, values: list, desc: np.ndarray, at: int) -> np.ndarray:
    """base + Σ_t values[t] · desc[:, at + t]: each query's cell in the pool (integers, in any order)."""
    cell = base.copy()
    for t, v in enumerate(values):
        cell += v * desc[:, at + t]
    return cell
