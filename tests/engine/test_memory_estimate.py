"""The memory estimate of a run (engine/memory.py over utils/memory.py; issue 36 item 8): the
attribute slots against the cardinalities the preprocessing gives, the count tables' bytes against
the tables counted, the tables a unit holds at once against its measured peak (tracemalloc), and the
refusal of a plan that cannot fit, before anything is written, with the memory simulated by
BNCBENCH_MEMORY."""

import tracemalloc

import numpy as np
import pytest

from bncbench import config
from bncbench.classifiers.base import fit_counts
from bncbench.engine import memory, runner, units
from bncbench.engine.entries import entry_of
from bncbench.errors import UserError
from bncbench.preprocess.encode import encode_fold
from bncbench.preprocess.folds import split
from bncbench.utils import memory as system

GIB = 1 << 30


def wide_csv(path, columns: int, rows: int = 6, seed: int = 0):
    """A CSV of `rows` rows (the first all 0, the second all 1, the others random), `columns` binary
    attributes and a last column `class` (no, yes, no, ...)."""
    rng = np.random.default_rng(seed)
    values = np.vstack([np.zeros(columns, int), np.ones(columns, int), rng.integers(0, 2, (rows - 2, columns))])
    lines = [",".join(f"a{i}" for i in range(columns)) + ",class"]
    lines += [",".join(map(str, row)) + ("," + ("yes" if r % 2 else "no")) for r, row in enumerate(values)]
    path.write_text("\n".join(lines) + "\n")
    return path


def experiment(tmp_path, body: str, columns: int = 0):
    """A parsed config (its `datasets:` may name `wide`, a CSV of `columns` binary attributes) and
    its loaded data sets."""
    if columns:
        wide_csv(tmp_path / "wide.csv", columns)
    path = tmp_path / "c.yaml"
    path.write_text(body)
    exp = config.load(str(path))
    return exp, runner.load_available(exp, False, lambda *a: None)


WIDE = """name: wide
datasets:
  - {{name: wide, path: wide.csv}}
preprocess: {{scope: {scope}}}
cv: {{folds: 3}}
classifiers: [{classifiers}]
"""


# ---------------------------------------------------------------- the estimate against the counts

@pytest.mark.parametrize("settings", [
    "{discretizer: eqfreq, bins: 5, scope: global}",
    "{discretizer: eqfreq, bins: 3, missing: impute, scope: fold}",
    "{discretizer: eqfreq, bins: 20, missing: skip, scope: global}",
    "{discretizer: mdl, missing: distinct, scope: global}",
])
def test_slots_bound_the_cardinalities_the_preprocessing_gives(tmp_path, settings):
    """Every attribute's slots: equal to the counted ones for a nominal attribute, at least them
    under eqfreq (at most min(bins, distinct values) intervals), at most them under MDL (one
    interval: MDL's are known only once fitted); on every fold of every data set."""
    exp, datasets = experiment(tmp_path, f"datasets: [iris, zoo, labor-negotiations, house-votes-84, soybean, "
                                         f"pima-ind-diabetes, wine]\npreprocess: {settings}\ncv: {{folds: 3}}\n"
                                         f"classifiers: [TAN]\n")
    eqfreq = "eqfreq" in settings
    tight = 0
    for spec in exp.datasets:
        ds, s = datasets[spec.name], spec.settings(exp.preprocess)
        est = memory.attribute_slots(ds, s)
        for fold in range(3):
            train, test = split(ds.y, exp.cv.scheme, 3, 0, fold, exp.cv.seed)
            counted = encode_fold(ds, train, test, s).cardinalities + 1  # fit_counts' slots
            nominal = np.array([a.nominal for a in ds.attributes])
            assert np.array_equal(est[nominal], counted[nominal]), spec.name
            assert (est >= counted).all() if eqfreq else (est <= counted).all(), (spec.name, est, counted)
            tight += int((est == counted).sum())
    assert tight > 0


