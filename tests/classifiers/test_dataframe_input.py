"""A pandas DataFrame with Categorical or string columns (classifiers/base.py, "Categories"):
coded by category as the docstring's rule says (checked against codes written out by hand), the
same mapping at predict time, and one-message refusals that name the project's discretisers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline

from bncbench.classifiers import AODE, KDB, NB, TAN
from bncbench.preprocess import MDLDiscretizer

COLORS = ["red", "green", "blue", None, "green", "red", "blue", "red", "green", "red", "blue", "green"] * 3
SIZES = ["s", "m", "l", "m", "s", None, "l", "m", "s", "s", "l", "m"] * 3
LEGS = [0, 1, 2, 1, 0, 2, 1, 0, 2, 1, 1, 0] * 3
Y = ["a", "b", "a", "b", "a", "a", "b", "b", "a", "b", "a", "b"] * 3
# the rule by hand: a string column by sorted values, a Categorical by its categories' order
# (here with an unused category "xl"), missing = -1
COLOR_CODE = {"blue": 0, "green": 1, "red": 2, None: -1}
SIZE_CATEGORIES = ["s", "m", "l", "xl"]
SIZE_CODE = {"s": 0, "m": 1, "l": 2, "xl": 3, None: -1}


def frame(colors=COLORS, sizes=SIZES, legs=LEGS, string_dtype=None) -> pd.DataFrame:
    return pd.DataFrame({"color": pd.Series(colors, dtype=string_dtype),
                         "size": pd.Categorical(sizes, categories=SIZE_CATEGORIES),
                         "legs": legs})


def codes(colors=COLORS, sizes=SIZES, legs=LEGS, unseen=-1) -> np.ndarray:
    return np.array([[COLOR_CODE.get(c, unseen), SIZE_CODE.get(s, unseen), k]
                     for c, s, k in zip(colors, sizes, legs)], dtype=np.int64)


@pytest.mark.parametrize("make", [NB, TAN, AODE, lambda **kw: KDB(k=2, **kw)], ids=["NB", "TAN", "AODE", "KDB2"])
@pytest.mark.parametrize("string_dtype", [object, "string", "str"])
def test_categories_coded_as_the_rule_says(make, string_dtype):
    df = frame(string_dtype=string_dtype)
    fitted = make().fit(df, Y)
    by_hand = make(cardinalities=[3, 4, 3]).fit(codes(), Y)
    assert [list(c) if c is not None else None for c in fitted.categories_] == [["blue", "green", "red"],
                                                                               SIZE_CATEGORIES, None]
    assert fitted.cardinalities_.tolist() == [3, 4, 3]  # the unused category keeps its code
    assert list(fitted.feature_names_in_) == ["color", "size", "legs"]
    np.testing.assert_allclose(fitted.predict_proba(df), by_hand.predict_proba(codes()), atol=1e-12)


def test_predict_codes_by_value_with_the_fit_categories():
    model = TAN().fit(frame(), Y)
    colors = ["red", "purple", pd.NA, "blue"]  # purple: never seen, so missing (as an unseen code)
    sizes = ["l", "s", "xl", None]
    test = pd.DataFrame({"color": pd.Series(colors, dtype="string"),
                         # the same values as a Categorical with its categories in another order
                         "size": pd.Categorical(sizes, categories=["xl", "l", "m", "s"]),
                         "legs": [1, 0, 2, 1]})
    want = np.array([[2, 2, 1], [-1, 0, 0], [-1, 3, 2], [0, -1, 1]])
    reference = TAN(cardinalities=[3, 4, 3]).fit(codes(), Y)
    np.testing.assert_allclose(model.predict_proba(test), reference.predict_proba(want), atol=1e-12)
    np.testing.assert_array_equal(model.predict(test), reference.predict(want))


def test_works_with_clone_and_cross_validation():
    df = frame()
    scores = cross_val_score(clone(NB()), df, Y, cv=3)
    assert scores.shape == (3,) and np.isfinite(scores).all()
    assert not hasattr(NB().fit(codes(), Y), "categories_")
    refit = NB().fit(df, Y).fit(codes(), Y)  # a later fit on codes forgets the categories
    assert not hasattr(refit, "categories_")


def test_refusals_name_what_to_do():
    model = NB().fit(frame(), Y)
    with pytest.raises(ValueError, match="fitted on a DataFrame with Categorical or string columns"):
        model.predict(codes())
    swapped = frame().assign(legs=[str(v) for v in LEGS])
    with pytest.raises(ValueError, match="column 'legs' held value codes in fit"):
        model.predict(swapped)
    mixed = frame().assign(color=pd.Series(["red", 1] * 18, dtype=object))
    with pytest.raises(ValueError, match="column 'color' holds values of several types"):
        NB().fit(mixed, Y)
    with pytest.raises(ValueError, match=r"got strings.*MDLDiscretizer or EqualFrequencyDiscretizer"):
        NB().fit(np.array([["blue", "red"]] * 36), Y)
    floats = pd.DataFrame({"x": np.linspace(0, 1, 36), "k": LEGS})
    with pytest.raises(ValueError, match=r"column 'x' holds non-integer values.*MDLDiscretizer.*"
                                         r"make_pipeline\(MDLDiscretizer\(\), TAN\(\)\)"):
        TAN().fit(floats, Y)
    assert np.isfinite(make_pipeline(MDLDiscretizer(), TAN()).fit(floats, Y).predict_proba(floats)).all()
