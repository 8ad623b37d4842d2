"""The data-set catalog (bncbench/data/catalog.yaml) and loading of its data sets (a user's own files:
`data/userdata.py`)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from bncbench.data import sources
from bncbench.data.dataset import Attribute, Dataset
from bncbench.data.generators import GENERATORS, SYNTH_PATTERN, check_synth, is_synth, synth
from bncbench.data.loaders import RawTable, build_dataset, parse_arff, parse_delimited
from bncbench.data.sources import cache_dir, sha256_of
from bncbench.errors import DataError, DataUnavailable, UserError
from bncbench.utils.files import atomic_write
from bncbench.utils.suggest import did_you_mean

CATALOG_FILE = Path(__file__).with_name("catalog.yaml")
PARSER_VERSION = 2  # bump when parsing or the parsed copy changes, to invalidate parsed copies (2: a digest)


@functools.lru_cache(maxsize=1)
def _catalog() -> dict:
    with open(CATALOG_FILE, encoding="utf-8") as f:  # libyaml's safe loader when available (10× faster)
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def source_base(source: str) -> str | None:
    if source == "arff" and os.environ.get("BNCBENCH_ARFF_URL"):
        return os.environ["BNCBENCH_ARFF_URL"]
    return _catalog()["sources"].get(source)


def locate(spec: dict) -> Path:
    """A verified local path of one catalog file entry (cache, mirror, shipped copy, or download)."""
    return sources.locate(spec, source_base(spec["source"]))


def names() -> list[str]:
    return list(_catalog()["datasets"])


def _aliases() -> dict[str, str]:
    out = {}
    for name, entry in _catalog()["datasets"].items():
        out[name] = name
        for a in entry.get("aliases", []):
            out[a] = name
    return out


def resolve(name: str) -> str:
    """Canonical catalog name of `name` (aliases allowed); UserError if unknown.
    Synthetic names (synth:ROWSxATTRSxCLASSES[:seed]) are returned unchanged."""
    if is_synth(name):
        return name
    al = _aliases()
    if name not in al:
        hint = did_you_mean(name, al)
        raise UserError(f"unknown data set {name!r}{hint}; `bncbench datasets list` shows the catalog"
                        + ("" if hint else " (synthetic sets are named synth:ROWSxATTRSxCLASSES[:seed])"))
    return al[name]


def resolve_to_run(name: str) -> str:
    """`resolve` for a config's data set: a synthetic name is also checked to be one that can be
    sampled here (`generators.check_synth`: its form, and its size against the memory available)."""
    canonical = resolve(name)
    if is_synth(canonical):
        check_synth(canonical)
    return canonical


def synth_params(name: str) -> dict:
    """rows, attributes, classes and seed of a `synth:ROWSxATTRSxCLASSES[:seed]` name (UserError if malformed)."""
    m = SYNTH_PATTERN.match(name)
    if m:
        rows, n, nc, seed = int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4) or 0)
        if rows >= 1 and n >= 1 and nc >= 2:
            return {"rows": rows, "attributes": n, "classes": nc, "seed": seed}
    synth(name)  # raises the generator's own UserError (checks run before anything is sampled)
    raise UserError(f"{name!r}: synthetic data sets are named synth:ROWSxATTRSxCLASSES[:seed]")


SYNTH_NOTE = "sampled from a random class-rooted Bayesian network drawn from the seed; nothing to fetch"


def entry(name: str) -> dict:
    """The catalog entry of a data set; for a synthetic name, an entry describing it
    (format `synthetic`, its parameters under `synth`, the counts it names as `expected`)."""
    canonical = resolve(name)
    if is_synth(canonical):
        p = synth_params(canonical)
        return {"format": "synthetic", "synth": p,
                "expected": {"instances": p["rows"], "attributes": p["attributes"], "classes": p["classes"]},
                "note": SYNTH_NOTE}
    return _catalog()["datasets"][canonical]


def _read_text(path: Path, label: str) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise DataError(f"cannot read {label} ({path}): {e.strerror}") from None


def load(name: str) -> Dataset:
    """Load a catalog data set (files located via cache / mirror / URL, checksums verified),
    a generated one, or a synthetic `synth:ROWSxATTRSxCLASSES[:seed]` set."""
    canonical = resolve(name)
    if is_synth(canonical):
        return synth(canonical)
    return _load_cached(canonical)


@functools.lru_cache(maxsize=8)
def _load_cached(canonical: str) -> Dataset:
    e = _catalog()["datasets"][canonical]
    if e["format"] == "generated":
        g = dict(e["generator"])
        generated = GENERATORS[g.pop("name")](**g)
        generated.name = canonical
        generated.checksums = {"generator": json.dumps(e["generator"], sort_keys=True)}
        return generated
    located = []
    for spec in e["files"]:
        try:
            located.append((spec, locate(spec)))
        except DataUnavailable:
            if not spec.get("optional"):
                raise
    checksums = {f"{spec['source']}:{spec['path']}": spec.get("sha256") or sha256_of(path) for spec, path in located}
    key = hashlib.sha256(json.dumps({"entry": e, "files": checksums, "parser": PARSER_VERSION},
                                    sort_keys=True).encode()).hexdigest()[:20]
    parsed = cache_dir() / "parsed" / f"{canonical}-{key}.npz"
    ds = _read_parsed(parsed, canonical, key)
    if ds is None:
        ds = _parse(canonical, e, located)
        _write_parsed(parsed, ds, key)
    ds.checksums = {**checksums, "recipe": recipe(e)}
    return ds


RECIPE_KEYS = ("format", "class", "class_blocks", "class_map", "class_strip", "drop", "header", "missing", "numeric",
               "sep")


def recipe(e: dict) -> str:
    """The parts of a catalog entry that decide how its files become a data set (part of every
    task's identity with the files' checksums; descriptive fields such as notes are not)."""
    r = {k: e[k] for k in RECIPE_KEYS if k in e}
    r["files"] = [{k: f[k] for k in ("source", "path", "header_lines", "optional") if k in f} for f in e["files"]]
    return hashlib.sha256(json.dumps(r, sort_keys=True).encode()).hexdigest()


def _parse(canonical: str, e: dict, located: list[tuple[dict, Path]]) -> Dataset:
    rows: RawTable | None = None
    for spec, path in located:
        label = f"{spec['source']}:{spec['path']}"
        text = _read_text(path, label)
        if e["format"] == "arff":
            table = parse_arff(text, label)
        else:
            table = parse_delimited(text, label, e.get("sep", ","), spec.get("header_lines", 0),
                                    has_names=e.get("header", False))
        if rows is None:
            rows = table
        else:
            if len(table.names) != len(rows.names):
                raise DataError(f"{label}: {len(table.names)} columns, but the first file has {len(rows.names)}")
            rows.rows.extend(table.rows)
            rows.lines.extend(table.lines)  # each file's own line numbers
    if rows is None:
        raise DataUnavailable(f"{canonical}: none of its files is available (all are optional)")
    return build_dataset(canonical, rows, e.get("class", -1), drop=e.get("drop"), numeric=e.get("numeric"),
                         missing_tokens=tuple(e.get("missing", ["?"])), class_strip=e.get("class_strip", ""),
                         class_map=e.get("class_map"), class_blocks=e.get("class_blocks"), where=canonical)


def _parsed_digest(key: str, meta: str, arrays: list[np.ndarray]) -> str:
    """The digest a parsed copy carries: its key (recipe, source checksums, parser version), its
    metadata and every array's dtype, shape and bytes. A copy whose arrays are not those that
    parsing its source gave (edited, swapped, written by an older bncbench) does not match."""
    h = hashlib.sha256(json.dumps([key, meta]).encode())
    for a in arrays:
        h.update(f"|{a.dtype.str}{a.shape}|".encode())
        h.update(np.ascontiguousarray(a).data)
    return h.hexdigest()


def _read_parsed(path: Path, name: str, key: str) -> Dataset | None:
    """A data set parsed before (keyed by its recipe, file checksums and the parser version), if
    its arrays still match the digest written with them."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            meta_text = str(z["meta"])
            meta = json.loads(meta_text)
            cols = [z[f"c{i}"] for i in range(len(meta["attributes"]))]
            y = z["y"]
            if "digest" not in z.files:
                raise DataError("it carries no digest (written by an older bncbench)")
            if str(z["digest"]) != _parsed_digest(key, meta_text, [y, *cols]):
                raise DataError("its arrays do not match its digest")
            attrs = [Attribute(a["name"], a["values"]) for a in meta["attributes"]]
            return Dataset(name, attrs, cols, y, meta["classes"])
    except Exception as e:  # a damaged file makes zipfile and numpy raise almost anything: parse again
        print(f"warning: {path}: the parsed copy of {name} in the download cache cannot be read "
              f"({type(e).__name__}: {' '.join(str(e).split())[:200]}); parsing its source again and replacing it",
              file=sys.stderr)
        return None


