"""Shared by the CLI tests: a small config and a runner of `python -m bncbench`."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Literal

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


_RUNS: dict[str, Path] = {}  # config text -> the results of its one run in this session, never handed out


def run_store(tmp_path_factory, name: str, config: str):
    """The results of the config text `config` (`bncbench run --quiet`) in a fresh folder beside
    the config (config.yaml): a copy of the session's one run of that text, so that a test may
    change its copy."""
    if config not in _RUNS:
        first = tmp_path_factory.mktemp("pristine")
        (first / "config.yaml").write_text(config)
        bnc_in("run", first / "config.yaml", "--results", first / "res", "--quiet", check=True)
        _RUNS[config] = first / "res"
    d = tmp_path_factory.mktemp(name)
    (d / "config.yaml").write_text(config)
    shutil.copytree(_RUNS[config], d / "res")
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


# the warning filters a fresh interpreter starts with (pytest's own record warnings instead of printing them)
_FRESH_FILTERS: list[tuple[Literal["default", "ignore"], type[Warning], str | None]] = [
    ("default", DeprecationWarning, "__main__"), ("ignore", DeprecationWarning, None),
                  ("ignore", PendingDeprecationWarning, None), ("ignore", ImportWarning, None),
                  ("ignore", ResourceWarning, None)]


def bnc_in(*args, cwd=None, check=False, env=None) -> subprocess.CompletedProcess:
    """`bnc(*args)` in this process, without fixtures: what a command's own process gives (exit
    code, stdout, stderr with any warning printed as a fresh interpreter prints it) for one that
    needs no process of its own (no signal, no pool, no environment of its own); sys.argv,
    os.environ, sys.path and the working folder are restored afterwards; `env` sets variables for it
    (BNCBENCH_MIRROR: a mirror)."""
    from bncbench.cli.app import main

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="", write_through=True) for _ in "oe")
    saved = sys.argv, dict(os.environ), list(sys.path), os.getcwd()
    try:
        sys.argv = ["bncbench", *map(str, args)]
        os.environ["BNCBENCH_MIRROR"] = ""
        os.environ.update(env or {})
        if cwd is not None:
            os.chdir(cwd)
        with warnings.catch_warnings(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            warnings.resetwarnings()
            for action, category, module in reversed(_FRESH_FILTERS):
                warnings.filterwarnings(action, category=category, module=module or "")
            warnings.showwarning = warnings._showwarning_orig  # type: ignore[attr-defined]
            try:
                main()
                code = 0
            except SystemExit as stop:
                if isinstance(stop.code, int):
                    code = stop.code
                else:  # as the interpreter ends: None is 0, a message is printed and 1
                    if stop.code is not None:
                        print(stop.code, file=sys.stderr)
                    code = 0 if stop.code is None else 1
    finally:
        os.chdir(saved[3])
        sys.argv, sys.path[:] = saved[0], saved[2]
        os.environ.clear()
        os.environ.update(saved[1])
    r = subprocess.CompletedProcess(list(map(str, args)), code, *(f.buffer.getvalue().decode() for f in (out, err)))
    if check and code != 0:
        raise subprocess.CalledProcessError(code, r.args, r.stdout, r.stderr)
    return r


def cli(*args) -> str:
    """The standard output of a command run in this process by typer's CliRunner (no mirror), which
    must exit 0; an exception of ours is raised as it is."""
    from typer.testing import CliRunner

    from bncbench.cli.app import app

    r = CliRunner().invoke(app, [str(a) for a in args], env={"BNCBENCH_MIRROR": ""})
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    assert r.exit_code == 0, r.output
    return r.stdout
