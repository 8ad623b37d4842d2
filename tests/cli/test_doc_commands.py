"""Every command README.md and docs/cli.md show in a code block runs as shown (issue 39 item 7).

The `bncbench ...` lines of their shell code blocks are read, not listed here: a synopsis
(`bncbench fit CONFIG --dataset NAME ...`) runs with its optional [...] parts left out, the first
of alternatives (RESULTS|TABLE; `datasets list | info NAME | ...` each), and its placeholders
given small values built once (SUBSTITUTE, BY_OPTION), every option it shows checked against the
command's --help; a concrete line runs as written in a temporary folder where the files it names
exist in small form: every results/<name> is a copy of one small store (3 data sets, 3 folds, NB
and TAN), every config (configs/default.yaml, my.yaml) the small config that made it, so a paper's
grid keeps its command's shape at a fraction of its cost. README's commands in running text
(`bncbench run my.yaml`) run too. Each must exit 0 (N where its comment says `# exit N`),
writing only into that folder (the download cache too). `make` lines and the few commands
ALLOWED names are not run, each for the reason given. README's next step after `make run` works
as written: bncbench is put on the PATH before it is first used.
"""

import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.support.cli import bnc_in, run_store

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/cli.md")
CONFIG = """
name: default
datasets: [iris, zoo, labor-negotiations]
cv: {scheme: stratified, folds: 3, runs: 1, seed: 1}
classifiers: [NB, TAN]
"""
#: not run, with the reason (a line's start: a synopsis or a command as the docs show it)
ALLOWED = {
    "make run": "installs a virtual environment and runs the default experiment (minutes); "
                "tests/evaluate/test_html.py runs its report",
    "make test": "the whole test suite",
    "make lint": "ruff and mypy over the package (minutes); CI runs it",
    "bncbench --debug COMMAND": "a form, not a command: COMMAND is any of the others",
    "bncbench datasets verify --all": "checks every catalog data set's files (the UCI mirror); "
                                      "tests/cli/test_datasets.py runs it",
}
#: a placeholder's value after an option (`--a L --b L`: two classifiers)
BY_OPTION = {"--dataset": "iris", "--classifier": "TAN", "--a": "TAN", "--b": "NB", "--pairs": "TAN:NB",
             "--class": "class"}
#: a positional placeholder's value (files the fixture writes into the folder)
SUBSTITUTE = {"CONFIG": "configs/default.yaml", "RESULTS": "results/default", "NAME": "iris", "MODEL": "model",
              "DATA": "iris.csv", "TABLE": "table.tsv", "CLAIMS.yaml": "claims.yaml", "<name>": "default"}
SUBCOMMANDS = {"datasets", "store"}
PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*(?:[:=.,][A-Za-z0-9_]+)*|<\w+>")


EXIT = "#exit="  # how _blocks keeps a line's documented exit code


def _blocks(text: str):
    """The lines of each shell code block (```sh, bash, console or none), a continuation line
    (indented) joined to the one before, comments dropped (but `# exit N`, kept as EXIT N), `a && b`
    two lines."""
    for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
        if lang not in ("sh", "bash", "shell", "console", ""):
            continue
        lines: list[str] = []
        for raw in body.splitlines():
            exit_code = re.search(r"#\s*exit (\d+)\b", raw)  # a documented error: `bncbench ... # exit 2: why`
            line = re.sub(r"(^|\s+)#\s.*$", "", raw).rstrip() + (f" {EXIT}{exit_code[1]}" if exit_code else "")
            if line[:1].isspace() and lines:
                lines[-1] += " " + line.strip()
            elif line:
                lines.append(line)
        yield [part.strip() for line in lines for part in line.split(" && ")]


#: README's commands in running text: `bncbench COMMAND ARGUMENT...` (not `bncbench run` naming a command)
INLINE = re.compile(r"`(bncbench [a-z]+ [^`]+)`")


def shown() -> list[tuple[str, str]]:
    """(document, line) of every bncbench or make line of the documents' shell code blocks, and of
    README's commands in running text."""
    readme = re.sub(r"^```.*?^```", "", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S | re.M)
    return [(doc, line) for doc in DOCS for lines in _blocks((ROOT / doc).read_text(encoding="utf-8"))
            for line in lines if line.split()[0] in ("bncbench", "make")] + \
        [("README.md", line) for line in INLINE.findall(readme)]


