"""Screen layout: hex <-> pixel conversion and hex corners (Red Blob's ``Layout``).

Pixels use screen axes: ``x`` to the right, ``y`` **down** (SVG, Qt, PIL). A layout has an
orientation (:data:`POINTY` or :data:`FLAT` tops), a size (centre-to-corner radius, which
may differ in x and y) and the pixel position of ``Hex(0, 0)``'s centre. A negative
``y`` size flips the picture for y-up axes; everything stays consistent.

Corner ``i`` of a hex is the vertex between directions ``i`` and ``i + 1`` (the numbering
of :class:`hexwar.grid.edges.Vertex`), so corners run counter-clockwise on screen like the
directions. (Red Blob's pages number corners clockwise from a different start.)

>>> layout = Layout(POINTY, size=10.0)
>>> layout.hex_to_pixel(Hex(1, 0))
Point(x=17.32..., y=0.0)
>>> layout.pixel_to_hex(Point(17.0, 1.0))
Hex(q=1, r=0)
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

import attrs

from hexwar.base.errors import GeometryError
from hexwar.grid.geometry import FractionalHex, Hex, hex_round

__all__ = ["FLAT", "POINTY", "Layout", "Orientation", "Point"]


class Point(NamedTuple):
    """A pixel position (a plain tuple, so it can go straight into drawing APIs)."""

    x: float
    y: float


@attrs.frozen
class Orientation:
    """The forward matrix ``f`` (hex -> pixel), its inverse ``b`` and the first corner angle.

    ``start_angle`` is in sixths of a turn: corner ``i`` lies at ``60° * (i + start_angle)``
    counter-clockwise from the x axis (mathematical sense; on screen, y is flipped).
    """

    name: str
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float


_SQRT3: Final = math.sqrt(3.0)

POINTY: Final = Orientation(
    "pointy", _SQRT3, _SQRT3 / 2.0, 0.0, 3.0 / 2.0, _SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5
)
"""Pointy-topped hexes: direction 0 points east, rows are straight (offset ``-r``)."""

FLAT: Final = Orientation(
    "flat", 3.0 / 2.0, 0.0, _SQRT3 / 2.0, _SQRT3, 2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0, 0.0
)
"""Flat-topped hexes: direction 0 points south-east, columns are straight (offset ``-q``)."""

_ORIENTATIONS: Final = {"pointy": POINTY, "flat": FLAT}


def _to_orientation(value: Orientation | str) -> Orientation:
    if isinstance(value, Orientation):
        return value
    try:
        return _ORIENTATIONS[value]
    except KeyError:
        raise GeometryError(f"orientation must be 'pointy' or 'flat', got {value!r}") from None


def _to_size(value: Point | tuple[float, float] | float) -> Point:
    if isinstance(value, int | float):
        size = Point(float(value), float(value))
    else:
        x, y = value
        size = Point(float(x), float(y))
    if size.x == 0 or size.y == 0 or not all(map(math.isfinite, size)):
        raise GeometryError(f"hex size must be finite and non-zero, got {value!r}")
    return size


def _to_point(value: Point | tuple[float, float]) -> Point:
    x, y = value
    return Point(float(x), float(y))


@attrs.frozen
class Layout:
    """How hexes sit on the screen.

    ``orientation`` is :data:`POINTY`, :data:`FLAT` or their names; ``size`` is the
    centre-to-corner distance, a number or an ``(x, y)`` pair; ``origin`` is the pixel
    centre of ``Hex(0, 0)``.

    >>> Layout("flat", size=(10, 5), origin=(100, 100)).hex_to_pixel(Hex(0, 1))
    Point(x=100.0, y=108.66...)
    """

    orientation: Orientation = attrs.field(converter=_to_orientation)
    size: Point = attrs.field(converter=_to_size)
    origin: Point = attrs.field(default=Point(0.0, 0.0), converter=_to_point)

    @classmethod
    def for_offset(cls, offset: str | None, size: float = 1.0) -> Layout:
        """The layout of a map printed with ``offset`` coordinates: flat-topped hexes for
        column offsets (``"odd-q"``, ``"even-q"``), pointy-topped otherwise.

        >>> Layout.for_offset("odd-q").orientation is FLAT, Layout.for_offset(None).size
        (True, Point(x=1.0, y=1.0))
        """
        return cls(FLAT if (offset or "").endswith("-q") else POINTY, size)

    def hex_to_pixel(self, h: Hex | FractionalHex) -> Point:
        """The pixel centre of a hex (or the pixel of a fractional hex)."""
        o, size = self.orientation, self.size
        x = (o.f0 * h.q + o.f1 * h.r) * size.x
        y = (o.f2 * h.q + o.f3 * h.r) * size.y
        return Point(x + self.origin.x, y + self.origin.y)

    def pixel_to_fractional(self, p: Point | tuple[float, float]) -> FractionalHex:
        """The exact (fractional) axial position of a pixel; inverse of :meth:`hex_to_pixel`."""
        o = self.orientation
        x = (p[0] - self.origin.x) / self.size.x
        y = (p[1] - self.origin.y) / self.size.y
        return FractionalHex(o.b0 * x + o.b1 * y, o.b2 * x + o.b3 * y)

    def pixel_to_hex(self, p: Point | tuple[float, float]) -> Hex:
        """The hex that contains a pixel (a pixel on a border goes to one of its hexes)."""
        f = self.pixel_to_fractional(p)
        return hex_round(f.q, f.r)

    def corner_offset(self, corner: int) -> Point:
        """The offset from a hex's centre to its corner ``corner`` (0-5, taken modulo 6).

        Corner ``i`` lies between directions ``i`` and ``i + 1``.

        >>> x, y = Layout(POINTY, 1.0).corner_offset(0)  # between east and north-east
        >>> round(x, 3), round(y, 3)
        (0.866, -0.5)
        """
        angle = math.pi / 3.0 * ((corner % 6) + self.orientation.start_angle)
        return Point(self.size.x * math.cos(angle), -self.size.y * math.sin(angle))

    def corner(self, h: Hex, corner: int) -> Point:
        """The pixel position of corner ``corner`` of ``h``."""
        c = self.hex_to_pixel(h)
        off = self.corner_offset(corner)
        return Point(c.x + off.x, c.y + off.y)

    def corners(self, h: Hex) -> tuple[Point, ...]:
        """The six corners of ``h`` in order 0-5: a polygon ready to draw."""
        c = self.hex_to_pixel(h)
        return tuple(
            Point(c.x + off.x, c.y + off.y) for off in (self.corner_offset(i) for i in range(6))
        )
