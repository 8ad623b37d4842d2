"""What the commands share: the options and arguments several of them declare, error output,
comma-separated lists, the --format and --decimals checks, the warning about an incomplete results
store, one section per experiment of a folder of results, and writing a command's text to --out."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import typer

from bncbench.errors import UserError

if TYPE_CHECKING:
    from bncbench.results import Results, Summary

T = TypeVar("T")
R = TypeVar("R")
RESULTS_HELP = "results directory (or its results.sqlite)"


def results_argument(help: str = RESULTS_HELP) -> Any:
    """The RESULTS argument of a command that reads a results store."""
    return typer.Argument(metavar="RESULTS", help=help)


def format_option(help: str = "md | csv | latex") -> Any:
    """--format FORMAT: the choices `help` names (checked by `check_format`)."""
    return typer.Option("--format", metavar="FORMAT", help=help)


def metric_option(help: str, metavar: str = "METRIC") -> Any:
    """--metric: what a command shows or compares (bncbench.evaluate.metrics)."""
    return typer.Option("--metric", metavar=metavar, help=help)


def _selection(option: str, what: str) -> Callable[[str | None], str | None]:
    """The check of a selecting option (`--datasets`): given, it names at least one `what`."""
    def check(value: str | None) -> str | None:
        if value is not None and not split(value):
            raise UserError(f"{option}: {value!r} names no {what}; name at least one, or leave {option} out for all")
        return value
    return check


def datasets_option(help: str = "only these data sets [default: all]") -> Any:
    """--datasets A,B: the data sets a command keeps (refused empty: `_selection`)."""
    return typer.Option("--datasets", metavar="A,B", help=help, callback=_selection("--datasets", "data set"))


def classifiers_option(help: str = "only these classifiers [default: all]") -> Any:
    """--classifiers L1,L2: the classifier labels a command keeps (refused empty: `_selection`)."""
    return typer.Option("--classifiers", metavar="L1,L2", help=help,
                        callback=_selection("--classifiers", "classifier label"))


def out_option(metavar: str, help: str) -> Any:
    """--out: where a command writes."""
    return typer.Option("--out", metavar=metavar, help=help)


def pairs_option(help: str) -> Any:
    """--pairs A:B,...: classifiers paired (bncbench.evaluate.options.pairs)."""
    return typer.Option("--pairs", metavar="A:B,...", help=help)


def rows_option(help: str) -> Any:
    """--rows L1,L2: the classifiers of a matrix's rows."""
    return typer.Option("--rows", metavar="L1,L2", help=help)


def decimals_option(help: str) -> Any:
    """--decimals N: the decimals a table prints (checked by `check_decimals`)."""
    return typer.Option("--decimals", metavar="N", help=help)


def alpha_option(help: str) -> Any:
    """--alpha A: a significance level."""
    return typer.Option("--alpha", metavar="A", help=help)


def caption_option() -> Any:
    """--caption CAPTION: the first LaTeX table's caption in place of the default (`check_latex`)."""
    return typer.Option("--caption", metavar="CAPTION",
                        help="latex: the (first) table's \\caption, as plain text [default: what the table shows, "
                             "in words]")


def label_option(help: str = "latex: the (first) table's \\label; more tables get LABEL-2, LABEL-3, ...") -> Any:
    """--label LABEL: the LaTeX tables' \\label (`check_latex`)."""
    return typer.Option("--label", metavar="LABEL", help=help)


def notes_option() -> Any:
    """--notes/--no-notes: the notes under each LaTeX table, or none (`check_latex`)."""
    return typer.Option("--notes/--no-notes", help="latex: the notes under each table (--no-notes: the "
                                                          "tables alone)")


