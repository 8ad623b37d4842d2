"""`bncbench structure` on a real results store (docs/cli.md: structure): the arc shares equal
those of classifiers fitted directly on the fold files `bncbench folds` writes, the stability
equals the Jaccard formula over those fits, a drawn network names every attribute, a classifier
that reports none says so in one line, and bad input is one line with exit 2."""

import csv
import io
import shutil
import zlib
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from tests.evaluate.test_latex import compile_latex
from tests.support.cli import bnc, bnc_in, run_store
from tests.support.skips import need

CONFIG = """
name: structure
datasets: [car, pima-ind-diabetes]
preprocess: {missing: distinct, discretizer: eqfreq, bins: 5, eqfreq_method: petal, scope: fold}
cv: {scheme: stratified, folds: 3, runs: 2, seed: 7}
classifiers:
  - {name: NB}
  - {name: TAN}
  - {name: KDB, k: 2, label: KDB2}
  - {name: STAN, ranking: mrmr, label: STAN-MRMR}
  - {name: AODE}
  - {name: AIT, base: TAN, label: TAN-AIT}
  - {name: RC}
  - {name: "sklearn.linear_model:LogisticRegression", label: LR, max_iter: 500}
"""
LABELS = ["NB", "TAN", "KDB2", "STAN-MRMR", "AODE", "TAN-AIT", "RC", "LR"]
DIRECT = ("TAN", "KDB2", "STAN-MRMR", "TAN-AIT", "RC")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return run_store(tmp_path_factory, "structure", CONFIG)


@pytest.fixture(scope="module")
def direct(store, tmp_path_factory):
    """{(data set, label): [(run, fold, arcs, attributes, names, learned)]}: the DIRECT classifiers
    fitted here on each training fold file that `bncbench folds` writes (the config's parameters),
    their per-instance parts on the fold's test file."""
    from bncbench.config import load
    from bncbench.data.loaders import build_dataset, parse_arff

    cfg = store.parent / "config.yaml"
    exp = load(str(cfg))
    out = tmp_path_factory.mktemp("folds")
    fits: dict[tuple[str, str], list] = {}
    for ds in ("car", "pima-ind-diabetes"):
        bnc_in("folds", cfg, "--dataset", ds, "--out", out, check=True)
        for run in range(2):
            for fold in range(3):
                tr, te = (build_dataset("t", parse_arff(p.read_text(), str(p)), -1)
                          for p in (out / f"{ds}-r{run}-f{fold}-{part}.arff" for part in ("train", "test")))
                cards = [len(a.values or ()) for a in tr.attributes]
                assert all(cards), "the exported folds are discretised: every attribute nominal"
                X, X_test = np.column_stack(tr.columns), np.column_stack(te.columns)
                for spec in exp.classifiers:
                    if spec.label not in DIRECT:
                        continue
                    clf = spec.estimator_class(**spec.params, cardinalities=cards, n_classes=len(tr.classes))
                    learned = clf.fit(X, tr.y).learned_structure(X_test)
                    fits.setdefault((ds, spec.label), []).append(
                        (run, fold, set(learned.arcs), set(learned.attributes), [a.name for a in tr.attributes],
                         learned))
    return fits


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("ds", ["car", "pima-ind-diabetes"])
@pytest.mark.parametrize("label", DIRECT)
def test_shares_equal_the_models_fitted_on_the_fold_files(store, direct, ds, label):
    r = bnc_in("structure", store, "--dataset", ds, "--classifier", label, "--format", "csv", check=True)
    rows = _csv(r.stdout)
    assert rows[0] == ["parent", "child", "share"]
    fits = direct[(ds, label)]
    names = fits[0][4]
    counts = Counter(arc for _, _, arcs, *_ in fits for arc in arcs)
    want = {(names[p], names[c]): n / len(fits) for (p, c), n in counts.items()}
    got = {(p, c): float(x) for p, c, x in rows[1:]}
    assert got == pytest.approx(want, abs=1e-15) and len(rows) - 1 == len(want)
    assert [float(x) for *_, x in rows[1:]] == sorted((float(x) for *_, x in rows[1:]), reverse=True)
    if label in ("TAN", "KDB2"):  # TAN: a spanning tree, KDB2: every attribute but the first two has 2 parents
        assert all(len(arcs) == (len(names) - 1 if label == "TAN" else 2 * len(names) - 3)
                   for _, _, arcs, *_ in fits)


