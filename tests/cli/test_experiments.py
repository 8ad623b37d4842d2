"""A folder of experiments (results/<name>/ each): `report`, `wdl` and `compare` print one section
per experiment in name order, headed by its config name; `bncbench.results.open_all` reads them."""

import csv
import io
from pathlib import Path

import pytest

from bncbench import results
from tests.support.cli import bnc_in

ROOT = Path(__file__).resolve().parents[2]


def bnc(*args, check=True):
    return bnc_in(*args, cwd=ROOT, check=check)


def _config(name: str, datasets: str, classifiers: str) -> str:
    return (f"name: {name}\ndatasets: [{datasets}]\ncv: {{scheme: stratified, folds: 3, runs: 1, seed: 1}}\n"
            f"classifiers: [{classifiers}]\n")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """results/ with two experiments, run in the opposite of their name order, beside a folder
    that holds no store: `zeta` (iris, zoo; NB, TAN) in results/zeta and `alpha` (iris, car; NB,
    AODE) in results/alpha."""
    d = tmp_path_factory.mktemp("many")
    for name, ds, cl in (("zeta", "iris, zoo", "NB, TAN"), ("alpha", "iris, car", "NB, AODE")):
        (d / f"{name}.yaml").write_text(_config(name, ds, cl))
        bnc("run", d / f"{name}.yaml", "--results", d / "results" / name, "--quiet")
    (d / "results" / "figures").mkdir()
    return d / "results"


def _sections(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("## ")]


def test_report_has_one_section_per_experiment_in_name_order(folder):
    out = bnc("report", folder).stdout
    assert _sections(out) == [f"## alpha ({folder / 'alpha'})", f"## zeta ({folder / 'zeta'})"]
    alpha, zeta = out.split("## zeta")
    assert "| car " in alpha and "| AODE" in alpha and "zoo" not in alpha
    assert "| zoo " in zeta and "| TAN" in zeta and "car" not in zeta
    # each section is the experiment's own report
    assert alpha.split("\n\n", 1)[1] == bnc("report", folder / "alpha").stdout + "\n"


def test_csv_gets_an_experiment_column(folder):
    rows = list(csv.reader(io.StringIO(bnc("report", folder, "--format", "csv").stdout)))
    assert rows[0] == ["experiment", "dataset", "classifier", "metric", "mean", "sd"]
    assert {(r[0], r[1]) for r in rows[1:]} == {("alpha", "iris"), ("alpha", "car"), ("zeta", "iris"), ("zeta", "zoo")}
    wdl = list(csv.reader(io.StringIO(bnc("wdl", folder, "--format", "csv").stdout)))
    assert wdl[0][0] == "experiment" and {r[0] for r in wdl[1:]} == {"alpha", "zeta"}


def test_wdl_and_compare_per_experiment(folder, tmp_path):
    out = bnc("wdl", folder).stdout
    assert _sections(out) == [f"## alpha ({folder / 'alpha'})", f"## zeta ({folder / 'zeta'})"]
    assert out.count("wins-draws-losses of the row against the column") == 2
    table = tmp_path / "paper.tsv"
    table.write_text("dataset\tNB\tAODE\ncar\t0.1400\t0.0800\n")
    r = bnc("compare", folder, table)
    alpha, zeta = r.stdout.split("## zeta")
    assert "values equal at the printed precision" in alpha
    # zeta has neither car nor AODE: its section says why, and the command goes on
    assert "not shown:" in zeta and "car" in zeta and f"{folder / 'zeta'}: not shown:" in r.stderr


def test_open_all_reads_every_experiment(folder):
    alpha, zeta_of_all = results.open_all(folder)
    assert (Path(alpha.location).name, Path(zeta_of_all.location).name) == ("alpha", "zeta")
    assert set(alpha.tasks["dataset"]) == {"iris", "car"}
    assert set(zeta_of_all.tasks["label"]) == {"NB", "TAN"}
    (zeta,) = results.open_all(folder / "zeta")
    with zeta:
        assert (zeta.name, zeta.location) == ("zeta", str(folder / "zeta"))
    assert [r.name for r in results.open_all(folder)] == ["alpha", "zeta"]


def test_a_folder_without_experiments_and_html_of_several_are_refused(folder, tmp_path):
    r = bnc("wdl", tmp_path, check=False)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "no results here" in r.stderr
    r = bnc("report", folder, "--format", "html", check=False)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "one experiment" in r.stderr
