"""A user's own CSV/TSV/ARFF file (data/userdata.py): missing-value markers, column types as
pandas reads them, declared types, dropped columns, and one-line errors naming file lines."""

from __future__ import annotations

import codecs
import io
import re

import numpy as np
import pandas as pd
import pytest

from bncbench import config
from bncbench.data.dataset import Dataset
from bncbench.data.loaders import column_list, parse_arff, parse_delimited
from bncbench.data.userdata import DEFAULT_MISSING, PANDAS_NA, ReadOptions, load_user
from bncbench.errors import DataError, UserError

# the NA strings of pandas' read_csv documentation, and tokens near them: pandas itself decides which
# of these are NA, and ours must be exactly those
DOCUMENTED = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
              "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"]
NEAR_MISSES = ["NAN", "na", "Na", "Null", "NONE", "none", "N.A.", "n.a.", "-", "--", ".", "missing", "#N/A N", "inf"]


def _write(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _frame_values(ds, j: int) -> list:
    """Column j of a Dataset as Python values (None = missing), nominal codes as their values."""
    a, col = ds.attributes[j], ds.columns[j]
    if a.nominal:
        return [None if c < 0 else a.values[c] for c in col]
    return [None if np.isnan(v) else float(v) for v in col]


def test_default_markers_are_pandas_na_strings():
    tokens = DOCUMENTED + NEAR_MISSES
    text = "x\n" + "\n".join(f'"{t}"' if t == "" else t for t in tokens) + "\n"
    read = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=True)["x"]
    pandas_na = {t for t, na in zip(tokens, read.isna()) if na}
    assert pandas_na == set(PANDAS_NA)
    assert set(DEFAULT_MISSING) == set(PANDAS_NA) | {"?"}


def test_na_and_question_mark_files_read_alike_and_as_pandas_reads(tmp_path):
    rng = np.random.default_rng(3)
    rows: list[list[str | None]] = []
    for i in range(60):
        rows.append([f"{rng.normal(30, 8):.1f}", f"{rng.normal(160, 9):.1f}", ["red", "green", "blue"][i % 3],
                     "yes" if rng.random() < 0.5 else "no"])
    for i, j in ((2, 0), (7, 1), (11, 2), (20, 0), (33, 2)):
        rows[i][j] = None
    opts = ReadOptions()
    loaded: dict[str, Dataset] = {}
    for marker in ("?", "NA", "", "NULL", "n/a"):
        text = "age,height,color,class\n" + "\n".join(",".join(marker if v is None else v for v in r)
                                                       for r in rows) + "\n"
        loaded[marker] = load_user("mine", str(_write(tmp_path, f"m{len(loaded)}.csv", text)), None, opts)
        if marker != "?":  # pandas' own reading is the oracle for its NA strings
            frame = pd.read_csv(io.StringIO(text))
            ds = loaded[marker]
            assert [a.name for a in ds.attributes] == ["age", "height", "color"]
            assert [a.nominal for a in ds.attributes] == [False, False, True]
            for j, name in enumerate(("age", "height", "color")):
                want = [None if pd.isna(v) else v for v in frame[name]]
                assert _frame_values(ds, j) == want, (marker, name)
            assert [ds.classes[c] for c in ds.y] == list(frame["class"])
    ref = loaded["?"]
    for ds in loaded.values():
        assert [a.values for a in ds.attributes] == [a.values for a in ref.attributes]
        for a, b in zip(ds.columns, ref.columns):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(ds.y, ref.y)


def test_entry_markers_replace_the_defaults(tmp_path):
    p = _write(tmp_path, "r.csv", "region,x,class\nNA,1,a\nEU,-99,b\n?,3,a\nEU,,b\n")
    ds = load_user("r", str(p), None, ReadOptions(missing_values=("?", "-99")))
    assert ds.attributes[0].values == ["EU", "NA"]  # North America is a value here
    assert _frame_values(ds, 0) == ["NA", "EU", None, "EU"]
    assert _frame_values(ds, 1) == [1.0, None, 3.0, None]  # the empty cell stays missing


