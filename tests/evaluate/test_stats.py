"""Sign tests and W/D/L rules against published or hand-worked values."""

import math

import pytest

from bncbench.evaluate.stats import (
    WDL,
    compare,
    goal_difference,
    round4,
    sign_test,
    wdl,
)

# The 14 published p-values of paper 000 (docs/algorithms.md §6.2)
PUBLISHED = [((34, 22, 14), 0.0112), ((38, 17, 15), 0.0038), ((26, 22, 22), 0.3601), ((29, 20, 21), 0.2015),
             ((22, 29, 19), 0.4050), ((28, 21, 21), 0.2352), ((32, 19, 19), 0.0740), ((34, 20, 16), 0.0207),
             ((30, 21, 19), 0.1142), ((34, 18, 18), 0.0361), ((33, 1, 36), 0.4050), ((40, 7, 23), 0.0266),
             ((45, 1, 24), 0.0077), ((31, 0, 39), 0.2015)]


@pytest.mark.parametrize("wdl_,p", PUBLISHED)
def test_published_sign_test_p_values(wdl_, p):
    assert round4(sign_test(WDL(*wdl_), "split", "one")) == format(p, ".4f")


def test_sign_test_variants():
    assert round4(sign_test(WDL(34, 22, 14), "ignore", "one")) == "0.0028"
    assert sign_test(WDL(0, 5, 0), "ignore", "two") == 1.0
    two = sign_test(WDL(10, 0, 3), "ignore", "two")
    assert two == pytest.approx(2 * sum(math.comb(13, i) for i in range(4)) / 2 ** 13)


@pytest.mark.parametrize("w,d,l", [(34, 22, 14), (33, 1, 36), (5, 0, 0), (0, 3, 9), (12, 7, 12)])
def test_sign_test_equals_scipy(w, d, l):
    from scipy.stats import binomtest

    W, L = w + d // 2, l + d // 2
    want_one = binomtest(max(W, L), W + L, 0.5, alternative="greater").pvalue
    assert sign_test(WDL(w, d, l), "split", "one") == pytest.approx(want_one, rel=1e-12)
    want_two = binomtest(w, w + l, 0.5).pvalue
    assert sign_test(WDL(w, d, l), "ignore", "two") == pytest.approx(want_two, rel=1e-12)


def test_round4_is_correctly_rounded():
    assert round4(3883 / 20000) == "0.1941"  # numpy.round would give 0.1942


def test_draw_rules():
    assert compare(0.12341, 0.12344, "exact4") == 0
    assert compare(0.1234, 0.1235, "exact4") == 1
    assert compare(0.100, 0.104, "relative:0.05") == 0
    assert compare(0.100, 0.110, "relative:0.05") == 1
    assert compare(0.9, 0.8, "exact4", lower_is_better=False) == 1
    assert str(wdl([0.1, 0.2, 0.3, 0.4], [0.2, 0.2, 0.25, 0.4001], "exact4")) == "2-1-1"
    assert str(wdl([0.1, 0.2, 0.3, 0.4], [0.2, 0.2, 0.25, 0.4001], "relative:0.2")) == "1-3-0"
    assert goal_difference([1, -1, 0, None, 1]) == [1, 0, 0, 0, 1]
