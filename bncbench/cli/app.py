"""The `bncbench` command: its commands in the order `bncbench --help` lists them, --version,
--debug, and `main`, which turns errors and interruptions into one line on stderr and an exit code
(2: bad input or a failing environment, 3: a bug, its traceback in a log file; 130: interrupted)."""

from __future__ import annotations

import datetime
import os
import sys
import traceback
from pathlib import Path

import typer

from bncbench.cli import (
    bayes,
    comparisons,
    datasets,
    figures,
    fit,
    predict,
    report,
    run,
    signals,
    store,
    structure,
    summary,
)
from bncbench.cli.common import err
from bncbench.errors import UserError


def _plain_argument_help() -> None:
    """Recent typer prints a required argument as `{NAME}` in the usage line and `NAME <str>` in
    the argument list; show `NAME` as click does (tests/cli/test_cli.py checks every --help)."""
    from typer import core

    arg = getattr(core, "TyperArgument", None)
    if arg is None:
        return
    if hasattr(arg, "_usage_display_name"):
        arg._usage_display_name = lambda self: self.display_name_raw + ("..." if self.nargs != 1 else "") \
            if self.required else f"[{self.display_name_raw}]"
    if hasattr(arg, "display_type_rich"):
        arg.display_type_rich = lambda self, ctx: None


_plain_argument_help()

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Reproducible benchmarks of Bayesian network classifiers on UCI data.\n\n"
                       "Start with: bncbench run configs/default.yaml, then bncbench report results/default.")
app.add_typer(datasets.app, name="datasets")
app.add_typer(store.app, name="store")
for command in (run.run, report.export, report.report, comparisons.wdl, comparisons.ranks, comparisons.compare,
                comparisons.rcll, comparisons.gd, bayes.bayes, figures.figures, structure.structure, comparisons.claims,
                summary.summary,
                run.folds, fit.fit, predict.predict):
    app.command()(command)


def _version(value: bool) -> None:
    if value:
        from bncbench import __version__

        typer.echo(f"bncbench {__version__}")
        raise typer.Exit()


@app.callback()
def _main(ctx: typer.Context,
          version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit"),
          debug: bool = typer.Option(False, "--debug", help="show the traceback of an unexpected error "
                                                            "(also BNCBENCH_DEBUG=1)")) -> None:
    """Reproducible benchmarks of Bayesian network classifiers on UCI data."""
    if debug:
        os.environ["BNCBENCH_DEBUG"] = "1"
    signals.command = ctx.invoked_subcommand or ""


def _crash_log(text: str) -> Path | None:
    """Write a traceback to a new file in the user cache's `logs` folder (else the temporary
    folder); its path, or None where neither can be written."""
    import tempfile

    from bncbench.data.sources import cache_dir

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    for folder in (cache_dir() / "logs", Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"bncbench-error-{stamp}-{os.getpid()}.log"
            path.write_text(f"bncbench {' '.join(sys.argv[1:])}\n\n{text}")
            return path
        except OSError:
            continue
    return None


def _unexpected(e: BaseException) -> None:
    """An error bncbench did not foresee: one line naming the log file that holds its traceback,
    exit code 3 (with --debug or BNCBENCH_DEBUG=1 the traceback itself)."""
    if os.environ.get("BNCBENCH_DEBUG", "") not in ("", "0"):
        raise e
    log = _crash_log("".join(traceback.format_exception(e)))
    where = f"the traceback is in {log}" if log else "no log file could be written"
    err(f"internal error: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''} — a bug in bncbench; "
        f"{where} (--debug or BNCBENCH_DEBUG=1 shows it); please report it with that file")
    sys.exit(3)


def _out_of_memory(what: str) -> str:
    """The one line of a command that ran out of memory: what failed and what to do."""
    command = next((a for a in sys.argv[1:] if not a.startswith("-")), "")
    todo = ("finished tasks are saved; run it with fewer --jobs, on fewer attributes or data sets, or"
            if command == "run" else "run it on less data, or")
    return f"error: out of memory in `bncbench {command}` ({what}); {todo} on a machine with more memory"


def main() -> None:
    restore = signals.install()
    try:
        # Without standalone mode the parser returns a command's exit code (typer.Exit, and 130
        # for Ctrl-C) instead of calling sys.exit, and raises usage errors to us.
        rc = app(standalone_mode=False)
    except UserError as e:
        err(f"error: {e}")
        sys.exit(2)
    except (KeyboardInterrupt, signals.Stopped) as e:  # Ctrl-C, SIGTERM, SIGHUP
        signals.interrupted(e)
    except MemoryError as e:  # a resource limit, not a bug
        err(_out_of_memory(str(e).splitlines()[0] if str(e) else "an allocation failed"))
        sys.exit(2)
    except Exception as e:  # usage errors of the command-line parser (click, vendored by typer)
        if type(e).__name__ == "Abort":
            signals.interrupted(e)
        if hasattr(e, "show") and hasattr(e, "exit_code"):
            e.show()
            sys.exit(2)
        if type(e).__name__ == "TerminatedWorkerError" and "SIGKILL" in str(e):  # loky's, of a killed worker
            err(_out_of_memory("a worker process was killed: SIGKILL, from the system's out-of-memory killer or "
                               "kill -9"))
            sys.exit(2)
        if isinstance(e, OSError) and e.strerror:  # the environment: a full disk, a lost permission
            err(f"error: {e.filename + ': ' if e.filename else ''}{e.strerror}")
            sys.exit(2)
        _unexpected(e)
    finally:
        restore()
    if isinstance(rc, int) and not isinstance(rc, bool):
        if rc == 130:
            signals.interrupted(KeyboardInterrupt())
        sys.exit(rc)
