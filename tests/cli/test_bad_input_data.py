"""A user's data file that cannot be read as meant: one line on stderr, exit 2, nothing written
(issue 36 items 1, 9 and 10), run as a user runs bncbench (a subprocess: the exit code and the
one line are the point). Following the advice of the line gives a run that works."""

from __future__ import annotations

import codecs

from tests.support.cli import bnc_in

ROWS = "".join(f"{i % 7},{'xyz'[i % 3]},{'yes' if i % 2 else 'no'}\n" for i in range(24))
TEXT = "a,b,class\n" + ROWS


def _config(tmp_path, data_name: str, content: str | bytes, extra: str = ""):
    """c.yaml naming the file `data_name` (holding `content`) on its line 4, the entry ending in `extra`."""
    data = tmp_path / data_name
    if isinstance(content, bytes):
        data.write_bytes(content)
    else:
        data.write_text(content, encoding="utf-8")
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"name: c\ncv: {{folds: 3}}\ndatasets:\n  - {{name: mine, path: {data_name}{extra}}}\n"
                   f"classifiers: [NB]\n")
    return cfg


def refused(tmp_path, cfg, *expect: str) -> str:
    """`run` stops with exit 2 and one line holding each of `expect`, and writes no results."""
    res = tmp_path / "res"
    r = bnc_in("run", cfg, "--results", res)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert lines[0].startswith("error: ") and all(e in lines[0] for e in expect), r.stderr
    assert not res.exists()
    return lines[0]


def runs(tmp_path, cfg) -> str:
    """`run` works (exit 0); its stderr."""
    r = bnc_in("run", cfg, "--results", tmp_path / "res")
    assert r.returncode == 0, r.stderr
    return r.stderr


# -- the cases -------------------------------------------------------------------------

def test_a_numeric_arff_class_is_refused(tmp_path):
    """Issue 36 item 1: `@attribute class numeric` was read as 20 nominal classes without a word."""
    arff = "@relation r\n@attribute a numeric\n@attribute b {x,y}\n@attribute class numeric\n@data\n" + \
        "".join(f"{i},{'xy'[i % 2]},{i % 20}.5\n" for i in range(60))
    cfg = _config(tmp_path, "num.arff", arff)
    refused(tmp_path, cfg, "num.arff: the class attribute 'class' is numeric; bncbench classifies nominal classes",
            "name a nominal attribute with `class:`")
    cfg.write_text(cfg.read_text().replace("path: num.arff", "path: num.arff, class: b"))  # the advice: it runs
    assert "mine: class column 'b' (named by `class:`): x 30, y 30" in runs(tmp_path, cfg)


def test_a_csv_of_only_the_class_column_is_refused(tmp_path):
    """Issue 36 item 9: it ended in exit 3, "0 feature(s)", called a bug of bncbench."""
    refused(tmp_path, _config(tmp_path, "only.csv", "class\n" + "a\nb\n" * 6),
            "only.csv: no attribute to classify with: the file holds only the class column 'class'")


def test_a_utf16_file_gets_advice_that_works(tmp_path):
    """Issue 36 item 10: a UTF-16 file was told to add `encoding: latin-1`, which then failed
    ("1 values, but the header names 2 columns"). The advice now names UTF-16, the way the file
    was named latin-1 included, and following it runs."""
    cfg = _config(tmp_path, "u16.csv", TEXT.encode("utf-16"))
    line = refused(tmp_path, cfg, "u16.csv: the file is in UTF-16, not utf-8; set `encoding: utf-16` in its entry")
    assert "latin-1" not in line
    cfg.write_text(cfg.read_text().replace("path: u16.csv", "path: u16.csv, encoding: latin-1"))  # the old advice
    refused(tmp_path, cfg, "the file is in UTF-16, not latin-1; set `encoding: utf-16` in its entry")
    cfg.write_text(cfg.read_text().replace("encoding: latin-1", "encoding: utf-16"))  # the advice given
    assert "mine: class column 'class' (the last column, by default): no 12, yes 12" in runs(tmp_path, cfg)


