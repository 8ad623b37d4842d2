"""What the commands share: error output, comma-separated lists, the --format check, the warning
about an incomplete results store, and writing a command's text to --out."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from bncbench.errors import UserError

if TYPE_CHECKING:
    from bncbench.results import Summary


def err(msg: str) -> None:
    """One line on standard error (warnings, progress notes, error messages)."""
    typer.echo(msg, err=True)


def split(s: Optional[str]) -> list[str] | None:
    """The items of a comma-separated option ('a, b,' -> ['a', 'b']); None when not given."""
    return [x.strip() for x in s.split(",") if x.strip()] if s else None


def check_format(value: str, choices) -> None:
    """UserError unless --format `value` is one of `choices`."""
    if value not in choices:
        raise UserError(f"--format: {value!r} is not one of {', '.join(choices)}")


def warn_incomplete(summary: Summary, what: str = "") -> None:
    """Say on standard error what a summary of a store does not show as it should (unfinished
    tasks, cells never run, ...): 'warning<what>: ...'; nothing when all is well."""
    line = summary.status_line()
    if line:
        err(f"warning{what}: {line}")


def write_text(text: str, out: str | None) -> None:
    """`text` to standard output, or (atomically) to the file `out`."""
    if out is None:
        typer.echo(text, nl=False)
        return
    from bncbench.utils.files import atomic_write

    try:
        with atomic_write(Path(out), "w", encoding="utf-8", public=True) as f:
            f.write(text)
    except OSError as e:
        raise UserError(f"--out {out}: cannot write ({e.strerror})") from None
    err(f"wrote {out}")
