"""Result identity (issue 19, item 2): which stored tasks a changed config re-runs.

A table of one-change edits of a small config (a synthetic set, a CSV and an ARFF of our own;
4 classifiers; 2 folds: 24 tasks), each run with `bncbench run` on a copy of the base store: the
edit must re-run exactly the tasks of the affected (data set, label) cells, all of them, and
nothing else; an unchanged re-run runs none. Then the data files' content and a catalog recipe
(in-process, the catalog patched), and `runner.task_key` itself: one row per input that must
change the key, and the inputs that must not (docs/architecture.md "Task identity")."""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.cli import bnc

if TYPE_CHECKING:  # bncbench is imported inside the tests
    from bncbench.data.dataset import Dataset
    from bncbench.experiment import DatasetSpec, Experiment

ROOT = Path(__file__).resolve().parents[2]

CSV = """x1,x2,c1,class
1.2,3.5,u,a
0.4,?,v,a
2.9,7.1,w,b
3.3,6.0,u,b
0.8,2.2,u,a
1.9,?,w,b
2.4,8.8,v,b
0.1,1.0,v,a
1.5,4.4,w,a
3.8,9.3,u,b
0.6,2.7,w,a
2.2,5.9,v,b
1.1,3.1,u,a
3.0,7.7,v,b
0.3,0.9,u,a
2.7,6.6,w,b
1.7,4.0,v,a
3.5,8.1,w,b
0.9,2.5,u,a
2.5,?,u,b
"""

ARFF = """% a small ARFF of our own
@relation other
@attribute colour {red,green,blue}
@attribute size numeric
@attribute weight numeric
@attribute class {yes,no}
@data
red,1.0,10.5,yes
green,2.5,11.0,no
blue,3.1,?,no
red,0.7,9.8,yes
green,2.2,12.4,no
red,1.4,10.1,yes
blue,3.6,13.0,no
green,1.8,10.9,yes
blue,2.9,12.2,no
red,0.9,9.5,yes
green,2.6,11.7,no
blue,1.2,10.0,yes
red,3.3,12.9,no
green,0.5,9.1,yes
blue,2.0,11.3,no
red,1.6,10.4,yes
"""

# every key of the config is set, so that each row of the table is a one-token edit
BASE = """# result identity: the base config
name: ident
description: base of the result-identity table
datasets:
  - 'synth:60x4x2:1'
  - {name: mine, path: mine.csv}
  - {name: other, path: other.arff, preprocess: {bins: 3}}
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, mdl_method: weka, scope: fold}
cv: {scheme: stratified, folds: 2, runs: 1, seed: 1}
estimator: mestimate
m: 1
classifiers:
  - {name: NB}
  - {name: KDB, k: 1, label: KDB1}
  - {name: STAN, ranking: mi}
  - {name: AODE, min_freq: 1, m: 2}
wdl: {draws: split, tails: two}
figures: {scatter: {a: NB, b: STAN}}
executor: {name: local, jobs: 1}
"""

DATASETS = ("synth:60x4x2:1", "mine", "other")
LABELS = ("NB", "KDB1", "STAN", "AODE")
N_BASE = len(DATASETS) * len(LABELS) * 2  # × 2 folds, 1 run
ALL = "*"


def tasks(res: Path) -> dict[str, tuple]:
    """{key: (dataset, label, run, fold)} of every stored task, read straight from SQLite."""
    with sqlite3.connect(res / "results.sqlite") as c:
        return {r[0]: r[1:] for r in c.execute("SELECT key, dataset, label, run, fold FROM tasks")}


def counts(stderr: str) -> tuple[int, int]:
    """(tasks run, already finished) of `bncbench run`'s closing line."""
    m = re.search(r"done: (\d+) tasks run, (\d+) already finished", stderr)
    assert m, stderr
    return int(m.group(1)), int(m.group(2))


def run(cfg: Path, res: Path, *extra, cwd=None) -> tuple[int, int]:
    return counts(bnc("run", cfg, "--results", res, "--jobs", "1", *extra, cwd=cwd, check=True).stderr)


def write_data(folder: Path) -> None:
    (folder / "mine.csv").write_text(CSV)
    (folder / "other.arff").write_text(ARFF)


