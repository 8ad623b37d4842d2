"""The results store and runs: --fresh scope, code fingerprints, read-only reading, reports over
the whole store, incomplete stores, repeated-run metrics, fold count checks, compact storage,
export, progress lines."""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from tests.support.cli import SMALL, bnc, bnc_in, run_store

if TYPE_CHECKING:  # bncbench is imported inside the tests
    from bncbench.engine.output import TaskOutput

ROOT = Path(__file__).resolve().parents[2]

N_TASKS = 3 * 3 * 3 * 2  # data sets × classifiers × folds × runs


def tasks(res: Path) -> dict:
    """{key: (dataset, label, run, fold, finished, rowid)} read straight from the SQLite file."""
    with sqlite3.connect(res / "results.sqlite") as c:
        return {r[0]: r[1:] for r in c.execute("SELECT key, dataset, label, run, fold, finished, rowid FROM tasks")}


@pytest.fixture(scope="module")
def small_store(tmp_path_factory):
    res = run_store(tmp_path_factory, "store", SMALL)
    return res.parent / "config.yaml", res


def copy_store(small_store, tmp_path) -> tuple[Path, Path]:
    cfg, res = small_store
    shutil.copytree(res, tmp_path / "res")
    return cfg, tmp_path / "res"


def test_fresh_recomputes_only_this_invocations_tasks(small_store, tmp_path):
    cfg, res = copy_store(small_store, tmp_path)
    before = tasks(res)
    assert len(before) == N_TASKS
    r = bnc_in("run", cfg, "--results", res, "--fresh", "--classifiers", "NB", "--datasets", "iris", check=True)
    assert "6 tasks run (6 replacing stored results, --fresh), 0 already finished" in r.stderr
    after = tasks(res)
    assert set(after) == set(before)  # same identities: NB/iris recomputed, everything else kept
    for key, row in before.items():
        recomputed = row[0] == "iris" and row[1] == "NB"
        # rowid changes when a row is deleted and inserted again, never for kept rows
        assert (after[key][5] != row[5]) == recomputed, row
    # the report covers the whole store, not only the subset of the last run
    md = bnc_in("report", res, check=True)
    assert md.stderr == ""
    for name in ("iris", "labor-negotiations", "car", "NB", "KDB1", "AODE"):
        assert name in md.stdout
    assert "n/a" not in md.stdout


