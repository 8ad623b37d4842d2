"""Each classifier's own working memory in the run's memory estimate (classifiers/base.py
`WORKING_TABLES`, engine/memory.py; issue 36 item 8): for every built-in classifier the estimate of
a unit bounds the peak a real unit allocates (tracemalloc, which numpy reports to), measured here
independently, and not loosely; a plug-in without the attribute gets the base's default; a
scikit-learn baseline is not estimated."""

import math
import re

import numpy as np
import pytest

from bncbench.classifiers import REGISTRY
from bncbench.classifiers.base import BayesNetClassifier
from bncbench.engine import memory
from bncbench.errors import UserError
from bncbench.utils import memory as system
from tests.engine.test_memory_estimate import WIDE, experiment, unit_peak, wide_csv

#: the wide data set of the measurement: binary attributes and rows
COLUMNS, ROWS = 80, 15
#: what a unit allocates that scales with neither its rows nor its tables (Python objects, the
#: fold's bookkeeping): 136 KiB for NB here
FIXED = 1 << 20


def declared(name: str) -> float:
    """The built-in classifier `name`'s WORKING_TABLES."""
    cls = REGISTRY[name]
    assert issubclass(cls, BayesNetClassifier)
    return cls.WORKING_TABLES


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_estimate_bounds_a_real_unit_of_every_classifier(tmp_path, name):
    """A unit of the classifier alone on 150 binary attributes and 30 rows: the estimate per worker
    (rows, count tables, the classifier's WORKING_TABLES sets) is at least the peak the unit
    allocates (give or take 1 MiB of fixed bookkeeping), and at most three times it."""
    wide_csv(tmp_path / "wide.csv", COLUMNS, ROWS)
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers=name))
    n = memory.need(exp, exp.datasets[0], datasets["wide"], 1)
    pair = memory.COUNT * n.values ** 2 * n.classes
    assert n.values == 3 * COLUMNS and n.working == math.ceil(declared(name) * pair)
    warm = np.arange(12).reshape(6, 2) % 2  # BAN's and KBAN's numba kernels loaded (once a process: ~30 MB)
    REGISTRY[name](n_classes=2).fit(warm, warm[:, 0]).predict_proba(warm)
    cls = REGISTRY[name]
    assert issubclass(cls, BayesNetClassifier)
    cls.prepare_kernels({}, lambda _: None)  # every kernel, as a run loads them before its units
    peak = unit_peak(exp, datasets)
    assert peak <= n.per_worker + FIXED and n.per_worker <= 3 * peak, (name, peak, n)


def test_subclasses_inherit_and_plugins_get_the_default(tmp_path):
    """A subclass declares nothing and gets its parent's working memory (STAN: TAN's; SR: AODE's);
    a researcher's plug-in without the attribute gets the base's one set; the label named is the
    heaviest classifier's."""
    assert declared("STAN") == declared("TAN") and declared("FKDB") == declared("KDB")
    assert declared("SR") == declared("SPRC") == declared("TAODE") == declared("AODE") < declared("PAA") == 7.5

    class Plugin(BayesNetClassifier):
        pass

    assert Plugin.WORKING_TABLES == BayesNetClassifier.WORKING_TABLES == 1.0
    wide_csv(tmp_path / "wide.csv", 1000)
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers="NB, TAN, AODE, KDB"))
    n = memory.need(exp, exp.datasets[0], datasets["wide"], 1)
    assert n.heaviest == "AODE" and n.working == math.ceil(4.5 * memory.COUNT * 3000 ** 2 * 2)


def test_a_scikit_learn_baseline_is_not_estimated(tmp_path):
    """A baseline (`fit_fold`) holds no count tables and declares nothing: NB with it needs NB's."""
    wide_csv(tmp_path / "wide.csv", 1000)
    lr = '{name: "sklearn.linear_model:LogisticRegression", label: LR}'
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers=f"NB, {lr}"))
    n = memory.need(exp, exp.datasets[0], datasets["wide"], 1)
    assert n.heaviest == "NB" and n.working == 0 and n.pair_labels == ()


def test_the_working_tables_are_what_refuses_tan_in_22_gib(tmp_path, monkeypatch):
    """The issue's case at the memory this machine had: TAN's 13.4 GiB of pair counts fit in 22 GiB,
    its counts and its own CMI table (13.4 GiB more) do not; the line names TAN's tables."""
    monkeypatch.setenv(system.ENV, "22G")
    wide_csv(tmp_path / "wide.csv", 10_000)
    exp, datasets = experiment(tmp_path, WIDE.format(scope="fold", classifiers="TAN"))
    n = memory.need(exp, exp.datasets[0], datasets["wide"], 1)
    assert n.tables * n.table < 22 << 30 < n.per_worker
    with pytest.raises(UserError, match=r"its rows, count tables of attribute pairs and TAN's own working tables "
                                        r"\(13.4 GiB\) need about 26.8 GiB per worker, more than the 22 GiB"):
        memory.check_plan(exp, datasets, jobs=1)


class Declares(BayesNetClassifier):
    """A plug-in with its own WORKING_TABLES (set by the test)."""


@pytest.mark.parametrize("value", ["lots", -1.0, float("nan"), float("inf"), True, None, [2]])
def test_a_plugin_declaring_no_number_is_one_line(tmp_path, monkeypatch, value):
    """Hostile: a plug-in's WORKING_TABLES that is no number ≥ 0 is refused before anything runs,
    naming the label and the value."""
    monkeypatch.setattr(Declares, "WORKING_TABLES", value)
    monkeypatch.setenv(system.ENV, "1T")
    wide_csv(tmp_path / "wide.csv", 10)
    exp, datasets = experiment(tmp_path, WIDE.format(
        scope="fold", classifiers="{name: 'tests.engine.test_memory_working:Declares', label: Mine}"))
    with pytest.raises(UserError, match=rf"^classifier 'Mine': WORKING_TABLES = {re.escape(repr(value))} is not a "
                                        r"number ≥ 0 of sets of the pair tables its fit builds \(docs/"):
        memory.check_plan(exp, datasets, jobs=1)


def test_a_plugin_declaring_a_huge_number_is_refused_by_the_estimate(tmp_path, monkeypatch):
    """Hostile: a plug-in declaring 1e300 sets on 10 columns: the estimate is refused with one line
    naming it, not an overflow."""
    monkeypatch.setattr(Declares, "WORKING_TABLES", 1e300)
    monkeypatch.setenv(system.ENV, "1T")
    wide_csv(tmp_path / "wide.csv", 10)
    exp, datasets = experiment(tmp_path, WIDE.format(
        scope="fold", classifiers="{name: 'tests.engine.test_memory_working:Declares', label: Mine}"))
    with pytest.raises(UserError, match=r"with Mine does not fit in memory: .* Mine's own working tables"):
        memory.check_plan(exp, datasets, jobs=1)
