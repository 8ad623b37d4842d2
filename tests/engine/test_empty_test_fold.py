"""A fold without test rows (petal's folds of a small data set: contact-lenses' folds 2 and 5) is
stored with the structure of its model and no per-row parts (docs/algorithms.md §11), for every
family that summarises test rows (the AODE family, AIT)."""

from __future__ import annotations

from bncbench import results
from tests.support.cli import bnc_in

CONFIG = """name: empty-folds
datasets: [contact-lenses]
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, scope: global}
cv: {scheme: petal, folds: 10, runs: 1, seed: 0}
classifiers: [NB, AODE, RC, SR, {name: AIT, base: TAN, label: TAN-AIT}, {name: PAE}]
"""


def test_a_fold_without_test_rows_keeps_its_structure(tmp_path, mirror):
    (tmp_path / "c.yaml").write_text(CONFIG, encoding="utf-8")
    got = bnc_in("run", tmp_path / "c.yaml", "--results", tmp_path / "res", "--quiet",
                 env={"BNCBENCH_MIRROR": str(mirror)})
    assert got.returncode == 0, got.stderr
    with results.open(tmp_path / "res") as r:
        tasks = r.tasks
        assert {int(f) for f in tasks.loc[tasks["n_test"] == 0, "fold"]} == {2, 5}
        for label in ("AODE", "RC", "SR", "TAN-AIT", "PAE"):
            found = r.structures("contact-lenses", label)
            assert len(found) == 10 and all(f.learned is not None for f in found)
            by_fold = {f.fold: f.learned for f in found}
            for fold in (2, 5):  # no test rows: nothing summarised over them
                learned = by_fold[fold]
                assert learned is not None and learned.arc_dropped == {} and learned.attribute_dropped == {}
