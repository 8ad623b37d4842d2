"""A --scheduler that cannot name a Dask scheduler: one line naming it, exit 2, nothing written
(issue 36: "missing port" was exit 3, "a bug in bncbench", after the store was created)."""

import pytest

from bncbench.engine.executors import check_executor
from bncbench.errors import UserError
from tests.support.cli import bnc

CONFIG = "name: one\ndatasets: [iris]\nclassifiers: [NB]\ncv: {folds: 2}\n"


@pytest.mark.parametrize("address, says", [
    ("tcp://host", "missing port number"),
    ("::::", "invalid address"),
    ("tcp://no-such-host.invalid:8786", "the host 'no-such-host.invalid' is not found"),
])
def test_a_malformed_scheduler_is_refused_before_anything_is_written(tmp_path, address, says):
    cfg = tmp_path / "one.yaml"
    cfg.write_text(CONFIG)
    r = bnc("run", cfg, "--results", tmp_path / "res", "--executor", "dask", "--scheduler", address)
    lines = r.stderr.splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert lines[0].startswith(f"error: --scheduler {address}: ") and says in lines[0], r.stderr
    assert not (tmp_path / "res").exists()


def test_the_config_s_scheduler_is_checked_too(tmp_path):
    cfg = tmp_path / "one.yaml"
    cfg.write_text(CONFIG + "executor: {name: dask, scheduler: 'tcp://10.0.0.5'}\n")
    r = bnc("run", cfg, "--results", tmp_path / "res")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "missing port number" in r.stderr, r.stderr
    assert not (tmp_path / "res").exists()


@pytest.mark.parametrize("address, says", [
    ("tcp://127.0.0.1:99999", "a port from 1 to 65535"),      # out of range
    ("tcp://127.0.0.1:0", "a port from 1 to 65535"),          # no port to connect to
    ("tcp://:8786", "with a host"),                            # no host
    ("http://127.0.0.1:8786", "unknown address scheme 'http'"),  # the dashboard's address, not the scheduler's
    ("tcp://[::1:8786", "invalid address"),                    # an unclosed IPv6 bracket
    ("tcp://" + "a" * 300 + ":8786", "is not found"),          # a label longer than DNS allows
    ("tcp://exa mple.org:8786", "is not found"),               # a space in the host
    ("tcp://../../etc:8786", "is not found"),                  # a path, not a host
])
def test_more_addresses_that_name_no_scheduler(address, says):
    with pytest.raises(UserError, match=r"^--scheduler ") as e:
        check_executor("dask", address)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_good_addresses_pass_the_check():
    for address in ("tcp://127.0.0.1:8786", "127.0.0.1:8786", "tcp://[::1]:8786", "tcp://localhost:8786"):
        check_executor("dask", address)
