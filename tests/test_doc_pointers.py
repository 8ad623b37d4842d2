"""Pointers into the documentation lead somewhere (issue 18).

Checked in bncbench/**/*.py, configs/*.yaml, docs/ (Markdown and examples), papers/**,
README.md, Makefile and bench/:

- a section pointer "(README: X)", "(README: "X")", "(see README: X)" or "(docs/<file>.md: X)"
  names a file that exists and has a Markdown heading whose text is X (case-insensitive,
  quotes and backticks stripped, whitespace collapsed; headings inside fenced code blocks do
  not count);
- a citation "docs/algorithms.md §N" or "§N.M" (also "§4.7, §4.8" or "§2.2/§2.3") names a
  heading of docs/algorithms.md that begins with that number ("### 4.7 ...").

Relative Markdown links [text](path) or [text](path#anchor) in README.md, docs/*.md and
papers/**/README.md must name files that exist and, for a Markdown target, an anchor that one
of its headings produces (GitHub's rule). README.md stays a front door of at most 150 lines
that names the four papers.

Each check is a function of the repository root, so the self-checks run it on a synthetic tree
with known bad pointers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def _find_root() -> Path:
    here = Path(__file__).resolve().parent
    for p in (here, *here.parents):
        if (p / "pyproject.toml").is_file() and (p / "bncbench").is_dir():
            return p
    raise RuntimeError("repository root not found above " + str(here))


ROOT = _find_root()
README_MAX_LINES = 150
PAPER_TITLES = {  # paper id -> the title README.md names (002: our description; its title is not in our copy)
    "000": "Attribute Selecting in Tree-Augmented Naive Bayes by Cross Validation Risk Minimization",
    "002": "k-BAN: a restricted Bayesian network augmented naive Bayes",
    "003": "Extracting Credible Dependencies for Averaged One-Dependence Estimator Analysis",
    "004": "Identification of informational and probabilistic independence by adaptive thresholding",
}
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".java", ".txt", ".tsv", ".sh", ".cfg", ".toml"}
SKIP_PARTS = {"__pycache__", ".venv", "results", ".pytest_cache"}

# "(README: X)", "(see README: "X")", "(docs/cli.md: X)": the file, then X up to the closing parenthesis
POINTER = re.compile(r"\((?:[^()]*?\s)?(README(?:\.md)?|docs/[A-Za-z0-9_./-]+?\.md):[ \t\n]*([^()]+?)\s*\)")
# "docs/algorithms.md §4.7", "docs/algorithms.md §2.2/§2.3", "docs/algorithms.md §4.7, §4.8 and §9"
ALGO_CITATION = re.compile(r"docs/algorithms\.md[ \t\n]*"
                           r"((?:§[ \t]*\d+(?:\.\d+)*(?:[ \t\n]*(?:,|/|and|or|&)[ \t\n]*)?)+)")
SECTION_NUMBER = re.compile(r"§[ \t]*(\d+(?:\.\d+)*)")
LINK = re.compile(r"(?<!!)\[([^\]\n]*)\]\(([^()\s]+)\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")


# -- the files searched ---------------------------------------------------------------------
def _files(root: Path, pattern: str, recursive: bool) -> list[Path]:
    found = root.rglob(pattern) if recursive else root.glob(pattern)
    return sorted(p for p in found if p.is_file() and not SKIP_PARTS & set(p.relative_to(root).parts)
                  and (p.suffix in TEXT_SUFFIXES or p.name == "Makefile"))


def searched_files(root: Path) -> list[Path]:
    """Every file whose pointers are checked."""
    out = _files(root / "bncbench", "*.py", True) if (root / "bncbench").is_dir() else []
    for folder, pattern, recursive in (("configs", "*.yaml", False), ("docs", "*", True),
                                       ("papers", "*", True), ("bench", "*", True)):
        if (root / folder).is_dir():
            out += _files(root / folder, pattern, recursive)
    out += [root / name for name in ("README.md", "Makefile") if (root / name).is_file()]
    return out


def markdown_docs(root: Path) -> list[Path]:
    """The Markdown files whose relative links are checked."""
    out = [root / "README.md"] if (root / "README.md").is_file() else []
    if (root / "docs").is_dir():
        out += sorted((root / "docs").glob("*.md"))
    if (root / "papers").is_dir():
        out += sorted(p for p in (root / "papers").rglob("README.md"))
    return out


# -- Markdown structure ---------------------------------------------------------------------
def _outside_fences(text: str):
    """(line number, line) of the lines outside fenced code blocks."""
    fenced = None
    for i, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if fenced is None:
                fenced = m.group(1)
            elif m.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            yield i, line


def headings(path: Path) -> list[str]:
    """The text of every Markdown heading of a file (not in code blocks)."""
    out = []
    for _, line in _outside_fences(path.read_text(encoding="utf-8")):
        m = HEADING.match(line)
        if m:
            out.append(m.group(2))
    return out


def _norm(text: str) -> str:
    text = " ".join(text.split()).strip()
    for q in ('"', "'", "“", "”", "`"):
        text = text.strip(q)
    return text.replace("`", "").strip().casefold()


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower())
    return text.replace(" ", "-")


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _target(root: Path, name: str) -> Path:
    return root / ("README.md" if name in ("README", "README.md") else name)


# -- the checks -----------------------------------------------------------------------------
def section_pointers(root: Path) -> list[tuple[str, str, str]]:
    """(where, file, section) of every section pointer in the searched files."""
    out = []
    for path in searched_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in POINTER.finditer(text):
            where = f"{path.relative_to(root)}:{_line_of(text, m.start())}"
            out.append((where, m.group(1), m.group(2)))
    return out


def bad_section_pointers(root: Path) -> list[str]:
    problems = []
    cache: dict[Path, set[str]] = {}
    for where, name, section in section_pointers(root):
        target = _target(root, name)
        if not target.is_file():
            problems.append(f"{where}: ({name}: {section}) points to {target.relative_to(root)}, which does not exist")
            continue
        if target not in cache:
            cache[target] = {_norm(h) for h in headings(target)}
        if _norm(section) not in cache[target]:
            problems.append(f"{where}: ({name}: {section}): {target.relative_to(root)} has no heading "
                            f"{_norm(section)!r}")
    return problems


def algorithm_citations(root: Path) -> list[tuple[str, str]]:
    """(where, section number) of every "docs/algorithms.md §N" citation in the searched files."""
    out: list[tuple[str, str]] = []
    for path in searched_files(root):
        if path == root / "docs" / "algorithms.md":
            continue  # its own "§N" cross-references are not citations "docs/algorithms.md §N"
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in ALGO_CITATION.finditer(text):
            where = f"{path.relative_to(root)}:{_line_of(text, m.start())}"
            out.extend((where, n) for n in SECTION_NUMBER.findall(m.group(1)))
    return out


def algorithm_sections(root: Path) -> set[str]:
    """The numbers that headings of docs/algorithms.md begin with ("### 4.7 BAN" -> "4.7")."""
    out = set()
    for h in headings(root / "docs" / "algorithms.md"):
        first = h.replace("`", "").split()[0] if h.split() else ""
        first = first.lstrip("§").rstrip(".:")
        if re.fullmatch(r"\d+(?:\.\d+)*", first):
            out.add(first)
    return out


def bad_algorithm_citations(root: Path) -> list[str]:
    citations = algorithm_citations(root)
    doc = root / "docs" / "algorithms.md"
    if not doc.is_file():
        places = sorted({w.split(":")[0] for w, _ in citations})
        return [f"docs/algorithms.md does not exist (issue 18 item 5 writes it): README.md links to it and "
                f"{len(citations)} citation(s) 'docs/algorithms.md §N' cannot be checked"
                + (f" (in {', '.join(places[:8])}{' ...' if len(places) > 8 else ''})" if places else "")]
    sections = algorithm_sections(root)
    return [f"{where}: docs/algorithms.md §{n}: no heading of docs/algorithms.md begins with {n}"
            for where, n in citations if n not in sections]


def bad_links(root: Path, skip_targets: frozenset[str] = frozenset()) -> list[str]:
    """Relative Markdown links whose file (or anchor) does not exist; targets in skip_targets
    (paths relative to root) are left to their own test."""
    problems = []
    for path in markdown_docs(root):
        text_lines = list(_outside_fences(path.read_text(encoding="utf-8")))
        for lineno, line in text_lines:
            for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                href = m.group(2)
                if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I):  # http:, https:, mailto: ...
                    continue
                file_part, _, frag = href.partition("#")
                target = (path.parent / file_part).resolve() if file_part else path
                where = f"{path.relative_to(root)}:{lineno}"
                try:
                    rel = target.relative_to(root.resolve()).as_posix()
                except ValueError:
                    rel = str(target)
                if rel in skip_targets:
                    continue
                if not target.exists():
                    problems.append(f"{where}: [{m.group(1)}]({href}): {rel} does not exist")
                elif frag and target.suffix == ".md":
                    if frag not in {anchor(h) for h in headings(target)}:
                        problems.append(f"{where}: [{m.group(1)}]({href}): {rel} has no heading with anchor #{frag}")
    return problems


# -- the tests on this repository -----------------------------------------------------------
def test_section_pointers_name_existing_sections():
    assert section_pointers(ROOT), "no pointer found at all: the search is broken"
    problems = bad_section_pointers(ROOT)
    assert not problems, "pointers to sections that do not exist:\n" + "\n".join(problems)


def test_algorithms_md_citations_name_existing_sections():
    problems = bad_algorithm_citations(ROOT)
    assert not problems, "\n".join(problems)


def test_relative_markdown_links_resolve():
    # a link to docs/algorithms.md is checked by test_algorithms_md_citations_name_existing_sections,
    # which fails with its own message while that file does not exist
    problems = bad_links(ROOT, frozenset({"docs/algorithms.md"}))
    assert not problems, "broken relative links:\n" + "\n".join(problems)


def test_readme_is_a_short_front_door_naming_the_four_papers():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    n = len(text.splitlines())
    assert n <= README_MAX_LINES, f"README.md has {n} lines (at most {README_MAX_LINES}); move detail to docs/"
    flat = " ".join(text.split()).casefold()
    missing = [f"{pid}: {t}" for pid, t in PAPER_TITLES.items() if t.casefold() not in flat]
    assert not missing, "README.md does not name these papers by title:\n" + "\n".join(missing)
    first = [line for line in text.splitlines() if line.startswith("make ")][:2]
    assert [line.split()[1] for line in first] == ["run", "test"], "make run and make test come first"
    assert "when is a task re-run?" in {_norm(h) for h in headings(ROOT / "README.md")}


def test_every_paper_folder_is_indexed_with_its_config_and_make_target():
    index = (ROOT / "papers" / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    folders = sorted(p.name for p in (ROOT / "papers").iterdir() if p.is_dir())
    assert folders, "papers/ has no paper folder"
    for name in folders:
        assert (ROOT / "papers" / name / "README.md").is_file(), f"papers/{name}/ has no README.md"
        assert (ROOT / "configs" / f"{name}.yaml").is_file(), f"papers/{name}/ is not named after a config"
        assert re.search(rf"^{re.escape(name)}:", makefile, re.M), f"Makefile has no target {name}"
        assert f"]({name}/README.md)" in index, f"papers/README.md does not link papers/{name}/"
    for pid, title in PAPER_TITLES.items():
        assert title.casefold() in index.casefold(), f"papers/README.md does not name paper {pid}"


# -- the checks find what they should (a synthetic tree) ------------------------------------
@pytest.fixture
def fake_repo(tmp_path: Path) -> Path:
    (tmp_path / "bncbench").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "configs").mkdir()
    (tmp_path / "papers" / "p1").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "README.md").write_text("# Tool\n\n## When is a task re-run?\n\nSee [cli](docs/cli.md#run), "
                                        "[gone](docs/gone.md), [bad anchor](docs/cli.md#nowhere), "
                                        "[web](https://example.org/x) and `[code](not/checked.md)`.\n"
                                        "```\n[fenced](not/checked/either.md)\n```\n")
    (tmp_path / "docs" / "cli.md").write_text("# Commands\n\n## run\n\n## Results store\n\n```yaml\n"
                                              "# figures: a comment, not a heading\n```\n")
    (tmp_path / "papers" / "p1" / "README.md").write_text("# P1\n\n[up](../../README.md)\n")
    (tmp_path / "bncbench" / "cli.py").write_text(
        'HELP = """Good: (docs/cli.md: Results store), (README: "When is a task re-run?"),\n'
        '(docs/cli.md: RUN), (see docs/cli.md: results\n    store).\n'
        'Bad: (README: Results store), (docs/cli.md: figures), (docs/nope.md: x),\n'
        '(see README: Configuration).\n'
        'Cites docs/algorithms.md §4.7 and docs/algorithms.md §2.2/§9, and docs/algorithms.md §4.12."""\n')
    (tmp_path / "configs" / "default.yaml").write_text("figures: {}   # (docs/cli.md: figures)\n")
    return tmp_path


