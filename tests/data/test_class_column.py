"""Which column of a user's file is the class, said every time (issue 36 item 1): `run`'s class
line and warning (data/describe.py through engine/runner.py load_available), `datasets describe`,
the HTML report's provenance; an ARFF class that is numeric is refused."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from bncbench import config, results
from bncbench.cli.app import app
from bncbench.data import describe
from bncbench.data.userdata import load_user
from bncbench.engine import runner
from bncbench.errors import DataError
from bncbench.experiment import Experiment

PENGUIN_COUNTS = {"Adelie": 152, "Gentoo": 124, "Chinstrap": 68}
ISLAND = {"Adelie": "Torgersen", "Gentoo": "Biscoe", "Chinstrap": "Dream"}
YEAR_COUNTS = {2007: 110, 2008: 114, 2009: 120}


def penguins(path) -> str:
    """The issue's file: a penguins-like CSV whose class, species, is its FIRST column and whose last
    column is `year` (3 values); 344 rows as in the Palmer penguins data."""
    rng = random.Random(1)
    years = [y for y, n in YEAR_COUNTS.items() for _ in range(n)]
    rng.shuffle(years)
    species = [s for s, n in PENGUIN_COUNTS.items() for _ in range(n)]
    rows = [f"{s},{ISLAND[s]},{38 + 5 * (s != 'Adelie') + rng.gauss(0, 2):.1f},{rng.gauss(17, 1):.1f},"
            f"{rng.choice(['male', 'female', 'NA'])},{y}" for s, y in zip(species, years)]
    rng.shuffle(rows)
    path.write_text("species,island,bill_length_mm,bill_depth_mm,sex,year\n" + "\n".join(rows) + "\n")
    return str(path)


def _experiment(tmp_path, entry: str, folds: int = 3) -> Experiment:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"name: c\ndatasets:\n  - {entry}\nclassifiers: [NB]\ncv: {{folds: {folds}}}\n")
    return config.load(str(cfg))


def _loaded(tmp_path, entry: str, folds: int = 3, quiet: bool = False) -> list[str]:
    """The lines load_available logs for a config of the one data-set `entry`."""
    said: list[str] = []
    runner.load_available(_experiment(tmp_path, entry, folds), False, said.append, quiet)
    return said


def test_the_issue_case_says_year_was_taken_by_default_and_warns(tmp_path):
    """Issue 36 item 1: species is the first column and no `class:` is given: the run took `year`
    without a word. Now the class line names `year`, how it was taken and its counts, and a warning
    names species as the column to name instead."""
    penguins(tmp_path / "penguins.csv")
    said = _loaded(tmp_path, "{name: penguins, path: penguins.csv}")
    assert said[0] == "penguins: class column 'year' (the last column, by default): 2009 120, 2008 114, 2007 110"
    assert len(said) == 2 and said[1].startswith("warning: penguins: the class was taken from the last column, "
                                                 "'year', by default, and it does not look like a class: its values "
                                                 "are numbers;")
    assert "name it in the data set's entry, e.g. `class: species` (docs/datasets.md: The class column)" in said[1]


def test_a_named_class_is_said_without_a_warning(tmp_path):
    penguins(tmp_path / "penguins.csv")
    for key in ("species", "0"):
        said = _loaded(tmp_path, f"{{name: penguins, path: penguins.csv, class: {key}}}")
        assert said == ["penguins: class column 'species' (named by `class:`): Adelie 152, Gentoo 124, Chinstrap 68"]


def test_quiet_leaves_out_the_class_line_not_the_warning(tmp_path):
    penguins(tmp_path / "penguins.csv")
    said = _loaded(tmp_path, "{name: penguins, path: penguins.csv}", quiet=True)
    assert len(said) == 1 and said[0].startswith("warning: penguins:")
    assert _loaded(tmp_path, "{name: penguins, path: penguins.csv, class: species}", quiet=True) == []


def test_a_catalog_data_set_gets_no_class_line(tmp_path):
    assert _loaded(tmp_path, "iris") == []


def test_run_says_each_data_set_once_and_stores_it_for_the_html_report(tmp_path):
    """One `run`: one class line per user data set (however many tasks), the provenance holds the
    file, its sha256 and the class, and the HTML report's data-file table shows them."""
    from bncbench.reporting.page import page as html_page

    penguins(tmp_path / "penguins.csv")
    (tmp_path / "codes.csv").write_text("x,y\n" + "".join(f"{i % 5},{i % 2}\n" for i in range(30)))
    exp = _experiment(tmp_path, "{name: penguins, path: penguins.csv}\n  - {name: codes, path: codes.csv}\n  - iris")
    said: list[str] = []
    runner.run(exp, str(tmp_path / "res"), log=said.append)
    class_lines = [s for s in said if ": class column " in s and not s.startswith("warning")]
    assert class_lines == ["penguins: class column 'year' (the last column, by default): 2009 120, 2008 114, 2007 110",
                           "codes: class column 'y' (the last column, by default): 0 15, 1 15"]
    assert sum(s.startswith("warning:") for s in said) == 1  # penguins; 0/1 codes are classes
    with results.open(tmp_path / "res") as r:
        data = r.provenance["data"]
        assert set(data) == {"penguins", "codes"}  # catalog data sets are the catalog's
        assert data["penguins"]["file"] == str(tmp_path / "penguins.csv")
        assert len(data["penguins"]["sha256"]) == 64 and "year" in data["penguins"]["warning"]
        assert data["codes"]["class"] == "column 'y' (the last column, by default): 0 15, 1 15"
        assert "warning" not in data["codes"]
        page = html_page(r, None, None, None)
    table = page[page.index('id="provenance-data"'):]
    table = table[:table.index("</table>")]
    assert "<th scope=\"col\" title=\"sort\">class</th>" in table
    assert "column &#39;year&#39; (the last column, by default): 2009 120, 2008 114, 2007 110 — warning:" in table
    assert data["penguins"]["sha256"] in table and ">iris<" in table


