"""Tables a paper can use: --format latex (booktabs rules, the best of each row in bold, caption,
label, notes) compiles with pdflatex, and --decimals (hand-worked tables; printf rounding)."""

import csv
import io
import math
import re
import shutil
import subprocess
import sys
from collections import Counter
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import pytest

from bncbench.evaluate.report import format_report
from tests.support.cli import SMALL
from tests.support.skips import need

NAN = math.nan
PREAMBLE = "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"


def compile_latex(body: str, folder, preamble: str = PREAMBLE) -> str:
    """Compile `body` in a minimal article with booktabs (or after another `preamble`); fail with the
    log's errors unless pdflatex succeeds; the log."""
    exe = shutil.which("pdflatex")
    if exe is None:
        need("BNCBENCH_REQUIRE_LATEX", "pdflatex is not installed (apt-get install texlive-latex-base "
                                       "texlive-latex-recommended)")
    (folder / "doc.tex").write_text(preamble + body + "\\end{document}\n", encoding="utf-8")
    r = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
                       cwd=folder, capture_output=True, text=True, timeout=120)
    errors = [ln for ln in r.stdout.splitlines() if ln.startswith("!") or "not set up for use" in ln]
    assert r.returncode == 0 and (folder / "doc.pdf").stat().st_size > 0, "\n".join(errors) or r.stdout[-2000:]
    return (folder / "doc.log").read_text(encoding="utf-8", errors="replace")


# a report cell as LaTeX: the mean (in bold or not) over its sd in a smaller size, or a value alone;
# then its mark after a thin space, or a mark's invisible width
TEX_CELL = re.compile(r"(?:\\begin\{tabular\}\[t\]\{@\{\}r@\{\}\}(?P<mean>.*)\\\\\[-2pt\]"
                      r"\{\\scriptsize \$\\pm\$(?P<sd>.*)\}\\end\{tabular\}|(?P<value>.*?))"
                      r"(?:\\,(?P<mark>\$\\(?:circ|bullet)\$)|\\hphantom\{\\,\$\\circ\$\})?")


def tex_cell(c: str) -> tuple[str, bool]:
    """(text, in bold) of a LaTeX cell: 'mean $\\pm$ sd' of a report cell's mean over its sd, then
    ' ' and its mark ('$\\circ$'); a mark's invisible width left out."""
    m = TEX_CELL.fullmatch(c)
    assert m is not None, c
    top = m["value"] if m["mean"] is None else m["mean"]
    bold = re.fullmatch(r"\\textbf\{(.*)\}", top)
    text = (bold.group(1) if bold else top) + ("" if m["sd"] is None else f" $\\pm$ {m['sd']}")
    return text + (f" {m['mark']}" if m["mark"] else ""), bold is not None


def unstacked(c: str) -> str:
    """The text of a LaTeX cell set on lines of its own (report.stacked), as one line."""
    m = re.fullmatch(r"\\begin\{tabular\}\[b\]\{@\{\}[lcr]@\{\}\}(.*)\\end\{tabular\}", c)
    return re.sub(r"(?<![-/–])\\\\", " ", m.group(1)).replace("\\\\", "") if m else c


def tex_tables(tex: str) -> list[tuple[str, list[list[tuple[str, bool]]], list[str]]]:
    """(label, rows, first cells) of each tabular of `tex` holding a \\label: every row between the
    header's rule and \\bottomrule as (cell text, in bold) after the first column."""
    lines, out = tex.splitlines(), []
    for i, ln in enumerate(lines):
        if not ln.startswith("\\label{"):
            continue
        start = lines.index("\\midrule", i)
        end = lines.index("\\bottomrule", i)
        rows, firsts = [], []
        for row in lines[start + 1:end]:
            if row == "\\midrule":
                continue
            assert row.endswith(" \\\\"), row
            cells = row[:-3].split(" & ")
            firsts.append(unstacked(cells[0]))
            rows.append([tex_cell(c) for c in cells[1:]])
        out.append((ln[len("\\label{"):-1], rows, firsts))
    return out


