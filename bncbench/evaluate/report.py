"""Paper-style tables (Markdown, CSV, LaTeX); wide tables are read by `wide_table`."""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
from collections.abc import Collection, Mapping
from typing import Protocol

from bncbench.errors import UserError
from bncbench.evaluate.metrics import NO_MEAN, in_words
from bncbench.evaluate.stats import average_ranks, round4

MARK = "†"  # after the name of a data set whose version differs from the paper's

DECIMALS = 4  # a table's decimals unless --decimals says otherwise (the ranks stay on round4's basis)
MAX_DECIMALS = 10


def number(x: float, decimals: int = DECIMALS) -> str:
    """Correctly rounded text of a double at `decimals` decimals (as printf; not numpy.round)."""
    return format(float(x), f".{decimals}f")


def cell(mean: float, sd: float, decimals: int = DECIMALS) -> str:
    """'mean ± sd' (or 'mean' without an sd, 'n/a' without a mean) at `decimals` decimals."""
    if math.isnan(mean):
        return "n/a"
    return number(mean, decimals) if math.isnan(sd) else f"{number(mean, decimals)} ± {number(sd, decimals)}"


def best_of_row(cells: list[str], lower_is_better: bool) -> list[bool]:
    """Which of a row's printed cells ('mean', 'mean ± sd' or 'n/a') hold its best value as
    printed, ties all; none when fewer than two have a value."""
    nums = [float(c.split(" ± ")[0]) if c not in ("n/a", "") else math.nan for c in cells]
    have = [x for x in nums if not math.isnan(x)]
    if len(have) < 2:
        return [False] * len(cells)
    top = min(have) if lower_is_better else max(have)
    return [x == top for x in nums]


def valid_label(label: str) -> bool:
    """Whether `label` is a LaTeX label of letters, digits and - _ . : / + only."""
    return re.fullmatch(r"[A-Za-z0-9_.:/+-]+", label) is not None


def table_label(*parts: str) -> str:
    """A LaTeX label 'tab:<parts joined by ->' with only letters, digits and - . : kept (others -)."""
    return "tab:" + "-".join(re.sub(r"[^A-Za-z0-9.:-]+", "-", p).strip("-") for p in parts if p)


def _num(x: float) -> str:
    return "" if math.isnan(x) else repr(float(x))


def difference_legend(datasets, differences: dict[str, str]) -> list[str]:
    """One legend line per marked data set, in table order."""
    return [f"{MARK} our version differs from the paper's: {ds}: {differences[ds]}"
            for ds in datasets if ds in differences]


def summary_rows(datasets, labels, values, lower_is_better: bool, no_mean: str = "",
                 decimals: int = DECIMALS, paper: bool = False) -> tuple[list[list[str]], list[str]]:
    """The mean row and the average-rank row of a report table, and their notes (docs/algorithms.md
    §6.7). Means at `decimals` decimals; the ranks are of the values at 4 decimals whatever `decimals`.
    `paper`: the rank note in a paper's words (LaTeX), naming no option."""
    complete = [ds for ds in datasets if not any(math.isnan(values[(ds, lab)][0]) for lab in labels)]
    n, total = len(complete), len(datasets)
    if n:
        means = [number(math.fsum(values[(ds, lab)][0] for ds in complete) / n, decimals) for lab in labels]
        avg, _ = average_ranks([[float(round4(values[(ds, lab)][0])) for lab in labels] for ds in complete],
                               lower_is_better)
        rank_cells = [format(r, ".2f") for r in avg]
    else:
        means = rank_cells = ["n/a"] * len(labels)
    over = "" if n == total else f" ({n} of {total} data sets)"
    ranked = len(labels) >= 2
    rows = ([] if no_mean else [[f"mean{over}"] + means]) + ([[f"average rank{over}"] + rank_cells] if ranked else [])
    direction = "lower" if lower_is_better else "higher"
    if paper:  # a paper's words: the rule, not the option that prints other decimals
        ties = "values equal at 4 decimals share the average of their ranks"
        notes = ([f"Average rank: 1 = best ({direction} is better); {ties}."] if ranked else
                 ["No average-rank row: one classifier (its rank is 1 on every data set)."])
    else:
        ties = ("equal values as printed share the average of their ranks" if decimals == DECIMALS else
                "values equal at 4 decimals share the average of their ranks (ranked at 4 decimals whatever "
                "--decimals)")
        notes = ([f"average rank: 1 = best ({direction} is better); {ties}"] if ranked else
                 ["no average-rank row: one classifier (its rank is 1 on every data set)"])
    if no_mean:
        notes.append(f"no mean row: {no_mean}")
    if n < total and rows:
        left = [ds for ds in datasets if ds not in complete]
        what = " and ".join(r[0].split(" (")[0] for r in rows)
        notes.append(f"{what} over the {n} data set(s) where every classifier shown has a value; "
                     f"left out: {', '.join(left)}")
    return rows, notes


