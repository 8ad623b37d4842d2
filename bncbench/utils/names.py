"""Names a user chooses (a data set's, a classifier's label, an experiment's) as parts of file and
folder names: every file name bncbench derives from such a name goes through `file_name`, and an
experiment's folder name is checked by `folder_name_problem` (docs/architecture.md)."""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Iterable

#: the characters `file_name` keeps as they are; every other is written as %XX per UTF-8 byte
KEPT = frozenset(string.ascii_letters + string.digits + "+-._")
#: the longest name `file_name` returns and `folder_name_problem` accepts (bytes), so that a name
#: with a prefix and a suffix, or two names in one file name, stay within the 255 bytes of a file name
MAX_LENGTH = 100
#: names Windows reserves for devices, also with an extension (CON.png)
DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"{d}{i}" for d in ("COM", "LPT") for i in range(1, 10))})


def escaped(ch: str) -> str:
    """`ch` as %XX per UTF-8 byte (the escape of `file_name`, and of a BIF state name: models/bif.py)."""
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))


def file_name(name: str) -> str:
    """The form of `name` that bncbench writes into a file name: stable, one file in any folder,
    a different form for every name (docs/architecture.md)."""
    out = "".join(ch if ch in KEPT else escaped(ch) for ch in name)
    if not out:
        return "%"
    if out[0] == "." or out.split(".")[0].upper() in DEVICES:
        out = escaped(out[0]) + out[1:]
    if len(out) > MAX_LENGTH:
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        out = re.sub(r"%[0-9A-F]?$", "", out[:MAX_LENGTH - len(digest) - 1]) + "~" + digest
    return out


def case_clash(names: Iterable[str]) -> tuple[str, str] | None:
    """Two of `names`, different, whose `file_name`s differ only in case (one file on a file system
    that ignores case, as macOS's and Windows' do by default); None when there are none."""
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(file_name(name).lower(), name)
        if other != name:
            return other, name
    return None


def folder_name_problem(name: str) -> str | None:
    """Why `name` cannot be one plain folder inside another (a phrase such as "holds a path
    separator"), or None when it can."""
    if not name.strip():
        return "is empty"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        return "holds a control character"
    if "/" in name or "\\" in name:
        return "holds a path separator (/ or \\)"
    if name.startswith("."):
        return "starts with a dot (., .. or a hidden folder)"
    if name != name.strip():
        return "starts or ends with a space"
    if len(name.encode("utf-8", "surrogatepass")) > MAX_LENGTH:
        return f"is longer than {MAX_LENGTH} bytes"
    return None
