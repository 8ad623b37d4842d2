"""`bncbench run` (run or resume an experiment) and `bncbench folds` (export what one data set's
folds look like to the classifiers)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Annotated, Literal

import typer

from bncbench.cli.common import classifiers_option, datasets_option, err, out_option, split
from bncbench.errors import UserError


def run(config: str = typer.Argument(..., metavar="CONFIG", help="experiment YAML (docs/cli.md: Configuration)"),
        results: str | None = typer.Option(None, metavar="DIR",
                                           help="results directory [default: results/<config name>]"),
        datasets: Annotated[str | None, datasets_option("run only these data sets of the config")] = None,
        classifiers: Annotated[str | None, classifiers_option("run only these classifier labels of the config")] = None,
        jobs: int | None = typer.Option(None, metavar="N",
                                        help="worker processes [default: 1, or the config's executor.jobs]"),
        executor: Literal["local", "dask"] | None = typer.Option(  # experiment.EXECUTORS (tests/cli/test_cli.py)
            None, metavar="NAME", help="local | dask [default: local, or the config's executor.name]"),
        scheduler: str | None = typer.Option(None, metavar="tcp://HOST:PORT",
                                             help="Dask scheduler of an existing cluster [default: a LocalCluster of "
                                                  "--jobs workers]"),
        fresh: bool = typer.Option(False, "--fresh",
                                   help="compute THIS invocation's tasks again (its data sets × classifiers × runs × "
                                        "folds, after --datasets/--classifiers), each replacing its stored result "
                                        "when done (an interrupted fresh run loses nothing); other stored tasks are "
                                        "kept"),
        strict: bool = typer.Option(False, "--strict",
                                    help="a data set that cannot be obtained is an error, not a warning"),
        quiet: bool = typer.Option(False, "--quiet", help="no progress display")):
    """Run (or resume) an experiment; every finished task is stored at once.

    \b
    Running the same command again resumes: finished tasks are skipped. A task
    is re-run when anything that defines it changes: data, preprocessing, folds,
    classifier parameters, or the code that computes it
    (docs/cli.md: Results store).

    \b
    Examples:
      bncbench run configs/default.yaml
      bncbench run configs/stan70.yaml --jobs 4
      bncbench run configs/stan70.yaml --datasets iris,car --classifiers TAN --fresh
      bncbench run configs/stan70.yaml --executor dask --scheduler tcp://10.0.0.5:8786
    """
    # no garbage collection until the runner has loaded what the run needs (engine/warmup.py settle):
    # the modules' and data's objects live as long as the process, and collecting over them during
    # the imports cost ~15 % of their time
    gc.disable()
    try:
        from bncbench import config as cfg
        from bncbench.engine import runner

        exp = cfg.load(config).subset(datasets=split(datasets), classifiers=split(classifiers))
        out = results or str(Path("results") / exp.name)
        name = executor or exp.executor.get("name", "local")
        n_jobs = jobs if jobs is not None else exp.executor.get("jobs", 1)
        if n_jobs < 1:
            raise UserError(f"--jobs must be ≥ 1, got {n_jobs}")
        stats = runner.run(exp, out, jobs=n_jobs, fresh=fresh, quiet=quiet, log=err, strict=strict, executor=name,
                           scheduler=scheduler or exp.executor.get("scheduler"))
        if not quiet:
            replaced = f" ({stats['replaced']} replacing stored results, --fresh)" if fresh else ""
            failed = f", {stats['failed']} failed" if stats["failed"] else ""
            err(f"done: {stats['run']} tasks run{replaced}{failed}, {stats['skipped']} already finished "
                f"({stats['elapsed']}); results in {out}")
        for line in stats["failures"]:  # one per failed cell; the tasks computed are stored (docs/cli.md: run)
            err(line)
        if stats["failures"]:
            raise typer.Exit(2)
    finally:
        gc.enable()


def folds(config: Annotated[str, typer.Argument(metavar="CONFIG", help="experiment YAML")],
          dataset: Annotated[str, typer.Option(metavar="NAME", help="data set of the config")],
          out: Annotated[str, out_option("DIR", "output directory")],
          runs: Annotated[int | None, typer.Option(metavar="N",
                                                   help="number of runs to export [default: all]")] = None,
          raw: Annotated[bool, typer.Option("--raw", help="write the undiscretised rows instead (what a scikit-"
                                                          "learn baseline with input: raw starts from)")] = False):
    """Write each fold's preprocessed train and test set as ARFF (value order = our codes).

    The files (NAME-rR-fF-train.arff, NAME-rR-fF-test.arff; NAME with any character
    but letters, digits, + - . _ written as %XX) hold exactly what the classifiers
    saw, so any result can be re-checked in Weka or another tool. A
    scikit-learn baseline sees these codes one-hot (or ordinal); with --raw the
    files hold the same rows undiscretised (numeric values, ? for a missing one).

    \b
    Example:
      bncbench folds configs/stan70.yaml --dataset car --out folds/car --runs 1
    """
    from bncbench import config as cfg
    from bncbench.engine.units import preprocessed_fold
    from bncbench.preprocess import arff
    from bncbench.utils.names import file_name

    if runs is not None and runs < 1:
        raise UserError(f"--runs must be ≥ 1, got {runs}")
    exp = cfg.load(config).subset(datasets=[dataset])
    spec, cv = exp.datasets[0], exp.cv
    n_written = 0
    for r in range(cv.runs if runs is None else min(runs, cv.runs)):
        for f in range(cv.folds):
            p = preprocessed_fold(spec, exp.preprocess, cv, r, f)
            ds, enc = p.dataset, p.encoded
            names = arff.value_names(ds, enc, p.settings.missing)
            for part, idx, X in (("train", p.train, enc.X_train), ("test", p.test, enc.X_test)):
                relation = f"{spec.name}-r{r}-f{f}-{part}"
                path = Path(out) / f"{file_name(spec.name)}-r{r}-f{f}-{part}.arff"
                if raw:
                    arff.write_raw_arff(path, relation, ds, idx)
                else:
                    arff.write_arff(path, relation, ds, names, X, ds.y[idx])
                n_written += 1
    err(f"wrote {n_written} ARFF files to {out}")