def edit(text: str, old: str, new: str) -> str:
    """`text` with its one occurrence of `old` replaced (an edit that matches nothing or twice
    would make a row test something else)."""
    assert text.count(old) == 1, (old, text.count(old))
    return text.replace(old, new)


def cells(datasets, labels, per_cell: int) -> Counter:
    datasets = DATASETS if datasets == ALL else datasets
    labels = LABELS if labels == ALL else labels
    return Counter({(d, lab): per_cell for d in datasets for lab in labels})


def new_cells(before: dict, after: dict) -> Counter:
    """How many tasks of each (data set, label) cell a run added to the store."""
    return Counter(row[:2] for key, row in after.items() if key not in before)


@pytest.fixture(scope="module")
def base_store(tmp_path_factory):
    """The base config run once; each row writes its config beside it (the same data file paths,
    which are part of a user data set's identity) and runs on a copy of the store."""
    d = tmp_path_factory.mktemp("ident")
    write_data(d)
    (d / "base.yaml").write_text(BASE)
    assert run(d / "base.yaml", d / "res") == (N_BASE, 0)
    return d, d / "res", tasks(d / "res")


# (id, [(old, new), ...] edits of BASE, extra `run` arguments, expected re-run cells, planned
# tasks of the edited config); `planned` None: every data set × classifier × 2 folds
ROWS = [
    # a classifier's own setting re-runs that classifier only
    ("kdb-k", [("KDB, k: 1,", "KDB, k: 2,")], (), cells(ALL, ["KDB1"], 2)),
    ("stan-ranking", [("ranking: mi", "ranking: su")], (), cells(ALL, ["STAN"], 2)),
    ("aode-min_freq", [("min_freq: 1", "min_freq: 2")], (), cells(ALL, ["AODE"], 2)),
    ("nb-estimator", [("{name: NB}", "{name: NB, estimator: laplace}")], (), cells(ALL, ["NB"], 2)),
    ("kdb-m", [("KDB, k: 1,", "KDB, k: 1, m: 2,")], (), cells(ALL, ["KDB1"], 2)),
    ("aode-own-m", [("min_freq: 1, m: 2", "min_freq: 1, m: 3")], (), cells(ALL, ["AODE"], 2)),
    ("stan-info_precision", [("ranking: mi", "ranking: mi, info_precision: float32")], (), cells(ALL, ["STAN"], 2)),
    # the shared defaults re-run every classifier that takes them and sets no value of its own
    ("shared-estimator", [("estimator: mestimate", "estimator: laplace")], (), cells(ALL, ALL, 2)),
    ("shared-m", [("\nm: 1\n", "\nm: 3\n")], (), cells(ALL, ["NB", "KDB1", "STAN"], 2)),  # AODE sets m: 2
    ("shared-info_precision", [("\nm: 1\n", "\nm: 1\ninfo_precision: float32\n")], (),
     cells(ALL, ["KDB1", "STAN"], 2)),  # NB and AODE do not take info_precision
    # each preprocessing key re-runs every data set whose own settings do not fix it
    # (all of PreprocessSettings is in the key, also where a key has no effect: synth is nominal)
    ("missing-impute", [("missing: distinct", "missing: impute")], (), cells(ALL, ALL, 2)),
    ("missing-skip", [("missing: distinct", "missing: skip")], (), cells(ALL, ALL, 2)),
    ("discretizer", [("discretizer: eqfreq", "discretizer: mdl")], (), cells(ALL, ALL, 2)),
    ("bins", [("bins: 5", "bins: 4")], (), cells(["synth:60x4x2:1", "mine"], ALL, 2)),  # other: bins 3
    ("eqfreq_method", [("eqfreq_method: petal", "eqfreq_method: weka")], (), cells(ALL, ALL, 2)),
    ("mdl_method", [("mdl_method: weka", "mdl_method: petal")], (), cells(ALL, ALL, 2)),
    ("scope", [("scope: fold", "scope: global")], (), cells(ALL, ALL, 2)),
    ("dataset-override-changed", [("preprocess: {bins: 3}", "preprocess: {bins: 4}")], (), cells(["other"], ALL, 2)),
    ("dataset-override-added", [("path: mine.csv}", "path: mine.csv, preprocess: {scope: global}}")], (),
     cells(["mine"], ALL, 2)),
    # the folds
    ("cv-scheme", [("scheme: stratified", "scheme: petal")], (), cells(ALL, ALL, 2)),
    ("cv-folds", [("folds: 2", "folds: 3")], (), cells(ALL, ALL, 3)),
    ("cv-seed", [("seed: 1", "seed: 2")], (), cells(ALL, ALL, 2)),
    ("cv-runs-added", [("runs: 1", "runs: 2")], (), cells(ALL, ALL, 2)),  # run 1 only: run 0 is reused
    # cells
    ("label-renamed", [("label: KDB1", "label: KDB-one")], (), Counter({(d, "KDB-one"): 2 for d in DATASETS})),
    ("classifier-added", [("  - {name: AODE", "  - {name: TAN}\n  - {name: AODE")], (),
     Counter({(d, "TAN"): 2 for d in DATASETS})),
    ("dataset-added", [("  - {name: mine,", "  - 'synth:40x3x3:7'\n  - {name: mine,")], (),
     Counter({("synth:40x3x3:7", lab): 2 for lab in LABELS})),
    # what must re-run nothing
    ("unchanged", [], (), Counter()),
    ("description", [("description: base of", "description: another text for")], (), Counter()),
    ("name", [("name: ident", "name: renamed")], (), Counter()),
    ("comments", [("cv: {", "# a comment\ncv: {"), ("\nm: 1\n", "\nm: 1  # the m-estimate's m\n")], (), Counter()),
    ("figures", [("figures: {scatter: {a: NB, b: STAN}}",
                  "figures: {times: {classifiers: [KDB1]}, wdl: {metric: rmse}}")], (), Counter()),
    ("wdl", [("wdl: {draws: split, tails: two}", "wdl: {draws: ignore, tails: one, metric: rmse}")], (), Counter()),
    ("executor", [("jobs: 1}", "jobs: 2}")], (), Counter()),
    ("jobs-option", [], ("--jobs", "2"), Counter()),
    ("dataset-order", [("  - 'synth:60x4x2:1'\n  - {name: mine, path: mine.csv}\n",
                        "  - {name: mine, path: mine.csv}\n  - 'synth:60x4x2:1'\n")], (), Counter()),
    ("classifier-order", [("  - {name: NB}\n", ""), ("m: 2}\n", "m: 2}\n  - {name: NB}\n")], (), Counter()),
    ("m-spelled-as-float", [("\nm: 1\n", "\nm: 1.0\n")], (), Counter()),
    ("override-restating-the-config", [("path: mine.csv}", "path: mine.csv, preprocess: {bins: 5}}")], (), Counter()),
    ("subset-options", [], ("--datasets", "mine", "--classifiers", "NB,KDB1"), Counter()),
]
PLANNED = {"cv-folds": 36, "cv-runs-added": 48, "classifier-added": 30, "dataset-added": 32, "subset-options": 4}


