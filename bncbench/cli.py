"""Command-line interface (thin layer over the library)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import numpy as np
import typer

from bncbench.errors import UserError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Reproducible benchmarks of Bayesian network classifiers on UCI data.")
datasets_app = typer.Typer(no_args_is_help=True, help="The data-set catalog: list, info, fetch, verify.")
app.add_typer(datasets_app, name="datasets")


def _err(msg: str) -> None:
    typer.echo(msg, err=True)


def _split(s: Optional[str]) -> list[str] | None:
    return [x.strip() for x in s.split(",") if x.strip()] if s else None


def _select(exp, datasets: list[str] | None, classifiers: list[str] | None):
    from bncbench.data import catalog
    from bncbench.data.catalog import nearest

    if datasets:
        known = {d.name: d for d in exp.datasets}
        chosen = []
        for name in datasets:
            canon = name
            if name not in known:
                try:
                    canon = catalog.resolve(name)
                except UserError:
                    pass
            if canon not in known:
                raise UserError(f"--datasets: {name!r} is not in the config{nearest(name, list(known))}")
            chosen.append(known[canon])
        exp.datasets = chosen
    if classifiers:
        known = {c.label: c for c in exp.classifiers}
        for lab in classifiers:
            if lab not in known:
                raise UserError(f"--classifiers: no classifier labelled {lab!r} in the config{nearest(lab, list(known))}")
        exp.classifiers = [known[lab] for lab in classifiers]
    return exp


@app.command()
def run(config: str = typer.Argument(..., help="experiment YAML"),
        results: Optional[str] = typer.Option(None, help="results directory (default results/<config name>)"),
        datasets: Optional[str] = typer.Option(None, help="comma-separated subset of the config's data sets"),
        classifiers: Optional[str] = typer.Option(None, help="comma-separated subset of the config's classifier labels"),
        jobs: Optional[int] = typer.Option(None, help="worker processes (default 1, or the config's executor.jobs)"),
        executor: Optional[str] = typer.Option(None, help="local | dask (default local, or the config's executor.name)"),
        scheduler: Optional[str] = typer.Option(None, help="Dask scheduler address tcp://HOST:PORT (default: a LocalCluster)"),
        fresh: bool = typer.Option(False, help="discard finished tasks and start over"),
        strict: bool = typer.Option(False, help="a data set that cannot be obtained is an error, not a warning"),
        quiet: bool = typer.Option(False, help="no progress display")):
    """Run (or resume) an experiment; every finished task is stored at once."""
    from bncbench import config as cfg
    from bncbench.engine import runner

    exp = _select(cfg.load(config), _split(datasets), _split(classifiers))
    out = results or str(Path("results") / exp.name)
    name = executor or exp.executor.get("name", "local")
    n_jobs = jobs if jobs is not None else exp.executor.get("jobs", 1)
    if n_jobs < 1:
        raise UserError(f"--jobs must be ≥ 1, got {n_jobs}")
    stats = runner.run(exp, out, jobs=n_jobs, fresh=fresh, quiet=quiet, log=_err, strict=strict, executor=name,
                       scheduler=scheduler or exp.executor.get("scheduler"))
    if not quiet:
        _err(f"done: {stats['run']} tasks run, {stats['skipped']} already finished; results in {out}")


@app.command()
def report(results: str = typer.Argument(..., help="results directory"),
           metric: str = typer.Option("zol", help="zol|rmse|rmse_all|cll|logloss|bias|variance|train_time|test_time|selected"),
           format: str = typer.Option("md", "--format", help="md|csv|latex")):
    """A paper-style table: one row per data set, one column per classifier, mean ± sd."""
    from bncbench.evaluate.report import format_report
    from bncbench.results import summarize_store

    if format not in ("md", "csv", "latex"):
        raise UserError(f"--format: {format!r} is not one of md, csv, latex")
    s = summarize_store(results, metric)
    if s.status_line():
        _err(f"warning: {s.status_line()}")
    typer.echo(format_report(s.datasets, s.labels, s.values, metric, format), nl=False)


@app.command()
def wdl(path: str = typer.Argument(..., help="results directory, or a wide table file (TSV/CSV)"),
        metric: Optional[str] = typer.Option(None, help="metric (results directory only; default zol)"),
        draw: Optional[str] = typer.Option(None, help="exact4 | relative:F"),
        draws: Optional[str] = typer.Option(None, help="split | ignore"),
        tails: Optional[str] = typer.Option(None, help="one | two"),
        higher_is_better: bool = typer.Option(False, help="for a wide table of accuracies or CLL"),
        rows: Optional[str] = typer.Option(None, help="comma-separated row classifiers (default: all)"),
        columns: Optional[str] = typer.Option(None, help="comma-separated column classifiers (default: all)"),
        format: str = typer.Option("md", "--format", help="md|csv|latex")):
    """Win/draw/loss matrix (row vs column) and binomial sign-test p-values.

    For a results directory, options not given default to the `wdl:` section of the config the
    results were run with (paper 004's configs say relative:0.05), then exact4 / split / one."""
    from bncbench.evaluate.metrics import LOWER_IS_BETTER
    from bncbench.evaluate.report import read_wide_table
    from bncbench.results import summarize_store
    from bncbench.evaluate.stats import parse_draw
    from bncbench.evaluate.wdl import format_wdl, matrix

    p = Path(path)
    defaults = {"metric": "zol", "draw": "exact4", "draws": "split", "tails": "one"}
    is_store = p.is_dir() or p.suffix == ".sqlite"
    if is_store:
        defaults.update(_stored_wdl_settings(path))
    metric = metric or defaults["metric"]
    draw, draws, tails = draw or defaults["draw"], draws or defaults["draws"], tails or defaults["tails"]
    try:
        parse_draw(draw)
    except ValueError as e:
        raise UserError(f"--draw: {e}") from None
    if draws not in ("split", "ignore"):
        raise UserError(f"--draws: {draws!r} is not split or ignore")
    if tails not in ("one", "two"):
        raise UserError(f"--tails: {tails!r} is not one or two")
    if format not in ("md", "csv", "latex"):
        raise UserError(f"--format: {format!r} is not one of md, csv, latex")
    if is_store:
        s = summarize_store(path, metric)
        if s.status_line():
            _err(f"warning: {s.status_line()}")
        ds, labels, values = s.datasets, s.labels, s.values
        lower = LOWER_IS_BETTER[metric]
    elif p.is_file():
        ds, labels, values = read_wide_table(path)
        lower = not higher_is_better
    else:
        raise UserError(f"{path}: no such results directory or table file")
    row_labels, col_labels = labels, labels
    for opt, chosen in (("--rows", _split(rows)), ("--columns", _split(columns))):
        if chosen:
            from bncbench.data.catalog import nearest

            for lab in chosen:
                if lab not in labels:
                    raise UserError(f"{opt}: no classifier {lab!r}{nearest(lab, labels)}; available: {', '.join(labels)}")
            if opt == "--rows":
                row_labels = chosen
            else:
                col_labels = chosen
    mat = matrix(ds, labels, values, draw, lower, draws, tails)
    typer.echo(format_wdl(row_labels, col_labels, mat, format, metric), nl=False)


def _stored_wdl_settings(results: str) -> dict:
    """The `wdl:` section of the config stored with a results directory (empty if none)."""
    import yaml

    from bncbench.results import stored_config

    text = stored_config(results)
    try:
        section = (yaml.safe_load(text) or {}).get("wdl") or {}
    except yaml.YAMLError:
        return {}
    return {k: str(v) for k, v in section.items() if k in ("metric", "draw", "draws", "tails")}


@app.command()
def folds(config: str = typer.Argument(..., help="experiment YAML"),
          dataset: str = typer.Option(..., help="data set of the config"),
          out: str = typer.Option(..., help="output directory"),
          runs: Optional[int] = typer.Option(None, help="number of runs to export (default: all)")):
    """Write each fold's preprocessed train and test set as ARFF (value order = our codes)."""
    from bncbench import config as cfg
    from bncbench.preprocess import arff as export
    from bncbench.engine import units
    from bncbench.preprocess.folds import make_folds
    from bncbench.preprocess.encode import encode_fold

    exp = _select(cfg.load(config), [dataset], None)
    spec = exp.datasets[0]
    ds = units.load_dataset(spec)
    s = exp.preprocess
    gcuts = units._global_cuts(spec, s) if s.scope == "global" else None
    n_written = 0
    for r in range(exp.cv.runs if runs is None else min(runs, exp.cv.runs)):
        f_of = make_folds(ds.y, exp.cv.scheme, exp.cv.folds, r, exp.cv.seed)
        for f in range(exp.cv.folds):
            tr, te = np.flatnonzero(f_of != f), np.flatnonzero(f_of == f)
            enc = encode_fold(ds, tr, te, s, gcuts)
            names = export.value_names(ds, enc, s.missing)
            for part, idx, X in (("train", tr, enc.X_train), ("test", te, enc.X_test)):
                export.write_arff(Path(out) / f"{spec.name}-r{r}-f{f}-{part}.arff", f"{spec.name}-r{r}-f{f}-{part}",
                                  ds, names, X, ds.y[idx])
                n_written += 1
    _err(f"wrote {n_written} ARFF files to {out}")


@datasets_app.command("list")
def datasets_list():
    """Catalog names with the papers' counts."""
    from bncbench.data import catalog

    rows = []
    for name in catalog.names():
        e = catalog.entry(name)
        x = e.get("expected", {})
        rows.append([name, str(x.get("instances", "")), str(x.get("attributes", "")), str(x.get("classes", "")),
                     ", ".join(f"{f['source']}:{f['path']}" for f in e["files"])])
    from bncbench.evaluate.report import format_grid

    typer.echo(format_grid(["name", "instances", "attributes", "classes", "files"], rows, "md"), nl=False)


@datasets_app.command("info")
def datasets_info(name: str):
    """The catalog entry of one data set."""
    import yaml

    from bncbench.data import catalog

    typer.echo(yaml.safe_dump({catalog.resolve(name): catalog.entry(name)}, sort_keys=False), nl=False)


@datasets_app.command("fetch")
def datasets_fetch(name: str):
    """Obtain (download or find in the mirror) and checksum-verify a data set's files."""
    from bncbench.data import catalog

    entry = catalog.entry(name)
    if entry["format"] == "generated":
        typer.echo(f"{catalog.resolve(name)} is generated from its definition ({entry['generator']}); nothing to fetch")
        return
    for spec in entry["files"]:
        typer.echo(f"{spec['source']}:{spec['path']} -> {catalog.locate(spec)}")


@datasets_app.command("verify")
def datasets_verify(name: Optional[str] = typer.Argument(None, help="a catalog name"),
                    all_: bool = typer.Option(False, "--all", help="every catalog data set"),
                    format: str = typer.Option("md", "--format", help="md|csv|latex")):
    """Load data sets and compare their counts with the paper's (or the documented difference).

    Exit code 0 only when every data set that could be loaded matches; data sets that are not
    held anywhere are listed as unavailable."""
    from bncbench.data import catalog
    from bncbench.errors import DataUnavailable
    from bncbench.evaluate.report import format_grid

    if bool(name) == all_:
        raise UserError("give one data-set NAME or --all")
    names = catalog.names() if all_ else [catalog.resolve(name)]
    rows, bad = [], 0
    for n in names:
        paper, ours, diff = catalog.expected_counts(n)
        exp = f"{paper.get('instances', '?')}/{paper.get('attributes', '?')}/{paper.get('classes', '?')}"
        try:
            ds = catalog.load(n)
        except DataUnavailable:
            rows.append([n, exp, "—", "not available", "—", "not held: " + ", ".join(catalog.missing_files(n))])
            continue
        found = {"instances": ds.n_instances, "attributes": ds.n_attributes, "classes": len(set(ds.y.tolist()))}
        ok = all(found[k] == ours.get(k, found[k]) for k in found)
        same_as_paper = all(found[k] == paper.get(k, found[k]) for k in found)
        bad += not ok
        status = "ok" if same_as_paper else ("documented difference" if ok else "MISMATCH")
        src = catalog.source_summary(n)
        rows.append([n, exp, f"{found['instances']}/{found['attributes']}/{found['classes']}", status, src,
                     diff if not same_as_paper else ""])
    typer.echo(format_grid(["data set", "paper n/a/c", "found n/a/c", "status", "source (checksum)", "difference"],
                           rows, format), nl=False)
    if bad:
        raise typer.Exit(1)


def main() -> None:
    interrupted = "interrupted: finished tasks are saved; run the same command again to resume"
    try:
        # Without standalone mode the parser returns a command's exit code (typer.Exit, and 130
        # for Ctrl-C) instead of calling sys.exit, and raises usage errors to us.
        rc = app(standalone_mode=False)
    except UserError as e:
        _err(f"error: {e}")
        sys.exit(2)
    except KeyboardInterrupt:
        _err(interrupted)
        sys.exit(130)
    except Exception as e:  # usage errors of the command-line parser (click, vendored by typer)
        if type(e).__name__ == "Abort":
            _err(interrupted)
            sys.exit(130)
        if hasattr(e, "show") and hasattr(e, "exit_code"):
            e.show()
            sys.exit(2)
        raise
    if isinstance(rc, int) and not isinstance(rc, bool):
        if rc == 130:
            _err(interrupted)
        sys.exit(rc)