def check_bold_is_best(rows, firsts, higher_is_better: bool) -> int:
    """Each row's bold cells are exactly those holding its best number as printed (ties all; the
    average-rank row: the lowest; none when fewer than two have a number); the bold count."""
    bold_count = 0
    for first, row in zip(firsts, rows):
        nums = [float(m.group()) if (m := re.match(r"-?\d+(\.\d+)?", text)) else None for text, _ in row]
        have = [x for x in nums if x is not None]
        higher = higher_is_better and not first.startswith("average rank")
        best = (max(have) if higher else min(have)) if len(have) >= 2 else None
        assert [b for _, b in row] == [x is not None and x == best for x in nums], (first, row)
        bold_count += sum(b for _, b in row)
    return bold_count


# ---------------------------------------------------------------- hand-worked tables

# accuracy, higher is better. At 2 decimals (printf; numpy.round would print 2.68 and 1.12):
# d1 89.00 ± 4.46 and 89.00 ± 1.11 (a tie as printed, both bold; at 4 decimals 89.0000 > 88.9951,
# so the ranks are 1 and 2), d2 2.67 and 3.00 ± 0.00 (B best). Means (89 + 2.675)/2 = 45.8375 →
# 45.84 and (88.9951 + 3)/2 = 45.99755 → 46.00 (B best); ranks A: (1 + 2)/2, B: (2 + 1)/2, a tie.
HAND = {("d1", "A"): (89.0, 4.4583), ("d1", "B"): (88.9951, 1.115),
        ("d2", "A"): (2.675, NAN), ("d2", "B"): (3.0, 0.0)}
RANK_NOTE = ("average rank: 1 = best (higher is better); values equal at 4 decimals share the average of their "
             "ranks (ranked at 4 decimals whatever --decimals)")
# the same in a paper's words (LaTeX): the rule, no option
PAPER_RANK_NOTE = ("Average rank: 1 = best (higher is better); values equal at 4 decimals share the average of their "
                   "ranks.")


def test_markdown_at_two_decimals_hand_worked():
    md = format_report(["d1", "d2"], ["A", "B"], HAND, "accuracy", "md", decimals=2)
    assert md == ("accuracy (mean ± sd)\n\n"
                  "| dataset      | A            | B            |\n"
                  "|--------------|--------------|--------------|\n"
                  "| d1           | 89.00 ± 4.46 | 89.00 ± 1.11 |\n"
                  "| d2           | 2.67         | 3.00 ± 0.00  |\n"
                  "| mean         | 45.84        | 46.00        |\n"
                  "| average rank | 1.50         | 1.50         |\n\n"
                  f"{RANK_NOTE}\n")


def test_latex_at_two_decimals_hand_worked():
    tex = format_report(["d1", "d2"], ["A", "B"], HAND, "accuracy", "latex", decimals=2)
    assert tex == ("\\begin{table}[htbp]\n\\centering\n"
                   "\\caption{Accuracy (\\%), mean $\\pm$ sd}\n\\label{tab:accuracy}\n"
                   "\\small\\setlength{\\tabcolsep}{3pt}\n"  # inside the float: the document's tables keep theirs
                   "\\begin{tabular}{lrr}\n\\toprule\n"
                   "dataset & A & B \\\\\n\\midrule\n"  # the mean in bold over its sd in a smaller size
                   "d1 & \\begin{tabular}[t]{@{}r@{}}\\textbf{89.00}\\\\[-2pt]{\\scriptsize $\\pm$4.46}"
                   "\\end{tabular} & "
                   "\\begin{tabular}[t]{@{}r@{}}\\textbf{89.00}\\\\[-2pt]{\\scriptsize $\\pm$1.11}\\end{tabular} \\\\\n"
                   "d2 & 2.67 & \\begin{tabular}[t]{@{}r@{}}\\textbf{3.00}\\\\[-2pt]{\\scriptsize $\\pm$0.00}"
                   "\\end{tabular} \\\\\n\\midrule\n"
                   "mean & 45.84 & \\textbf{46.00} \\\\\n"
                   "average rank & \\textbf{1.50} & \\textbf{1.50} \\\\\n"
                   "\\bottomrule\n\\end{tabular}\n"
                   "\\par\\smallskip\n{\\footnotesize\\raggedright\n"
                   f"{PAPER_RANK_NOTE}\\par\n"
                   "Bold: the best value of each row as printed, ties all bold (of the average ranks, the "
                   "lowest).\\par\n"
                   "}\n\\end{table}\n")