def test_count_table_bytes_are_those_counted(tmp_path):
    """One set of count tables (class, (x_i, y), (x_i, x_j, y)) takes exactly the bytes the
    estimate names where every numeric attribute fills its bins (iris: 4 × 5 intervals)."""
    exp, datasets = experiment(tmp_path, "datasets: [iris]\npreprocess: {scope: global}\ncv: {folds: 3}\n"
                                         "classifiers: [TAN, NB]\n")
    spec, ds = exp.datasets[0], datasets["iris"]
    X, cards = units._all_codes(spec, spec.settings(exp.preprocess))
    pc = fit_counts(X, ds.y, cards, ds.n_classes, pairs=True)
    n = memory.need(exp, spec, ds, 1)
    assert n.values == int(pc.sizes.sum()) == 4 * 6
    assert n.table == pc.class_counts.nbytes + pc.xy.nbytes + pc.pairs.nbytes
    assert n.pair_labels == ("TAN",) and n.tables == 3  # global cuts, k-fold: all rows − the test rows
    only_nb, _ = experiment(tmp_path, "datasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB]\n")
    nb = memory.need(only_nb, only_nb.datasets[0], ds, 1)
    assert nb.pair_labels == () and nb.table == pc.class_counts.nbytes + pc.xy.nbytes and nb.tables == 1


def unit_peak(exp, datasets) -> int:
    """The peak bytes allocated while the first unit of `exp` runs (its fold preprocessed, counted,
    every classifier fitted and tested), from cold caches."""
    pending, _ = runner.plan(exp, datasets)
    for cache in (units._all_rows, units._all_codes, units._global_cuts):
        cache.cache_clear()
    tracemalloc.start()
    try:
        units.run_unit(pending[0], [entry_of(c) for c in pending[0].classifiers], exp.preprocess, exp.cv)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        units._all_rows.cache_clear()


@pytest.mark.parametrize("scope, tables", [("global", 3), ("fold", 1)])
def test_a_unit_holds_at_least_the_estimated_tables(tmp_path, scope, tables):
    """A unit of TAN on 300 binary attributes allocates at its peak (tracemalloc, which numpy
    reports to) at least the count tables the estimate names per worker, and not many times
    more (TAN's own tables, about one more set: tests/engine/test_memory_working.py)."""
    exp, datasets = experiment(tmp_path, WIDE.format(scope=scope, classifiers="TAN"), columns=300)
    n = memory.need(exp, exp.datasets[0], datasets["wide"], 1)
    assert n.tables == tables and n.values == 300 * 3
    peak = unit_peak(exp, datasets)
    assert n.tables * n.table <= peak <= (n.tables + 2) * n.table + n.data + (8 << 20), (peak, n)


# ---------------------------------------------------------------- refusing a plan

def test_tan_on_10000_columns_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    """The issue's case: TAN on a file of 10,000 binary columns (30,000 values, 2 classes: 13.4 GiB
    of pair counts per worker and as much of TAN's own tables) on a machine with 8 GiB; `runner.run`
    stops before the store is made."""
    monkeypatch.setenv(system.ENV, "8G")
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers="TAN"), columns=10_000)
    with pytest.raises(UserError) as e:
        memory.check_plan(exp, datasets, jobs=1)
    line = str(e.value)
    assert "\n" not in line
    assert line.startswith("data set 'wide' with TAN does not fit in memory: 10000 attributes, 30000 values, "
                           "2 classes; ")
    assert ("TAN's own working tables (13.4 GiB) need about 26.8 GiB per worker, more than the 8 GiB available "
            "(BNCBENCH_MEMORY); leave TAN out") in line
    assert "(drop: in its entry)" in line
    with pytest.raises(UserError):
        runner.run(exp, str(tmp_path / "res"), quiet=True, log=lambda *a: None)
    assert not (tmp_path / "res").exists()


def test_too_many_workers_get_the_jobs_that_fit(tmp_path, monkeypatch):
    """Three workers (4 jobs, 3 folds) of AODE on 3,000 columns (9,000 values: 1.21 GiB of counts
    and 5.43 GiB of AODE's own tables each at scope fold) do not fit in 16 GiB; two do, and the line
    says so. At most one worker per unit: 4 jobs on a 2-fold plan are 2 workers."""
    monkeypatch.setenv(system.ENV, "16G")
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers="AODE"), columns=3000)
    with pytest.raises(UserError, match=r"about 6.64 GiB per worker × 3 workers at once = 19.9 GiB, more than the "
                                        r"16 GiB available \(BNCBENCH_MEMORY\); run it with --jobs 2 or fewer"):
        memory.check_plan(exp, datasets, jobs=4)
    memory.check_plan(exp, datasets, jobs=2)
    exp.cv.folds = 2
    memory.check_plan(exp, datasets, jobs=4)