def test_mostly_numbers_with_stray_tokens_is_an_error_naming_them(tmp_path):
    lines = ["age,color,class"] + [f"{20 + i},red,{'ab'[i % 2]}" for i in range(10)]
    lines[3] = "N.A.,red,a"
    lines[6] = "unknown,red,b"
    lines[9] = "N.A.,red,a"
    p = _write(tmp_path, "s.csv", "\n".join(lines) + "\n")
    with pytest.raises(DataError) as e:
        load_user("s", str(p))
    msg = str(e.value)
    assert "column 'age'" in msg and "'N.A.' (2×, first on line 4)" in msg and "'unknown' (line 7)" in msg
    assert "missing_values" in msg and "nominal: [age]" in msg and "\n" not in msg
    ds = load_user("s", str(p), None, ReadOptions(nominal=("age",)))  # declared nominal: as meant
    values = ds.attributes[0].values
    assert values is not None and values[-2:] == ["N.A.", "unknown"]
    ds = load_user("s", str(p), None, ReadOptions(missing_values=("N.A.", "unknown")))
    assert not ds.attributes[0].nominal and int(np.isnan(ds.columns[0]).sum()) == 3


def test_mostly_text_with_a_few_numbers_is_nominal(tmp_path):
    p = _write(tmp_path, "t.csv", "grade,class\nA,x\nB,y\nC,x\n1,y\nA,x\n")
    ds = load_user("t", str(p))
    assert ds.attributes[0].values == ["1", "A", "B", "C"]


def test_declared_types(tmp_path):
    p = _write(tmp_path, "d.csv", "code,size,class\n10,1.5,x\n2,2.5,y\n33,x3,x\n2,4,y\n")
    with pytest.raises(DataError, match=r"column 'size' is declared numeric but holds 'x3' \(line 4\)"):
        load_user("d", str(p), None, ReadOptions(numeric=("size",)))
    ds = load_user("d", str(p), None, ReadOptions(nominal=("code", "size")))
    assert ds.attributes[0].values == ["2", "10", "33"]  # number order when every value is a number
    assert ds.attributes[1].values == ["1.5", "2.5", "4", "x3"]
    assert _frame_values(ds, 0) == ["10", "2", "33", "2"]


def test_drop_and_class_by_name(tmp_path):
    p = _write(tmp_path, "k.csv", "id,label,x\np1,a,1\np2,b,2\np3,a,3\n")
    ds = load_user("k", str(p), "label", ReadOptions(drop=("id",)))
    assert [a.name for a in ds.attributes] == ["x"] and ds.classes == ["a", "b"]
    arff = _write(tmp_path, "k.arff", "@relation k\n@attribute id {p1,p2}\n@attribute x numeric\n"
                                      "@attribute c {a,b}\n@data\np1,1,a\np2,2,b\n")
    assert [a.name for a in load_user("k", str(arff), None, ReadOptions(drop=("id",))).attributes] == ["x"]


@pytest.mark.parametrize("options,key,nearest", [
    (ReadOptions(nominal=("colour",)), "nominal", "color"),
    (ReadOptions(numeric=("heigth",)), "numeric", "height"),
    (ReadOptions(drop=("Color",)), "drop", "color"),
])
def test_unknown_column_names_the_nearest(tmp_path, options, key, nearest):
    p = _write(tmp_path, "u.csv", "height,color,class\n1,red,a\n2,blue,b\n")
    with pytest.raises(DataError) as e:
        load_user("u", str(p), None, options)
    msg = str(e.value)
    assert msg.startswith(f"{p}: {key}: no column") and f"(did you mean {nearest!r}?)" in msg
    assert msg.endswith("the columns are height, color, class")


def test_error_lines_are_file_lines(tmp_path):
    # a blank line, and a row whose class is missing (dropped), come before the bad cell on line 7
    p = _write(tmp_path, "l.csv", "x,class\n1,a\n\n2,?\n3,b\n4,a\nfive,b\n")
    with pytest.raises(DataError, match=r"holds 'five' \(line 7\)"):
        load_user("l", str(p), None, ReadOptions(numeric=("x",)))
    with pytest.raises(DataError, match=r"l2.csv:4: 1 values, but the header names 2 columns"):
        load_user("l", str(_write(tmp_path, "l2.csv", "x,class\n1,a\n\n2\n")))
    with pytest.raises(DataError, match=r"a.arff:7: 1 values, expected 2"):
        parse_arff("@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n1,a\n% note\n2\n", "a.arff")
    with pytest.raises(DataError, match=r"u.data:3: 1 values, expected 2"):
        parse_delimited("1,a\n2,b\n3\n", "u.data", ",")


