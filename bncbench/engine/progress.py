"""Progress display: a rich bar, one line per data set, or nothing, with an ETA (docs/architecture.md)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported only for a terminal's bar
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


def _duration(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


@dataclass(frozen=True)
class UnitSize:
    """What a pending unit is made of, for the ETA: its data set, tasks (classifiers to run) and
    work (rows × attributes × tasks)."""

    dataset: str
    tasks: int
    work: float


class RemainingTime:
    """The time a run still needs, from the units finished so far (docs/architecture.md)."""

    MIN_SECONDS = 1e-3  # a unit measured faster than this counts as this (timer resolution)

    def __init__(self, tasks_left: int, work_left: float):
        self.tasks_left, self.work_left = tasks_left, work_left
        self.tasks_done = self.work_done = 0.0
        self.seconds_done = 0.0                      # measured seconds of the finished units
        self._unmeasured = (0.0, 0.0)                # tasks, work of finished units not measured
        self._suu = self._suv = self._svv = self._su = self._sv = 0.0
        self.max_task_cost = float("inf")  # the cheapest measured unit's seconds per task
        self.units = 0

    def finished(self, tasks: int, work: float, seconds: float | None) -> None:
        """Count a finished unit; `seconds` is how long it ran (None: not measured, not fitted)."""
        self.tasks_left -= tasks
        self.work_left -= work
        self.tasks_done += tasks
        self.work_done += work
        if seconds is None:
            self._unmeasured = (self._unmeasured[0] + tasks, self._unmeasured[1] + work)
            return
        self.seconds_done += float(seconds)
        d = max(float(seconds), self.MIN_SECONDS)
        u, v = tasks / d, work / d
        self._suu, self._suv, self._svv = self._suu + u * u, self._suv + u * v, self._svv + v * v
        self._su, self._sv = self._su + u, self._sv + v
        self.max_task_cost = min(self.max_task_cost, d / tasks) if tasks else self.max_task_cost
        self.units += 1

    def coefficients(self) -> tuple[float, float] | None:
        """(a, b) of the fitted cost model, None before any unit was measured (docs/architecture.md)."""
        if not self.units:
            return None
        det = self._suu * self._svv - self._suv ** 2
        if det > 1e-12 * self._suu * self._svv:
            a = (self._su * self._svv - self._sv * self._suv) / det
            b = (self._sv * self._suu - self._su * self._suv) / det
            if a >= 0 and b >= 0:
                return a, b
            a = min(max(a, 0.0), self.max_task_cost)
        else:  # units of one size only: which term explains them cannot be told; work does
            a = 0.0
        # b minimising Σ(a·u + b·v − 1)² for this a: (Σv − a·Σuv) / Σv²
        return a, max((self._sv - a * self._suv) / self._svv, 0.0)

    def estimate(self, elapsed: float) -> float | None:
        """Seconds still needed, after `elapsed` seconds of wall time; None when there is nothing
        to go on (no unit measured) or nothing left."""
        coef = self.coefficients()
        if coef is None or self.tasks_left <= 0:
            return None
        a, b = coef
        unit_time = self.seconds_done + a * self._unmeasured[0] + b * self._unmeasured[1]
        left = a * max(self.tasks_left, 0) + b * max(self.work_left, 0.0)
        return elapsed / unit_time * left if unit_time > 0 else None


class Progress:
    """`units` are the pending units in run order (`UnitSize`); `total` tasks of which `done`
    were already finished before this run. `clock` is the wall clock (a test's own)."""

    def __init__(self, total: int, done: int, units: list[UnitSize], quiet: bool = False, log=print,
                 clock=time.monotonic):
        self.total, self.done, self.quiet, self.log, self.clock = total, done, quiet, log, clock
        self.remaining: dict[str, int] = {}
        for u in units:
            self.remaining[u.dataset] = self.remaining.get(u.dataset, 0) + u.tasks
        self.time_left = RemainingTime(sum(u.tasks for u in units), sum(u.work for u in units))
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

    def advance(self, n: int, dataset: str, detail: str = "", work: float = 0.0, seconds: float | None = None) -> None:
        """A unit of `n` tasks of `dataset` is stored; it had `work` and ran `seconds` (measured
        where it ran)."""
        self.done += n
        self.time_left.finished(n, work, seconds)
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
