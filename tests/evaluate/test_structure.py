"""What the classifiers learned across folds (evaluate/structure.py): arc shares and stability on
hand-built structures against hand-worked values and a plain set formula, the tables in md, csv
and latex (compiled), the DOT text and Graphviz's drawing (docs/statistics.md: Structure stability)."""

import csv
import io
import itertools
import math
import random
import shutil

import pytest

from bncbench.classifiers.learned import Learned, Submodel
from bncbench.errors import UserError
from bncbench.evaluate import structure as st
from bncbench.evaluate.values import FoldStructure
from tests.evaluate.test_latex import compile_latex
from tests.support.skips import need

NAMES = ["buying", "maint", "doors", "persons"]
# three folds of one run: 0→1 in all three; 1→2 in the first; 2→1 in the third (a reversed arc is
# another arc); the second leaves `persons` (3) out, as a selective classifier does.
FOLDS = [FoldStructure(0, 0, Learned(((0, 1), (1, 2)), (0, 1, 2, 3))),
         FoldStructure(0, 1, Learned(((0, 1),), (0, 1, 2))),
         FoldStructure(0, 2, Learned(((0, 1), (2, 1)), (0, 1, 2, 3)))]


def oracle_stability(arc_sets: list[set]) -> float:
    """The mean over the pairs i < j of |A ∩ B| / |A ∪ B|, with 1 for two empty sets."""
    total, pairs = 0.0, 0
    for i in range(len(arc_sets)):
        for j in range(i + 1, len(arc_sets)):
            a, b = arc_sets[i], arc_sets[j]
            total += 1.0 if not (a or b) else len(a.intersection(b)) / len(a.union(b))
            pairs += 1
    return total / pairs


def test_shares_by_hand():
    s = st.shares(FOLDS, NAMES)
    assert s is not None and s.n == 3
    # by share descending, then the parent's and the child's column order
    assert s.arcs == [("buying", "maint", 1.0), ("maint", "doors", 1 / 3), ("doors", "maint", 1 / 3)]
    assert s.attributes == [("buying", 1.0), ("maint", 1.0), ("doors", 1.0), ("persons", 2 / 3)]
    assert s.selects()


def test_stability_by_hand_and_against_the_set_formula():
    # {01, 12} vs {01}: 1/2; {01, 12} vs {01, 21}: 1/3; {01} vs {01, 21}: 1/2 → mean 4/9
    got = st.stability(FOLDS)
    assert got.value == pytest.approx(4 / 9, abs=1e-15) and (got.n, got.pairs, got.why) == (3, 3, "")
    rng = random.Random(38)
    all_arcs = [(p, c) for p in range(5) for c in range(5) if p != c]
    for _ in range(200):
        k = rng.randint(2, 7)
        sets = [set(rng.sample(all_arcs, rng.randint(0, 6))) for _ in range(k)]
        folds = [FoldStructure(0, i, Learned(tuple(sorted(a)), tuple(range(5)))) for i, a in enumerate(sets)]
        got = st.stability(folds)
        assert got.value == pytest.approx(oracle_stability(sets), abs=1e-12)
        assert got.pairs == k * (k - 1) // 2


def test_stability_conventions():
    same = [FoldStructure(r, f, Learned(((0, 1), (2, 1)), (0, 1, 2))) for r in range(2) for f in range(3)]
    assert st.stability(same).value == 1.0 and st.stability(same).pairs == 15
    empty = [FoldStructure(0, f, Learned((), (0, 1))) for f in range(3)]  # NB: no arcs, the same network
    assert st.stability(empty).value == 1.0
    assert st.jaccard(set(), set()) == 1.0 and st.jaccard({(0, 1)}, set()) == 0.0
    one = st.stability(FOLDS[:1])
    assert math.isnan(one.value) and (one.n, one.pairs) == (1, 0) and "one fold" in one.why
    none = st.stability([FoldStructure(0, f, None) for f in range(3)])
    assert math.isnan(none.value) and none.n == 0 and none.why == st.NONE
    # a model that reports none among others is not counted
    mixed = st.stability([*FOLDS, FoldStructure(0, 3, None)])
    assert mixed.value == pytest.approx(4 / 9) and mixed.n == 3


def test_an_ensemble_counts_the_union_of_its_submodels_arcs():
    # AODE on 3 attributes: every superparent a parent of every other attribute
    arcs = tuple(sorted((p, c) for p in range(3) for c in range(3) if p != c))
    aode = Learned(arcs, (0, 1, 2), tuple(Submodel(p, tuple(c for c in range(3) if c != p)) for p in range(3)))
    s = st.shares([FoldStructure(0, f, aode) for f in range(2)], NAMES[:3])
    assert s is not None and len(s.arcs) == 6 and {x for _, _, x in s.arcs} == {1.0}


