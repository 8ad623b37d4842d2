"""Each task's learned structure in the store (store format 4, docs/store.md: Tables): its compact
form (engine/codec.py), under the task's checksum, and a store of format 3 read as it is and
upgraded in place when opened for writing."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

import numpy as np
import pytest

from bncbench.classifiers.learned import Learned, Submodel
from bncbench.engine import codec
from bncbench.engine.output import TaskOutput
from bncbench.engine.store import FORMAT, Store, task_checksum

CHAIN = Learned(arcs=((0, 2), (2, 1)), attributes=(0, 1, 2))
SELECTED = Learned(arcs=((3, 1),), attributes=(1, 3), arc_dropped={(3, 1): 0.25}, attribute_dropped={0: 0.5})
# an ensemble whose arcs are its submodels' superparent-to-child arcs (AODE's form): stored without them
SPODES = Learned(arcs=((0, 1), (0, 2), (1, 0), (1, 2), (2, 0)), attributes=(0, 1, 2),
                 submodels=(Submodel(0, (1, 2)), Submodel(1, (0, 2)), Submodel(2, (0,))),
                 attribute_dropped={1: 0.125})
# one whose arcs are not (a submodel's own arcs among its children): stored as they are
OTHER = Learned(arcs=((0, 1), (0, 2), (1, 2)), attributes=(0, 1, 2), submodels=(Submodel(0, (1, 2)),))


@pytest.mark.parametrize("learned", [None, CHAIN, SELECTED, SPODES, OTHER])
def test_a_structure_reads_back_as_it_was_learned(learned):
    form = None if learned is None else learned.to_json()
    packed = codec.pack_structure(form)
    back = codec.unpack_structure(packed)
    assert back == form
    assert (None if back is None else Learned.from_json(back)) == learned
    raw = json.loads(zlib.decompress(packed))  # the values by position: [format, arcs, attributes, ...]
    assert raw is None or (raw[0] == 1 and raw[2] == list(learned.attributes))
    assert (raw is not None and raw[1] is None) == (learned is SPODES)


def test_a_form_of_other_keys_is_stored_as_it_is():
    """A form this code does not know by position (a later `Learned` with a key more) loses nothing."""
    form = {**SPODES.to_json(), "format": 2, "thresholds": [[0, 0.5]]}
    assert codec.unpack_structure(codec.pack_structure(form)) == form


def test_an_aode_structure_is_compact():
    """AODE on 60 attributes: 60 superparents × 59 children; the arcs are not stored twice."""
    n = 60
    aode = Learned(arcs=tuple((s, c) for s in range(n) for c in range(n) if c != s), attributes=tuple(range(n)),
                   submodels=tuple(Submodel(s, tuple(c for c in range(n) if c != s)) for s in range(n)))
    packed = codec.pack_structure(aode.to_json())
    assert len(packed) < 700 and len(json.dumps(aode.to_json())) > 35_000  # 566 bytes stored
    assert codec.unpack_structure(packed) == aode.to_json()


def _output(seed: int, learned: Learned | None, n: int = 12) -> TaskOutput:
    p = np.random.default_rng(seed).random((n, 2))
    return TaskOutput(np.arange(n), np.arange(n) % 2, p / p.sum(axis=1, keepdims=True), 0.5, 0.25, {},
                      None if learned is None else learned.to_json())


def _write(path: Path) -> list[str]:
    s = Store(path)
    s.put_many([(f"k{i}", "d", lab, 0, i, _output(i, learned), ["a", "b"])
                for i, (lab, learned) in enumerate([("TAN", CHAIN), ("SEL", SELECTED), ("NONE", None)])])
    s.close()
    return ["k0", "k1", "k2"]


def _read(path: Path) -> dict[str, dict | None]:
    s = Store(path, readonly=True)
    try:
        got = s.structures(["k0", "k1", "k2"])
        return {k: None if b is None else {"stored": codec.unpack_structure(b)} for k, (_, b) in got.items()}
    finally:
        s.close()


def test_structures_are_stored_and_read(tmp_path):
    _write(tmp_path)
    assert _read(tmp_path) == {"k0": {"stored": CHAIN.to_json()}, "k1": {"stored": SELECTED.to_json()},
                               "k2": {"stored": None}}  # recorded: this classifier reports none


def test_the_checksum_covers_the_structure(tmp_path):
    """Another valid structure written over a task's: the task fails its checksum and is not used."""
    _write(tmp_path)
    with sqlite3.connect(tmp_path / "results.sqlite") as c:
        c.execute("UPDATE tasks SET structure = ? WHERE key = 'k0'", (codec.pack_structure(SELECTED.to_json()),))
        c.execute("UPDATE tasks SET structure = NULL WHERE key = 'k1'")  # a structure removed: as damaged
    c.close()
    assert set(_read(tmp_path)) == {"k2"}
    s = Store(tmp_path, readonly=True)
    assert [t[-1] for t in s.scan()[0]] == ["damaged", "damaged", "intact"]
    s.close()


