"""Bad input of paper 002's classifiers: one line naming the key, exit 2, nothing written."""

import pytest

from tests.cli_util import assert_refused


@pytest.mark.parametrize("entry,key", [
    ("{name: KBAN, k: -1}", "k"),
    ("{name: KBAN, k: 1.5}", "k"),
    ("{name: KBAN, kban_eval: cv}", "kban_eval"),
    ("{name: BAN, method: k2}", "method"),
    ("{name: BAN, ban_max_parents: -2}", "ban_max_parents"),
])
def test_bad_parameters(tmp_path, entry, key):
    assert_refused(tmp_path, entry, f".{key}:")
