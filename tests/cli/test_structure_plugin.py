"""A researcher's classifier in `bncbench structure`: the structure its `learned_structure` reports
(docs/adding-a-classifier.md: What it learned) is stored per task and shown; without it, one line."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from tests.support.cli import bnc_in

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
LEARNED = '''
from bncbench.classifiers import Learned
from chain_nb import ChainNB


class ChainShown(ChainNB):
    def learned_structure(self, X=None):
        """The chain: each attribute's previous one its parent, the class a parent of all."""
        arcs = tuple(sorted((int(p), i) for i, p in enumerate(self.parents_) if p >= 0))
        return Learned(arcs=arcs, attributes=tuple(range(len(self.parents_))))
'''
CONFIG = """name: chain-shown
datasets: [car]
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers:
  - {name: "chain_nb:ChainNB", label: ChainNB}
  - {name: "chain_shown:ChainShown", label: Shown, reverse: true}
"""


def test_a_plugin_shows_what_it_reports_and_one_without_says_so(tmp_path):
    shutil.copy(EXAMPLES / "chain_nb.py", tmp_path / "chain_nb.py")
    (tmp_path / "chain_shown.py").write_text(LEARNED, encoding="utf-8")
    (tmp_path / "chain.yaml").write_text(CONFIG, encoding="utf-8")
    res = tmp_path / "res"
    assert bnc_in("run", tmp_path / "chain.yaml", "--results", res, "--quiet", cwd=tmp_path).returncode == 0
    got = bnc_in("structure", res, "--dataset", "car", "--classifier", "Shown", "--format", "csv")
    assert got.returncode == 0, got.stderr
    names = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]  # car's attributes, in column order
    rows = {(r["parent"], r["child"]): float(r["share"]) for r in csv.DictReader(io.StringIO(got.stdout))}
    # reversed chain: each attribute the parent of the one before it, in every fold
    assert rows == {(names[i + 1], names[i]): 1.0 for i in range(len(names) - 1)}
    none = bnc_in("structure", res, "--dataset", "car", "--classifier", "ChainNB", "--format", "csv")
    assert none.returncode == 0 and "ChainNB on car reports no learned structure" in none.stdout + none.stderr
    assert len((none.stdout + none.stderr).strip().splitlines()) == 1


def test_a_plugin_whose_learned_structure_is_not_a_learned_fails_as_its_own(tmp_path):
    """Not a Learned: the plug-in's failure, named with its file and line, not a bug in bncbench."""
    shutil.copy(EXAMPLES / "chain_nb.py", tmp_path / "chain_nb.py")
    # a module name of its own: a module imported by the other test stays in sys.modules
    (tmp_path / "chain_wrong.py").write_text(LEARNED.replace("return Learned(", "return 'chain' or Learned("),
                                             encoding="utf-8")
    (tmp_path / "chain.yaml").write_text(CONFIG.replace("chain_shown:", "chain_wrong:"), encoding="utf-8")
    got = bnc_in("run", tmp_path / "chain.yaml", "--results", tmp_path / "res", "--quiet", cwd=tmp_path)
    assert got.returncode == 2
    assert "bug in bncbench" not in got.stderr and "Traceback" not in got.stderr
    assert "failed: Shown on car: 3 of 3 task(s)" in got.stderr
    assert "learned_structure returned str, not a bncbench.classifiers.Learned or None (chain_wrong.py, line" \
        in got.stderr
