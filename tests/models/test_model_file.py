"""The model file (docs/models.md): every built-in classifier saved and loaded predicts bit for bit as
the fitted one, on data with missing and unseen values; a newer or damaged file is refused in one line."""

import io
import json
import zipfile

import numpy as np
import pytest

from bncbench.classifiers import REGISTRY
from bncbench.data.loaders import RawTable
from bncbench.engine.units import load_dataset
from bncbench.errors import UserError
from bncbench.experiment import ClassifierSpec, DatasetSpec
from bncbench.models import fitting, modelfile, rows
from bncbench.preprocess.settings import PreprocessSettings

#: two data sets with missing values (shipped), one of them with numeric attributes, each with a preprocessing
CASES = [("house-votes-84", PreprocessSettings(missing="distinct", scope="global")),
         ("labor-negotiations", PreprocessSettings(missing="impute", discretizer="mdl", scope="global"))]


def _queries(model: fitting.Model, n: int = 300) -> np.ndarray:
    """Codes the classifier may be given: every code, −1 (missing) and codes it never saw (unseen)."""
    cards = np.asarray(model.preprocessing.cardinalities)
    rng = np.random.default_rng(7)
    return (rng.integers(-1, cards + 2, size=(n, cards.size))).astype(np.int64)


@pytest.mark.parametrize("name", list(REGISTRY))
@pytest.mark.parametrize("dataset,settings", CASES, ids=[c[0] for c in CASES])
def test_saved_and_loaded_predicts_bit_for_bit(tmp_path, name, dataset, settings):
    model = fitting.fit(DatasetSpec(dataset), ClassifierSpec(name, name, {}, REGISTRY[name]), settings)
    path = tmp_path / "m.bncmodel"
    fitting.save(model, path)
    back = fitting.load(path)
    assert type(back.classifier) is type(model.classifier)
    assert repr(back.classifier.get_params()) == repr(model.classifier.get_params())
    X = _queries(model)
    expected = model.classifier.predict_proba(X)
    got = back.classifier.predict_proba(X)
    assert got.dtype == expected.dtype and np.array_equal(got, expected), name
    assert back.preprocessing.names == model.preprocessing.names
    assert back.preprocessing.states == model.preprocessing.states


def _raw_rows(ds) -> RawTable:
    """The data set's rows as a file would hold them: declared values, numbers as text, ? for missing."""
    cols = []
    for a, col in zip(ds.attributes, ds.columns):
        if a.values is None:
            cols.append(["?" if np.isnan(v) else repr(float(v)) for v in col])
        else:
            cols.append(["?" if c < 0 else a.values[c] for c in col])
    return RawTable([a.name for a in ds.attributes], [a.values for a in ds.attributes], [list(r) for r in zip(*cols)])


@pytest.mark.parametrize("dataset,settings", CASES, ids=[c[0] for c in CASES])
def test_new_rows_are_coded_as_the_engine_codes_the_data_set(dataset, settings):
    """predict's preprocessing of a file equals the engine's encoding of the same rows."""
    ds = load_dataset(DatasetSpec(dataset))
    X, pre = fitting.encode_all(ds, settings)
    got = rows.codes(pre, _raw_rows(ds), ("?",), "rows")
    assert np.array_equal(got, X)


def test_unseen_values_follow_the_missing_rule():
    ds = load_dataset(DatasetSpec("house-votes-84"))
    _, pre = fitting.encode_all(ds, PreprocessSettings(missing="distinct", scope="global"))
    table = _raw_rows(ds)
    table.rows = [["maybe"] * len(pre.names), ["?"] * len(pre.names)]
    got = rows.codes(pre, table, ("?",), "rows")
    missing_code = [int(k) - 1 if m else -1 for k, m in zip(pre.cardinalities, pre.missing_code)]
    assert got.tolist() == [missing_code, missing_code]  # an undeclared value is a missing one
    assert all(pre.missing_code)  # every vote has missing values: the distinct code exists


def test_missing_columns_are_refused_in_one_line():
    ds = load_dataset(DatasetSpec("house-votes-84"))
    _, pre = fitting.encode_all(ds, PreprocessSettings(scope="global"))
    table = RawTable(["handicapped-infants"], [None], [["y"]])
    with pytest.raises(UserError, match="no column 'water-project-cost-sharing'") as e:
        rows.codes(pre, table, ("?",), "new.csv")
    assert "\n" not in str(e.value)


