"""Counters as the renderer sees them: plain values the *game* builds from its units.

The renderer knows no game. A game turns each unit into a :class:`CounterView` (where
it stands, its side's colour, the texts printed on it, its NATO-style symbol) and
passes the views to :func:`hexwar.render.render_svg`.

>>> from hexwar.grid.geometry import Hex
>>> CounterView(Hex(0, 0), "#c03030", top="62 A", bottom="6-4", reduced=True)
CounterView(cell=Hex(q=0, r=0), colour='#c03030', top='62 A', bottom='6-4', reduced=True, \
text_colour='#000000', title=None, symbol=None, faces=())
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Final

import attrs

from hexwar.base.errors import RenderError
from hexwar.grid.layout import Point
from hexwar.render._writer import SvgWriter, line_attrs, text_at
from hexwar.render.style import Style, _check_colour

__all__ = ["NATO_SYMBOLS", "CounterView", "draw_counters", "unit_symbol"]

#: The unit symbols a counter may show (APP-6 / NATO style, drawn in a frame).
NATO_SYMBOLS: Final = frozenset(
    {"infantry", "armour", "cavalry", "mechanized", "artillery", "rocket", "air"}
)


def _check_symbol(
    instance: object, attribute: attrs.Attribute[str | None], value: str | None
) -> None:
    if value is not None and value not in NATO_SYMBOLS:
        raise RenderError(f"symbol must be one of {sorted(NATO_SYMBOLS)}, got {value!r}")


@attrs.frozen
class CounterView:
    """One counter to draw.

    ``cell``: where it stands; ``colour``: the fill (the side's colour); ``top``: the
    small upper text (the unit's designation); ``bottom``: the large lower text
    (strength and movement, like ``"6-4"``); ``reduced``: the reduced (flipped) side,
    drawn with a light band under the designation; ``title``: an optional tooltip;
    ``symbol``: a NATO-style unit symbol in a frame between the texts
    (``NATO_SYMBOLS``); ``faces``: the cells the unit faces (T&G 6.11: the two front
    hexes of a vertex), drawn as a dark wedge on the counter's edge pointing between
    them (off-map cells count too). Counters sharing a cell are stacked in the order
    given, the last on top, each shifted by ``Style.stack_offset``.
    """

    cell: Hashable
    colour: str = attrs.field(validator=_check_colour)
    top: str = ""
    bottom: str = ""
    reduced: bool = False
    text_colour: str = attrs.field(default="#000000", validator=_check_colour)
    title: str | None = None
    symbol: str | None = attrs.field(default=None, validator=_check_symbol)
    faces: tuple[Hashable, ...] = ()


def unit_symbol(
    svg: SvgWriter, kind: str, x0: float, y0: float, w: float, h: float, colour: str
) -> None:
    """The NATO-style symbol ``kind`` in the frame ``(x0, y0, w, h)``, stroked ``colour``."""
    stroke = (("stroke", colour), ("stroke-width", 0.07 * h), ("fill", "none"))
    svg.leaf("rect", ("x", x0), ("y", y0), ("width", w), ("height", h), *stroke)
    nw, ne, sw, se = Point(x0, y0), Point(x0 + w, y0), Point(x0, y0 + h), Point(x0 + w, y0 + h)
    cx, cy = x0 + w / 2.0, y0 + h / 2.0
    if kind in ("infantry", "mechanized"):
        svg.leaf("line", *line_attrs(nw, se), *stroke)
        svg.leaf("line", *line_attrs(sw, ne), *stroke)
    if kind == "cavalry":
        svg.leaf("line", *line_attrs(sw, ne), *stroke)
    if kind in ("armour", "mechanized"):
        rw, rh = 0.62 * w, 0.52 * h
        svg.leaf(
            "rect",
            ("x", cx - rw / 2),
            ("y", cy - rh / 2),
            ("width", rw),
            ("height", rh),
            ("rx", rh / 2),
            *stroke,
        )
    if kind in ("artillery", "rocket"):
        r = 0.16 * h
        svg.leaf(
            "circle",
            ("cx", cx),
            ("cy", cy + (0.12 * h if kind == "rocket" else 0)),
            ("r", r),
            ("fill", colour),
        )
    if kind == "rocket":  # an arrowhead over the dot: rocket artillery
        tip, base = cy - 0.36 * h, cy - 0.12 * h
        pts = f"{cx - 0.14 * h:.2f},{base:.2f} {cx:.2f},{tip:.2f} {cx + 0.14 * h:.2f},{base:.2f}"
        svg.leaf("polyline", ("points", pts), *stroke)
    if kind == "air":  # a propeller: two lobes
        for dx in (-1, 1):
            svg.leaf(
                "ellipse",
                ("cx", cx + dx * 0.16 * w),
                ("cy", cy),
                ("rx", 0.16 * w),
                ("ry", 0.22 * h),
                *stroke,
            )


def _positions(counters: Sequence[CounterView], step: float) -> list[tuple[float, float]]:
    """The shift of each counter in its stack (fanned up and to the right)."""
    totals: dict[Hashable, int] = {}
    for cv in counters:
        totals[cv.cell] = totals.get(cv.cell, 0) + 1
    seen: dict[Hashable, int] = {}
    out = []
    for cv in counters:
        i = seen.get(cv.cell, 0)
        seen[cv.cell] = i + 1
        shift = (i - (totals[cv.cell] - 1) / 2.0) * step
        out.append((shift, -shift))
    return out


def draw_counters(
    svg: SvgWriter,
    centres: Sequence[Point],
    style: Style,
    unit: float,
    counters: Sequence[CounterView],
    toward: Sequence[Point | None] = (),
) -> None:
    """Counters in the given order at ``centres`` (their cells' centres); ``toward``:
    per counter, the point its facing wedge points at (``None``: no wedge)."""
    side = style.counter_size * unit
    svg.open("g", ("class", "counters"), ("text-anchor", "middle"))
    aims = list(toward) or [None] * len(counters)
    for cv, c, (dx, dy), aim in zip(
        counters, centres, _positions(counters, style.stack_offset * unit), aims, strict=True
    ):
        _counter(svg, cv, c.x + dx, c.y + dy, side, style, unit)
        if aim is not None:
            _wedge(svg, c, Point(c.x + dx, c.y + dy), aim, side, style)
    svg.close("g")


def _wedge(svg: SvgWriter, cell: Point, at: Point, aim: Point, side: float, style: Style) -> None:
    """A facing wedge on the counter at ``at``, pointing from its cell centre to ``aim``."""
    vx, vy = aim.x - cell.x, aim.y - cell.y
    norm = (vx * vx + vy * vy) ** 0.5 or 1.0
    ux, uy = vx / norm, vy / norm
    tip = (at.x + ux * 0.66 * side, at.y + uy * 0.66 * side)
    base = (at.x + ux * 0.38 * side, at.y + uy * 0.38 * side)
    half = 0.2 * side
    pts = [
        tip,
        (base[0] - uy * half, base[1] + ux * half),
        (base[0] + uy * half, base[1] - ux * half),
    ]
    svg.leaf(
        "polygon",
        ("class", "facing"),
        ("points", " ".join(f"{x:.2f},{y:.2f}" for x, y in pts)),
        ("fill", style.counter_border),
        ("stroke", "#ffffff"),
        ("stroke-width", 0.03 * side),
    )


def _counter(
    svg: SvgWriter, cv: CounterView, cx: float, cy: float, side: float, style: Style, unit: float
) -> None:
    x0, y0 = cx - side / 2.0, cy - side / 2.0
    svg.open(
        "g", ("class", "counter reduced" if cv.reduced else "counter"), ("data-cell", repr(cv.cell))
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
    top_y = y0 + (0.17 if cv.symbol else 0.36) * side
    top_colour = cv.text_colour
    if cv.reduced:  # the reduced side: a light band under the designation
        svg.leaf(
            "rect",
            ("class", "stripe"),
            ("x", x0 + 0.04 * side),
            ("y", y0 + 0.04 * side),
            ("width", 0.92 * side),
            ("height", (0.26 if cv.symbol else 0.5) * side),
            ("rx", 0.05 * side),
            ("fill", style.reduced_colour),
        )
        top_colour = cv.colour
    fit = 0.88 * side
    if cv.top:
        text_at(svg, cv.top, cx, top_y, 0.2 * side, ("fill", top_colour), fit=fit)
    if cv.symbol:
        w, h = 0.56 * side, 0.32 * side
        unit_symbol(svg, cv.symbol, cx - w / 2.0, y0 + 0.33 * side, w, h, cv.text_colour)
    if cv.bottom:
        text_at(
            svg,
            cv.bottom,
            cx,
            y0 + (0.82 if cv.symbol else 0.72) * side,
            (0.27 if cv.symbol else 0.34) * side,
            ("fill", cv.text_colour),
            ("font-weight", "bold"),
            fit=fit,
            bold=True,
        )
    svg.close("g")
