r"""Hexsides, vertices and facing: the parts of the grid between and around hexes.

A :class:`Hexside` is the edge between two adjacent hexes (rivers, walls, fire arcs); a
:class:`Vertex` is a corner shared by three hexes; a :class:`Facing` is a unit's hex plus
the corner it faces (Triumph & Glory «Триумф и Слава» rule 6.11). Each value is
*canonical*: the same hexside or vertex is equal and hashes the same whichever hex you
name it from.

Numbering (directions as in :mod:`hexwar.grid.geometry`): **corner** ``i`` of a hex is the
vertex between directions ``i`` and ``i + 1``, i.e. toward ``DIAGONALS[i]``; the hexside
in direction ``i`` runs from corner ``i - 1`` to corner ``i``. With pointy tops
(corners as digits, directions in brackets)::

                 1
        NW [2] /   \ NE [1]
             2       0
       W [3] |       | E [0]
             3       5
        SW [4] \   / SE [5]
                 4

>>> side = Hexside.from_direction(Hex(0, 0), 0)
>>> side == Hexside(Hex(1, 0), Hex(0, 0))
True
>>> Vertex.from_corner(Hex(0, 0), 0).hexes
(Hex(q=0, r=0), Hex(q=1, r=-1), Hex(q=1, r=0))
>>> Facing(Hex(0, 0), 0).front()
(Hex(q=1, r=0), Hex(q=1, r=-1))
"""

from __future__ import annotations

import enum

import attrs

from hexwar.base.errors import GeometryError
from hexwar.grid.geometry import Hex

__all__ = [
    "Arc",
    "Facing",
    "FacingArcs",
    "FacingStyle",
    "Hexside",
    "Vertex",
    "hexsides_of",
    "vertices_of",
]


@attrs.frozen(order=True, init=False)
class Hexside:
    """The edge between two adjacent hexes, stored canonically as ``a < b``.

    ``Hexside(x, y)`` accepts the hexes in either order; they must be adjacent.

    >>> Hexside(Hex(0, 0), Hex(2, 0))
    Traceback (most recent call last):
    ...
    hexwar.base.errors.GeometryError: no hexside between Hex(q=0, r=0) and Hex(q=2, r=0): ...
    """

    a: Hex
    b: Hex

    def __init__(self, first: Hex, second: Hex) -> None:
        if first.distance(second) != 1:
            raise GeometryError(f"no hexside between {first!r} and {second!r}: not adjacent")
        lo, hi = (first, second) if first < second else (second, first)
        self.__attrs_init__(lo, hi)

    @classmethod
    def from_direction(cls, h: Hex, direction: int) -> Hexside:
        """The hexside of ``h`` in ``direction`` (0-5, taken modulo 6)."""
        return cls(h, h.neighbor(direction))

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes, in ``(q, r)`` order."""
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        """The hex across this hexside from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise GeometryError(f"{h!r} is not on {self!r}")

    def direction_from(self, h: Hex) -> int:
        """The direction of this hexside as seen from ``h`` (one of its two hexes).

        >>> Hexside(Hex(0, 0), Hex(0, 1)).direction_from(Hex(0, 1))
        2
        """
        return h.direction_to(self.other(h))

    def vertices(self) -> tuple[Vertex, Vertex]:
        """The two vertices at the ends of this hexside (sorted)."""
        d = self.a.direction_to(self.b)
        v1, v2 = Vertex.from_corner(self.a, d - 1), Vertex.from_corner(self.a, d)
        return (v1, v2) if v1 < v2 else (v2, v1)


