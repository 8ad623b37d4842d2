"""Classifiers from outside the package (docs/adding-a-classifier.md): the worked example against
a plain-Python oracle, run from a config on every executor, fingerprinted, and bad plug-ins."""

import doctest
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.oracles.reference import Ref, _code
from tests.support.cli import POOL, bnc
from tests.support.data import ESTIMATOR_CASES as CASES
from tests.support.data import random_data

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"


@pytest.fixture(scope="module")
def ChainNB():
    sys.path.insert(0, str(EXAMPLES))
    try:
        import chain_nb

        yield chain_nb.ChainNB
    finally:
        sys.path.remove(str(EXAMPLES))


def ref_chain(X, y, Xt, n_classes, cards, estimator, m, missing, reverse=False):
    """Plain loops: P(y) P(x_first | y) Π P(x_i | y, x_previous) from counts (tests/oracles/reference.py)."""
    R = Ref(X, y, n_classes, cards, estimator, m, missing)
    order = list(range(R.n))[::-1] if reverse else list(range(R.n))
    parent = {order[0]: None, **{order[k]: order[k - 1] for k in range(1, R.n)}}
    out = []
    for r in Xt:
        r = [_code(i, v, R.K) for i, v in enumerate(r)]
        scores = []
        for c in range(n_classes):
            s = R.log_prior(c)
            for i in range(R.n):
                p = parent[i]
                s += R.nb_factor(i, r[i], c) if p is None else R.pair_factor(i, r[i], p, r[p], c)
            scores.append(s)
        out.append(R.softmax(scores))
    return out


def test_the_document_shows_the_example_file():
    doc = (ROOT / "docs" / "adding-a-classifier.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert blocks and blocks[0] == (EXAMPLES / "chain_nb.py").read_text()
    code_lines = [ln for ln in blocks[0].splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(code_lines) <= 35  # "a new classifier in about 30 lines"


def test_the_count_table_and_information_examples_of_the_guide_run():
    """The guide's `>>>` examples (the count tables of a tiny data set, the information measures
    on them) print what the document shows."""
    result = doctest.testfile(str(ROOT / "docs" / "adding-a-classifier.md"), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted >= 10 and result.failed == 0, result


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("seed,est,miss", CASES)
def test_example_against_plain_python(ChainNB, seed, est, miss, reverse):
    X, y, Xt, cards, nc = random_data(seed)
    got = ChainNB(estimator=est, m=1.0, missing=miss, cardinalities=cards, n_classes=nc,
                  reverse=reverse).fit(X, y).predict_proba(Xt)
    want = np.array(ref_chain(X, y, Xt, nc, cards, est, 1.0, miss, reverse))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


@pytest.mark.slow
def test_example_config_on_every_executor(tmp_path):
    cfg = EXAMPLES / "chain.yaml"
    reports = {}
    for name, extra in (("jobs1", ["--jobs", "1"]), ("jobs2", ["--jobs", "2"]),
                        ("dask", ["--executor", "dask", "--jobs", "2"])):
        res = tmp_path / name
        # cwd: not the config's folder
        bnc("run", cfg, "--results", res, "--quiet", *extra, cwd=tmp_path, env=POOL, check=True)
        reports[name] = bnc("report", res, "--format", "csv", check=True).stdout
    assert reports["jobs1"] == reports["jobs2"] == reports["dask"]
    assert reports["jobs1"].count(",ChainNB,") == 3 and reports["jobs1"].count(",ChainNB-rev,") == 3
    md = bnc("report", tmp_path / "jobs1", check=True).stdout
    assert "| ChainNB " in md and "| ChainNB-rev " in md
    w = bnc("wdl", tmp_path / "jobs1", "--format", "csv", check=True).stdout.splitlines()
    assert any(line.startswith("ChainNB,NB,") for line in w)


def test_editing_the_plugin_reruns_only_its_tasks(tmp_path):
    shutil.copy(EXAMPLES / "chain_nb.py", tmp_path / "chain_nb.py")
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets: [iris]\ncv: {folds: 3}\nclassifiers: [NB, {name: 'chain_nb:ChainNB'}]\n")
    r = bnc("run", cfg, "--results", tmp_path / "r", cwd=tmp_path, check=True)
    assert "6 tasks run, 0 already finished" in r.stderr
    src = tmp_path / "chain_nb.py"
    src.write_text(src.read_text() + "\n# a comment\n")
    r = bnc("run", cfg, "--results", tmp_path / "r", cwd=tmp_path, check=True)
    assert "0 tasks run, 6 already finished" in r.stderr
    src.write_text(src.read_text() + "\nEDITED = True\n")
    r = bnc("run", cfg, "--results", tmp_path / "r", cwd=tmp_path, check=True)
    assert "3 tasks run, 3 already finished" in r.stderr  # ChainNB's three folds only
    assert "| ChainNB " in bnc("report", tmp_path / "r", check=True).stdout  # label defaults to the class name


BAD = {
    "no_module": ("{name: 'no_such_module:X'}", "cannot import module 'no_such_module'"),
    "module_raises": ("{name: 'broken:X'}",
                      "cannot import module 'broken' of classifier 'broken:X': ZeroDivisionError"),
    "no_class": ("{name: 'chain_nb:ChainBN'}", "has no 'ChainBN' (did you mean 'ChainNB'?)"),
    "not_a_class": ("{name: 'chain_nb:np'}", "is not a class but a module; name a subclass of bncbench"),
    "unknown_param": ("{name: 'chain_nb:ChainNB', revers: true}", "unknown parameter 'revers' of chain_nb:ChainNB"),
    "wrong_type": ("{name: 'chain_nb:ChainNB', reverse: 3}", "expected bool"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_plugins_exit_2_one_line(tmp_path, case):
    shutil.copy(EXAMPLES / "chain_nb.py", tmp_path / "chain_nb.py")
    (tmp_path / "broken.py").write_text("X = 1 / 0\n")
    entry, message = BAD[case]
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"datasets: [iris]\ncv: {{folds: 3}}\nclassifiers:\n  - {entry}\n")
    r = bnc("run", cfg, "--results", tmp_path / "r", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert message in r.stderr and f"{cfg}:4" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "r").exists()
