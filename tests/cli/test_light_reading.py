"""Reading is light: the commands that read a results store load neither scikit-learn nor numba
(issue 37 item 7); each runs in a fresh process and reports the modules it loaded."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run_store

ROOT = Path(__file__).resolve().parents[2]
#: run `bncbench ARGS` in this process, then print the heavy packages it loaded as JSON on stderr
PROBE = """
import json, runpy, sys
sys.argv = ["bncbench", *sys.argv[1:]]
try:
    runpy.run_module("bncbench", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules} & {"sklearn", "numba"})), file=sys.stderr)
"""
STORE = """
name: light
datasets: [wine, zoo]
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers: [NB, TAN]
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    res = run_store(tmp_path_factory, "light", STORE)
    (res.parent / "claims.yaml").write_text(f"paper: test\nresults: {{main: {res}}}\nclaims:\n"
                                            "  - text: TAN beats NB\n"
                                            "    wdl: {results: main, metric: zol, row: TAN, column: NB, "
                                            "printed: 1-0-1}\n")
    return res


def _loaded(*args) -> list[str]:
    """The heavy packages `bncbench ARGS` loads (it must succeed)."""
    env = dict(os.environ, BNCBENCH_MIRROR="")
    r = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True, text=True, env=env,
                       cwd=ROOT)
    *said, last = r.stderr.strip().splitlines()
    assert "error" not in " ".join(said).lower(), r.stderr
    return json.loads(last)


COMMANDS = {
    "report": lambda s, t: ["report", s],
    "report --base": lambda s, t: ["report", s, "--base", "NB", "--draw", "wilcoxon"],
    "report --metric auc": lambda s, t: ["report", s, "--metric", "auc"],  # reads the probabilities
    "wdl": lambda s, t: ["wdl", s],
    "ranks": lambda s, t: ["ranks", s],
    "compare": lambda s, t: ["compare", s, ROOT / "papers" / "stan70" / "dev.tsv"],
    "claims": lambda s, t: ["claims", s.parent / "claims.yaml"],
    "export": lambda s, t: ["export", s, "--out", t / "export", "--format", "csv"],
    "structure": lambda s, t: ["structure", s, "--dataset", "wine", "--classifier", "TAN", "--format", "dot"],
    "structure --stability": lambda s, t: ["structure", s, "--stability"],
    "summary": lambda s, t: ["summary", s, "--format", "latex"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_reading_loads_neither_scikit_learn_nor_numba(store, tmp_path, command):
    assert _loaded(*COMMANDS[command](store, tmp_path)) == []
