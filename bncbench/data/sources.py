"""Obtaining data files: checksummed cache, mirror folder or URL, atomic writes (docs/architecture.md)."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from bncbench.errors import DataError, DataUnavailable, UserError
from bncbench.utils.files import atomic_path, atomic_write

MIRROR_SUBDIR = {"uci": "raw", "arff": "arff", "other": "other"}
CHECKOUT = Path(__file__).resolve().parents[2]
SHIPPED_MIRROR = CHECKOUT / "datasets" / "mirror"
#: the mirror used when BNCBENCH_MIRROR is not set: ../shared/uci of the checkout, if it exists
DEFAULT_MIRROR = CHECKOUT.parent / "shared" / "uci"


def cache_dir() -> Path:
    """The download cache (also parsed data sets and code digests): BNCBENCH_CACHE, else the
    user's cache folder ($XDG_CACHE_HOME/bncbench, else ~/.cache/bncbench)."""
    if os.environ.get("BNCBENCH_CACHE"):
        return Path(os.environ["BNCBENCH_CACHE"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"  # XDG: a relative value is ignored
    return base / "bncbench"


def mirror_location() -> str | None:
    """The mirror (folder or URL): BNCBENCH_MIRROR, checked to exist (set but empty: none); when
    it is not set, DEFAULT_MIRROR if that folder exists."""
    m = os.environ.get("BNCBENCH_MIRROR")
    if m is None:
        return str(DEFAULT_MIRROR) if DEFAULT_MIRROR.is_dir() else None
    if not m:
        return None
    if "://" in m:
        return m.rstrip("/")
    if not Path(m).is_dir():
        raise UserError(f"BNCBENCH_MIRROR={m}: no such folder (point it at a folder whose raw/ has the UCI archive's "
                        "layout, e.g. ../shared/uci)")
    return str(Path(m))


def mirror_description() -> str:
    """Which mirror was searched, for messages about data that was not found."""
    m = os.environ.get("BNCBENCH_MIRROR")
    if m is None:
        if DEFAULT_MIRROR.is_dir():
            return f"the mirror {DEFAULT_MIRROR} (the default; BNCBENCH_MIRROR is not set)"
        return f"no mirror (BNCBENCH_MIRROR is not set and the default {DEFAULT_MIRROR} does not exist)"
    return f"the mirror BNCBENCH_MIRROR={m}" if m else "no mirror (BNCBENCH_MIRROR is empty)"


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _check(path: Path, spec: dict, label: str) -> None:
    want = spec.get("sha256")
    if want:
        got = sha256_of(path)
        if got != want:
            raise DataError(f"checksum mismatch for {label} ({path}): expected sha256 {want[:12]}..., "
                            f"got {got[:12]}...; replace the file with the original or delete it to fetch it again")


def _decompress(path: str, compression: str) -> None:
    """Decompress `path` in place (.gz with Python's gzip, unix compress .Z with gzip -d): the
    content is written beside it and renamed over it (with a plain file's permissions)."""
    with atomic_write(path, "wb", suffix=".cmp", public=True) as out:
        if compression == "gz":
            with gzip.open(path, "rb") as src:
                shutil.copyfileobj(src, out)
        else:
            r = subprocess.run(["gzip", "-dc", path], stdout=out, stderr=subprocess.PIPE, check=False)
            if r.returncode != 0:
                detail = r.stderr.decode(errors="replace").strip()
                raise DataError(f"cannot decompress {path} (.{compression}): {detail}")


def _download(url: str, dest: Path, spec: dict, label: str, compression: str | None = None) -> None:
    """Download `url` to `dest` atomically (temp file + rename) after a checksum check
    (of the decompressed content when `compression` is "gz" or "Z")."""
    with atomic_path(dest, suffix=dest.name) as tmp:
        with open(tmp, "wb") as out:
            try:
                with urllib.request.urlopen(url, timeout=60) as resp:
                    shutil.copyfileobj(resp, out)
            except (urllib.error.URLError, OSError) as e:
                raise DataUnavailable(f"cannot download {label} from {url}: {getattr(e, 'reason', e)}; set "
                                      f"BNCBENCH_MIRROR to a folder holding it or place it at {dest}") from None
        if compression:
            _decompress(tmp, compression)
        _check(Path(tmp), spec, label)
        if not spec.get("sha256"):
            print(f"warning: {label} has no published checksum; recorded sha256 {sha256_of(Path(tmp))}",
                  file=sys.stderr)


def locate(spec: dict, base_url: str | None = None) -> Path:
    """Return a verified local path for one catalog file entry (docs/architecture.md)."""
    source, rel = spec["source"], spec["path"]
    label = f"{source}:{rel}"
    sub = MIRROR_SUBDIR[source]
    cached = cache_dir() / source / rel
    if cached.is_file():
        _check(cached, spec, label)
        return cached
    mirror = mirror_location()
    if mirror is not None and "://" not in mirror:
        p = Path(mirror) / sub / rel
        if p.is_file():
            _check(p, spec, label)
            return p
    shipped = SHIPPED_MIRROR / sub / rel
    if shipped.is_file():
        _check(shipped, spec, label)
        return shipped
    if mirror is not None and "://" in mirror:
        _download(f"{mirror}/{sub}/{rel}", cached, spec, label)
        return cached
    base = base_url
    if base:
        comp = spec.get("compression")
        _download(base.rstrip("/") + "/" + rel + (f".{comp}" if comp else ""), cached, spec, label, comp)
        return cached
    raise DataUnavailable(f"{label} is not available: no copy in the cache ({cache_dir()}) or in "
                          f"{mirror_description()}; set BNCBENCH_MIRROR to a folder with {sub}/{rel} or place the "
                          f"file at {cached}")
