"""Writing a file atomically: into a temporary file in the target's folder, renamed over the
target when complete, so a reader sees the old file or the new one, never a part of one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike, *, suffix: str | None = None, public: bool = False) -> Iterator[str]:
    """A temporary file for the block to write, replacing `target` on success (docs/architecture.md)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".part-", suffix=target.suffix if suffix is None else suffix)
    os.close(fd)
    try:
        yield tmp
        if public:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@contextlib.contextmanager
def atomic_write(target: str | os.PathLike, mode: str = "w", *, encoding: str | None = None,
                 suffix: str | None = None, public: bool = False) -> Iterator[IO]:
    """A file object open (`mode` "w" or "wb", `encoding`) on the temporary file of
    `atomic_path(target, suffix=suffix, public=public)`; closed, then renamed over `target`, when
    the block ends without an exception."""
    with atomic_path(target, suffix=suffix, public=public) as tmp:
        with open(tmp, mode, encoding=encoding) as f:
            yield f


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
