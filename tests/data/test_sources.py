"""Where data files and the cache are (data/sources.py): one search order for every command and
make target, the cache in the user's cache folder, and nothing left in the current folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bncbench.data import sources

ROOT = Path(__file__).resolve().parents[2]


def test_cache_folder_order(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("BNCBENCH_CACHE", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert sources.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("BNCBENCH_CACHE", "")
    assert sources.cache_dir() == tmp_path / "xdg" / "bncbench"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # the XDG spec: a relative path is ignored
    assert sources.cache_dir() == tmp_path / "home" / ".cache" / "bncbench"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("BNCBENCH_CACHE")
    assert sources.cache_dir() == tmp_path / "home" / ".cache" / "bncbench"


def test_mirror_order(tmp_path, monkeypatch):
    default = tmp_path / "shared" / "uci"
    monkeypatch.setattr(sources, "DEFAULT_MIRROR", default)
    monkeypatch.delenv("BNCBENCH_MIRROR", raising=False)
    assert sources.mirror_location() is None  # the default folder does not exist
    assert "does not exist" in sources.mirror_description()
    default.mkdir(parents=True)
    assert sources.mirror_location() == str(default)
    assert "(the default; BNCBENCH_MIRROR is not set)" in sources.mirror_description()
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.setenv("BNCBENCH_MIRROR", str(other))
    assert sources.mirror_location() == str(other)
    monkeypatch.setenv("BNCBENCH_MIRROR", "")  # set but empty: no mirror, not even the default
    assert sources.mirror_location() is None
    assert sources.mirror_description() == "no mirror (BNCBENCH_MIRROR is empty)"


def test_default_mirror_is_shared_uci_beside_the_checkout():
    assert sources.DEFAULT_MIRROR == ROOT.parent / "shared" / "uci"


@pytest.mark.mirror
def test_run_from_another_folder_finds_the_default_mirror_and_writes_only_results(tmp_path, mirror):
    """`bncbench run` without BNCBENCH_MIRROR, from a folder outside the checkout, reads a data set
    held only in ../shared/uci, keeps its cache in XDG_CACHE_HOME and leaves nothing but results/."""
    assert sources.DEFAULT_MIRROR.resolve() == mirror
    assert not (ROOT / "datasets" / "mirror" / "raw" / "haberman").exists()  # held only in the mirror
    work = tmp_path / "work"
    work.mkdir()
    (work / "c.yaml").write_text("name: hab\ndatasets: [haberman]\nclassifiers: [NB]\ncv: {folds: 2}\n")
    env = {k: v for k, v in os.environ.items() if k not in ("BNCBENCH_MIRROR", "BNCBENCH_CACHE")}
    env.update(HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    r = subprocess.run([sys.executable, "-m", "bncbench", "run", "c.yaml", "--quiet"], cwd=work, env=env, check=False,
                       capture_output=True, text=True)
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr
    assert sorted(p.name for p in work.iterdir()) == ["c.yaml", "results"]
    assert [p.name for p in (work / "results").iterdir()] == ["hab"]
    assert any((tmp_path / "xdg" / "bncbench").glob("code-digests-py*.json"))
    assert not (tmp_path / "home").exists()