def _saved(tmp_path):
    model = fitting.fit(DatasetSpec("house-votes-84"), ClassifierSpec("TAN", "TAN", {}, REGISTRY["TAN"]),
                        PreprocessSettings(scope="global"))
    path = tmp_path / "m.bncmodel"
    fitting.save(model, path)
    return path


def _rewrite_header(path, change):
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    header = json.loads(members[modelfile.HEADER])
    change(header)
    members[modelfile.HEADER] = json.dumps(header).encode()
    with zipfile.ZipFile(path, "w") as z:
        for n, data in members.items():
            z.writestr(n, data)


def test_a_newer_format_version_is_refused(tmp_path):
    path = _saved(tmp_path)
    _rewrite_header(path, lambda h: h.update(version=modelfile.VERSION + 1))
    with pytest.raises(UserError, match=f"format version {modelfile.VERSION + 1}.*newer bncbench"):
        fitting.load(path)


def test_an_older_version_whose_classifier_changed_is_refused_naming_it(tmp_path):
    # format version 1 held RC's dependency tables with other fields: such a file asks to be fitted
    # again; a version-1 file whose classifier's state still matches (TAN's) reads as before
    model = fitting.fit(DatasetSpec("zoo"), ClassifierSpec("RC", "RC", {}, REGISTRY["RC"]),
                        PreprocessSettings(scope="global"))
    path = tmp_path / "rc.bncmodel"
    fitting.save(model, path)

    def old_tables(node):
        if isinstance(node, dict):
            if node.get("$dataclass", "").endswith(":FDTables"):
                node["fields"]["singles"] = node["fields"].pop(next(iter(node["fields"])))
            for v in node.values():
                old_tables(v)
        elif isinstance(node, list):
            for v in node:
                old_tables(v)

    _rewrite_header(path, lambda h: (h.update(version=1), old_tables(h)))
    with pytest.raises(UserError, match=r"format version 1 .*fit it again") as e:
        fitting.load(path)
    assert "\n" not in str(e.value)
    tan = _saved(tmp_path)
    _rewrite_header(tan, lambda h: h.update(version=1))
    assert fitting.load(tan).classifier is not None


def test_the_file_runs_no_code(tmp_path):
    """The arrays are read without pickle, and a dataclass is one of bncbench's classifiers' only."""
    path = _saved(tmp_path)
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if n.endswith(".npy")]
        assert names and all(np.lib.format.read_array(z.open(n), allow_pickle=False) is not None for n in names)
    _rewrite_header(path, lambda h: h["classifier"]["state"].update(
        evil={"$dataclass": "os:system", "fields": {}}))
    with pytest.raises(UserError, match=r"damaged or not|not a bncbench model file"):
        fitting.load(path)


@pytest.mark.parametrize("content", [b"", b"not a zip", b"PK\x03\x04broken"])
def test_a_damaged_file_is_refused_in_one_line(tmp_path, content):
    path = tmp_path / "m.bncmodel"
    path.write_bytes(content)
    with pytest.raises(UserError, match="not a bncbench model file") as e:
        fitting.load(path)
    assert "\n" not in str(e.value)


def test_an_attribute_the_format_cannot_hold_is_refused(tmp_path):
    model = fitting.fit(DatasetSpec("house-votes-84"), ClassifierSpec("NB", "NB", {}, REGISTRY["NB"]),
                        PreprocessSettings(scope="global"))
    model.classifier.hook_ = print  # type: ignore[attr-defined]  # a function is code
    with pytest.raises(UserError, match="hook_ is a builtins"):
        fitting.save(model, tmp_path / "m.bncmodel")
    assert not list(tmp_path.iterdir())  # nothing half-written


def _rewrite_member(path, name, data):
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    members[name] = data
    with zipfile.ZipFile(path, "w") as z:
        for n, d in members.items():
            z.writestr(n, d)


def _npy(header: dict, body: bytes = b"") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    return buf.getvalue() + body


