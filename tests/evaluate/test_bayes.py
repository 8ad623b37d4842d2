"""Bayesian comparisons (`bncbench bayes`, issue 27 item 3): baycomp, the authors' implementation,
is the oracle on the papers' printed tables and on small runs of paper 003's (50×2-fold, ρ = 1/2)
and paper 004's bias-variance (petal-bv) protocols; the signed-rank test and the correlated t-test
against hand-worked posteriors; the CLI's errors, determinism, the simplex figure and the HTML
section."""

import csv
import io
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from bncbench import results
from bncbench.errors import UserError
from bncbench.evaluate import bayes
from bncbench.reporting.analyses import bayes as compare_in
from tests.support.cli import bnc, run_store

ROOT = Path(__file__).resolve().parents[2]
WDL = {"draw": "exact4", "draws": "split", "tails": "one"}  # the settings of a config without a wdl: section
SAMPLES = 20_000  # enough for 0.01 (Monte Carlo error about 0.0035 at P = 0.5), quick on two cores
ROPE = 0.002      # AODE and SP differ by less than 0.01 on these data sets: a narrower rope leaves some doubt
RUNS = 6          # repetitions of 2-fold CV in the small run of paper 003's protocol (its 50 cost more)

AODE22_SMALL = f"""
name: aode22-small
datasets: [iris, labor-negotiations, zoo, wine, house-votes-84, soybean]
preprocess: {{missing: impute, discretizer: mdl, mdl_method: weka, scope: fold}}
cv: {{scheme: stratified, folds: 2, runs: {RUNS}, seed: 1}}
estimator: laplace
classifiers:
  - {{name: AODE, label: AODE}}
  - {{name: SP, label: SP}}
figures:
  bayes: {{pairs: ["AODE:SP"], metric: [zol, rmse], rope: 0.002, samples: {SAMPLES}, seed: 5}}
"""
BV_RUNS = 4
AIT36_BV_SMALL = f"""
name: ait36-bv-small
datasets: [labor-negotiations, zoo, wine, iris]
preprocess: {{missing: distinct, discretizer: mdl, mdl_method: petal, scope: fold}}
cv: {{scheme: petal-bv, runs: {BV_RUNS}, seed: 0}}
estimator: mestimate
m: 1
classifiers:
  - {{name: TAN, label: TAN}}
  - {{name: KDB, k: 2, backoff: true, label: KDB}}
"""


@pytest.fixture(scope="module")
def aode22(tmp_path_factory):
    """Paper 003's protocol (impute, Weka's MDL per fold, m × 2-fold CV, Laplace) on six shipped
    data sets for AODE and SP, 6 runs, the config asking for the Bayesian figure of AODE:SP."""
    return run_store(tmp_path_factory, "aode22", AODE22_SMALL)


@pytest.fixture(scope="module")
def bv(tmp_path_factory):
    """Paper 004's bias-variance protocol (petal-bv: a training sample and the fixed test set of
    N // 3 rows each per run) on four shipped data sets for TAN and KDB, 4 runs."""
    return run_store(tmp_path_factory, "bv", AIT36_BV_SMALL)


