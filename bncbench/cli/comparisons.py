"""The commands that set classifiers or papers side by side: `bncbench wdl` (win/draw/loss and
sign or Wilcoxon tests), `ranks` (the Friedman test and its post-hoc tests), `compare` (our values
beside a published table), `rcll` and `gd` (paper 004's paired measures) and `claims` (a paper's
headline claims beside our runs)."""

from __future__ import annotations

from pathlib import Path
from textwrap import fill
from typing import TYPE_CHECKING, Annotated, get_args

import typer

from bncbench.cli.common import (
    CaptionOpt,
    ClassifiersOpt,
    DatasetsOpt,
    DrawOpt,
    LabelOpt,
    NotesOpt,
    ResultsArg,
    ResultsOrFolderArg,
    TableFormatOpt,
    WithOpt,
    alpha_option,
    caption_option,
    check_decimals,
    check_latex,
    checked,
    classifiers_option,
    decimals_option,
    err,
    latex_text,
    metric_option,
    pairs_option,
    rows_option,
    split,
    warn_incomplete,
)
from bncbench.errors import UserError
from bncbench.evaluate.metrics import METRICS, direction_words
from bncbench.evaluate.stats import DRAWS, TAILS, WDL_DEFAULTS, Correction, Draws, Tails, Test

if TYPE_CHECKING:
    from bncbench.results import Results

# the help of wdl's closed choices, from their declarations
DRAWS_HELP = f"{' | '.join(DRAWS)}: draws in the sign test [default: the config's, else {WDL_DEFAULTS['draws']}]"
TAILS_HELP = f"{' | '.join(TAILS)} [default: the config's, else {WDL_DEFAULTS['tails']}]"
TEST_HELP = f"{' | '.join(get_args(Test))}: the test of each pair's p-value"
CORRECTION_HELP = f"{' | '.join(get_args(Correction))}: adjust the p-values for the pairs of the matrix"