def test_zero_decimals_and_the_default_four():
    [(_, cells, firsts)] = tex_tables(format_report(["d1", "d2"], ["A", "B"], HAND, "accuracy", "latex", decimals=0))
    rows = dict(zip(firsts, cells))
    # 2.675 → 3 and 3.0 → 3: a tie as printed, both bold; means 46 and 46
    assert rows["d1"] == [("89 $\\pm$ 4", True), ("89 $\\pm$ 1", True)]
    assert rows["d2"] == [("3", True), ("3 $\\pm$ 0", True)]
    assert rows["mean"] == [("46", True), ("46", True)]
    md = format_report(["d1", "d2"], ["A", "B"], HAND, "accuracy", "md")
    assert "| d1           | 89.0000 ± 4.4583 | 88.9951 ± 1.1150 |" in md
    assert "equal values as printed share the average of their ranks" in md  # today's note at 4 decimals


def test_latex_escapes_names_marks_the_best_and_compiles(tmp_path):
    names = ["my_data&co", "50% #1", "a~b^c", "x{y}\\z", "$5 † ≤ − ∞"]
    values = {}
    for i, d in enumerate(names):
        values[(d, "NB_1")] = (0.1 * i, 0.01)
        values[(d, "TAN & co")] = (0.1 * i if i % 2 else 0.1 * i + 0.05, NAN)
        values[(d, "50%")] = (NAN, NAN) if i == 3 else (0.3, 0.02)
    values[("only one", "NB_1")], values[("only one", "TAN & co")], values[("only one", "50%")] = \
        (0.2, NAN), (NAN, NAN), (NAN, NAN)
    datasets = names + ["only one"]
    parts = []
    for metric, decimals in (("zol", 4), ("zol", 1), ("accuracy", 2)):
        tex = format_report(datasets, ["NB_1", "TAN & co", "50%"], values, metric, "latex",
                            differences={"a~b^c": "fewer rows"}, decimals=decimals,
                            label=f"tab:t-{metric}-{decimals}")
        [(label, rows, firsts)] = tex_tables(tex)
        assert label == f"tab:t-{metric}-{decimals}"
        assert firsts[:len(names)] == [r"my\_data\&co", r"50\% \#1",
                                       r"a\textasciitilde{}b\textasciicircum{}c $^\dagger$",
                                       r"x\{y\}\textbackslash{}z", r"\$5 $^\dagger$ $\le$ $-$ $\infty$"]
        assert r"NB\_1 & TAN \& co & 50\% \\" in tex and "\\toprule" in tex and "\\hline" not in tex
        assert check_bold_is_best(rows, firsts, higher_is_better=metric == "accuracy") >= len(rows) - 1
        assert not any(b for _, b in rows[len(names)])  # one value only: nothing in bold
        parts.append(tex)
    compile_latex("\n".join(parts), tmp_path)


# ---------------------------------------------------------------- the commands

# the CLI tests' small config with one run of 2 folds
SMALLER = SMALL.replace("folds: 3, runs: 2", "folds: 2, runs: 1")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Results of a small config (3 data sets, NB, KDB1, AODE, one run of 2 folds), run in this
    process on the shipped data (an empty cache, no mirror)."""
    d = tmp_path_factory.mktemp("latex")
    (d / "small.yaml").write_text(SMALLER)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BNCBENCH_CACHE", str(d / "cache"))
        mp.setenv("BNCBENCH_MIRROR", "")
        cli("run", d / "small.yaml", "--results", d / "res", "--quiet")
    return d / "res"


def _printed(x: float, decimals: int) -> str:
    """The double `x` correctly rounded to `decimals` (its exact binary value, half to even)."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN))


def invoke(*args):
    """`bncbench ARGS` in this process (CliRunner: a subprocess costs a second of imports)."""
    from typer.testing import CliRunner

    from bncbench.cli.app import app

    return CliRunner().invoke(app, [str(a) for a in args])


