"""Place names and hex labels. Names are placed so that no two overlap: each tries a few
spots around its cell (under the centre, above, to the right, to the left, further out),
on two lines for ``"English / Русский"`` names, then on one; the first spot whose box
(:mod:`hexwar.render.metrics` widths) meets no placed name, stays on the picture and
covers the least of the counters and marks, and is nearest its cell, wins.

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.terrain import chart_from_dict
>>> from hexwar.grid.layout import POINTY, Layout
>>> from hexwar.render.cells import HexGeometry
>>> chart = chart_from_dict(
...     {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> cells = hexagon(1)
>>> m = build_map(chart, dict.fromkeys(cells, "clear"),
...     names={c: "Krasnaya Sloboda / Красная Слобода" for c in cells[:3]})
>>> placed = place_names(m, HexGeometry(Layout(POINTY, 30.0)), Style())
>>> len(placed), any(overlap(a.box, b.box) for a in placed for b in placed if a is not b)
(3, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from hexwar.board.maps import GameMap
from hexwar.render._writer import SvgWriter, text_at
from hexwar.render.cells import CellGeometry
from hexwar.render.metrics import text_width
from hexwar.render.style import Style

__all__ = ["Box", "PlacedName", "draw_labels", "draw_names", "overlap", "place_names"]

Box = tuple[float, float, float, float]
"""``(left, top, right, bottom)`` in picture coordinates."""

#: Where a name's box centre may go, in hex radii from the cell centre (``dx`` is also
#: pushed out by half the box's width to the right or left), in order of preference.
_SPOTS: Final = (
    (0.0, 0.62, 0),
    (0.0, -0.62, 0),
    (0.55, 0.3, 1),
    (-0.55, 0.3, -1),
    (0.55, -0.3, 1),
    (-0.55, -0.3, -1),
    (0.0, 1.15, 0),
    (0.0, -1.15, 0),
    (0.55, 0.85, 1),
    (-0.55, 0.85, -1),
    (0.55, -0.85, 1),
    (-0.55, -0.85, -1),
    (0.0, 1.5, 0),
    (0.0, -1.5, 0),
    (1.0, 0.62, 1),
    (-1.0, 0.62, -1),
    (1.0, -0.62, 1),
    (-1.0, -0.62, -1),
)
_LINE: Final = 1.15  # line height, in font sizes
_PAD: Final = 0.08  # space kept around a name, in font sizes
#: The cost of a name's distance from its cell (squared), against the area of counters
#: and marks it covers: a name a hex away from its cell costs as much as half a counter.
_FAR: Final = 0.35


@attrs.frozen
class PlacedName:
    """A name's lines, the centre of its block and its box."""

    cell: Any
    lines: tuple[str, ...]
    x: float
    y: float
    size: float
    box: Box


def overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box(lines: Sequence[str], x: float, y: float, size: float) -> Box:
    half_w = max(text_width(s, size) for s in lines) / 2.0 + _PAD * size
    half_h = (len(lines) * _LINE * size) / 2.0 + _PAD * size
    return (x - half_w, y - half_h, x + half_w, y + half_h)


def _layouts(name: str) -> list[tuple[str, ...]]:
    one = (name,)
    parts = tuple(p.strip() for p in name.split(" / ") if p.strip())
    return [parts, one] if len(parts) == 2 else [one]


def place_names(
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    frame: Box | None = None,
    avoid: Sequence[Box] = (),
) -> list[PlacedName]:
    """Every named cell's name placed without overlaps (``frame``: the box names must stay
    in; ``avoid``: boxes a name should not cover, e.g. the counters, given up before two
    names overlap; a name that fits nowhere takes its first spot)."""
    unit, size = geo.unit, style.name_size * geo.unit
    named = [(c, n) for c in game_map.indexed_cells() if (n := game_map.cell_name(c))]
    named.sort(key=lambda cn: -text_width(cn[1], size))  # the longest first
    placed: list[PlacedName] = []
    for cell, name in named:
        centre = geo.centre(cell)
        tries = []
        for lines in _layouts(name):
            half = max(text_width(s, size) for s in lines) / 2.0
            for dx, dy, push in _SPOTS:
                x = centre.x + dx * unit + push * half
                y = centre.y + dy * unit
                tries.append(PlacedName(cell, lines, x, y, size, _box(lines, x, y, size)))
        reach = max(t.box[2] - t.box[0] for t in tries) + 2.0 * unit
        near = [b for b in avoid if abs(b[0] - centre.x) < reach and abs(b[1] - centre.y) < reach]
        fits = [
            t
            for t in tries
            if not any(overlap(t.box, p.box) for p in placed)
            and (frame is None or _inside(t.box, frame))
        ]
        if not fits:
            placed.append(tries[0])
            continue
        score = [
            sum(_area(t.box, b) for b in near) + _FAR * _gap(t.box, centre.x, centre.y) ** 2
            for t in fits
        ]
        placed.append(fits[score.index(min(score))])
    return placed


def _gap(box: Box, x: float, y: float) -> float:
    """How far ``(x, y)`` is from ``box`` (0 inside it)."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return float((dx * dx + dy * dy) ** 0.5)


def _area(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _inside(box: Box, frame: Box) -> bool:
    return box[0] >= frame[0] and box[1] >= frame[1] and box[2] <= frame[2] and box[3] <= frame[3]


def draw_names(svg: SvgWriter, style: Style, placed: Sequence[PlacedName]) -> None:
    """The placed names, white-haloed, each block centred on its spot."""
    if not placed:
        return
    size = placed[0].size
    svg.open(
        "g",
        ("class", "names"),
        ("font-size", size),
        ("text-anchor", "middle"),
        ("fill", style.text_colour),
        ("stroke", style.halo_colour),
        ("stroke-width", 0.2 * size),
        ("stroke-linejoin", "round"),
        ("paint-order", "stroke"),
    )
    for p in sorted(placed, key=lambda p: (p.y, p.x)):
        top = p.y - (len(p.lines) - 1) * _LINE * p.size / 2.0
        for i, line in enumerate(p.lines):
            text_at(svg, line, p.x, top + i * _LINE * p.size, p.size)
    svg.close("g")


def draw_labels(
    svg: SvgWriter,
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    label_of: Callable[[Any], str | None],
) -> None:
    """Each cell's label near its top edge."""
    svg.open(
        "g",
        ("class", "labels"),
        ("font-size", style.label_size * geo.unit),
        ("text-anchor", "middle"),
        ("fill", style.label_colour),
    )
    for c in game_map.indexed_cells():
        s = label_of(c)
        if not s:
            continue
        centre, corners = geo.centre(c), geo.corners(c)
        high = min(p.y for p in corners)
        # a flat top edge (>= 2 corners on it) leaves more room than a pointy top
        flat = sum(abs(p.y - high) < 1e-6 * geo.unit for p in corners) >= 2
        text_at(svg, s, centre.x, centre.y + (0.74 if flat else 0.6) * (high - centre.y), 0)
    svg.close("g")