def test_a_long_value_list_is_cut_and_many_values_warn(tmp_path):
    """An identifier as the last column: 60 values of one row each. The line names ten and how many
    more; the warning gives both reasons and, with no nominal column to suggest, `class: COLUMN`."""
    (tmp_path / "ids.csv").write_text("x,id\n" + "".join(f"{i % 4},p{i:03d}\n" for i in range(60)))
    said = _loaded(tmp_path, "{name: ids, path: ids.csv}")
    assert said[0].startswith("ids: class column 'id' (the last column, by default): p000 1, p001 1, ")
    assert said[0].endswith("p009 1, … and 50 more (60 values)")
    assert "it has 60 distinct values" in said[1] and "fewer than the 3 folds (60 values have fewer)" in said[1]
    assert "e.g. `class: COLUMN`" in said[1]


@pytest.mark.parametrize("values,numbers", [
    (["0", "1"], False), (["1", "2", "3"], False), (["2007", "2008"], True), (["1", "3"], True),
    (["0.5", "1.5"], True), (["-1", "1"], True), (["yes", "no"], False), (["1", "x"], False),
])
def test_numbers_warn_unless_they_are_class_codes(tmp_path, values, numbers):
    (tmp_path / "n.csv").write_text("x,c\n" + "".join(f"{i},{values[i % len(values)]}\n" for i in range(40)))
    said = _loaded(tmp_path, "{name: n, path: n.csv}")
    assert ("its values are numbers" in said[-1]) is numbers, said


def test_a_class_value_with_fewer_rows_than_folds_warns(tmp_path):
    rows = "".join(f"{i},{'a' if i % 2 else 'b'}\n" for i in range(40)) + "40,rare\n41,rare\n"
    (tmp_path / "r.csv").write_text("x,c\n" + rows)
    said = _loaded(tmp_path, "{name: r, path: r.csv}", folds=5)
    assert said[0] == "r: class column 'c' (the last column, by default): a 20, b 20, rare 2"
    assert "its value rare has 2 row(s), fewer than the 5 folds;" in said[1]
    assert len(_loaded(tmp_path, "{name: r, path: r.csv}", folds=2)) == 1  # 2 rows for 2 folds: no warning
    assert len(_loaded(tmp_path, "{name: r, path: r.csv, class: c}", folds=5)) == 1  # named: no warning


