"""A paper's headline claims and printed W/D/L tables beside what our runs show (docs/algorithms.md §6.10)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import yaml

from bncbench.errors import UserError
from bncbench.evaluate.metrics import LOWER_IS_BETTER, METRICS, in_words
from bncbench.evaluate.paired import better_count
from bncbench.evaluate.stats import WDL, WDL_DEFAULTS, needs_folds, sign_test, wdl

KINDS = {"wdl": {"results", "metric", "row", "column", "printed", "expect", "datasets"},
         "better_count": {"results", "metric", "row", "column", "printed", "of", "draw"},
         "mean_change": {"results", "metric", "row", "column", "printed"},
         "mean_order": {"results", "metric", "rows", "above", "below", "not_below", "datasets"}}
ALPHA = 0.05
EXPECT = ("significantly better", "better", "not significant", "not significantly better")


@dataclass
class Verdict:
    text: str
    printed: str
    ours: str
    verdict: str
    results: str = ""  # the name of the results folder the claim reads

    @property
    def judged(self) -> bool:
        return not self.verdict.startswith(NOT_JUDGED)

    @property
    def holds(self) -> bool:
        return self.verdict == "holds" or self.verdict.startswith("holds (")


NOT_JUDGED = "not judged"


@dataclass
class PrintedTable:
    """A printed W/D/L table beside ours: `cells` {(row, column): (printed, ours or None)} of the
    printed lower triangle, `notes` on what ours cover."""

    caption: str
    rows: list[str]
    columns: list[str]
    cells: dict[tuple[str, str], tuple[str, str | None]]
    notes: list[str]

    def grid(self) -> tuple[list[str], list[list[str]]]:
        """(header, rows): each cell "printed / ours", marked * where they differ; – where
        nothing is printed."""
        body = []
        for r in self.rows:
            line = [r]
            for c in self.columns:
                if (r, c) not in self.cells:
                    line.append("–")
                    continue
                printed, ours = self.cells[(r, c)]
                line.append(f"{printed} / {ours or 'n/a'}" + ("" if ours == printed else " *"))
            body.append(line)
        return ["", *self.columns], body

    def pairs(self) -> tuple[list[str], list[list[str]]]:
        """(header, rows) of the long form: one row per printed cell (row, column, printed, ours,
        * where they differ) — narrow enough for 100 columns."""
        body = [[r, c, printed, ours or "n/a", "" if ours == printed else "*"]
                for r in self.rows for c in self.columns if (r, c) in self.cells
                for printed, ours in [self.cells[(r, c)]]]
        return ["row", "column", "printed", "ours", "differs"], body


def load(path: str, results: dict[str, str] | None = None) -> dict:
    """The validated claims file; `results` overrides its results folders by name."""
    p = Path(path)
    try:
        raw = yaml.safe_load(p.read_text())
    except OSError as e:
        raise UserError(f"{path}: cannot read the claims file ({e.strerror})") from None
    except yaml.YAMLError as e:
        raise UserError(f"{path}: malformed YAML: {str(e).splitlines()[0]}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("claims"), list):
        raise UserError(f"{path}: expected a mapping with a 'claims' list")
    folders = dict(raw.get("results") or {})
    for name, folder in (results or {}).items():
        if name not in folders:
            raise UserError(f"--results {name}=...: the claims file names no results {name!r}; "
                            f"it names {', '.join(folders) or 'none'}")
        folders[name] = folder
    for i, c in enumerate(raw["claims"]):
        kinds = [k for k in KINDS if k in c]
        if "text" not in c or len(kinds) != 1:
            raise UserError(f"{path}: claims[{i}] needs 'text' and one of {', '.join(KINDS)}")
        spec = c[kinds[0]]
        missing = KINDS[kinds[0]] - set(spec) - {"above", "below", "not_below", "draw", "of", "datasets"}
        if kinds[0] == "wdl":
            missing -= {"printed", "expect"}
            if ("printed" in spec) == ("expect" in spec):
                raise UserError(f"{path}: claims[{i}].wdl needs one of printed (W-D-L) and expect")
            if "expect" in spec and spec["expect"] not in EXPECT:
                raise UserError(f"{path}: claims[{i}].wdl.expect: {spec['expect']!r} is not one of {', '.join(EXPECT)}")
        unknown = set(spec) - KINDS[kinds[0]]
        if missing or unknown:
            raise UserError(f"{path}: claims[{i}].{kinds[0]}: "
                            + (f"missing {', '.join(sorted(missing))}" if missing
                               else f"unknown key {sorted(unknown)[0]!r}"))
        if spec["results"] not in folders:
            raise UserError(f"{path}: claims[{i}].{kinds[0]}.results: {spec['results']!r} is not one of the results "
                            f"folders {', '.join(folders)}")
        if spec["metric"] not in METRICS:
            raise UserError(f"{path}: claims[{i}].{kinds[0]}.metric: unknown metric {spec['metric']!r}")
    _check_draw(path, "wdl.draw", (raw.get("wdl") or {}).get("draw"))
    for i, c in enumerate(raw["claims"]):
        if "better_count" in c:
            _check_draw(path, f"claims[{i}].better_count.draw", c["better_count"].get("draw"))
    raw["results"] = folders
    return raw


def _check_draw(path: str, where: str, rule) -> None:
    """UserError for a draw rule of the claims file that is not valid or is the t-test's."""
    if rule is None:
        return
    try:
        ttest = needs_folds(str(rule))
    except ValueError as e:
        raise UserError(f"{path}: {where}: {e}") from None
    if ttest:
        raise UserError(f"{path}: {where}: {rule!r} is not supported in a claims file (claims are judged on the "
                        f"means; the t-test needs per-fold values): use exact4 or relative:F")