def test_a_missing_file_names_the_config_line(tmp_path):
    """Issue 36 item 10: "file x does not exist" named no config line."""
    cfg = _config(tmp_path, "here.csv", TEXT)
    cfg.write_text(cfg.read_text().replace("path: here.csv", "path: gone.csv"))
    refused(tmp_path, cfg, f"{cfg}:4: datasets.0.path: data set 'mine': {tmp_path / 'gone.csv'} does not exist")


# -- hostile cases -----------------------------------------------------------------------------

def test_a_folder_named_as_the_file(tmp_path):
    cfg = _config(tmp_path, "here.csv", TEXT)
    (tmp_path / "dir.csv").mkdir()
    cfg.write_text(cfg.read_text().replace("path: here.csv", "path: dir.csv"))
    refused(tmp_path, cfg, f"{cfg}:4: datasets.0.path:", "dir.csv is a folder, not a file")


def test_a_class_attribute_declared_twice_in_an_arff_header(tmp_path):
    """`class: class` would take the first, the default the last: neither is said to be meant."""
    arff = "@relation r\n@attribute class {a,b}\n@attribute x numeric\n@attribute class {a,b}\n@data\n" + \
        "".join(f"{'ab'[i % 2]},{i},{'ba'[i % 2]}\n" for i in range(12))
    refused(tmp_path, _config(tmp_path, "dup.arff", arff), "the header names columns 1 and 3 both 'class'")


def test_a_class_column_named_twice_in_a_csv_header(tmp_path):
    refused(tmp_path, _config(tmp_path, "dup.csv", "class,a,class\n" + ROWS, ", class: class"),
            "the header names columns 1 and 3 both 'class'")


def test_a_binary_file_named_csv(tmp_path):
    """A workbook saved under .csv: not text, whatever the encoding; no advice to read it as latin-1."""
    xlsx = b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00" + bytes(range(256)) * 4
    line = refused(tmp_path, _config(tmp_path, "book.csv", xlsx),
                   "book.csv: line 1, column 6: a NUL byte: this is not a text file")
    assert "latin-1" not in line


def test_every_attribute_dropped(tmp_path):
    refused(tmp_path, _config(tmp_path, "d.csv", TEXT, ", drop: [a, b]"),
            "no attribute to classify with: every column but the class 'class' is under drop:")


def test_a_header_only_csv(tmp_path):
    refused(tmp_path, _config(tmp_path, "h.csv", "a,b,class\n"), "h.csv: no data rows (only a header line)")


def test_a_class_with_one_value_and_a_class_missing_everywhere(tmp_path):
    refused(tmp_path, _config(tmp_path, "one.csv", "a,class\n" + "1,yes\n2,yes\n3,yes\n"),
            "the class column 'class' has 1 distinct value(s) ('yes')")
    refused(tmp_path, _config(tmp_path, "none.csv", "a,class\n" + "1,?\n2,NA\n3,\n"),
            "the class column 'class' has 0 distinct value(s) (it is missing in every row)")


def test_a_byte_order_mark_and_crlf_line_ends_run(tmp_path):
    """Excel's "CSV UTF-8" on Windows: the names and values come out clean (no BOM, no CR)."""
    cfg = _config(tmp_path, "w.csv", codecs.BOM_UTF8 + TEXT.replace("\n", "\r\n").encode())
    assert "mine: class column 'class' (the last column, by default): no 12, yes 12\n" in runs(tmp_path, cfg)


def test_an_identifier_as_the_last_column_warns_and_runs(tmp_path):
    """A plausible mistake: the row id last. Every id is its own class: the run goes on, but says
    so and how to name the class."""
    rows = "".join(f"{i % 5},{'yn'[i % 2]},r{i}\n" for i in range(30))
    err = runs(tmp_path, _config(tmp_path, "ids.csv", "a,label,id\n" + rows))
    assert "mine: class column 'id' (the last column, by default): r0 1, r1 1," in err
    assert "… and 20 more (30 values)" in err
    assert "warning: mine: the class was taken from the last column, 'id', by default" in err
    assert "e.g. `class: label`" in err