class CellMarks(Protocol):
    """What follows each cell of a report table, a count row under it and their legend
    (evaluate/versus_base.py's VersusBase: each cell against a base column)."""

    def mark(self, dataset: str, label: str) -> str: ...

    def count_row(self, labels: list[str]) -> list[str]: ...

    def legend(self, lower_is_better: bool) -> list[str]: ...


def format_report(datasets, labels, values, metric: str, fmt: str, differences: dict[str, str] | None = None,
                  lower_is_better: bool | None = None, notes: list[str] | None = None,
                  no_mean: str | None = None, decimals: int = DECIMALS, label: str = "", caption: str = "",
                  versus: CellMarks | None = None) -> str:
    """One row per data set, one column per classifier, in md, latex or csv (docs/algorithms.md §6.7):
    values at `decimals` decimals (csv: full precision); in latex each mean over its sd
    (`_stacked_cells`), the best of each row in bold, `label` (default tab:<metric>) and `caption`
    (default: the metric in words, mean ± sd);
    `versus`: each cell marked against a base column, with a count row and the legend (md, latex;
    evaluate/versus_base.py)."""
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["dataset", "classifier", "metric", "mean", "sd"])
        for ds in datasets:
            for lab in labels:
                m, s = values[(ds, lab)]
                w.writerow([ds, lab, metric, _num(m), _num(s)])
        return buf.getvalue()
    differences = differences or {}
    if lower_is_better is None:
        from bncbench.evaluate.metrics import LOWER_IS_BETTER

        lower_is_better = LOWER_IS_BETTER[metric]
    rows = [[f"{ds} {MARK}" if ds in differences else ds]
            + [cell(values[(ds, lab)][0], values[(ds, lab)][1], decimals) for lab in labels] for ds in datasets]
    footer, summary_notes = summary_rows(datasets, labels, values, lower_is_better,
                                         NO_MEAN.get(metric, "") if no_mean is None else no_mean, decimals,
                                         paper=fmt == "latex")
    bold = {(i, j + 1) for i, r in enumerate(rows + footer)
            for j, best in enumerate(best_of_row(r[1:], lower_is_better or r[0].startswith("average rank")))
            if best}
    legend = (["Bold: the best value of each row as printed, ties all bold (of the average ranks, the lowest)."]
              if fmt == "latex" else [])
    marks = {(i, j + 1): versus.mark(ds, lab) if versus is not None else ""
             for i, ds in enumerate(datasets) for j, lab in enumerate(labels)}
    if versus is not None:  # after the bold: a mark is no part of a cell's value
        footer = footer + [versus.count_row(list(labels))]
        legend = legend + versus.legend(lower_is_better)
    tex = _stacked_cells(rows + footer, marks, bold) if fmt == "latex" else {}
    rows = [[r[0], *(c + marks[(i, j)] for j, c in enumerate(r[1:], 1))] for i, r in enumerate(rows)]
    if not caption:
        caption = f"{in_words(metric, heading=True)}, mean ± sd" if fmt == "latex" else f"{metric} (mean ± sd)"
    return format_grid(["dataset"] + list(labels), rows, fmt, caption=caption, footer=footer,
                       notes=list(notes or []) + summary_notes + legend + difference_legend(datasets, differences),
                       bold=bold, label=label or table_label(metric), tex=tex)


