"""rCLL, goal difference and the claims table (paper 004 §5; bncbench/evaluate/paired.py, claims.py)."""

import math
from types import SimpleNamespace

import pytest

from bncbench.errors import UserError
from bncbench.evaluate import claims as cl
from bncbench.evaluate.coverage import Coverage
from bncbench.evaluate.paired import (
    better_count,
    gd_rows,
    rcll_rows,
    relative_cll,
)

DATASETS = ["d1", "d2", "d3", "d4"]


def _values(table: dict) -> dict:
    return {(d, lab): (v, math.nan) for lab, col in table.items() for d, v in zip(DATASETS, col)}


def test_relative_cll_and_its_two_readings():
    # CLLs are negative: A = -10 against B = -20 is the better likelihood, rCLL = 0.5 < 1
    assert relative_cll(-10.0, -20.0) == 0.5
    vals = _values({"A": [-10.0, -30.0, -5.0, math.nan], "B": [-20.0, -20.0, -5.0, -1.0]})
    header, rows, notes = rcll_rows(DATASETS, vals, [("A", "B")])
    assert header == ["dataset", "CLL A", "CLL B", "rCLL(A|B)"]
    assert [r[3] for r in rows] == ["0.5000", "1.5000", "1.0000", "n/a"]
    assert "higher CLL (better) on 1 of 3" in notes[0] and "rCLL ≥ 1 on 2" in notes[0]


def test_goal_difference_counts_wins_minus_losses_in_order():
    vals = _values({"A": [0.10, 0.30, 0.20, 0.50], "B": [0.20, 0.20, 0.20, 0.60]})
    _, rows = gd_rows(DATASETS, vals, [("A", "B")], "exact4", True)
    assert [r[2] for r in rows] == ["1", "0", "0", "1"]  # win, loss, draw, win
    assert better_count(DATASETS, vals, "A", "B", "exact4", True) == (2, 4)
    # a relative 5 % band makes 0.50 vs 0.60? |0.1| > 0.05·0.6 = 0.03: still a win
    assert better_count(DATASETS, vals, "A", "B", "relative:0.05", True) == (2, 4)


def test_pairs():
    from bncbench.evaluate.options import pairs

    assert pairs("TAN-AIT:TAN, KDB-AIT:KDB") == [("TAN-AIT", "TAN"), ("KDB-AIT", "KDB")]
    with pytest.raises(ValueError, match="A:B"):
        pairs("TAN")


def _summary(values: dict, datasets: list[str], missing: dict | None = None) -> SimpleNamespace:
    """What `claims.evaluate` reads of a results.Summary: values, data sets and coverage."""
    return SimpleNamespace(values=values, datasets=datasets,
                           coverage=Coverage([*datasets, *(missing or {})], dict(missing or {})))


def _claims_file(tmp_path, claims: str) -> str:
    p = tmp_path / "claims.yaml"
    p.write_text("paper: test\nresults: {main: r}\nwdl: {draw: exact4, draws: ignore, tails: one}\n" + claims)
    return str(p)


def test_claim_verdicts(tmp_path):
    # 10 data sets: A beats B on 9, loses on 1 → W-D-L 9-0-1, one-tailed p = 11/1024 < 0.05
    ds = [f"d{i}" for i in range(10)]
    values = {}
    for i, d in enumerate(ds):
        values[(d, "A")] = (0.1 if i else 0.5, math.nan)
        values[(d, "B")] = (0.2, math.nan)
    summary = lambda name, metric: _summary(values, ds)  # noqa: E731
    path = _claims_file(tmp_path, """claims:
  - text: significant, as printed
    wdl: {results: main, metric: zol, row: A, column: B, printed: 20-11-5}
  - text: printed not significant
    wdl: {results: main, metric: zol, row: A, column: B, printed: 16-8-12}
  - text: printed the other way
    wdl: {results: main, metric: zol, row: A, column: B, printed: 2-4-20}
  - text: expected significant
    wdl: {results: main, metric: zol, row: A, column: B, expect: significantly better}
  - text: expected not significant
    wdl: {results: main, metric: zol, row: A, column: B, expect: not significant}
  - text: no advantage of B
    wdl: {results: main, metric: zol, row: B, column: A, expect: not significantly better}
  - text: count
    better_count: {results: main, metric: zol, row: A, column: B, printed: 31, of: 36}
  - text: mean change
    mean_change: {results: main, metric: zol, row: A, column: B, printed: -0.05}
  - text: order
    mean_order: {results: main, metric: zol, rows: [A], above: [], below: [B]}
""")
    v = cl.evaluate(cl.load(path), summary)
    assert [x.verdict for x in v[:3]] == ["holds", "direction only", "does not hold"]
    assert v[0].ours.startswith("9-0-1 (p=0.0107)")
    assert [x.verdict for x in v[3:6]] == ["holds", "does not hold", "holds"]  # B is significantly worse
    assert (v[6].ours, v[6].verdict) == ("9 of 10", "holds")
    assert v[7].verdict == "holds" and v[7].ours.startswith("-30.0%")  # mean 0.14 vs 0.2
    assert v[8].verdict == "holds"


