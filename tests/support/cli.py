"""Shared by the CLI tests: a small config and a runner of `python -m bncbench`."""

import os
import subprocess
import sys

SMALL = """
name: small
datasets: [iris, labor-negotiations, car]
preprocess: {missing: distinct, discretizer: eqfreq, eqfreq_method: petal, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 2, seed: 1}
classifiers:
  - {name: NB}
  - {name: KDB, k: 1, label: KDB1}
  - {name: AODE}
"""


# --jobs N starts its workers at once, for tests of the pool (docs/cli.md: Results store)
POOL = {"BNCBENCH_POOL_WORTH": "0"}


def bnc(*args, env=None, cwd=None, check=False) -> subprocess.CompletedProcess:
    """Run `python -m bncbench ARGS` without a mirror (BNCBENCH_MIRROR set empty, so neither the
    caller's nor the default ../shared/uci; only the shipped one) unless `env` sets one;
    `check=True` raises CalledProcessError (stderr included) on a non-zero exit."""
    e = dict(os.environ, BNCBENCH_MIRROR="")
    e.update(env or {})
    r = subprocess.run([sys.executable, "-m", "bncbench", *map(str, args)], capture_output=True, text=True,
                       env=e, cwd=cwd)
    if check and r.returncode != 0:
        raise subprocess.CalledProcessError(r.returncode, r.args, r.stdout, r.stderr)
    return r


def run_store(tmp_path_factory, name: str, config: str):
    """Run the config text `config` (`bncbench run --quiet`) into a fresh folder; its results directory."""
    d = tmp_path_factory.mktemp(name)
    (d / "config.yaml").write_text(config)
    bnc("run", d / "config.yaml", "--results", d / "res", "--quiet", check=True)
    return d / "res"


def assert_refused(tmp_path, entry: str, key: str) -> None:
    """A config with the classifier `entry` stops with exit 2 and one line naming its file, line
    and `key`, and writes nothing."""
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: bad\ndatasets: [zoo]\nclassifiers:\n  - {entry}\n")
    r = bnc("run", path, "--results", tmp_path / "res")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and key in lines[0] and "bad.yaml:4" in lines[0], r.stderr
    assert not (tmp_path / "res").exists()


def bnc_here(monkeypatch, capsys, *args) -> subprocess.CompletedProcess:
    """`bnc(*args)` in this process (no interpreter to start: for tests that run many commands):
    its exit code, stdout and stderr."""
    from bncbench.cli.app import main

    with monkeypatch.context() as m:
        m.setattr(sys, "argv", ["bncbench", *map(str, args)])
        m.setenv("BNCBENCH_MIRROR", "")
        try:
            main()
            code = 0
        except SystemExit as stop:
            code = int(stop.code or 0)
    out = capsys.readouterr()
    return subprocess.CompletedProcess(list(args), code, out.out, out.err)