def test_what_is_dropped_per_row_by_hand():
    # (0,1) dropped on 0.2 and 0.4 of the rows: 0.3; (1,2) learned by the first only, never dropped: 0.
    # attribute 2 dropped on half the rows by the first model, on none by the second: 0.25
    a = Learned(((0, 1), (1, 2)), (0, 1, 2), arc_dropped={(0, 1): 0.2}, attribute_dropped={2: 0.5})
    b = Learned(((0, 1),), (0, 1, 2), arc_dropped={(0, 1): 0.4})
    s = st.shares([FoldStructure(0, 0, a), FoldStructure(0, 1, b), FoldStructure(0, 2, None)], NAMES)
    assert s is not None and s.n == 2
    assert s.arc_dropped == pytest.approx({("buying", "maint"): 0.3, ("maint", "doors"): 0.0})
    assert s.attribute_dropped == pytest.approx({"buying": 0.0, "maint": 0.0, "doors": 0.25})
    md = st.shares_text(s, "md", "TAN-AIT", "car")
    assert "| buying | maint | 1.0000 | 0.3000          |" in md and "| doors     | 1.0000 | 0.2500          |" in md
    assert "| persons   | 0.0000 | n/a             |" in md
    assert st.shares_text(s, "csv", "TAN-AIT", "car").splitlines()[0] == "parent,child,share"  # csv: no extra column
    plain = st.shares(FOLDS, NAMES)
    assert plain is not None and plain.arc_dropped == {} and plain.attribute_dropped == {}


def test_reports_none():
    assert st.shares([FoldStructure(0, 0, None), FoldStructure(0, 1, None)], NAMES) is None
    line = st.none_line("RF", "car")
    assert "\n" not in line and "RF" in line and st.NONE in line


def test_an_attribute_index_beyond_the_data_set_is_refused():
    with pytest.raises(UserError, match="names attribute 4, but the data set has 4 attributes"):
        st.shares([FoldStructure(0, 0, Learned(((0, 4),), (0,)))], NAMES)


def test_csv_is_exactly_parent_child_share_at_full_precision():
    s = st.shares(FOLDS, NAMES)
    assert s is not None
    rows = list(csv.reader(io.StringIO(st.shares_text(s, "csv", "STAN", "car"))))
    assert rows == [["parent", "child", "share"], ["buying", "maint", "1.0"],
                    ["maint", "doors", repr(1 / 3)], ["doors", "maint", repr(1 / 3)]]


def test_md_has_the_arcs_and_the_selected_attributes():
    s = st.shares(FOLDS, NAMES)
    assert s is not None
    md = st.shares_text(s, "md", "STAN", "car")
    assert "| buying | maint | 1.0000 |" in md and "| doors  | maint | 0.3333 |" in md
    assert "the class's children" in md and "| persons   | 0.6667 |" in md
    plain = st.shares(FOLDS[:1], NAMES)
    assert plain is not None and "the class's children" not in st.shares_text(plain, "md", "TAN", "car")


def test_latex_tables_compile(tmp_path):
    names = ["a_b", "50% & more", "x^2", "{y}"]  # what LaTeX reads as commands
    folds = [FoldStructure(0, f, Learned(((0, 1), (2, 3)), (0, 1, 2) if f else (0, 1, 2, 3))) for f in range(2)]
    s = st.shares(folds, names)
    assert s is not None
    cells = {("car", "TAN"): st.stability(folds), ("car", "RF_1"): st.stability([FoldStructure(0, 0, None)])}
    tex = st.shares_text(s, "latex", "TAN_1", "car") + st.stability_text(["car"], ["TAN", "RF_1"], cells, "latex")
    assert r"a\_b" in tex and r"50\% \& more" in tex and tex.count(r"\toprule") == 3
    compile_latex(tex, tmp_path)


def test_stability_table_in_every_format():
    cells = {("car", "TAN"): st.stability(FOLDS), ("car", "RF"): st.stability([FoldStructure(0, 0, None)]),
             ("iris", "TAN"): st.stability(FOLDS[:1]), ("iris", "RF"): st.stability([FoldStructure(0, 0, None)])}
    md = st.stability_text(["car", "iris"], ["TAN", "RF"], cells, "md")
    assert "| car     | 0.4444 | n/a |\n| iris    | n/a    | n/a |" in md
    assert f"n/a ({st.NONE}): RF on car, RF on iris" in md
    assert "n/a (one fold: no pair to compare): TAN on iris" in md
    rows = list(csv.reader(io.StringIO(st.stability_text(["car", "iris"], ["TAN", "RF"], cells, "csv"))))
    assert rows[0] == ["dataset", "classifier", "stability", "models", "pairs"]
    assert rows[1] == ["car", "TAN", repr(4 / 9), "3", "3"] and rows[2] == ["car", "RF", "", "0", "0"]


