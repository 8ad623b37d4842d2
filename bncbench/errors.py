"""User-facing errors: one actionable line, exit code 2."""


class UserError(Exception):
    """Bad input from the user (config, data, paths). The CLI prints it as one line, exit 2."""


class DataError(UserError):
    """A data file is missing, corrupt, or does not parse as its recipe says."""


class DataUnavailable(DataError):
    """A data file is neither cached nor in a mirror, and cannot be downloaded."""