@pytest.mark.parametrize("ds", ["car", "pima-ind-diabetes"])
def test_stability_equals_the_jaccard_formula_over_the_fitted_models(store, direct, ds):
    r = bnc_in("structure", store, "--stability", "--dataset", ds, "--format", "csv", check=True)
    rows = {(d, lab): (value, models, pairs) for d, lab, value, models, pairs in _csv(r.stdout)[1:]}
    assert {lab for _, lab in rows} == set(LABELS)
    for label in DIRECT:
        sets = [arcs for _, _, arcs, *_ in direct[(ds, label)]]
        want = sum(len(a & b) / len(a | b) if a | b else 1.0 for a, b in combinations(sets, 2)) / 15
        value, models, pairs = rows[(ds, label)]
        assert float(value) == pytest.approx(want, abs=1e-12) and (models, pairs) == ("6", "15")
    assert rows[(ds, "NB")][0] == "1.0"      # no arcs on any fold: the same (empty) network
    assert rows[(ds, "AODE")][0] == "1.0"    # every superparent with every child, every fold
    assert rows[(ds, "LR")] == ("", "0", "0")  # a scikit-learn baseline reports none


def test_stability_table_md_and_latex(store, tmp_path):
    md = bnc_in("structure", store, "--stability", check=True).stdout
    assert [c.strip() for c in md.splitlines()[2].split("|")[1:-1]] == ["dataset", *LABELS]
    assert [c.strip() for c in md.splitlines()[4].split("|")[1:-1]][-1] == "n/a"  # LR on car
    assert "n/a (reports no learned structure): LR on car, LR on pima-ind-diabetes" in md
    tex = bnc_in("structure", store, "--stability", "--format", "latex", check=True).stdout
    tex += bnc_in("structure", store, "--dataset", "pima-ind-diabetes", "--classifier", "STAN-MRMR", "--format",
                  "latex", check=True).stdout
    assert tex.count(r"\toprule") == 3  # stability; STAN's arcs and the attributes it selected
    compile_latex(tex, tmp_path)


def test_md_of_a_selective_classifier_has_the_selected_attributes(store, direct):
    md = bnc_in("structure", store, "--dataset", "pima-ind-diabetes", "--classifier", "STAN-MRMR",
                check=True).stdout
    fits = direct[("pima-ind-diabetes", "STAN-MRMR")]
    names = fits[0][4]
    shares = [sum(i in f[3] for f in fits) / len(fits) for i in range(len(names))]
    if all(x == 1 for x in shares):
        assert "the class's children" not in md
    else:
        width = max(map(len, [*names, "attribute"]))
        for name, share in zip(names, shares):
            assert f"| {name.ljust(width)} | {share:.4f} |" in md, md