ResultsArg = Annotated[str, results_argument()]
ResultsOrFolderArg = Annotated[str, results_argument(f"{RESULTS_HELP}, or a folder of them (results/)")]
FormatOpt = Annotated[str, format_option()]
#: the closed choices of the commands' options, checked by the parser (click's message, exit 2)
TableFormat = Literal["md", "csv", "latex"]
TableFormatOpt = Annotated[TableFormat, format_option()]
DatasetsOpt = Annotated[str | None, datasets_option()]
ClassifiersOpt = Annotated[str | None, classifiers_option()]
WithOpt = Annotated[str | None, typer.Option("--with", metavar="FILE",
                                             help="published columns beside the stored ones: a wide table as wdl "
                                                  "TABLE reads it (data set, then one column per classifier, the "
                                                  "metric's values)")]
CaptionOpt = Annotated[str | None, caption_option()]
LabelOpt = Annotated[str | None, label_option()]
NotesOpt = Annotated[bool, notes_option()]
DrawOpt = Annotated[str | None, typer.Option("--draw", metavar="RULE",
                                             help="exact4 | relative:F | ttest[:ALPHA] [default: the config's, "
                                                  "else exact4]")]


def err(msg: str) -> None:
    """One line on standard error (warnings, progress notes, error messages)."""
    typer.echo(msg, err=True)


def split(s: str | None) -> list[str] | None:
    """The items of a comma-separated option ('a, b,' -> ['a', 'b']); None when not given."""
    return [x.strip() for x in s.split(",") if x.strip()] if s else None


def check_format(value: str, choices) -> None:
    """UserError unless --format `value` is one of `choices`."""
    if value not in choices:
        raise UserError(f"--format: {value!r} is not one of {', '.join(choices)}")


def checked(option: str, parse: Callable[[T], R], value: T) -> R:
    """`parse(value)`, one of the option rules of bncbench.evaluate.options; UserError naming `option`."""
    try:
        return parse(value)
    except ValueError as e:
        raise UserError(f"{option}: {e}") from None


def check_decimals(value: int) -> None:
    """UserError unless --decimals `value` is between 0 and report.MAX_DECIMALS."""
    from bncbench.evaluate.report import MAX_DECIMALS

    if not 0 <= value <= MAX_DECIMALS:
        raise UserError(f"--decimals: {value} is not between 0 and {MAX_DECIMALS}")


#: the longest --caption: LaTeX measures a caption in one line first, which overflows (Dimension
#: too large, no PDF) at about 1,300 of the widest letters at 12 pt
MAX_CAPTION = 1000


def check_latex(fmt: str, caption: str | None, label: str | None, notes: bool, location: str | None = None) -> None:
    """UserError unless --caption, --label and --no-notes, when given, go with --format latex, the
    label is one LaTeX can hold and (for a command that may read a folder of experiments,
    `location`) the tables are one experiment's."""
    from bncbench.evaluate.report import valid_label

    given = [o for o, v in (("--caption", caption), ("--label", label), ("--no-notes", None if notes else 1))
             if v is not None]
    if given and fmt != "latex":
        raise UserError(f"{given[0]} is for --format latex (the table's {given[0][2:].replace('no-', '')})")
    if caption is not None and not caption.strip():
        raise UserError("--caption: empty; give the caption's text, or leave the option out for the default")
    if caption is not None and len(caption) > MAX_CAPTION:
        raise UserError(f"--caption: {len(caption)} characters, more than the {MAX_CAPTION} LaTeX sets in one "
                        f"caption box without overflowing it; put the rest in the paper's text")
    if label is not None and not valid_label(label):
        raise UserError(f"--label: {label!r} is not a LaTeX label of letters, digits and - _ . : / + (e.g. tab:zol)")
    if location is not None and (caption is not None or label is not None):
        from bncbench.results import names_one_store

        if not names_one_store(location):
            raise UserError(f"{'--label' if label is not None else '--caption'} names one table: give one "
                            f"experiment's results (e.g. {Path(location) / '<name>'}), not a folder of them")


def latex_text(text: str, fmt: str, caption: str | None, label: str | None, notes: bool) -> str:
    """A command's `text` with --caption, --label and --no-notes applied (latex; others as they are)."""
    from bncbench.evaluate.report import paper_latex

    return paper_latex(text, caption, label, notes) if fmt == "latex" else text


