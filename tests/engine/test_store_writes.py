"""Store writes: the tasks of one unit in one transaction (`Store.put_many`), written by the
runner's background writer; a failed write stores nothing of its unit and stops the run."""

import sqlite3

import numpy as np
import pytest

from bncbench.engine.output import TaskOutput
from bncbench.engine.store import Store


def _output(seed: int, n: int = 30, k: int = 3) -> TaskOutput:
    rng = np.random.default_rng(seed)
    p = rng.random((n, k))
    return TaskOutput(np.arange(0, 2 * n, 2), np.arange(n) % k, p / p.sum(axis=1, keepdims=True), 0.5, 0.25,
                      {"seed": seed}, None)


def _db(store: Store) -> sqlite3.Connection:
    """The store's open connection."""
    assert store.db is not None
    return store.db


def _unit(labels=("NB", "TAN", "AODE"), seed=0, dataset="d"):
    return [(f"key-{label}", dataset, label, 0, 1, _output(seed + i), ["a", "b", "c"])
            for i, label in enumerate(labels)]


def test_put_many_is_one_transaction_sharing_the_split(tmp_path):
    store = Store(tmp_path)
    statements: list[str] = []
    _db(store).set_trace_callback(statements.append)
    store.put_many(_unit())
    _db(store).set_trace_callback(None)
    assert sum(s.strip().upper().startswith("COMMIT") for s in statements) == 1
    assert _db(store).execute("SELECT count(*) FROM splits").fetchone() == (1,)
    got = store.get([f"key-{x}" for x in ("NB", "TAN", "AODE")])
    assert len(got) == 3
    for i, label in enumerate(("NB", "TAN", "AODE")):
        r, out = got[f"key-{label}"], _output(i)
        assert r.info == {"seed": i} and r.fold == 1 and r.train_time == 0.5
        np.testing.assert_array_equal(r.pred, out.proba.argmax(axis=1))
        assert r.proba is not None
        np.testing.assert_allclose(r.proba, out.proba, rtol=1e-6)
    store.close()


def test_put_many_replaces_by_key_and_put_is_a_one_task_batch(tmp_path):
    store = Store(tmp_path)
    store.put_many(_unit(seed=0))
    before = store.get(["key-TAN"])["key-TAN"]
    store.put("key-TAN", "d", "TAN", 0, 1, _output(7), ["a", "b", "c"])
    after = store.get(["key-TAN", "key-NB"])
    assert after["key-TAN"].info == {"seed": 7} and after["key-NB"].info == {"seed": 0}
    assert before.proba is not None and after["key-TAN"].proba is not None
    assert not np.array_equal(before.proba, after["key-TAN"].proba)
    assert _db(store).execute("SELECT count(*) FROM tasks").fetchone() == (3,)
    store.close()


def test_a_failed_unit_write_stores_none_of_its_tasks(tmp_path):
    store = Store(tmp_path)
    bad = _unit()
    bad[2] = bad[2][:1] + (None,) + bad[2][2:]  # dataset NULL: the third insert fails
    with pytest.raises(sqlite3.IntegrityError):
        store.put_many(bad)
    assert store.done_keys() == set()
    assert _db(store).execute("SELECT count(*) FROM splits").fetchone() == (0,)
    store.put_many(_unit())  # the connection is usable afterwards
    assert len(store.done_keys()) == 3
    store.close()


def test_writer_error_stops_the_run_and_keeps_finished_units(tmp_path, monkeypatch):
    from bncbench import config
    from bncbench.engine import runner

    exp = config.parse("datasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB, TAN]\n")
    calls = []
    real = Store.put_many

    def failing(self, tasks):
        calls.append(len(tasks))
        if len(calls) == 2:
            raise sqlite3.OperationalError("disk I/O error")
        real(self, tasks)

    monkeypatch.setattr(Store, "put_many", failing)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        runner.run(exp, str(tmp_path / "res"), quiet=True, log=lambda *a: None)
    assert calls[:2] == [2, 2]  # one call per unit, with both classifiers
    monkeypatch.setattr(Store, "put_many", real)
    store = Store(tmp_path / "res", readonly=True)
    assert len(store.done_keys()) == 2  # the first unit only
    store.close()
    again = runner.run(exp, str(tmp_path / "res"), quiet=True, log=lambda *a: None)
    assert again["skipped"] == 2 and again["run"] == 4


def test_outputs_encoded_by_a_worker_are_stored_as_the_driver_would_store_them(tmp_path):
    """Worker processes send `EncodedOutput`s (codec.encode runs where the unit ran); the rows
    must equal those of TaskOutputs encoded by the driver's writer."""
    from bncbench.engine.store import EncodedOutput

    tasks = _unit()
    as_worker = [(*t[:5], EncodedOutput.of(t[5], t[6]), t[6]) for t in tasks]
    rows = []
    for name, batch in (("driver", tasks), ("worker", as_worker)):
        store = Store(tmp_path / name)
        store.put_many(batch)
        rows.append([_db(store).execute("SELECT * FROM splits").fetchall(),
                     _db(store).execute("SELECT key, dataset, label, run, fold, split, n_classes, pred, proba, sums, "
                                      "train_time, test_time, info FROM tasks ORDER BY key").fetchall()])
        store.close()
    assert rows[0] == rows[1] and len(rows[0][1]) == 3
