"""CLI behaviour: default run, report/wdl formats, bad input (exit 2, one line), resume after kill -9."""

import csv
import math
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.support.cli import POOL, SMALL, bnc, bnc_in, run_store
from tests.support.predictions import bias_variance, instance_metric, read_predictions

ROOT = Path(__file__).resolve().parents[2]


def assert_same_reports(a, b, metrics):
    for metric in metrics:
        ra = bnc_in("report", a, "--metric", metric, "--format", "csv", check=True).stdout
        rb = bnc_in("report", b, "--metric", metric, "--format", "csv", check=True).stdout
        assert ra == rb, metric


def wait_for_tasks(db, n, timeout=60.0) -> int:
    """Poll the results store until it holds at least n tasks; the count seen."""
    deadline, done = time.time() + timeout, 0
    while time.time() < deadline:
        if db.exists():
            try:
                with sqlite3.connect(db, timeout=1) as c:
                    done = c.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
            except sqlite3.Error:
                done = 0
            if done >= n:
                break
        time.sleep(0.02)
    return done


@pytest.fixture
def small_cfg(tmp_path):
    p = tmp_path / "small.yaml"
    p.write_text(SMALL)
    return p


def test_run_report_wdl(tmp_path, small_cfg):
    res = tmp_path / "res"
    r = bnc_in("run", small_cfg, "--results", res, "--quiet", check=True)
    assert r.returncode == 0
    md = bnc_in("report", res, check=True).stdout
    assert "| iris" in md and "±" in md
    csv_out = bnc_in("report", res, "--metric", "rmse", "--format", "csv", check=True).stdout.splitlines()
    assert csv_out[0] == "dataset,classifier,metric,mean,sd"
    assert len(csv_out) == 1 + 3 * 3
    check_report_values(res, tmp_path / "export")
    assert "\\begin{tabular}" in bnc_in("report", res, "--format", "latex", check=True).stdout
    w = bnc_in("wdl", res, "--format", "csv", check=True).stdout.splitlines()
    assert w[0] == "row,column,wins,draws,losses,p,n" and len(w) == 1 + 6
    # a second run resumes: nothing left to do
    again = bnc_in("run", small_cfg, "--results", res, check=True)
    assert "0 tasks run" in again.stderr


REPORT_DATASETS, REPORT_LABELS = ("iris", "labor-negotiations", "car"), ("NB", "KDB1", "AODE")


def _report_csv(res, metric) -> dict[tuple[str, str], tuple[float, float]]:
    lines = bnc_in("report", res, "--metric", metric, "--format", "csv", check=True).stdout.splitlines()
    assert lines[0] == "dataset,classifier,metric,mean,sd"
    out = {}
    for line in lines[1:]:
        d, lab, m, mean, sd = line.split(",")
        assert m == metric
        out[(d, lab)] = (float(mean), float(sd) if sd else math.nan)
    assert sorted(out) == sorted((d, lab) for d in REPORT_DATASETS for lab in REPORT_LABELS)
    return out


