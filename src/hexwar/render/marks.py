"""Marks: a small symbol on every cell carrying a tag the style names (``Style.marks``),
e.g. airfields, trenches, start and reserve hexes; ``edge`` marks draw a band along the
cell's sides on the map's border (a supply source beyond the edge)."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from hexwar.board.maps import GameMap
from hexwar.grid.geometry import Hex
from hexwar.grid.layout import Point
from hexwar.grid.square import Square
from hexwar.render._writer import SvgWriter, line_attrs, points_attr
from hexwar.render.cells import CellGeometry
from hexwar.render.style import MARK_SLOTS, MarkStyle, Style

__all__ = ["draw_marks", "mark_boxes", "marks_used", "symbol"]


def marks_used(game_map: GameMap[Any], style: Style) -> dict[str, MarkStyle]:
    """The style's mark entries that some cell's tag takes, by entry name."""
    out: dict[str, MarkStyle] = {}
    for c in game_map.indexed_cells():
        for tag in sorted(game_map.tags(c)):
            found = style.mark_of(tag)
            if found is not None:
                out[found[0]] = found[1]
    return dict(sorted(out.items()))


def mark_boxes(
    game_map: GameMap[Any], geo: CellGeometry, style: Style
) -> list[tuple[float, float, float, float]]:
    """The box of every mark symbol drawn (not ``edge`` bands)."""
    out = []
    for c in game_map.indexed_cells():
        for tag in sorted(game_map.tags(c)):
            found = style.mark_of(tag)
            if found is None or found[1].shape == "edge":
                continue
            mark, centre = found[1], geo.centre(c)
            dx, dy = MARK_SLOTS[mark.slot]
            x, y, r = centre.x + dx * geo.unit, centre.y + dy * geo.unit, 1.4 * mark.size * geo.unit
            out.append((x - r, y - r, x + r, y + r))
    return out


def _outside(game_map: GameMap[Any], cell: Hashable) -> list[Hashable]:
    if isinstance(cell, Hex):
        return [n for n in cell.neighbors() if n not in game_map]
    if isinstance(cell, Square):
        around = ((1, 0), (-1, 0), (0, 1), (0, -1))
        sides = [Square(cell.col + dc, cell.row + dr) for dc, dr in around]
        return [n for n in sides if n not in game_map]
    return []


def symbol(svg: SvgWriter, mark: MarkStyle, x: float, y: float, r: float, unit: float) -> None:
    """``mark``'s shape of radius ``r`` centred on ``(x, y)`` (not ``edge``)."""
    fill, stroke = ("fill", mark.colour), ("stroke", mark.colour)
    thin = ("stroke-width", 0.06 * unit)
    if mark.shape in ("dot", "ring"):
        paint = fill if mark.shape == "dot" else ("fill", "none")
        svg.leaf("circle", ("cx", x), ("cy", y), ("r", r), paint, stroke, thin)
    elif mark.shape in ("square", "diamond", "triangle", "star"):
        svg.leaf("polygon", ("points", points_attr(_polygon(mark.shape, x, y, r))), fill)
    elif mark.shape == "plane":  # an airfield: a runway cross
        for a, b in ((Point(x - r, y), Point(x + r, y)), (Point(x, y - r), Point(x, y + r))):
            svg.leaf("line", *line_attrs(a, b), stroke, ("stroke-width", 0.45 * r))
        svg.leaf("circle", ("cx", x), ("cy", y), ("r", 1.15 * r), ("fill", "none"), stroke, thin)
    elif mark.shape == "trench":  # a zig-zag line with teeth
        pts = [
            Point(x - r * 1.4 + i * r * 0.7, y + (r * 0.35 if i % 2 else -r * 0.35))
            for i in range(5)
        ]
        svg.leaf(
            "polyline",
            ("points", points_attr(pts)),
            ("fill", "none"),
            stroke,
            ("stroke-width", 0.3 * r),
        )
    elif mark.shape == "ferry":  # two bars across the river
        for dy in (-0.35 * r, 0.35 * r):
            a, b = Point(x - r, y + dy), Point(x + r, y + dy)
            svg.leaf("line", *line_attrs(a, b), stroke, ("stroke-width", 0.3 * r))


def _polygon(shape: str, x: float, y: float, r: float) -> list[Point]:
    if shape == "square":
        return [Point(x + dx * r, y + dy * r) for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    if shape == "diamond":
        return [Point(x, y - r), Point(x + r, y), Point(x, y + r), Point(x - r, y)]
    if shape == "triangle":
        return [Point(x, y - r), Point(x + 0.95 * r, y + 0.7 * r), Point(x - 0.95 * r, y + 0.7 * r)]
    points = []  # a five-pointed star
    for i in range(10):
        rr = r if i % 2 == 0 else 0.45 * r
        a = math.pi * (i / 5.0 - 0.5)
        points.append(Point(x + rr * math.cos(a), y + rr * math.sin(a)))
    return points


def draw_marks(svg: SvgWriter, game_map: GameMap[Any], geo: CellGeometry, style: Style) -> None:
    """Each tagged cell's marks (``edge`` bands first, under the symbols)."""
    items = []
    for c in game_map.indexed_cells():
        for tag in sorted(game_map.tags(c)):
            found = style.mark_of(tag)
            if found is not None:
                items.append((found[1].shape != "edge", found[0], c, found[1]))
    if not items:
        return
    unit = geo.unit
    svg.open("g", ("class", "marks"), ("stroke-linecap", "round"))
    for _, key, c, mark in items:
        if mark.shape == "edge":
            for n in _outside(game_map, c):
                ends = geo.edge(c, n)
                if ends is not None:
                    svg.leaf(
                        "line",
                        ("class", "mark"),
                        ("data-mark", key),
                        *line_attrs(*ends),
                        ("stroke", mark.colour),
                        ("stroke-width", mark.size * unit),
                    )
            continue
        centre = geo.centre(c)
        dx, dy = MARK_SLOTS[mark.slot]
        svg.open("g", ("class", "mark"), ("data-mark", key))
        symbol(svg, mark, centre.x + dx * unit, centre.y + dy * unit, mark.size * unit, unit)
        svg.close("g")
    svg.close("g")
