"""Names beside the points of a scatter plot that overlap no other name, no point and no frame
(docs/algorithms.md §6.11): each name tries offsets around its point in a fixed order and takes
the first whose drawn box is free; a name that finds none gets a number, and a number that finds
none is left out (the caller says which)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

#: (dx, dy) directions around a point, in the order tried: the four diagonals, then the sides
_DIRECTIONS = ((-1, 1), (1, 1), (1, -1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0))
_ALIGN = {-1: "right", 0: "center", 1: "left"}
_VALIGN = {-1: "top", 0: "center", 1: "bottom"}
RADII = (5.0, 10.0, 16.0, 24.0)  # points from the point's centre to the name's nearest corner
PAD = 1.0                 # points kept free around every box (renderers measure text slightly apart)
#: a name set off farther than the first radius is joined to its point by this line
_LEADER = {"arrowstyle": "-", "color": "0.45", "linewidth": 0.4, "shrinkA": 0, "shrinkB": 1}


@dataclass
class Placed:
    """What found room on one axes: {point index: the name's text artist}, {point index: its
    number's artist} and the indices that found none."""

    names: dict[int, Any] = field(default_factory=dict)
    numbers: dict[int, Any] = field(default_factory=dict)
    left_out: list[int] = field(default_factory=list)


def _free(box, taken: list, frame) -> bool:
    return (box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0 and box.y1 <= frame.y1
            and not any(box.overlaps(t) for t in taken))


def text_box(note, renderer):
    """The box (display coordinates) of an annotation's text alone, without its leader line."""
    from matplotlib.text import Text

    note.update_positions(renderer)
    return Text.get_window_extent(note, renderer)


def _try(ax, renderer, xy, text: str, first: tuple[int, int], taken: list, frame, pad: float, fontsize: float,
         gid: str):
    """The annotation of `text` at `xy` at the first free offset (`first` direction first), or None."""
    directions = [first, *(d for d in _DIRECTIONS if d != first)]
    for r in RADII:
        for dx, dy in directions:
            note = ax.annotate(text, xy, xytext=(dx * r, dy * r), textcoords="offset points", ha=_ALIGN[dx],
                               va=_VALIGN[dy], fontsize=fontsize, annotation_clip=False,
                               arrowprops=None if r == RADII[0] else _LEADER)
            box = text_box(note, renderer).padded(pad)
            if _free(box, taken, frame):
                note.set_gid(gid)
                taken.append(box)
                return note
            note.remove()
    return None


def place(ax, renderer, points: list[tuple[float, float]], names: list[str], order: list[int],
          first: list[tuple[int, int]], marker_size: float, fontsize: float, gid: str) -> Placed:
    """Names `names[i]` beside `points[i]` (data coordinates of `ax`, whose layout and limits are
    final), for i in `order` (the first placed first); `first[i]`: the direction tried first;
    `marker_size`: the points' marker area (points², as scatter's `s`). A name that finds no room
    gets its number (its position in `order`, from 1) in a smaller font; the rest are left out.
    Every placed box lies inside the axes and overlaps no other box and no point's marker."""
    from matplotlib.transforms import Bbox

    scale = renderer.points_to_pixels(1.0)
    pad = PAD * scale
    frame = ax.get_window_extent(renderer)
    radius = math.sqrt(marker_size) / 2 * scale + pad
    taken = [Bbox.from_extents(x - radius, y - radius, x + radius, y + radius)
             for x, y in ax.transData.transform(points)]
    out = Placed()
    for i in order:
        note = _try(ax, renderer, points[i], names[i], first[i], taken, frame, pad, fontsize, f"{gid}-{names[i]}")
        if note is not None:
            out.names[i] = note
    for n, i in enumerate(order, 1):
        if i in out.names:
            continue
        note = _try(ax, renderer, points[i], str(n), first[i], taken, frame, pad, fontsize - 1, f"{gid}-{names[i]}")
        if note is None:
            out.left_out.append(i)
        else:
            out.numbers[i] = note
    return out