def check_report_values(res, export_dir):
    """The bias, variance, cll, rmse_all (and zol, rmse) reports of the SMALL config equal the
    values recomputed with plain numpy from the exported per-instance predictions
    (tests/support/predictions.py, §5.2–5.5); train_time: shape, positivity and format, and the
    mean ± sd over the exported per-fold times."""
    bnc_in("export", res, "--format", "csv", "--predictions", "--out", export_dir, check=True)
    reports = {m: _report_csv(res, m) for m in ("zol", "rmse", "rmse_all", "cll", "bias", "variance")}
    for d in REPORT_DATASETS:
        _, by_label = read_predictions(export_dir, d)
        for lab in REPORT_LABELS:
            rows = by_label[lab]
            n = len({r["row"] for r in rows})
            assert len(rows) == 2 * n  # 2 runs, each predicting every instance once
            # the stored probabilities are float32 (the stored sums come from float64)
            tols: dict[str, dict[str, Any]] = {"zol": dict(abs=1e-12), "rmse": dict(rel=1e-6),
                                               "rmse_all": dict(rel=1e-6), "cll": dict(rel=1e-7, abs=1e-6 * n)}
            for metric, tol in tols.items():
                mean, sd = instance_metric(rows, metric)
                got = reports[metric][(d, lab)]
                assert got[0] == pytest.approx(mean, **tol), (d, lab, metric)
                assert got[1] == pytest.approx(sd, rel=1e-4, abs=max(tol.get("abs", 0), 1e-9)), (d, lab, metric)
            b, v = bias_variance(rows)
            assert reports["bias"][(d, lab)][0] == pytest.approx(b, abs=1e-12), (d, lab)
            assert reports["variance"][(d, lab)][0] == pytest.approx(v, abs=1e-12), (d, lab)
            assert math.isnan(reports["bias"][(d, lab)][1]) and math.isnan(reports["variance"][(d, lab)][1])
            # bias + variance is the mean ZOL over the runs exactly (§5.5)
            assert b + v == pytest.approx(reports["zol"][(d, lab)][0], abs=1e-12)
    # train_time: 9 cells, each the mean ± sample sd of its 6 per-fold times, all positive
    times = _report_csv(res, "train_time")
    with open(export_dir / "tasks.csv", newline="") as fh:
        tasks = list(csv.DictReader(fh))
    for (d, lab), (mean, sd) in times.items():
        t = [float(r["train_time"]) for r in tasks if (r["dataset"], r["label"]) == (d, lab)]
        assert len(t) == 6 and all(x > 0 for x in t)
        assert mean > 0 and sd >= 0
        assert mean == pytest.approx(np.mean(t), rel=1e-9) and sd == pytest.approx(np.std(t, ddof=1), rel=1e-9)
    md = bnc_in("report", res, "--metric", "train_time", check=True).stdout
    lines = [r for r in md.splitlines() if r.startswith("| ") and r.split("|")[1].strip() in REPORT_DATASETS]
    assert len(lines) == 3
    for r in lines:
        cells = [c.strip() for c in r.split("|")[2:-1]]
        assert len(cells) == 3 and all(re.fullmatch(r"\d+\.\d{4} ± \d+\.\d{4}", c) for c in cells), r


def test_wdl_defaults_from_the_stored_config(tmp_path, small_cfg):
    cfg = tmp_path / "rel.yaml"
    cfg.write_text(SMALL + "wdl: {draw: 'relative:0.5', draws: ignore, tails: two}\n")
    res = tmp_path / "res"
    bnc_in("run", cfg, "--results", res, "--quiet", check=True)
    stored = bnc_in("wdl", res, "--format", "csv", check=True).stdout
    explicit = bnc_in("wdl", res, "--format", "csv", "--draw", "relative:0.5", "--draws", "ignore", "--tails", "two",
                      check=True).stdout
    default = bnc_in("wdl", res, "--format", "csv", "--draw", "exact4", "--draws", "split", "--tails", "one",
                     check=True).stdout
    assert stored == explicit and stored != default


def test_jobs2_gives_identical_report(tmp_path, small_cfg):
    a, b = tmp_path / "a", tmp_path / "b"
    bnc_in("run", small_cfg, "--results", a, "--quiet", check=True)
    bnc("run", small_cfg, "--results", b, "--quiet", "--jobs", "2", env=POOL, check=True)
    assert_same_reports(a, b, ("zol", "rmse", "cll", "bias"))


def test_wdl_on_wide_table(tmp_path):
    t = tmp_path / "table.tsv"
    t.write_text("dataset\tA\tB\tC\n"
                 "d1\t0.1000\t0.2000\t0.1000\n"
                 "d2\t0.2000\t0.2000\t0.2080\n"
                 "d3\t0.3000 ± 0.01\t0.2500\t0.3100\n"
                 "d4\t0.4000\t0.4001\t0.4000\n")
    out = bnc_in("wdl", t, "--format", "csv", check=True).stdout.splitlines()
    rows = {tuple(l.split(",")[:2]): l.split(",")[2:5] for l in out[1:]}
    assert rows[("A", "B")] == ["2", "1", "1"]
    assert rows[("A", "C")] == ["2", "2", "0"]
    rel = bnc_in("wdl", t, "--draw", "relative:0.05", "--format", "csv", check=True).stdout.splitlines()
    rrows = {tuple(l.split(",")[:2]): l.split(",")[2:5] for l in rel[1:]}
    assert rrows[("A", "B")] == ["1", "2", "1"]
    assert rrows[("A", "C")] == ["0", "4", "0"]