def _stacked_cells(rows: list[list[str]], marks: dict[tuple[int, int], str],
                   bold: Collection[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """The LaTeX of a report table's value cells (rows counted over body and footer, column 0 the
    data set's): the mean, in bold where `bold` says, over its sd (`±sd`) in a smaller size, so
    that a column is as wide as one number; a cell's mark against the base after its mean, and in
    a column with any mark an invisible one as wide after each other cell, so that the numbers of
    a column stay aligned."""
    marked = {j for (_, j), m in marks.items() if m}
    out = {}
    for i, r in enumerate(rows):
        for j, c in enumerate(r[1:], 1):
            mean, _, sd = c.partition(" ± ")
            top = rf"\textbf{{{latex_escape(mean)}}}" if (i, j) in bold else latex_escape(mean)
            if sd:
                top = (rf"\begin{{tabular}}[t]{{@{{}}r@{{}}}}{top}\\[-2pt]{{\scriptsize {latex_escape('±' + sd)}}}"
                       r"\end{tabular}")
            mark = marks.get((i, j), "")
            shown = latex_escape(mark.strip() or WIDEST_MARK)  # after a thin space
            out[(i, j)] = top + (rf"\,{shown}" if mark else rf"\hphantom{{\,{shown}}}" if j in marked else "")
    return out


# What LaTeX text cannot hold as it is, for pdflatex with its default font encoding (OT1) or T1:
# the characters TeX reads as commands (and "[", which after a row's \\ would start its optional
# argument); the ASCII characters OT1's text fonts print as other glyphs
# (< > as ¡ ¿, " as ”, | as —; the backquote as ‘); the Latin-1 characters OT1 lacks; and the
# Unicode symbols bncbench's own tables use.
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': r"\texttt{\char34}",
                  "`": r"\textasciigrave{}", "[": "{[}", "\t": " ", "\n": " ", "\r": " ",
                  "«": r"\textless{}\textless{}", "»": r"\textgreater{}\textgreater{}", "Ð": "D", "ð": "d",
                  "Þ": "Th", "þ": "th",
                  "±": r"$\pm$", MARK: r"$^\dagger$", "−": r"$-$", "≤": r"$\le$", "≥": r"$\ge$", "·": r"$\cdot$",
                  "∼": r"$\sim$", "×": r"$\times$", "→": r"$\rightarrow$", "√": r"$\surd$",
                  "∞": r"$\infty$", "²": r"$^2$", "³": r"$^3$", "α": r"$\alpha$", "χ": r"$\chi$",
                  "ρ": r"$\rho$", "Σ": r"$\Sigma$", "Φ": r"$\Phi$",
                  "∘": r"$\circ$", "•": r"$\bullet$"}  # evaluate/versus_base.py's marks, in outline fonts
# the characters beyond Latin-1 that LaTeX's utf8 input sets up for both OT1 and T1
_UTF8_TEXT = frozenset("–—‘’“”‡…‰€™ŁłŒœıȷ")
# the text accents of OT1, by Unicode combining mark (the ogonek is T1's only)
_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u",
            "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0323": "d",
            "\u0327": "c", "\u0331": "b"}


def latex_escape(s) -> str:
    """`s` as LaTeX text that pdflatex typesets as written, with the default (OT1) or T1 fonts: every
    LaTeX output of bncbench goes through here (docs/cli.md: report). A character neither pdflatex
    nor an accent command can print (an emoji, a CJK character) becomes a visible
    [U+XXXX]; a compatibility form (ﬁ, ², full-width letters) its ASCII letters. A pair the fonts
    would join into one glyph (-- into –, '' into ”, ,, into „) is kept apart."""
    text = str(s)
    return "".join(_latex_char(ch) + ("{}" if ch in "-'," and text[i + 1:i + 2] == ch else "")
                   for i, ch in enumerate(text))


