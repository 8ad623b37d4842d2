"""Command-line interface (thin layer over the library)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from bncbench.errors import UserError


def _plain_argument_help() -> None:
    """Recent typer prints a required argument as `{NAME}` in the usage line and `NAME <str>` in
    the argument list; show `NAME` as click does (tests/test_cli.py checks every --help)."""
    from typer import core

    arg = getattr(core, "TyperArgument", None)
    if arg is None:
        return
    if hasattr(arg, "_usage_display_name"):
        arg._usage_display_name = lambda self: self.display_name_raw + ("..." if self.nargs != 1 else "") \
            if self.required else f"[{self.display_name_raw}]"
    if hasattr(arg, "display_type_rich"):
        arg.display_type_rich = lambda self, ctx: None


_plain_argument_help()

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Reproducible benchmarks of Bayesian network classifiers on UCI data.\n\n"
                       "Start with: bncbench run configs/default.yaml, then bncbench report results/default.")
datasets_app = typer.Typer(no_args_is_help=True, help="The data-set catalog: list, info, fetch, verify. A NAME is a "
                            "catalog name, an alias, or synth:ROWSxATTRSxCLASSES[:seed].")
app.add_typer(datasets_app, name="datasets")


def _version(value: bool) -> None:
    if value:
        from bncbench import __version__

        typer.echo(f"bncbench {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit")) -> None:
    """Reproducible benchmarks of Bayesian network classifiers on UCI data."""


def _err(msg: str) -> None:
    typer.echo(msg, err=True)


def _split(s: Optional[str]) -> list[str] | None:
    return [x.strip() for x in s.split(",") if x.strip()] if s else None


def _select(exp, datasets: list[str] | None, classifiers: list[str] | None):
    from bncbench.data import catalog
    from bncbench.utils.suggest import did_you_mean

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
                raise UserError(f"--datasets: {name!r} is not in the config{did_you_mean(name, list(known))}")
            chosen.append(known[canon])
        exp.datasets = chosen
    if classifiers:
        known = {c.label: c for c in exp.classifiers}
        for lab in classifiers:
            if lab not in known:
                raise UserError(f"--classifiers: no classifier labelled {lab!r} in the config{did_you_mean(lab, list(known))}")
        exp.classifiers = [known[lab] for lab in classifiers]
    return exp


@app.command()
def run(config: str = typer.Argument(..., metavar="CONFIG", help="experiment YAML (see README: Configuration)"),
        results: Optional[str] = typer.Option(None, metavar="DIR", help="results directory [default: results/<config name>]"),
        datasets: Optional[str] = typer.Option(None, metavar="A,B", help="run only these data sets of the config"),
        classifiers: Optional[str] = typer.Option(None, metavar="L1,L2", help="run only these classifier labels of the config"),
        jobs: Optional[int] = typer.Option(None, metavar="N", help="worker processes [default: 1, or the config's executor.jobs]"),
        executor: Optional[str] = typer.Option(None, metavar="NAME", help="local | dask [default: local, or the config's executor.name]"),
        scheduler: Optional[str] = typer.Option(None, metavar="tcp://HOST:PORT", help="Dask scheduler of an existing cluster [default: a LocalCluster of --jobs workers]"),
        fresh: bool = typer.Option(False, "--fresh", help="compute THIS invocation's tasks again (its data sets × classifiers × runs × folds, after --datasets/--classifiers), each replacing its stored result when done (an interrupted fresh run loses nothing); other stored tasks are kept"),
        strict: bool = typer.Option(False, "--strict", help="a data set that cannot be obtained is an error, not a warning"),
        quiet: bool = typer.Option(False, "--quiet", help="no progress display")):
    """Run (or resume) an experiment; every finished task is stored at once.

    Running the same command again resumes: finished tasks are skipped. A task is re-run
    when anything that defines it changes: data, preprocessing, folds, classifier
    parameters, or the code that computes it (README: Results store).

    \b
    Examples:
      bncbench run configs/default.yaml
      bncbench run configs/stan70.yaml --jobs 4
      bncbench run configs/stan70.yaml --datasets iris,car --classifiers TAN --fresh
      bncbench run configs/stan70.yaml --executor dask --scheduler tcp://10.0.0.5:8786
    """
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
        replaced = f" ({stats['replaced']} replacing stored results, --fresh)" if fresh else ""
        _err(f"done: {stats['run']} tasks run{replaced}, {stats['skipped']} already finished ({stats['elapsed']}); "
             f"results in {out}")


@app.command()
def export(results: str = typer.Argument(..., metavar="RESULTS", help="results directory (or its results.sqlite)"),
           out: str = typer.Option(..., "--out", metavar="DIR", help="folder to write the tables into"),
           format: str = typer.Option("parquet", "--format", metavar="FORMAT", help="parquet | csv"),
           predictions: bool = typer.Option(False, "--predictions", help="also write one table of per-instance predictions per data set")):
    """Write the results as tables for pandas, R or a spreadsheet.

    DIR/tasks.FORMAT has one row per stored task (dataset, label, run, fold, n_test,
    train_time, test_time, zol, rmse, rmse_all, cll, logloss, info, current, finished,
    key); with --predictions, DIR/predictions-<data set>.FORMAT has one row per test
    instance (label, run, fold, row, true, predicted, one column P(<class>) per class).
    The same tables in Python: bncbench.results.load(RESULTS).

    \b
    Examples:
      bncbench export results/stan70 --out exports/stan70
      bncbench export results/stan70 --format csv --predictions --out exports/stan70-csv
    """
    from bncbench.results import export as export_tables

    files = export_tables(results, format, out, predictions)
    _err(f"wrote {len(files)} file(s) to {out}: {', '.join(f.name for f in files[:4])}"
         + (", ..." if len(files) > 4 else ""))


@app.command()
def report(results: str = typer.Argument(..., metavar="RESULTS", help="results directory (or its results.sqlite)"),
           metric: str = typer.Option("zol", "--metric", metavar="METRIC", help="what the cells show (metrics listed above)"),
           datasets: Optional[str] = typer.Option(None, "--datasets", metavar="A,B", help="only these data sets [default: all in the results]"),
           classifiers: Optional[str] = typer.Option(None, "--classifiers", metavar="L1,L2", help="only these classifier labels [default: all in the results]"),
           format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex | html"),
           label_metric: Optional[str] = typer.Option(None, "--label-metric", metavar="L=M,...", help="show these classifiers' columns in another metric (e.g. SKDB=rmse_all: paper 004's Table A4); the column is labelled 'L (M)'"),
           out: Optional[str] = typer.Option(None, "--out", metavar="FILE", help="write the report to FILE [default: standard output]"),
           compare_table: Optional[str] = typer.Option(None, "--compare", metavar="TABLE", help="html: add the comparison with a published table (as bncbench compare RESULTS TABLE)")):
    """A paper-style table: one row per data set, one column per classifier, mean ± sd.

    The md and latex tables end with a mean row and an average-rank row (Demšar 2006: per data
    set 1 = best, ties share the average rank), both over the data sets where every shown
    classifier has a value. A data set whose version differs from the paper's is marked † and
    explained under the table. --format csv is the long form dataset,classifier,metric,mean,sd
    at full precision, without summary rows.

    --format html is one self-contained page (no network; open it in any browser): the
    provenance (bncbench version, machine, config, data files and checksums), the table of
    every metric the results have (--metric is not needed), the W/D/L matrices with sign-test
    p-values (the config's wdl: settings), the figures of bncbench figures as inline SVG, and
    with --compare TABLE the comparison of bncbench compare (in the table's metrics that the
    results have). Click a column header to sort.

    \b
    Metrics (--metric; lower is better except accuracy and cll):
      zol         zero-one loss (error rate)
      accuracy    percent correct, 100 (1 - zol)
      rmse        root mean squared error of the true class's probability
      rmse_all    root mean squared error over all classes' probabilities
      cll         conditional log-likelihood, summed over the test instances
      logloss     mean -log2 of the true class's probability
      bias        Kohavi-Wolpert bias (needs cv.runs >= 2)
      variance    Kohavi-Wolpert variance (needs cv.runs >= 2)
      train_time  seconds to train, mean over folds
      test_time   seconds to classify the test fold, mean over folds
      selected    attributes a selective classifier (STAN) kept, mean over folds
      elimination share of attributes a model eliminated (paper 003 §6.6),
                  mean over test instances

    \b
    Examples:
      bncbench report results/default
      bncbench report results/stan70 --metric rmse --format latex
      bncbench report results/stan70 --datasets iris,car --classifiers TAN,AODE
      bncbench report results/ait36/results.sqlite --metric bias
      bncbench report results/stan70 --format csv > stan70-zol.csv
      bncbench report results/ait36 --metric rmse --label-metric SKDB=rmse_all
      bncbench report results/default --format html --out report.html
      bncbench report results/stan70 --format html --compare papers/000/dev.tsv
    """
    from bncbench.evaluate.metrics import METRICS
    from bncbench.evaluate.report import format_report
    from bncbench.results import store_differences
    from bncbench.results import summarize_store

    if format == "html":
        if label_metric:
            raise UserError("--label-metric is for md, csv and latex; the html report shows every metric")
        _write(_html_report(results, compare_table, _split(datasets), _split(classifiers)), out)
        return
    if compare_table:
        raise UserError("--compare is for --format html; `bncbench compare RESULTS TABLE` prints the comparison")
    if format not in ("md", "csv", "latex", "html"):
        raise UserError(f"--format: {format!r} is not one of md, csv, latex, html")
    s = summarize_store(results, metric, _split(datasets), _split(classifiers))
    if s.status_line():
        _err(f"warning: {s.status_line()}")
    labels, values = s.labels, s.values
    if label_metric:
        swaps = {}
        for item in _split(label_metric) or []:
            lab, sep, m = item.partition("=")
            if not sep or lab not in s.labels or m not in METRICS:
                raise UserError(f"--label-metric: {item!r} is not LABEL=METRIC with a label of the results "
                                f"({', '.join(s.labels)}) and a metric ({', '.join(METRICS)})")
            swaps[lab] = m
        labels, values = [], dict(values)
        for lab in s.labels:
            if lab not in swaps:
                labels.append(lab)
                continue
            other = summarize_store(results, swaps[lab], s.datasets, [lab])
            shown = f"{lab} ({swaps[lab]})"
            labels.append(shown)
            for d in s.datasets:
                values[(d, shown)] = other.values[(d, lab)]
    marks = store_differences(results, s.datasets) if format != "csv" else {}
    _write(format_report(s.datasets, labels, values, metric, format, marks), out)


def _write(text: str, out: str | None) -> None:
    """`text` to standard output, or (atomically) to the file `out`."""
    if out is None:
        typer.echo(text, nl=False)
        return
    from bncbench.utils.files import atomic_write

    try:
        with atomic_write(Path(out), "w", encoding="utf-8", public=True) as f:
            f.write(text)
    except OSError as e:
        raise UserError(f"--out {out}: cannot write ({e.strerror})") from None
    _err(f"wrote {out}")


def _html_report(results: str, table: str | None, datasets: list[str] | None, classifiers: list[str] | None) -> str:
    """The page of `report --format html`: gathers from the store what evaluate/html.py renders."""
    import math

    from bncbench import __version__
    from bncbench.data import catalog, describe
    from bncbench.evaluate import html
    from bncbench.evaluate.figures import figures_for_html
    from bncbench.evaluate.metrics import METRICS, REPEATED_RUN_METRICS
    from bncbench.results import (store_differences, stored_config, stored_provenance, stored_wdl_settings,
                                  summarize_store)

    first = summarize_store(results, METRICS[0], datasets, classifiers)  # checks the store and the filters
    summaries = [first]
    for m in METRICS[1:]:
        try:
            s = summarize_store(results, m, first.datasets, first.labels)
        except UserError:  # only a repeated-run metric of a one-run store
            if m not in REPEATED_RUN_METRICS:
                raise
            continue
        if any(not math.isnan(mean) for mean, _ in s.values.values()):
            summaries.append(s)
    files = []
    for d in first.datasets:
        try:
            entry = catalog.entry(d)
        except UserError:
            files.append((d, "not in the catalog (its file's checksum is part of every task key)", ""))
            continue
        if describe.kind(d) == "files":
            files += [(d, f"{f['source']}:{f['path']}", f.get("sha256", "")) for f in entry["files"]]
        else:
            files.append((d, describe.origin(d), ""))
    name = ", ".join(first.configs) or Path(results).name
    return html.render(html.ReportInput(
        title=f"bncbench report: {name}", version=__version__, provenance=stored_provenance(results), config=stored_config(results),
        data_files=files, summaries=summaries, differences=store_differences(results, first.datasets),
        wdl=stored_wdl_settings(results), figures=figures_for_html(results),
        comparison=_comparison(results, table, [s.metric for s in summaries], classifiers, None) if table else None,
        comparison_source=table or ""))


@app.command()
def wdl(path: str = typer.Argument(..., metavar="RESULTS|TABLE", help="results directory (or its results.sqlite), or a wide table file (TSV/CSV)"),
        metric: Optional[str] = typer.Option(None, "--metric", metavar="METRIC", help="metric to compare, as for report [default: the config's wdl.metric, else zol]; for a table: the name of its values"),
        draw: Optional[str] = typer.Option(None, "--draw", metavar="RULE", help="exact4 | relative:F [default: the config's, else exact4]"),
        draws: Optional[str] = typer.Option(None, "--draws", metavar="HOW", help="split | ignore: draws in the sign test [default: the config's, else split]"),
        tails: Optional[str] = typer.Option(None, "--tails", metavar="N", help="one | two [default: the config's, else one]"),
        higher_is_better: bool = typer.Option(False, "--higher-is-better", help="a table's values are better when higher (accuracy, CLL)"),
        datasets: Optional[str] = typer.Option(None, "--datasets", metavar="A,B", help="only these data sets [default: all]"),
        classifiers: Optional[str] = typer.Option(None, "--classifiers", metavar="L1,L2", help="only these classifiers [default: all]"),
        rows: Optional[str] = typer.Option(None, "--rows", metavar="L1,L2", help="row classifiers [default: all shown]"),
        columns: Optional[str] = typer.Option(None, "--columns", metavar="L1,L2", help="column classifiers [default: all shown]"),
        format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex")):
    """Win/draw/loss matrix (row vs column) and binomial sign-test p-values.

    For a results directory, options not given default to the `wdl:` section of the config the
    results were run with (paper 004's configs say relative:0.05), then zol / exact4 / split /
    one. Data sets not finished for every shown classifier are left out (said on stderr), so
    every pair is compared on the same data sets. The output states the data sets used, the
    draw rule, the sign test and the metric's direction; csv adds a column n (data sets used).

    A wide table has a header (dataset, classifier, classifier, ...) and one row per data
    set; a cell is a number or 'mean ± sd' (also +- or +/-; only the mean is used). Cells -,
    –, —, n/a or empty are missing: a pair leaves out the data sets where either has one.
    A known --metric gives the direction; otherwise lower is better, or with
    --higher-is-better higher is.

    \b
    Metrics (--metric, results; lower is better except accuracy and cll):
      zol, accuracy, rmse, rmse_all, cll, logloss, bias, variance,
      train_time, test_time, selected, elimination (described in bncbench
      report --help)

    \b
    Examples:
      bncbench wdl results/stan70
      bncbench wdl results/stan70 --metric rmse --rows STAN-MRMR
      bncbench wdl results/ait36/results.sqlite --metric bias
      bncbench wdl results/default --draw relative:0.05 --draws ignore
      bncbench wdl table2.tsv --higher-is-better --tails two --format csv
    """
    from bncbench.utils.suggest import did_you_mean
    from bncbench.evaluate.metrics import LOWER_IS_BETTER, METRICS
    from bncbench.evaluate.report import difference_legend
    from bncbench.evaluate.wide_table import read_wide_table
    from bncbench.results import store_differences
    from bncbench.evaluate.stats import parse_draw
    from bncbench.evaluate.wdl import coverage_notes, format_wdl, matrix, settings_notes
    from bncbench.results import summarize_store

    p = Path(path)
    defaults = {"metric": "zol", "draw": "exact4", "draws": "split", "tails": "one"}
    # A store is a directory or a .sqlite file (read_wide_table refuses an SQLite file by another name).
    is_store = p.is_dir() or p.suffix == ".sqlite"
    if not is_store and not p.is_file():
        raise UserError(f"{path}: no such results directory or table file")
    if is_store:
        if higher_is_better:
            raise UserError("--higher-is-better is for a wide table; a results store's metric has its own direction")
        from bncbench.results import stored_wdl_settings

        defaults.update(stored_wdl_settings(path))
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
    want_ds, want_lab = _split(datasets), _split(classifiers)
    excluded: list[str] = []
    if is_store:
        metric = metric or defaults["metric"]
        s = summarize_store(path, metric, want_ds, want_lab)
        if s.status_line():
            _err(f"warning: {s.status_line()}")
        ds, labels, values = s.datasets, s.labels, s.values
        lower = LOWER_IS_BETTER[metric]
    else:
        ds, labels, values = read_wide_table(path)
        if metric in METRICS and higher_is_better and LOWER_IS_BETTER[metric]:
            raise UserError(f"--higher-is-better contradicts --metric {metric} (lower is better)")
        lower = LOWER_IS_BETTER[metric] if metric in METRICS else not higher_is_better
        metric = metric or f"values of {p.name}"
        for opt, wanted, available in (("--datasets", want_ds, ds), ("--classifiers", want_lab, labels)):
            for w in wanted or []:
                if w not in available:
                    raise UserError(f"{opt}: {w!r} is not in {path}{did_you_mean(w, available)}; "
                                    f"available: {', '.join(available)}")
        ds = [d for d in ds if not want_ds or d in want_ds]
        labels = [lab for lab in labels if not want_lab or lab in want_lab]
    row_labels, col_labels = labels, labels
    for opt, chosen in (("--rows", _split(rows)), ("--columns", _split(columns))):
        if chosen:
            for lab in chosen:
                if lab not in labels:
                    raise UserError(f"{opt}: no classifier {lab!r}{did_you_mean(lab, labels)}; available: {', '.join(labels)}")
            if opt == "--rows":
                row_labels = chosen
            else:
                col_labels = chosen
    if is_store:  # every pair on the same data sets: those finished for every classifier of the matrix
        shown = set(row_labels) | set(col_labels)
        excluded = [d for d in ds if shown & set(s.incomplete.get(d, []))]
        if excluded:
            _err(f"wdl: left out {len(excluded)} incomplete data set(s): {', '.join(excluded)}")
        ds = [d for d in ds if d not in excluded]
    mat = matrix(ds, labels, values, draw, lower, draws, tails)
    notes = (coverage_notes(ds, values, row_labels, col_labels, excluded)
             + settings_notes(metric, lower, draw, draws, tails))
    if is_store:
        notes += difference_legend(ds, store_differences(path, ds))
    typer.echo(format_wdl(row_labels, col_labels, mat, format, metric, notes), nl=False)


@app.command()
def compare(results: str = typer.Argument(..., metavar="RESULTS", help="results directory (or its results.sqlite)"),
            table: str = typer.Argument(..., metavar="TABLE", help="a published wide table (TSV/CSV), e.g. papers/000/dev.tsv"),
            metric: Optional[str] = typer.Option(None, "--metric", metavar="M[,M2]", help="compare only these metrics; plain columns hold the first [default: every metric the headers name; plain columns zol]"),
            classifiers: Optional[str] = typer.Option(None, "--classifiers", metavar="L1,L2", help="only these classifier labels of the results"),
            map_: Optional[str] = typer.Option(None, "--map", metavar="PAPER=OURS,...", help="the table's classifier names that differ from our labels"),
            format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex")):
    """Our results beside a published table, value by value, at the table's printed precision.

    TABLE is a wide table as wdl reads it: a header (dataset, classifier, ...) and one row
    per data set; a cell is 'mean' or 'mean ± sd' (-, n/a or empty: not printed). A header
    'NAME (METRIC)' holds METRIC (e.g. 'TAN (rmse)'), a plain header the first --metric (zol).
    Data-set names may be catalog aliases. Every printed mean and sd gets a row: ours rounded
    to the printed decimals as report rounds (printf on the double), the paper's, the
    difference (ours as printed − paper) and equal (yes/no); then per classifier equal /
    compared and max |difference|, and the table's data sets not in the results. --format
    csv prints exactly dataset,classifier,statistic,ours,paper,difference,equal (statistic
    'zol mean', 'rmse sd', ...; ours at full precision) and the totals on stderr.

    \b
    Examples:
      bncbench compare results/stan70 papers/000/dev.tsv
      bncbench compare results/stan70 table3.tsv --map STANMRMR=STAN-MRMR,KDB=KDB1
      bncbench compare results/ait36 papers/004/dev.tsv --metric zol,rmse,rmse_all
      bncbench compare results/stan70 table2.csv --metric rmse --classifiers TAN --format csv
    """
    from bncbench.evaluate.compare import format_comparison, notes

    if format not in ("md", "csv", "latex"):
        raise UserError(f"--format: {format!r} is not one of md, csv, latex")
    result = _comparison(results, table, _split(metric), _split(classifiers), map_)
    typer.echo(format_comparison(result, format), nl=False)
    if format == "csv":
        for line in notes(result):
            _err(line)


def _comparison(results: str, table: str, metrics: list[str] | None, only: list[str] | None, map_: str | None):
    """`evaluate.compare.compare` of a results store and a published table (compare, report --compare)."""
    from bncbench.data import catalog
    from bncbench.evaluate import compare as cmp
    from bncbench.results import summarize_store

    mapping = {}
    for item in _split(map_) or []:
        paper, sep, ours = item.partition("=")
        if not sep or not paper.strip() or not ours.strip():
            raise UserError(f"--map: {item!r} is not PAPER=OURS")
        mapping[paper.strip()] = ours.strip()
    published = cmp.read_published(table)
    first = (metrics or ["zol"])[0]
    summaries = {first: summarize_store(results, first, None, only)}
    plan = cmp.plan_columns(published, metrics, mapping, summaries[first].labels, only)
    ours = {}
    for m in plan.metrics:
        s = summaries.get(m) or summarize_store(results, m, None, only)
        if s.status_line():
            _err(f"warning ({m}): {s.status_line()}")
        ours[m] = (s.datasets, s.labels, s.values)

    def resolve(name: str) -> str | None:
        try:
            return catalog.resolve(name)
        except UserError:
            return None

    return cmp.compare(published, plan, ours, resolve)


@app.command()
def rcll(results: str = typer.Argument(..., metavar="RESULTS", help="results directory (or its results.sqlite)"),
         pairs: str = typer.Option(..., "--pairs", metavar="A:B,...", help="classifier A against its baseline B"),
         datasets: Optional[str] = typer.Option(None, "--datasets", metavar="A,B", help="only these data sets [default: all]"),
         format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex")):
    """Relative conditional log-likelihood per data set (paper 004 eq. 11, Fig. 7).

    rCLL(A|B) = CLL(A) / CLL(B), with CLL summed over the test instances. CLLs are negative,
    so A has the higher (better) likelihood when rCLL < 1; the lines under the table count
    both readings (paper 004 calls rCLL ≥ 1 better; ALGORITHMS.md §5.4).

    
    Example:
      bncbench rcll results/ait36 --pairs TAN-AIT:TAN,KDB-AIT:KDB
    """
    from bncbench.evaluate.paired import parse_pairs, rcll_rows
    from bncbench.evaluate.report import format_grid
    from bncbench.results import summarize_store

    try:
        pair_list = parse_pairs(pairs)
    except ValueError as e:
        raise UserError(f"--pairs: {e}") from None
    s = summarize_store(results, "cll", _split(datasets), sorted({x for p in pair_list for x in p}))
    if s.status_line():
        _err(f"warning: {s.status_line()}")
    header, rows, notes = rcll_rows(s.datasets, s.values, pair_list)
    typer.echo(format_grid(header, rows, format, notes=notes), nl=False)


@app.command()
def gd(results: str = typer.Argument(..., metavar="RESULTS", help="results directory (or its results.sqlite)"),
       pairs: str = typer.Option(..., "--pairs", metavar="A:B,...", help="classifier A against B"),
       metric: str = typer.Option("zol", "--metric", metavar="METRIC", help="metric compared, as for report"),
       draw: Optional[str] = typer.Option(None, "--draw", metavar="RULE", help="exact4 | relative:F [default: the config's, else exact4]"),
       format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex")):
    """Goal-difference curves GD(A; B | S_t), t = 1..N (paper 004 eq. 9, Fig. 3).

    S_t holds the first t data sets in the config's order (paper 004's Table 1 order: by
    instances); GD counts A's wins minus its losses on them, with the W/D/L draw rule.

    
    Example:
      bncbench gd results/ait36 --pairs TAN-AIT:TAN,KDB-AIT:KDB
    """
    from bncbench.evaluate.metrics import LOWER_IS_BETTER, METRICS
    from bncbench.evaluate.paired import gd_rows, parse_pairs
    from bncbench.evaluate.report import format_grid
    from bncbench.evaluate.stats import parse_draw
    from bncbench.results import stored_wdl_settings, summarize_store

    if metric not in METRICS:
        raise UserError(f"--metric: unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    try:
        pair_list = parse_pairs(pairs)
    except ValueError as e:
        raise UserError(f"--pairs: {e}") from None
    rule = draw or stored_wdl_settings(results).get("draw", "exact4")
    try:
        parse_draw(rule)
    except ValueError as e:
        raise UserError(f"--draw: {e}") from None
    s = summarize_store(results, metric, None, sorted({x for p in pair_list for x in p}))
    if s.status_line():
        _err(f"warning: {s.status_line()}")
    header, rows = gd_rows(s.datasets, s.values, pair_list, rule, LOWER_IS_BETTER[metric])
    typer.echo(format_grid(header, rows, format, notes=[f"{metric}, draw rule {rule}; data sets in the config's order"]),
               nl=False)


@app.command()
def figures(results: str = typer.Argument(..., metavar="RESULTS", help="results directory (or its results.sqlite)"),
            out: Optional[str] = typer.Option(None, "--out", metavar="DIR", help="folder to write into [default: RESULTS/figures]"),
            format: str = typer.Option("png", "--format", metavar="FORMAT", help="png | svg | pdf, or several: png,svg"),
            only: Optional[str] = typer.Option(None, "--only", metavar="NAME", help="scatter | times | wdl | gd | biasvar, or several: wdl,gd [default: the config's figures: section, else all]"),
            a: Optional[str] = typer.Option(None, "--a", metavar="LABEL", help="scatter: classifier on the x axis [default: the config's, else the first]"),
            b: Optional[str] = typer.Option(None, "--b", metavar="LABEL", help="scatter: classifier on the y axis [default: the config's, else the second]"),
            metric: Optional[str] = typer.Option(None, "--metric", metavar="M[,M2]", help="scatter, wdl, gd: metric(s), one file each [default: the config's figures:, else its wdl.metric, else zol]"),
            rows: Optional[str] = typer.Option(None, "--rows", metavar="L1,L2", help="wdl: classifiers compared against each other one [default: the config's, else the first]"),
            pairs: Optional[str] = typer.Option(None, "--pairs", metavar="A:B,...", help="gd: GD(A; B) curves [default: the config's, else the first two labels]")):
    """The papers' figures as PNG, SVG or PDF files (matplotlib).

    \b
    Figures (--only NAME; files NAME.FORMAT, NAME-METRIC.FORMAT for several metrics):
      scatter  A's metric (x) against B's (y) per data set, the diagonal, points
               coloured by instances (paper 000 Fig. 2)
      times    mean training and test time per classifier over the data sets
               (paper 000 Fig. 3, paper 004 Fig. 8)
      wdl      wins/draws/losses of --rows against each other classifier, data
               sets with < 2000 and >= 2000 instances (paper 004 Figs. 4-6; the
               draw rule of the config's wdl: section)
      gd       goal-difference curves GD(A; B | S_t) (paper 004 Fig. 3)
      biasvar  bias and variance stacked per classifier (repeated runs only;
               skipped with a note when making all figures)
    Options override the figures: section of the config the results were run
    with (README: figures). The same results give byte-identical files.

    \b
    Examples:
      bncbench figures results/default
      bncbench figures results/stan70 --format png,svg --out results/stan70/figures
      bncbench figures results/stan70 --only scatter --a TAN --b STAN-MRMR --metric rmse
      bncbench figures results/ait36 --only gd --pairs TAN-AIT:TAN,KDB-AIT:KDB
    """
    from bncbench.evaluate import figures as fg
    from bncbench.evaluate.metrics import METRICS
    from bncbench.evaluate.paired import parse_pairs

    formats = _split(format) or []
    for f in formats:
        if f not in fg.FORMATS:
            raise UserError(f"--format: {f!r} is not one of {', '.join(fg.FORMATS)}")
    metrics = _split(metric)
    for m in metrics or []:
        if m not in METRICS:
            raise UserError(f"--metric: unknown metric {m!r}; choose one of {', '.join(METRICS)}")
    try:
        pair_list = parse_pairs(pairs) if pairs else None
    except ValueError as e:
        raise UserError(f"--pairs: {e}") from None
    if not formats:
        raise UserError("--format: give png, svg or pdf")
    src = fg.Source(results)
    options = fg.Options(a, b, metrics, _split(rows), pair_list)
    wanted = _split(only)
    made = []
    for kind in fg.kinds(src, wanted):
        try:
            made += fg.plots(src, [kind], options)
        except fg.NotApplicable as e:
            if wanted:
                raise
            _err(f"skipped {e}")
    folder = Path(out) if out else (Path(results) if Path(results).is_dir() else Path(results).parent) / "figures"
    written = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for p in made:
            for f in formats:
                (folder / f"{p.name}.{f}").write_bytes(fg.render(p, f))
                written.append(f"{p.name}.{f}")
    except OSError as e:
        raise UserError(f"--out {folder}: cannot write the figures ({e.strerror})") from None
    for note in dict.fromkeys(n for p in made for n in p.notes):
        _err(note)
    _err(f"wrote {len(written)} file(s) to {folder}: {', '.join(written)}")


@app.command()
def claims(claims_file: str = typer.Argument(..., metavar="CLAIMS", help="claims file (e.g. papers/ait36/claims.yaml)"),
           results: Optional[list[str]] = typer.Option(None, "--results", metavar="NAME=DIR", help="read the file's results NAME from DIR (repeatable)"),
           format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex")):
    """A paper's headline claims and printed W/D/L tables beside our runs.

    Each claim gets the printed value, ours and a verdict (holds / direction only / does not
    hold; bncbench/evaluate/claims.py says how each kind is judged); then each printed W/D/L
    table with ours in every cell ("printed / ours", * where they differ). Nothing is tuned
    toward a claim.

    
    Example:
      bncbench claims papers/ait36/claims.yaml
      bncbench claims papers/ait36/claims.yaml --results main=runs/ait36
    """
    from bncbench.evaluate import claims as cl
    from bncbench.evaluate.report import format_grid
    from bncbench.results import summarize_store

    overrides = {}
    for item in results or []:
        name, sep, folder = item.partition("=")
        if not sep or not name or not folder:
            raise UserError(f"--results: {item!r} is not NAME=DIR")
        overrides[name] = folder
    spec = cl.load(claims_file, overrides)
    cache: dict = {}

    def summary(name: str, metric: str):
        if (name, metric) not in cache:
            folder = spec["results"][name]
            if not Path(folder).exists():
                raise UserError(f"{claims_file}: results {name!r} at {folder} do not exist; run the config first "
                                f"or give --results {name}=DIR")
            cache[(name, metric)] = summarize_store(folder, metric)
        return cache[(name, metric)]

    verdicts = cl.evaluate(spec, summary)
    out = [format_grid(["claim", "printed", "ours", "verdict"], [[v.text, v.printed, v.ours, v.verdict] for v in verdicts],
                       format, caption=f"Claims of paper {spec.get('paper', '')}")]
    held = sum(v.verdict == "holds" for v in verdicts)
    if format != "csv":
        out.append(f"\n{held} of {len(verdicts)} claims hold in our runs.\n\n")
    for caption, header, rows in cl.table_comparison(spec, summary):
        out.append(format_grid(header, rows, format, caption=caption) + ("\n" if format != "csv" else ""))
    typer.echo("".join(out), nl=False)


@app.command()
def folds(config: str = typer.Argument(..., metavar="CONFIG", help="experiment YAML"),
          dataset: str = typer.Option(..., metavar="NAME", help="data set of the config"),
          out: str = typer.Option(..., metavar="DIR", help="output directory"),
          runs: Optional[int] = typer.Option(None, metavar="N", help="number of runs to export [default: all]")):
    """Write each fold's preprocessed train and test set as ARFF (value order = our codes).

    The files (NAME-rR-fF-train.arff, NAME-rR-fF-test.arff) hold exactly what the
    classifiers saw, so any result can be re-checked in Weka or another tool.

    \b
    Example:
      bncbench folds configs/stan70.yaml --dataset car --out folds/car --runs 1
    """
    from bncbench import config as cfg
    from bncbench.engine.units import preprocessed_fold
    from bncbench.preprocess import arff

    exp = _select(cfg.load(config), [dataset], None)
    spec, cv = exp.datasets[0], exp.cv
    n_written = 0
    for r in range(cv.runs if runs is None else min(runs, cv.runs)):
        for f in range(cv.folds):
            p = preprocessed_fold(spec, exp.preprocess, cv.scheme, cv.folds, r, f, cv.seed, cv.divisor or 3)
            ds, enc = p.dataset, p.encoded
            names = arff.value_names(ds, enc, p.settings.missing)
            for part, idx, X in (("train", p.train, enc.X_train), ("test", p.test, enc.X_test)):
                arff.write_arff(Path(out) / f"{spec.name}-r{r}-f{f}-{part}.arff", f"{spec.name}-r{r}-f{f}-{part}",
                                ds, names, X, ds.y[idx])
                n_written += 1
    _err(f"wrote {n_written} ARFF files to {out}")


@datasets_app.command("list")
def datasets_list(format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex")):
    """List the catalog: the papers' counts, differences, sources.

    One row per catalog data set with the paper's instances, attributes and classes.
    "differs" marks the data sets whose copy here differs from the paper's (our counts
    follow; `bncbench datasets info NAME` says why). "source" is the data files, or for a
    generated data set the generator it is built with. Synthetic sets
    (synth:ROWSxATTRSxCLASSES[:seed]) are not listed: any such name works.

    \b
    Examples:
      bncbench datasets list
      bncbench datasets list --format csv > catalog.csv
    """
    from bncbench.data import catalog, describe
    from bncbench.evaluate.report import format_grid

    rows = []
    for name in catalog.names():
        paper, ours, diff = catalog.expected_counts(name)
        differs = f"yes (ours {describe.counts_text(ours)})" if diff else ""
        rows.append([name, str(paper.get("instances", "")), str(paper.get("attributes", "")),
                     str(paper.get("classes", "")), differs, describe.origin(name)])
    typer.echo(format_grid(["name", "instances", "attributes", "classes", "differs", "source"], rows, format), nl=False)


@datasets_app.command("info")
def datasets_info(name: str = typer.Argument(..., metavar="NAME",
                                     help="catalog name or alias, or synth:ROWSxATTRSxCLASSES[:seed]")):
    """Show one data set's catalog entry (YAML).

    Files with checksums (or the generator and its parameters), the paper's counts,
    our version's counts and the documented difference where they differ, notes.
    For a synthetic name: its rows, attributes, classes and seed.

    \b
    Examples:
      bncbench datasets info iris
      bncbench datasets info waveform
      bncbench datasets info synth:500x4x3:7
    """
    import yaml

    from bncbench.data import catalog

    canonical = catalog.resolve(name)
    typer.echo(yaml.safe_dump({canonical: catalog.entry(canonical)}, sort_keys=False, width=100), nl=False)


@datasets_app.command("fetch")
def datasets_fetch(name: str = typer.Argument(..., metavar="NAME",
                                     help="catalog name or alias, or synth:ROWSxATTRSxCLASSES[:seed]")):
    """Obtain a data set's files and verify their checksums.

    Each file is taken from the download cache (BNCBENCH_CACHE, default datasets/cache),
    the mirror folder or URL in BNCBENCH_MIRROR, the small mirror shipped in
    datasets/mirror, or downloaded from its source into the cache. Generated and
    synthetic data sets have nothing to fetch.

    \b
    Examples:
      bncbench datasets fetch iris
      BNCBENCH_MIRROR=../shared/uci bncbench datasets fetch adult
    """
    from bncbench.data import catalog, describe
    from bncbench.errors import DataUnavailable

    canonical = catalog.resolve(name)
    entry = catalog.entry(canonical)
    if describe.kind(canonical) != "files":
        typer.echo(f"{canonical} is {describe.origin(canonical)}; nothing to fetch")
        return
    for spec in entry["files"]:
        label = f"{spec['source']}:{spec['path']}"
        try:
            path = catalog.locate(spec)
        except DataUnavailable:
            if not spec.get("optional"):
                raise
            typer.echo(f"{label}: not held (optional file, used when present)")
            continue
        typer.echo(f"{label} -> {path} ({'sha256 ok' if spec.get('sha256') else 'no published checksum'})")


@datasets_app.command("verify")
def datasets_verify(name: Optional[str] = typer.Argument(None, metavar="NAME",
                                     help="catalog name or alias, or synth:ROWSxATTRSxCLASSES[:seed]"),
                    all_: bool = typer.Option(False, "--all", help="every catalog data set instead of one NAME"),
                    format: str = typer.Option("md", "--format", metavar="FORMAT", help="md | csv | latex")):
    """Load data sets and check their counts.

    Instances, attributes and occurring classes are compared with the paper's counts
    ("ok") or with our version's documented difference ("documented difference").
    Generated data sets are built from their definition; a synthetic set is sampled
    and checked against the counts in its name. Exit code 0 only when every data set
    that could be loaded matches; data sets held nowhere are listed as not available.

    \b
    Examples:
      bncbench datasets verify iris
      bncbench datasets verify synth:500x4x3:7
      BNCBENCH_MIRROR=../shared/uci bncbench datasets verify --all --format csv
    """
    from bncbench.data import catalog
    from bncbench.data.verify import HEADER, verify
    from bncbench.evaluate.report import format_grid

    if bool(name) == all_:
        raise UserError("give one data-set NAME or --all, e.g. `bncbench datasets verify iris`")
    if format not in ("md", "csv", "latex"):  # before loading anything (the message of format_grid)
        raise UserError(f"unknown format {format!r}; choose md, csv or latex")
    checks = verify(catalog.names() if all_ else [catalog.resolve(name)], errors_as_rows=all_)
    typer.echo(format_grid(HEADER, [c.row() for c in checks], format), nl=False)
    if any(c.failed for c in checks):
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