@attrs.frozen(order=True, init=False)
class Vertex:
    """A corner shared by three mutually adjacent hexes, stored as the sorted triple.

    ``Vertex(x, y, z)`` accepts the hexes in any order.

    >>> Vertex(Hex(1, 0), Hex(0, 0), Hex(1, -1)) == Vertex.from_corner(Hex(1, -1), 4)
    True
    """

    hexes: tuple[Hex, Hex, Hex]

    def __init__(self, first: Hex, second: Hex, third: Hex) -> None:
        a, b, c = sorted((first, second, third))
        if a.distance(b) != 1 or b.distance(c) != 1 or a.distance(c) != 1:
            raise GeometryError(
                f"no vertex shared by {first!r}, {second!r} and {third!r}: "
                "they are not mutually adjacent"
            )
        self.__attrs_init__((a, b, c))

    @classmethod
    def from_corner(cls, h: Hex, corner: int) -> Vertex:
        """Corner ``corner`` (0-5, modulo 6) of ``h``: between directions ``i`` and ``i+1``."""
        return cls(h, h.neighbor(corner), h.neighbor(corner + 1))

    def corner_of(self, h: Hex) -> int:
        """The corner index (0-5) of this vertex as a corner of ``h``.

        >>> Vertex.from_corner(Hex(0, 0), 2).corner_of(Hex(-1, 0))
        0
        """
        if h not in self.hexes:
            raise GeometryError(f"{h!r} does not touch {self!r}")
        d1, d2 = sorted(h.direction_to(x) for x in self.hexes if x != h)
        return d1 if d2 == d1 + 1 else d2  # (0, 5) -> corner 5

    def hexsides(self) -> tuple[Hexside, Hexside, Hexside]:
        """The three hexsides that meet at this vertex (sorted)."""
        a, b, c = self.hexes
        return (Hexside(a, b), Hexside(a, c), Hexside(b, c))

    def adjacent_vertices(self) -> tuple[Vertex, Vertex, Vertex]:
        """The three vertices one hexside away (sorted)."""
        found = sorted(v for side in self.hexsides() for v in side.vertices() if v != self)
        return (found[0], found[1], found[2])


def hexsides_of(h: Hex) -> tuple[Hexside, ...]:
    """The six hexsides of ``h`` in direction order 0-5."""
    return tuple(Hexside.from_direction(h, d) for d in range(6))


def vertices_of(h: Hex) -> tuple[Vertex, ...]:
    """The six corners of ``h`` in corner order 0-5."""
    return tuple(Vertex.from_corner(h, i) for i in range(6))


