"""The model file: a fitted model's preprocessing and classifier as data, never code (docs/models.md)."""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from bncbench.errors import UserError
from bncbench.utils.files import atomic_path

#: what the header's "format" says
FORMAT = "bncbench-model"
#: the version this code writes and the newest it reads (docs/models.md: Versions); 2: RC's and SP+RC's
#: dependency tables (`fds.FDTables`) hold other fields
VERSION = 2
HEADER = "header.json"
#: the packages whose dataclasses a model file may hold (the classifiers' count tables)
_DATACLASS_PACKAGE = "bncbench.classifiers."
#: the most bytes a model file's members may hold once unpacked (a larger one, or a zip bomb, is refused
#: before anything is unpacked)
MAX_BYTES = 1 << 30


class Unstorable(TypeError):
    """A fitted attribute of a kind the model file does not hold."""


class _Writer:
    """A value tree into JSON with its arrays set apart (`arrays`: member name → array)."""

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}

    def array(self, a: np.ndarray) -> str:
        if a.dtype.hasobject:
            raise Unstorable(f"an array of Python objects ({a.dtype})")
        name = f"a{len(self.arrays)}.npy"
        self.arrays[name] = a
        return name

    def encode(self, v: Any, where: str) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, (int, float)) and type(v) in (int, float):
            return v
        if isinstance(v, np.ndarray):
            return {"$array": self.array(v)}
        if isinstance(v, np.generic):
            return {"$scalar": self.array(np.asarray(v))}
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return {"$dataclass": _class_path(type(v), where),
                    "fields": {f.name: self.encode(getattr(v, f.name), f"{where}.{f.name}")
                               for f in dataclasses.fields(v)}}
        if type(v) is tuple:
            return {"$tuple": [self.encode(x, f"{where}[{i}]") for i, x in enumerate(v)]}
        if type(v) is list:
            return [self.encode(x, f"{where}[{i}]") for i, x in enumerate(v)]
        if type(v) is dict and all(isinstance(k, str) and not k.startswith("$") for k in v):
            return {k: self.encode(x, f"{where}.{k}") for k, x in v.items()}
        if type(v) is dict:
            return {"$dict": [[self.encode(k, where), self.encode(x, f"{where}[{k!r}]")] for k, x in v.items()]}
        raise Unstorable(f"{where} is a {type(v).__module__}.{type(v).__qualname__}")


def _class_path(cls: type, where: str) -> str:
    path = f"{cls.__module__}:{cls.__qualname__}"
    if not path.startswith(_DATACLASS_PACKAGE):
        raise Unstorable(f"{where} is a dataclass outside bncbench's classifiers ({path})")
    return path


def _dataclass(path: str) -> type:
    """A classifier's dataclass named in a model file (a bncbench module only, never another)."""
    module, _, name = path.partition(":")
    if not module.startswith(_DATACLASS_PACKAGE) or not name.isidentifier():
        raise ValueError(f"a dataclass outside bncbench's classifiers: {path}")
    try:
        cls = getattr(importlib.import_module(module), name, None)
    except ImportError:
        raise ValueError(f"a dataclass of no module of bncbench: {path}") from None
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise ValueError(f"{path} is not a dataclass")
    return cls


def _decode(v: Any, arrays: dict[str, np.ndarray]) -> Any:
    if isinstance(v, list):
        return [_decode(x, arrays) for x in v]
    if not isinstance(v, dict):
        return v
    if "$array" in v:
        return arrays[v["$array"]]
    if "$scalar" in v:
        return arrays[v["$scalar"]][()]
    if "$tuple" in v:
        return tuple(_decode(x, arrays) for x in v["$tuple"])
    if "$dict" in v:
        return {_decode(k, arrays): _decode(x, arrays) for k, x in v["$dict"]}
    if "$dataclass" in v:
        cls = _dataclass(v["$dataclass"])
        fields = v["fields"]
        if not isinstance(fields, dict) or set(fields) != {f.name for f in dataclasses.fields(cls)}:
            raise ValueError(f"the fields of {v['$dataclass']} are not its own")
        obj: Any = object.__new__(cls)  # the fields as stored, without running the class's code
        for name, x in fields.items():
            object.__setattr__(obj, name, _decode(x, arrays))
        return obj
    if any(k.startswith("$") for k in v):
        raise ValueError(f"an unknown value {sorted(v)}")
    return {k: _decode(x, arrays) for k, x in v.items()}


