"""SVG pictures of a map and the counters on it, built as plain text (no dependencies).

The output is deterministic: the same input gives a byte-identical SVG (cells, edges and
features are drawn in sorted order, numbers are printed with fixed precision). Layers,
bottom to top: cells filled by terrain, hexside features along edges, linear features
centre to centre, crossings (bridges) across edges, highlighted cells, cell names, hex
labels, counters, a path, the title. Each layer is a ``<g class="...">``.

>>> from hexwar.grid.geometry import Hex
>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.terrain import chart_from_dict
>>> chart = chart_from_dict(
...     {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> svg = render_svg(build_map(chart, dict.fromkeys(hexagon(1), "clear")))
>>> svg.startswith("<svg") and svg.count('class="cell"')
7
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from hexwar.base.errors import RenderError
from hexwar.board.maps import GameMap
from hexwar.grid.layout import FLAT, POINTY, Layout, Point
from hexwar.grid.square import Square
from hexwar.render._writer import SvgWriter, line_attrs, num, points_attr, text_at
from hexwar.render.cells import CellGeometry, HexGeometry, SquareLayout
from hexwar.render.counters import CounterView
from hexwar.render.style import HexsideKind, LineStyle, Style

__all__ = ["DEFAULT_HEX_SIZE", "DEFAULT_SQUARE_SIZE", "SvgImage", "render_svg", "write_svg"]

DEFAULT_HEX_SIZE: Final = 30.0
"""Hex radius in pixels when no layout is given."""
DEFAULT_SQUARE_SIZE: Final = 48.0
"""Square side in pixels when no layout is given."""


class SvgImage(str):
    """An SVG document as a string that shows itself as a picture in Jupyter.

    >>> SvgImage("<svg/>")._repr_svg_()
    '<svg/>'
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


# -- choosing the geometry ----------------------------------------------------------------


def _geometry(game_map: GameMap[Any], layout: Layout | SquareLayout | None) -> CellGeometry:
    if isinstance(layout, SquareLayout):
        return layout
    if isinstance(layout, Layout):
        return HexGeometry(layout)
    if layout is not None:
        raise RenderError(f"layout must be a Layout or a SquareLayout, got {layout!r}")
    if game_map.topology.name.startswith("square"):
        return SquareLayout(DEFAULT_SQUARE_SIZE)
    offset = game_map.offset or ""
    orientation = FLAT if offset.endswith("-q") else POINTY
    return HexGeometry(Layout(orientation, DEFAULT_HEX_SIZE))


def _on_map(game_map: GameMap[Any], cell: Any, what: str) -> Any:
    if cell not in game_map:
        raise RenderError(f"{what} {cell!r} is not on the map")
    return cell


# -- the picture --------------------------------------------------------------------------


