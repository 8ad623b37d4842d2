"""LaTeX output keeps what it was given (issue 36 item 10): `<>"` printed as ¡¿” by the OT1 fonts of
pdflatex, and an emoji that stopped pdflatex. Every `--format latex` text goes through
`evaluate.report.latex_escape`; each case here is compiled with pdflatex (the default OT1 fonts, and
T1) and read back with pdftotext."""

import shutil
import subprocess
import unicodedata

import pytest

from bncbench import config
from bncbench.engine import runner
from bncbench.evaluate.report import format_report, latex_escape
from tests.evaluate.test_latex import PREAMBLE, compile_latex, invoke
from tests.support.skips import need

T1 = PREAMBLE.replace("\\usepackage{booktabs}", "\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}")
ISSUE = 'a<b>"c"'  # the issue's characters
EMOJI = "😀"


def pdf_text(body: str, folder, preamble: str = PREAMBLE) -> str:
    """The text pdftotext reads from `body` compiled by pdflatex after `preamble` (failing on any
    LaTeX error), NFC-normalised (an accent and its letter one character), its lines' white space
    collapsed."""
    folder.mkdir(exist_ok=True)
    compile_latex(body, folder, preamble)
    exe = shutil.which("pdftotext")
    if exe is None:
        need("BNCBENCH_REQUIRE_LATEX", "pdftotext is not installed (apt-get install poppler-utils)")
    out = subprocess.run([exe, "-enc", "UTF-8", "-layout", str(folder / "doc.pdf"), "-"], capture_output=True,
                         text=True, check=True).stdout
    return "\n".join(" ".join(line.split()) for line in unicodedata.normalize("NFC", out).splitlines())


def test_the_issues_characters_and_an_emoji_compile_and_read_as_written(tmp_path):
    """A data set named a<b>"c" and a classifier labelled 😀: with either font encoding the PDF reads
    a<b>"c" (not a¡b¿”c”), and the emoji, which pdflatex cannot print, is a visible [U+1F600]."""
    values = {(ISSUE, "NB|x"): (0.1, 0.01), (ISSUE, EMOJI): (0.2, 0.02),
              ("d2", "NB|x"): (0.3, 0.03), ("d2", EMOJI): (0.25, 0.01)}
    tex = format_report([ISSUE, "d2"], ["NB|x", EMOJI], values, "zol", "latex", notes=[f"{ISSUE} and {EMOJI}"])
    assert EMOJI not in tex and '"' not in tex and "<" not in tex
    for name, preamble in (("ot1", PREAMBLE), ("t1", T1)):
        text = pdf_text(tex, tmp_path / name, preamble)
        # each mean over its sd (T1's ± reads with a space after it)
        assert f"{ISSUE} 0.1000 0.2000\n±0.0100 ±0.0200" in text.replace("± ", "±"), text
        assert "NB|x [U+1F600]" in text and f"{ISSUE} and [U+1F600]" in text
        assert not set("¡¿”—") & set(text), text


def test_a_run_with_such_names_reports_latex_that_compiles(tmp_path):
    """The same names through a run: a CSV of one's own named a<b>"c", NB labelled 😀, and
    `report --format latex`, compiled and read back."""
    (tmp_path / "d.csv").write_text("x,y,class\n" + "".join(f"{i % 3},{i % 2},{'ab'[i % 2]}\n" for i in range(12)))
    exp = config.parse(f"name: odd\ndatasets:\n  - {{name: '{ISSUE}', path: {tmp_path / 'd.csv'}}}\n"
                       f"cv: {{folds: 2}}\nclassifiers: [{{name: NB, label: '{EMOJI}'}}, TAN]\n")
    runner.run(exp, str(tmp_path / "res"), quiet=True, log=lambda *a: None)
    r = invoke("report", tmp_path / "res", "--format", "latex")
    assert r.exit_code == 0, r.output
    text = pdf_text(r.stdout, tmp_path / "pdf")
    assert "dataset [U+1F600] TAN" in text and f"\n{ISSUE} " in text, text


