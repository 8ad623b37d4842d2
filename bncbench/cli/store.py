"""`bncbench store check` (is a results store intact?) and `bncbench store salvage` (keep its intact
tasks in a new store): docs/cli.md, Results store."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from bncbench.cli.common import err
from bncbench.errors import UserError

app = typer.Typer(no_args_is_help=True, help="Check a results store, or keep its intact tasks in a new one.")

#: exit code of `store check` when it finds damage (docs/cli.md, Exit codes)
DAMAGED = 1
_SHOWN = 20


@app.command()
def check(results: Annotated[str, typer.Argument(help="a results folder or its results.sqlite")]) -> None:
    """Report the store's state: SQLite's integrity check, every task's checksum, every split it
    uses, the format. Exit 0 when intact, 1 when damage is found."""
    from bncbench.engine.store import Store

    store = Store(results, readonly=True)
    try:
        integrity = store.integrity()
        tasks, lost = store.scan()
        fmt, writer = store.get_meta("format", "?"), store.get_meta("written_by", "not recorded")
    finally:
        store.close()
    states = Counter(t[5] for t in tasks)
    damaged = [t for t in tasks if t[5] == "damaged"]
    lines = ["| check | result |", "|---|---|",
             f"| format | {fmt} (written by {writer}) |",
             f"| SQLite integrity check | {'ok' if integrity == ['ok'] else '; '.join(integrity[:3])} |",
             f"| tasks intact | {states['intact']} of {len(tasks)} |"]
    if states["unverifiable"]:
        lines.append(f"| tasks without a checksum (format 2: readable, not verifiable) | {states['unverifiable']} |")
    lines.append(f"| tasks damaged (checksum, split or decoding) | {len(damaged)} |")
    if lost:
        lines.append(f"| rows SQLite cannot read (damaged pages) | {len(lost)} |")
    for key, ds, label, run, fold, _ in damaged[:_SHOWN]:
        lines.append(f"| damaged | {ds} × {label}, run {run}, fold {fold} ({key[:12]}) |")
    if len(damaged) > _SHOWN:
        lines.append(f"| damaged | … and {len(damaged) - _SHOWN} more |")
    typer.echo("\n".join(lines))
    if damaged or lost or integrity != ["ok"]:
        err(f"{results}: damaged; `bncbench store salvage {results} --out NEW` copies the "
            f"{states['intact'] + states['unverifiable']} intact task(s) into a new store, where `bncbench run` "
            f"computes only what was lost")
        raise typer.Exit(DAMAGED)


@app.command()
def salvage(results: Annotated[str, typer.Argument(help="a results folder or its results.sqlite")],
            out: Annotated[str, typer.Option("--out", help="a new results folder (must not hold a store)")]) -> None:
    """Copy every intact task of RESULTS, the splits it uses and the store's config into a new
    store, so that `bncbench run CONFIG --results NEW` recomputes only what was lost."""
    from bncbench.engine.store import Store, store_path

    if store_path(out).exists():
        raise UserError(f"--out {out}: a results store is there already; choose a new folder")
    if Path(out).resolve() == Path(results).resolve():
        raise UserError("--out must be another folder than RESULTS")
    source = Store(results, readonly=True)
    try:
        tasks, lost = source.scan()
        keep = {t[0] for t in tasks if t[5] != "damaged"}
        meta, damaged_meta = source.readable_meta()
        created = not Path(out).exists()
        target = Store(out)
        try:
            n = target.copy_intact(source, keep, meta)
        except BaseException:
            target.close()
            for part in ("", "-wal", "-shm", "-journal"):  # nothing half-written is left at --out
                Path(f"{target.path}{part}").unlink(missing_ok=True)
            if created and not any(Path(out).iterdir()):
                Path(out).rmdir()
            raise
        target.close()
    finally:
        source.close()
    dropped = len(tasks) - len(keep) + len(lost)
    lost_meta = f" (its damaged {', '.join(damaged_meta)} record(s) too: run writes them again)" if damaged_meta else ""
    err(f"salvaged {n} task(s) into {out}; {dropped} damaged task(s) left behind{lost_meta}: run the config with "
        f"--results {out} to compute them again")
