"""Each cell of a report against a base classifier on its data set, as Weka's Experimenter marks it
(the corrected resampled t-test, or Wilcoxon's on the folds), in the metric's direction
(docs/statistics.md: Against a base classifier)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from bncbench.evaluate.stats import parse_draw

if TYPE_CHECKING:
    from bncbench.evaluate.ttest import PairedFolds

BETTER, WORSE = "∘", "•"  # after a cell significantly better / worse than the base (Weka's LaTeX ∘ and •)
TESTS = ("ttest", "wilcoxon")
COUNT_ROW = "(better/equal/worse)"


def parse_test(rule: str) -> tuple[str, float]:
    """("ttest", ALPHA) or ("wilcoxon", ALPHA) of 'ttest[:ALPHA]' or 'wilcoxon[:ALPHA]' (ALPHA as
    in wdl's --draw ttest[:ALPHA]: 0 < ALPHA < 1, 0.05 if not given)."""
    kind, sep, arg = rule.partition(":")
    if kind in TESTS:
        try:
            return kind, parse_draw("ttest" + sep + arg)[1]  # the ALPHA rule of the t-test draw rule
        except ValueError:
            pass
    raise ValueError(f"{rule!r} is not 'ttest[:ALPHA]' (the corrected resampled t-test) or 'wilcoxon[:ALPHA]' "
                     f"(Wilcoxon's signed-ranks test on the folds), 0 < ALPHA < 1, 0.05 if not given "
                     f"(e.g. ttest:0.01)")


@dataclass(frozen=True)
class Verdict:
    """One cell against the base on its data set: +1 significantly better, −1 worse, 0 neither; its p."""

    sign: int
    p: float


@dataclass
class VersusBase:
    """Every cell of a table against the base column: the verdict of each tested cell (the base's
    own cells have none) and why each other cell was not tested."""

    base: str
    test: str            # "ttest" or "wilcoxon"
    alpha: float
    verdicts: dict[tuple[str, str], Verdict] = field(default_factory=dict)  # (data set, label) -> verdict
    untested: dict[tuple[str, str], str] = field(default_factory=dict)      # (data set, label) -> why not
    published: list[str] = field(default_factory=list)  # --with's columns: means only, never tested

    def word(self, dataset: str, label: str) -> str:
        """'better', 'worse' or '' (the base, not significant, not tested): the csv's versus_base."""
        v = self.verdicts.get((dataset, label))
        return "" if v is None or v.sign == 0 else ("better" if v.sign > 0 else "worse")

    def mark(self, dataset: str, label: str) -> str:
        """' ∘', ' •' or '': what follows the cell's text."""
        word = self.word(dataset, label)
        return "" if not word else " " + (BETTER if word == "better" else WORSE)

    def count_row(self, labels: list[str]) -> list[str]:
        """The count row: its name, then per column '(better/equal/worse)' of its tested cells ('' for the base)."""
        out = [COUNT_ROW]
        for lab in labels:
            signs = [v.sign for (_, b), v in self.verdicts.items() if b == lab]
            untested = lab == self.base or lab in self.published
            out.append("" if untested else f"({signs.count(1)}/{signs.count(0)}/{signs.count(-1)})")
        return out

    def legend(self, lower_is_better: bool) -> list[str]:
        """The lines under the table: the markers, the test, the count row, the cells not tested."""
        if self.test == "ttest":
            how = ("the corrected resampled t-test on the paired folds (Nadeau & Bengio 2003, as Weka's "
                   "Experimenter)")
        else:
            how = ("Wilcoxon's signed-ranks test on the paired folds (zero differences split; it does not "
                   "correct for the folds' overlapping training sets, so it rejects more often than the t-test)")
        lines = [f"{BETTER} significantly better, {WORSE} significantly worse than {self.base} on the data set "
                 f"({'lower' if lower_is_better else 'higher'} is better): {how}, two-tailed, "
                 f"α = {format(self.alpha, 'g')}",
                 f"{COUNT_ROW}: the cells of each column significantly better, not significantly different and "
                 f"significantly worse than {self.base}"]
        return lines + self.untested_lines()

    def untested_lines(self) -> list[str]:
        """One line per reason a cell was not tested, naming the cells ([] when every cell was)."""
        reasons: dict[str, list[str]] = {}
        for (d, lab), why in self.untested.items():
            reasons.setdefault(why, []).append(f"{lab} on {d}")
        lines = [f"not tested against {self.base} ({why}): {', '.join(cells)}" for why, cells in reasons.items()]
        if self.published:
            lines.append(f"not tested against {self.base} (published columns: means only, no per-fold values): "
                         f"{', '.join(self.published)}")
        return lines


def versus_base(base: str, labels: list[str], datasets: list[str], folds: Mapping[str, PairedFolds], test: str,
                alpha: float, lower_is_better: bool) -> VersusBase:
    """Each cell of `labels` × `datasets` against `base` on its data set; `folds`: {label: the
    per-fold values of (base, label)}, each pair's own (results.FoldValues: a data set it leaves out
    is not tested, and says why)."""
    out = VersusBase(base, test, alpha)
    for lab in labels:
        if lab == base:
            continue
        fv = folds[lab]
        for d in datasets:
            if d in fv.datasets:
                out.verdicts[(d, lab)] = judge(fv.values[(d, lab)], fv.values[(d, base)], fv.test_train_ratio(d),
                                               test, alpha, lower_is_better)
            else:
                out.untested[(d, lab)] = fv.left_out.get(d, "no paired fold values")
    return out


def judge(a: np.ndarray, b: np.ndarray, test_train_ratio: float, test: str, alpha: float,
          lower_is_better: bool) -> Verdict:
    """The paired fold values `a` against the base's `b`: the t-test's verdict as `wdl --draw ttest`
    gives it (ttest.verdict), or Wilcoxon's two-tailed test of a − b (ranks.wilcoxon, zero
    differences split), significant in the direction of the larger rank sum."""
    if test == "ttest":
        from bncbench.evaluate.ttest import corrected_ttest, verdict

        return Verdict(verdict(a, b, test_train_ratio, alpha, lower_is_better),
                       corrected_ttest(a, b, test_train_ratio).p)
    from bncbench.evaluate.ranks import wilcoxon

    w = wilcoxon(a, b, "split", "two")
    if w.p > alpha or w.r_plus == w.r_minus:
        return Verdict(0, w.p)
    higher = w.r_plus > w.r_minus
    return Verdict(-1 if higher == lower_is_better else 1, w.p)


def csv_column(text: str, versus: VersusBase) -> str:
    """The long csv of `report` (dataset, classifier, metric, mean, sd) with a last column versus_base."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for i, row in enumerate(csv.reader(io.StringIO(text))):
        w.writerow([*row, "versus_base" if i == 0 else versus.word(row[0], row[1])])
    return buf.getvalue()