def warn_incomplete(summary: Summary, what: str = "") -> None:
    """Say on standard error what a summary of a store does not show as it should (unfinished
    tasks, cells never run, ...): 'warning<what>: ...'; nothing when all is well."""
    line = summary.status_line()
    if line:
        err(f"warning{what}: {line}")


def per_experiment(location: str, fmt: str, one: Callable[[Results], str], write: Callable[[str], None]) -> None:
    """`write(one(results))`, the text of a command for one open results store, for `location`: as
    it is when `location` is a store; for a folder of experiments (results/<name>/ each), one
    section per experiment in name order, headed by its config name (md: '## name (folder)', latex:
    a comment line) — in csv, a first column `experiment` instead. An experiment the command cannot
    show (e.g. a metric it does not have) gets the one-line reason in its section and on stderr;
    so does one whose store cannot be read (damaged, not a store): the others are written, then
    a UserError (exit 2) names the ones that failed. Each store is opened once."""
    from bncbench.errors import StoreError
    from bncbench.evaluate.report import latex_escape
    from bncbench.results import Results, experiment_folders

    folders = experiment_folders(location)
    if folders is None:
        with Results(location) as r:
            write(one(r))
        return
    parts: list[str] = []
    failed: list[str] = []
    for folder in folders:
        name = folder.name
        try:
            with Results(folder) as r:
                name = r.name
                try:
                    text = one(r)
                except StoreError:
                    raise
                except UserError as e:
                    err(f"{r.location}: not shown: {e}")
                    text = "" if fmt == "csv" else f"not shown: {latex_escape(e) if fmt == 'latex' else e}\n"
        except UserError as e:  # the store cannot be opened or read
            err(f"not shown: {e}")
            failed.append(str(folder))
            text = "" if fmt == "csv" else f"not shown: {latex_escape(e) if fmt == 'latex' else e}\n"
        if fmt == "csv":
            parts.append(_csv_with_experiment(text, name, header=not any(parts)))
        elif fmt == "latex":
            parts.append(f"% experiment {latex_escape(f'{name} ({folder})')}\n{text}\n")  # escaped: one line
        else:
            parts.append(f"## {name} ({folder})\n\n{text}\n")
    write("".join(parts))
    if failed:
        raise UserError(f"{len(failed)} of {len(folders)} experiments could not be read and are not shown "
                        f"({', '.join(failed)}: each one's reason is above); the others are shown")


def _csv_with_experiment(text: str, name: str, header: bool) -> str:
    """CSV `text` with a first column `experiment` holding `name`; its header line kept only with
    `header`."""
    rows = list(csv.reader(io.StringIO(text)))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for i, row in enumerate(rows):
        if i == 0:
            if header:
                w.writerow(["experiment", *row])
            continue
        w.writerow([name, *row])
    return buf.getvalue()


def _refuse_sqlite(out: str) -> None:
    """UserError when --out `out` is an SQLite file (a results store, most likely the one being
    read): a report written over it would destroy every result it holds."""
    from bncbench.engine.recover import MAGIC

    try:
        with open(out, "rb") as f:
            head = f.read(len(MAGIC))
    except OSError:  # not there (or not a readable file: the write says why)
        return
    if head == MAGIC:
        raise UserError(f"--out {out}: is an SQLite file (a results store?); writing there would destroy it: "
                        f"give another file name")


def write_text(text: str, out: str | None) -> None:
    """`text` to standard output, or (atomically) to the file `out`."""
    if out is None:
        typer.echo(text, nl=False)
        return
    write_file(text.encode("utf-8"), out)


def write_file(data: bytes, out: str) -> None:
    """`data` written atomically to the file `out` (never over an SQLite file), said on stderr."""
    from bncbench.utils.files import atomic_write

    _refuse_sqlite(out)
    try:
        with atomic_write(Path(out), "wb", public=True) as f:
            f.write(data)
    except OSError as e:
        raise UserError(f"--out {out}: cannot write ({e.strerror})") from None
    err(f"wrote {out}")