@pytest.mark.parametrize("ds", ["car", "pima-ind-diabetes"])
@pytest.mark.parametrize("label", ["TAN-AIT", "RC"])
def test_what_is_dropped_per_test_row_is_the_mean_over_the_models(store, direct, ds, label):
    md = bnc_in("structure", store, "--dataset", ds, "--classifier", label, check=True).stdout
    fits = direct[(ds, label)]
    names = fits[0][4]
    per_arc = {arc: [f[5].arc_dropped.get(arc, 0.0) for f in fits if arc in f[2]] for f in fits for arc in f[2]}
    assert any(f[5].arc_dropped for f in fits) == ("dropped per row" in md.split("the class's children")[0])
    if any(f[5].arc_dropped for f in fits):
        table = {tuple(c.strip() for c in line.split("|")[1:3]): line.split("|")[4].strip()
                 for line in md.split("\n\n")[1].splitlines()[2:]}
        assert table == {(names[p], names[c]): f"{sum(v) / len(v):.4f}" for (p, c), v in per_arc.items()}
    per_attr = {a: [f[5].attribute_dropped.get(a, 0.0) for f in fits if a in f[3]] for f in fits for a in f[3]}
    if any(f[5].attribute_dropped for f in fits):
        for a, v in per_attr.items():
            width = max(map(len, [*names, "attribute"]))
            assert f"| {names[a].ljust(width)} | {len(v) / len(fits):.4f} | {sum(v) / len(v):.4f}" in md, md


def _dot_or_skip() -> None:
    if shutil.which("dot") is None:
        need("BNCBENCH_REQUIRE_GRAPHVIZ", "Graphviz's dot is not installed (apt-get install graphviz)")


@pytest.mark.parametrize("label", ["TAN", "KDB2", "STAN-MRMR"])
def test_drawn_network_names_every_attribute_and_is_not_blank(store, direct, tmp_path, label):
    _dot_or_skip()
    import html

    import matplotlib.image

    names = direct[("car", label)][0][4]
    png, svg = tmp_path / "s.png", tmp_path / "s.svg"
    bnc_in("structure", store, "--dataset", "car", "--classifier", label, "--format", "png", "--out", png, check=True)
    img = matplotlib.image.imread(png)
    assert min(img.shape[:2]) > 100 and img[..., :3].std() > 0.05
    bnc_in("structure", store, "--dataset", "car", "--classifier", label, "--format", "svg", "--out", svg, check=True)
    text = html.unescape(svg.read_text())
    for name in ["class", *names]:
        assert f">{name}</text>" in text, name
    dot = bnc_in("structure", store, "--dataset", "car", "--classifier", label, "--format", "dot", check=True).stdout
    assert dot.startswith("digraph") and all(f'label="{n}"' in dot for n in names)


def test_one_fold(store, direct):
    r = bnc_in("structure", store, "--dataset", "car", "--classifier", "TAN", "--fold", "1:2", "--format", "csv",
               check=True)
    _, _, arcs, _, names, _ = next(f for f in direct[("car", "TAN")] if f[:2] == (1, 2))
    assert {(p, c) for p, c, _ in _csv(r.stdout)[1:]} == {(names[p], names[c]) for p, c in arcs}
    assert {x for *_, x in _csv(r.stdout)[1:]} == {"1.0"}
    bad = bnc_in("structure", store, "--dataset", "car", "--classifier", "TAN", "--fold", "2:0")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "stored: 0:0, 0:1, 0:2, 1:0, 1:1, 1:2" in bad.stderr


@pytest.mark.parametrize("fmt", ["md", "csv", "png"])
def test_a_classifier_that_reports_none_says_so_in_one_line(store, tmp_path, fmt):
    out = tmp_path / f"lr.{fmt}"
    r = bnc_in("structure", store, "--dataset", "car", "--classifier", "LR", "--format", fmt, "--out", out)
    assert r.returncode == 0 and len(r.stdout.strip().splitlines()) == 1, r
    assert "LR on car reports no learned structure" in r.stdout and not out.exists()


