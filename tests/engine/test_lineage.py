"""The code lineage (engine/lineage.py): `run` carries over the tasks the previous version's code
stored, under their new keys, where a lineage record vouches for that code, and only there.

A store is written by this code; the "refactored" code is this code with engine/units.py's hash
changed (every task's key changes), and a fake record names this code as the previous version's."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bncbench import config
from bncbench.engine import fingerprint, lineage, runner
from bncbench.engine.store import Store

PKG = Path(fingerprint.__file__).resolve().parents[1]
UNITS, NB, TAN = "bncbench.engine.units", "bncbench.classifiers.nb.nb", "bncbench.classifiers.tan.tan"
CONFIG = """name: lineage
datasets: ['synth:60x4x2:1']
cv: {scheme: stratified, folds: 2, runs: 1, seed: 1}
classifiers: [NB, TAN]
"""


def modules() -> list[str]:
    """Every module of the bncbench package."""
    names = []
    for path in sorted(PKG.rglob("*.py")):
        parts = path.relative_to(PKG.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def forget() -> None:
    """Drop every fingerprint and record computed so far (the tests change both)."""
    for cached in (fingerprint.code_fingerprint, lineage.record, lineage.legacy_fingerprint):
        cached.cache_clear()


def store_then_refactor(monkeypatch, tmp_path: Path, text: str = CONFIG, *,
                        before_refactor: Callable[[], None] = lambda: None) -> tuple[Path, Callable[..., None]]:
    """A store run by this code from config `text`, then (after `before_refactor`) this code
    "refactored": engine/units.py hashes differently from now on. Returns (results folder,
    write_record), where write_record(previous, current) ships a record whose two sides are this
    code's digests (bncbench modules) as those functions edit them."""
    forget()
    res = tmp_path / "res"
    assert runner.run(config.parse(text), str(res), quiet=True, log=lambda *a: None)["failed"] == 0
    before_refactor()
    real = fingerprint._module_digest
    digests = {m: [real(m)[0], sorted(real(m)[1])] for m in modules()}

    def edited(name: str) -> tuple[str, frozenset[str]]:
        digest, deps = real(name)
        return ("refactored" if name == UNITS else digest), deps

    monkeypatch.setattr(fingerprint, "_module_digest", edited)
    forget()

    def write_record(previous: Callable[[dict], None] = lambda d: None,
                     current: Callable[[dict], None] = lambda d: None) -> None:
        sides = {"previous": json.loads(json.dumps(digests)), "current": json.loads(json.dumps(digests))}
        sides["current"][UNITS][0] = "refactored"
        previous(sides["previous"])
        current(sides["current"])
        path = tmp_path / "lineage.json"
        path.write_text(json.dumps({"commit": "0" * 40, "roots": list(fingerprint.PIPELINE_MODULES), **sides}))
        monkeypatch.setattr(lineage, "RECORD", path)
        forget()

    return res, write_record


@pytest.fixture
def refactored(monkeypatch, tmp_path):
    """`store_then_refactor` of CONFIG (4 tasks: NB, TAN × 2 folds)."""
    yield store_then_refactor(monkeypatch, tmp_path)
    monkeypatch.undo()
    forget()


def rerun(res: Path) -> tuple[dict, list[str]]:
    lines: list[str] = []
    stats = runner.run(config.parse(CONFIG), str(res), log=lines.append)
    return stats, lines


def stored(res: Path) -> dict[str, tuple]:
    """{key: (label, fold, pred, sums)} of every stored task."""
    with sqlite3.connect(res / "results.sqlite") as c:
        return {r[0]: r[1:] for r in c.execute("SELECT key, label, fold, pred, sums FROM tasks")}


def test_carried_over_under_the_new_keys(refactored):
    res, write_record = refactored
    before = stored(res)
    write_record()
    stats, lines = rerun(res)
    assert (stats["run"], stats["skipped"]) == (0, 4)
    assert "4 tasks carried over from the previous version's code (bncbench at commit 0000000)" in lines
    after = stored(res)
    planned = runner.plan(config.parse(CONFIG), runner.load_available(config.parse(CONFIG), False, print, True))[1]
    assert set(after) == {k for keys in planned.values() for k in keys}
    assert not set(after) & set(before)  # every key changed with units.py
    assert sorted(after.values()) == sorted(before.values())  # the same results, moved
    s = Store(res, readonly=True)
    states = [t[-1] for t in s.scan()[0]]
    s.close()
    assert states == ["intact"] * 4  # each checksum made for its new key
    stats, lines = rerun(res)
    assert (stats["run"], stats["skipped"], lines) == (0, 4, [])  # carried once


def _lose(module: str) -> Callable[[dict], None]:
    return lambda side: side.pop(module)


def _edit(module: str) -> Callable[[dict], None]:
    return lambda side: side[module].__setitem__(0, "0" * 64)


