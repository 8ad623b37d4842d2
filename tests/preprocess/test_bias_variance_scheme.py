"""The bias–variance experiment (`cv: {scheme: petal-bv}`, docs/algorithms.md §5.5 last part)."""

import numpy as np
import pytest

from bncbench import config as cfg
from bncbench.errors import UserError
from bncbench.evaluate.metrics import FoldResult, bias_variance
from bncbench.preprocess.folds import petal_bv_split, split


class MT19937:
    """Plain Python Mersenne Twister (Matsumoto & Nishimura 1998, mt19937ar.c): init_genrand
    and genrand_int32, written from the reference code — independent of numpy's generator."""

    def __init__(self, seed: int):
        self.mt = [0] * 624
        self.mt[0] = seed & 0xFFFFFFFF
        for i in range(1, 624):
            self.mt[i] = (1812433253 * (self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        self.i = 624

    def genrand_int32(self) -> int:
        if self.i >= 624:
            for k in range(624):
                y = (self.mt[k] & 0x80000000) | (self.mt[(k + 1) % 624] & 0x7FFFFFFF)
                self.mt[k] = self.mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.i = 0
        y = self.mt[self.i]
        self.i += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y


def reference_split(n: int, experiment: int):
    """The spec's steps 1–2, literally."""
    r_test, r_train = MT19937(0), MT19937(experiment)
    t = n // 3
    left, need_test, need_train = n, t, t
    train, test = [], []
    for row in range(n):
        if need_test == 0 and need_train == 0:
            break
        u = r_test.genrand_int32() / 2 ** 32
        if u <= need_test / left:
            test.append(row)
            need_test -= 1
        elif need_train > 0:
            v = r_train.genrand_int32() / 2 ** 32
            if v <= need_train / (left - need_test):
                train.append(row)
                need_train -= 1
        left -= 1
    return train, test


def test_mt19937_reference_matches_the_published_first_output():
    assert MT19937(5489).genrand_int32() == 3499211612  # mt19937ar's default seed, first output


@pytest.mark.parametrize("n", [3, 4, 10, 57, 90, 178, 1000, 3001])
@pytest.mark.parametrize("experiment", [0, 1, 9])
def test_sampler_equals_the_spec_steps_and_has_floor_n_over_3_each(n, experiment):
    train, test = petal_bv_split(n, experiment)
    want_train, want_test = reference_split(n, experiment)
    assert train.tolist() == want_train and test.tolist() == want_test
    assert len(train) == len(test) == n // 3
    assert not set(train.tolist()) & set(test.tolist())


def test_the_test_set_is_the_same_in_every_experiment_and_training_samples_differ():
    tests = [petal_bv_split(500, e)[1].tolist() for e in range(10)]
    trains = [tuple(petal_bv_split(500, e)[0].tolist()) for e in range(10)]
    assert all(t == tests[0] for t in tests)
    assert len(set(trains)) == 10
    tr, te = split(np.zeros(500, dtype=np.int64), "petal-bv", 1, 3, 0, 0)
    assert te.tolist() == tests[0] and tuple(tr.tolist()) == trains[3]


def test_bias_plus_variance_is_the_mean_zol_over_experiments():
    rng = np.random.default_rng(0)
    n, runs, k = 30, 10, 3
    test = np.arange(0, 60, 2)[:n]
    y = rng.integers(0, k, n)
    folds = []
    for r in range(runs):
        pred = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
        proba = np.full((n, k), 0.1)
        proba[np.arange(n), pred] = 0.8
        folds.append(FoldResult(r, 0, test, y, proba, 0.0, 0.0))
    b, v = bias_variance(folds)
    zol = np.mean([np.mean(f.pred != y) for f in folds])
    assert b + v == pytest.approx(zol, abs=1e-12)
    # the worked example of §5.5: predictions t, t, a, b over 4 runs -> bias 0.1875, variance 0.3125
    one = [FoldResult(r, 0, np.array([0]), np.array([0]), None, 0.0, 0.0, pred=np.array([p]), sums={})
           for r, p in enumerate([0, 0, 1, 2])]
    assert bias_variance(one) == pytest.approx((0.1875, 0.3125))


CONFIG = """
name: bv
datasets: [{name: zoo}, {name: car, preprocess: {scope: global}}]
preprocess: {discretizer: mdl}
cv: {scheme: petal-bv, runs: 10, seed: 0}
classifiers: [NB]
"""


def test_config_of_the_scheme_and_per_data_set_preprocessing():
    exp = cfg.parse(CONFIG)
    assert (exp.cv.scheme, exp.cv.folds, exp.cv.runs, exp.cv.divisor) == ("petal-bv", 1, 10, 3)
    zoo, car = exp.datasets
    assert zoo.settings(exp.preprocess) == exp.preprocess
    assert car.settings(exp.preprocess).scope == "global"
    assert car.settings(exp.preprocess).discretizer == "mdl"


@pytest.mark.parametrize("bad,key", [
    ("cv: {scheme: petal-bv, runs: 10, folds: 10}", "folds"),
    ("cv: {scheme: petal, divisor: 3}", "divisor"),
    ("cv: {scheme: petal-bv, runs: 10, sample: 3}", "sample"),
    ("cv: {scheme: petal-bv, divisor: 1}", "divisor"),
])
def test_bad_scheme_parameters_name_the_key(bad, key):
    text = CONFIG.replace("cv: {scheme: petal-bv, runs: 10, seed: 0}", bad)
    with pytest.raises(UserError, match=key):
        cfg.parse(text)


def test_bad_per_data_set_preprocessing_names_the_key():
    with pytest.raises(UserError, match=r"datasets\.1\.preprocess\.scope|scope"):
        cfg.parse(CONFIG.replace("scope: global", "scope: everywhere"))
    with pytest.raises(UserError, match="bins"):
        cfg.parse(CONFIG.replace("scope: global", "bins: 1"))