def _parse_wdl(text: str) -> WDL:
    w, d, l = (int(x) for x in str(text).split("-"))
    return WDL(w, d, l)


def _printed(kind: str, spec: dict, draws: str, tails: str) -> str:
    """The claim's printed side as the verdict table shows it."""
    if kind == "wdl" and "expect" in spec:
        return spec["expect"]
    if kind == "wdl":
        printed = _parse_wdl(spec["printed"])
        return f"{printed} (p={sign_test(printed, draws, tails):.4f})"
    if kind == "better_count":
        return f"{int(spec['printed'])} of {spec.get('of') or 'ours'}"
    if kind == "mean_change":
        return f"{float(spec['printed']):+.1%}"
    return "as stated"


def evaluate(claims: dict, summary) -> list[Verdict]:
    """Each claim with our value and the verdict. `summary(results_name, metric)` returns the
    `results.Summary` of that folder and metric, or None when the folder does not exist (the
    claim is then not judged)."""
    s = {**WDL_DEFAULTS, **(claims.get("wdl") or {})}
    rule, draws, tails = s["draw"], s["draws"], s["tails"]
    out = []
    for c in claims["claims"]:
        kind = next(k for k in KINDS if k in c)
        spec = c[kind]
        metric = spec["metric"]
        lower = LOWER_IS_BETTER[metric]
        printed_text = _printed(kind, spec, draws, tails)
        sm = summary(spec["results"], metric)
        if sm is None:
            out.append(Verdict(c["text"], printed_text, "–", f"{NOT_JUDGED}: results {spec['results']!r} missing",
                               spec["results"]))
            continue
        vals, ds = sm.values, sm.datasets
        of = sm.coverage.total
        if spec.get("datasets"):
            unknown = [d for d in spec["datasets"] if d not in ds and d not in sm.coverage.datasets]
            if unknown:
                raise UserError(f"claim {c['text']!r}: data set(s) {', '.join(unknown)} not in the results")
            ds = [d for d in ds if d in spec["datasets"]]
            of = len(spec["datasets"])
        col = partial(_column, vals, ds)
        if kind == "wdl" and "expect" in spec:
            ours = wdl(col(spec["row"]), col(spec["column"]), rule, lower)
            po = sign_test(ours, draws, tails)
            better, sig = ours.wins > ours.losses, po < ALPHA
            expect = spec["expect"]
            if expect == "significantly better":
                verdict = "holds" if better and sig else ("direction only" if better else "does not hold")
            elif expect == "better":
                verdict = "holds" if better else "does not hold"
            elif expect == "not significantly better":
                verdict = "holds" if not (better and sig) else "does not hold"
            else:
                verdict = "holds" if not sig else "does not hold"
            ours_text, used = f"{ours} (p={po:.4f})", ours.wins + ours.draws + ours.losses
        elif kind == "wdl":
            printed = _parse_wdl(spec["printed"])
            ours = wdl(col(spec["row"]), col(spec["column"]), rule, lower)
            pp, po = sign_test(printed, draws, tails), sign_test(ours, draws, tails)
            same_dir = (printed.wins > printed.losses) == (ours.wins > ours.losses)
            same_sig = (pp < ALPHA) == (po < ALPHA)
            verdict = "holds" if same_dir and same_sig else ("direction only" if same_dir else "does not hold")
            ours_text, used = f"{ours} (p={po:.4f})", ours.wins + ours.draws + ours.losses
        elif kind == "better_count":
            wins, n = better_count(ds, vals, spec["row"], spec["column"], spec.get("draw", rule), lower)
            count = int(spec["printed"])
            n_printed = int(spec.get("of", len(ds)) or len(ds))
            verdict = "holds" if (wins > n / 2) == (count > n_printed / 2) else "does not hold"
            printed_text, ours_text, used = f"{count} of {n_printed}", f"{wins} of {n}", n
        elif kind == "mean_change":
            a, b = col(spec["row"]), col(spec["column"])
            both = [(x, y) for x, y in zip(a, b) if not (math.isnan(x) or math.isnan(y))]
            ma, mb = ((sum(x for x, _ in both) / len(both), sum(y for _, y in both) / len(both)) if both
                      else (math.nan, math.nan))
            change = ma / mb - 1 if both and mb else math.nan
            printed_change = float(spec["printed"])
            verdict = "holds" if not math.isnan(change) and (change < 0) == (printed_change < 0) else "does not hold"
            ours_text, used = f"{change:+.1%} ({ma:.4f} vs {mb:.4f}, {len(both)} data sets)", len(both)
        else:
            others = {k: list(spec.get(k) or []) for k in ("above", "below", "not_below")}
            names = list(dict.fromkeys([*spec["rows"], *(lab for labs in others.values() for lab in labs)]))
            cols = {lab: col(lab) for lab in names}
            common = [i for i in range(len(ds)) if not any(math.isnan(cols[lab][i]) for lab in names)]
            means = {lab: _mean([cols[lab][i] for i in common]) for lab in names}
            failed = [f"{r} ≤ {o}" for r in spec["rows"] for o in others["above"] if not means[r] > means[o]]
            failed += [f"{r} ≥ {o}" for r in spec["rows"] for o in others["below"] if not means[r] < means[o]]
            failed += [f"{r} < {o}" for r in spec["rows"] for o in others["not_below"] if not means[r] >= means[o]]
            ours_text, used = ", ".join(f"{lab} {means[lab]:.4g}" for lab in means), len(common)
            verdict = "holds" if not failed else "does not hold: " + "; ".join(failed)
        suffix = sm.coverage.suffix(used, of)
        if suffix and verdict.startswith("does not hold: "):
            verdict = f"does not hold{suffix}: {verdict[len('does not hold: '):]}"
        else:
            verdict += suffix
        out.append(Verdict(c["text"], printed_text, ours_text, verdict, spec["results"]))
    return out


