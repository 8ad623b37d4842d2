"""The values the read side's options take, one rule each, shared by the commands and the config's
`figures:` section: a metric's name, a significance level, a rope, pairs A:B (ValueError says why not)."""

from __future__ import annotations

import math

from bncbench.evaluate.metrics import METRICS


def metric(name: str) -> str:
    """`name`, a metric of the results."""
    if name not in METRICS:
        raise ValueError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}")
    return name


def alpha(value: float) -> float:
    """A significance level: strictly between 0 and 1."""
    if not 0.0 < value < 1.0:
        raise ValueError(f"{value:g} is not between 0 and 1 (e.g. 0.05)")
    return float(value)


def rope(value: float, of: str | None = None) -> float:
    """A region of practical equivalence: a finite width ≥ 0 in the units of metric `of`."""
    if not value >= 0.0 or math.isinf(value):
        raise ValueError(f"{value:g} is not a width ≥ 0 in {of or 'the metric'}'s units "
                         f"(e.g. 0.01 for zol)")
    return float(value)


def pairs(text: str) -> list[tuple[str, str]]:
    """"A:B,C:D" → [(A, B), (C, D)]: each classifier A against B."""
    out = []
    for item in (x.strip() for x in text.split(",") if x.strip()):
        a, sep, b = item.partition(":")
        if not sep or not a.strip() or not b.strip():
            raise ValueError(f"{item!r} is not of the form A:B (a classifier against its baseline)")
        out.append((a.strip(), b.strip()))
    if not out:
        raise ValueError("no pair given; write A:B,C:D")
    return out
