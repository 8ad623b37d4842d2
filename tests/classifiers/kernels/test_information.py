"""The information measures exported for plug-ins (docs/adding-a-classifier.md) are the kernels'
(no second formula) and equal plain-Python references computed from the rows: MI and CMI of
`tests/oracles/reference.py` in both missing modes, SU of `tests/oracles/tan/rankings.py`; the
matrices the STAN rankings read, a row of pairs at a time, equal the pair-by-pair sums of
`tests/oracles/info_pairs.py` bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import conditional_mutual_information, mutual_information, symmetrical_uncertainty
from bncbench.classifiers.base import fit_counts
from bncbench.classifiers.kernels import infotheory
from bncbench.classifiers.kernels.ties import info_values
from tests.oracles.info_pairs import attribute_mi_pairs, class_mi_given_pairs
from tests.oracles.reference import Ref
from tests.oracles.tan import rankings
from tests.support.data import random_data


def test_the_exports_are_the_kernels_functions():
    assert mutual_information is infotheory.mutual_info_class
    assert conditional_mutual_information is infotheory.cond_mutual_info
    assert symmetrical_uncertainty is infotheory.symmetrical_uncertainty


@pytest.mark.parametrize("missing", ["value", "skip"])
@pytest.mark.parametrize("seed", range(4))
def test_mi_and_cmi_equal_the_plain_reference(seed, missing):
    X, y, _, cards, nc = random_data(seed, p_missing=0.15)
    pc = fit_counts(X, y, cards, nc)
    skip = missing == "skip"
    R = Ref(X, y, nc, cards, "mestimate", 1.0, missing)
    n = len(cards)
    np.testing.assert_allclose(mutual_information(pc, skip_missing=skip), [R.mi(i) for i in range(n)],
                               rtol=1e-9, atol=1e-12)
    want = [[R.cmi(i, j) if i != j else 0.0 for j in range(n)] for i in range(n)]
    np.testing.assert_allclose(conditional_mutual_information(pc, skip_missing=skip), want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_su_equals_the_plain_reference(seed):
    X, y, _, cards, nc = random_data(seed, p_missing=0.0)
    got = symmetrical_uncertainty(fit_counts(X, y, cards, nc))
    want = [rankings.su(X[:, i].tolist(), y.tolist()) for i in range(len(cards))]
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def test_hand_worked_values():
    """x_0 decides the class (1 bit); x_1 and the class: 1 − H(1/3, 2/3); given the class, x_0 is
    constant, so I(x_0; x_1 | Y) = 0; H(x_0) = H(x_1) = H(Y) = 1 bit, so SU = I."""
    X = np.array([[0, 0], [0, 1], [1, 1], [1, 0], [1, 1], [0, 0]])
    y = np.array([0, 0, 1, 1, 1, 0])
    pc = fit_counts(X, y, [2, 2], 2)
    h = -(1 / 3) * np.log2(1 / 3) - (2 / 3) * np.log2(2 / 3)
    np.testing.assert_allclose(mutual_information(pc), [1.0, 1.0 - h], rtol=1e-9)
    np.testing.assert_allclose(conditional_mutual_information(pc), [[0.0, 0.0], [0.0, 0.0]], atol=1e-12)
    np.testing.assert_allclose(symmetrical_uncertainty(pc), [1.0, 1.0 - h], rtol=1e-9)


@pytest.mark.parametrize("seed", range(60))
def test_pair_matrices_equal_the_pair_by_pair_sums_to_the_bit(seed):
    # I(X_i; X_j) (MRMR) and I(X_i; Y | X_j) (JMI, CMIM) of every pair, computed a row of pairs at a
    # time, against each pair's terms summed alone: the same float64 bits, so the same ranking
    # after the tie rule or the float32 rounding; missing slots left out or counted, empty classes,
    # one-value attributes, a deterministic pair (terms of exactly 0), 1 to 1000 rows
    rng = np.random.default_rng(seed)
    n, d, nc = int(rng.choice([1, 2, 5, 30, 200, 1000])), int(rng.integers(1, 9)), int(rng.integers(1, 5))
    cards = rng.integers(1, 7, size=d)
    X, y = rng.integers(0, cards, size=(n, d)), rng.integers(0, nc, size=n)
    if d > 1 and seed % 2:
        X[:, 1] = (X[:, 0] + y) % cards[1]
    pc = fit_counts(X, y, cards, nc, True)
    for skip in (False, True):
        for got, want in ((infotheory.attribute_mutual_info, attribute_mi_pairs),
                          (infotheory.class_mi_given_attribute, class_mi_given_pairs)):
            exact = want(pc, skip)
            for precision in ("float64", "float32"):
                expected = info_values(exact, precision)
                assert np.array_equal(got(pc, precision, skip).view(np.int64), expected.view(np.int64)), \
                    (got.__name__, skip, precision)