def test_plans_that_fit_or_run_elsewhere_are_not_refused(tmp_path, monkeypatch):
    """NB on the same 10,000 columns counts no pairs (a few MiB); the workers of a Dask cluster named
    by --scheduler are other machines' (nothing here to compare with); a global scope needs three
    sets of tables, so the same TAN plan that fits at scope fold in 32 GiB does not at scope global."""
    monkeypatch.setenv(system.ENV, "32G")
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers="NB, TAN"), columns=10_000)
    memory.check_plan(exp, datasets, jobs=1)
    exp.preprocess = config.PreprocessSettings(scope="global")
    with pytest.raises(UserError, match=r"about 53.6 GiB per worker"):
        memory.check_plan(exp, datasets, jobs=1)
    memory.check_plan(exp, datasets, jobs=8, executor="dask", scheduler="tcp://10.0.0.5:8786")
    exp.classifiers = [c for c in exp.classifiers if c.label == "NB"]
    monkeypatch.setenv(system.ENV, "64M")
    memory.check_plan(exp, datasets, jobs=1)


def test_kdb_with_k_500_on_a_wide_file_is_refused_by_its_pair_counts(tmp_path, monkeypatch):
    """Hostile: KDB with k = 500 on 1,000 columns. Its k-dependence tables are sparse (as many
    parent configurations as rows), but its unit counts every pair and KDB derives one more set of
    that size: 275 MiB per worker."""
    monkeypatch.setenv(system.ENV, "100M")
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers="{name: KDB, k: 500, label: K500}"),
                               columns=1000)
    with pytest.raises(UserError, match=r"data set 'wide' with K500 does not fit in memory: .* K500's own working "
                                        r"tables \(137 MiB\) need about 275 MiB"):
        memory.check_plan(exp, datasets, jobs=1)


# ---------------------------------------------------------------- the memory available

@pytest.mark.parametrize("value, expected", [("8G", 8 * GIB), ("1.5T", 3 << 39), ("123", 123), ("8GiB", 8 * GIB),
                                             ("512 MB", 512 << 20), ("2k", 2048)])
def test_the_memory_to_count_on_can_be_set(monkeypatch, value, expected):
    monkeypatch.setenv(system.ENV, value)
    assert system.available() == (expected, "BNCBENCH_MEMORY")


@pytest.mark.parametrize("value", ["lots", "-1", "nan", "8X", "1e12", "0x10"])
def test_a_malformed_memory_setting_is_one_line(tmp_path, monkeypatch, value):
    monkeypatch.setenv(system.ENV, value)
    with pytest.raises(ValueError, match=r"BNCBENCH_MEMORY=.*give the memory to count on in bytes"):
        system.available()
    exp, datasets = experiment(tmp_path, "datasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB]\n")
    with pytest.raises(UserError, match=r"^BNCBENCH_MEMORY="):
        memory.check_plan(exp, datasets, jobs=1)


def test_the_system_reports_the_memory_available(monkeypatch):
    """Without the setting, Linux's MemAvailable (kB in /proc/meminfo)."""
    monkeypatch.delenv(system.ENV, raising=False)
    found = system.available()
    assert found is not None and found[0] > 0
    with open("/proc/meminfo") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("MemAvailable:"))
    assert found[1] == "MemAvailable" and abs(found[0] - kb * 1024) < GIB


@pytest.mark.parametrize("n, text", [(0, "0 B"), (1023, "1023 B"), (1024, "1 KiB"), (14_395_680_336, "13.4 GiB"),
                                     (3 << 40, "3 TiB"), (1000 << 20, "1000 MiB"), (1 << 70, "1024 EiB")])
def test_sizes_in_words(n, text):
    assert system.size(n) == text