def _column(values: dict, datasets: list[str], label: str) -> list[float]:
    """The means of `label` over `datasets` (NaN where it has none)."""
    return [values.get((d, label), (math.nan,))[0] for d in datasets]


def _mean(v: list[float]) -> float:
    x = [a for a in v if not math.isnan(a)]
    return sum(x) / len(x) if x else math.nan


def table_comparison(claims: dict, summary) -> list[PrintedTable]:
    """The printed W/D/L tables (lower triangles, row vs column) beside ours; a table whose
    results folder does not exist (`summary` gives None) keeps only the printed records."""
    rule = {**WDL_DEFAULTS, **(claims.get("wdl") or {})}["draw"]
    out = []
    for t in claims.get("tables") or []:
        sm = summary(t["results"], t["metric"])
        lower = LOWER_IS_BETTER[t["metric"]]
        cols, rows = t["columns"], t["rows"]
        cells = {}
        for r, printed_row in zip(rows, t["cells"]):
            for c, printed in zip(cols, list(printed_row) + [None] * (len(cols) - len(printed_row))):
                if printed in (None, "", "-", "–"):
                    continue
                ours = None if sm is None else str(wdl([sm.values.get((d, r), (math.nan,))[0] for d in sm.datasets],
                                                       [sm.values.get((d, c), (math.nan,))[0] for d in sm.datasets],
                                                       rule, lower))
                cells[(r, c)] = (str(printed), ours)
        if sm is None:
            notes = [f"ours: {NOT_JUDGED}, results {t['results']!r} missing"]
        elif sm.coverage.complete:
            notes = [f"ours: {sm.coverage.line()}"]
        else:
            notes = [(f"ours: {sm.coverage.line()} — records over fewer data sets than the paper's cannot equal "
                      f"the printed ones")]
        out.append(PrintedTable(f"{t['caption']} — printed / ours ({in_words(t['metric'])}, draw {rule}; * = differs)",
                                list(rows), list(cols), cells, notes))
    return out


def summary_lines(spec: dict, verdicts: list[Verdict], summaries: dict) -> list[str]:
    """The lines after the claims: how many hold, which were not judged, and each results
    folder's coverage (its missing data sets and why); `summaries`: {(results name, metric):
    Summary} of the claims judged, in the order they were read."""
    judged = [v for v in verdicts if v.judged]
    lines = [f"{sum(v.holds for v in judged)} of {len(judged)} judged claims hold in our runs"
             + (f" ({len(verdicts) - len(judged)} of {len(verdicts)} not judged)." if len(judged) < len(verdicts)
                else ".")]
    for name, folder in spec["results"].items():
        n = sum(v.results == name for v in verdicts if not v.judged)
        if n:
            lines.append(f"not judged: {n} claim(s) of results {name!r}: {folder} does not exist; run the config "
                         f"that writes it or give --results {name}=DIR")
    shown = set()
    for (name, _), s in summaries.items():
        if name not in shown:
            shown.add(name)
            lines.append(f"results {name!r} ({spec['results'][name]}): {s.coverage.line()}")
    return lines