def test_tsv_and_byte_order_mark(tmp_path):
    p = tmp_path / "b.tsv"
    p.write_bytes("\ufeffx\tcolor\tclass\n1\tred\ta\n2\tNA\tb\n".encode("utf-8"))
    ds = load_user("b", str(p))
    assert [a.name for a in ds.attributes] == ["x", "color"] and _frame_values(ds, 1) == ["red", None]


def test_header_problems(tmp_path):
    with pytest.raises(DataError, match=r"column 1 has no name.*index=False"):
        load_user("h", str(_write(tmp_path, "h.csv", ",x,class\n0,1,a\n1,2,b\n")))
    with pytest.raises(DataError, match="columns 1 and 2 both 'x'"):
        load_user("h", str(_write(tmp_path, "h2.csv", "x,x,class\n0,1,a\n1,2,b\n")))
    with pytest.raises(DataError, match=r"no data rows \(empty file\)"):
        load_user("h", str(_write(tmp_path, "h3.csv", "")))
    with pytest.raises(DataError, match=r"no data rows \(only a header line\)"):
        load_user("h", str(_write(tmp_path, "h4.csv", "x,class\n")))
    with pytest.raises(DataError, match=r"the class column 'class' has 1 distinct value\(s\) \('a'\)"):
        load_user("h", str(_write(tmp_path, "h5.csv", "x,class\n1,a\n2,a\n")))


def test_reading_options_are_part_of_the_data_identity(tmp_path):
    p = _write(tmp_path, "i.csv", "x,class\n1,a\n2,b\n")
    plain = load_user("i", str(p)).checksums
    assert load_user("i", str(p)).checksums == plain
    assert load_user("i", str(p), None, ReadOptions(nominal=("x",))).checksums != plain
    assert load_user("i", str(p), None, ReadOptions(missing_values=("?",))).checksums != plain


def test_column_list_ends_in_dots_only_when_cut():
    assert column_list(["a", "b"]) == "a, b"
    names = [f"c{i}" for i in range(20)]
    assert column_list(names, limit=3) == "c0, c1, c2, ... (20 columns)"
    assert column_list(names[:3], limit=3) == "c0, c1, c2"


def _parse(tmp_path, entry: str, preprocess: str = ""):
    (tmp_path / "m.csv").write_text("x,class\n1,a\n2,b\n")
    text = f"datasets:\n  - iris\n  - {entry}\nclassifiers: [NB]\n{preprocess}"
    return config.parse(text, str(tmp_path / "c.yaml"))


def test_config_reading_keys(tmp_path):
    exp = _parse(tmp_path, "{name: m, path: m.csv, missing_values: [NA, -99, 0.5], nominal: [x], drop: [1]}")
    assert exp.datasets[1].read == ReadOptions(("NA", "-99", "0.5"), ("x",), (), ("1",))
    assert exp.datasets[0].read == ReadOptions()


def test_user_data_gets_float64_equal_frequency_cuts_unless_the_config_says(tmp_path):
    exp = _parse(tmp_path, "{name: m, path: m.csv}")
    iris, mine = exp.datasets
    assert iris.settings(exp.preprocess).eqfreq_method == "petal"  # the catalog's default: paper configs
    assert mine.settings(exp.preprocess).eqfreq_method == "quantile"
    exp = _parse(tmp_path, "{name: m, path: m.csv}", "preprocess: {eqfreq_method: petal}\n")
    assert exp.datasets[1].settings(exp.preprocess).eqfreq_method == "petal"
    exp = _parse(tmp_path, "{name: m, path: m.csv, preprocess: {eqfreq_method: petal}}")
    assert exp.datasets[1].settings(exp.preprocess).eqfreq_method == "petal"
    exp = _parse(tmp_path, "{name: m, path: m.csv}", "preprocess: {discretizer: mdl}\n")
    assert exp.datasets[1].preprocess == ()


LATIN1_ROWS = [("café", "1", "y"), ("cafè", "2", "n"), ("café", "3", "y"), ("cafè", "4", "n")]


def _latin1(tmp_path, suffix: str = "csv"):
    p = tmp_path / f"l.{suffix}"
    if suffix == "arff":
        text = "@relation l\n@attribute color {café,cafè}\n@attribute size numeric\n@attribute class {y,n}\n@data\n"
        text += "".join(",".join(r) + "\n" for r in LATIN1_ROWS)
    else:
        text = "color,size,class\n" + "".join(",".join(r) + "\n" for r in LATIN1_ROWS)
    p.write_bytes(text.encode("latin-1"))
    return p