def _split_top(line: str, sep: str) -> list[str]:
    """`line` split at `sep` outside [...]."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth == 0 and line.startswith(sep, i):
            parts.append(line[start:i])
            start = i + len(sep)
    return [*parts, line[start:]]


def commands(line: str) -> list[tuple[str, str]]:
    """The commands a shown line stands for, each as shown and as run: a pipe or redirection dropped,
    each alternative of a synopsis (`datasets list | info NAME`) under the same command group, and
    to run, the optional [...] parts left out."""
    first, *rest = _split_top(line, " | ")
    words = first.split()
    prefix = words[:2] if len(words) > 2 and words[1] in SUBCOMMANDS else words[:1]
    out = [first] + [" ".join([*prefix, r]) for r in rest if r.split()[0] in ("info", "fetch", "verify", "describe",
                                                                               "list", "check", "salvage")]
    pairs = []
    for c in out:
        c = c.split(" > ")[0]
        run = c
        while re.search(r"\[[^\[\]]*\]", run):
            run = re.sub(r"\[[^\[\]]*\]", "", run)
        pairs.append((" ".join(c.split()), " ".join(run.split())))
    return pairs


class Folder:
    """The temporary folder the commands run in, with the small inputs their placeholders stand for."""

    def __init__(self, root: Path, store: Path, config: str):
        self.root, self.store, self.config, self.outs = root, store, config, 0

    def path(self, token: str) -> str:
        """A concrete path of a command, made to exist in small form: results/X a copy of the store,
        a config (configs/*.yaml, my.yaml) the small config, another file of the checkout
        (papers/stan70/dev.tsv) a copy."""
        if (self.root / token).exists() or token.startswith("-"):
            return token
        if re.fullmatch(r"results/[^/]+/?", token):
            shutil.copytree(self.store, self.root / token)
        elif token.endswith(".yaml") and (token.startswith("configs/") or not (ROOT / token).is_file()):  # a config
            (self.root / token).parent.mkdir(parents=True, exist_ok=True)
            (self.root / token).write_text(self.config)
        elif "/" in token and (ROOT / token).is_file():
            (self.root / token).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / token, self.root / token)
        return token

    def value(self, token: str, option: str) -> str:
        """A placeholder's value (a fresh path for an --out), or the token itself."""
        if "|" in token and not token.startswith("-"):
            token = token.split("|", maxsplit=1)[0]
        if not PLACEHOLDER.fullmatch(token) and "<" not in token:
            return self.path(token)
        if option == "--out":
            self.outs += 1
            return f"out-{self.outs}"
        if option in BY_OPTION:
            return BY_OPTION[option]
        for key, value in SUBSTITUTE.items():
            token = token.replace(key, value)
        if PLACEHOLDER.fullmatch(token):
            pytest.fail(f"no value for the placeholder {token}: add one to SUBSTITUTE or BY_OPTION, or the "
                        f"command to ALLOWED with the reason")
        return self.path(token)

    def args(self, command: str) -> list[str]:
        words = shlex.split(command)[1:]
        return [self.value(w, words[i - 1] if i else "") for i, w in enumerate(words)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    store = run_store(tmp_path_factory, "docs", CONFIG)
    root = tmp_path_factory.mktemp("doc-commands")
    f = Folder(root, store, CONFIG)
    for name in ("configs/default.yaml", "results/default"):
        f.path(name)
    model = root / "fitted"
    bnc_in("fit", "configs/default.yaml", "--dataset", "iris", "--classifier", "TAN", "--out", model, cwd=root,
           check=True)
    shutil.copy(model / "iris-TAN.bncmodel", root / "model")
    (root / "iris.csv").write_text("sepallength,sepalwidth,petallength,petalwidth\n5.1,3.5,1.4,0.2\n6.7,3.0,5.2,2.3\n")
    (root / "table.tsv").write_text("dataset\tTAN\tNB\niris\t0.0600\t0.0467\nzoo\t0.0297\t0.0396\n"
                                    "labor-negotiations\t0.1053\t0.1053\n")
    (root / "paper-table.tsv").write_text("dataset\tPaper-SVM\niris\t0.0400\nzoo\t0.0500 ± 0.0300\n")  # --with
    (root / "claims.yaml").write_text("paper: test\nresults: {main: results/default}\nclaims:\n"
                                      "  - text: TAN beats NB\n"
                                      "    wdl: {results: main, metric: zol, row: TAN, column: NB, printed: 1-0-1}\n")
    return f


def test_the_documents_show_commands_and_allowed_ones_exist():
    lines = [line for _, line in shown()]
    assert sum(line.startswith("bncbench") for line in lines) >= 25, lines
    for start in ALLOWED:
        assert any(c.startswith(start) for line in lines for c, _ in commands(line)), f"ALLOWED {start!r} is not shown"


def test_readme_puts_bncbench_on_the_path_before_using_it():
    """After `make run`, the README's next command works as written: a line putting .venv/bin on
    the PATH comes before its first `bncbench` command (the Makefile installs the entry point there)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    activate = re.search(r"(^|&& )(\.|source) \.venv/bin/activate\b", text, re.M)
    first = min(text.index(line) for doc, line in shown() if doc == "README.md" and line.startswith("bncbench"))
    assert activate is not None and activate.start() < first, "README uses bncbench before putting it on the PATH"
    assert 'bncbench = "bncbench.cli:main"' in (ROOT / "pyproject.toml").read_text()
    assert "pip install -q -e" in (ROOT / "Makefile").read_text()


@pytest.mark.parametrize("doc,line", shown(), ids=[f"{d}:{line[:60]}" for d, line in shown()])
def test_shown_command_runs(folder, doc, line):
    """The command runs (exit 0, or the code its comment documents), and every option the line shows
    is one its --help lists."""
    line, _, code = line.partition(f" {EXIT}")
    for full, command in commands(line):
        if any(full.startswith(start) for start in ALLOWED):
            continue
        assert command.startswith("bncbench"), f"{doc}: {command!r} is neither run nor in ALLOWED"
        words = command.split()
        group = words[1:3] if words[1] in SUBCOMMANDS else words[1:2]
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", full))
        if options:
            usage = bnc_in(*group, "--help", check=True).stdout
            missing = sorted(o for o in options if not re.search(rf"(?<![\w-]){o}(?![\w-])", usage))
            assert not missing, f"{doc}: {full}: not options of bncbench {' '.join(group)}: {missing}"
        before = sorted(p.name for p in folder.root.parent.iterdir()), sorted(p.name for p in ROOT.iterdir())
        r = bnc_in(*folder.args(command), cwd=folder.root, env={"BNCBENCH_CACHE": str(folder.root / "cache")})
        assert r.returncode == int(code or 0), f"{doc}: {command}\n{r.stderr}"
        # written only into the folder (and its cache): nothing beside it, nothing in the checkout
        assert (sorted(p.name for p in folder.root.parent.iterdir()), sorted(p.name for p in ROOT.iterdir())) == before
