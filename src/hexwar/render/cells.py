"""Where cells sit on the screen: hexes through :class:`hexwar.grid.layout.Layout`, squares
through :class:`SquareLayout`, both behind one small interface for the renderer.

>>> layout = SquareLayout(size=10.0)
>>> layout.centre(Square(2, 1))
Point(x=20.0, y=10.0)
>>> [tuple(p) for p in layout.edge(Square(0, 0), Square(1, 0))]
[(5.0, -5.0), (5.0, 5.0)]
>>> layout.edge(Square(0, 0), Square(1, 1)) is None  # diagonal squares share no side
True
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Final

import attrs

from hexwar.base.errors import RenderError
from hexwar.grid.geometry import Hex
from hexwar.grid.layout import Layout, Point
from hexwar.grid.square import Square

__all__ = ["CellGeometry", "HexGeometry", "SquareLayout"]


def _check_size(instance: SquareLayout, attribute: attrs.Attribute[float], value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise RenderError(f"square size must be a positive number, got {value!r}")


def _to_point(value: Point | tuple[float, float]) -> Point:
    x, y = value
    return Point(float(x), float(y))


_SQUARE_CORNERS: Final = ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))


@attrs.frozen
class SquareLayout:
    """Square cells ``Square(col, row)``: side ``size``, column to the right, row down.

    ``origin`` is the pixel centre of ``Square(0, 0)``.
    """

    size: float = attrs.field(default=40.0, converter=float, validator=_check_size)
    origin: Point = attrs.field(default=Point(0.0, 0.0), converter=_to_point)

    @property
    def unit(self) -> float:
        """The length style sizes are fractions of: ``size / sqrt(3)``, the radius of a
        flat-topped hex as tall as the square, so squares and hexes draw alike."""
        return self.size / math.sqrt(3.0)

    def centre(self, cell: Hashable) -> Point:
        sq = _square(cell)
        return Point(self.origin.x + sq.col * self.size, self.origin.y + sq.row * self.size)

    def corners(self, cell: Hashable) -> tuple[Point, ...]:
        """The four corners, clockwise on screen from the top left."""
        c, s = self.centre(cell), self.size
        return tuple(Point(c.x + dx * s, c.y + dy * s) for dx, dy in _SQUARE_CORNERS)

    def edge(self, a: Hashable, b: Hashable) -> tuple[Point, Point] | None:
        """The side shared by orthogonal neighbours (``None`` for diagonal ones)."""
        sa, sb = _square(a), _square(b)
        dc, dr = sb.col - sa.col, sb.row - sa.row
        if abs(dc) + abs(dr) != 1:
            if max(abs(dc), abs(dr)) == 1:
                return None
            raise RenderError(f"{a!r} and {b!r} are not adjacent")
        c, h = self.centre(a), self.size / 2.0
        mx, my = c.x + dc * h, c.y + dr * h
        return Point(mx - dr * h, my - dc * h), Point(mx + dr * h, my + dc * h)


def _square(cell: object) -> Square:
    if not isinstance(cell, Square):
        raise RenderError(f"a square layout cannot place {cell!r} (expected a Square)")
    return cell


def _hex(cell: object) -> Hex:
    if not isinstance(cell, Hex):
        raise RenderError(f"a hex layout cannot place {cell!r} (expected a Hex)")
    return cell


@attrs.frozen
class HexGeometry:
    """The renderer's view of a hex :class:`~hexwar.grid.layout.Layout`."""

    layout: Layout

    @property
    def unit(self) -> float:
        """The length that style sizes are fractions of: the smaller hex radius."""
        return min(abs(self.layout.size.x), abs(self.layout.size.y))

    def centre(self, cell: Hashable) -> Point:
        return self.layout.hex_to_pixel(_hex(cell))

    def corners(self, cell: Hashable) -> tuple[Point, ...]:
        return self.layout.corners(_hex(cell))

    def edge(self, a: Hashable, b: Hashable) -> tuple[Point, Point] | None:
        """The hexside between adjacent hexes: corners ``d - 1`` and ``d`` of ``a``."""
        ha, hb = _hex(a), _hex(b)
        if ha.distance(hb) != 1:
            raise RenderError(f"{a!r} and {b!r} are not adjacent")
        d = ha.direction_to(hb)
        return self.layout.corner(ha, d - 1), self.layout.corner(ha, d)


CellGeometry = HexGeometry | SquareLayout
"""What the renderer draws with."""