@pytest.mark.parametrize("suffix", ["csv", "arff"])
def test_a_latin1_file_is_refused_with_its_line_and_byte_and_read_under_its_encoding(tmp_path, suffix):
    """Issue 29 item 5: not valid UTF-8 is one error naming the line, the column and the byte (no
    replacement characters that would merge café and cafè); under `encoding: latin-1` the two
    values stay two categories."""
    p = _latin1(tmp_path, suffix)
    line = 2  # the first non-ASCII byte: the first data row of the CSV, the first attribute line of the ARFF
    with pytest.raises(DataError, match=rf"l\.{suffix}: line {line}, column \d+: byte 0xe9 is not valid utf-8; "
                                        r"add `encoding: latin-1`"):
        load_user("l", str(p))
    ds = load_user("l", str(p), "class", ReadOptions(encoding="latin-1"))
    assert ds.attributes[0].values is not None and set(ds.attributes[0].values) == {"café", "cafè"}
    assert _frame_values(ds, 0) == [r[0] for r in LATIN1_ROWS]


def test_the_encoding_enters_the_data_sets_identity_only_when_named(tmp_path):
    """A file read under another encoding is another data set for the tasks (its recipe checksum);
    UTF-8 named or left out is the same one (stores written before `encoding:` keep their tasks)."""
    p = _write(tmp_path, "a.csv", "x,class\n1,a\n2,b\n")
    default = load_user("a", str(p)).checksums["recipe"]
    assert load_user("a", str(p), options=ReadOptions(encoding="utf-8")).checksums["recipe"] == default
    assert load_user("a", str(p), options=ReadOptions(encoding="latin-1")).checksums["recipe"] != default


def test_an_unknown_encoding_is_a_config_error(tmp_path):
    p = _write(tmp_path, "a.csv", "x,class\n1,a\n2,b\n")
    for value, says in (("latin-9", "unknown encoding 'latin-9'"), ("[1]", "expected an encoding's name")):
        cfg = tmp_path / "c.yaml"
        cfg.write_text(f"datasets:\n  - {{name: a, path: {p}, encoding: {value}}}\nclassifiers: [NB]\n")
        with pytest.raises(UserError, match=rf"c\.yaml:2: datasets\.0\.encoding: {re.escape(says)}"):
            config.load(str(cfg))


@pytest.mark.parametrize("codec,bom,advised", [
    ("utf-16", b"", "utf-16"), ("utf-16-le", b"", "utf-16-le"), ("utf-16-be", b"", "utf-16-be"),
    ("utf-32-le", codecs.BOM_UTF32_LE, "utf-32"), ("utf-32-be", codecs.BOM_UTF32_BE, "utf-32"),
    ("utf-32-le", b"", "utf-32-le"), ("utf-32-be", b"", "utf-32-be"),
])
def test_utf16_and_utf32_files_are_told_their_encoding_which_then_reads_them(tmp_path, codec, bom, advised):
    """Issue 36 item 10: a byte-order mark, or else where the NUL bytes fall, names the encoding,
    under UTF-8 and under another named one; the advised encoding reads the file as UTF-8 text."""
    rows = [("café", "y"), ("naïve", "n")] * 3
    text = "color,size,class\n" + "".join(f"{c},{i},{k}\n" for i, (c, k) in enumerate(rows))
    p = tmp_path / "w.csv"
    p.write_bytes(bom + text.encode(codec))
    for named in ("utf-8", "latin-1", "cp1252"):
        with pytest.raises(DataError, match=rf"w\.csv: the file is in {advised.upper()}, not {named}; set "
                                            rf"`encoding: {advised}` in its entry$"):
            load_user("w", str(p), None, ReadOptions(encoding=named))
    ds = load_user("w", str(p), None, ReadOptions(encoding=advised))
    plain = tmp_path / "plain.csv"
    plain.write_text(text, encoding="utf-8")
    want = load_user("w", str(plain))
    assert ds.attributes == want.attributes and ds.classes == want.classes and (ds.y == want.y).all()


def test_a_nul_byte_is_no_text_and_names_its_line(tmp_path):
    p = tmp_path / "n.csv"
    p.write_bytes(b"x,class\n1,a\n2\x00,b\n")
    for named in ("utf-8", "latin-1"):
        with pytest.raises(DataError, match=r"n\.csv: line 3, column 2: a NUL byte: this is not a text file"):
            load_user("n", str(p), None, ReadOptions(encoding=named))