def render_svg(
    game_map: GameMap[Any],
    layout: Layout | SquareLayout | None = None,
    counters: Iterable[CounterView] = (),
    style: Style | None = None,
    *,
    labels: bool | Callable[[Any], str | None] = False,
    names: bool = True,
    title: str | None = None,
    highlight: Iterable[Any] | Mapping[Any, str] = (),
    path: Sequence[Any] = (),
    width: float | None = None,
) -> SvgImage:
    """Draw ``game_map`` and ``counters`` as an SVG document.

    ``layout``: a hex :class:`~hexwar.grid.layout.Layout` or a :class:`SquareLayout`; by
    default flat-topped hexes for ``-q`` offset maps, pointy otherwise, and squares for
    square grids. ``labels``: ``True`` prints the map's own labels (``"0912"``), or pass
    a function ``cell -> str | None``. ``highlight``: cells to tint (a mapping gives each
    its colour). ``path``: cells to join with a line (e.g. a unit's move). ``width``:
    the pixel width of the image (default: the drawing's own size). The view box is the
    cells' corners plus ``style.margin``. Raises :class:`RenderError` for counters,
    highlights or path cells off the map, or a layout that does not fit the cells.
    """
    style = style or Style()
    geo = _geometry(game_map, layout)
    unit = geo.unit
    cells = game_map.indexed_cells()
    if not cells:
        raise RenderError("cannot draw a map without cells")
    polygons = {c: geo.corners(c) for c in cells}
    counters = tuple(counters)
    for cv in counters:
        if not isinstance(cv, CounterView):
            raise RenderError(f"counters must be CounterView values, got {cv!r}")
        _on_map(game_map, cv.cell, "counter cell")
    if isinstance(highlight, Mapping):
        tinted = {_on_map(game_map, c, "highlighted cell"): str(v) for c, v in highlight.items()}
    else:
        tinted = {
            _on_map(game_map, c, "highlighted cell"): style.highlight_colour for c in highlight
        }
    route = [_on_map(game_map, c, "path cell") for c in path]
    label_of = _label_function(game_map, labels)

    xs = [p.x for ps in polygons.values() for p in ps]
    ys = [p.y for ps in polygons.values() for p in ps]
    margin = style.margin * unit
    title_font = style.title_size * unit
    left, right = min(xs) - margin, max(xs) + margin
    top, bottom = min(ys) - margin, max(ys) + margin
    if title:
        top -= 1.3 * title_font
    view_w, view_h = right - left, bottom - top
    out_w = float(width) if width is not None else view_w
    if not (math.isfinite(out_w) and out_w > 0):
        raise RenderError(f"width must be a positive number, got {width!r}")

    svg = SvgWriter()
    svg.open(
        "svg",
        ("xmlns", "http://www.w3.org/2000/svg"),
        ("version", "1.1"),
        ("viewBox", f"{num(left)} {num(top)} {num(view_w)} {num(view_h)}"),
        ("width", out_w),
        ("height", out_w * view_h / view_w),
        ("font-family", style.font_family),
    )
    if title:
        svg.leaf("title", text=title)
    svg.leaf(
        "rect",
        ("class", "background"),
        ("x", left),
        ("y", top),
        ("width", view_w),
        ("height", view_h),
        ("fill", style.background),
    )

    svg.open(
        "g",
        ("class", "cells"),
        ("stroke", style.grid_colour),
        ("stroke-width", style.grid_width * unit),
        ("stroke-linejoin", "round"),
    )
    for c in cells:
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

    edges = sorted(tuple(sorted((a, b))) for a, b in game_map.graph.edges)
    _draw_hexsides(svg, game_map, geo, style, edges)
    _draw_linear(svg, game_map, geo, style, edges)
    _draw_crossings(svg, game_map, geo, style, edges)

    if tinted:
        svg.open("g", ("class", "highlight"), ("fill-opacity", style.highlight_opacity))
        for c in sorted(tinted):
            svg.leaf(
                "polygon",
                ("data-cell", repr(c)),
                ("points", points_attr(polygons[c])),
                ("fill", tinted[c]),
            )
        svg.close("g")

    named = [(c, n) for c in cells if names and (n := game_map.cell_name(c))]
    if named:
        svg.open(
            "g",
            ("class", "names"),
            ("font-size", style.name_size * unit),
            ("text-anchor", "middle"),
            ("fill", style.text_colour),
            ("stroke", style.halo_colour),
            ("stroke-width", 0.06 * unit),
            ("stroke-linejoin", "round"),
            ("paint-order", "stroke"),
        )
        for c, n in named:
            centre, low = geo.centre(c), max(p.y for p in polygons[c])
            text_at(svg, n, centre.x, centre.y + 0.66 * (low - centre.y), 0)
        svg.close("g")

    if label_of is not None:
        texts = [(c, s) for c in cells if (s := label_of(c))]
        svg.open(
            "g",
            ("class", "labels"),
            ("font-size", style.label_size * unit),
            ("text-anchor", "middle"),
            ("fill", style.label_colour),
        )
        for c, s in texts:
            centre, corners = geo.centre(c), polygons[c]
            high = min(p.y for p in corners)
            # a flat top edge (>= 2 corners on it) leaves more room than a pointy top
            flat = sum(abs(p.y - high) < 1e-6 * unit for p in corners) >= 2
            text_at(svg, s, centre.x, centre.y + (0.74 if flat else 0.6) * (high - centre.y), 0)
        svg.close("g")

    if counters:
        _draw_counters(svg, geo, style, counters)
    if route:
        _draw_path(svg, geo, style, route)
    if title:
        text_at(
            svg,
            title,
            (left + right) / 2.0,
            min(ys) - margin / 2.0 - 0.5 * title_font,
            title_font,
            ("class", "title"),
            ("text-anchor", "middle"),
            ("font-weight", "bold"),
            ("fill", style.text_colour),
        )
    svg.close("svg")
    return SvgImage(svg.result())


