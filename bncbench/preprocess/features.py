"""The real-valued features a scikit-learn baseline sees of a fold: its codes one-hot or ordinal,
or its undiscretised columns (docs/algorithms.md §1.9)."""

from __future__ import annotations

import numpy as np

from bncbench.data.dataset import Dataset

#: how a baseline sees a discrete attribute: 0/1 indicators of its codes, or the code as a number
ENCODINGS = ("onehot", "ordinal")
#: what a baseline is fitted on: the fold's encoded (discretised) codes, or its raw columns
INPUTS = ("codes", "raw")
#: the keys of a baseline's entry that are bncbench's, not the estimator's, with their choices
#: (the first is the default)
BASELINE_OPTIONS: dict[str, tuple[str, ...]] = {"encoding": ENCODINGS, "input": INPUTS}


def encode_codes(X: np.ndarray, cardinalities: np.ndarray, encoding: str) -> np.ndarray:
    """float64 features of integer codes: `onehot` gives attribute i the columns of its codes
    0..K_i−1 (a code −1, a value skipped, sets none of them); `ordinal` the codes themselves."""
    if encoding == "ordinal":
        return X.astype(np.float64)
    cards = np.asarray(cardinalities, dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(cards)[:-1])).astype(np.int64)
    out = np.zeros((X.shape[0], int(cards.sum())), dtype=np.float64)
    rows, attrs = np.nonzero(X >= 0)
    out[rows, offsets[attrs] + X[rows, attrs]] = 1.0
    return out


def raw_features(ds: Dataset, train: np.ndarray, test: np.ndarray, missing: str,
                 encoding: str = "onehot") -> tuple[np.ndarray, np.ndarray]:
    """(training, test) features of the undiscretised columns, attributes in file order: a
    numeric one imputed with its training mean and standardised with the training rows' mean
    and standard deviation (then, under `missing: distinct`, a 0/1 column "was missing" where the
    data set has missing values); a nominal one encoded as `encode_codes`, its missing value
    coded as `missing` says (distinct: a value of its own; impute: the training mode; skip: −1)."""
    blocks_train, blocks_test = [], []
    for i, a in enumerate(ds.attributes):
        col = ds.columns[i]
        if a.nominal:
            codes, k = col.astype(np.int64), len(a.values or ())
            lost = codes < 0
            if lost.any() and missing == "distinct":
                codes, k = np.where(lost, k, codes), k + 1
            elif lost.any() and missing == "impute":
                seen = codes[train][codes[train] >= 0]
                mode = int(np.argmax(np.bincount(seen, minlength=k))) if seen.size else 0
                codes = np.where(lost, mode, codes)
            cards = np.array([k])
            blocks_train.append(encode_codes(codes[train, None], cards, encoding))
            blocks_test.append(encode_codes(codes[test, None], cards, encoding))
            continue
        values = col.astype(np.float64)
        lost = np.isnan(values)
        seen = values[train][~lost[train]]
        filled = np.where(lost, seen.mean() if seen.size else 0.0, values)
        mean, sd = filled[train].mean() if train.size else 0.0, filled[train].std() if train.size else 0.0
        scaled = (filled - mean) / (sd if sd > 0 else 1.0)
        columns = [scaled, lost.astype(np.float64)] if missing == "distinct" and lost.any() else [scaled]
        block = np.column_stack(columns)
        blocks_train.append(block[train])
        blocks_test.append(block[test])
    if not blocks_train:
        return np.zeros((train.size, 0)), np.zeros((test.size, 0))
    return np.hstack(blocks_train), np.hstack(blocks_test)
