"""A run of bncbench's own classifiers loads neither scikit-learn nor scipy.stats nor pandas (issue 40
item 4: their import was most of a small run's start-up; docs/architecture.md); the run happens in a
fresh process, which reports the modules it loaded."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: run `bncbench ARGS` in this process (its entry point, as the installed command calls it), then
#: print the exit status and the heavy modules it loaded as JSON on the last line of stderr
PROBE = """
import json, sys
from bncbench.cli import main
sys.argv = ["bncbench", *sys.argv[1:]]
try:
    main()
    code = 0
except SystemExit as e:
    code = e.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("sklearn", "pandas") or m.startswith("scipy.stats"))
print(json.dumps([code, heavy]), file=sys.stderr)
"""
CONFIG = """
name: light-run
datasets: [labor-negotiations, wine]
preprocess: {{missing: {missing}, discretizer: {discretizer}, scope: {scope}}}
cv: {{scheme: stratified, folds: 3, runs: 1, seed: 1}}
classifiers:
  - NB
  - TAN
  - {{name: KBAN, k: 3, label: 3-BAN}}
  - {{name: "chain_nb:ChainNB", label: plug-in}}
"""


@pytest.mark.parametrize("preprocess", [dict(missing="distinct", discretizer="mdl", scope="fold"),
                                        dict(missing="impute", discretizer="eqfreq", scope="global")])
def test_a_run_loads_neither_scikit_learn_nor_pandas(tmp_path, preprocess):
    """Built-in classifiers and a plug-in (docs/examples/chain_nb.py, beside the config)."""
    config = tmp_path / "light.yaml"
    config.write_text(CONFIG.format(**preprocess))
    shutil.copy(ROOT / "docs" / "examples" / "chain_nb.py", tmp_path)
    env = dict(os.environ, BNCBENCH_MIRROR="")  # the shipped mirror: labor-negotiations has missing values
    r = subprocess.run([sys.executable, "-c", PROBE, "run", str(config), "--results", str(tmp_path / "res"),
                        "--quiet", "--jobs", "1"], capture_output=True, text=True, env=env, cwd=ROOT)
    code, heavy = json.loads(r.stderr.strip().splitlines()[-1])
    assert code == 0, r.stderr
    assert heavy == []
    assert (tmp_path / "res" / "results.sqlite").is_file()