@pytest.mark.parametrize("edits, extra, expected", [pytest.param(*r[1:], id=r[0]) for r in ROWS])
def test_one_change_reruns_exactly_its_cells(base_store, tmp_path, request, edits, extra, expected):
    d, base_res, before = base_store
    row = request.node.callspec.id
    text = BASE
    for old, new in edits:
        text = edit(text, old, new)
    cfg = d / f"{row}.yaml"  # beside the data files: their paths stay those of the base run
    cfg.write_text(text)
    res = tmp_path / "res"
    shutil.copytree(base_res, res)
    planned = PLANNED.get(row, N_BASE)
    n_run, n_done = run(cfg, res, *extra)
    added = new_cells(before, after := tasks(res))
    assert dict(added) == dict(expected)
    assert (n_run, n_done) == (sum(expected.values()), planned - sum(expected.values()))
    assert set(before) <= set(after)  # earlier results are kept (reports show the latest plan)
    if row == "cv-runs-added":
        assert {after[k][2] for k in after if k not in before} == {1}
    if expected:  # the new identities are stable: the edited config again runs nothing
        assert run(cfg, res, *extra) == (0, planned)


def test_a_parameter_at_its_default_is_the_same_task(base_store, tmp_path):
    """KDB's k: 1 written out or left out: the task key hashes the parameters over the class's
    defaults (runner.effective_params); it once hashed them as written and re-ran KDB1."""
    d, base_res, _ = base_store
    cfg = d / "k-default.yaml"
    cfg.write_text(edit(BASE, "{name: KDB, k: 1, label: KDB1}", "{name: KDB, label: KDB1}"))
    shutil.copytree(base_res, tmp_path / "res")
    assert run(cfg, tmp_path / "res") == (0, N_BASE)