# Hostile names: TeX commands, control characters, broken surrogates, combining marks alone,
# joined emoji, right-to-left script, the ligatures of TeX's fonts (-- '' ,, !` ?`), Latin-1 letters
# OT1 lacks, accents, compatibility forms, "[" (after a row's \\ an optional argument), and a name
# 5,000 characters long.
HOSTILE = [
    ("\\input{/etc/passwd}", r"\textbackslash{}input\{/etc/passwd\}", "\\input{/etc/passwd}"),
    ("\\write18{touch pwned}", r"\textbackslash{}write18\{touch pwned\}", "\\write18{touch pwned}"),
    ("two\n\nlines\r\tand tab", "two  lines  and tab", "two lines and tab"),
    ("bell\x07nul\x00esc\x1b", "bell{[}U+0007]nul{[}U+0000]esc{[}U+001B]", "bell[U+0007]nul[U+0000]esc[U+001B]"),
    ("bad\udcffbyte", "bad{[}U+DCFF]byte", "bad[U+DCFF]byte"),
    ("mark\u0301alone", "mark{[}U+0301]alone", "mark[U+0301]alone"),
    ("👨\u200d👩\u200d👧", "{[}U+1F468]{[}U+200D]{[}U+1F469]{[}U+200D]{[}U+1F467]",
     "[U+1F468][U+200D][U+1F469][U+200D][U+1F467]"),
    ("שלום", "{[}U+05E9]{[}U+05DC]{[}U+05D5]{[}U+05DD]", "[U+05E9][U+05DC][U+05D5][U+05DD]"),
    ("--decimals x---y", "-{}-decimals x-{}-{}-y", "--decimals x---y"),
    ("O''Neil ,,low !`?`", r"O'{}'Neil ,{},low !\textasciigrave{}?\textasciigrave{}", "O’’Neil ,,low !`?`"),
    ("pipe|~^", r"pipe\textbar{}\textasciitilde{}\textasciicircum{}", "pipe|˜ˆ"),  # OT1: ~ ^ as accents
    ("ðÐþÞ«x»", r"dDthTh\textless{}\textless{}x\textgreater{}\textgreater{}", "dDthTh<<x>>"),
    ("Dvořák Łódź ą", r"Dvo\v{r}ák Łód\'{z} a", None),
    ("ﬁle Ａ１", "file A1", "file A1"),
    ("naïve café – “q” …", "naïve café – “q” …", "café – “q” . . ."),  # OT1's ï: ı and a diaeresis
    ("[0.5]pt", "{[}0.5]pt", "[0.5]pt"),
    ("x" * 5000, "x" * 5000, None),
]


# what pdftotext reads of them in T1 (its bitmap fonts map back only ASCII, and not the ﬁ ligature)
T1_READS = ["\\input{/etc/passwd}", "\\write18{touch pwned}", "two lines and tab", "bell[U+0007]nul[U+0000]esc[U+001B]",
            "[U+05E9][U+05DC][U+05D5][U+05DD]", "--decimals x---y", "O''Neil ,,low !`?`", "pipe|~^", "dDthTh<<x>>",
            "[0.5]pt"]


@pytest.mark.parametrize("raw, escaped, reads", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_names_are_escaped(raw, escaped, reads):
    assert latex_escape(raw) == escaped


def test_hostile_names_compile_in_both_encodings_and_read_as_written(tmp_path):
    """Every hostile name in one table, as data set and label: it compiles with OT1 and T1 fonts
    (no shell escape, no file read) and pdftotext reads each back."""
    names = [raw for raw, _, _ in HOSTILE[:-1]]
    values = {(d, lab): (0.5, 0.1) for d in names for lab in ("NB", "\\input{x}")}
    tex = format_report(names, ["NB", "\\input{x}"], values, "zol", "latex")
    assert not (tmp_path / "pwned").exists()
    ot1 = pdf_text(tex, tmp_path / "ot1")
    t1 = pdf_text(tex, tmp_path / "t1", T1)
    assert "dataset NB \\input{x}" in ot1 and "dataset NB \\input{x}" in t1
    for _, _, reads in HOSTILE:
        if reads is not None:
            assert f"{reads} 0.5000 0.5000\n±0.1000 ±0.1000" in ot1, reads  # each mean over its sd
    for reads in T1_READS:
        assert f"{reads} 0.5000 0.5000\n±0.1000 ±0.1000" in t1.replace("± ", "±"), reads
    assert not (tmp_path / "pwned").exists()


def test_a_multi_experiment_latex_report_keeps_its_comments_to_one_line(tmp_path):
    """A folder of experiments, one of them in a folder whose name breaks lines and holds TeX
    commands: each section's comment line stays one line, and the whole compiles."""
    exp = config.parse("name: one\ndatasets: [iris]\ncv: {folds: 2}\nclassifiers: [NB, TAN]\n")
    runner.run(exp, str(tmp_path / "all" / "plain"), quiet=True, log=lambda *a: None)
    shutil.copytree(tmp_path / "all" / "plain", tmp_path / "all" / "x\n\\input{passwd}^^M")
    r = invoke("report", tmp_path / "all", "--format", "latex")
    assert r.exit_code == 0, r.output
    comments = [ln for ln in r.stdout.splitlines() if ln.startswith("%")]
    assert len(comments) == 2 and all(ln.startswith("% experiment one (") for ln in comments), comments
    assert "\\input{passwd}" not in r.stdout and "^^M" not in r.stdout
    text = pdf_text(r.stdout, tmp_path / "pdf")
    assert text.count("iris 0.") == 2