def as_format_3(path: Path) -> None:
    """The store at `path` as format 3 wrote it: no structure column (the checksums, made without a
    structure, are what format 3 made)."""
    with sqlite3.connect(path / "results.sqlite") as c:
        c.execute("UPDATE tasks SET structure = NULL, checksum = NULL")
        rows = c.execute("SELECT key, dataset, label, run, fold, split, n_classes, pred, proba, sums, train_time, "
                         "test_time, info FROM tasks").fetchall()
        c.executemany("UPDATE tasks SET checksum = ? WHERE key = ?", [(task_checksum(r), r[0]) for r in rows])
        c.execute("ALTER TABLE tasks DROP COLUMN structure")
        c.execute("UPDATE meta SET value = '3' WHERE key = 'format'")
    c.close()


def test_a_format_3_store_is_read_and_upgraded(tmp_path):
    _write(tmp_path)
    as_format_3(tmp_path)
    assert _read(tmp_path) == {"k0": None, "k1": None, "k2": None}  # every task intact, none with a structure
    s = Store(tmp_path)  # opened for writing: the column added, NULL (not recorded) for the tasks there
    s.put("k3", "d", "TAN", 0, 3, _output(3, SPODES), ["a", "b"])
    assert [t[-1] for t in s.scan()[0]] == ["intact"] * 4
    s.close()
    with sqlite3.connect(tmp_path / "results.sqlite") as c:
        assert json.loads(c.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0]) == FORMAT == 4
        assert c.execute("SELECT count(*) FROM tasks WHERE structure IS NULL").fetchone()[0] == 3
    c.close()
    s = Store(tmp_path, readonly=True)
    assert codec.unpack_structure(s.structures(["k3"])["k3"][1]) == SPODES.to_json()
    s.close()


def test_rekey_keeps_the_structure_under_the_checksum(tmp_path):
    """A code lineage's carried-over task (engine/lineage.py) keeps its structure, its checksum made for its key."""
    _write(tmp_path)
    s = Store(tmp_path)
    assert s.rekey({"new": "k0"}) == {"new"}
    assert codec.unpack_structure(s.structures(["new"])["new"][1]) == CHAIN.to_json()
    assert [t[-1] for t in s.scan()[0]] == ["intact"] * 3
    s.close()


def test_a_format_3_store_is_salvaged_into_format_4(tmp_path):
    """`store salvage` of a store without the structure column: every task kept, none given a structure."""
    from tests.support.cli import bnc_in

    _write(tmp_path / "old")
    as_format_3(tmp_path / "old")
    r = bnc_in("store", "salvage", tmp_path / "old", "--out", tmp_path / "new")
    assert r.returncode == 0 and r.stderr.startswith("salvaged 3 "), r.stderr
    assert _read(tmp_path / "new") == {"k0": None, "k1": None, "k2": None}
    s = Store(tmp_path / "new", readonly=True)
    assert [t[-1] for t in s.scan()[0]] == ["intact"] * 3
    s.close()


@pytest.mark.parametrize("value,reads", [
    ({"car": ["buying", "maint"]}, True),
    ({"car": 5}, False),
    ({"car": ["buying", 3]}, False),
])
def test_the_attributes_record_holds_lists_of_names(value, reads):
    """The data sets' attribute names (meta `attributes`) read back only as lists of names: anything
    else is a damaged record (one line naming salvage), never an error in the code that reads it."""
    from bncbench.engine.store import meta_problem

    problem = meta_problem("attributes", json.dumps(value))
    assert (problem is None) == reads, problem