@pytest.mark.parametrize("file, old, new, dataset", [
    pytest.param("mine.csv", "2.4,8.8,v,b", "2.4,8.9,v,b", "mine", id="csv-one-cell"),
    pytest.param("other.arff", "blue,3.1,?,no", "green,3.1,?,no", "other", id="arff-one-cell"),
])
def test_changed_data_file_reruns_that_data_set_only(tmp_path, file, old, new, dataset):
    write_data(tmp_path)
    cfg = tmp_path / "base.yaml"
    cfg.write_text(BASE)
    res = tmp_path / "res"
    assert run(cfg, res) == (N_BASE, 0)
    before = tasks(res)
    path = tmp_path / file
    path.write_text(edit(path.read_text(), old, new))
    assert run(cfg, res) == (8, N_BASE - 8)
    assert dict(new_cells(before, tasks(res))) == dict(cells([dataset], ALL, 2))


def test_same_config_from_another_folder_reruns_nothing(tmp_path):
    """The task key holds the files' contents, not the paths they were found at (a user's path is
    resolved from the current folder or the config's); it once re-ran every task of that data set."""
    d = tmp_path / "exp"
    d.mkdir()
    write_data(d)
    (d / "base.yaml").write_text(BASE)
    res = tmp_path / "res"
    assert run(Path("base.yaml"), res, cwd=d) == (N_BASE, 0)
    assert run(d / "base.yaml", res, cwd=tmp_path) == (0, N_BASE)


# --- a catalog entry's recipe: the catalog patched in this process (no mirror; iris is shipped)