def _csv(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def _main(monkeypatch, capsys, *args) -> tuple[int, str, str]:
    """`bncbench ARGS` in this process, as the entry point runs it: (exit code, stdout, stderr)."""
    from bncbench.cli.app import main

    monkeypatch.setattr(sys, "argv", ["bncbench", *map(str, args)])
    code = 0
    try:
        main()
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def _folds(tasks, dataset: str, label: str, metric: str) -> np.ndarray:
    """A cell's per-fold values of `metric` from `Results.tasks`, in (run, fold) order."""
    cell = tasks[(tasks.dataset == dataset) & (tasks.label == label)]
    return cell.sort_values(["run", "fold"])[metric].to_numpy()


def _mean(tasks, dataset: str, label: str, metric: str) -> float:
    """The cell's mean as the papers report it (docs/algorithms.md §5.2): per run, zol pooled over the
    run's folds (RMSE: the root of the pooled mean square), then the mean over the runs."""
    cell = tasks[(tasks.dataset == dataset) & (tasks.label == label)]
    per_run = []
    for _, run in cell.groupby("run"):
        n, v = run["n_test"].to_numpy(float), run[metric].to_numpy()
        per_run.append(math.sqrt((n * v ** 2).sum() / n.sum()) if metric == "rmse" else (n * v).sum() / n.sum())
    return float(np.mean(per_run))


def _printed(path: Path, metric: str) -> dict[str, dict[str, float]]:
    """{label: {data set: mean}} of a published wide table (`NAME (metric)` columns, 'mean ± sd' cells)."""
    out: dict[str, dict[str, float]] = {}
    with path.open() as f:
        for row in csv.DictReader(f, delimiter="\t"):
            for head, cell in row.items():
                if head.endswith(f" ({metric})") and cell.strip():
                    out.setdefault(head.rsplit(" (", 1)[0], {})[row["dataset"]] = float(cell.split("±")[0])
    return out


# -- hand-worked posteriors -----------------------------------------------------------------------
def test_signed_rank_test_of_one_data_set_by_hand():
    """One data set, A better by d. The Dirichlet process has weights (w0, w1) ~ Dirichlet(s = 0.5 at
    0, 1 at d); the Walsh averages are 0 (w0²), d/2 (2·w0·w1) and d (w1²). With d > 2·rope,
    θ_A = 1 − w0², θ_rope = w0², so P(A better) = P(w0 < 2^-1/2) = (2^-1/2)^0.5 (w0 ~ Beta(0.5, 1));
    with rope < d < 2·rope, θ_A = w1² and P(A better) = P(w1 > 2^-1/2) = (1 − 2^-1/2)^0.5
    (w1 ~ Beta(1, 0.5)). zol: lower is better, so A's lower value is its advantage."""
    means = {"d": (0.10, 0.13)}
    far = bayes.compare("A", "B", "zol", True, means, {}, rope=0.01, samples=40_000, seed=3)
    p = far.signed_rank.probabilities
    assert p.a == pytest.approx(2 ** -0.25, abs=0.01) and p.rope == pytest.approx(1 - 2 ** -0.25, abs=0.01)
    assert p.b == 0.0 and far.signed_rank.mean_difference == pytest.approx(-0.03)
    near = bayes.compare("A", "B", "zol", True, means, {}, rope=0.02, samples=40_000, seed=3).signed_rank
    assert near.probabilities.a == pytest.approx((1 - 2 ** -0.5) ** 0.5, abs=0.01)
    flipped = bayes.compare("A", "B", "accuracy", False, {"d": (87.0, 90.0)}, {}, rope=1.0, samples=40_000,
                            seed=3).signed_rank.probabilities   # accuracy: higher is better, B ahead by 3 points
    assert flipped.b == pytest.approx(2 ** -0.25, abs=0.01) and flipped.a == 0.0


def test_correlated_t_test_by_hand():
    """Two folds, A's advantage 0.01 and 0.03, ρ = 1/2: mean 0.02, s² = 0.0002, scale² = s²(1/2 + 1)
    = 0.0003, one degree of freedom: a Cauchy posterior, P(X > r) = 1/2 − atan((r − μ)/σ)/π."""
    sigma = math.sqrt(0.0003)
    got = bayes.correlated_t(np.array([0.01, 0.03]), 0.5, 0.005)
    assert got.a == pytest.approx(0.5 - math.atan((0.005 - 0.02) / sigma) / math.pi, abs=1e-12)
    assert got.b == pytest.approx(0.5 + math.atan((-0.005 - 0.02) / sigma) / math.pi, abs=1e-12)
    assert got.a == pytest.approx(0.727185, abs=1e-6) and got.rope == pytest.approx(1 - got.a - got.b)
    # the same difference on every fold: all the mass on it
    assert bayes.correlated_t(np.full(4, 0.002), 0.1, 0.01) == bayes.Probabilities(0.0, 1.0, 0.0)
    assert bayes.correlated_t(np.full(4, -0.02), 0.1, 0.01) == bayes.Probabilities(0.0, 0.0, 1.0)


# -- baycomp as the oracle ---------------------------------------------------------------------------
@pytest.mark.parametrize("table,metric,a,b", [
    ("stan70", "zol", "TAN", "AODE"),            # paper 000's printed development values
    ("stan70", "rmse", "STAN-MRMR", "KDB1"),
    ("ait36", "zol", "TAN-AIT", "TAN"),          # paper 004's
    ("ait36", "rmse", "KDB-AIT", "KDB"),
])
def test_signed_rank_test_on_the_papers_printed_tables_equals_baycomp(table, metric, a, b):
    import baycomp

    printed = _printed(ROOT / "papers" / table / "dev.tsv", metric)
    datasets = [d for d in printed[a] if d in printed[b]]
    assert len(datasets) >= 6
    means = {d: (printed[a][d], printed[b][d]) for d in datasets}
    got = bayes.compare(a, b, metric, True, means, {}, rope=0.01, samples=SAMPLES, seed=7)
    x, y = np.array([printed[a][d] for d in datasets]), np.array([printed[b][d] for d in datasets])
    # lower is better: y − x = B − A > rope is A better, baycomp's right-hand region
    left, rope, right = baycomp.two_on_multiple(x, y, 0.01, nsamples=SAMPLES, random_state=7)
    p = got.signed_rank.probabilities
    assert (p.a, p.rope, p.b) == pytest.approx((right, rope, left), abs=0.01)
    assert got.signed_rank.datasets == datasets and not got.per_dataset


def test_bayes_on_paper_003s_protocol_equals_baycomp(aode22, monkeypatch, capsys):
    """`bncbench bayes --format csv`: the signed-rank test over the data sets' means and, per data
    set, the correlated t-test on its folds, each as baycomp computes them from `Results.tasks`
    (two_on_multiple; two_on_single with runs = 6: 2-fold CV, ρ = 1/2)."""
    import baycomp

    tasks = results.open(aode22).tasks
    datasets = list(dict.fromkeys(tasks.dataset))
    for metric in ("zol", "rmse"):
        code, out, _ = _main(monkeypatch, capsys, "bayes", aode22, "--a", "AODE", "--b", "SP", "--metric", metric,
                             "--rope", ROPE, "--samples", SAMPLES, "--seed", "11", "--format", "csv")
        assert code == 0
        rows = _csv(out)
        x, y = (np.array([_mean(tasks, d, lab, metric) for d in datasets]) for lab in ("AODE", "SP"))
        left, rope, right = baycomp.two_on_multiple(x, y, ROPE, nsamples=SAMPLES, random_state=11)
        assert metric == "rmse" or min(right, rope) > 0.05                   # zol: not all in one region
        (sr,) = [row for row in rows if row["test"] == "signed-rank"]
        assert [float(sr[k]) for k in ("p_a_better", "p_rope", "p_b_better")] == pytest.approx([right, rope, left],
                                                                                             abs=0.01)
        assert int(sr["n"]) == len(datasets) == 6
        per = {row["dataset"]: row for row in rows if row["test"] == "correlated-t"}
        assert list(per) == datasets
        for d in datasets:
            a, b = _folds(tasks, d, "AODE", metric), _folds(tasks, d, "SP", metric)
            left, rope, right = baycomp.two_on_single(a, b, ROPE, runs=RUNS)
            row = per[d]
            assert [float(row[k]) for k in ("p_a_better", "p_rope", "p_b_better")] == pytest.approx(
                [right, rope, left], abs=0.01), d
            assert (int(row["n"]), float(row["rho"])) == (2 * RUNS, 0.5)
            assert float(row["mean_difference"]) == pytest.approx(np.mean(a - b))


def test_petal_bv_uses_rho_one_half(bv):
    """petal-bv: a training sample and a test set of N // 3 rows each per run, so ρ = 1/2; baycomp
    takes ρ as 1/(folds per run), and 2 "folds" per run (runs = 4 / 2) is ρ = 1/2."""
    import baycomp

    with results.open(bv) as r:
        c = compare_in(r, "TAN", "KDB", "zol", 0.01, samples=2000)
        tasks = r.tasks
    assert [t.dataset for t in c.per_dataset] == ["labor-negotiations", "zoo", "wine", "iris"]
    for t in c.per_dataset:
        assert (t.folds, t.rho) == (BV_RUNS, 0.5)
        a, b = _folds(tasks, t.dataset, "TAN", "zol"), _folds(tasks, t.dataset, "KDB", "zol")
        if np.all(a == b):
            assert t.probabilities == bayes.Probabilities(0.0, 1.0, 0.0)
            continue
        left, rope, right = baycomp.two_on_single(a, b, 0.01, runs=BV_RUNS // 2)
        assert (t.probabilities.a, t.probabilities.rope, t.probabilities.b) == pytest.approx((right, rope, left),
                                                                                             abs=1e-9)


# -- the command -------------------------------------------------------------------------------------
def test_output_is_reproducible_and_says_its_settings(aode22, monkeypatch, capsys):
    args = ("bayes", aode22, "--a", "SP", "--b", "AODE", "--rope", ROPE, "--samples", "5000", "--seed", "2")
    first, second = bnc(*args, check=True), _main(monkeypatch, capsys, *args)     # two processes
    assert (0, first.stdout, first.stderr) == second and first.stderr == ""
    out = first.stdout
    assert "Bayesian signed-rank test of SP against AODE over the data sets" in out
    assert "| data sets | mean SP − AODE | P(SP better) | P(rope) | P(AODE better) |" in out
    assert ("zol: lower is better; rope ±0.002 (zol units); signed-rank test: 5000 posterior samples, seed 2, "
            "prior s = 0.5 at 0; correlated t-test: ρ = n_test/(n_train + n_test) = 0.5") in out
    with results.open(aode22) as r:
        seeded = compare_in(r, "SP", "AODE", rope=ROPE, samples=5000, seed=2).signed_rank
        other = compare_in(r, "SP", "AODE", rope=ROPE, samples=5000, seed=3).signed_rank
        narrowed = compare_in(r, "SP", "AODE", datasets=["iris", "zoo"], samples=100)
    p = seeded.probabilities
    assert f"| {p.a:.3f} " in out and f"| {p.b:.3f} " in out
    assert not np.array_equal(seeded.sample, other.sample)                 # the seed is used
    # accuracy is 100·(1 − zol), higher is better: its rope 0.2 is zol's 0.002, the same comparison
    with results.open(aode22) as r:
        acc = compare_in(r, "SP", "AODE", "accuracy", 100 * ROPE, samples=5000, seed=2)
    assert (acc.signed_rank.probabilities.a, acc.signed_rank.probabilities.b) == pytest.approx((p.a, p.b), abs=0.01)
    assert acc.signed_rank.mean_difference == pytest.approx(-100 * seeded.mean_difference)
    assert narrowed.signed_rank.datasets == ["iris", "zoo"] == [t.dataset for t in narrowed.per_dataset]


@pytest.mark.parametrize("args,message", [
    (("--a", "AOD", "--b", "SP"), "--a: no classifier 'AOD' in the results (did you mean 'AODE'?)"),
    (("--a", "AODE", "--b", "AODE"), "--a and --b: the same classifier 'AODE'"),
    (("--a", "AODE", "--b", "SP", "--rope", "-0.01"), "--rope: -0.01 is not a width ≥ 0"),
    (("--a", "AODE", "--b", "SP", "--metric", "bias"), "bias has no value per fold"),
    (("--a", "AODE", "--b", "SP", "--metric", "cll"), "--rope: cll has no default rope"),
    (("--a", "AODE", "--b", "SP", "--samples", "0"), "--samples: 0 is not a positive number"),
])
def test_bad_input_is_one_line_and_exit_2(aode22, monkeypatch, capsys, args, message):
    code, out, err = _main(monkeypatch, capsys, "bayes", aode22, *args)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert message in err


def test_a_missing_option_is_a_usage_error(aode22, monkeypatch, capsys):
    code, out, err = _main(monkeypatch, capsys, "bayes", aode22, "--a", "AODE")
    assert code == 2 and out == "" and "Missing option '--b'" in err


# -- the figure and the HTML report ------------------------------------------------------------------
def test_figure_draws_the_posterior_sample(aode22, tmp_path, monkeypatch, capsys):
    from bncbench.evaluate import figures as fg
    from bncbench.reporting import figures as rf

    code, _, err = _main(monkeypatch, capsys, "figures", aode22, "--only", "bayes", "--format", "svg", "--out",
                         tmp_path)
    assert code == 0 and "wrote 2 file(s)" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bayes-AODE-vs-SP-rmse.svg", "bayes-AODE-vs-SP-zol.svg"]
    with results.open(aode22) as r:
        c = compare_in(r, "AODE", "SP", "zol", ROPE, samples=SAMPLES, seed=5)          # the config's section
        (plot,) = [p for p in rf.plots(rf.Source(r), ["bayes"]) if p.data["metric"] == "zol"]
    p = c.signed_rank.probabilities
    assert plot.data["probabilities"] == (p.a, p.rope, p.b)
    assert fg.render(plot, "svg") == (tmp_path / "bayes-AODE-vs-SP-zol.svg").read_bytes()    # byte-identical
    fig = fg.draw(plot)
    (ax,) = fig.axes
    (hexes,) = [h for h in ax.collections if h.get_gid() == "posterior"]
    assert hexes.get_array().sum() == SAMPLES                                   # every sample drawn
    texts = {t.get_gid(): t.get_text() for t in ax.texts}
    assert texts["p-a"] == f"AODE better\nP = {p.a:.3f}" and texts["p-b"] == f"SP better\nP = {p.b:.3f}"
    assert texts["p-rope"].endswith(f"P = {p.rope:.3f}")
    # a sample lies nearest the corner of the largest of its three values (the region counted for it)
    sample = plot.data["sample"][:500]
    xs, ys = fg.simplex_xy(sample)
    corners = np.array([(0.0, 0.0), (0.5, math.sqrt(3) / 2), (1.0, 0.0)])
    nearest = np.argmin(((np.stack([xs, ys], 1)[:, None, :] - corners) ** 2).sum(-1), axis=1)
    assert np.array_equal(nearest, np.argmax(sample, axis=1))


def test_html_report_has_a_section_per_configured_pair(aode22, tmp_path, monkeypatch, capsys):
    page = tmp_path / "r.html"
    code, _, _ = _main(monkeypatch, capsys, "report", aode22, "--format", "html", "--out", page)
    assert code == 0
    text = page.read_text(encoding="utf-8")
    section = text[text.index('<section id="bayes">'):]
    section = section[:section.index("</section>")]
    with results.open(aode22) as r:
        p = compare_in(r, "AODE", "SP", "zol", ROPE, samples=SAMPLES, seed=5).signed_rank.probabilities
    assert (f"Over 6 data sets (Bayesian signed-rank test): P(AODE better) = {p.a:.3f}, "
            f"P(rope) = {p.rope:.3f}, P(SP better) = {p.b:.3f}") in section
    assert section.count('<div class="bayes"') == 2 and section.count("<svg") == 2   # zol and rmse
    assert '<th scope="row">soybean</th>' in section
    assert "rope ±0.002" in section and "samples, seed 5" in section
    assert "Bayesian signed-rank test of AODE" not in text.split('<section id="bayes">')[0]  # not under Figures


def test_html_section_values_are_text():
    from bncbench.evaluate.html import ReportInput, bayes_block, render
    from bncbench.results import Summary

    evil = "<script>alert(1)</script>&\"'"
    c = bayes.compare(f"A{evil}", "B", "zol", True, {evil: (0.1, 0.2), "d2": (0.3, 0.3)},
                      {evil: (np.array([0.1, 0.12]), np.array([0.2, 0.19]), 0.5)}, rope=0.01, samples=100)
    svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" id="a"><text>drawn</text></svg>'
    values = {(d, lab): (0.1, math.nan) for d in (evil, "d2") for lab in (f"A{evil}", "B")}
    page = render(ReportInput(title="t", version="0", provenance={}, config="", data_files=[],
                              summaries=[Summary("zol", [evil, "d2"], [f"A{evil}", "B"], values)], differences={},
                              wdl=WDL, bayes=[bayes_block(c, svg, "bayes-table-1")]))
    assert "<script>alert" not in page and "&\"'" not in page
    assert '<th scope="row">&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#34;&#39;</th>' in page
    assert 'id="bayes1-a"' in page                                   # our SVG, inlined


def test_help_states_the_library_defaults(monkeypatch, capsys):
    code, out, _ = _main(monkeypatch, capsys, "bayes", "--help")
    text = " ".join(out.split())
    assert code == 0 and f"[default: {bayes.SAMPLES}]" in text and f"[default: {bayes.SEED}]" in text
    assert "[default: 0.01 for zol, rmse, rmse_all, logloss, auc; 1.0 for accuracy (%)]" in text  # from the records
    assert {m: r for m, r in bayes.DEFAULT_ROPE.items()} == {"zol": 0.01, "rmse": 0.01, "rmse_all": 0.01,
                                                             "logloss": 0.01, "auc": 0.01, "accuracy": 1.0}


def test_data_sets_left_out_are_named():
    means = {"d1": (0.1, 0.2), "d2": (math.nan, 0.3), "d3": (0.2, 0.25), "d4": (0.3, 0.3)}
    folds = {"d1": (np.array([0.1, 0.1]), np.array([0.2, 0.2]), 0.5), "d4": (np.array([0.3]), np.array([0.3]), 0.5)}
    c = bayes.compare("A", "B", "zol", True, means, folds, rope=0.01, samples=100,
                      left_out={"d5": "a classifier has unfinished or no tasks"},
                      unpaired={"d3": "the classifiers were run on different folds"})
    assert c.signed_rank.datasets == ["d1", "d3", "d4"] and [t.dataset for t in c.per_dataset] == ["d1"]
    assert c.left_out == {"d5": "a classifier has unfinished or no tasks", "d2": "A has no zol value"}
    assert c.no_t_test == {"d3": "the classifiers were run on different folds", "d4": "fewer than two folds"}
    lines = bayes.notes(c)
    assert lines[1] == "left out of both tests: d5 (a classifier has unfinished or no tasks); d2 (A has no zol value)"
    assert lines[2] == ("no correlated t-test: d3 (the classifiers were run on different folds); "
                        "d4 (fewer than two folds)")
    with pytest.raises(UserError, match="no data set has a zol value for both A and B"):
        bayes.compare("A", "B", "zol", True, {"d2": (math.nan, 0.3)}, {}, rope=0.01)


@pytest.mark.parametrize("section,message", [
    ('{pairs: ["AODE:NB"], rpoe: 0.01}', "c.yaml:5: figures.bayes.rpoe: unknown key 'rpoe' (did you mean 'rope'?)"),
    ('{pairs: ["AODE:NB"], rope: -1}', "c.yaml:5: figures.bayes.rope: must be a width ≥ 0"),
    ('{pairs: ["NB:NB"]}', "c.yaml:5: figures.bayes.pairs.0: 'NB:NB' compares a classifier with itself"),
    ('{pairs: ["NB:AOD"]}', "c.yaml:5: figures.bayes.pairs.0: invalid value 'AOD' (did you mean 'AODE'?)"),
    ("{samples: 0}", "c.yaml:5: figures.bayes.samples: must be ≥ 1"),
    ("{seed: -1}", "c.yaml:5: figures.bayes.seed: must be ≥ 0"),
])
def test_config_section_is_checked(section, message):
    from bncbench import config

    text = f"name: c\ndatasets: [iris]\nclassifiers: [{{name: NB}}, {{name: AODE}}]\nfigures:\n  bayes: {section}\n"
    with pytest.raises(UserError) as e:
        config.parse(text, "c.yaml")
    assert message in str(e.value)
    ok = config.parse(text.replace(section, '{pairs: ["AODE:NB"], metric: accuracy, rope: 1, samples: 10, seed: 3}'))
    assert ok.figures["bayes"] == {"pairs": [("AODE", "NB")], "metric": ["accuracy"], "rope": 1.0, "samples": 10,
                                   "seed": 3}


def test_figure_options_override_the_config(aode22, tmp_path, monkeypatch, capsys):
    code, _, err = _main(monkeypatch, capsys, "figures", aode22, "--only", "bayes", "--rope", "-1")
    assert code == 2 and err.strip() == "error: --rope: -1 is not a width ≥ 0 in the metric's units (e.g. 0.01 for zol)"
    code, _, err = _main(monkeypatch, capsys, "figures", aode22, "--only", "bayes", "--pairs", "SP:AODE", "--metric",
                         "zol", "--rope", "0.005", "--format", "svg", "--out", tmp_path)
    assert code == 0 and [p.name for p in tmp_path.iterdir()] == ["bayes-SP-vs-AODE.svg"]
    svg = (tmp_path / "bayes-SP-vs-AODE.svg").read_text()
    assert "rope (±0.005)" in svg and "Zero-one loss: SP against AODE, Bayesian signed-rank test" in svg