@pytest.mark.parametrize("args, says", [
    (["--dataset", "carr", "--classifier", "TAN"], "--dataset: 'carr' is not in the results (did you mean 'car'?)"),
    (["--dataset", "car", "--classifier", "TNA"], "--classifier: 'TNA' is not in the results"),
    (["--dataset", "car"], "name the cell with --dataset NAME --classifier LABEL"),
    (["--dataset", "car", "--classifier", "TAN", "--format", "png"], "give --out FILE"),
    (["--dataset", "car", "--classifier", "TAN", "--fold", "x"], "--fold: 'x' is not RUN:FOLD"),
    (["--dataset", "car", "--classifier", "TAN", "--fold", "\u00b2:0"], "is not RUN:FOLD"),  # a digit int() refuses
    (["--stability", "--format", "png"], "--stability is a table"),
    (["--stability", "--fold", "0:0"], "--fold is for one classifier's structure"),
    (["--stability", "--classifier", "XX"], "--classifier: 'XX' is not in the results"),
])
def test_bad_input_is_one_line_and_exit_2(store, args, says):
    r = bnc_in("structure", store, *args)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and says in r.stderr, r.stderr
    assert r.stdout == ""


def test_out_is_never_an_sqlite_file(store):
    r = bnc_in("structure", store, "--stability", "--out", store / "results.sqlite")
    assert r.returncode == 2 and "is an SQLite file" in r.stderr


def test_without_graphviz_the_drawing_says_how_to_install_it(store, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    r = bnc("structure", store, "--dataset", "car", "--classifier", "TAN", "--format", "png", "--out",
            tmp_path / "x.png", env={"PATH": str(empty)})
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "apt-get install graphviz" in r.stderr and not (tmp_path / "x.png").exists()
    dot = bnc("structure", store, "--dataset", "car", "--classifier", "TAN", "--format", "dot",
              env={"PATH": str(empty)})
    assert dot.returncode == 0 and dot.stdout.startswith("digraph")


def test_stability_figure_and_the_html_section(store, tmp_path):
    r = bnc_in("figures", store, "--only", "stability", "--format", "svg", "--out", tmp_path, check=True)
    svg = (tmp_path / "stability.svg").read_text()
    assert ">STAN-MRMR<" in svg and ">LR<" not in svg  # a classifier without structures is left out
    assert "stability: LR not shown: reports no learned structure" in r.stderr, r.stderr  # with its reason
    page = bnc_in("report", store, "--format", "html", check=True).stdout
    assert 'id="stability"' in page and "Structure stability" in page and 'id="figure-stability"' in page
    section = page.split('<section id="stability">')[1].split("</section>")[0]
    assert all(f"<th scope=\"col\" title=\"sort\">{lab}</th>" in section for lab in LABELS)


def test_a_store_written_before_structures_were_stored_gives_the_same_output(store, tmp_path):
    """A format-3 store (no structure column) of this code: its models are refitted (docs/store.md:
    Structures), and every output is the one of the store that holds them."""
    from tests.engine.test_store_structures import as_format_3

    old = tmp_path / "old"
    shutil.copytree(store, old)
    as_format_3(old)
    for args in (["--dataset", "pima-ind-diabetes", "--classifier", "STAN-MRMR", "--format", "csv"],
                 ["--dataset", "car", "--classifier", "TAN-AIT"], ["--stability", "--classifier", "KDB2"]):
        assert bnc_in("structure", old, *args, check=True).stdout == \
            bnc_in("structure", store, *args, check=True).stdout
    # the whole table: a cell whose structures the store cannot give is n/a with the reason, the others shown
    new, was = (_csv(bnc_in("structure", s, "--stability", "--format", "csv", check=True).stdout) for s in (old, store))
    assert [row for row in new if row[1] != "LR"] == [row for row in was if row[1] != "LR"]
    assert all(row[2:] == ["", "0", "0"] for row in new if row[1] == "LR")


def test_out_holds_what_standard_output_would(store, tmp_path):
    for args in (["--dataset", "car", "--classifier", "KDB2", "--format", "latex"], ["--stability", "--format", "csv"],
                 ["--dataset", "car", "--classifier", "KDB2", "--format", "dot"]):
        out = tmp_path / "x.txt"
        r = bnc_in("structure", store, *args, "--out", out, check=True)
        assert r.stdout == "" and f"wrote {out}" in r.stderr
        assert out.read_text() == bnc_in("structure", store, *args, check=True).stdout
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".part")]  # no temporary file left