def wdl(path: str = typer.Argument(..., metavar="RESULTS|TABLE",
                                   help="results directory (or its results.sqlite), a folder of them (results/), or a "
                                        "wide table file (TSV/CSV)"),
        metric: Annotated[str | None, metric_option("metric to compare, as for report [default: the config's "
                                                    "wdl.metric, else zol]; for a table: the name of its "
                                                    "values")] = None,
        draw: DrawOpt = None,
        draws: Draws | None = typer.Option(None, "--draws", metavar="HOW",
                                           help=DRAWS_HELP),
        tails: Tails | None = typer.Option(None, "--tails", metavar="N",
                                           help=TAILS_HELP),
        higher_is_better: bool = typer.Option(False, "--higher-is-better",
                                              help="a table's values are better when higher (accuracy, CLL)"),
        datasets: DatasetsOpt = None,
        classifiers: ClassifiersOpt = None,
        rows: Annotated[str | None, rows_option("row classifiers [default: all shown]")] = None,
        columns: str | None = typer.Option(None, "--columns", metavar="L1,L2",
                                           help="column classifiers [default: all shown]"),
        test: Test = typer.Option("sign", "--test", metavar="TEST",
                                  help=TEST_HELP),
        correction: Correction = typer.Option("none", "--correction", metavar="HOW",
                                              help=CORRECTION_HELP),
        format: TableFormatOpt = "md",
        decimals: Annotated[int, decimals_option("decimals of the p-values, 0 to 10 (md, latex; csv keeps full "
                                                 "precision)")] = 4,
        with_table: WithOpt = None,
        caption: CaptionOpt = None,
        label: LabelOpt = None,
        notes: NotesOpt = True):
    """Win/draw/loss matrix (row vs column) and binomial sign-test p-values.

    For a results directory, options not given default to the `wdl:` section of the config the
    results were run with (paper 004's configs say relative:0.05), then zol / exact4 / split /
    one. Data sets not finished for every shown classifier are left out (said on stderr), so
    every pair is compared on the same data sets. The output states the data sets used of those
    the results should cover (and why the others are missing), the draw rule, the sign test and
    the metric's direction; csv adds a column n (data sets used). A folder holding several
    experiments (results/<name>/ each) gets one section per experiment, in name order.

    A wide table has a header (dataset, classifier, classifier, ...) and one row per data
    set; a cell is a number or 'mean ± sd' (also +- or +/-; only the mean is used). Cells -,
    –, —, n/a or empty are missing: a pair leaves out the data sets where either has one.
    A known --metric gives the direction; otherwise lower is better, or with
    --higher-is-better higher is.

    --draw ttest[:ALPHA] (ALPHA 0.05 if not given) makes a data set a win or a loss only
    where the corrected resampled t-test (Nadeau & Bengio 2003, as Weka's Experimenter)
    on the pair's per-fold values rejects equality, two-tailed at ALPHA; else a draw. It
    needs a results store (not a table) and a metric with per-fold values (not bias or
    variance); data sets without paired fold values are left out and named.

    --test wilcoxon gives the Wilcoxon signed-ranks test instead (Demšar 2006) on the
    differences as stored: --tails as for the sign test; --draws split splits zero
    differences between R+ and R- (one dropped if odd), ignore leaves them out; p exact
    up to 50 differences without zeros or ties, else the normal approximation.
    --correction holm adds the p-values adjusted by Holm's step-down procedure over the
    distinct pairs of the matrix (csv: column p_holm). --decimals N prints the p-values at N
    decimals (default 4; csv: full precision).

    --with FILE (a results store) adds a paper's printed columns (a wide table, as above) to
    the matrix, each pair on the data sets both have; compared on the means, so the t-test
    draw rule refuses it (docs/cli.md: Published columns).

    \b
    Metrics (--metric, results; METRICS_DIRECTIONS):
      METRICS_NAMES

    \b
    Examples:
      bncbench wdl results/stan70
      bncbench wdl results/
      bncbench wdl results/stan70 --metric rmse --rows STAN-MRMR
      bncbench wdl results/ait36/results.sqlite --metric bias
      bncbench wdl results/default --draw relative:0.05 --draws ignore
      bncbench wdl results/default --draw ttest:0.01 --metric accuracy
      bncbench wdl table2.tsv --higher-is-better --tails two --format csv
      bncbench wdl results/ait36 --test wilcoxon --tails two --correction holm
      bncbench wdl results/default --with paper-table.tsv --rows NB
      bncbench wdl results/ait36 --format latex --label tab:wdl --no-notes
    """
    from bncbench.cli.common import per_experiment
    from bncbench.evaluate.published import read
    from bncbench.evaluate.stats import needs_folds
    from bncbench.reporting.wdl import WdlRequest, check_draw, wdl_text

    p = Path(path)
    # A store is a directory or a .sqlite file (wide_table.read refuses an SQLite file by another name).
    is_store = p.is_dir() or p.suffix == ".sqlite"
    if not is_store and not p.is_file():
        raise UserError(f"{path}: no such results directory or table file")
    if is_store and higher_is_better:
        raise UserError("--higher-is-better is for a wide table; a results store's metric has its own direction")
    check_draw(draw)
    if not is_store and draw and needs_folds(draw):
        raise UserError(f"--draw {draw}: the t-test needs each data set's per-fold values, which a wide table "
                        f"({path}) does not hold; give a results store")
    check_decimals(decimals)
    if with_table and not is_store:
        raise UserError(f"--with is for a results store; {path} is a wide table: put the published columns in it")
    check_latex(format, caption, label, notes, path if is_store else None)
    q = WdlRequest(metric, draw, draws, tails, higher_is_better, split(datasets), split(classifiers), split(rows),
                   split(columns), format, test, correction, decimals, read(with_table) if with_table else None)

    def write(text: str) -> None:
        typer.echo(latex_text(text, format, caption, label, notes), nl=False)

    if is_store:
        per_experiment(path, format, lambda r: wdl_text(path, r, q, err), write)
    else:
        write(wdl_text(path, None, q, err))



wdl.__doc__ = (wdl.__doc__ or "").replace("METRICS_DIRECTIONS", direction_words()).replace(
    "METRICS_NAMES", fill(", ".join(METRICS) + " (described in bncbench report --help)", 72,
                          subsequent_indent="      "))

