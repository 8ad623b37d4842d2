"""Obtaining data files: checksummed cache, mirror folder or URL, atomic writes."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from bncbench.errors import DataError, UserError

MIRROR_SUBDIR = {"uci": "raw", "arff": "arff", "other": "other"}
SHIPPED_MIRROR = Path(__file__).resolve().parent.parent / "datasets" / "mirror"


def cache_dir() -> Path:
    return Path(os.environ.get("BNCBENCH_CACHE", "datasets/cache"))


def mirror_location() -> str | None:
    """The mirror named by BNCBENCH_MIRROR (folder or URL), checked to exist."""
    m = os.environ.get("BNCBENCH_MIRROR")
    if not m:
        return None
    if "://" in m:
        return m.rstrip("/")
    if not Path(m).is_dir():
        raise UserError(f"BNCBENCH_MIRROR={m}: no such folder (point it at a folder whose raw/ has the UCI archive's layout, e.g. ../shared/uci)")
    return str(Path(m))


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
            raise DataError(f"checksum mismatch for {label} ({path}): expected sha256 {want[:12]}..., got {got[:12]}...; "
                            f"replace the file with the original or delete it to fetch it again")


def _download(url: str, dest: Path, spec: dict, label: str) -> None:
    """Download `url` to `dest` atomically (temp file + rename) after a checksum check."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".part-", suffix=dest.name)
    try:
        with os.fdopen(fd, "wb") as out:
            if "://" in url:
                try:
                    with urllib.request.urlopen(url, timeout=60) as resp:
                        shutil.copyfileobj(resp, out)
                except (urllib.error.URLError, OSError) as e:
                    raise DataError(f"cannot download {label} from {url}: {getattr(e, 'reason', e)}; "
                                    f"set BNCBENCH_MIRROR to a folder holding it or place it at {dest}") from None
            else:
                with open(url, "rb") as src:
                    shutil.copyfileobj(src, out)
        _check(Path(tmp), spec, label)
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def locate(spec: dict) -> Path:
    """Return a verified local path for one catalog file entry.

    Order: the download cache; BNCBENCH_MIRROR (a folder is read in place, a URL is
    downloaded into the cache); the small mirror shipped in the repository; the source's
    public URL (downloaded into the cache).
    """
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
    from bncbench.catalog import source_base

    base = source_base(source)
    if base:
        _download(base.rstrip("/") + "/" + rel, cached, spec, label)
        return cached
    raise DataError(f"{label} is not available: no copy in the cache ({cache_dir()}) or mirror; "
                    f"set BNCBENCH_MIRROR to a folder with {sub}/{rel} or place the file at {cached}")