def _label_function(
    game_map: GameMap[Any], labels: bool | Callable[[Any], str | None]
) -> Callable[[Any], str | None] | None:
    if labels is False:
        return None
    if labels is True:
        cells = game_map.indexed_cells()
        if not isinstance(cells[0], Square) and game_map.offset is None:
            raise RenderError(
                "labels=True but the map has no labels (no offset layout); pass a function"
            )

        def own(cell: Any) -> str | None:
            try:
                return game_map.label(cell)
            except ValueError:  # e.g. negative offset coordinates: no printed label
                return None

        return own
    if callable(labels):
        return labels
    raise RenderError(f"labels must be a bool or a function, got {labels!r}")


def _draw_hexsides(
    svg: SvgWriter,
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    edges: Sequence[tuple[Any, ...]],
) -> None:
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


def _draw_crossings(
    svg: SvgWriter,
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    edges: Sequence[tuple[Any, ...]],
) -> None:
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


def _draw_linear(
    svg: SvgWriter,
    game_map: GameMap[Any],
    geo: CellGeometry,
    style: Style,
    edges: Sequence[tuple[Any, ...]],
) -> None:
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
            _draw_ties(svg, ca, cb, ls, unit)
    svg.close("g")


def _draw_ties(svg: SvgWriter, a: Point, b: Point, ls: LineStyle, unit: float) -> None:
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


def _draw_counters(
    svg: SvgWriter, geo: CellGeometry, style: Style, counters: Sequence[CounterView]
) -> None:
    """Counters in the given order; those sharing a cell fan out up and to the right."""
    unit = geo.unit
    side = style.counter_size * unit
    step = style.stack_offset * unit
    totals: dict[Hashable, int] = {}
    for cv in counters:
        totals[cv.cell] = totals.get(cv.cell, 0) + 1
    seen: dict[Hashable, int] = {}
    svg.open("g", ("class", "counters"), ("text-anchor", "middle"))
    for cv in counters:
        i = seen.get(cv.cell, 0)
        seen[cv.cell] = i + 1
        shift = (i - (totals[cv.cell] - 1) / 2.0) * step
        c = geo.centre(cv.cell)
        cx, cy = c.x + shift, c.y - shift
        x0, y0 = cx - side / 2.0, cy - side / 2.0
        svg.open(
            "g",
            ("class", "counter reduced" if cv.reduced else "counter"),
            ("data-cell", repr(cv.cell)),
        )
        if cv.title:
            svg.leaf("title", text=cv.title)
        svg.leaf(
            "rect",
            ("x", x0),
            ("y", y0),
            ("width", side),
            ("height", side),
            ("rx", 0.08 * side),
            ("fill", cv.colour),
            ("stroke", style.counter_border),
            ("stroke-width", 0.03 * unit),
        )
        if cv.reduced:
            svg.leaf(
                "rect",
                ("class", "stripe"),
                ("x", x0 + 0.06 * side),
                ("y", y0 + 0.06 * side),
                ("width", 0.88 * side),
                ("height", 0.12 * side),
                ("fill", style.reduced_colour),
            )
        fill = ("fill", cv.text_colour)
        if cv.top:
            text_at(svg, cv.top, cx, y0 + 0.36 * side, 0.24 * side, fill, fit=0.9 * side)
        if cv.bottom:
            text_at(
                svg,
                cv.bottom,
                cx,
                y0 + 0.72 * side,
                0.34 * side,
                fill,
                ("font-weight", "bold"),
                fit=0.9 * side,
            )
        svg.close("g")
    svg.close("g")


def _draw_path(svg: SvgWriter, geo: CellGeometry, style: Style, route: Sequence[Hashable]) -> None:
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
    svg.leaf(
        "circle",
        ("class", "start"),
        ("cx", start.x),
        ("cy", start.y),
        ("r", 1.2 * style.path_width * unit),
        ("fill", style.path_colour),
    )
    svg.leaf(
        "circle",
        ("class", "end"),
        ("cx", end.x),
        ("cy", end.y),
        ("r", 2.0 * style.path_width * unit),
        ("fill", "none"),
    )
    svg.close("g")


def write_svg(filename: str | Path, game_map: GameMap[Any], *args: Any, **kwargs: Any) -> Path:
    """Render with :func:`render_svg` (same arguments) and write UTF-8 to ``filename``."""
    target = Path(filename)
    target.write_text(render_svg(game_map, *args, **kwargs), encoding="utf-8", newline="\n")
    return target
