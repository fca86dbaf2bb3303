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

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import record_from
from hexwar.base.errors import RenderError
from hexwar.board.maps import GameMap
from hexwar.grid.layout import Layout, Point
from hexwar.grid.square import Square
from hexwar.render._writer import SvgWriter, num, text_at
from hexwar.render.cells import CellGeometry, HexGeometry, SquareLayout
from hexwar.render.counters import CounterView, draw_counters
from hexwar.render.layers import (
    draw_cells,
    draw_crossings,
    draw_hexsides,
    draw_highlight,
    draw_linear,
    draw_path,
)
from hexwar.render.legend import draw_legend, legend_height, legend_rows
from hexwar.render.marks import draw_marks, mark_boxes
from hexwar.render.style import Style
from hexwar.render.texts import Box, draw_labels, draw_names, place_names

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
    return HexGeometry(Layout.for_offset(game_map.offset, DEFAULT_HEX_SIZE))


def _on_map(game_map: GameMap[Any], cell: Any, what: str) -> Any:
    if cell not in game_map:
        raise RenderError(f"{what} {cell!r} is not on the map")
    return cell


# -- the picture --------------------------------------------------------------------------


@attrs.frozen
class _Frame:
    """The picture's view box and the map's own box inside it."""

    left: float
    top: float
    right: float
    bottom: float
    map_box: Box
    legend_at: tuple[float, float] | None


def _frame(
    geo: CellGeometry, style: Style, corners: Iterable[Point], title: bool, legend_rows_n: int
) -> _Frame:
    points = list(corners)
    unit = geo.unit
    xs, ys = [p.x for p in points], [p.y for p in points]
    margin = style.margin * unit
    left, right = min(xs) - margin, max(xs) + margin
    top, bottom = min(ys) - margin, max(ys) + margin
    map_box = (left, top, right, bottom)
    legend_at = None
    if legend_rows_n:
        legend_at = (right, min(ys))
        right += style.legend_width * unit + margin
        bottom = max(bottom, min(ys) + legend_height(legend_rows_n) * unit + margin)
    if title:
        top -= 1.3 * style.title_size * unit
    return _Frame(left, top, right, bottom, map_box, legend_at)


def _open(
    svg: SvgWriter, frame: _Frame, style: Style, width: float | None, title: str | None
) -> None:
    view_w, view_h = frame.right - frame.left, frame.bottom - frame.top
    out_w = float(width) if width is not None else view_w
    if not (math.isfinite(out_w) and out_w > 0):
        raise RenderError(f"width must be a positive number, got {width!r}")
    svg.open(
        "svg",
        ("xmlns", "http://www.w3.org/2000/svg"),
        ("version", "1.1"),
        ("viewBox", f"{num(frame.left)} {num(frame.top)} {num(view_w)} {num(view_h)}"),
        ("width", out_w),
        ("height", out_w * view_h / view_w),
        ("font-family", style.font_family),
    )
    if title:
        svg.leaf("title", text=title)
    svg.leaf(
        "rect",
        ("class", "background"),
        ("x", frame.left),
        ("y", frame.top),
        ("width", view_w),
        ("height", view_h),
        ("fill", style.background),
    )


def _checked(
    game_map: GameMap[Any],
    style: Style,
    counters: Iterable[CounterView],
    highlight: Iterable[Any] | Mapping[Any, str],
    path: Sequence[Any],
) -> tuple[tuple[CounterView, ...], dict[Any, str], list[Any]]:
    shown = tuple(counters)
    for cv in shown:
        if not isinstance(cv, CounterView):
            raise RenderError(f"counters must be CounterView values, got {cv!r}")
        _on_map(game_map, cv.cell, "counter cell")
    if isinstance(highlight, Mapping):
        tinted = {_on_map(game_map, c, "highlighted cell"): str(v) for c, v in highlight.items()}
    else:
        colour = style.highlight_colour
        tinted = {_on_map(game_map, c, "highlighted cell"): colour for c in highlight}
    return shown, tinted, [_on_map(game_map, c, "path cell") for c in path]