class Arc(enum.Enum):
    """Where an adjacent hex lies relative to a unit's facing."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


class FacingStyle(enum.Enum):
    """How the six neighbours split into arcs; the *game* picks the style that applies.

    Triumph & Glory «Триумф и Слава» 6.11: ``STANDARD`` (2 front, 4 rear); ``FLANKED``,
    the defensive formation of cavalry in good order (2 front, 2 flank, 2 rear);
    ``ALL_ROUND``, infantry in villages, castles and redoubts (all 6 front).
    """

    STANDARD = "standard"
    FLANKED = "flanked"
    ALL_ROUND = "all-round"


@attrs.frozen
class FacingArcs:
    """The neighbours of a facing unit, split into front, flank and rear hexes."""

    front: tuple[Hex, ...]
    flank: tuple[Hex, ...]
    rear: tuple[Hex, ...]

    def arc_of(self, h: Hex) -> Arc:
        """The arc an adjacent hex lies in."""
        for arc, hexes in ((Arc.FRONT, self.front), (Arc.FLANK, self.flank), (Arc.REAR, self.rear)):
            if h in hexes:
                return arc
        raise GeometryError(f"{h!r} is not adjacent to the facing unit")


def _check_corner(instance: Facing, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or not 0 <= value <= 5:
        raise GeometryError(f"facing corner must be an int 0-5, got {value!r}")


@attrs.frozen(order=True)
class Facing:
    """A unit's hex and the corner (vertex, 0-5) it faces (T&G 6.11: toward a vertex).

    The two *front* hexes are the neighbours touching that vertex; the two *flank*
    hexes are next to them; the two *back* hexes are opposite. Turning is free in T&G
    (6.12); :meth:`rotate_left` turns counter-clockwise (corner + 1).

    >>> f = Facing(Hex(0, 0), 5)
    >>> f.front(), f.rotate_left().corner
    ((Hex(q=0, r=1), Hex(q=1, r=0)), 0)
    """

    hex: Hex
    corner: int = attrs.field(validator=_check_corner)

    @classmethod
    def toward(cls, h: Hex, vertex: Vertex) -> Facing:
        """The facing of ``h`` toward one of its own vertices."""
        return cls(h, vertex.corner_of(h))

    @property
    def vertex(self) -> Vertex:
        """The vertex faced."""
        return Vertex.from_corner(self.hex, self.corner)

    def rotate_left(self, times: int = 1) -> Facing:
        """Turn ``times`` x 60° counter-clockwise (toward higher corner numbers)."""
        return Facing(self.hex, (self.corner + times) % 6)

    def rotate_right(self, times: int = 1) -> Facing:
        """Turn ``times`` x 60° clockwise (toward lower corner numbers)."""
        return Facing(self.hex, (self.corner - times) % 6)

    def _around(self, *offsets: int) -> tuple[Hex, ...]:
        return tuple(self.hex.neighbor(self.corner + k) for k in offsets)

    def front(self) -> tuple[Hex, Hex]:
        """The two front hexes (T&G 6.11 «Фронт»): directions ``corner``, ``corner + 1``."""
        return (self.hex.neighbor(self.corner), self.hex.neighbor(self.corner + 1))

    def flank(self) -> tuple[Hex, Hex]:
        """The two flank hexes beside the front: directions ``corner - 1``, ``corner + 2``."""
        return (self.hex.neighbor(self.corner - 1), self.hex.neighbor(self.corner + 2))

    def back(self) -> tuple[Hex, Hex]:
        """The two hexes behind: directions ``corner + 3``, ``corner + 4``."""
        return (self.hex.neighbor(self.corner + 3), self.hex.neighbor(self.corner + 4))

    def rear(self) -> tuple[Hex, ...]:
        """The four non-front hexes (T&G 6.11 «Тыл»), directions ``corner + 2`` .. ``+ 5``."""
        return self._around(2, 3, 4, 5)

    def sees(self, target: Hex) -> bool:
        """Whether ``target`` lies in the 120° sector through the two front hexsides
        (T&G 6.13: a unit fires only through the sides of its front hexes): within 60° of
        the faced vertex's direction, the boundary included; never the unit's own hex.

        >>> f = Facing(Hex(0, 0), 5)
        >>> [f.sees(h) for h in (*f.front(), *f.flank(), *f.back())]
        [True, True, False, False, False, False]
        >>> f.sees(Hex(0, 3)), f.sees(Hex(-3, 0))
        (True, False)
        """

        def vec(h: Hex) -> tuple[int, int]:  # doubled x, and y / sqrt(3), of the axial lattice
            return 2 * h.q + h.r, h.r

        if target == self.hex:
            return False
        (vx, vy), a, b = vec(target - self.hex), *(vec(n - self.hex) for n in self.front())
        ax, ay = a[0] + b[0], a[1] + b[1]
        dot = vx * ax + 3 * vy * ay
        return dot > 0 and 4 * dot * dot >= (vx * vx + 3 * vy * vy) * (ax * ax + 3 * ay * ay)

    def arcs(self, style: FacingStyle = FacingStyle.STANDARD) -> FacingArcs:
        """The neighbours split into arcs for ``style`` (the game decides which applies).

        >>> arcs = Facing(Hex(0, 0), 0).arcs(FacingStyle.FLANKED)
        >>> arcs.flank
        (Hex(q=0, r=1), Hex(q=0, r=-1))
        >>> arcs.arc_of(Hex(-1, 0))
        <Arc.REAR: 'rear'>
        """
        if style is FacingStyle.STANDARD:
            return FacingArcs(front=self.front(), flank=(), rear=self.rear())
        if style is FacingStyle.FLANKED:
            return FacingArcs(front=self.front(), flank=self.flank(), rear=self.back())
        if style is FacingStyle.ALL_ROUND:
            return FacingArcs(front=self.hex.neighbors(), flank=(), rear=())
        raise GeometryError(f"unknown facing style {style!r}")
