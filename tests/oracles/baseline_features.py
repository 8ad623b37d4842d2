"""What a scikit-learn baseline should see of a fold, built from scikit-learn's own transformers
(OneHotEncoder, SimpleImputer, StandardScaler, MissingIndicator) as docs/algorithms.md §1.9 says,
and its fold files read with scipy's ARFF reader. No bncbench code."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.io import arff
from sklearn.compose import ColumnTransformer
from sklearn.impute import MissingIndicator, SimpleImputer
from sklearn.pipeline import FeatureUnion, make_pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder, StandardScaler


def read_fold_file(path: Path) -> tuple[list[np.ndarray], list[list[str] | None], np.ndarray, list[str]]:
    """(columns, declared values (None: numeric), class codes, class names) of an ARFF file:
    a nominal value as its position among the declared values (NaN for ?), a numeric one as a float."""
    data, meta = arff.loadarff(path)
    names = meta.names()
    columns: list[np.ndarray] = []
    declared: list[list[str] | None] = []
    for name in names[:-1]:
        kind, listed = meta[name]
        if kind == "nominal":
            values = list(listed or ())
            pos = {v: i for i, v in enumerate(values)}
            columns.append(np.array([np.nan if v == b"?" else pos[v.decode()] for v in data[name]], dtype=float))
            declared.append(values)
        else:
            columns.append(np.asarray(data[name], dtype=float))
            declared.append(None)
    classes = list(meta[names[-1]][1] or ())
    y = np.array([classes.index(v.decode()) for v in data[names[-1]]])
    return columns, declared, y, classes


def onehot(train: np.ndarray, test: np.ndarray, cards: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's OneHotEncoder of value positions 0..K_i−1 (NaN, a skipped value, sets none)."""
    enc = OneHotEncoder(categories=[np.arange(k, dtype=float) for k in cards], handle_unknown="ignore",
                        sparse_output=False)
    return enc.fit(np.nan_to_num(train, nan=-1)).transform(np.nan_to_num(train, nan=-1)), \
        enc.transform(np.nan_to_num(test, nan=-1))


def raw_features(train: list[np.ndarray], test: list[np.ndarray], declared: list[list[str] | None],
                 missing: str, has_missing: list[bool]) -> tuple[np.ndarray, np.ndarray]:
    """The raw input of a baseline (one-hot nominal attributes), attributes in file order: a numeric
    one mean-imputed and standardised (with a MissingIndicator column under distinct where the data
    set has missing values); a nominal one one-hot, its missing value a value of its own (distinct),
    the most frequent training value (impute; the smallest on ties) or no column set (skip)."""
    Xtr, Xte = np.column_stack(train), np.column_stack(test)
    parts = []
    for j, values in enumerate(declared):
        if values is None:
            numeric = make_pipeline(SimpleImputer(strategy="mean"), StandardScaler())
            if missing == "distinct" and has_missing[j]:
                numeric = FeatureUnion([("value", numeric), ("missing", MissingIndicator(features="all"))])
            parts.append((f"a{j}", numeric, [j]))
            continue
        k = len(values)
        if missing == "distinct" and has_missing[j]:
            nominal = make_pipeline(SimpleImputer(strategy="constant", fill_value=k),
                                    OneHotEncoder(categories=[np.arange(k + 1, dtype=float)], sparse_output=False))
        elif missing == "impute":
            nominal = make_pipeline(SimpleImputer(strategy="most_frequent", keep_empty_features=True),
                                    OneHotEncoder(categories=[np.arange(k, dtype=float)], sparse_output=False))
        else:
            nominal = make_pipeline(FunctionTransformer(lambda x: np.nan_to_num(x, nan=-1)),
                                    OneHotEncoder(categories=[np.arange(k, dtype=float)], handle_unknown="ignore",
                                                  sparse_output=False))
        parts.append((f"a{j}", nominal, [j]))
    ct = ColumnTransformer(parts, sparse_threshold=0.0)
    return ct.fit_transform(Xtr).astype(float), ct.transform(Xte).astype(float)
