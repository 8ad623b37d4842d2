"""CI's skip check (tests/support/skips.py, docs/testing.md: Skips), run by a pytest subprocess on a
tiny synthetic test tree: with BNCBENCH_REQUIRE_NO_SKIP=1 a skip outside the allow-list fails the
session, an allowed one does not; `need` skips, or fails under its flag."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.skips import ALLOWED_SKIPS, allowed

ROOT = Path(__file__).resolve().parent.parent
ARRAY_API = "SCIPY_ARRAY_API is not set: not checking array_api input"
ALLOWED_NODE = "NB()-check_array_api_input(array_namespace=numpy,expect_only_array_outputs=False)"

# The allow-listed test, at the node id it has in this repository.
SKLEARN = f"""
import pytest

@pytest.mark.parametrize("x", [1], ids=["{ALLOWED_NODE}"])
def test_check_estimator(x):
    pytest.skip("{ARRAY_API}")
"""
OTHER = """
import pytest
from tests.support.skips import need

def test_passes():
    pass

def test_skips():
    pytest.skip("a tool is missing")

@pytest.mark.xfail(reason="known", strict=True)
def test_xfails():
    assert False

def test_needs():
    need("BNCBENCH_TEST_FLAG", "the thing is missing")
"""


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def _pytest(tree: Path, *args: str, **flags: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BNCBENCH_") and k != "PYTEST_ADDOPTS"}
    env.update(flags, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.support.skips", "-p", "no:cacheprovider",
                           "-q", "-rs", *args], cwd=tree, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def tree(tmp_path):
    return _tree(tmp_path, {"tests/classifiers/test_sklearn.py": SKLEARN, "tests/other/test_other.py": OTHER})


def test_unlisted_skips_fail_the_session_only_under_the_flag(tree):
    r = _pytest(tree)
    assert r.returncode == 0, r.stdout
    assert "3 skipped" in r.stdout and "outside the allow-list" not in r.stdout
    r = _pytest(tree, BNCBENCH_REQUIRE_NO_SKIP="1")
    assert r.returncode == 1, r.stdout
    assert "1 passed, 3 skipped, 1 xfailed" in r.stdout  # the skips of test_skips and test_needs, the allowed one
    assert "2 skip(s) outside the allow-list" in r.stdout
    assert "tests/other/test_other.py::test_skips: a tool is missing" in r.stdout
    assert "tests/other/test_other.py::test_needs: the thing is missing" in r.stdout
    assert "1 allowed skip(s), 2 outside the allow-list" in r.stdout
    assert "check_array_api_input" not in r.stdout.split("outside the allow-list")[1].split("allowed skip")[0]


def test_allowed_skip_and_xfail_pass(tree):
    r = _pytest(tree, "tests/classifiers", "tests/other/test_other.py::test_xfails", BNCBENCH_REQUIRE_NO_SKIP="1")
    assert r.returncode == 0, r.stdout
    assert "1 skipped, 1 xfailed" in r.stdout and "1 allowed skip(s), 0 outside the allow-list" in r.stdout


def test_the_allowed_reason_is_part_of_the_entry(tmp_path):
    """The allowed test skipping for another reason is not allowed."""
    tree = _tree(tmp_path, {"tests/classifiers/test_sklearn.py": SKLEARN.replace(ARRAY_API, "no scipy")})
    r = _pytest(tree, BNCBENCH_REQUIRE_NO_SKIP="1")
    assert r.returncode == 1 and "1 skip(s) outside the allow-list" in r.stdout, r.stdout


def test_module_level_skip_counts(tmp_path):
    tree = _tree(tmp_path, {"tests/test_mod.py": "import pytest\nnope = pytest.importorskip('no_such_module_x')\n"
                                                  "def test_a():\n    pass\n"})
    r = _pytest(tree, BNCBENCH_REQUIRE_NO_SKIP="1")
    assert r.returncode == 1 and "tests/test_mod.py: could not import 'no_such_module_x'" in r.stdout, r.stdout


def test_a_failure_keeps_its_exit_status(tmp_path):
    tree = _tree(tmp_path, {"tests/test_f.py": "import pytest\ndef test_f():\n    assert False\n"
                                                "def test_s():\n    pytest.skip('x')\n"})
    r = _pytest(tree, BNCBENCH_REQUIRE_NO_SKIP="1")
    assert r.returncode == 1 and "1 failed" in r.stdout and "tests/test_f.py::test_s: x" in r.stdout, r.stdout
    r = _pytest(tree, "--co", BNCBENCH_REQUIRE_NO_SKIP="1")  # nothing ran: nothing skipped
    assert r.returncode == 0 and "0 allowed skip(s), 0 outside the allow-list" in r.stdout, r.stdout


def test_need_fails_under_its_flag(tree):
    r = _pytest(tree, "tests/other/test_other.py::test_needs", BNCBENCH_TEST_FLAG="1")
    assert r.returncode == 1 and "the thing is missing (BNCBENCH_TEST_FLAG=1: required here)" in r.stdout, r.stdout
    r = _pytest(tree, "tests/other/test_other.py::test_needs")
    assert r.returncode == 0 and "1 skipped" in r.stdout, r.stdout


def test_allow_list_entries():
    """Each entry says why; the patterns match the node ids scikit-learn gives its check."""
    assert ALLOWED_SKIPS and all(len(a.why) > 40 for a in ALLOWED_SKIPS)
    assert allowed(f"tests/classifiers/test_sklearn.py::test_check_estimator[{ALLOWED_NODE}]", ARRAY_API)
    assert not allowed("tests/classifiers/test_sklearn.py::test_check_estimator[NB()-check_fit2d_1sample]", ARRAY_API)
    assert not allowed("tests/classifiers/test_other.py::test_check_estimator[{ALLOWED_NODE}]", ARRAY_API)
