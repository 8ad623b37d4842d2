"""How a figure looks (docs/cli.md: figures): the default style (titled, drawn wide for the
screen) or the paper style (no title, serif, a journal column's width, vector PDF)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bncbench.errors import UserError

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

STYLES = ("default", "paper")
#: inches: a journal's single and double column (IEEE, Springer, Elsevier: 3.3 in and 7 in)
WIDTHS = {"single": 3.3, "double": 7.0}
#: the paper style's column of each figure kind unless --width says otherwise: the two-panel and
#: the wide ones double, the narrow ones single
COLUMN = {"scatter": "double", "times": "double", "wdl": "double", "gd": "double", "stability": "double",
          "biasvar": "single", "cd": "single", "bayes": "single"}

_BASE: dict[RcKeyType, Any] = {"svg.hashsalt": "bncbench", "svg.fonttype": "none"}
_DEFAULT_RC: dict[RcKeyType, Any] = {**_BASE, "font.size": 9, "axes.titlesize": 9}
#: matplotlib ships DejaVu Serif (and STIX): a serif font on every machine; TrueType fonts embedded
#: whole in a PDF (Type 42), text kept as text in an SVG
_PAPER_RC: dict[RcKeyType, Any] = {
    **_BASE, "font.family": "serif", "font.serif": ["DejaVu Serif", "STIXGeneral"], "mathtext.fontset": "dejavuserif",
    "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "xtick.labelsize": 7, "ytick.labelsize": 7,
    "legend.fontsize": 7, "pdf.fonttype": 42, "ps.fonttype": 42, "axes.linewidth": 0.6, "lines.linewidth": 1.0,
    "xtick.major.width": 0.6, "ytick.major.width": 0.6}


@dataclass(frozen=True)
class Style:
    """A figure's look: `name` (one of STYLES), `width` ("single", "double", or "" for the kind's
    own), the matplotlib settings `rc` applied while drawing and saving, whether the plot's title
    is drawn, PNG resolution and whether the saved page is cropped to what is drawn (the paper
    style keeps the page exactly the column's width)."""

    name: str = "default"
    width: str = ""
    rc: dict[RcKeyType, Any] = field(default_factory=lambda: dict(_DEFAULT_RC), compare=False)
    titled: bool = True
    dpi: int = 150
    tight: bool = True

    @property
    def paper(self) -> bool:
        return self.name == "paper"

    def inches(self, kind: str) -> float:
        """The paper style's width of a figure of `kind`, in inches."""
        return WIDTHS[self.width or COLUMN[kind]]

    def size(self, kind: str, data: dict, default: Callable[[dict], tuple[float, float]]) -> tuple[float, float]:
        """(width, height) in inches of the figure of `kind` with `data`: `default(data)` in the
        default style; in the paper style the column's width and a height for that width."""
        if not self.paper:
            return default(data)
        w = self.inches(kind)
        return w, PAPER_HEIGHT[kind](data, w)


def style(name: str | None = None, width: str | None = None) -> Style:
    """The Style called `name` (None: the default) at `width` (single | double; paper style only);
    UserError naming the option for any other value."""
    name = name or "default"
    if name not in STYLES:
        raise UserError(f"--style: {name!r} is not one of {', '.join(STYLES)}")
    if width and width not in WIDTHS:
        raise UserError(f"--width: {width!r} is not one of {', '.join(WIDTHS)}")
    if name == "default":
        if width:
            raise UserError("--width: only with --style paper (the default style draws each figure at its own size)")
        return Style()
    return Style("paper", width or "", dict(_PAPER_RC), titled=False, dpi=300, tight=False)


def _wdl_height(d: dict, w: float) -> float:
    return 2.0 * len(d.get("bars", ())) + 0.7


#: the paper style's height (inches) of each kind from its data and width: a single-column
#: scatter stacks its two panels
PAPER_HEIGHT: dict[str, Callable[[dict, float], float]] = {
    "scatter": lambda d, w: 5.6 if w < 5 else 3.2,
    "times": lambda d, w: 2.8,
    "wdl": _wdl_height,
    "gd": lambda d, w: 2.5,
    "biasvar": lambda d, w: 2.4,
    "cd": lambda d, w: 0.8 + 0.2 * ((len(d["labels"]) + 1) // 2) + 0.1 * len(d["cliques"]),
    "bayes": lambda d, w: min(0.85 * w, 3.6),
    "stability": lambda d, w: 1.2 + 0.2 * len(d["datasets"]),
}