def render_svg(
    game_map: GameMap[Any],
    layout: Layout | SquareLayout | None = None,
    counters: Iterable[CounterView] = (),
    style: Style | Mapping[str, Any] | None = None,
    *,
    labels: bool | Callable[[Any], str | None] = False,
    names: bool = True,
    title: str | None = None,
    highlight: Iterable[Any] | Mapping[Any, str] = (),
    path: Sequence[Any] = (),
    width: float | None = None,
    legend: bool = False,
) -> SvgImage:
    """Draw ``game_map`` and ``counters`` as an SVG document.

    ``layout``: a hex :class:`~hexwar.grid.layout.Layout` or a :class:`SquareLayout`; by
    default flat-topped hexes for ``-q`` offset maps, pointy otherwise, and squares for
    square grids. ``labels``: ``True`` prints the map's own labels (``"0912"``), or pass
    a function ``cell -> str | None``. ``highlight``: cells to tint (a mapping gives each
    its colour). ``path``: cells to join with a line (e.g. a unit's move). ``width``:
    the pixel width of the image (default: the drawing's own size). ``legend``: a column
    beside the map naming what it shows. The view box is the cells' corners plus
    ``style.margin`` (and the legend); ``style``: a :class:`Style`, or the fields that
    differ from its defaults (``{"highlight_opacity": 0.8}``). Raises :class:`RenderError`
    for counters, highlights or path cells off the map, or a layout that does not fit the
    cells.
    """
    style = record_from(Style, style or {}, "style")
    geo = _geometry(game_map, layout)
    cells = game_map.indexed_cells()
    if not cells:
        raise RenderError("cannot draw a map without cells")
    shown, tinted, route = _checked(game_map, style, counters, highlight, path)
    label_of = _label_function(game_map, labels)
    polygons = {c: geo.corners(c) for c in cells}
    rows = legend_rows(game_map, style, shown) if legend else []
    frame = _frame(geo, style, (p for ps in polygons.values() for p in ps), bool(title), len(rows))
    svg = SvgWriter()
    _open(svg, frame, style, width, title)
    under, labelled = _background(game_map, geo, style, labels is True)
    svg.raw(under)
    draw_highlight(svg, style, tinted, polygons)
    if labels is True:
        svg.raw(labelled)
    elif label_of is not None:
        draw_labels(svg, game_map, geo, style, label_of)
    if names:
        avoid = _counter_boxes(geo, style, shown) + mark_boxes(game_map, geo, style)
        draw_names(svg, style, place_names(game_map, geo, style, frame.map_box, avoid))
    if shown:
        toward = [_aim(geo, cv.faces) for cv in shown]
        draw_counters(svg, [geo.centre(cv.cell) for cv in shown], style, geo.unit, shown, toward)
    if route:
        draw_path(svg, geo, style, route)
    if frame.legend_at is not None:
        draw_legend(svg, game_map, style, geo.unit, shown, *frame.legend_at)
    if title:
        _title(svg, style, geo.unit, frame, title)
    svg.close("svg")
    return SvgImage(svg.result())


def _aim(geo: CellGeometry, cells: Sequence[Any]) -> Point | None:
    """The mean centre of ``cells`` (a counter's facing), ``None`` for none."""
    if not cells:
        return None
    points = [geo.centre(c) for c in cells]
    return Point(sum(p.x for p in points) / len(points), sum(p.y for p in points) / len(points))


@functools.lru_cache(maxsize=16)
def _background(
    game_map: GameMap[Any], geo: CellGeometry, style: Style, labels: bool
) -> tuple[str, str]:
    """The layers that do not change from one position to the next (cells, hexsides,
    linear features, crossings, marks; the map's own labels), drawn once per map, layout
    and style (both are immutable)."""
    svg = SvgWriter()
    polygons = {c: geo.corners(c) for c in game_map.indexed_cells()}
    draw_cells(svg, game_map, style, geo.unit, polygons)
    edges = sorted(tuple(sorted((a, b))) for a, b in game_map.graph.edges)
    draw_hexsides(svg, game_map, geo, style, edges)
    draw_linear(svg, game_map, geo, style, edges)
    draw_crossings(svg, game_map, geo, style, edges)
    draw_marks(svg, game_map, geo, style)
    text = SvgWriter()
    label_of = _label_function(game_map, True) if labels else None
    if label_of is not None:
        draw_labels(text, game_map, geo, style, label_of)
    return svg.result(), text.result()


def _counter_boxes(geo: CellGeometry, style: Style, shown: Sequence[CounterView]) -> list[Box]:
    half = (style.counter_size / 2.0 + style.stack_offset) * geo.unit
    centres = {geo.centre(cv.cell) for cv in shown}
    return [(p.x - half, p.y - half, p.x + half, p.y + half) for p in sorted(centres)]


def _title(svg: SvgWriter, style: Style, unit: float, frame: _Frame, title: str) -> None:
    size = style.title_size * unit
    fit = 0.96 * (frame.right - frame.left)
    text_at(
        svg,
        title,
        (frame.left + frame.right) / 2.0,
        frame.top + 0.8 * size,
        size,
        ("class", "title"),
        ("text-anchor", "middle"),
        ("font-weight", "bold"),
        ("fill", style.text_colour),
        fit=fit,
        bold=True,
    )


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


def write_svg(filename: str | Path, game_map: GameMap[Any], *args: Any, **kwargs: Any) -> Path:
    """Render with :func:`render_svg` (same arguments) and write UTF-8 to ``filename``."""
    target = Path(filename)
    target.write_text(render_svg(game_map, *args, **kwargs), encoding="utf-8", newline="\n")
    return target
