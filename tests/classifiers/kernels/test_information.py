"""The information measures exported for plug-ins (docs/adding-a-classifier.md) are the kernels'
(no second formula) and equal plain-Python references computed from the rows: MI and CMI of
`tests/oracles/reference.py` in both missing modes, SU of `tests/oracles/tan/rankings.py`."""

from __future__ import annotations

import numpy as np
import pytest

from bncbench.classifiers import conditional_mutual_information, mutual_information, symmetrical_uncertainty
from bncbench.classifiers.base import fit_counts
from bncbench.classifiers.kernels import infotheory
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
