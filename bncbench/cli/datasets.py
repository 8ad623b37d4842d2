"""`bncbench datasets list | info | fetch | verify`: the data-set catalog."""

from __future__ import annotations

import typer

from bncbench.cli.common import FormatOpt
from bncbench.errors import UserError

app = typer.Typer(no_args_is_help=True, help="The data-set catalog: list, info, fetch, verify. A NAME is a "
                  "catalog name, an alias, or synth:ROWSxATTRSxCLASSES[:seed].")


@app.command("list")
def datasets_list(format: FormatOpt = "md"):
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
                    format: FormatOpt = "md"):
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
    checks = verify([catalog.resolve(name)] if name and not all_ else catalog.names(), errors_as_rows=all_)
    typer.echo(format_grid(HEADER, [c.row() for c in checks], format), nl=False)
    if any(c.failed for c in checks):
        raise typer.Exit(1)
