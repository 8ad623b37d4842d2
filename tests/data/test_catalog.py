"""The catalog: every held data set loads with the paper's counts or a documented difference;
downloads go through HTTP with a checksum check and an atomic cache write."""

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

from bncbench.data import catalog
from bncbench.errors import DataError, DataUnavailable
from tests.support.skips import need

ROOT = Path(__file__).resolve().parents[2]


def test_catalog_is_complete_and_well_formed():
    cat = yaml.safe_load((ROOT / "bncbench/data/catalog.yaml").read_text())
    names = set(cat["datasets"])
    assert len(names) >= 74
    for n, e in cat["datasets"].items():
        assert {"papers", "format", "expected"} <= set(e), n
        assert set(e["expected"]) == {"instances", "attributes", "classes"}, n
        if e["format"] != "generated":
            assert e["files"], n
        if "found" in e:
            assert e.get("difference"), f"{n}: counts differ from the paper's but no difference is documented"
    # the template and the generated catalog agree
    tmpl = yaml.safe_load((ROOT / "tools/catalog-template.yaml").read_text())
    assert set(tmpl["datasets"]) == names


def test_docs_datasets_md_is_current():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import datasets_doc
    finally:
        sys.path.pop(0)
    text = (ROOT / "docs" / "datasets.md").read_text()
    assert text == datasets_doc.render(text), \
        "run python tools/datasets_doc.py"


def test_configs_name_catalog_data_sets():
    from bncbench import config

    for cfg, count in (("stan70.yaml", 70), ("ait36.yaml", 36), ("ait36-bv.yaml", 36)):
        exp = config.load(str(ROOT / "configs" / cfg))
        assert len(exp.datasets) == count


@pytest.mark.mirror
@pytest.mark.slow
def test_verify_all_with_mirror(mirror):
    env = dict(os.environ, BNCBENCH_MIRROR=str(mirror))
    r = subprocess.run([sys.executable, "-m", "bncbench", "datasets", "verify", "--all", "--format", "csv"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [l.split(",") for l in r.stdout.splitlines()[1:]]
    status = {row[0]: row[3] for row in rows}
    assert "MISMATCH" not in status.values()
    held = [n for n, s in status.items() if s != "not available"]
    assert len(held) >= 60
    assert status["car"] == "ok" and status["splice-c4.5"] == "documented difference"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


@pytest.fixture
def http_mirror(tmp_path):
    root = tmp_path / "www"
    (root / "raw" / "haberman").mkdir(parents=True)
    src = ROOT.parent / "shared" / "uci" / "raw" / "haberman" / "haberman.data"
    if not src.is_file():
        need("BNCBENCH_REQUIRE_MIRROR", "needs ../shared/uci")
    shutil.copy(src, root / "raw" / "haberman" / "haberman.data")
    (root / "raw" / "yeast").mkdir()
    (root / "raw" / "yeast" / "yeast.data").write_text("corrupted 1 2\n")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_download_over_http(http_mirror, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("BNCBENCH_CACHE", str(cache))
    monkeypatch.setenv("BNCBENCH_MIRROR", http_mirror)
    catalog._load_cached.cache_clear()
    ds = catalog.load("haberman")
    assert ds.n_instances == 306
    assert (cache / "uci" / "haberman" / "haberman.data").is_file()
    # a corrupted file is rejected and nothing is left in the cache
    with pytest.raises(DataError, match="checksum mismatch"):
        catalog.locate(catalog.entry("yeast")["files"][0])
    assert not (cache / "uci" / "yeast").exists() or not any((cache / "uci" / "yeast").iterdir())
    # a file the server does not have is "unavailable"
    with pytest.raises(DataUnavailable):
        catalog.locate(catalog.entry("sonar")["files"][0])
    catalog._load_cached.cache_clear()


def test_unavailable_data_set_is_skipped_with_one_warning(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: [iris, phoneme, seermdl]\nclassifiers: [NB]\ncv: {folds: 2}\n")
    env = dict(os.environ, BNCBENCH_MIRROR="")  # no mirror, not even the default
    env["BNCBENCH_CACHE"] = str(tmp_path / "cache")
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "r"), "--quiet"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0
    warnings = [l for l in r.stderr.splitlines() if l.startswith("warning")]
    assert len(warnings) == 1 and "phoneme" in warnings[0] and "seermdl" in warnings[0]
    assert "no mirror (BNCBENCH_MIRROR is empty)" in warnings[0] and "docs/datasets.md" in warnings[0]
    empty = tmp_path / "empty-mirror"
    empty.mkdir()
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "m"), "--quiet"],
                       capture_output=True, text=True, env=dict(env, BNCBENCH_MIRROR=str(empty)))
    warnings = [l for l in r.stderr.splitlines() if l.startswith("warning")]
    assert r.returncode == 0 and len(warnings) == 1
    assert f"the mirror BNCBENCH_MIRROR={empty} and the shipped mirror" in warnings[0]
    assert "set BNCBENCH_MIRROR" not in warnings[0]
    strict = subprocess.run([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(tmp_path / "s"),
                             "--strict"], capture_output=True, text=True, env=env)
    assert strict.returncode == 2 and len(strict.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "s").exists()
