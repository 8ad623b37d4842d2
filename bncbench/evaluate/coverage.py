"""What a table covers: n of N data sets, and why each of the others is missing (docs/algorithms.md §6.9)."""

from __future__ import annotations

from dataclasses import dataclass, field

NOT_AVAILABLE = "not available"
NOT_RUN = "not run"
NOT_FINISHED = "not finished"
REASONS = {NOT_AVAILABLE: "no file in the download cache or the mirror when run",
           NOT_RUN: "listed by a config run here, no task of it planned",
           NOT_FINISHED: "tasks missing: the run was interrupted or failed; run the config again to resume"}


@dataclass
class Coverage:
    """The data sets a results folder should cover (`datasets`, in table order) and the ones it
    does not, each with its reason (`missing`: data set -> one of `REASONS`)."""

    datasets: list[str] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.datasets)

    @property
    def covered(self) -> list[str]:
        """The data sets with every result, in table order."""
        return [d for d in self.datasets if d not in self.missing]

    @property
    def complete(self) -> bool:
        return not self.missing

    def missing_text(self, names: list[str] | None = None) -> str:
        """The missing data sets (or those of `names` that are missing) grouped by reason, in the
        order of `REASONS`: 'not available (no file ...): a, b; not run (...): c'; '' when none is."""
        groups: dict[str, list[str]] = {why: [] for why in REASONS}
        for d in self.datasets:
            if d in self.missing and (names is None or d in names):
                groups[self.missing[d]].append(d)
        return "; ".join(f"{why} ({REASONS[why]}): {', '.join(ds)}" for why, ds in groups.items() if ds)

    def line(self, used: int | None = None) -> str:
        """'data sets: 32 of 36; not available (...): a, b, c, d' — `used` data sets (default: the
        covered ones) of the N, and the missing ones by reason."""
        n = len(self.covered) if used is None else used
        if n == self.total and self.complete:
            return f"data sets: all {self.total}"
        text = self.missing_text()
        return f"data sets: {n} of {self.total}" + (f"; {text}" if text else "")

    def suffix(self, used: int, of: int | None = None) -> str:
        """' (32 of 36 data sets)' when a result rests on fewer data sets than `of` (default N);
        '' otherwise."""
        of = self.total if of is None else of
        return f" ({used} of {of} data sets)" if used < of else ""