def _latex_char(ch: str) -> str:
    if ch in _LATEX_SPECIAL:
        return _LATEX_SPECIAL[ch]
    code = ord(ch)
    if 0x20 <= code < 0x7F or 0xA0 <= code <= 0xFF or ch in _UTF8_TEXT:  # LaTeX's utf8 input sets Latin-1 up
        return ch
    if code > 0xFF and unicodedata.category(ch) not in ("Cc", "Cs"):
        decomposed = unicodedata.normalize("NFD", ch)
        base, marks = decomposed[0], decomposed[1:]
        if marks and base.isascii() and base.isalpha() and all(m in _ACCENTS for m in marks):
            out = {"i": r"\i", "j": r"\j"}.get(base, base)
            for m in marks:
                out = f"\\{_ACCENTS[m]}{{{out}}}"
            return out
        plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        if plain and plain.isascii() and plain.isprintable():
            return "".join(_latex_char(c) for c in plain)
    return f"{{[}}U+{code:04X}]"


# A note's command-line spelling: an aside ' (--draw exact4)' as the md notes give it, and an option's name
_OPTION_ASIDE = re.compile(r" \(--[a-z][^()]*\)")
_OPTION = re.compile(r"(--[a-z][a-z-]*)")
# The symbols with a subscript that the notes and the summary write as text, and their LaTeX
MATH = {"χ²_F": r"$\chi^2_F$", "F_F": "$F_F$", "R_worse": r"$R_\mathrm{worse}$", "R_better": r"$R_\mathrm{better}$",
        "n_test": r"$n_\mathrm{test}$", "n_train": r"$n_\mathrm{train}$"}
_MATH = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, MATH)) + r")(?!\w)")


def latex_note(s: str) -> str:
    """A note under a LaTeX table in a paper's words: the command-line aside that md gives in
    parentheses (' (--tails one)') left out, any other option name set as code
    (\\texttt{-{}-decimals}, never an en dash), a symbol of MATH as its math (χ²_F as
    $\\chi^2_F$); the rest as `latex_escape` sets it."""
    parts = _OPTION.split(_OPTION_ASIDE.sub("", s))
    return "".join(rf"\texttt{{{latex_escape(p)}}}" if i % 2 else _latex_math(p) for i, p in enumerate(parts))


def _latex_math(s: str) -> str:
    """`s` as `latex_escape` sets it, a symbol of MATH as its math."""
    return "".join(MATH[p] if i % 2 else latex_escape(p) for i, p in enumerate(_MATH.split(s)))


TABLE_START = r"\begin{table}[htbp]"  # how format_grid begins a LaTeX table and its notes (`paper_latex`)
NOTES_START = r"\par\smallskip"
TABLE_SIZE = r"\small\setlength{\tabcolsep}{3pt}"  # a tabular's type and column gap, inside its float
WIDEST_MARK = "∘"  # the space a cell's mark against the base takes (∘ and • are as wide)


def stacked(text: str, width: int = 8, align: str = "c") -> str:
    """LaTeX `text` (a column heading) on lines of at most `width` characters where it can break:
    after a space, a hyphen, an en dash or a slash (a nested tabular, its lines aligned `align`,
    its last on the row's baseline); a piece longer than `width` on a line of its own."""
    lines: list[str] = []
    for piece in re.findall(r"[^ /\-–]*(?:[ /\-–]+|$)", text):
        if lines and len((lines[-1] + piece).rstrip()) <= width:
            lines[-1] += piece
        elif piece:
            lines.append(piece)
    lines = [x.rstrip() for x in lines]
    if len(lines) < 2:
        return latex_escape(text)
    return (rf"\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}" + "\\\\".join(latex_escape(x) for x in lines)
            + r"\end{tabular}")