def ranks(results: ResultsArg,
          metric: Annotated[str | None, metric_option("metric ranked, as for report [default: the config's "
                                                      "wdl.metric, else zol]")] = None,
          control: str | None = typer.Option(None, "--control", metavar="LABEL",
                                             help="also compare this classifier with each other one (Bonferroni-Dunn, "
                                                  "Holm)"),
          alpha: Annotated[float, alpha_option("significance level of the post-hoc tests")] = 0.05,
          datasets: DatasetsOpt = None,
          classifiers: ClassifiersOpt = None,
          format: TableFormatOpt = "md",
          decimals: Annotated[int, decimals_option("decimals of the tables' p-values, 0 to 10 (md, latex; csv "
                                                   "keeps full precision)")] = 4,
          with_table: WithOpt = None,
          caption: CaptionOpt = None,
          label: LabelOpt = None,
          notes: NotesOpt = True):
    """Average ranks, the Friedman test and its post-hoc tests (Demšar 2006).

    Per data set the classifiers are ranked (1 = best; values equal as printed, at 4
    decimals, share the average of their ranks) over the data sets where every shown
    classifier has a value (the others are left out and named). Then: Friedman's
    chi-square (Demšar's formula, no tie correction; the tie-corrected value of scipy and
    R beside it) and Iman-Davenport's F with p-values; the Nemenyi critical difference
    (studentized range); for every pair z = (R_i - R_j)/sqrt(k(k+1)/(6N)), its p and the
    p adjusted by Holm's step-down procedure over all pairs, and which pairs differ at
    --alpha. --control adds the control against each other classifier: Bonferroni-Dunn's
    critical difference and Holm over those k - 1 comparisons. --decimals N prints the tables'
    p-values at N decimals (default 4; below 10^-N in scientific notation; ranks and z keep 3).
    csv: one line per pair at full precision, the test lines on stderr. `bncbench figures
    --only cd` draws the critical-difference diagram. --with FILE ranks a paper's printed
    columns (a wide table as wdl TABLE reads it) with ours, over the data sets every column
    has (docs/cli.md: Published columns).

    \b
    Examples:
      bncbench ranks results/ait36
      bncbench ranks results/ait36 --control TAN --alpha 0.10
      bncbench ranks results/stan70 --metric rmse --classifiers TAN,AODE,KDB1
      bncbench ranks results/default --format csv > pairs.csv
      bncbench ranks results/default --with paper-table.tsv
      bncbench ranks results/default --format latex --label tab:ranks --no-notes
    """
    from bncbench.evaluate import options
    from bncbench.evaluate.published import read
    from bncbench.evaluate.ranks import format_ranks
    from bncbench.reporting.analyses import rank_test
    from bncbench.results import open as open_results

    check_decimals(decimals)
    published = read(with_table) if with_table else None
    check_latex(format, caption, label, notes)
    with open_results(results) as r:
        metric = checked("--metric", options.metric, metric or r.experiment.wdl.default_metric)
        checked("--alpha", options.alpha, alpha)
        s = r.summary(metric, split(datasets), split(classifiers))
        warn_incomplete(s)
        test = rank_test(r, metric, split(datasets), split(classifiers), control, alpha, published,
                         lambda line: err(f"note: {line}"))
    text, lines = format_ranks(test, metric, format, decimals)
    typer.echo(latex_text(text, format, caption, label, notes), nl=False)
    for line in lines:
        err(line)


def compare(results: ResultsOrFolderArg,
            table: str = typer.Argument(..., metavar="TABLE",
                                        help="a published wide table (TSV/CSV), e.g. papers/stan70/dev.tsv"),
            metric: Annotated[str | None, metric_option("compare only these metrics; plain columns hold the first "
                                                        "[default: every metric the headers name; plain columns zol]",
                                                        "M[,M2]")] = None,
            classifiers: Annotated[str | None,
                                   classifiers_option("only these classifier labels of the results")] = None,
            map_: str | None = typer.Option(None, "--map", metavar="PAPER=OURS,...",
                                            help="the table's classifier names that differ from our labels"),
            format: TableFormatOpt = "md",
            caption: CaptionOpt = None,
            label: LabelOpt = None,
            notes: NotesOpt = True):
    """Our results beside a published table, value by value, at the table's printed precision.

    TABLE is a wide table as wdl reads it: a header (dataset, classifier, ...) and one row
    per data set; a cell is 'mean' or 'mean ± sd' (-, n/a or empty: not printed). A header
    'NAME (METRIC)' holds METRIC (e.g. 'TAN (rmse)'), a plain header the first --metric (zol).
    Data-set names may be catalog aliases. Every printed mean and sd gets a row: ours rounded
    to the printed decimals as report rounds (printf on the double), the paper's, the
    difference (ours as printed − paper) and equal (yes/no); then per classifier equal /
    compared and max |difference|, the results' coverage, why a classifier's values differ as
    the project records it (a reconstruction in the classifier registry, a data-set version
    that differs from the paper's in the catalog), and the table's data sets not in the
    results with their reason. --format csv prints exactly
    dataset,classifier,statistic,ours,paper,difference,equal (statistic 'zol mean', 'rmse sd',
    ...; ours at full precision) and the totals on stderr. A folder holding several
    experiments gets one section per experiment.

    \b
    Examples:
      bncbench compare results/stan70 papers/stan70/dev.tsv
      bncbench compare results/stan70 table3.tsv --map STANMRMR=STAN-MRMR,KDB=KDB1
      bncbench compare results/ait36 papers/ait36/dev.tsv --metric zol,rmse,rmse_all
      bncbench compare results/stan70 table2.csv --metric rmse --classifiers TAN --format csv
    """
    from bncbench.cli.common import per_experiment
    from bncbench.evaluate import compare as published
    from bncbench.reporting.analyses import comparison

    check_latex(format, caption, label, notes, results)
    mapping = {}
    for item in split(map_) or []:
        paper, sep, ours = item.partition("=")
        if not sep or not paper.strip() or not ours.strip():
            raise UserError(f"--map: {item!r} is not PAPER=OURS")
        mapping[paper.strip()] = ours.strip()

    def one(r: Results) -> str:
        result = comparison(r, table, split(metric), split(classifiers), mapping, err)
        if format == "csv":
            for line in published.notes(result):
                err(line)
        return published.format_published(result, format)

    per_experiment(results, format, one,
                   lambda text: typer.echo(latex_text(text, format, caption, label, notes), nl=False))


