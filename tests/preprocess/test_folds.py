"""CV folds: the C++ system's fold assignment and stratified folds."""


import numpy as np

from bncbench.preprocess.folds import petal_folds, stratified_folds


def test_petal_folds_are_mt19937_of_the_cpp_standard():
    import numpy as np

    bg = np.random.MT19937(0)
    bg._legacy_seeding(5489)  # std::mt19937's default seed: first outputs are published
    assert bg.random_raw(3).tolist() == [3499211612, 581869302, 3890346734]
    raw = np.random.MT19937(0)
    raw._legacy_seeding(0)
    assert petal_folds(50, 10, 0).tolist() == (raw.random_raw(50) % 10).tolist()


def test_stratified_folds_balanced():
    y = np.array([0] * 37 + [1] * 13 + [2] * 5)
    f = stratified_folds(y, 10, 1)
    sizes = np.bincount(f, minlength=10)
    assert sizes.max() - sizes.min() <= 1
    for c in range(3):
        per = np.bincount(f[y == c], minlength=10)
        assert per.max() - per.min() <= 1
