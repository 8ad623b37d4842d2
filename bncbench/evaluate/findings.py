"""The HTML report's summary as text a paper can start from: `bncbench summary` (docs/cli.md: summary)."""

from __future__ import annotations

import textwrap

from bncbench.evaluate.html import Block, Cell, Figure, Paragraph, Run, Table
from bncbench.evaluate.metrics import in_words
from bncbench.evaluate.report import format_grid, latex_escape, table_label

WIDTH = 88  # the text format's lines


def render(blocks: list[Block], fmt: str, name: str = "") -> str:
    """The blocks of `html.summary_blocks` in `fmt` (md, latex or text), a blank line between two;
    the figures are the page's only. LaTeX: each table a float labelled tab:<name>-<its id>."""
    parts = []
    for b in blocks:
        if isinstance(b, Figure):
            continue
        if isinstance(b, Table):
            parts.append(_table(b, fmt, name).rstrip("\n"))
        else:
            parts.append(_paragraph(b, fmt))
    return "\n\n".join(parts) + "\n"


def _runs(runs: list[Run], fmt: str) -> str:
    """Runs as one line of `fmt` (a break: a new line)."""
    out = []
    for r in runs:
        if r.style == "break":
            out.append({"md": "  \n", "latex": "\\\\\n"}.get(fmt, "\n"))
        elif fmt == "latex":
            text = latex_escape(r.text).replace("/", "/\\allowbreak{}")  # a file's path may break at a slash
            out.append({"code": f"\\texttt{{{text}}}", "math": r.tex}.get(r.style, text))
        elif fmt == "md":
            out.append(f"`{r.text}`" if r.style == "code" else r.text)
        else:
            out.append(r.text)
    return "".join(out)


def _wrap(text: str, first: str = "", rest: str = "") -> str:
    """Each line of `text` wrapped at WIDTH columns, the first behind `first`, the others behind `rest`."""
    return "\n".join(textwrap.fill(line, WIDTH, initial_indent=first if i == 0 else rest, subsequent_indent=rest,
                                   break_long_words=False, break_on_hyphens=False)
                     for i, line in enumerate(text.split("\n")))


def _paragraph(p: Paragraph, fmt: str) -> str:
    """A paragraph, and the list it leads (md, text: '- ' items; LaTeX: itemize)."""
    lead = _runs(p.runs, fmt)
    if fmt == "latex":
        items = [f"\\item {_runs(item, fmt)}" for item in p.items]
        return "\n".join([lead, *(["\\begin{itemize}", *items, "\\end{itemize}"] if items else [])])
    if fmt == "md":
        return "\n".join([lead, *([""] if p.items else []), *(f"- {_runs(item, fmt)}" for item in p.items)])
    return "\n".join([_wrap(lead), *(_wrap(_runs(item, fmt), "- ", "  ") for item in p.items)])


def _table(t: Table, fmt: str, name: str) -> str:
    """A table of the summary: md and LaTeX as `report`'s (format_grid: a long heading on lines of its
    own); text: its caption, the cells
    in aligned columns, its notes."""
    rows = [[c.text if isinstance(c, Cell) else c for c in r] for r in [*t.rows, *t.footer]]
    if fmt != "text":
        body, footer = rows[:len(t.rows)], rows[len(t.rows):]
        caption = t.caption
        if fmt == "latex" and t.metric:  # a paper's caption names the metric in words
            caption = in_words(t.metric, heading=True) + caption.removeprefix(t.metric)
        return format_grid(t.header, body, fmt, caption=caption, footer=footer, notes=t.notes,
                           label=table_label(name, t.ident))
    widths = [max(len(r[j]) for r in [t.header, *rows]) for j in range(len(t.header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [t.header, *rows]]
    return "\n".join([_wrap(t.caption), "", *lines, *(_wrap(n) for n in t.notes)])