def test_wdl_published_p_values_through_cli(tmp_path):
    """34/22/14 → 0.0112 from a wide table with 70 data sets (paper 000, Table 2)."""
    lines = ["dataset,A,B"]
    k = 0
    for a, b, n in ((0.1, 0.2, 34), (0.2, 0.2, 22), (0.3, 0.2, 14)):
        for _ in range(n):
            lines.append(f"d{k},{a},{b}")
            k += 1
    t = tmp_path / "t.csv"
    t.write_text("\n".join(lines) + "\n")
    out = bnc_in("wdl", t, "--format", "csv", check=True).stdout.splitlines()
    row = next(l for l in out if l.startswith("A,B,")).split(",")
    assert row[2:5] == ["34", "22", "14"] and format(float(row[5]), ".4f") == "0.0112"


BAD_CONFIGS = {
    "malformed": "datasets: [iris\nclassifiers: [NB]\n",
    "unknown_key": "datasets: [iris]\nclassifiers: [NB]\ncv: {folds: 3, shceme: petal}\n",
    "unknown_classifier": "datasets: [iris]\nclassifiers: [{name: TANN}]\n",
    "unknown_dataset": "datasets: [irsi]\nclassifiers: [NB]\n",
    "wrong_type": "datasets: [iris]\nclassifiers: [{name: KDB, k: two}]\n",
    "wrong_value": "datasets: [iris]\nclassifiers: [NB]\npreprocess: {missing: drop}\n",
    "comma_in_label": "datasets: [iris]\nclassifiers: [{name: NB, label: 'NB,m1'}]\n",
    "tab_in_data_set_name": "datasets: [{name: \"a\\tb\", path: x.csv}]\nclassifiers: [NB]\n",
}


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
def test_bad_config_exit_2_one_line(tmp_path, case):
    cfg = tmp_path / f"{case}.yaml"
    cfg.write_text(BAD_CONFIGS[case])
    res = tmp_path / "res"
    r = bnc_in("run", cfg, "--results", res)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert str(cfg) in lines[0]
    assert not res.exists()


def test_error_messages_name_key_line_and_nearest(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BAD_CONFIGS["unknown_key"])
    msg = bnc_in("run", cfg).stderr
    assert ":3:" in msg and "shceme" in msg and "'scheme'" in msg
    cfg.write_text(BAD_CONFIGS["unknown_classifier"])
    assert "'TAN'" in bnc_in("run", cfg).stderr
    cfg.write_text(BAD_CONFIGS["unknown_dataset"])
    assert "'iris'" in bnc_in("run", cfg).stderr


def _cfg_for_user_data(tmp_path, data_name, content, extra="", cfg_name="u.yaml"):
    """A config of one data set, the file `data_name` holding `content` (text as UTF-8, or bytes), its
    entry ending in `extra`."""
    data = tmp_path / data_name
    if isinstance(content, bytes):
        data.write_bytes(content)
    else:
        data.write_text(content)
    cfg = tmp_path / cfg_name
    cfg.write_text(f"datasets: [{{name: mine, path: {data}{extra}}}]\nclassifiers: [NB]\ncv: {{folds: 2}}\n")
    return cfg


STRAY = "age,color,class\n" + "".join(f"{20 + i % 9},{'rgb'[i % 3]},{'yn'[i % 2]}\n" for i in range(12)) + \
    "N.A.,r,y\nunknown,g,n\n"


LATIN1 = b"color,size,class\n" + b"".join(b"caf%s,%d,%s\n" % (b"\xe9\xe8"[i % 2:i % 2 + 1], i, b"yn"[i % 2:i % 2 + 1])
                                              for i in range(12))


