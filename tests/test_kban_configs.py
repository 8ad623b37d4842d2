"""Bad input of paper 002's classifiers: one line naming the key, exit 2, nothing written."""

import pytest

from tests.cli_util import bnc


@pytest.mark.parametrize("entry,key", [
    ("{name: KBAN, k: -1}", "k"),
    ("{name: KBAN, k: 1.5}", "k"),
    ("{name: KBAN, kban_eval: cv}", "kban_eval"),
    ("{name: BAN, method: k2}", "method"),
    ("{name: BAN, ban_max_parents: -2}", "ban_max_parents"),
])
def test_bad_parameters(tmp_path, entry, key):
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: bad\ndatasets: [zoo]\nclassifiers:\n  - {entry}\n")
    r = bnc("run", path, "--results", tmp_path / "res")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and f".{key}:" in lines[0] and "bad.yaml:4" in lines[0], r.stderr
    assert not (tmp_path / "res").exists()