def test_rows_without_a_class_are_counted_and_odd_values_quoted(tmp_path):
    long = "x" * 50
    rows = [f"{i},{v}" for i, v in enumerate(['"a,b"', long, " sp", '"a,b"', long, " sp", "?", "NA"] * 5)]
    (tmp_path / "q.csv").write_text("x,c\n" + "\n".join(rows) + "\n")
    line = _loaded(tmp_path, "{name: q, path: q.csv, class: c}")[0]
    assert line == f"q: class column 'c' (named by `class:`): 'a,b' 10, sp 10, {'x' * 29}… 10; 10 row(s) without a " \
                   f"class value left out"


def test_describe_text_is_the_runs(tmp_path):
    """`datasets describe` prints what `run` says: a config's data sets, a file with --class, a catalog
    name; a missing file or --class where it does not apply is one error line (exit 2)."""
    penguins(tmp_path / "penguins.csv")
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: c\ndatasets:\n  - {name: penguins, path: penguins.csv}\n  - iris\nclassifiers: [NB]\n"
                   "cv: {folds: 3}\n")
    r = CliRunner().invoke(app, ["datasets", "describe", str(cfg)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith(f"penguins: {tmp_path / 'penguins.csv'} (sha256 ")
    assert lines[0].endswith("344 instances, 5 attributes (2 numeric, 3 nominal), 3 classes")
    assert lines[1:3] == _loaded(tmp_path, "{name: penguins, path: penguins.csv}")
    assert lines[3] == "iris: catalog, arff:iris.arff; 150 instances, 4 attributes (4 numeric, 0 nominal), 3 classes"
    assert lines[4] == "iris: class as the catalog reads it: Iris-setosa 50, Iris-versicolor 50, Iris-virginica 50"
    r = CliRunner().invoke(app, ["datasets", "describe", str(tmp_path / "penguins.csv"), "--class", "species"])
    assert r.exit_code == 0 and r.output.splitlines()[1] == ("penguins: class column 'species' (named by `class:`): "
                                                             "Adelie 152, Gentoo 124, Chinstrap 68")
    r = CliRunner().invoke(app, ["datasets", "describe", str(tmp_path / "penguins.csv"), "--folds", "200"])
    assert "fewer than the 200 folds (3 values have fewer)" in r.output.splitlines()[2]


@pytest.mark.parametrize("kind", ["numeric", "real", "integer", "NUMERIC"])
def test_a_numeric_arff_class_is_refused(tmp_path, kind):
    """Issue 36 item 1: an ARFF class declared numeric was read as one class per number."""
    p = tmp_path / "n.arff"
    p.write_text("@relation n\n@attribute a {x,y}\n@attribute class " + kind + "\n@data\n" +
                 "".join(f"{'xy'[i % 2]},{i % 20}.5\n" for i in range(60)))
    with pytest.raises(DataError, match=r"n\.arff: the class attribute 'class' is numeric; bncbench classifies "
                                        r"nominal classes: name a nominal attribute with `class:`"):
        load_user("n", str(p))
    ds = load_user("n", str(p), "a")  # a nominal attribute named as the class: the numeric one is an attribute
    assert ds.classes == ["x", "y"] and ds.attributes[0].name == "class" and not ds.attributes[0].nominal


def test_the_class_words_are_outside_every_tasks_code_fingerprint():
    """The class line and warning live in data/describe.py, which no task's code imports: changing
    their words re-runs nothing."""
    from bncbench.engine.fingerprint import PIPELINE_MODULES, closure

    modules = closure(list(PIPELINE_MODULES))
    assert "bncbench.data.userdata" in modules and describe.__name__ not in modules