@pytest.mark.parametrize("name,content,extra,expect", [
    ("one_class.csv", "a,b,class\n1,x,yes\n2,y,yes\n3,x,yes\n", "", "1 distinct value(s) ('yes')"),
    ("bad_row.csv", "a,b,class\n1,x,yes\n2,y\n3,x,no\n", "", "bad_row.csv:3: 2 values, but the header names 3"),
    ("truncated.arff", "@relation t\n@attribute a numeric\n@attribute class {p,q}\n@data\n1,p\n2,q\n3", "",
     "truncated.arff:7: 1 values, expected 2"),
    ("empty.csv", "", "", "no data rows (empty file)"),
    ("header_only.csv", "a,b,class\n", "", "no data rows (only a header line)"),
    ("stray.csv", STRAY, "",
     "column 'age' holds 12 numbers and 2 other cell(s): 'N.A.' (line 14), 'unknown' (line 15)"),
    ("declared_numeric.csv", STRAY, ", numeric: [age], missing_values: [N.A.]",
     "column 'age' is declared numeric but holds 'unknown' (line 15)"),
    ("unknown_column.csv", STRAY, ", nominal: [aeg]",
     "nominal: no column 'aeg' (did you mean 'age'?); the columns are age, color, class"),
    ("class_dropped.csv", STRAY, ", class: color, drop: [color]", "drop: 'color' is the class column"),
    ("both_types.csv", STRAY, ", nominal: [age], numeric: [age]",
     "column 'age' is listed under both nominal and numeric"),
    ("boolean_marker.csv", STRAY, ", missing_values: [no]", "got False (quote it"),
    ("arff_types.arff", "@relation t\n@attribute a numeric\n@attribute class {p,q}\n@data\n1,p\n2,q\n",
     ", nominal: [a]", "an ARFF file declares its columns' types"),
    ("unnamed_index.csv", ",a,class\n0,1,x\n1,2,y\n", "", "column 1 has no name in the header line"),
    ("latin1.csv", LATIN1, "", "latin1.csv: line 2, column 4: byte 0xe9 is not valid utf-8; add `encoding: latin-1`"),
    ("unknown_encoding.csv", STRAY, ", encoding: latin-9", "encoding: unknown encoding 'latin-9'"),
])
def test_bad_user_data_exit_2(tmp_path, name, content, extra, expect):
    cfg = _cfg_for_user_data(tmp_path, name, content, extra)
    res = tmp_path / "res"
    r = bnc_in("run", cfg, "--results", res)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert expect in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not res.exists()