def test_claims_file_errors_name_the_key(tmp_path):
    with pytest.raises(UserError, match=r"claims\[0\]\.wdl needs one of printed"):
        cl.load(_claims_file(tmp_path, "claims:\n"
                                       "  - {text: x, wdl: {results: main, metric: zol, row: A, column: B}}\n"))
    with pytest.raises(UserError, match="results: 'bv'"):
        cl.load(_claims_file(tmp_path, "claims:\n  - {text: x, wdl: {results: bv, metric: zol, row: A, column: B, "
                                       "printed: 1-1-1}}\n"))
    with pytest.raises(UserError, match="names no results 'other'"):
        cl.load(_claims_file(tmp_path, "claims: []\n"), {"other": "dir"})


def test_printed_table_beside_ours(tmp_path):
    ds = ["d1", "d2"]
    values = {("d1", "A"): (0.1, 0), ("d2", "A"): (0.3, 0), ("d1", "B"): (0.2, 0), ("d2", "B"): (0.2, 0)}
    summary = lambda name, metric: _summary(values, ds)  # noqa: E731
    path = _claims_file(tmp_path, """tables:
  - {caption: T, results: main, metric: zol, columns: [B, A], rows: [A, B], cells: [[1-0-1], ["-", 0-1-1]]}
claims: []
""")
    [table] = cl.table_comparison(cl.load(path), summary)
    header, rows = table.grid()
    # a lower triangle: every row has every column (– where nothing is printed)
    assert header == ["", "B", "A"] and rows == [["A", "1-0-1 / 1-0-1", "–"], ["B", "–", "0-1-1 / 1-0-1 *"]]


def test_claims_about_some_data_sets(tmp_path):
    ds = ["d1", "d2", "d3"]
    values = {("d1", "A"): (90.0, 0), ("d2", "A"): (50.0, 0), ("d3", "A"): (70.0, 0),
              ("d1", "B"): (80.0, 0), ("d2", "B"): (60.0, 0), ("d3", "B"): (70.0, 0)}
    summary = lambda name, metric: _summary(values, ds)  # noqa: E731
    path = _claims_file(tmp_path, """claims:
  - text: A above B on d1
    mean_order: {results: main, metric: accuracy, datasets: [d1], rows: [A], above: [B]}
  - text: A above B everywhere
    mean_order: {results: main, metric: accuracy, rows: [A], above: [B]}
  - text: A at least B on d3
    mean_order: {results: main, metric: accuracy, datasets: [d3], rows: [A], not_below: [B]}
  - text: A better than B on d1, d3 (accuracy, higher is better)
    wdl: {results: main, metric: accuracy, row: A, column: B, expect: better, datasets: [d1, d3]}
  - text: unknown data set
    mean_order: {results: main, metric: accuracy, datasets: [d9], rows: [A], above: [B]}
""")
    spec = cl.load(path)
    spec["claims"], bad = spec["claims"][:4], spec["claims"][4:]
    v = cl.evaluate(spec, summary)
    assert [x.verdict for x in v] == ["holds", "does not hold: A ≤ B", "holds", "holds"]
    assert v[3].ours.startswith("1-1-0")
    with pytest.raises(UserError, match="d9"):
        cl.evaluate({**spec, "claims": bad}, summary)


def test_verdicts_say_on_how_many_data_sets_and_missing_results_are_not_judged(tmp_path):
    # 3 of 5 data sets have values; d4 not available, d5 not run
    ds = ["d1", "d2", "d3"]
    values: dict[tuple[str, str], tuple[float, float]] = {(d, "A"): (0.1, 0) for d in ds}
    values |= {(d, "B"): (0.2, 0) for d in ds}
    values[("d3", "A")] = (math.nan, math.nan)  # and A has no value on d3
    def summary(name, metric):
        return None if name == "gone" else _summary(values, ds, {"d4": "not available", "d5": "not run"})

    path = tmp_path / "c.yaml"
    path.write_text("""paper: t
results: {main: r, gone: g}
tables:
  - {caption: T, results: gone, metric: zol, columns: [B], rows: [A], cells: [[2-0-0]]}
claims:
  - {text: w, wdl: {results: main, metric: zol, row: A, column: B, expect: better}}
  - {text: o, mean_order: {results: main, metric: zol, rows: [B], above: [], below: [A]}}
  - {text: c, mean_change: {results: main, metric: zol, row: A, column: B, printed: -0.5}}
  - {text: g, wdl: {results: gone, metric: zol, row: A, column: B, printed: 2-0-0}}
""")
    v = cl.evaluate(cl.load(str(path)), summary)
    assert [x.verdict for x in v] == ["holds (2 of 5 data sets)",
                                      "does not hold (2 of 5 data sets): B ≥ A",
                                      "holds (2 of 5 data sets)",
                                      "not judged: results 'gone' missing"]
    assert v[3].printed.startswith("2-0-0 (p=") and v[3].ours == "–" and not v[3].judged
    assert [x.holds for x in v] == [True, False, True, False]
    [t] = cl.table_comparison(cl.load(str(path)), summary)
    assert t.cells == {("A", "B"): ("2-0-0", None)} and t.notes == ["ours: not judged, results 'gone' missing"]
    assert t.pairs() == (["row", "column", "printed", "ours", "differs"], [["A", "B", "2-0-0", "n/a", "*"]])
