"""The "did you mean" hint (utils/suggest.py): a name that differs only in case is found first."""

from bncbench.utils.suggest import did_you_mean


def test_a_name_in_another_case_is_suggested():
    assert did_you_mean("nb", ["NB", "TAN", "AODE"]) == " (did you mean 'NB'?)"
    assert did_you_mean("aode", ["NB", "AODE"]) == " (did you mean 'AODE'?)"


def test_a_close_name_or_none():
    assert did_you_mean("TAM", ["NB", "TAN"]) == " (did you mean 'TAN'?)"
    assert did_you_mean("xyz", ["NB", "TAN"]) == ""