def test_reading_keys_of_a_catalog_entry_exit_2(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("datasets:\n  - {name: iris, drop: [sepallength]}\nclassifiers: [NB]\n")
    r = bnc_in("run", cfg, "--results", tmp_path / "res")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "c.yaml:2: datasets.0.drop: 'drop' applies only to a file of your own" in r.stderr


def test_user_csv_runs(tmp_path):
    rows = "\n".join(f"{i % 7},{'xyz'[i % 3]},{'yes' if i % 2 else 'no'}" for i in range(40))
    cfg = _cfg_for_user_data(tmp_path, "ok.csv", "a,b,class\n" + rows + "\n")
    assert bnc_in("run", cfg, "--results", tmp_path / "res", "--quiet").returncode == 0


def test_declared_nominal_column_runs(tmp_path):
    cfg = _cfg_for_user_data(tmp_path, "stray_nominal.csv", STRAY, ", nominal: [age]")
    bnc_in("run", cfg, "--results", tmp_path / "res", "--quiet", check=True)
    bnc_in("folds", cfg, "--dataset", "mine", "--out", tmp_path / "folds", "--runs", "1", check=True)
    head = (tmp_path / "folds" / "mine-r0-f0-train.arff").read_text().splitlines()[2]
    assert head == "@attribute age {20,21,22,23,24,25,26,27,28,N.A.,unknown}"


def _why_rows() -> list[list]:
    """The issue's case: numeric columns and a nominal color, some cells missing (None)."""
    rng = np.random.default_rng(11)
    rows: list[list[str | None]] = []
    for i in range(90):
        c = i % 2
        rows.append([f"{rng.normal(30 + 10 * c, 7):.1f}", f"{rng.normal(160 + 6 * c, 8):.1f}",
                     ["red", "green", "blue"][int(rng.integers(0, 3)) if c else i % 3], "yes" if c else "no"])
    for k in range(12):
        rows[(7 * k + 3) % 90][k % 3] = None
    return rows


def test_na_markers_give_the_question_mark_results(tmp_path):
    reports, heads = {}, {}
    for marker, tag in (("?", "q"), ("NA", "na"), ("", "empty")):
        text = "age,height,color,class\n" + "".join(",".join(marker if v is None else v for v in r) + "\n"
                                                     for r in _why_rows())
        d = tmp_path / tag
        d.mkdir()
        cfg = _cfg_for_user_data(d, "mine.csv", text)
        bnc_in("run", cfg, "--results", d / "res", "--quiet", check=True)
        reports[tag] = bnc_in("report", d / "res", "--metric", "zol", "--format", "csv", check=True).stdout
        bnc_in("folds", cfg, "--dataset", "mine", "--out", d / "folds", "--runs", "1", check=True)
        heads[tag] = (d / "folds" / "mine-r0-f0-train.arff").read_text().splitlines()[2:6]
    assert reports["na"] == reports["q"] == reports["empty"]
    assert heads["na"] == heads["q"]
    age, height, color, _ = heads["na"]
    assert age.startswith("@attribute age {(-inf-") and height.startswith("@attribute height {(-inf-")
    assert color == "@attribute color {blue,green,red,_missing_}"
    # float64 cut points, not float32 ones: each is a value as the file writes it
    values = {r[0] for r in _why_rows() if r[0] is not None}
    cuts = re.findall(r"\(-?[\d.inf]+-(-?[\d.]+)\]", age)
    assert len(cuts) == 4 and set(cuts) <= values, (cuts, age)


def test_own_data_example_runs_from_any_folder_and_writes_only_results(tmp_path):
    """docs/examples/own-data.yaml (docs/datasets.md's worked example), run from another folder."""
    work = tmp_path / "work"
    work.mkdir()
    bnc_in("run", ROOT / "docs" / "examples" / "own-data.yaml", "--quiet", cwd=work, check=True)
    assert [p.name for p in work.iterdir()] == ["results"]
    md = bnc_in("report", work / "results" / "own-data", cwd=work, check=True).stdout
    doc = (ROOT / "docs" / "datasets.md").read_text()
    row = next(l for l in md.splitlines() if l.startswith("| shop"))
    assert row in doc, "docs/datasets.md shows the example's table"


def test_missing_mirror_and_checksum_mismatch(tmp_path, small_cfg):
    r = bnc("run", small_cfg, "--results", tmp_path / "res", env={"BNCBENCH_MIRROR": str(tmp_path / "nope")})
    assert r.returncode == 2 and "BNCBENCH_MIRROR" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    cache = tmp_path / "cache"
    (cache / "arff").mkdir(parents=True)
    (cache / "arff" / "iris.arff").write_text("@relation broken\n")
    r = bnc("run", small_cfg, "--results", tmp_path / "res2", env={"BNCBENCH_CACHE": str(cache)})
    assert r.returncode == 2 and "checksum mismatch" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "res2").exists()