@pytest.mark.parametrize(("previous", "current", "computed"), [
    # the previous version's TAN was other code than what stored these tasks: TAN's computed again
    (_edit(TAN), None, {"TAN"}),
    # the record is not of this code (an edit of units.py since it was made): nothing is carried over
    (None, lambda side: side[UNITS].__setitem__(0, "edited since"), {"NB", "TAN"}),
    # a module the record lacks, on either side: no legacy key for the classes whose closure has it
    (_lose(NB), None, {"NB"}),
    (None, _lose(TAN), {"TAN"}),
])
def test_not_carried_over(refactored, previous, current, computed):
    res, write_record = refactored
    write_record(previous or (lambda d: None), current or (lambda d: None))
    stats, lines = rerun(res)
    carried = 4 - 2 * len(computed)
    assert (stats["run"], stats["skipped"]) == (2 * len(computed), carried)
    assert [x for x in lines if "carried over" in x] == \
        ([f"{carried} tasks carried over from the previous version's code (bncbench at commit 0000000)"]
         if carried else [])
    assert sorted(r[0] for r in stored(res).values()).count("NB") == (2 if "NB" not in computed else 4)


def test_a_damaged_task_is_not_carried_over(refactored):
    res, write_record = refactored
    with sqlite3.connect(res / "results.sqlite") as c:
        key = c.execute("SELECT key FROM tasks WHERE label = 'NB' AND fold = 0").fetchone()[0]
        c.execute("UPDATE tasks SET sums = '{}' WHERE key = ?", (key,))
    write_record()
    s = Store(res)
    moved = s.rekey({"new": key})
    s.close()
    assert moved == set()  # fails its checksum: left where it is
    stats, lines = rerun(res)
    assert (stats["run"], stats["skipped"]) == (1, 3)
    assert "3 tasks carried over from the previous version's code (bncbench at commit 0000000)" in lines


def test_fresh_carries_nothing_over(refactored):
    res, write_record = refactored
    write_record()
    lines: list[str] = []
    stats = runner.run(config.parse(CONFIG), str(res), fresh=True, log=lines.append)
    assert (stats["run"], stats["skipped"]) == (4, 0)
    assert not [x for x in lines if "carried over" in x]


PLUGIN = """from bncbench.classifiers.nb.nb import NB

VERSION = {version}


class Chain(NB):
    pass
"""


@pytest.mark.parametrize("edited", [False, True])
def test_a_plugin_is_carried_over_while_its_own_code_is_the_same(monkeypatch, tmp_path, edited):
    """A researcher's classifier is fingerprinted as it is now, the bncbench modules it imports as
    recorded: its tasks are carried over unless its own module changed since they were stored."""
    plugin = tmp_path / "lineage_plugin.py"
    plugin.write_text(PLUGIN.format(version=1))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "lineage_plugin", raising=False)

    def edit(edited: bool) -> None:
        if edited:
            plugin.write_text(PLUGIN.format(version=2))
            fingerprint._module_digest.cache_clear()  # its digest as of version 1

    text = CONFIG.replace("[NB, TAN]", "[NB, {name: 'lineage_plugin:Chain', label: Chain}]")
    try:
        res, write_record = store_then_refactor(monkeypatch, tmp_path, text, before_refactor=lambda: edit(edited))
        write_record()
        lines: list[str] = []
        stats = runner.run(config.parse(text), str(res), log=lines.append)
    finally:
        monkeypatch.undo()
        forget()
    assert (stats["run"], stats["skipped"]) == ((2, 2) if edited else (0, 4))
    assert f"{2 if edited else 4} tasks carried over from the previous version's code (bncbench at commit " \
           f"0000000)" in lines
    assert sorted(r[0] for r in stored(res).values()) == ["Chain"] * (4 if edited else 2) + ["NB"] * 2


def test_shipped_record_reads_like_this_code():
    """Each module whose source is the same as at the record's commit has the recorded code hash:
    the record was made with this code's normalisation (engine/fingerprint.py)."""
    forget()
    previous = lineage.record()["previous"]
    same = [m for m in modules() if m in previous and previous[m][2] == hashlib.sha256(
        fingerprint._module_source(m)[0].encode()).hexdigest()]
    assert len(same) > 40, same  # most of the package is untouched by a refactor
    assert {m: fingerprint._module_digest(m)[0] for m in same} == {m: previous[m][0] for m in same}
    assert len(lineage.record()["commit"]) == 40


@pytest.mark.slow
def test_record_dump_is_this_codes_digests():
    """The record's entries, computed in a process of a tree's own code (`lineage._dump`), are the
    digests this process computes: code hash and bncbench imports."""
    dumped = lineage._dump(PKG.parent)
    assert dumped["roots"] == list(fingerprint.PIPELINE_MODULES)
    assert sorted(dumped["modules"]) == modules()
    assert {m: e[:2] for m, e in dumped["modules"].items()} == \
        {m: [fingerprint._module_digest(m)[0], sorted(fingerprint._module_digest(m)[1])] for m in modules()}
