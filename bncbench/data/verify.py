"""Checking data sets against the counts the papers print (`bncbench datasets verify`): each is
loaded (files located and checksummed, generated or sampled) and its instances, attributes and
occurring classes compared with the paper's counts or our version's documented difference."""

from __future__ import annotations

from dataclasses import dataclass

from bncbench.data import catalog, describe
from bncbench.errors import DataError, DataUnavailable

#: the columns of `Verified.row`
HEADER = ["data set", "paper n/a/c", "found n/a/c", "status", "source (checksum)", "difference"]


@dataclass(frozen=True)
class Verified:
    """The check of one data set."""

    name: str
    paper: str   # the paper's counts (instances/attributes/classes)
    found: str   # ours, "—" when it could not be loaded
    status: str  # ok | documented difference | MISMATCH | not available | ERROR
    source: str  # its files and their checksum status (or origin)
    note: str    # the documented difference, what is not held, or the error

    @property
    def failed(self) -> bool:
        """Loaded and not as expected, or unloadable (a data set held nowhere has not failed)."""
        return self.status in ("MISMATCH", "ERROR")

    def row(self) -> list[str]:
        return [self.name, self.paper, self.found, self.status, self.source, self.note]


def verify(names: list[str], errors_as_rows: bool = False) -> list[Verified]:
    """The check of each data set in `names` (canonical names, e.g. `catalog.resolve`'s). A corrupt
    or unparsable file raises DataError, or with `errors_as_rows` gives an ERROR row and the
    checks go on."""
    return [_verify_one(n, errors_as_rows) for n in names]


def _verify_one(n: str, errors_as_rows: bool) -> Verified:
    synthetic = describe.kind(n) == "synthetic"
    paper, ours, diff = catalog.expected_counts(n)
    exp = describe.counts_text(paper)
    try:
        ds = catalog.load(n)
    except DataUnavailable:
        return Verified(n, exp, "—", "not available", "—", "not held: " + ", ".join(catalog.missing_files(n)))
    except DataError as e:  # a corrupt or unparsable file: one row (with --all), not the end of the table
        if not errors_as_rows:
            raise
        return Verified(n, exp, "—", "ERROR", describe.origin(n), str(e))
    occurring = len(set(ds.y.tolist()))
    # a synthetic name fixes the declared classes; a small sample may not show them all
    found = {"instances": ds.n_instances, "attributes": ds.n_attributes,
             "classes": len(ds.classes) if synthetic else occurring}
    ok = all(found[k] == ours.get(k, found[k]) for k in found)
    same_as_paper = all(found[k] == paper.get(k, found[k]) for k in found)
    status = "ok" if same_as_paper else ("documented difference" if ok else "MISMATCH")
    src = describe.source_summary(n)
    note = diff if not same_as_paper else ""
    if synthetic and occurring < found["classes"]:
        note = f"{occurring} of the {found['classes']} classes occur in this sample"
    return Verified(n, exp, describe.counts_text(found), status, src, note)
