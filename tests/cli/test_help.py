"""The command line explains itself: every command's --help has an example and named
metavars, --version works, and the Makefile's paper targets use every core."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = [["run"], ["export"], ["report"], ["wdl"], ["ranks"], ["rcll"], ["gd"], ["claims"], ["compare"], ["figures"],
            ["structure"], ["folds"], ["datasets", "list"], ["datasets", "info"], ["datasets", "fetch"],
            ["datasets", "verify"], ["datasets", "describe"], ["fit"], ["predict"], ["summary"]]


def bnc(*args):
    env = dict(os.environ, COLUMNS="100")
    return subprocess.run([sys.executable, "-m", "bncbench", *args], capture_output=True, text=True, env=env)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_has_an_example_and_named_metavars(command):
    r = bnc(*command, "--help")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert re.search(r"^\s*Examples?:", out, re.M), out
    assert re.search(r"^\s+bncbench " + " ".join(command), out, re.M), out  # the example runs this command
    for noise in ("<str>", "<bool>", "<int>", "<float>", "{", "}"):
        assert noise not in out, f"{noise!r} in: {out}"


def test_report_help_lists_every_metric():
    from bncbench.evaluate.metrics import METRICS

    out = bnc("report", "--help").stdout
    for m in METRICS:
        assert m in out, m


def test_version():
    from bncbench import __version__

    r = bnc("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"bncbench {__version__}"
    toml = (ROOT / "pyproject.toml").read_text()
    assert f'version = "{__version__}"' in toml


def test_paper_targets_use_every_core():
    for target, config in (("stan70", "configs/stan70.yaml"), ("ait36", "configs/ait36.yaml"),
                           ("aode22", "configs/aode22.yaml"), ("kban", "configs/kban.yaml")):
        r = subprocess.run(["make", "-n", "-o", ".venv/.installed", target], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        run = [ln for ln in r.stdout.splitlines() if f"run {config}" in ln]
        assert run and f"--jobs {len(os.sched_getaffinity(0))}" in run[0], run
        r = subprocess.run(["make", "-n", "-o", ".venv/.installed", target, "JOBS=1"], capture_output=True,
                           text=True, cwd=ROOT)
        assert "--jobs 1" in next(ln for ln in r.stdout.splitlines() if f"run {config}" in ln)


def test_the_synopsis_of_docs_cli_names_every_option():
    """docs/cli.md's synopsis at its top names every option of every command (a --x/--no-x flag by
    either name), as its --help does."""
    import typer

    from bncbench.cli.app import app

    text = (ROOT / "docs" / "cli.md").read_text()
    block = text[text.index("bncbench run CONFIG"):]
    synopsis: dict[str, str] = {}
    name = ""
    for line in block[:block.index("```")].splitlines():
        start = re.match(r"bncbench (\w+)", line)
        name = start.group(1) if start else name
        synopsis[name] = synopsis.get(name, "") + line
    for name, command in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        for p in command.params:
            names = [o for o in p.opts + p.secondary_opts if o.startswith("--") and o != "--help"]
            assert not names or any(re.search(re.escape(o) + r"(?![\w-])", synopsis.get(name, "")) for o in names), \
                (name, names)
