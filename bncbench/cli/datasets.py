"""`bncbench datasets list | info | fetch | verify`: the data-set catalog."""

from __future__ import annotations

import typer

from bncbench.cli.common import CaptionOpt, FormatOpt, LabelOpt, check_latex, latex_text
from bncbench.errors import UserError

app = typer.Typer(no_args_is_help=True, help="The data-set catalog: list, info, fetch, verify; describe: what a "
                  "config's data sets, a data file or a catalog data set hold, and which column is the class. A NAME "
                  "is a catalog name, an alias, or synth:ROWSxATTRSxCLASSES[:seed].")


@app.command("list")
def datasets_list(format: FormatOpt = "md", caption: CaptionOpt = None, label: LabelOpt = None):
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

    check_latex(format, caption, label, True)
    rows = []
    for name in catalog.names():
        paper, ours, diff = catalog.expected_counts(name)
        differs = f"yes (ours {describe.counts_text(ours)})" if diff else ""
        rows.append([name, str(paper.get("instances", "")), str(paper.get("attributes", "")),
                     str(paper.get("classes", "")), differs, describe.origin(name)])
    text = format_grid(["name", "instances", "attributes", "classes", "differs", "source"], rows, format,
                       caption="The data sets of the catalog with the papers' instances, attributes and classes"
                       if format == "latex" else "")
    typer.echo(latex_text(text, format, caption, label, True), nl=False)


@app.command("info")
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


@app.command("fetch")
def datasets_fetch(name: str = typer.Argument(..., metavar="NAME",
                                     help="catalog name or alias, or synth:ROWSxATTRSxCLASSES[:seed]")):
    """Obtain a data set's files and verify their checksums.

    Each file is taken from the download cache (BNCBENCH_CACHE, default
    ~/.cache/bncbench), the mirror (BNCBENCH_MIRROR, a folder or URL; default
    ../shared/uci beside the checkout when it exists), the small mirror shipped in
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


@app.command("verify")
def datasets_verify(name: str | None = typer.Argument(None, metavar="NAME",
                                     help="catalog name or alias, or synth:ROWSxATTRSxCLASSES[:seed]"),
                    all_: bool = typer.Option(False, "--all", help="every catalog data set instead of one NAME"),
                    format: FormatOpt = "md", caption: CaptionOpt = None, label: LabelOpt = None):
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
    check_latex(format, caption, label, True)
    checks = verify([catalog.resolve(name)] if name and not all_ else catalog.names(), errors_as_rows=all_)
    text = format_grid(HEADER, [c.row() for c in checks], format,
                       caption="Data sets loaded and their counts checked against the papers'"
                       if format == "latex" else "")
    typer.echo(latex_text(text, format, caption, label, True), nl=False)
    if any(c.failed for c in checks):
        raise typer.Exit(1)


@app.command("describe")
def datasets_describe(target: str = typer.Argument(..., metavar="CONFIG|FILE|NAME",
                                                   help="an experiment YAML (its data sets), a CSV/TSV/ARFF file, or "
                                                        "a catalog name"),
                      class_: str | None = typer.Option(None, "--class", metavar="COLUMN",
                                                        help="a FILE's class column: a name, or an index (0 the first, "
                                                             "-1 the last) [default: the last column]"),
                      folds: int | None = typer.Option(None, "--folds", metavar="N",
                                                       help="the folds a class value needs rows for [default: the "
                                                            "config's cv.folds, else 10]")):
    """Say what data sets hold and which column is the class.

    For each data set: its file (with sha256) or catalog source, its instances and
    attributes, the column taken as the class and how (named by `class:`, or the
    last column by default) with each class value's rows, as `bncbench run` says
    it; and a warning where a class taken by default does not look like one
    (docs/datasets.md: The class column). A FILE is read as a config entry
    with only `path:` (and `class:`, from --class) reads it.

    \b
    Examples:
      bncbench datasets describe docs/examples/own-data.yaml
      bncbench datasets describe data/penguins.csv --class species
      bncbench datasets describe iris
    """
    from pathlib import Path

    from bncbench import config as cfg
    from bncbench.data import catalog, describe
    from bncbench.data.userdata import load_user
    from bncbench.engine.units import load_dataset
    from bncbench.errors import DataUnavailable
    from bncbench.experiment import CVSpec

    def catalog_source(name: str) -> str:
        return f"catalog, {describe.origin(name)}" if describe.kind(name) == "files" else describe.origin(name)

    if folds is not None and folds < 1:
        raise UserError(f"--folds must be ≥ 1, got {folds}")
    p = Path(target)
    config = p.suffix.lower() in (".yaml", ".yml")
    if class_ is not None and (config or not p.is_file()):
        raise UserError("--class applies to a data FILE; a config names a file's class with `class:` in its entry, "
                        "and the catalog reads its data sets as it says")
    lines: list[str] = []
    if config:
        exp = cfg.load(target)
        k = folds or exp.cv.folds
        for spec in exp.datasets:
            try:
                ds = load_dataset(spec)
            except DataUnavailable as e:
                lines.append(f"{spec.name}: not available: {e}")
                continue
            source = f"{spec.path} (sha256 {ds.checksums[spec.path][:12]}…)" if spec.path else \
                catalog_source(spec.name)
            lines += describe.description(ds, source, k)
    elif p.is_file():
        column = int(class_) if class_ is not None and class_.lstrip("-").isdigit() else class_
        ds = load_user(p.stem, target, column)
        lines = describe.description(ds, f"{target} (sha256 {ds.checksums[target][:12]}…)", folds or CVSpec().folds)
    elif p.suffix or "/" in target:
        raise UserError(f"{target}: no such file (give a config, a data file or a catalog name)")
    else:
        name = catalog.resolve(target)
        ds = catalog.load(name)
        lines = describe.description(ds, catalog_source(name), folds or CVSpec().folds)
    typer.echo("\n".join(lines))