def _damage_structures(folder, dataset, label, count):
    """`count` stored tasks of the cell with a flipped byte in their structure (their checksum fails)."""
    import sqlite3

    db = sqlite3.connect(folder / "results.sqlite")
    rows = db.execute("SELECT key, structure FROM tasks WHERE dataset = ? AND label = ? ORDER BY key",
                      (dataset, label)).fetchall()[:count]
    for k, blob in rows:
        db.execute("UPDATE tasks SET structure = ? WHERE key = ?", (blob[:-1] + bytes([blob[-1] ^ 1]), k))
    db.commit()
    db.close()


def test_damaged_tasks_are_named_not_taken_for_unfinished(store, tmp_path):
    """A cell whose every task fails its checksum says so (and how to list them), rather than
    asking to run the config; one damaged task among intact ones is a warning, the rest shown."""
    some, every = tmp_path / "some", tmp_path / "every"
    for folder, count in ((some, 1), (every, 99)):
        shutil.copytree(store, folder)
        _damage_structures(folder, "car", "TAN", count)
    r = bnc_in("structure", every, "--dataset", "car", "--classifier", "TAN")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "fail their checksum" in r.stderr and "store check" in r.stderr
    r = bnc_in("structure", some, "--dataset", "car", "--classifier", "TAN", "--format", "csv")
    assert r.returncode == 0 and "1 stored task(s) fail their checksum" in r.stderr, r.stderr
    assert r.stdout.startswith("parent,child,share\n")


@pytest.mark.parametrize("blob", [b"not zlib", zlib.compress(b"[1, 5, [0], [], [], []]"),
                                  zlib.compress(b'[1, "ab", [0], [], [], []]'), zlib.compress(b"5")],
                         ids=["not zlib", "arcs a number", "arcs a string", "a number"])
def test_a_structure_that_is_not_one_is_one_line(store, tmp_path, blob):
    """A structure blob that matches its checksum but is not `codec.pack_structure`'s (hand-made, or a
    later bncbench's): one line, exit 2, never an internal error."""
    import sqlite3

    from bncbench.engine.store import CHECKED, task_checksum

    folder = tmp_path / "made"
    shutil.copytree(store, folder)
    db = sqlite3.connect(folder / "results.sqlite")
    for key, *values in db.execute(f"SELECT key, {', '.join(CHECKED)} FROM tasks WHERE label = 'TAN'").fetchall():
        db.execute("UPDATE tasks SET structure = ?, checksum = ? WHERE key = ?",
                   (blob, task_checksum(values, blob), key))
    db.commit()
    db.close()
    r = bnc_in("structure", folder, "--dataset", "car", "--classifier", "TAN")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "a stored structure of car × TAN cannot be read" in r.stderr


def test_the_stability_figure_names_why_a_classifier_is_left_out(store, tmp_path):
    """A classifier whose stored structures cannot be read is not said to report none."""
    import sqlite3

    from bncbench.engine.store import CHECKED, task_checksum

    folder = tmp_path / "made"
    shutil.copytree(store, folder)
    db = sqlite3.connect(folder / "results.sqlite")
    for key, *values in db.execute(f"SELECT key, {', '.join(CHECKED)} FROM tasks WHERE label = 'TAN'").fetchall():
        db.execute("UPDATE tasks SET structure = ?, checksum = ? WHERE key = ?",
                   (b"not zlib", task_checksum(values, b"not zlib"), key))
    db.commit()
    db.close()
    r = bnc_in("figures", folder, "--only", "stability", "--format", "svg", "--out", tmp_path / "f", check=True)
    assert "stability: TAN not shown: structures not available" in r.stderr, r.stderr
    assert "TAN not shown: reports no learned structure" not in r.stderr

