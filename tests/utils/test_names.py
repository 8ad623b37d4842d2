"""utils/names.py (issue 36): the file-name form of a user's name is stable, injective (percent-
decoding gives the name back; an over-long name ends in a hash of it) and never leaves its folder;
a plain folder name; two names that one case-blind file system would write to one file."""

import random
import urllib.parse

import pytest

from bncbench.utils.names import MAX_LENGTH, case_clash, file_name, folder_name_problem

#: names a user can give, chosen to break file names
HOSTILE = ["", ".", "..", "../../x", "/etc/passwd", "a/b", "a\\b", "a%2Fb", "a%", "%", "a_b", "a b", "a\x00b",
           "\t", "CON", "con", "CON.txt", "nul", "COM1", "LPT9", "COM10", ".hidden", "...", "-rf", "~", "~root",
           "x" * 300, "é" * 300, "données", "Données", "e\u0301", "\u00e9", "日本語", "emoji 🙂", "\ud800", "a:b",
           "a*b?c", "<>|\"", "line\nbreak", "TAN-AIT", "SP+RC", "KDB1", "iris", "labor-negotiations"]


@pytest.mark.parametrize("name,expected", [
    ("iris", "iris"), ("TAN-AIT", "TAN-AIT"), ("SP+RC", "SP+RC"), ("v1.2_x", "v1.2_x"),
    ("a/b", "a%2Fb"), ("../../x", "%2E.%2F..%2Fx"), (".", "%2E"), ("..", "%2E."), ("", "%"),
    ("a%2Fb", "a%252Fb"), ("a b", "a%20b"), ("données", "donn%C3%A9es"), ("CON", "%43ON"),
    ("con.txt", "%63on.txt"), ("COM10", "COM10"), ("NUL", "%4EUL"), ("\ud800", "%ED%A0%80"),
])
def test_stable_forms(name, expected):
    """The forms are part of what users see (figure and export file names): a change is a change of
    the documented rule (docs/cli.md: Configuration)."""
    assert file_name(name) == expected


def _random_names(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = "aA0./\\%~_-+ :\x00\né日🙂CON"
    return [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12 if i % 10 else 150)))
        for i in range(n)
    ]


def test_never_leaves_its_folder(tmp_path):
    """Each form, with a prefix or a suffix or none, is one file directly inside the folder: it is
    written there and found there, and nothing else appears."""
    for name in HOSTILE + _random_names(300, 1):
        form = file_name(name)
        assert form and len(form) <= MAX_LENGTH and form.isascii() and form.isprintable()
        assert "/" not in form and "\\" not in form and not form.startswith(".")
        for path in (tmp_path / form, tmp_path / f"predictions-{form}.parquet", tmp_path / f"{form}-r9-f9-test.arff"):
            path.write_bytes(b"")
            assert path.resolve().parent == tmp_path.resolve()
    made = {p.name for p in tmp_path.iterdir()}
    assert all("/" not in m for m in made) and not any(p.is_dir() for p in tmp_path.iterdir())


def test_injective_and_decodable():
    """Percent-decoding a form gives its name back (so two names never share a form; the empty
    name's form, %, is no percent-encoding); a form cut to MAX_LENGTH ends in a hash of the name."""
    names = sorted(set(HOSTILE + _random_names(3000, 2)) - {"\ud800", ""})
    forms = [file_name(n) for n in names]
    assert len(set(forms)) == len(names)
    for name, form in zip(names, forms):
        if "~" in form:
            assert len(form) <= MAX_LENGTH and len(form.rsplit("~", 1)[1]) == 16
        else:
            assert urllib.parse.unquote(form, errors="strict") == name
    long = ["x" * 200 + str(i) for i in range(50)] + ["é" * 99 + c for c in "abc"]
    assert len({file_name(n) for n in long}) == len(long)


def test_case_clash():
    assert case_clash(["NB", "TAN", "nb"]) == ("NB", "nb")
    assert case_clash(["a/b", "A%2fb"]) is None  # A%2fb is A%252fb: no clash
    assert case_clash(["Iris", "iris"]) == ("Iris", "iris")
    assert case_clash(["x", "x", "y"]) is None  # the same name twice is one file, as it should be


@pytest.mark.parametrize("name,problem", [
    ("", "is empty"), ("  ", "is empty"), ("../../../somewhere", "path separator"), ("/tmp/x", "path separator"),
    ("a\\b", "path separator"), ("a\x00b", "control character"), ("a\nb", "control character"),
    (".", "starts with a dot"), ("..", "starts with a dot"), (".hidden", "starts with a dot"),
    (" x", "space"), ("x ", "space"), ("x" * (MAX_LENGTH + 1), f"longer than {MAX_LENGTH} bytes"),
    ("é" * (MAX_LENGTH // 2 + 1), "longer than"),
])
def test_folder_name_problems(name, problem):
    assert problem in (folder_name_problem(name) or "")


@pytest.mark.parametrize("name", ["stan70", "ait36-bv", "my experiment", "results", "données", "x" * MAX_LENGTH,
                                  "a.b"])
def test_plain_folder_names(name):
    assert folder_name_problem(name) is None
