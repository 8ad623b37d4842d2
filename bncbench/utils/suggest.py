"""The "did you mean" hint of an error message about an unknown name."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word, choices: Iterable) -> str:
    """" (did you mean 'NAME'?)" for the choice equal to `word` but for case, else the closest
    (difflib, similarity ≥ 0.5; both compared as strings), or "" when none is close."""
    names = [str(c) for c in choices]
    close = [c for c in names if c.casefold() == str(word).casefold()]
    close = close or difflib.get_close_matches(str(word), names, n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""