def test_interrupted_fresh_run_loses_nothing(small_store, tmp_path):
    """--fresh replaces each stored result only when its new one is stored: killed half-way, the
    store still holds every task, and a plain run then has nothing to do."""
    cfg, res = copy_store(small_store, tmp_path)
    before = tasks(res)
    top = max(row[5] for row in before.values())
    env = dict(os.environ, BNCBENCH_MIRROR="")  # no mirror, not even the default
    proc = subprocess.Popen([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(res), "--fresh",
                             "--quiet"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen, replaced = [], 0
    try:
        while proc.poll() is None and replaced < 10:
            try:
                now = tasks(res)
            except sqlite3.OperationalError:  # busy: try again
                continue
            seen.append(len(now))
            replaced = sum(1 for row in now.values() if row[5] > top)
    finally:
        proc.kill()
        proc.wait()
    assert seen and all(n == N_TASKS for n in seen), seen
    assert len(tasks(res)) == N_TASKS
    r = bnc_in("run", cfg, "--results", res, check=True)
    assert "0 tasks run, 54 already finished" in r.stderr


def test_fingerprint_reruns_only_the_edited_classifier(tmp_path):
    """A copy of the package: editing tan.py re-runs TAN's and STAN's tasks only; a comment edit
    re-runs nothing."""
    pkg = tmp_path / "pkg"
    shutil.copytree(ROOT / "bncbench", pkg / "bncbench", ignore=shutil.ignore_patterns("__pycache__"))
    env = {"PYTHONPATH": str(pkg), "BNCBENCH_CACHE": str(tmp_path / "cache")}
    where = subprocess.run([sys.executable, "-c", "import bncbench; print(bncbench.__file__)"],
                           env={**os.environ, **env}, capture_output=True, text=True, cwd=tmp_path).stdout.strip()
    assert where.startswith(str(pkg)), where
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: ['synth:300x5x3:4']\ncv: {folds: 4}\n"
                   "classifiers: [NB, TAN, {name: STAN, ranking: mi}, {name: KDB, k: 1}]\n")
    res = tmp_path / "res"
    r = bnc("run", cfg, "--results", res, env=env, cwd=tmp_path, check=True)
    assert "16 tasks run, 0 already finished" in r.stderr
    tan = pkg / "bncbench" / "classifiers" / "tan" / "tan.py"
    tan.write_text(tan.read_text() + "\n# a comment only\n")
    nb = pkg / "bncbench" / "classifiers" / "nb" / "nb.py"
    nb.write_text(nb.read_text().replace('"""', '"""Docstring edit. ', 1))
    r = bnc("run", cfg, "--results", res, env=env, cwd=tmp_path, check=True)
    assert "0 tasks run, 16 already finished" in r.stderr
    tan.write_text(tan.read_text() + "\n_EDITED = 1\n")
    r = bnc("run", cfg, "--results", res, env=env, cwd=tmp_path, check=True)
    assert "8 tasks run, 8 already finished" in r.stderr  # TAN and STAN (which imports TAN)
    counts: dict[str, int] = {}
    for row in tasks(res).values():
        counts[row[1]] = counts.get(row[1], 0) + 1
    assert counts == {"NB": 4, "TAN": 8, "STAN": 8, "KDB": 4}  # old TAN/STAN tasks stay, not reported
    csv = bnc("report", res, "--format", "csv", env=env, cwd=tmp_path, check=True).stdout
    assert len(csv.strip().splitlines()) == 1 + 4
    # metric aggregation is computed at report time: editing it re-runs nothing ...
    metrics = pkg / "bncbench" / "evaluate" / "metrics.py"
    metrics.write_text(metrics.read_text() + "\n_EDITED = 1\n")
    r = bnc("run", cfg, "--results", res, env=env, cwd=tmp_path, check=True)
    assert "0 tasks run, 16 already finished" in r.stderr
    # ... but the per-instance terms are summed when a task is stored: editing them re-runs all
    terms = pkg / "bncbench" / "evaluate" / "terms.py"
    terms.write_text(terms.read_text() + "\n_EDITED = 1\n")
    r = bnc("run", cfg, "--results", res, env=env, cwd=tmp_path, check=True)
    assert "16 tasks run, 0 already finished" in r.stderr


def test_fingerprint_of_a_class_outside_the_package(tmp_path, monkeypatch):
    from bncbench.engine import fingerprint

    mod = tmp_path / "my_clf.py"
    mod.write_text("from bncbench.classifiers.nb.nb import NB\n\nclass MyNB(NB):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    m = importlib.import_module("my_clf")
    first = fingerprint.code_fingerprint(m.MyNB)
    assert "bncbench.classifiers.nb.nb" in fingerprint.closure(["my_clf"])
    mod.write_text("from bncbench.classifiers.nb.nb import NB\n\nclass MyNB(NB):\n    X = 2\n")
    fingerprint._module_digest.cache_clear()
    fingerprint.code_fingerprint.cache_clear()
    assert fingerprint.code_fingerprint(m.MyNB) != first


def _read_only_runner(folder: Path):
    """A function running bncbench with `folder` on a read-only mount (root: a bind mount in a
    private mount namespace) or, for other users, without write permission."""
    env = dict(os.environ, BNCBENCH_MIRROR="")  # no mirror, not even the default
    if os.geteuid() != 0:
        os.chmod(folder / "results.sqlite", 0o444)
        os.chmod(folder, 0o555)
        return lambda *args: subprocess.run([sys.executable, "-m", "bncbench", *map(str, args)],
                                            capture_output=True, text=True, env=env)
    probe = subprocess.run(["unshare", "--mount", "sh", "-c", f"mount --bind -o ro '{folder}' '{folder}' && "
                            f"! touch '{folder}/probe' 2>/dev/null"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no way to mount a folder read-only here (unshare --mount)")
    cmd = f"mount --bind -o ro '{folder}' '{folder}' && exec \"$@\""
    return lambda *args: subprocess.run(["unshare", "--mount", "sh", "-c", cmd, "sh", sys.executable, "-m",
                                         "bncbench", *map(str, args)], capture_output=True, text=True, env=env)


def test_a_class_without_source_is_refused(monkeypatch):
    import types

    from bncbench.engine import fingerprint
    from bncbench.errors import UserError

    mod = types.ModuleType("typed_in_a_session")
    exec("from bncbench.classifiers.nb.nb import NB\nclass Mine(NB):\n    pass\n", mod.__dict__)
    monkeypatch.setitem(sys.modules, "typed_in_a_session", mod)
    with pytest.raises(UserError, match="source file cannot be read"):
        fingerprint.code_fingerprint(mod.Mine)


def test_results_of_other_worker_code_are_refused():
    from bncbench import config
    from bncbench.engine import runner
    from bncbench.errors import UserError

    exp = config.parse("datasets: [iris]\ncv: {folds: 2}\nclassifiers: [NB, TAN]\n")
    datasets = runner.load_available(exp, False, print)
    units, _ = runner.plan(exp, datasets)
    outputs, worker = runner.run_unit_on_worker(units[0], runner.PlannedData.of(datasets), exp.preprocess,
                                                exp.cv)
    assert len(outputs) == 2 and set(worker) == {"at", "pid", "NB", "TAN"}
    runner.check_worker_code(units[0], worker)  # the same code: accepted
    with pytest.raises(UserError, match="other code for TAN"):
        runner.check_worker_code(units[0], {**worker, "TAN": "0" * 64})


def test_report_says_which_cells_no_config_ran_and_mixed_protocols(tmp_path):
    (tmp_path / "a.yaml").write_text("name: a\ndatasets: [iris, car]\ncv: {folds: 3}\nclassifiers: [NB]\n")
    (tmp_path / "b.yaml").write_text("name: b\ndatasets: [iris]\ncv: {folds: 5}\nclassifiers: [NB, TAN]\n")
    for cfg in ("a.yaml", "b.yaml"):
        bnc_in("run", tmp_path / cfg, "--results", tmp_path / "r", "--quiet", check=True)
    r = bnc_in("report", tmp_path / "r", check=True)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "incomplete" not in lines[0]
    assert "1 cell(s) were never run in this folder (n/a): car × TAN" in lines[0]
    assert "2 configs with different preprocessing or folds (b, a)" in lines[0]
    assert bnc_in("report", tmp_path / "r", "--datasets", "iris", check=True).stderr == ""  # one protocol only


def test_reading_commands_open_the_store_read_only(small_store, tmp_path):
    _, res = copy_store(small_store, tmp_path)
    ref = bnc_in("report", res, "--metric", "rmse", "--format", "csv", check=True).stdout
    # the store file path works as well as the folder
    assert bnc_in("report", res / "results.sqlite", "--metric", "rmse", "--format", "csv", check=True).stdout == ref
    assert sorted(p.name for p in res.iterdir()) == ["results.sqlite"]  # the writer left one file
    run_ro = _read_only_runner(res)
    try:
        r = run_ro("report", res, "--metric", "rmse", "--format", "csv")
        assert r.returncode == 0 and r.stdout == ref, r.stderr
        r = run_ro("wdl", res / "results.sqlite", "--format", "csv")
        assert r.returncode == 0 and r.stdout.startswith("row,column,wins,draws,losses,p"), r.stderr
        r = run_ro("export", res, "--format", "csv", "--out", tmp_path / "exported")
        assert r.returncode == 0, r.stderr
        assert sorted(p.name for p in res.iterdir()) == ["results.sqlite"]
    finally:
        os.chmod(res, 0o755)
        os.chmod(res / "results.sqlite", 0o644)


def test_interrupted_store_on_a_read_only_mount_is_refused_not_misread(small_store, tmp_path):
    """A killed run leaves finished tasks in results.sqlite-wal; where SQLite cannot read that
    file (read-only folder without the -shm file) the reader says so instead of dropping them."""
    _, res = copy_store(small_store, tmp_path)
    copy = tmp_path / "copy"
    copy.mkdir()
    writer = sqlite3.connect(res / "results.sqlite")  # a writer that has not checkpointed yet
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("DELETE FROM tasks WHERE dataset = 'car'")  # a change that lives only in the -wal file
    writer.commit()
    for name in ("results.sqlite", "results.sqlite-wal"):
        shutil.copy(res / name, copy / name)
    writer.close()
    run_ro = _read_only_runner(copy)
    try:
        r = run_ro("report", copy)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "interrupted" in r.stderr and "results.sqlite-wal" in r.stderr
    finally:
        os.chmod(copy, 0o755)
        os.chmod(copy / "results.sqlite", 0o644)
    writable = bnc_in("report", copy, "--format", "csv", check=True)  # writable: SQLite reads the -wal file
    assert "car,NB,zol,,\n" in writable.stdout


def test_incomplete_store_gives_one_summary_line(small_store, tmp_path):
    _, res = copy_store(small_store, tmp_path)
    with sqlite3.connect(res / "results.sqlite") as c:
        c.execute("DELETE FROM tasks WHERE dataset = 'car' AND label = 'AODE' AND run = 1")
    r = bnc_in("report", res, check=True)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "51 of 54 tasks finished" in lines[0] and "car" in lines[0]
    assert "n/a" in r.stdout


def test_repeated_run_metric_on_one_run_store_is_an_error(tmp_path):
    cfg = tmp_path / "one.yaml"
    cfg.write_text("datasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB]\n")
    bnc_in("run", cfg, "--results", tmp_path / "r", "--quiet", check=True)
    for metric in ("bias", "variance"):
        r = bnc_in("report", tmp_path / "r", "--metric", metric)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "repeated runs" in r.stderr
        assert r.stdout == ""


def test_more_folds_than_instances_is_an_error(tmp_path):
    cfg = tmp_path / "f.yaml"
    cfg.write_text("datasets: [iris]\ncv: {folds: 500}\nclassifiers: [NB]\n")
    r = bnc_in("run", cfg, "--results", tmp_path / "r")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "iris" in r.stderr and "150 instances" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "r").exists()


def test_old_store_format_is_named(tmp_path):
    (tmp_path / "r").mkdir()
    with sqlite3.connect(tmp_path / "r" / "results.sqlite") as c:  # format 1 (bncbench 0.2)
        c.execute("CREATE TABLE tasks (key TEXT PRIMARY KEY, dataset TEXT, label TEXT, run INTEGER, fold INTEGER, "
                  "n_classes INTEGER, test_index BLOB, y_true BLOB, proba BLOB, train_time REAL, test_time REAL, "
                  "info TEXT, finished TEXT)")
        c.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    old = (tmp_path / "r" / "results.sqlite").read_bytes()
    r = bnc_in("report", tmp_path / "r")
    assert r.returncode == 2 and "store format 1" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB]\n")
    r = bnc_in("run", cfg, "--results", tmp_path / "r")
    assert r.returncode == 2 and "store format 1" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert (tmp_path / "r" / "results.sqlite").read_bytes() == old  # refused before anything is written


def _oracle_metrics(y: np.ndarray, p: np.ndarray) -> dict:
    """Plain per-instance definitions (docs/algorithms.md §5) in Python floats."""
    n, c = p.shape
    zol = sum(1 for i in range(n) if max(range(c), key=lambda k: (p[i, k], -k)) != y[i]) / n
    rmse = (sum((1 - p[i, y[i]]) ** 2 for i in range(n)) / n) ** 0.5
    rmse_all = (sum(sum(((1.0 if k == y[i] else 0.0) - p[i, k]) ** 2 for k in range(c)) / c
                    for i in range(n)) / n) ** 0.5
    cll = sum(float(np.log(max(p[i, y[i]], 1e-15))) for i in range(n))
    return {"zol": zol, "rmse": rmse, "rmse_all": rmse_all, "cll": cll}


def test_compact_store_keeps_float64_values(tmp_path):
    """Per-fold metric values read back from the store equal the plain definitions applied to the
    float64 probabilities the classifiers produced (before float32 storage)."""
    from bncbench import config, results
    from bncbench.engine import runner
    from bncbench.engine.entries import entry_of
    from bncbench.engine.units import run_unit

    text = "name: t\ndatasets: [iris, car]\ncv: {folds: 3}\nclassifiers: [NB, {name: KDB, k: 2}]\n"
    exp = config.parse(text)
    stats = runner.run(exp, str(tmp_path / "r"), quiet=True, log=lambda *_: None)
    assert stats["run"] == 2 * 2 * 3
    direct: dict[tuple[str, str, int], TaskOutput] = {}
    units, _ = runner.plan(config.parse(text), runner.load_available(config.parse(text), False, print))
    for u in units:
        for spec, out in zip(u.classifiers, run_unit(u, [entry_of(c) for c in u.classifiers], exp.preprocess, exp.cv)):
            direct[(u.dataset.name, spec.label, u.fold)] = out
    r = results.open(tmp_path / "r")
    assert len(r.tasks) == 12 and r.tasks["current"].all()
    row: Any  # a pandas row: its fields are the tasks table's columns
    for row in r.tasks.itertuples():
        out = direct[(row.dataset, row.label, row.fold)]
        want = _oracle_metrics(out.y_true, out.proba)
        for m, v in want.items():
            assert getattr(row, m) == pytest.approx(v, rel=1e-12, abs=1e-12), (row.dataset, row.label, m)
        pred = r.predictions(row.dataset)
        part = pred[(pred["label"] == row.label) & (pred["fold"] == row.fold)]
        assert part["row"].tolist() == out.test_index.tolist()
        columns = [c for c in pred.columns if c not in ("label", "run", "fold", "row", "true", "predicted")]
        assert all(c.startswith("P(") and c.endswith(")") for c in columns)
        assert np.allclose(part[columns].to_numpy(), out.proba, rtol=1e-6, atol=1e-7)
        names = np.asarray([c[2:-1] for c in columns], dtype=object)
        assert (part["predicted"].to_numpy() == names[np.argmax(out.proba, 1)]).all()


def test_export_parquet_and_csv(small_store, tmp_path):
    import pandas as pd
    _, res = small_store
    r = bnc_in("export", res, "--format", "parquet", "--predictions", "--out", tmp_path / "pq", check=True)
    assert "wrote 4 file(s)" in r.stderr
    t = pd.read_parquet(tmp_path / "pq" / "tasks.parquet")
    assert list(t.columns[:12]) == ["dataset", "label", "run", "fold", "n_test", "train_time", "test_time",
                                    "zol", "rmse", "rmse_all", "cll", "logloss"]
    assert len(t) == N_TASKS and list(dict.fromkeys(t["dataset"])) == ["iris", "labor-negotiations", "car"]
    p = pd.read_parquet(tmp_path / "pq" / "predictions-iris.parquet")
    assert list(p.columns) == ["label", "run", "fold", "row", "true", "predicted",
                               "P(Iris-setosa)", "P(Iris-versicolor)", "P(Iris-virginica)"]
    assert len(p) == 150 * 3 * 2 and set(p["true"]) == {"Iris-setosa", "Iris-versicolor", "Iris-virginica"}
    assert np.allclose(p.iloc[:, 6:].sum(axis=1), 1.0, atol=1e-6)
    bnc_in("export", res, "--format", "csv", "--out", tmp_path / "csv", check=True)
    c = pd.read_csv(tmp_path / "csv" / "tasks.csv")
    assert np.allclose(c["rmse"], t["rmse"], rtol=1e-15)
    bad = bnc_in("export", res, "--format", "xlsx", "--out", tmp_path / "x")
    assert bad.returncode == 2 and "Invalid value for '--format'" in bad.stderr  # a closed choice: click's usage error
    assert not (tmp_path / "x").exists()


def test_export_of_awkward_names(tmp_path):
    """Class names that equal column names, a data-set name with a slash, readable files."""
    import pandas as pd
    rng = np.random.default_rng(3)
    rows = ["a,b,class"] + [f"{rng.integers(3)},{rng.integers(2)},{'true' if rng.random() < .5 else 'label'}"
                            for _ in range(40)]
    (tmp_path / "d.csv").write_text("\n".join(rows) + "\n")
    cfg = tmp_path / "u.yaml"
    cfg.write_text("datasets: [{name: num/classes, path: d.csv}, {name: num_classes, path: d.csv}]\n"
                   "cv: {folds: 2}\nclassifiers: [NB]\n")
    bnc_in("run", cfg, "--results", tmp_path / "r", "--quiet", check=True)
    for fmt in ("parquet", "csv"):
        r = bnc_in("export", tmp_path / "r", "--format", fmt, "--predictions", "--out", tmp_path / fmt, check=True)
        assert "wrote 3 file(s)" in r.stderr
        files = sorted(p.name for p in (tmp_path / fmt).iterdir())
        assert files == [f"predictions-num%2Fclasses.{fmt}", f"predictions-num_classes.{fmt}", f"tasks.{fmt}"]
        for f in (tmp_path / fmt).iterdir():
            assert f.stat().st_mode & 0o044 == 0o044 & ~os.umask(os.umask(0))  # as readable as any new file
        read = pd.read_parquet if fmt == "parquet" else pd.read_csv
        p = read(tmp_path / fmt / f"predictions-num_classes.{fmt}")
        assert list(p.columns) == ["label", "run", "fold", "row", "true", "predicted", "P(label)", "P(true)"]
        assert set(p["true"]) == {"true", "label"} and len(p) == 40


def test_plain_progress_is_one_line_per_data_set(tmp_path):
    cfg = tmp_path / "p.yaml"
    cfg.write_text(SMALL)
    r = bnc_in("run", cfg, "--results", tmp_path / "r", check=True)  # stderr is a pipe, not a terminal
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 3 + 1, lines  # one per data set, then the summary
    assert [ln.split("] ")[1].split(" done")[0] for ln in lines[:3]] == ["iris", "labor-negotiations", "car"]
    # one unit of every data set runs first (the ETA's measurements): iris ends after its 18 tasks and the
    # first unit (3 tasks) of each other data set
    assert lines[0].startswith("[24/54] iris done (") and lines[2].startswith("[54/54] car done (")
    assert lines[3].startswith("done: 54 tasks run, 0 already finished (0:")
    assert "ETA 0:00" not in r.stderr  # no estimate that says nothing
    again = bnc_in("run", cfg, "--results", tmp_path / "r", check=True)
    assert again.stderr.strip().splitlines() == [f"done: 0 tasks run, 54 already finished (0:00); results in "
                                                 f"{tmp_path / 'r'}"]


def test_layout_records_skipped_data_sets_until_one_is_loaded():
    """merge_layout keeps what each run skipped ({data set: files}, reports say "not available")
    and forgets a data set as soon as a run loads it."""
    from bncbench import config
    from bncbench.engine.runner import merge_layout

    text = SMALL.replace("[iris, labor-negotiations, car]", "[iris, phoneme, car]")
    exp = config.parse(text)
    exp.datasets = [d for d in exp.datasets if d.name != "phoneme"]  # as load_available leaves it
    first = merge_layout(None, exp, {"iris\tNB": ["k1"]}, {"phoneme": "phoneme/phoneme.arff"})
    assert first["unavailable"] == {"phoneme": "phoneme/phoneme.arff"}
    assert first["datasets"] == ["iris", "phoneme", "car"]
    # a run of iris only keeps the record of phoneme
    only_iris = config.parse(text)
    only_iris.datasets = [d for d in only_iris.datasets if d.name == "iris"]
    assert merge_layout(first, only_iris, {"iris\tNB": ["k2"]})["unavailable"] == {"phoneme": "phoneme/phoneme.arff"}
    # a run that loads phoneme forgets it
    loaded = merge_layout(first, config.parse(text), {"phoneme\tNB": ["k3"]})
    assert "unavailable" not in loaded and loaded["keys"]["phoneme\tNB"] == ["k3"]
