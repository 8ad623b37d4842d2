"""The features a scikit-learn baseline sees (preprocess/features.py) against scikit-learn's own
transformers (tests/oracles/baseline_features.py): the codes one-hot and ordinal, the raw columns
under each missing-value mode."""

import numpy as np
import pytest

from bncbench.data import catalog
from bncbench.preprocess.features import encode_codes, raw_features
from bncbench.preprocess.folds import split
from tests.oracles import baseline_features as oracle
from tests.support.data import random_data


@pytest.mark.parametrize("seed", [0, 1])
def test_codes_one_hot_and_ordinal(seed):
    X, _, Xt, cards, _ = random_data(seed, p_missing=0.1)  # −1: a value skipped
    want_train, want_test = oracle.onehot(X.astype(float), Xt.astype(float), list(cards))
    assert np.array_equal(encode_codes(X, cards, "onehot"), want_train)
    assert np.array_equal(encode_codes(Xt, cards, "onehot"), want_test)
    assert np.array_equal(encode_codes(X, cards, "ordinal"), X.astype(float))


@pytest.mark.parametrize("missing", ["distinct", "impute", "skip"])
@pytest.mark.parametrize("name", ["labor-negotiations", "house-votes-84"])
def test_raw_columns_equal_scikit_learns_transformers(name, missing, isolated_cache):
    """labor-negotiations: numeric and nominal attributes with missing values; house-votes-84:
    nominal ones with missing values (ties of the training mode under impute)."""
    ds = catalog.load(name)
    train, test = split(ds.y, "stratified", 3, 0, 1, 5)
    columns = [np.where(c < 0, np.nan, c).astype(float) if a.nominal else c for a, c in zip(ds.attributes, ds.columns)]
    want = oracle.raw_features([c[train] for c in columns], [c[test] for c in columns],
                               [a.values for a in ds.attributes], missing,
                               [ds.has_missing(i) for i in range(ds.n_attributes)])
    got = raw_features(ds, train, test, missing)
    np.testing.assert_allclose(got[0], want[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1], want[1], rtol=0, atol=1e-12)
