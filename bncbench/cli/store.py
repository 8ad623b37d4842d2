"""`bncbench store check` (is a results store intact?) and `bncbench store salvage` (keep its intact
tasks in a new store): docs/cli.md, Results store; docs/store.md, Integrity."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bncbench.cli.common import err
from bncbench.errors import UserError

if TYPE_CHECKING:
    from bncbench.engine.recover import Survey

app = typer.Typer(no_args_is_help=True, help="Check a results store, or keep its intact tasks in a new one.")

#: exit code of `store check` when it finds damage (docs/cli.md, Exit codes)
DAMAGED = 1
_SHOWN = 20


def _problems(s: Survey) -> list[str]:
    """What is wrong with a surveyed store, each in a few words."""
    states = Counter(t[5] for t in s.tasks)
    out = [s.reading()] if s.reading() else []
    if s.integrity != ["ok"] and not s.how.startswith("SQLite cannot read"):
        out.append("SQLite's integrity check fails")
    gone = sorted({"tasks", "splits", "meta"} - s.tables) if s.tables else []
    if gone:
        out.append(f"its {' and '.join(gone)} table{'s are' if len(gone) > 1 else ' is'} gone")
    if states["damaged"]:
        out.append(f"{states['damaged']} task(s) fail their checksum")
    if s.lost:
        out.append(f"{len(s.lost)} row(s) SQLite cannot read")
    if s.damaged_meta:
        out.append(f"its {', '.join(s.damaged_meta)} record(s) (meta) damaged")
    return out


@app.command()
def check(results: Annotated[str, typer.Argument(help="a results folder or its results.sqlite")]) -> None:
    """Report the store's state: SQLite's integrity check, every task's checksum, every split it
    uses, the tables and the meta records, the format. A file SQLite cannot open is read from a
    copy with a corrected header, or from the pages that survive. Exit 0 when intact, 1 when
    damage is found."""
    from bncbench.engine.recover import survey

    with tempfile.TemporaryDirectory(prefix="bncbench-check-") as scratch:
        s = survey(results, Path(scratch))
        s.close()
    states = Counter(t[5] for t in s.tasks)
    damaged = [t for t in s.tasks if t[5] == "damaged"]
    lines = ["| check | result |", "|---|---|",
             f"| read | {s.reading() or 'as it is'} |",
             f"| format | {'not recorded' if s.fmt is None else s.fmt} (written by "
             f"{'not recorded' if s.writer is None else s.writer}) |",
             f"| SQLite integrity check | {'ok' if s.integrity == ['ok'] else '; '.join(s.integrity[:3])} |"]
    if s.empty:
        lines.append("| tables | none: the file is empty |")
    elif {"tasks", "splits", "meta"} - s.tables and s.tables:
        lines.append(f"| tables gone | {', '.join(sorted({'tasks', 'splits', 'meta'} - s.tables))} |")
    lines.append(f"| tasks intact | {states['intact']} of {len(s.tasks)} |")
    if states["unverifiable"]:
        lines.append(f"| tasks without a checksum (format 2: readable, not verifiable) | {states['unverifiable']} |")
    lines.append(f"| tasks damaged (checksum, split or decoding) | {len(damaged)} |")
    if s.lost:
        lines.append(f"| rows SQLite cannot read (damaged pages) | {len(s.lost)} |")
    lines.append(f"| meta records damaged | {', '.join(s.damaged_meta) or 'none'} |")
    for key, ds, label, run, fold, _, _ in damaged[:_SHOWN]:
        lines.append(f"| damaged | {ds} × {label}, run {run}, fold {fold} ({key[:12]}) |")
    if len(damaged) > _SHOWN:
        lines.append(f"| damaged | … and {len(damaged) - _SHOWN} more |")
    typer.echo("\n".join(lines))
    if s.intact:
        return
    kept = len(s.kept)
    in_place = s.how == "" and s.integrity == ["ok"]  # SQLite reads and writes the file as it is
    if s.empty:
        err(f"{results}: the results store is empty (no tables, no tasks); `bncbench run CONFIG --results {results}` "
            f"computes every task")
    elif not kept and in_place:
        err(f"{results}: damaged ({'; '.join(_problems(s))}); no task survives: `bncbench run CONFIG --results "
            f"{results}` computes them again")
    else:
        err(f"{results}: damaged ({'; '.join(_problems(s))}); `bncbench store salvage {results} --out NEW` copies "
            f"the {kept} intact task(s) into a new store, where `bncbench run` computes only what was lost")
    raise typer.Exit(DAMAGED)


def _refuse_out(results: str, out: str) -> None:
    """UserError unless --out names a new store, away from RESULTS."""
    from bncbench.engine.store import store_path

    target = store_path(out)
    if target.exists():
        raise UserError(f"--out {out}: a results store is there already; choose a new folder")
    if Path(out).resolve() == Path(results).resolve() or target.resolve() == store_path(results).resolve():
        raise UserError("--out must be another folder than RESULTS")
    if Path(out).exists() and not Path(out).is_dir() and Path(out).suffix != ".sqlite":
        raise UserError(f"--out {out}: a file is there; choose a new folder")


@app.command()
def salvage(results: Annotated[str, typer.Argument(help="a results folder or its results.sqlite")],
            out: Annotated[str, typer.Option("--out", help="a new results folder (must not hold a store)")]) -> None:
    """Copy every intact task of RESULTS, the splits it uses and the store's config into a new
    store, so that `bncbench run CONFIG --results NEW` recomputes only what was lost. A file SQLite
    cannot open is read from a copy with a corrected header, or from the pages that survive;
    RESULTS itself is never written. The new store appears at --out only once it is complete."""
    from bncbench.engine.recover import survey
    from bncbench.engine.store import Store, store_path
    from bncbench.utils.files import atomic_path

    _refuse_out(results, out)
    if not store_path(results).is_file():
        Store(results, readonly=True)  # its own message: no results here, a folder, ...
    target = store_path(out)
    created = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".salvage-", dir=target.parent) as scratch:
            s = survey(results, Path(scratch))
            try:
                if s.empty:
                    raise UserError(f"{results}: the results store is empty (no tables, no tasks): nothing to salvage; "
                                    f"`bncbench run CONFIG --results {results}` computes every task")
                # written under a temporary name and renamed when complete: a salvage killed
                # part-way leaves nothing at --out that looks like a store
                with atomic_path(target, public=True) as part:
                    try:
                        new = Store(part)
                        new.location = out
                        n, meta = 0, s.meta
                        for source in s.sources:
                            n += new.copy_intact(source, {t[0] for t in s.kept if t[6] is source}, meta)
                            meta = {}
                        new.close()
                    finally:
                        for suffix in ("-wal", "-shm", "-journal"):
                            Path(part + suffix).unlink(missing_ok=True)
            finally:
                s.close()
    except BaseException:
        for folder in created:  # the folders this salvage made, if nothing else is in them
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    dropped = len(s.tasks) - len(s.kept) + max(0, len(s.lost) - s.recovered)
    how = f" ({s.reading()})" if s.reading() else ""
    lost_meta = f" (its damaged {', '.join(s.damaged_meta)} record(s) too: run writes them again)" \
        if s.damaged_meta else ""
    left = "the tasks that did not survive" if s.pages else f"{dropped} damaged task(s)"
    err(f"salvaged {n} task(s) into {out}{how}; {left} left behind{lost_meta}: run the config with --results {out} "
        f"to compute them again")
