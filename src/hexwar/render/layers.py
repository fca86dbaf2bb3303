"""The map's layers under the texts and counters: cells, hexside features, linear
features, crossings, highlighted cells and a path (each a ``<g class="...">``)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from hexwar.board.maps import GameMap
from hexwar.grid.layout import Point
from hexwar.render._writer import SvgWriter, line_attrs, num, points_attr
from hexwar.render.cells import CellGeometry
from hexwar.render.style import HexsideKind, LineStyle, Style

__all__ = [
    "draw_cells",
    "draw_crossings",
    "draw_hexsides",
    "draw_highlight",
    "draw_linear",
    "draw_path",
]


def draw_cells(
    svg: SvgWriter,
    game_map: GameMap[Any],
    style: Style,
    unit: float,
    polygons: Mapping[Any, tuple[Point, ...]],
) -> None:
    """Every cell filled with its terrain's colour, tagged ``data-cell``/``data-terrain``."""
    svg.open(
        "g",
        ("class", "cells"),
        ("stroke", style.grid_colour),
        ("stroke-width", style.grid_width * unit),
        ("stroke-linejoin", "round"),
    )
    for c in game_map.indexed_cells():
        t = game_map.terrain(c)
        svg.leaf(
            "polygon",
            ("class", "cell"),
            ("data-cell", repr(c)),
            ("data-terrain", t),
            ("points", points_attr(polygons[c])),
            ("fill", style.terrain_colour(t)),
        )
    svg.close("g")


def draw_highlight(
    svg: SvgWriter,
    style: Style,
    tinted: Mapping[Any, str],
    polygons: Mapping[Any, tuple[Point, ...]],
) -> None:
    """Tinted cells (a colour each) over the terrain."""
    if not tinted:
        return
    svg.open("g", ("class", "highlight"), ("fill-opacity", style.highlight_opacity))
    for c in sorted(tinted):
        svg.leaf(
            "polygon",
            ("data-cell", repr(c)),
            ("points", points_attr(polygons[c])),
            ("fill", tinted[c]),
        )
    svg.close("g")


def draw_hexsides(
    svg: SvgWriter,
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    edges: Sequence[tuple[Any, ...]],
) -> None:
    """Hexside features drawn along their edge (rivers), the widest first."""
    items = []
    for a, b in edges:
        for f in game_map.hexside(a, b):
            fs = style.hexside_style(f)
            if fs.kind is HexsideKind.EDGE:
                items.append((-fs.width, f, a, b))
    if not items:
        return
    svg.open("g", ("class", "hexsides"), ("stroke-linecap", "round"), ("fill", "none"))
    for _, f, a, b in sorted(items):
        ends = geo.edge(a, b)
        if ends is None:  # diagonal squares share only a corner
            continue
        fs = style.hexside_style(f)
        svg.leaf(
            "line",
            ("class", "hexside"),
            ("data-feature", f),
            ("data-cells", f"{a!r} {b!r}"),
            *line_attrs(*ends),
            ("stroke", fs.colour),
            ("stroke-width", fs.width * geo.unit),
        )
    svg.close("g")


def draw_crossings(
    svg: SvgWriter,
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    edges: Sequence[tuple[Any, ...]],
) -> None:
    """Crossing features (bridges, fords) as a bar across the middle of their edge."""
    items = []
    for a, b in edges:
        for f in sorted(game_map.hexside(a, b)):
            if style.hexside_style(f).kind is HexsideKind.CROSSING:
                items.append((a, b, f))
    if not items:
        return
    svg.open("g", ("class", "crossings"), ("stroke-linecap", "butt"))
    for a, b, f in items:
        fs = style.hexside_style(f)
        ca, cb = geo.centre(a), geo.centre(b)
        mx, my = (ca.x + cb.x) / 2.0, (ca.y + cb.y) / 2.0
        dx, dy = cb.x - ca.x, cb.y - ca.y
        k = 0.3 * geo.unit / math.hypot(dx, dy)
        svg.leaf(
            "line",
            ("class", "crossing"),
            ("data-feature", f),
            ("data-cells", f"{a!r} {b!r}"),
            *line_attrs(Point(mx - dx * k, my - dy * k), Point(mx + dx * k, my + dy * k)),
            ("stroke", fs.colour),
            ("stroke-width", fs.width * geo.unit),
        )
    svg.close("g")


def draw_linear(
    svg: SvgWriter,
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    edges: Sequence[tuple[Any, ...]],
) -> None:
    """Linear features (roads, railways) centre to centre, the widest first."""
    items = sorted(
        (-style.linear_style(f).width, f, a, b) for a, b in edges for f in game_map.linear(a, b)
    )
    if not items:
        return
    unit = geo.unit
    svg.open("g", ("class", "linear"), ("stroke-linecap", "round"), ("fill", "none"))
    for _, f, a, b in items:
        ls = style.linear_style(f)
        ca, cb = geo.centre(a), geo.centre(b)
        extra: list[tuple[str, str | float]] = []
        if ls.dash:
            extra.append(("stroke-dasharray", " ".join(num(d * unit) for d in ls.dash)))
        svg.leaf(
            "line",
            ("class", "linear"),
            ("data-feature", f),
            ("data-cells", f"{a!r} {b!r}"),
            *line_attrs(ca, cb),
            ("stroke", ls.colour),
            ("stroke-width", ls.width * unit),
            *extra,
        )
        if ls.ties:
            draw_ties(svg, ca, cb, ls, unit)
    svg.close("g")


def draw_ties(svg: SvgWriter, a: Point, b: Point, ls: LineStyle, unit: float) -> None:
    """Cross-ties across a railway segment, evenly spaced, none at the cell centres."""
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy)
    n = max(1, round(length / (ls.tie_spacing * unit)))
    half = 2.5 * ls.width * unit
    nx, ny = -dy / length * half, dx / length * half
    for i in range(n):
        t = (i + 0.5) / n
        x, y = a.x + dx * t, a.y + dy * t
        svg.leaf(
            "line",
            ("class", "tie"),
            *line_attrs(Point(x - nx, y - ny), Point(x + nx, y + ny)),
            ("stroke", ls.colour),
            ("stroke-width", 0.6 * ls.width * unit),
        )


def draw_path(svg: SvgWriter, geo: CellGeometry, style: Style, route: Sequence[Hashable]) -> None:
    """A polyline through the cell centres, a dot at the start and a ring at the end."""
    unit = geo.unit
    points = [geo.centre(c) for c in route]
    svg.open(
        "g",
        ("class", "path"),
        ("stroke", style.path_colour),
        ("stroke-width", style.path_width * unit),
        ("stroke-opacity", style.path_opacity),
        ("stroke-linecap", "round"),
        ("stroke-linejoin", "round"),
    )
    if len(points) > 1:
        svg.leaf("polyline", ("points", points_attr(points)), ("fill", "none"))
    start, end = points[0], points[-1]
    for cls, p, r, fill in (("start", start, 1.2, style.path_colour), ("end", end, 2.0, "none")):
        svg.leaf(
            "circle",
            ("class", cls),
            ("cx", p.x),
            ("cy", p.y),
            ("r", r * style.path_width * unit),
            ("fill", fill),
        )
    svg.close("g")
