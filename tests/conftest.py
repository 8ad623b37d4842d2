import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support import skips
from tests.support.skips import need

ROOT = Path(__file__).resolve().parent.parent
SHARED_UCI = (ROOT.parent / "shared" / "uci").resolve()
WEKA_JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))


_SESSION_CACHE: str | None = None


def pytest_configure(config):
    # BNCBENCH_REQUIRE_NO_SKIP=1: fail the session on a skip outside tests/support/skips.py's allow-list
    if not config.pluginmanager.is_registered(skips):
        config.pluginmanager.register(skips, "bncbench-skips")
    # the download cache of the whole session (this process and the commands it starts) in a
    # temporary folder, never the user's ~/.cache/bncbench; a test may set its own
    global _SESSION_CACHE
    if _SESSION_CACHE is None:
        _SESSION_CACHE = tempfile.mkdtemp(prefix="bncbench-test-cache-")
        os.environ["BNCBENCH_CACHE"] = _SESSION_CACHE


def pytest_unconfigure(config):
    global _SESSION_CACHE
    if _SESSION_CACHE is not None:
        shutil.rmtree(_SESSION_CACHE, ignore_errors=True)
        _SESSION_CACHE = None


@pytest.fixture(scope="session")
def weka(tmp_path_factory):
    """A callable running one request of the compiled WekaOracle helper (`weka("dist", ...)`,
    `weka("cuts", ...)`: its output); skips (or fails when BNCBENCH_REQUIRE_WEKA=1, as in CI) if
    Weka or a JDK is missing. One JVM answers every request of the session (WekaOracle serve):
    a JVM start per request cost more than the requests."""
    if not WEKA_JAR.is_file() or not shutil.which("javac"):
        need("BNCBENCH_REQUIRE_WEKA", f"Weka 3.6 ({WEKA_JAR}) and javac are needed (apt-get install weka)")
    out = tmp_path_factory.mktemp("oracle")
    subprocess.run(["javac", "-cp", str(WEKA_JAR), "-d", str(out), str(ROOT / "tests/oracles/WekaOracle.java")],
                   check=True, capture_output=True)
    with open(out / "stderr.txt", "w") as log:
        server = subprocess.Popen(["java", "-cp", f"{WEKA_JAR}:{out}", "WekaOracle", "serve"], text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
    requests, answers = server.stdin, server.stdout
    assert requests is not None and answers is not None

    def call(*args: str) -> str:
        assert not any("\t" in a or "\n" in a for a in args), args  # the request is one tab-separated line
        requests.write("\t".join(args) + "\n")
        requests.flush()
        lines = []
        while not (line := answers.readline()).startswith("\x01"):
            if not line:
                raise RuntimeError(f"WekaOracle stopped ({out / 'stderr.txt'}); request {args}")
            lines.append(line)
        if line != "\x01ok\n":
            raise RuntimeError(f"WekaOracle {args}: {line[1:].strip()}")
        return "".join(lines)

    yield call
    requests.close()
    server.wait(timeout=60)


@pytest.fixture(scope="session")
def mirror():
    """../shared/uci (the UCI mirror); skips when absent, fails when BNCBENCH_REQUIRE_MIRROR=1."""
    if not (SHARED_UCI / "raw").is_dir():
        need("BNCBENCH_REQUIRE_MIRROR", f"the UCI mirror {SHARED_UCI} is missing")
    return SHARED_UCI


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """An empty download cache in tmp_path and no mirror (BNCBENCH_MIRROR set empty: not even
    the default ../shared/uci); the shipped mirror stays."""
    monkeypatch.setenv("BNCBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BNCBENCH_MIRROR", "")
    return tmp_path / "cache"
