"""The legend: a column beside the map naming every terrain, hexside and linear feature,
mark and counter symbol the picture shows (in the style's ``legend_names``), and a
reduced counter's look."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from hexwar.board.maps import GameMap
from hexwar.grid.layout import Point
from hexwar.render._writer import SvgWriter, line_attrs, text_at
from hexwar.render.counters import CounterView, unit_symbol
from hexwar.render.layers import draw_ties
from hexwar.render.marks import marks_used, symbol
from hexwar.render.style import HexsideKind, Style

__all__ = ["draw_legend", "legend_rows"]

_ROW: Final = 0.62  # row height, in hex sizes
_FONT: Final = 0.3


def legend_rows(
    game_map: GameMap[Any], style: Style, counters: Sequence[CounterView]
) -> list[tuple[str, str]]:
    """``(kind, key)`` for each row: ``terrain``, ``hexside``, ``linear``, ``mark``,
    ``symbol``, ``reduced``; only what the picture shows."""
    cells = game_map.indexed_cells()
    rows = [("terrain", t) for t in sorted({game_map.terrain(c) for c in cells})]
    edges = list(game_map.graph.edges)
    rows += [("hexside", f) for f in sorted({f for a, b in edges for f in game_map.hexside(a, b)})]
    rows += [("linear", f) for f in sorted({f for a, b in edges for f in game_map.linear(a, b)})]
    rows += [("mark", k) for k in marks_used(game_map, style)]
    used = {cv.symbol for cv in counters if cv.symbol}
    rows += [("symbol", s) for s in sorted(used)]
    if any(cv.reduced for cv in counters):
        rows.append(("reduced", "reduced"))
    return rows


def legend_height(rows: int) -> float:
    """The legend's height in hex sizes."""
    return (rows + 1.5) * _ROW


def draw_legend(
    svg: SvgWriter,
    game_map: GameMap[Any],
    style: Style,
    unit: float,
    counters: Sequence[CounterView],
    x: float,
    y: float,
) -> None:
    """The legend's column, its top left corner at ``(x, y)``."""
    rows = legend_rows(game_map, style, counters)
    if not rows:
        return
    width, row, font = style.legend_width * unit, _ROW * unit, _FONT * unit
    svg.open("g", ("class", "legend"), ("fill", style.text_colour))
    svg.leaf(
        "rect",
        ("x", x),
        ("y", y),
        ("width", width),
        ("height", legend_height(len(rows)) * unit),
        ("fill", style.background),
        ("stroke", style.grid_colour),
        ("stroke-width", style.grid_width * unit),
    )
    text_at(
        svg,
        style.legend_name("legend"),
        x + width / 2.0,
        y + 0.6 * row,
        1.1 * font,
        ("text-anchor", "middle"),
        ("font-weight", "bold"),
        fit=0.9 * width,
        bold=True,
    )
    for i, (kind, key) in enumerate(rows):
        cy = y + (i + 1.6) * row
        _swatch(svg, style, unit, kind, key, x + 0.55 * unit, cy)
        text_at(
            svg,
            style.legend_name(key),
            x + 1.15 * unit,
            cy,
            font,
            ("text-anchor", "start"),
            fit=width - 1.3 * unit,
        )
    svg.close("g")


def _rect(
    svg: SvgWriter, x: float, y: float, w: float, h: float, *paint: tuple[str, str | float]
) -> None:
    svg.leaf("rect", ("x", x), ("y", y), ("width", w), ("height", h), *paint)


def _swatch(
    svg: SvgWriter, style: Style, unit: float, kind: str, key: str, x: float, y: float
) -> None:
    r = 0.24 * unit
    a, b = Point(x - 1.5 * r, y), Point(x + 1.5 * r, y)
    if kind == "terrain":
        grid = (("stroke", style.grid_colour), ("stroke-width", style.grid_width * unit))
        _rect(svg, x - 1.4 * r, y - r, 2.8 * r, 2 * r, ("fill", style.terrain_colour(key)), *grid)
    elif kind == "hexside":
        fs = style.hexside_style(key)
        if fs.kind is HexsideKind.CROSSING:
            a, b = Point(x - 0.8 * r, y), Point(x + 0.8 * r, y)
        svg.leaf(
            "line", *line_attrs(a, b), ("stroke", fs.colour), ("stroke-width", fs.width * unit)
        )
    elif kind == "linear":
        ls = style.linear_style(key)
        dash = " ".join(f"{d * unit:.2f}" for d in ls.dash) or "none"
        paint = (("stroke", ls.colour), ("stroke-width", ls.width * unit))
        svg.leaf("line", *line_attrs(a, b), *paint, ("stroke-dasharray", dash))
        if ls.ties:
            draw_ties(svg, a, b, ls, unit)
    elif kind == "mark" and style.marks[key].shape == "edge":
        mark = style.marks[key]
        svg.leaf(
            "line", *line_attrs(a, b), ("stroke", mark.colour), ("stroke-width", mark.size * unit)
        )
    elif kind == "mark":
        symbol(svg, style.marks[key], x, y, min(style.marks[key].size, 0.24) * unit, unit)
    elif kind == "symbol":
        unit_symbol(svg, key, x - 1.4 * r, y - 0.8 * r, 2.8 * r, 1.6 * r, style.text_colour)
    else:  # a reduced counter: the band under its designation
        _rect(svg, x - 1.4 * r, y - r, 2.8 * r, 2 * r, ("fill", style.text_colour))
        _rect(svg, x - 1.3 * r, y - 0.9 * r, 2.6 * r, 0.8 * r, ("fill", style.reduced_colour))