def cli(*args) -> str:
    r = invoke(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    return r.stdout


def test_commands_latex_compiles_with_the_best_in_bold(store, tmp_path):
    full = {(row["dataset"], row["classifier"]): (float(row["mean"]), float(row["sd"]))
            for row in csv.DictReader(io.StringIO(cli("report", store, "--metric", "accuracy", "--format", "csv")))}
    acc = cli("report", store, "--metric", "accuracy", "--decimals", "2", "--format", "latex")
    [(label, rows, firsts)] = tex_tables(acc)
    assert label == "tab:small-accuracy" and "\\caption{Accuracy (\\%), mean $\\pm$ sd over 2 folds}" in acc
    for d, row in zip(firsts[:3], rows[:3]):  # at 2 decimals, correctly rounded
        assert [c for c, _ in row] == [f"{_printed(full[(d, lab)][0], 2)} $\\pm$ {_printed(full[(d, lab)][1], 2)}"
                                       for lab in ("NB", "KDB1", "AODE")]
    assert firsts[3:] == ["mean", "average rank"]
    assert check_bold_is_best(rows, firsts, higher_is_better=True) >= len(rows)
    zol = cli("report", store, "--format", "latex", "--label", "tab:zol/small")
    [(label, rows, firsts)] = tex_tables(zol)
    assert label == "tab:zol/small" and check_bold_is_best(rows, firsts, higher_is_better=False) >= len(rows)
    wdl = cli("wdl", store, "--test", "wilcoxon", "--correction", "holm", "--decimals", "3", "--format", "latex")
    p_cells = [c for ln in wdl.splitlines() if ln.startswith(("NB &", "KDB1 &", "AODE &"))
               for c in ln[:-3].split(" & ")[1:] if c != "—" and not re.fullmatch(r"\d+-\d+-\d+", c)]
    assert len(p_cells) == 2 * 6 and all(re.fullmatch(r"[01]\.\d{3}", c) for c in p_cells), p_cells  # p, Holm
    others = [cli("ranks", store, "--control", "NB", "--decimals", "2", "--format", "latex"),
              cli("rcll", store, "--pairs", "KDB1:NB", "--format", "latex")]
    compile_latex("\n".join([acc, zol, wdl, *others]), tmp_path)


@pytest.mark.parametrize("args, says", [
    (["--decimals", "-1"], "--decimals: -1 is not between 0 and 10"),
    (["--format", "html", "--decimals", "2"], "--decimals is for md, csv and latex"),
    (["--label", "tab:x"], "--label is for --format latex"),
    (["--format", "latex", "--label", "tab:{x}"], "is not a LaTeX label"),
    (["--format", "latex", "--caption", " "], "--caption: empty"),
    (["--format", "latex", "--caption", "W" * 1001], "--caption: 1001 characters, more than the 1000"),
])
def test_report_refuses_bad_decimals_and_labels(store, args, says):
    from bncbench.errors import UserError

    r = invoke("report", store, *args)
    assert isinstance(r.exception, UserError) and says in str(r.exception) and "\n" not in str(r.exception)
    assert r.stdout == ""


def test_decimals_out_of_range_one_line_exit_2(store, monkeypatch, capsys):
    from bncbench.cli.app import main

    monkeypatch.setattr(sys, "argv", ["bncbench", "report", str(store), "--decimals", "11", "--format", "latex"])
    with pytest.raises(SystemExit) as stop:
        main()
    out = capsys.readouterr()
    assert stop.value.code == 2 and out.out == "" and out.err == "error: --decimals: 11 is not between 0 and 10\n"
    for command in ("wdl", "ranks"):
        r = invoke(command, store, "--decimals", "20")
        assert str(r.exception) == "--decimals: 20 is not between 0 and 10" and r.stdout == ""
    r = invoke("report", store.parent, "--format", "latex", "--label", "tab:x")
    assert str(r.exception).startswith("--label names one table: give one experiment's results")


# ---------------------------------------------------------------- every LaTeX output, as a paper prints it

def test_a_note_leaves_the_command_line_out_or_sets_it_as_code():
    from bncbench.evaluate.report import latex_note

    assert latex_note("draw: equal at 4 decimals (--draw exact4); one-sided (--tails one)") == \
        "draw: equal at 4 decimals; one-sided"
    assert latex_note("ranked as stored whatever --decimals, or give --results main=DIR") == \
        r"ranked as stored whatever \texttt{-{}-decimals}, or give \texttt{-{}-results} main=DIR"
    assert latex_note("a -- b (see 50%)") == r"a -{}- b (see 50\%)"  # no option: escaped as any text


def test_caption_labels_and_notes_of_several_tables():
    from bncbench.evaluate.report import format_grid, paper_latex

    two = (format_grid(["a", "b"], [["x", "1"]], "latex", caption="first", notes=["note one"], label="tab:old")
           + "\n" + format_grid(["c", "d"], [["y", "2"]], "latex", caption="second", notes=["note two"]))
    assert paper_latex(two) == two
    out = paper_latex(two, "Mine & α", "tab:m", notes=False)
    assert "\\caption{Mine \\& $\\alpha$}\n\\label{tab:m}\n" in out and "\\caption{second}\n\\label{tab:m-2}\n" in out
    assert not any(x in out for x in ("tab:old", "note one", "note two", "footnotesize", "smallskip"))
    assert out.count("\\end{table}") == 2 and out.count("\\bottomrule") == 2
    only_notes = paper_latex(two, notes=False)
    assert "\\caption{first}\n\\label{tab:old}\n" in only_notes and "note" not in only_notes


def _latex_outputs(store, tmp_path) -> dict[str, list]:
    """{name: the arguments of a command's LaTeX output} for every command with --format latex, on `store`."""
    rows = list(csv.DictReader(io.StringIO(cli("report", store, "--format", "csv"))))
    table = tmp_path / "published.tsv"  # a published table of NB's and KDB1's values as our report prints them
    value = {(r["dataset"], r["classifier"]): f"{float(r['mean']):.4f}" for r in rows}
    table.write_text("dataset\tNB (zol)\tKDB1 (zol)\n" + "".join(f"{d}\t{value[(d, 'NB')]}\t{value[(d, 'KDB1')]}\n"
                                                                 for d in dict.fromkeys(r["dataset"] for r in rows)))
    claims = Path(__file__).resolve().parents[2] / "papers" / "ait36" / "claims.yaml"
    missing = tmp_path / "not-run"
    return {"report": ["report", store, "--decimals", "2"],
            "wdl": ["wdl", store, "--draw", "ttest", "--test", "wilcoxon", "--correction", "holm", "--decimals", "3"],
            "ranks": ["ranks", store, "--control", "NB"],
            "bayes": ["bayes", store, "--a", "NB", "--b", "KDB1", "--samples", "2000"],
            "rcll": ["rcll", store, "--pairs", "KDB1:NB"],
            "gd": ["gd", store, "--pairs", "KDB1:NB"],
            "compare": ["compare", store, table],
            "claims": ["claims", claims, "--results", f"main={missing}", "--results", f"bv={missing}"],
            "structure": ["structure", store, "--dataset", "car", "--classifier", "KDB1"],
            "stability": ["structure", store, "--stability"],
            "datasets list": ["datasets", "list"],
            "datasets verify": ["datasets", "verify", "iris"]}


# a default caption of each output, in words (pdftotext's text)
CAPTIONS = {"report": "Zero-one loss, mean ± sd over 2 folds", "wdl": "Zero-one loss: wins-draws-losses",
            "ranks": "Zero-one loss: average ranks", "bayes": "Zero-one loss: Bayesian signed-rank test",
            "rcll": "Relative conditional log-likelihood", "gd": "Zero-one loss: goal difference",
            "compare": "Our values beside the paper’s printed values", "claims": "Claims of paper 004",
            "structure": "KDB1 on car: arcs", "stability": "Structure stability",
            "datasets list": "The data sets of the catalog", "datasets verify": "Data sets loaded"}


def _pdf_text(tex: str, folder) -> str:
    """The text pdftotext reads from `tex` compiled in a plain article with booktabs."""
    folder.mkdir()
    compile_latex(tex, folder)
    exe = shutil.which("pdftotext")
    if exe is None:
        need("BNCBENCH_REQUIRE_LATEX", "pdftotext is not installed (apt-get install poppler-utils)")
    return subprocess.run([exe, "doc.pdf", "-"], cwd=folder, capture_output=True, text=True, check=True).stdout


def test_every_latex_output_compiles_and_reads_as_a_paper(store, tmp_path, monkeypatch):
    """Each command's LaTeX compiles; its captions name the metric in words; no option name in
    the PDF but as code (never an en dash: '–decimals'); never the name zol in a caption or a note."""
    monkeypatch.setenv("BNCBENCH_CACHE", str(store.parent / "cache"))
    monkeypatch.setenv("BNCBENCH_MIRROR", "")
    outputs = {name: cli(*args, "--format", "latex") for name, args in _latex_outputs(store, tmp_path).items()}
    tex = "\n".join(outputs.values())
    text = " ".join(_pdf_text(tex, tmp_path / "plain").split())
    for name, caption in CAPTIONS.items():
        assert caption in text, name
    assert not re.search(r"–[a-z]", text), re.findall(r".{30}–[a-z].{10}", text)
    code = set(re.findall(r"\\texttt\{-\{\}-([a-z-]+)\}", tex))
    assert code >= {"results"}  # claims' notes say how to give a results folder
    assert set(re.findall(r"--([a-z][a-z-]*)", text)) == code  # the options the PDF shows: all of them as code
    assert tex.count("-{}-") == len(re.findall(r"\\texttt\{-\{\}-", tex))
    for name, out in outputs.items():
        if name == "compare":  # its notes name the published table's columns, 'NB (zol)', as the table does
            continue
        lines = out.splitlines()
        captions = [ln for ln in lines if ln.startswith("\\caption{")]
        notes = [ln for i, ln in enumerate(lines) if ln.endswith("\\par") and "footnotesize" in "".join(lines[:i])]
        assert captions and not any("zol" in ln for ln in captions + notes), (name, captions, notes)


def test_caption_label_and_no_notes_on_every_latex_output(store, tmp_path, monkeypatch):
    monkeypatch.setenv("BNCBENCH_CACHE", str(store.parent / "cache"))
    monkeypatch.setenv("BNCBENCH_MIRROR", "")
    outputs = {}
    for i, (name, args) in enumerate(_latex_outputs(store, tmp_path).items()):
        notes = [] if name.startswith("datasets") else ["--no-notes"]  # the catalog's tables have no notes
        outputs[name] = cli(*args, "--format", "latex", "--caption", f"Table {i} of ours, α ± 1",
                            "--label", f"tab:mine-{i}", *notes)
        assert f"\\label{{tab:mine-{i}}}" in outputs[name] and "footnotesize" not in outputs[name], name
        tables = outputs[name].count("\\begin{table}")
        assert [f"tab:mine-{i}" + (f"-{t}" if t > 1 else "") for t in range(1, tables + 1)] == \
            re.findall(r"\\label\{(.*)\}", outputs[name])
    text = " ".join(_pdf_text("\n".join(outputs.values()), tmp_path / "options").split())
    for i, name in enumerate(outputs):
        assert f"Table {i} of ours, α ± 1" in text, name
        assert CAPTIONS[name] not in text, name  # the first table's caption is ours
    for note in ("Average rank: 1 = best", "data sets:", "draw:", "Friedman", "not judged", "posterior samples",
                 "share:", "stability: the mean Jaccard", "data sets in the config"):
        assert note not in text, note


@pytest.mark.parametrize("command", ["report", "wdl", "ranks", "bayes", "rcll", "gd", "compare", "claims",
                                     "structure", "datasets list"])
@pytest.mark.parametrize("option", [["--caption", "x"], ["--label", "tab:x"], ["--no-notes"]])
def test_latex_options_are_refused_with_another_format(store, tmp_path, command, option):
    from bncbench.errors import UserError

    if command == "datasets list" and option == ["--no-notes"]:
        return
    args = _latex_outputs(store, tmp_path)[command]
    r = invoke(*args, "--format", "csv", *option)
    assert isinstance(r.exception, UserError) and r.stdout == ""
    assert str(r.exception).startswith(f"{option[0]} is for --format latex")


# ---------------------------------------------------------------- tables that fit a page

@pytest.fixture(scope="module")
def default_store(tmp_path_factory):
    """Results of configs/default.yaml (7 data sets × NB, TAN, STAN-MRMR, KDB1, KDB2, AODE, 10 folds),
    run in this process on the shipped data."""
    d = tmp_path_factory.mktemp("default")
    (d / "default.yaml").write_text((Path(__file__).resolve().parents[2] / "configs" / "default.yaml").read_text())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BNCBENCH_CACHE", str(d / "cache"))
        mp.setenv("BNCBENCH_MIRROR", "")
        cli("run", d / "default.yaml", "--results", d / "res", "--quiet")
    return d / "res"


def test_tables_fit_an_articles_text_width_at_the_default_size(default_store, tmp_path):
    """At the default experiment's size (6 classifiers, 7 data sets) every table fits the text width
    of a plain article (no 'Overfull \\hbox' in pdflatex's log); the report's PDF still shows every
    mean and sd as report --format csv has them, the best of each row in bold and the marks against
    the base where the csv's versus_base says."""
    store = default_store
    rows = list(csv.DictReader(io.StringIO(cli("report", store, "--format", "csv"))))
    values = {(r["dataset"], r["classifier"]): (float(r["mean"]), float(r["sd"])) for r in rows}
    datasets, labels = list(dict.fromkeys(d for d, _ in values)), list(dict.fromkeys(lab for _, lab in values))
    assert (len(datasets), len(labels)) == (7, 6)
    published = tmp_path / "published.tsv"  # a paper's column beside ours: NB's means, a little better
    published.write_text("dataset\tSmith et al. (2020)\n"
                         + "".join(f"{d}\t{0.98 * values[(d, 'NB')][0]:.4f}\n" for d in datasets))
    outputs = {"report": ["report", store], "report --base NB": ["report", store, "--base", "NB"],
               "report --with": ["report", store, "--with", published],
               "wdl": ["wdl", store], "ranks": ["ranks", store, "--control", "NB"], "summary": ["summary", store],
               "bayes": ["bayes", store, "--a", "NB", "--b", "KDB1", "--samples", "2000"],
               "stability": ["structure", store, "--stability"]}
    tex = {name: cli(*args, "--format", "latex") for name, args in outputs.items()}
    text, overfull = {}, {}
    for i, (name, out) in enumerate(tex.items()):
        text[name] = _pdf_text(out, tmp_path / f"t{i}")
        overfull[name] = re.findall(r"Overfull \\hbox \((.*?) too wide\)", (tmp_path / f"t{i}" / "doc.log").read_text())
    assert not any(overfull.values()), overfull
    for name, out in tex.items():  # every caption names the metric in words
        captions = [ln for ln in out.splitlines() if ln.startswith("\\caption{")]
        assert captions and not any("zol" in c for c in captions), (name, captions)
    assert "\\caption{Zero-one loss: average rank over 7 data sets (1 = best)}" in tex["summary"]
    assert "Friedman: $\\chi^2_F$ = " in tex["ranks"] and "\\_F" not in tex["ranks"]  # math, not text
    assert "Friedman: χ2F = " in text["ranks"] and "$F_F$ = " in tex["ranks"]
    # every mean and sd as the csv has them at 4 decimals, as many times as the table prints them
    # (each mean once in its cell, the sd below it; the mean row's values besides)
    means = Counter(re.findall(r"(?<![±\d.])(\d+\.\d{4})(?![\d])", text["report"]))
    sds = Counter(re.findall(r"±(\d+\.\d{4})", text["report"]))
    assert sds == Counter(_printed(sd, 4) for _, sd in values.values())
    want = Counter(_printed(m, 4) for m, _ in values.values())
    assert not want - means and sum(means.values()) == len(values) + len(labels), (want - means, means)
    for name, higher in (("report", False), ("report --base NB", False), ("report --with", False)):
        [(_, cells, firsts)] = tex_tables(tex[name])
        assert check_bold_is_best(cells, firsts, higher_is_better=higher) >= len(cells)
        assert dict(zip(firsts, cells))["car"][labels.index("NB")][0] == \
            f"{_printed(values[('car', 'NB')][0], 4)} $\\pm$ {_printed(values[('car', 'NB')][1], 4)}"
    [(_, cells, firsts)] = tex_tables(tex["report --with"])
    assert [c for c, _ in dict(zip(firsts, cells))["iris"]][-1] == f"{0.98 * values[('iris', 'NB')][0]:.4f}"
    versus = {(r["dataset"], r["classifier"]): r["versus_base"] for r in csv.DictReader(io.StringIO(
        cli("report", store, "--base", "NB", "--format", "csv")))}
    [(_, cells, firsts)] = tex_tables(tex["report --base NB"])
    marks = {(d, lab): {"$\\circ$": "better", "$\\bullet$": "worse"}.get(c.rsplit(" ", 1)[-1], "")
             for d, row in zip(firsts, cells) if d in datasets for lab, (c, _) in zip(labels, row)}
    assert marks == versus and "better" in marks.values()  # the car data set: KDB2 beats NB
    assert text["report --base NB"].count("◦") == list(versus.values()).count("better") + 1  # and the legend's