# -- the drawing ------------------------------------------------------------------------------
def _dot_or_skip() -> None:
    if shutil.which("dot") is None:
        need("BNCBENCH_REQUIRE_GRAPHVIZ", "Graphviz's dot is not installed (apt-get install graphviz)")


def test_dot_text_names_every_attribute_and_weights_arcs():
    s = st.shares(FOLDS, NAMES)
    assert s is not None
    dot = st.dot_text(s, "STAN on car")
    for name in NAMES:
        assert f'label="{name}"' in dot
    assert 'a0 -> a1 [penwidth=3.00, label="1.00"]' in dot and 'a1 -> a2 [penwidth=1.40, label="0.33"]' in dot
    assert 'c -> a3 [color="#b0b0b0", fontcolor="#777777", label="0.67"]' in dot  # the class's arcs: grey
    assert 'c -> a0 [color="#b0b0b0", fontcolor="#777777"];' in dot              # share 1: no label
    never = st.shares(FOLDS[1:2], NAMES)
    assert never is not None and 'a3 [label="persons", style=dashed' in st.dot_text(never, "t")


@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_graphviz_draws_every_attribute(fmt, tmp_path):
    _dot_or_skip()
    names = [*NAMES, 'say "hi"', "back\\slash"]  # DOT's quote and escape characters
    folds = [FoldStructure(0, 0, Learned(((0, 1), (4, 5), (5, 2)), tuple(range(6))))]
    s = st.shares(folds, names)
    assert s is not None
    data = st.render_dot(st.dot_text(s, "TAN on car"), fmt)
    if fmt == "svg":
        import html

        text = html.unescape(data.decode())
        assert all(f">{n}<" in text for n in names), text
    elif fmt == "png":
        import matplotlib.image

        (tmp_path / "s.png").write_bytes(data)
        img = matplotlib.image.imread(tmp_path / "s.png")
        assert img.shape[0] > 100 and img.shape[1] > 100 and img[..., :3].std() > 0.05  # not blank
    else:
        assert data.startswith(b"%PDF")


def test_without_graphviz_one_line_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(st.shutil, "which", lambda name: None)
    with pytest.raises(UserError) as e:
        st.render_dot("digraph {}", "png")
    assert "\n" not in str(e.value) and "apt-get install graphviz" in str(e.value)


def test_pairs_are_every_unordered_pair():
    folds = [FoldStructure(r, f, Learned(((f % 2, 2),), (0, 1, 2))) for r, f in itertools.product(range(2), range(3))]
    assert st.stability(folds).pairs == 15


def test_the_stability_figure_writes_every_cell():
    from bncbench.evaluate.figures import KIND, UNASKED, stability_plot, svg_text

    values = {("car", "TAN"): 0.5, ("car", "KDB2"): 1.0, ("iris", "TAN"): 0.125, ("iris", "KDB2"): math.nan}
    svg = svg_text(stability_plot(["car", "iris"], ["TAN", "KDB2"], values))
    for text in ("0.50", "1.00", "0.12", "n/a", ">car<", ">iris<", ">TAN<", ">KDB2<"):
        assert text in svg, text
    assert "stability" in KIND and "stability" not in UNASKED  # drawn only when asked for


def test_the_config_names_the_stability_figure():
    from bncbench.config import parse

    exp = parse("datasets: [iris]\nclassifiers: [NB, TAN]\nfigures: {stability: {classifiers: [TAN]}}\n")
    assert exp.figures == {"stability": {"classifiers": ["TAN"]}}
    with pytest.raises(UserError, match="metric"):
        parse("datasets: [iris]\nclassifiers: [NB]\nfigures: {stability: {metric: zol}}\n")


def test_a_drawing_that_does_not_finish_is_one_line(monkeypatch):
    import subprocess

    def slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], kwargs["timeout"])

    monkeypatch.setattr(shutil, "which", lambda _: "/usr/bin/dot")
    monkeypatch.setattr(subprocess, "run", slow)
    with pytest.raises(UserError, match="did not finish in 300 s") as e:
        st.render_dot("digraph {}", "png")
    assert "\n" not in str(e.value)
