"""SIGTERM and SIGHUP end a command as Ctrl-C does (docs/cli.md: Exit codes).

Python turns SIGINT into KeyboardInterrupt, raised wherever the main thread is, so every
`finally` and `except BaseException` on the way out runs: the run's store writer saves the units
that finished, the worker pool is stopped, a file being written atomically is dropped. SIGTERM and
SIGHUP otherwise end the process at once, leaving worker processes behind; `install` makes them
raise `Stopped` the same way. The first of these signals starts the shutdown; the ones after it
are ignored, so that a second Ctrl-C or SIGTERM cannot break the shutdown half-way (workers left
running, a traceback).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import NoReturn

from bncbench.cli.common import err

ENDING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

command = ""  # the command running, as the parser found it (app.py's callback): what `interrupted` says


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived. Like KeyboardInterrupt not an Exception, so that no
    `except Exception` on the way out takes it for an error."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


def _stop(signum: int, _frame: FrameType | None) -> None:
    for s in ENDING:
        if signal.getsignal(s) is _stop:
            signal.signal(s, signal.SIG_IGN)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def install() -> Callable[[], None]:
    """Handle SIGINT, SIGTERM and SIGHUP as above; a signal this process was started ignoring
    (`nohup` ignores SIGHUP, a background job SIGINT) stays ignored. Returns what puts the
    handlers before back (`main` called in a test's process), unless a signal came."""
    global command
    command = ""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        return lambda: None
    before = {s: signal.getsignal(s) for s in ENDING}
    for s, handler in before.items():
        if handler in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(s, _stop)

    def restore() -> None:
        if any(signal.getsignal(s) is signal.SIG_IGN and handler is _stop for s, handler in installed.items()):
            return  # stopped by a signal: this process ends, and one more must not break its exit
        for s, handler in before.items():
            signal.signal(s, handler)
    installed = {s: signal.getsignal(s) for s in ENDING}
    return restore


def interrupted(e: BaseException) -> NoReturn:
    """End the command stopped by `e` (KeyboardInterrupt or click's Abort for Ctrl-C, `Stopped`):
    one line, and exit 128 + the signal's number (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP)."""
    signum = e.signum if isinstance(e, Stopped) else signal.SIGINT
    line = "interrupted" if signum == signal.SIGINT else f"interrupted by {signal.Signals(signum).name}"
    if command == "run":
        line += ": finished tasks are saved; run the same command again to resume"
    try:
        err(line)
    except OSError:  # no one to tell: the terminal is gone (SIGHUP), the reader of a pipe left
        pass
    sys.exit(128 + signum)
