"""Progress display: a rich bar on a terminal; without one (a log file, CI, `make`), one line
per finished data set (the caller prints the final summary); nothing with --quiet."""

from __future__ import annotations

import sys
import time


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Progress:
    """`pending` maps each data set to its number of tasks still to run, in run order."""

    def __init__(self, total: int, done: int, pending: dict[str, int], quiet: bool = False, log=print):
        self.total, self.done, self.quiet, self.log = total, done, quiet, log
        self.remaining = {k: v for k, v in pending.items() if v}
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
            first = next(iter(self.remaining), "")
            self._task = self._bar.add_task(first, total=self.total, completed=self.done)
        return self

    def _eta(self) -> str:
        ran = self.done - self.start_done
        left = self.total - self.done
        if ran <= 0 or left <= 0:
            return ""
        eta = (time.monotonic() - self.start) / ran * left
        return f", ETA {_duration(eta)}" if eta >= 0.5 else ""

    def advance(self, n: int, dataset: str, detail: str = "") -> None:
        self.done += n
        if dataset in self.remaining:
            self.remaining[dataset] -= n
        if self._bar is not None:
            self._bar.update(self._task, advance=n, description=f"{dataset} {detail}".strip())
        elif not self.quiet and self.remaining.get(dataset, 1) <= 0:
            del self.remaining[dataset]
            self.log(f"[{self.done}/{self.total}] {dataset} done "
                     f"({_duration(time.monotonic() - self.start)} elapsed{self._eta()})")

    def __exit__(self, exc_type, *exc):
        if self._bar is not None:
            self._bar.stop()
        return False

    def elapsed(self) -> str:
        return _duration(time.monotonic() - self.start)
