"""A paper's headline claims and printed W/D/L tables beside what our runs show.

A claims file (papers/<config>/claims.yaml) names the results folders it reads, the W/D/L
settings, the printed W/D/L tables and the claims, each of one kind:

- ``wdl``: {results, metric, row, column, printed: "W-D-L"} — our record and sign test (the
  file's settings); *holds* when the direction (more wins than losses or not) and the
  significance at 0.05 are the printed ones, *direction only* when only the direction is. A
  paper that states a comparison without its record gives ``expect`` instead of ``printed``:
  "significantly better" (more wins, p < 0.05; *direction only* with p ≥ 0.05), "better"
  (more wins than losses), "not significant" (p ≥ 0.05) or "not significantly better" (not
  both more wins and p < 0.05: "no advantage");
- ``better_count``: {results, metric, row, column, printed: count, of (optional: the printed
  number of data sets; default ours), draw (optional)} — data sets
  where the row beats the column (under the file's draw rule, or the claim's own: "relative:0"
  counts every strictly better value); *holds* when ours is a majority as the printed one is;
- ``mean_change``: {results, metric, row, column, printed: relative change} — of the mean over
  the data sets both have; *holds* when the sign is the printed one;
- ``mean_order``: {results, metric, rows, above, below, not_below} — each row's mean is above
  every ``above`` classifier's, below every ``below`` one's and at least every ``not_below``
  one's; *holds* when every inequality does.

``wdl`` and ``mean_order`` take an optional ``datasets`` list: the claim is about those data sets
only (e.g. "on mushroom and nursery").

Nothing here is tuned toward a claim: a claim that our runs do not show is reported so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml

from bncbench.errors import UserError
from bncbench.evaluate.metrics import LOWER_IS_BETTER, METRICS
from bncbench.evaluate.paired import better_count
from bncbench.evaluate.stats import WDL, sign_test, wdl

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
                            + (f"missing {', '.join(sorted(missing))}" if missing else f"unknown key {sorted(unknown)[0]!r}"))
        if spec["results"] not in folders:
            raise UserError(f"{path}: claims[{i}].{kinds[0]}.results: {spec['results']!r} is not one of the results "
                            f"folders {', '.join(folders)}")
        if spec["metric"] not in METRICS:
            raise UserError(f"{path}: claims[{i}].{kinds[0]}.metric: unknown metric {spec['metric']!r}")
    raw["results"] = folders
    return raw


def _parse_wdl(text: str) -> WDL:
    w, d, l = (int(x) for x in str(text).split("-"))
    return WDL(w, d, l)


def evaluate(claims: dict, summary) -> list[Verdict]:
    """Each claim with our value and the verdict. `summary(results_name, metric)` returns the
    `results.Summary` of that folder and metric."""
    s = claims.get("wdl") or {}
    rule, draws, tails = s.get("draw", "exact4"), s.get("draws", "ignore"), s.get("tails", "one")
    out = []
    for c in claims["claims"]:
        kind = next(k for k in KINDS if k in c)
        spec = c[kind]
        metric = spec["metric"]
        lower = LOWER_IS_BETTER[metric]
        sm = summary(spec["results"], metric)
        vals, ds = sm.values, sm.datasets
        if spec.get("datasets"):
            unknown = [d for d in spec["datasets"] if d not in ds]
            if unknown:
                raise UserError(f"claim {c['text']!r}: data set(s) {', '.join(unknown)} not in the results")
            ds = [d for d in ds if d in spec["datasets"]]
        col = lambda lab: [vals.get((d, lab), (math.nan,))[0] for d in ds]  # noqa: E731
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
            out.append(Verdict(c["text"], expect, f"{ours} (p={po:.4f})", verdict))
        elif kind == "wdl":
            printed = _parse_wdl(spec["printed"])
            ours = wdl(col(spec["row"]), col(spec["column"]), rule, lower)
            pp, po = sign_test(printed, draws, tails), sign_test(ours, draws, tails)
            same_dir = (printed.wins > printed.losses) == (ours.wins > ours.losses)
            same_sig = (pp < ALPHA) == (po < ALPHA)
            verdict = "holds" if same_dir and same_sig else ("direction only" if same_dir else "does not hold")
            out.append(Verdict(c["text"], f"{printed} (p={pp:.4f})", f"{ours} (p={po:.4f})", verdict))
        elif kind == "better_count":
            wins, n = better_count(ds, vals, spec["row"], spec["column"], spec.get("draw", rule), lower)
            printed = int(spec["printed"])
            n_printed = int(spec.get("of", len(ds)) or len(ds))
            verdict = "holds" if (wins > n / 2) == (printed > n_printed / 2) else "does not hold"
            out.append(Verdict(c["text"], f"{printed} of {n_printed}", f"{wins} of {n}", verdict))
        elif kind == "mean_change":
            a, b = col(spec["row"]), col(spec["column"])
            both = [(x, y) for x, y in zip(a, b) if not (math.isnan(x) or math.isnan(y))]
            ma, mb = (sum(x for x, _ in both) / len(both), sum(y for _, y in both) / len(both)) if both else (math.nan,) * 2
            change = ma / mb - 1 if both and mb else math.nan
            printed = float(spec["printed"])
            verdict = "holds" if not math.isnan(change) and (change < 0) == (printed < 0) else "does not hold"
            out.append(Verdict(c["text"], f"{printed:+.1%}", f"{change:+.1%} ({ma:.4f} vs {mb:.4f}, {len(both)} data sets)",
                               verdict))
        else:
            others = {k: list(spec.get(k) or []) for k in ("above", "below", "not_below")}
            means = {lab: _mean(col(lab)) for lab in list(spec["rows"]) + sum(others.values(), [])}
            failed = [f"{r} ≤ {o}" for r in spec["rows"] for o in others["above"] if not means[r] > means[o]]
            failed += [f"{r} ≥ {o}" for r in spec["rows"] for o in others["below"] if not means[r] < means[o]]
            failed += [f"{r} < {o}" for r in spec["rows"] for o in others["not_below"] if not means[r] >= means[o]]
            ours = ", ".join(f"{lab} {means[lab]:.4g}" for lab in means)
            out.append(Verdict(c["text"], "as stated", ours, "holds" if not failed else "does not hold: " + "; ".join(failed)))
    return out


def _mean(v: list[float]) -> float:
    x = [a for a in v if not math.isnan(a)]
    return sum(x) / len(x) if x else math.nan


def table_comparison(claims: dict, summary) -> list[tuple[str, list[str], list[list[str]]]]:
    """The printed W/D/L tables (lower triangles, row vs column) beside ours:
    [(caption, header, rows)], each cell "printed / ours", ours marked * where it differs."""
    s = claims.get("wdl") or {}
    rule = s.get("draw", "exact4")
    out = []
    for t in claims.get("tables") or []:
        sm = summary(t["results"], t["metric"])
        lower = LOWER_IS_BETTER[t["metric"]]
        cols, rows = t["columns"], t["rows"]
        body = []
        for r, printed_row in zip(rows, t["cells"]):
            line = [r]
            for c, printed in zip(cols, list(printed_row) + [None] * (len(cols) - len(printed_row))):
                if printed in (None, "", "-", "–"):
                    line.append("–")
                    continue
                ours = wdl([sm.values.get((d, r), (math.nan,))[0] for d in sm.datasets],
                           [sm.values.get((d, c), (math.nan,))[0] for d in sm.datasets], rule, lower)
                line.append(f"{printed} / {ours}" + ("" if str(ours) == str(printed) else " *"))
            body.append(line)
        out.append((f"{t['caption']} — printed / ours ({t['metric']}, draw {rule}; * = differs)", ["", *cols], body))
    return out
