"""Progress display: a rich bar on a terminal, plain log lines otherwise (or with --quiet)."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, done: int, quiet: bool = False, log=print):
        self.total, self.done, self.quiet, self.log = total, done, quiet, log
        self.fancy = sys.stderr.isatty() and not quiet
        self.start = time.monotonic()
        self.start_done = done
        self._bar = None

    def __enter__(self):
        if self.fancy:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), transient=False)
            self._bar.start()
            self._task = self._bar.add_task("starting", total=self.total, completed=self.done)
        elif not self.quiet:
            self.log(f"{self.total} tasks, {self.done} already done")
        return self

    def current(self, name: str) -> None:
        if self._bar is not None:
            self._bar.update(self._task, description=name)

    def advance(self, n: int, what: str) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(self._task, advance=n, description=what)
        elif not self.quiet:
            rate = (self.done - self.start_done) / max(time.monotonic() - self.start, 1e-9)
            eta = (self.total - self.done) / rate if rate > 0 else 0.0
            self.log(f"[{self.done}/{self.total}] {what} (ETA {eta:.0f}s)")

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.stop()
        return False
