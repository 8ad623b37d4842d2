"""Progress display: a rich bar, one line per data set, or nothing, with an ETA (docs/architecture.md)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # rich is imported only for a terminal's bar
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


def _duration(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


@dataclass(frozen=True)
class UnitSize:
    """What a pending unit is made of, for the ETA: its data set and the labels of its tasks (one
    per classifier to run)."""

    dataset: str
    labels: tuple[str, ...]


T = TypeVar("T")


def probe_first(units: list[T], dataset: Callable[[T], str]) -> list[T]:
    """`units` in the order to run them: the first unit of each data set (`dataset(unit)`, in plan
    order), then the rest in plan order, so that every classifier's cost on every data set is
    measured early (the ETA's input); the results do not depend on the order."""
    seen: set[str] = set()
    first: list[T] = []
    rest: list[T] = []
    for u in units:
        name = dataset(u)
        (rest if name in seen else first).append(u)
        seen.add(name)
    return first + rest


class RemainingTime:
    """The time a run still needs, from the seconds its finished tasks took (docs/architecture.md)."""

    def __init__(self, units: list[UnitSize]):
        self.left: dict[tuple[str, str], int] = {}  # (data set, label) -> tasks left
        for u in units:
            for label in u.labels:
                self.left[u.dataset, label] = self.left.get((u.dataset, label), 0) + 1
        self.task_seconds = 0.0  # the measured seconds of the finished tasks
        self._cells: dict[tuple[str, str], tuple[float, int]] = {}  # (data set, label) -> seconds, tasks

    def finished(self, dataset: str, labels: tuple[str, ...], seconds: dict[str, float] | None) -> None:
        """Count a finished unit's tasks; `seconds`: each one's (train + test) time, None if not measured."""
        for label in labels:
            key = (dataset, label)
            self.left[key] = self.left.get(key, 1) - 1
            if seconds is None or label not in seconds:
                continue
            s = max(float(seconds[label]), 0.0)
            self.task_seconds += s
            cs, cn = self._cells.get(key, (0.0, 0))
            self._cells[key] = (cs + s, cn + 1)

    def estimate(self, elapsed: float) -> float | None:
        """Seconds still needed after `elapsed` seconds of wall time: the tasks left of each (data
        set, classifier) times the mean of that cell's measured tasks, over the parallelism measured
        so far (task seconds finished per elapsed second); None while a cell with tasks left has
        none measured (`probe_first` measures every one early), and when nothing is left."""
        if self.task_seconds <= 0 or elapsed <= 0:
            return None
        left = 0.0
        for key, n in self.left.items():
            if n > 0:
                cell = self._cells.get(key)
                if cell is None:
                    return None
                left += n * cell[0] / cell[1]
        if left <= 0:
            return None
        return left / (self.task_seconds / elapsed)


class Progress:
    """`units` are the pending units in run order (`UnitSize`); `total` tasks of which `done`
    were already finished before this run. `clock` is the wall clock (a test's own)."""

    def __init__(self, total: int, done: int, units: list[UnitSize], quiet: bool = False, log=print,
                 clock=time.monotonic):
        self.total, self.done, self.quiet, self.log, self.clock = total, done, quiet, log, clock
        self.remaining: dict[str, int] = {}
        for u in units:
            self.remaining[u.dataset] = self.remaining.get(u.dataset, 0) + len(u.labels)
        self.time_left = RemainingTime(units)
        self.fancy = sys.stderr.isatty() and not quiet
        self.start = clock()
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None

    def __enter__(self):
        if self.fancy:
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), TextColumn("{task.fields[eta]}"), transient=False)
            self._bar.start()
            first = next(iter(self.remaining), "")
            self._task = self._bar.add_task(first, total=self.total, completed=self.done, eta="")
        return self

    def eta_seconds(self) -> float | None:
        """The estimated seconds left (`RemainingTime.estimate`)."""
        return self.time_left.estimate(self.clock() - self.start)

    def _eta(self) -> str:
        eta = self.eta_seconds()
        return f", ETA {_duration(eta)}" if eta is not None and eta >= 0.5 else ""

    def advance(self, labels: tuple[str, ...], dataset: str, detail: str = "",
                seconds: dict[str, float] | None = None) -> None:
        """A unit's tasks of `dataset` (one per label) are stored; `seconds`: each task's train + test
        time, measured where it ran."""
        n = len(labels)
        self.done += n
        self.time_left.finished(dataset, labels, seconds)
        if dataset in self.remaining:
            self.remaining[dataset] -= n
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, advance=n, description=f"{dataset} {detail}".strip(),
                             eta=self._eta().lstrip(", "))
        elif not self.quiet and self.remaining.get(dataset, 1) <= 0:
            del self.remaining[dataset]
            self.log(f"[{self.done}/{self.total}] {dataset} done "
                     f"({_duration(self.clock() - self.start)} elapsed{self._eta()})")

    def __exit__(self, exc_type, *exc):
        if self._bar is not None:
            self._bar.stop()
        return False

    def elapsed(self) -> str:
        return _duration(self.clock() - self.start)
