"""User-facing errors: one actionable line, exit code 2."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the user (config, data, paths). The CLI prints it as one line, exit 2."""


class DataError(UserError):
    """A data file is missing, corrupt, or does not parse as its recipe says."""


class DataUnavailable(DataError):
    """A data file is neither cached nor in a mirror, and cannot be downloaded."""


class StoreError(UserError):
    """The results store cannot be read or written (a full disk, a damaged file, a lock, a folder
    made read-only): where, what happened and what to do, in one line (exit 2)."""

    def __init__(self, where: str, what: str, todo: str, saved: str = ""):
        self.where, self.what, self.todo, self.saved = where, what, todo, saved
        super().__init__("; ".join(p for p in (f"{where}: {what}", saved, todo) if p))

    def with_saved(self, saved: int, total: int) -> StoreError:
        """The same failure, saying how many of a run's tasks are stored (nothing finished is lost)."""
        return StoreError(self.where, self.what, self.todo, f"{saved} of {total} tasks are saved")