@pytest.fixture
def patched_catalog(tmp_path, monkeypatch):
    """A function installing a changed copy of the catalog for this process (every cache of
    loaded data cleared), BNCBENCH_CACHE in tmp_path and no mirror."""
    from bncbench.data import catalog
    from bncbench.engine import units

    monkeypatch.setenv("BNCBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("BNCBENCH_MIRROR", "")  # no mirror, not even the default
    original = catalog._catalog()

    def clear():
        for f in (catalog._load_cached, units.load_dataset, units._global_cuts, units._all_codes, units._all_rows):
            f.cache_clear()

    def install(change=None):
        data = copy.deepcopy(original)
        if change:
            change(data["datasets"])
        monkeypatch.setattr(catalog, "_catalog", lambda: data)
        clear()

    clear()
    yield install
    monkeypatch.undo()
    clear()


def run_in_process(res: Path) -> tuple[dict, dict]:
    from bncbench import config
    from bncbench.engine import runner

    exp = config.parse("datasets: [iris, 'synth:40x3x2:1']\ncv: {folds: 2}\n"
                       "classifiers: [NB, {name: KDB, k: 1, label: KDB1}]\n")
    stats = runner.run(exp, str(res), quiet=True, log=lambda *a: None)
    return stats, tasks(res)


@pytest.mark.parametrize("change, rerun", [
    # recipe fields: how the files become a data set
    pytest.param(lambda c: c["iris"].update(drop=[0]), True, id="drop-a-column"),
    pytest.param(lambda c: c["iris"].update(missing=["?", "NA"]), True, id="missing-tokens"),  # same data
    pytest.param(lambda c: c["iris"].update({"class": -1}), True, id="class-written-out"),  # same data
    pytest.param(lambda c: c["iris"]["files"][0].update(header_lines=0), True, id="file-header_lines"),
    # descriptive fields
    pytest.param(lambda c: c["iris"].update(note="another note"), False, id="note"),
    pytest.param(lambda c: c["iris"].update(papers=["000", "004"], aliases=["iris-plants"]), False,
                 id="papers-aliases"),
    pytest.param(lambda c: c["iris"].update(expected={"instances": 151}), False, id="expected"),
    pytest.param(lambda c: c["car"].update(drop=[0]), False, id="another-entry"),
])
def test_catalog_recipe_change_reruns_that_data_set_only(patched_catalog, tmp_path, change, rerun):
    patched_catalog()
    res = tmp_path / "res"
    stats, before = run_in_process(res)
    assert (stats["run"], stats["skipped"]) == (8, 0)
    patched_catalog(change)
    stats, after = run_in_process(res)
    expected = {("iris", "NB"): 2, ("iris", "KDB1"): 2} if rerun else {}
    assert dict(new_cells(before, after)) == expected
    assert (stats["run"], stats["skipped"]) == (len(expected) * 2, 8 - len(expected) * 2)


RECIPE_CHANGES = {
    "format": "csv", "class": 0, "class_blocks": {"size": 50, "labels": ["a", "b", "c"]},
    "class_map": {"x": "y"}, "class_strip": ".", "drop": [1], "header": True, "missing": ["NA"],
    "numeric": "all", "sep": ";",
}


@pytest.mark.parametrize("key", [*RECIPE_CHANGES, "files.source", "files.path", "files.header_lines",
                                 "files.optional", "files.added"])
def test_recipe_changes_with_each_parsing_field(key):
    from bncbench.data import catalog

    e = copy.deepcopy(catalog.entry("iris"))
    before = catalog.recipe(e)
    if key.startswith("files."):
        f = e["files"][0]
        {"source": lambda: f.update(source="uci"), "path": lambda: f.update(path="iris2.arff"),
         "header_lines": lambda: f.update(header_lines=1), "optional": lambda: f.update(optional=True),
         "added": lambda: e["files"].append(dict(f, path="more.arff"))}[key.split(".")[1]]()
    else:
        assert e.get(key) != RECIPE_CHANGES[key]
        e[key] = RECIPE_CHANGES[key]
    assert catalog.recipe(e) != before


def test_every_recipe_key_has_a_row():
    from bncbench.data import catalog

    assert set(RECIPE_CHANGES) == set(catalog.RECIPE_KEYS)


@pytest.mark.parametrize("key, value", [("note", "x"), ("papers", ["999"]), ("aliases", ["flowers"]),
                                        ("expected", {"instances": 1}), ("found", {"instances": 2}),
                                        ("difference", "x"), ("files.size", 1), ("files.sha256", "0" * 64),
                                        ("files.compression", "gz")])
def test_recipe_ignores_descriptive_fields(key, value):
    """(A file's sha256 is not part of the recipe: it is the data's checksum, in the key beside it.)"""
    from bncbench.data import catalog

    e = copy.deepcopy(catalog.entry("iris"))
    before = catalog.recipe(e)
    if key.startswith("files."):
        e["files"][0][key.split(".")[1]] = value
    else:
        e[key] = value
    assert catalog.recipe(e) == before


def test_catalog_checksums_hold_the_recipe(patched_catalog):
    """The recipe reaches the task key through the data set's checksums."""
    from bncbench.data import catalog

    patched_catalog()
    ds = catalog.load("iris")
    assert ds.checksums["recipe"] == catalog.recipe(catalog.entry("iris"))
    assert ds.checksums["arff:iris.arff"] == catalog.entry("iris")["files"][0]["sha256"]


@pytest.mark.xfail(strict=True, reason="stale data under new keys: the parsed copy of a catalog data set in the "
                                       "cache (catalog._load_cached) is keyed by the entry, the files' checksums and "
                                       "PARSER_VERSION, a constant bumped by hand, not by the parsing code; an edit of "
                                       "data/loaders.py changes every task key (data/ is fingerprinted), and the tasks "
                                       "re-run on the copy parsed by the old code")
def test_parsed_copy_follows_the_parsing_code(tmp_path):
    pkg = tmp_path / "pkg"
    shutil.copytree(ROOT / "bncbench", pkg / "bncbench", ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    (cache / "arff").mkdir(parents=True)
    shutil.copy(ROOT / "datasets" / "mirror" / "arff" / "iris.arff", cache / "arff" / "iris.arff")
    env = dict(os.environ, BNCBENCH_MIRROR="")  # no mirror, not even the default
    env.update(PYTHONPATH=str(pkg), BNCBENCH_CACHE=str(cache))
    probe = ("import bncbench; from bncbench.data import catalog; "
             "print(bncbench.__file__, catalog.load('iris').n_attributes)")

    def n_attributes() -> int:
        out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True,
                             check=True).stdout.split()
        assert out[0].startswith(str(pkg)), out
        return int(out[1])

    assert n_attributes() == 4
    loaders = pkg / "bncbench" / "data" / "loaders.py"  # parsing now drops the first column
    loaders.write_text(edit(loaders.read_text(), "    width = len(table.names)\n",
                            "    drop = [0, *(drop or [])]\n    width = len(table.names)\n"))
    assert n_attributes() == 3


# --- runner.task_key itself: every input changes the key; nothing else does

KEY_CONFIG = """name: key
datasets: ['synth:30x3x2:1']
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, mdl_method: weka, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 2, seed: 1}
classifiers:
  - {name: KDB, k: 1, estimator: mestimate, m: 1, info_precision: float64, label: KDB1}
  - {name: AODE, min_freq: 1}
"""


@pytest.fixture(scope="module")
def key_inputs():
    from bncbench import config
    from bncbench.engine.units import load_dataset

    exp = config.parse(KEY_CONFIG)
    spec = exp.datasets[0]
    ds = copy.copy(load_dataset(spec))
    ds.checksums = {"data.csv": "a" * 16, "recipe": "b" * 16}
    return ds, spec, exp


def key_of(inputs, run=1, fold=2, clf_index=0):
    from bncbench.engine import runner

    ds, spec, exp = inputs
    return runner.task_key(ds, spec, exp, run, fold, exp.classifiers[clf_index])


def _changed(inputs, what: str, arg) -> tuple[tuple[Dataset, DatasetSpec, Experiment], int, int]:
    """Copies of (ds, spec, exp) with one input changed, and the run and fold."""
    ds, spec, exp = copy.copy(inputs[0]), inputs[1], copy.deepcopy(inputs[2])
    ds.checksums = dict(ds.checksums)
    clf = exp.classifiers[0]
    run, fold = 1, 2
    if what == "dataset":
        spec = dataclasses.replace(spec, **arg)
    elif what == "checksums":
        ds.checksums.update(arg)
    elif what == "preprocess":
        exp.preprocess = dataclasses.replace(exp.preprocess, **arg)
    elif what == "override":
        spec = dataclasses.replace(spec, preprocess=tuple(sorted(arg.items())))
    elif what == "cv":
        exp.cv = dataclasses.replace(exp.cv, **arg)
    elif what == "run":
        run = arg
    elif what == "fold":
        fold = arg
    elif what == "classifier":
        for k, v in arg.items():
            setattr(clf, k, v)
    elif what == "param":
        clf.params = {**clf.params, **arg}
    elif what == "param-removed":
        clf.params = {k: v for k, v in clf.params.items() if k != arg}
    elif what == "checksums-renamed":
        ds.checksums["elsewhere/" + arg] = ds.checksums.pop(arg)
    elif what == "experiment":
        for k, v in arg.items():
            setattr(exp, k, v)
    return (ds, spec, exp), run, fold


def _id(arg) -> str:
    return ",".join(f"{k}={v}" for k, v in arg.items()) if isinstance(arg, dict) else str(arg)


KEY_CHANGES = [
    ("dataset", {"name": "synth:30x3x2:2"}), ("dataset", {"class_column": 0}), ("dataset", {"class_column": "a0"}),
    ("checksums", {"data.csv": "c" * 16}), ("checksums", {"recipe": "d" * 16}), ("checksums", {"more.csv": "e" * 16}),
    ("preprocess", {"missing": "impute"}), ("preprocess", {"discretizer": "mdl"}), ("preprocess", {"bins": 4}),
    ("preprocess", {"eqfreq_method": "weka"}), ("preprocess", {"mdl_method": "petal"}),
    ("preprocess", {"scope": "global"}),
    ("override", {"missing": "skip"}), ("override", {"discretizer": "mdl"}), ("override", {"bins": 3}),
    ("override", {"eqfreq_method": "weka"}), ("override", {"mdl_method": "petal"}), ("override", {"scope": "global"}),
    ("cv", {"scheme": "petal"}), ("cv", {"folds": 4}), ("cv", {"seed": 2}),
    ("run", 0), ("fold", 0),
    ("classifier", {"name": "FKDB"}), ("classifier", {"label": "KDB-one"}),
    ("param", {"k": 2}), ("param", {"estimator": "laplace"}), ("param", {"m": 2.0}),
    ("param", {"info_precision": "float32"}), ("param", {"backoff": True}),
]


@pytest.mark.parametrize("what, arg", KEY_CHANGES, ids=[f"{w}-{_id(a)}" for w, a in KEY_CHANGES])
def test_task_key_changes_with_each_input(key_inputs, what, arg):
    from bncbench.engine import runner

    changed, run, fold = _changed(key_inputs, what, arg)
    assert runner.task_key(*changed, run, fold, changed[2].classifiers[0]) != key_of(key_inputs)


def test_task_key_changes_with_the_code(key_inputs, monkeypatch):
    from bncbench.engine import runner

    before = key_of(key_inputs)
    monkeypatch.setattr(runner, "code_fingerprint", lambda cls: "0" * 64)
    assert key_of(key_inputs) != before


def test_task_key_of_petal_bv_changes_with_the_divisor(key_inputs):
    from bncbench.engine import runner

    ds, spec, exp = key_inputs
    keys = set()
    for divisor in (2, 3):
        e = copy.deepcopy(exp)
        e.cv = dataclasses.replace(e.cv, scheme="petal-bv", folds=1, divisor=divisor)
        keys.add(runner.task_key(ds, spec, e, 0, 0, e.classifiers[0]))
    assert len(keys) == 2


KEY_INVARIANTS: list[tuple[str, dict[str, Any] | str]] = [
    ("cv", {"runs": 5}),  # adding runs reuses the stored ones
    ("experiment", {"name": "other"}), ("experiment", {"source": "# another text"}),
    ("experiment", {"wdl": {"metric": "rmse"}}), ("experiment", {"figures": {"times": {}}}),
    ("experiment", {"executor": {"name": "dask", "jobs": 8}}),
    ("experiment", {"config_datasets": ["x", "synth:30x3x2:1"], "config_labels": ["AODE", "KDB1"]}),
    ("override", {"bins": 5}),  # restates the config's value
    ("classifier", {"cls": None}),  # the class object itself: only its code fingerprint counts
    ("param-removed", "k"),  # KDB's k: 1 is its default: written out or left out, the same task
    ("param-removed", "estimator"),  # mestimate is the default
    ("checksums-renamed", "data.csv"),  # the same content under another path
]


@pytest.mark.parametrize("what, arg", KEY_INVARIANTS, ids=[f"{w}-{next(iter(a))}" for w, a in KEY_INVARIANTS])
def test_task_key_ignores_what_does_not_define_a_task(key_inputs, what, arg, monkeypatch):
    from bncbench.classifiers import REGISTRY
    from bncbench.engine import runner

    if what == "classifier":  # the same code fingerprint and signature, another class object
        monkeypatch.setattr(runner, "code_fingerprint", lambda cls: "f" * 64)
        arg = {"cls": type("KDBCopy", (REGISTRY["KDB"],), {})}
    before = key_of(key_inputs)
    changed, run, fold = _changed(key_inputs, what, arg)
    assert runner.task_key(*changed, run, fold, changed[2].classifiers[0]) == before


def test_task_key_ignores_the_order_of_data_sets_and_classifiers(key_inputs):
    ds, spec, exp = key_inputs
    e = copy.deepcopy(exp)
    e.classifiers.reverse()
    e.datasets = [*e.datasets, dataclasses.replace(spec, name="synth:9x2x2:1")][::-1]
    assert key_of((ds, spec, e), clf_index=1) == key_of(key_inputs)


def test_task_keys_of_one_plan_are_distinct(key_inputs):
    """Every task of a plan has its own key (runs × folds × classifiers)."""
    from bncbench.engine import runner

    ds, spec, exp = key_inputs
    units, keys = runner.plan(exp, {spec.name: ds})
    flat = [k for u in units for k in u.keys]
    assert len(flat) == len(set(flat)) == 2 * 3 * 2
    assert sorted(keys) == [f"{spec.name}\tAODE", f"{spec.name}\tKDB1"]