def rcll(results: ResultsArg,
         pairs: Annotated[str, pairs_option("classifier A against its baseline B")],
         datasets: DatasetsOpt = None,
         format: TableFormatOpt = "md",
         caption: CaptionOpt = None,
         label: LabelOpt = None,
         notes: NotesOpt = True):
    """Relative conditional log-likelihood per data set (paper 004 eq. 11, Fig. 7).

    rCLL(A|B) = CLL(A) / CLL(B), with CLL summed over the test instances. CLLs are negative,
    so A has the higher (better) likelihood when rCLL < 1; the lines under the table count
    both readings (paper 004 calls rCLL ≥ 1 better; docs/algorithms.md §5.4).

    \b
    Example:
      bncbench rcll results/ait36 --pairs TAN-AIT:TAN,KDB-AIT:KDB
    """
    from bncbench.evaluate import options
    from bncbench.evaluate.paired import rcll_rows
    from bncbench.evaluate.report import format_grid
    from bncbench.results import open as open_results

    check_latex(format, caption, label, notes)
    pair_list = checked("--pairs", options.pairs, pairs)
    with open_results(results) as r:
        s = r.summary("cll", split(datasets), sorted({x for p in pair_list for x in p}))
    warn_incomplete(s)
    header, rows, lines = rcll_rows(s.datasets, s.values, pair_list)
    text = format_grid(header, rows, format, notes=lines,
                       caption="Relative conditional log-likelihood rCLL(A|B) = CLL(A)/CLL(B) per data set"
                       if format == "latex" else "")
    typer.echo(latex_text(text, format, caption, label, notes), nl=False)


def gd(results: ResultsArg,
       pairs: Annotated[str, pairs_option("classifier A against B")],
       metric: Annotated[str, metric_option("metric compared, as for report")] = "zol",
       draw: DrawOpt = None,
       format: TableFormatOpt = "md",
       caption: CaptionOpt = None,
       label: LabelOpt = None,
       notes: NotesOpt = True):
    """Goal-difference curves GD(A; B | S_t), t = 1..N (paper 004 eq. 9, Fig. 3).

    S_t holds the first t data sets in the config's order (paper 004's Table 1 order: by
    instances); GD counts A's wins minus its losses on them, with the W/D/L draw rule.

    \b
    Example:
      bncbench gd results/ait36 --pairs TAN-AIT:TAN,KDB-AIT:KDB
    """
    from bncbench.evaluate import options
    from bncbench.evaluate.metrics import LOWER_IS_BETTER, in_words
    from bncbench.evaluate.paired import gd_rows
    from bncbench.evaluate.report import format_grid
    from bncbench.evaluate.stats import needs_folds
    from bncbench.evaluate.wdl import draw_words
    from bncbench.reporting.wdl import check_draw, fold_values
    from bncbench.results import open as open_results

    checked("--metric", options.metric, metric)
    check_latex(format, caption, label, notes)
    pair_list = checked("--pairs", options.pairs, pairs)
    with open_results(results) as r:
        rule = draw or r.experiment.wdl.draw
        check_draw(rule)
        s = r.summary(metric, None, sorted({x for p in pair_list for x in p}))
        folds = fold_values(r, rule, draw is not None, metric, None, s.labels) if needs_folds(rule) else None
    warn_incomplete(s)
    header, rows = gd_rows(s.datasets, s.values, pair_list, rule, LOWER_IS_BETTER[metric], folds)
    lines = ([f"{in_words(metric)}; draw: {draw_words(rule)}; data sets in the config's order"]
             if format == "latex" else [f"{metric}, draw rule {rule}; data sets in the config's order"])
    if folds is not None and folds.left_out:
        lines.append("not counted, no paired fold values for the t-test: "
                     + ", ".join(f"{d} ({why})" for d, why in folds.left_out.items()))
    text = format_grid(header, rows, format, notes=lines,
                       caption=f"{in_words(metric, heading=True)}: goal difference GD(A; B | S_t), wins minus losses "
                               f"of A against B on the first t data sets" if format == "latex" else "")
    typer.echo(latex_text(text, format, caption, label, notes), nl=False)