def encode(header: dict[str, Any]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(the JSON header, its arrays) of a value tree (`Unstorable` names what cannot be held)."""
    w = _Writer()
    return w.encode(header, "model"), w.arrays


def save(path: str | Path, header: dict[str, Any]) -> None:
    """Write `header` (JSON values, numpy arrays, tuples, dicts, the classifiers' dataclasses) as a
    model file, atomically: a zip of `header.json` and one `.npy` per array."""
    tree, arrays = encode(header)
    doc = {"format": FORMAT, "version": VERSION, **tree}
    with atomic_path(path, public=True) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(HEADER, json.dumps(doc, indent=1))
        for name, a in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(a), allow_pickle=False)
            z.writestr(name, buf.getvalue())


def load(path: str | Path) -> dict[str, Any]:
    """The value tree of a model file (UserError, one line, for a file that is not one, or of a
    newer version)."""
    where = str(path)
    try:
        with zipfile.ZipFile(path) as z:
            unpacked = sum(i.file_size for i in z.infolist())
            if unpacked > MAX_BYTES:
                raise ValueError(f"its members unpack to {unpacked} bytes, more than the {MAX_BYTES} a model file "
                                 f"may hold")
            doc = json.loads(z.read(HEADER).decode("utf-8"))
            if not isinstance(doc, dict) or doc.get("format") != FORMAT:
                raise ValueError(f"its {HEADER} is not a {FORMAT} header")
            version = doc.get("version")
            if not isinstance(version, int) or isinstance(version, bool):
                raise ValueError("its header has no format version")
            if version > VERSION:
                raise UserError(f"{where}: a model file of format version {version}; this bncbench reads versions "
                                f"up to {VERSION}: install a newer bncbench")
            arrays = {n: _array(z.read(n)) for n in z.namelist() if n != HEADER}
            try:
                return _decode(doc, arrays)
            except ValueError as e:
                if version < VERSION:  # a classifier whose state this version keeps otherwise
                    raise UserError(f"{where}: a model file of format version {version} (bncbench "
                                    f"{doc.get('bncbench', '?')}) whose classifier this bncbench keeps otherwise "
                                    f"({e}); fit it again with `bncbench fit`") from None
                raise
    except UserError:
        raise
    except FileNotFoundError:
        raise UserError(f"{where}: no such model file") from None
    except IsADirectoryError:
        raise UserError(f"{where} is a folder, not a model file") from None
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, AttributeError, IndexError, RecursionError,
            UnicodeDecodeError, OSError, EOFError) as e:  # a damaged or hand-made header: any of them
        raise UserError(f"{where} is not a bncbench model file ({type(e).__name__}: {e}); write one with "
                        f"`bncbench fit`") from None


def _array(data: bytes) -> np.ndarray:
    """The array of a `.npy` member, its header's shape checked against its bytes before any is
    allocated (a header may claim more than the member holds)."""
    f = io.BytesIO(data)
    version = np.lib.format.read_magic(f)
    if version not in ((1, 0), (2, 0)):
        raise ValueError(f"an array of .npy format version {version}, not one numpy writes for numbers")
    read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    shape, _, dtype = read_header(f)
    count = 1
    for k in shape:
        count *= k
    if dtype.hasobject:
        raise ValueError("an array of Python objects")
    if count * dtype.itemsize != len(data) - f.tell():
        raise ValueError(f"an array of {shape} {dtype} does not match its {len(data) - f.tell()} bytes")
    f.seek(0)
    return np.lib.format.read_array(f, allow_pickle=False)