def test_results_path_that_is_a_file(tmp_path, small_cfg):
    target = tmp_path / "a-file"
    target.write_text("x")
    r = bnc_in("run", small_cfg, "--results", target)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_truncated_catalog_file_in_mirror(tmp_path, small_cfg):
    mirror = tmp_path / "mirror"
    (mirror / "arff").mkdir(parents=True)
    src = (ROOT / "datasets/mirror/arff/iris.arff").read_text()
    (mirror / "arff" / "iris.arff").write_text(src[: len(src) // 2])
    r = bnc("run", small_cfg, "--results", tmp_path / "res", env={"BNCBENCH_MIRROR": str(mirror)})
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "checksum mismatch" in r.stderr


def test_resume_after_kill_9(tmp_path, tmp_path_factory):
    cfg = tmp_path / "big.yaml"
    cfg.write_text(SMALL.replace("runs: 2", "runs: 12").replace("folds: 3", "folds: 5"))
    res, ref = tmp_path / "res", run_store(tmp_path_factory, "ref", cfg.read_text())
    env = dict(os.environ)
    env["BNCBENCH_MIRROR"] = ""  # no mirror, not even the default
    proc = subprocess.Popen([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(res), "--quiet"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = wait_for_tasks(res / "results.sqlite", 20)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    total = 3 * 3 * 12 * 5
    assert 0 < done < total, "the run finished before it could be killed"
    r = bnc_in("run", cfg, "--results", res, check=True)
    assert "already finished" in r.stderr
    assert_same_reports(res, ref, ("zol", "rmse", "bias", "variance"))


def test_ctrl_c_exits_130_with_a_message_and_resumes(tmp_path):
    cfg = tmp_path / "big.yaml"
    cfg.write_text(SMALL.replace("runs: 2", "runs: 12").replace("folds: 3", "folds: 5"))
    res = tmp_path / "res"
    env = dict(os.environ, BNCBENCH_MIRROR="")  # no mirror, not even the default
    # the child starts with Ctrl-C's default action: a suite run as a background job (`make test &`)
    # inherits SIGINT ignored, and Python then installs no KeyboardInterrupt handler
    proc = subprocess.Popen([sys.executable, "-m", "bncbench", "run", str(cfg), "--results", str(res), "--quiet"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            # (PLW1509) the reset must run in the child, and this test starts no thread
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    wait_for_tasks(res / "results.sqlite", 10)
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert "interrupted" in err.strip().splitlines()[-1]
    r = bnc_in("run", cfg, "--results", res, check=True)
    assert "already finished" in r.stderr


def test_folds_export(tmp_path, small_cfg):
    out = tmp_path / "folds"
    bnc_in("folds", small_cfg, "--dataset", "iris", "--out", out, check=True)
    files = sorted(out.glob("*.arff"))
    assert len(files) == 2 * 3 * 2
    from bncbench.data.loaders import build_dataset, parse_arff

    tr = build_dataset("t", parse_arff(files[0].read_text(), "f"), -1)
    assert all(a.nominal for a in tr.attributes)


@pytest.mark.parametrize("args, option, choices", [
    (["report", "--format", "xml"], "--format", "'md', 'csv', 'latex', 'html'"),
    (["export", "--out", "x", "--format", "xml"], "--format", "'parquet', 'csv'"),
    (["wdl", "--format", "html"], "--format", "'md', 'csv', 'latex'"),
    (["wdl", "--draws", "bogus"], "--draws", "'split', 'ignore'"),
    (["wdl", "--tails", "three"], "--tails", "'one', 'two'"),
    (["wdl", "--test", "t"], "--test", "'sign', 'wilcoxon'"),
    (["wdl", "--correction", "bonferroni"], "--correction", "'none', 'holm'"),
    (["ranks", "--format", "html"], "--format", "'md', 'csv', 'latex'"),
    (["compare", "TABLE", "--format", "html"], "--format", "'md', 'csv', 'latex'"),
    (["bayes", "--a", "A", "--b", "B", "--format", "html"], "--format", "'md', 'csv', 'latex'"),
    (["run", "--executor", "ray"], "--executor", "'local', 'dask'"),
])
def test_a_closed_choice_is_checked_by_the_parser(tmp_path, args, option, choices):
    """The closed choices are declared as the options' types: a bad one is a usage error (exit 2)
    naming the option and its choices, before any store is read (RESULTS need not exist)."""
    command, *rest = args
    r = bnc(command, tmp_path / "nothing-here", *rest)
    value = rest[rest.index(option) + 1]
    assert r.returncode == 2 and r.stdout == ""
    assert f"Error: Invalid value for '{option}': Value error, '{value}' is not one of {choices}." in r.stderr


def test_run_offers_the_executors_the_engine_has():
    """`run --executor`'s choices are the engine's executors (experiment.EXECUTORS), named once more
    only as the option's type."""
    import typing

    from bncbench.cli.run import run
    from bncbench.experiment import EXECUTORS

    literal, none = typing.get_args(typing.get_type_hints(run)["executor"])
    assert typing.get_args(literal) == EXECUTORS and none is type(None)