def test_self_check_section_pointers(fake_repo: Path):
    problems = bad_section_pointers(fake_repo)
    text = "\n".join(problems)
    assert len(problems) == 5, text
    assert "bncbench/cli.py:4: (README: Results store)" in text
    assert "bncbench/cli.py:4: (docs/cli.md: figures)" in text  # a heading inside a code block does not count
    assert "docs/nope.md, which does not exist" in text
    assert "bncbench/cli.py:5: (README: Configuration)" in text
    assert "configs/default.yaml:1: (docs/cli.md: figures)" in text
    assert len(section_pointers(fake_repo)) == 9


def test_self_check_algorithm_citations(fake_repo: Path):
    missing = bad_algorithm_citations(fake_repo)
    assert len(missing) == 1 and "docs/algorithms.md does not exist" in missing[0], missing
    assert "4 citation(s)" in missing[0] and "bncbench/cli.py" in missing[0]
    (fake_repo / "docs" / "algorithms.md").write_text(
        "# Algorithms\n\n## 2. Estimators\n\n### 2.2 Laplace\n\n### 4.7 BAN\n\n### 4.1 NB\n\n"
        "See §4.12 (not a citation here).\n")
    problems = bad_algorithm_citations(fake_repo)
    assert sorted(p.split(": ", 1)[1].split(":")[0] for p in problems) == ["docs/algorithms.md §4.12",
                                                                             "docs/algorithms.md §9"], problems
    assert algorithm_sections(fake_repo) == {"2", "2.2", "4.7", "4.1"}


def test_self_check_links(fake_repo: Path):
    problems = bad_links(fake_repo)
    text = "\n".join(problems)
    assert len(problems) == 2, text
    assert "README.md:5: [gone](docs/gone.md): docs/gone.md does not exist" in text
    assert "README.md:5: [bad anchor](docs/cli.md#nowhere): docs/cli.md has no heading with anchor #nowhere" in text
    assert bad_links(fake_repo, frozenset({"docs/gone.md"})) == [problems[1]]


def test_anchor_follows_github():
    assert anchor("When is a task re-run?") == "when-is-a-task-re-run"
    assert anchor("Results store") == "results-store"
    assert anchor("`bncbench run`") == "bncbench-run"