def claims(claims_file: str = typer.Argument(..., metavar="CLAIMS", help="claims file (e.g. papers/ait36/claims.yaml)"),
           results: list[str] | None = typer.Option(None, "--results", metavar="NAME=DIR",
                                                    help="read the file's results NAME from DIR (repeatable)"),
           format: TableFormatOpt = "md",
           caption_text: Annotated[str | None, caption_option()] = None,
           label: LabelOpt = None,
           notes: NotesOpt = True):
    """A paper's headline claims and printed W/D/L tables beside our runs.

    Each claim gets the printed value, ours and a verdict (holds / direction only / does not
    hold; bncbench/evaluate/claims.py says how each kind is judged); then each printed W/D/L
    table with ours in every cell ("printed / ours", * where they differ). Nothing is tuned
    toward a claim. A verdict judged on fewer data sets than the results should cover says so
    ("holds (2 of 22 data sets)"); the lines at the end name the missing data sets and why.
    A claim whose results folder does not exist is not judged; the others are.

    \b
    Example:
      bncbench claims papers/ait36/claims.yaml
      bncbench claims papers/ait36/claims.yaml --results main=runs/ait36
    """
    from bncbench.evaluate.report import format_grid
    from bncbench.reporting.analyses import judge_claims

    check_latex(format, caption_text, label, notes)
    overrides = {}
    for item in results or []:
        name, sep, folder = item.partition("=")
        if not sep or not name or not folder:
            raise UserError(f"--results: {item!r} is not NAME=DIR")
        overrides[name] = folder
    caption, verdicts, tables, lines = judge_claims(claims_file, overrides)
    if format == "md":
        out = [_claims_markdown(caption, verdicts)]
    else:  # latex: the lines are the claims table's notes
        out = [format_grid(["claim", "printed", "ours", "verdict"], [[v.text, v.printed, v.ours, v.verdict]
                                                                   for v in verdicts], format, caption=caption,
                           notes=lines if format == "latex" else None)]
    if format == "csv":
        for line in lines:
            err(line)
    elif format == "md":
        out.append("\n" + "".join(f"{line}\n" for line in _wrapped(lines, format)) + "\n")
    else:
        out.append("\n")
    for t in tables:
        header, rows = t.pairs() if format == "md" else t.grid()
        out.append(format_grid(header, rows, format, caption=t.caption,
                               notes=_wrapped(t.notes, format) if format != "csv" else None)
                   + ("\n" if format != "csv" else ""))
    typer.echo(latex_text("".join(out), format, caption_text, label, notes), nl=False)


WIDTH = 100  # the claims in Markdown fit this many columns


def _claims_markdown(caption: str, verdicts) -> str:
    """The claims as a numbered Markdown list (printed, ours, verdict under each claim), wrapped
    to `WIDTH` columns."""
    import textwrap

    def wrap(text: str, first: str, rest: str) -> list[str]:
        return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False)

    lines = wrap(caption, "", "")
    lines.append("")
    width = len(str(len(verdicts)))
    for i, v in enumerate(verdicts, 1):
        number = f"{i}.".ljust(width + 2)
        lines += wrap(v.text, number, " " * len(number))
        for key, value in (("printed", v.printed), ("ours", v.ours), ("verdict", v.verdict)):
            lines += wrap(f"{key}: {value}", " " * len(number) + "- ", " " * (len(number) + 4))
    return "\n".join(lines) + "\n"


def _wrapped(lines: list[str], fmt: str) -> list[str]:
    """`lines` wrapped to `WIDTH` columns in md (continuations indented), as they are otherwise."""
    import textwrap

    if fmt != "md":
        return lines
    return [part for line in lines
            for part in textwrap.wrap(line, WIDTH, subsequent_indent="  ", break_on_hyphens=False)]
