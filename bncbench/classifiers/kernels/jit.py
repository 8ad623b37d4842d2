"""numba's compiler for the compiled kernels (BAN's family, the AODE wrappers' search; docs/architecture.md,
"Compiled kernels"): `kernel` compiles a function once per machine into the disk cache under the user
cache folder; imported only where those classifiers fit, so nothing else loads numba."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from bncbench.data.sources import cache_dir

# numba reads its settings at its import (here: nothing else in bncbench imports it); a
# NUMBA_CACHE_DIR of the user's wins, and the workers this process starts inherit the choice
if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir() / "numba")

from numba import njit

KERNELS: list[Any] = []  # every compiled kernel (numba dispatchers), for `cached`
COMPILING = "compiling bncbench's kernels (once per machine, a few seconds)"
_announced = False
_checked = 0  # KERNELS[:_checked]: those a `prepare(..., check=True)` of this process answered for


def kernel(fn: Callable) -> Any:
    """`fn` compiled by numba in nopython mode, without the GIL, cached on disk."""
    dispatcher = njit(cache=True, nogil=True)(fn)
    KERNELS.append(dispatcher)
    return dispatcher


def inner_kernel(fn: Callable) -> Any:
    """`fn` compiled as `kernel` compiles, for other kernels only: it is compiled into their code, so
    `cached` leaves it out."""
    return njit(cache=True, nogil=True)(fn)


def _in_cache(kernels: list[Any]) -> bool:
    """Whether each public kernel of `kernels` (those Python calls; a private one is compiled into its
    callers) has a compiled version of this source in the disk cache (numba's index of the function; its
    layout is numba's, so a change there reads as not cached)."""
    try:
        return all(d._cache._cache_file._load_index() for d in kernels if not d.py_func.__name__.startswith("_"))
    except (AttributeError, OSError):
        return False


def cached() -> bool:
    """Whether every public kernel of the modules imported so far is in the disk cache (`_in_cache`)."""
    return _in_cache(KERNELS)


def announce(notify: Callable[[str], None]) -> None:
    """Tell `notify` that kernels are being compiled, once per process."""
    global _announced
    if not _announced:
        _announced = True
        notify(COMPILING)


def prepare(load: Callable[[], None], notify: Callable[[str], None], check: bool = False) -> bool:
    """Run `load` (which calls each kernel of the modules imported so far once, with a fit's argument
    types), telling `notify` first (`announce`) where one is not in the disk cache yet; True where one
    was not. With `check`, run nothing: only say whether a kernel registered since the last check (those
    the caller's imports added; a module imported for an earlier check is that one's) is not in the cache."""
    global _checked
    if check:
        new, _checked = KERNELS[_checked:], len(KERNELS)
        return not _in_cache(new)
    lacking = not cached()
    if lacking:
        announce(notify)
    load()
    return lacking