def paper_latex(text: str, caption: str | None = None, label: str | None = None, notes: bool = True) -> str:
    """The LaTeX `text` of format_grid's tables with the first table's caption `caption` (plain
    text, escaped), the tables labelled `label`, `label`-2, `label`-3, ... in order and, without
    `notes`, no notes under them; what is not given stays as it is."""
    out: list[str] = []
    table, skipping = 0, False
    for line in text.split("\n"):
        if skipping:
            skipping = line != "}"  # the notes' group ends on the line after their last \par
            continue
        if line == NOTES_START and not notes:
            skipping = True
            continue
        if line == TABLE_START:
            table += 1
        if line.startswith("\\label{") and label is not None:
            continue
        if line.startswith("\\caption{"):
            if caption is not None and table == 1:
                line = rf"\caption{{{latex_escape(caption)}}}"
            if label is not None:
                line += "\n" + rf"\label{{{label if table == 1 else f'{label}-{table}'}}}"
        out.append(line)
    return "\n".join(out)


def spread_words(scheme: str, folds: int, runs: int, sd: bool = True) -> str:
    """What a table's 'mean ± sd' is over, as a caption says it: 'mean ± sd over 10 folds' (one run:
    the sd over the folds), 'mean ± sd over 5 runs of 10-fold cross-validation' (the sd over the
    runs; `sd` False: 'mean over ...'), as `metrics.summarize` computes them."""
    what = "mean ± sd" if sd else "mean"
    if scheme == "petal-bv":
        return f"{what} over {runs} runs"
    return f"{what} over {folds} folds" if runs == 1 else f"{what} over {runs} runs of {folds}-fold cross-validation"


def format_grid(header: list[str], rows: list[list[str]], fmt: str, caption: str = "",
                footer: list[list[str]] | None = None, notes: list[str] | None = None,
                bold: Collection[tuple[int, int]] = (), label: str = "",
                tex: Mapping[tuple[int, int], str] | None = None) -> str:
    """A table in md, csv or latex. `footer` rows (e.g. summaries) follow the body (set off by a
    rule in LaTeX); `notes` are lines under the table (md, latex; csv has none). LaTeX: a
    `table` float with booktabs rules, `caption` and `label`, the cells at the (row, column)
    positions `bold` (rows counted over rows + footer) in bold and those of `tex` as the LaTeX
    it gives, the notes in small type under it; the tabular in TABLE_SIZE (set inside the float:
    the document's own tables keep theirs), each heading on lines of at most 8 characters
    (`stacked`), so that a table of 6 to 7 classifiers fits an article's text width."""
    footer, notes = footer or [], notes or []
    if fmt == "csv":
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows([header] + rows + footer)
        return buf.getvalue()
    if fmt == "latex":
        given = dict(tex or {})

        def tex_row(i: int, r: list[str]) -> str:
            return " & ".join(given[(i, j)] if (i, j) in given else
                              rf"\textbf{{{latex_escape(c)}}}" if (i, j) in bold else latex_escape(c)
                              for j, c in enumerate(r)) + r" \\"

        lines = [TABLE_START, r"\centering"]
        lines += [rf"\caption{{{latex_escape(caption)}}}"] if caption else []
        lines += [rf"\label{{{label}}}"] if label else []
        lines += [TABLE_SIZE, r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\toprule",
                  " & ".join(stacked(h, align="r" if j else "l") for j, h in enumerate(header)) + r" \\",
                  r"\midrule"]
        widest = max((len(r[0]) for r in rows), default=0)  # a footer's name breaks where longer than a row's
        given.update({(len(rows) + i, 0): stacked(r[0], max(widest, 14), "l") for i, r in enumerate(footer)})
        lines += [tex_row(i, r) for i, r in enumerate(rows)]
        if footer:
            lines += [r"\midrule"] + [tex_row(len(rows) + i, r) for i, r in enumerate(footer)]
        lines += [r"\bottomrule", r"\end{tabular}"]
        if notes:
            lines += [NOTES_START, r"{\footnotesize\raggedright"]
            lines += [latex_note(n) + r"\par" for n in notes] + ["}"]
        lines.append(r"\end{table}")
        return "\n".join(lines) + "\n"
    if fmt != "md":
        raise UserError(f"unknown format {fmt!r}; choose md, csv or latex")
    body = rows + footer
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]

    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"

    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in body]
    head = f"{caption}\n\n" if caption else ""
    return head + "\n".join(out) + "\n" + ("\n" + "\n".join(notes) + "\n" if notes else "")
