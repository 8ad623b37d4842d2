"""A parsed copy in the download cache (`parsed/NAME-KEY.npz`) is used only when its arrays match
the digest written with them (its key, metadata and arrays): an edited, swapped or old-format copy
gives one warning, is parsed again from its checksummed source and replaced, and the results are
those of a clean cache (issue 36, Build item 2)."""

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bncbench.data import catalog
from bncbench.engine.units import forget_loaded
from tests.support.cli import bnc_in

CONFIG = "name: npz\ndatasets: [iris, zoo]\ncv: {folds: 3}\nclassifiers: [NB]\n"


def _arrays(copy: Path) -> dict[str, np.ndarray]:
    with np.load(copy, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def _save(copy: Path, arrays: dict[str, Any]) -> None:  # Any: savez's **kwds
    with copy.open("wb") as f:
        np.savez(f, **arrays)


def _permuted_y(a: dict, zoo: Path) -> dict:
    return {**a, "y": np.random.default_rng(0).permutation(a["y"])}


def _changed_x(a: dict, zoo: Path) -> dict:
    c0 = a["c0"].copy()
    c0[0] = c0[-1] if c0[0] != c0[-1] else c0[1]
    assert not np.array_equal(c0, a["c0"])
    return {**a, "c0": c0}


def _no_digest(a: dict, zoo: Path) -> dict:
    return {k: v for k, v in a.items() if k != "digest"}


def _old_format(a: dict, zoo: Path) -> dict:
    """What bncbench wrote before the digest: meta, y, c0..cN."""
    return {"meta": a["meta"], "y": a["y"], **{k: v for k, v in a.items() if k.startswith("c")}}


def _wrong_dtype(a: dict, zoo: Path) -> dict:
    return {**a, "y": a["y"].astype(np.int64 if a["y"].dtype != np.int64 else np.int32)}


def _another_data_sets_copy(a: dict, zoo: Path) -> dict:
    """zoo's own, valid copy under iris's name (its digest names zoo's key)."""
    return _arrays(zoo)


def _empty_digest(a: dict, zoo: Path) -> dict:
    return {**a, "digest": np.array("")}


def _shuffled_attributes(a: dict, zoo: Path) -> dict:
    meta = json.loads(str(a["meta"]))
    meta["attributes"] = meta["attributes"][::-1]
    return {**a, "meta": np.array(json.dumps(meta))}


CHANGES = [_permuted_y, _changed_x, _no_digest, _old_format, _wrong_dtype, _another_data_sets_copy, _empty_digest,
           _shuffled_attributes]


def _predictions(res: Path) -> dict:
    with sqlite3.connect(res / "results.sqlite") as db:
        return {row[0]: row[1:] for row in db.execute("SELECT key, dataset, label, run, fold, split, pred, proba, sums "
                                                      "FROM tasks")}


def _run(monkeypatch, capsys, cfg: Path, res: Path):
    catalog._load_cached.cache_clear()
    forget_loaded()
    return bnc_in("run", cfg, "--results", res, "--quiet")


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> tuple[Path, dict, Path]:
    """A run with an empty cache: its config, predictions, and the cache it filled."""
    d = tmp_path_factory.mktemp("clean")
    cfg = d / "npz.yaml"
    cfg.write_text(CONFIG)
    with pytest.MonkeyPatch.context() as m:
        m.setenv("BNCBENCH_CACHE", str(d / "cache"))
        m.setenv("BNCBENCH_MIRROR", "")
        catalog._load_cached.cache_clear()
        forget_loaded()
        from bncbench.cli.app import main

        m.setattr("sys.argv", ["bncbench", "run", str(cfg), "--results", str(d / "A"), "--quiet"])
        main()
    catalog._load_cached.cache_clear()
    forget_loaded()
    return cfg, _predictions(d / "A"), d / "cache"


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__.strip("_"))
def test_a_changed_parsed_copy_is_parsed_again(clean, change, tmp_path, monkeypatch, capsys):
    cfg, expected, clean_cache = clean
    cache = tmp_path / "cache"
    (cache / "parsed").mkdir(parents=True)
    for f in (clean_cache / "parsed").iterdir():
        (cache / "parsed" / f.name).write_bytes(f.read_bytes())
    monkeypatch.setenv("BNCBENCH_CACHE", str(cache))
    (copy,) = (cache / "parsed").glob("iris-*.npz")
    (zoo,) = (cache / "parsed").glob("zoo-*.npz")
    original = copy.read_bytes()
    _save(copy, change(_arrays(copy), zoo))
    assert copy.read_bytes() != original

    r = _run(monkeypatch, capsys, cfg, tmp_path / "C")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"warning: {copy}: the parsed copy of iris in the download cache "
                                                   f"cannot be read (DataError: "), lines
    assert lines[0].endswith("parsing its source again and replacing it"), lines
    assert _predictions(tmp_path / "C") == expected  # the same keys and the same predictions as a clean cache
    assert copy.read_bytes() == original  # replaced by what parsing the source gives
    # and the replaced copy is trusted again: no warning on the next run
    r = _run(monkeypatch, capsys, cfg, tmp_path / "D")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert _predictions(tmp_path / "D") == expected


def test_an_intact_copy_is_used_without_parsing(clean, monkeypatch):
    """The normal path reads the copy and not the source files again."""
    _, _, cache = clean
    monkeypatch.setenv("BNCBENCH_CACHE", str(cache))
    monkeypatch.setenv("BNCBENCH_MIRROR", "")
    catalog._load_cached.cache_clear()

    def no_parse(*args):
        raise AssertionError("parsed again")

    monkeypatch.setattr(catalog, "_parse", no_parse)
    monkeypatch.setattr(catalog, "_read_text", no_parse)
    assert len(catalog.load("iris").y) == 150
    catalog._load_cached.cache_clear()
