"""`bncbench fit`: one classifier of a config fitted on every row of a data set, saved as a model
file and, where it is one Bayesian network, as BIF (docs/models.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bncbench.cli.common import err, out_option
from bncbench.errors import UserError


def fit(config: Annotated[str, typer.Argument(metavar="CONFIG", help="experiment YAML")],
        dataset: Annotated[str, typer.Option(metavar="NAME", help="data set of the config")],
        classifier: Annotated[str, typer.Option(metavar="LABEL", help="classifier label of the config")],
        out: Annotated[str, out_option("DIR", "output directory (created if needed)")]):
    """Fit a classifier on every row of a data set and save it (model file, BIF).

    The config's preprocessing (with the data set's own overrides) is fitted on
    every row, then the classifier as `run` builds it. Writes DIR/NAME-LABEL.bncmodel
    (the preprocessing and the fitted classifier: `bncbench predict` reads it;
    docs/models.md) and, for a classifier that is one Bayesian network (NB, TAN,
    STAN, KDB, SKDB, FKDB, BAN, KBAN, AIT without local networks),
    DIR/NAME-LABEL.bif with the very probabilities it predicts with; for an
    ensemble one line says why no single network exists. NAME and LABEL with any
    character but letters, digits, + - . _ written as %XX.

    \b
    Example:
      bncbench fit configs/default.yaml --dataset car --classifier TAN --out models
    """
    from bncbench import config as cfg
    from bncbench.models import bif, fitting
    from bncbench.utils.names import file_name

    folder = Path(out)
    if (folder.exists() or folder.is_symlink()) and not folder.is_dir():
        raise UserError(f"--out {out}: exists and is not a folder (a file or a broken link); name a folder "
                        f"(created if needed)")
    exp = cfg.load(config).subset(datasets=[dataset], classifiers=[classifier], options=("--dataset", "--classifier"))
    spec, cspec = exp.datasets[0], exp.classifiers[0]
    model = fitting.fit(spec, cspec, exp.preprocess)
    stem = folder / f"{file_name(spec.name)}-{file_name(cspec.label)}"
    path, bif_path = (stem.with_name(stem.name + suffix) for suffix in (".bncmodel", ".bif"))
    network = bif.network(model)
    try:
        fitting.save(model, path)
        err(f"wrote {path}")
        if not isinstance(network, str):
            bif.write(network, bif_path)
            err(f"wrote {bif_path}")
    except OSError as e:
        raise UserError(f"--out {out}: cannot write ({e.strerror})") from None
    if isinstance(network, str):
        typer.echo(f"no BIF for {cspec.label}: {network}")