def _write_parsed(path: Path, ds: Dataset, key: str) -> None:
    meta = json.dumps({"attributes": [{"name": a.name, "values": a.values} for a in ds.attributes],
                       "classes": ds.classes})
    digest = _parsed_digest(key, meta, [ds.y, *ds.columns])
    try:
        with atomic_write(path, "wb") as f:
            arrays: dict[str, Any] = {"meta": np.array(meta), "digest": np.array(digest), "y": ds.y,
                                      **{f"c{i}": c for i, c in enumerate(ds.columns)}}  # Any: savez's **kwds
            np.savez(f, **arrays)
    except OSError:
        pass  # a read-only cache only costs parsing time


def missing_files(name: str) -> list[str]:
    """Paths (in the cache) of the required files of a data set that cannot be located now."""
    out = []
    for spec in entry(name).get("files", []):
        try:
            locate(spec)
        except DataUnavailable:
            if not spec.get("optional"):
                out.append(str(cache_dir() / spec["source"] / spec["path"]))
    return out


def expected_counts(name: str) -> tuple[dict, dict, str]:
    """(the paper's counts, the counts of our version, the documented difference or "")."""
    e = entry(name)
    paper = dict(e.get("expected", {}))
    ours = dict(paper, **e.get("found", {}))
    return paper, ours, e.get("difference", "")