#: hand-made headers, each a model file no `fit` writes: (what, the change, a part of the one line)
DAMAGED_HEADERS = [
    ("a dataclass of no module", lambda h: h["classifier"]["state"].update(
        x={"$dataclass": "bncbench.classifiers.nosuch:X", "fields": {}}), "no module of bncbench"),
    ("a dataclass given fields not its own", lambda h: h["classifier"]["state"].update(
        x={"$dataclass": "bncbench.classifiers.learned:Submodel", "fields": {"__class__": 1}}), "not its own"),
    ("fields that are not an object", lambda h: h["classifier"]["state"].update(
        x={"$dataclass": "bncbench.classifiers.learned:Submodel", "fields": [1]}), "not its own"),
    ("an array named by a list", lambda h: h["classifier"]["state"].update(x={"$array": ["a0.npy"]}), "TypeError"),
    ("a $dict of a number", lambda h: h["classifier"]["state"].update(x={"$dict": 5}), "TypeError"),
    ("a state over a method", lambda h: h["classifier"]["state"].update(predict_proba=3), "'predict_proba' is not"),
    ("a state over a parameter", lambda h: h["classifier"]["state"].update(m=3), "'m' is not"),
    ("fewer declared values than codes", lambda h: h["preprocessing"]["values"][0].pop(), "attribute 0"),
    ("a list of values too short", lambda h: h["preprocessing"]["values"].pop(), "do not fit together"),
    ("names that are a number", lambda h: h["preprocessing"].update(names=5), "TypeError"),
    ("classes the classifier does not have", lambda h: h["preprocessing"]["classes"].append("x"), "classes are not"),
]


@pytest.mark.parametrize("what,change,expected", DAMAGED_HEADERS, ids=[d[0] for d in DAMAGED_HEADERS])
def test_a_hand_made_header_is_refused_in_one_line(tmp_path, what, change, expected):
    """Whatever a header holds, reading it ends in a model or in one line (exit 2), never in an
    error of bncbench's own code, nor in a classifier whose codes leave its tables."""
    path = _saved(tmp_path)
    _rewrite_header(path, change)
    with pytest.raises(UserError, match=expected) as e:
        fitting.load(path)
    assert "\n" not in str(e.value)


def test_a_header_nested_past_the_recursion_limit_is_refused(tmp_path):
    path = _saved(tmp_path)
    _rewrite_member(path, modelfile.HEADER, b'{"format":"bncbench-model","version":1,"x":' + b"[" * 100_000
                    + b"]" * 100_000 + b"}")
    with pytest.raises(UserError, match="RecursionError"):
        fitting.load(path)


@pytest.mark.parametrize("npy,expected", [
    (_npy({"descr": "<f8", "fortran_order": False, "shape": (10 ** 12,)}, b"\0" * 8), "does not match its 8 bytes"),
    (_npy({"descr": "|O", "fortran_order": False, "shape": (1,)}, b"\0" * 8), "Python objects"),
], ids=["a shape larger than the bytes", "objects"])
def test_an_array_is_checked_before_it_is_allocated(tmp_path, npy, expected):
    path = _saved(tmp_path)
    _rewrite_member(path, "a0.npy", npy)
    with pytest.raises(UserError, match=expected):
        fitting.load(path)


def test_a_file_that_unpacks_past_the_limit_is_refused_unread(tmp_path, monkeypatch):
    """A zip bomb: the members' unpacked sizes are summed before any is unpacked."""
    path = _saved(tmp_path)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as z:
        z.writestr("zeros.npy", b"\0" * 200_000)  # about 200 bytes packed
    monkeypatch.setattr(modelfile, "MAX_BYTES", 100_000)
    with pytest.raises(UserError, match="more than the 100000 a model file may hold"):
        fitting.load(path)


@pytest.mark.parametrize("change", [lambda s: s.pop("parents_"), lambda s: s.update(parents_=[40] * 16)],
                         ids=["an attribute missing", "a parent out of range"])
def test_a_state_that_cannot_predict_is_one_line(tmp_path, change):
    """What `load` does not check of a classifier's state (its attributes, their shapes) fails when
    predicting: one line naming the file, never an internal error."""
    path = _saved(tmp_path)
    _rewrite_header(path, lambda h: change(h["classifier"]["state"]))
    model = fitting.load(path)
    X = np.zeros((3, len(model.preprocessing.names)), dtype=np.int64)
    with pytest.raises(UserError, match="cannot predict from its stored state") as e:
        fitting.probabilities(model, X, str(path))
    assert "\n" not in str(e.value)


def test_a_cell_that_is_not_a_number_is_named_with_its_row():
    """As the data set's own loader says it: the column, the row, the cell as written."""
    ds = load_dataset(DatasetSpec("labor-negotiations"))
    _, pre = fitting.encode_all(ds, PreprocessSettings(missing="impute", scope="global"))
    numeric = next(n for n, v in zip(pre.names, pre.values) if v is None)
    table = _raw_rows(ds)
    table.rows = [list(table.rows[0]), list(table.rows[1])]
    table.rows[1][pre.names.index(numeric)] = "0x10"
    with pytest.raises(UserError, match=f"column '{numeric}', row 2: '0x10' is not a number$"):
        rows.codes(pre, table, ("?",), "new.csv")
