"""Axial hex coordinates and the hex algorithms (after Red Blob Games' hex guide).

A :class:`Hex` is an axial coordinate ``(q, r)`` with the cube coordinate
``s = -q - r`` derived. Directions are numbered 0-5 in the Red Blob order::

    0: (+1, 0)   1: (+1, -1)   2: (0, -1)   3: (-1, 0)   4: (-1, +1)   5: (0, +1)

With pointy-topped hexes this is east, north-east, north-west, west, south-west,
south-east: counter-clockwise, starting east. Direction ``i + 3`` is the opposite
of direction ``i``. Bad input (a negative radius, hexes that are not adjacent) raises
:class:`GeometryError`. Offset/doubled coordinates and map labels are in
:mod:`hexwar.grid.coords`, pixels in :mod:`hexwar.grid.layout`, hexsides, vertices and facing in
:mod:`hexwar.grid.edges`; ``docs/coordinates.md`` is the user's guide.

>>> a = Hex(0, 0)
>>> a.neighbor(0)
Hex(q=1, r=0)
>>> a.distance(Hex(3, -1))
3
>>> len(a.ring(2)), len(a.spiral(2))
(12, 19)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Final

import attrs

from hexwar.base.errors import GeometryError

__all__ = [
    "DIAGONALS",
    "DIRECTIONS",
    "ORIGIN",
    "FractionalHex",
    "Hex",
    "hex_round",
]


# The nudge Red Blob's line drawing adds to both ends of a line, in cube coordinates
# (q, r, s). It is not parallel to any hexside, so a sample point that falls exactly on a
# hexside is pushed off it, always to the same side (see :meth:`Hex.line_to`).
_NUDGE_Q: Final = 1e-6
_NUDGE_R: Final = 2e-6  # so s is nudged by -3e-6


@attrs.frozen(order=True, cache_hash=True, repr=False)
class Hex:
    """An axial hex coordinate: a frozen, hashable, ordered value (ordered by ``(q, r)``).

    >>> Hex(1, 2).s
    -3
    >>> Hex(1, 2) + Hex(1, -1), Hex(1, 2) - Hex(1, 2), Hex(1, -1) * 3
    (Hex(q=2, r=1), Hex(q=0, r=0), Hex(q=3, r=-3))
    >>> sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)])
    [Hex(q=0, r=-1), Hex(q=0, r=5), Hex(q=1, r=0)]
    """

    q: int
    r: int

    def __repr__(self) -> str:
        return f"Hex(q={self.q}, r={self.r})"

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    # -- arithmetic -------------------------------------------------------------
    def __add__(self, other: Hex) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q - other.q, self.r - other.r)

    def __mul__(self, k: int) -> Hex:
        if not isinstance(k, int):
            return NotImplemented
        return Hex(self.q * k, self.r * k)

    __rmul__ = __mul__

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    # -- neighbours -------------------------------------------------------------
    def neighbor(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (0-5, any int is taken modulo 6)."""
        d = DIRECTIONS[direction % 6]
        return Hex(self.q + d.q, self.r + d.r)

    def neighbors(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order 0-5."""
        q, r = self.q, self.r
        return tuple(Hex(q + d.q, r + d.r) for d in DIRECTIONS)

    def diagonal(self, direction: int) -> Hex:
        """The hex at distance 2 across the vertex between directions ``i`` and ``i+1``."""
        d = DIAGONALS[direction % 6]
        return Hex(self.q + d.q, self.r + d.r)

    def diagonals(self) -> tuple[Hex, ...]:
        """The six diagonal hexes, in order 0-5."""
        return tuple(self + d for d in DIAGONALS)

    def direction_to(self, other: Hex) -> int:
        """The direction index of an *adjacent* ``other``.

        >>> Hex(0, 0).direction_to(Hex(0, 1))
        5
        """
        try:
            return _DIRECTION_INDEX[(other.q - self.q, other.r - self.r)]
        except KeyError:
            raise GeometryError(f"{other!r} is not adjacent to {self!r}") from None

    # -- metric -----------------------------------------------------------------
    def length(self) -> int:
        """Distance from the origin."""
        return (abs(self.q) + abs(self.r) + abs(self.q + self.r)) // 2

    def distance(self, other: Hex) -> int:
        """Hex distance (number of steps) to ``other``."""
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    # -- regions ----------------------------------------------------------------
    def ring(self, radius: int) -> list[Hex]:
        """The hexes exactly ``radius`` away, walking counter-clockwise.

        The walk starts at ``self + DIRECTIONS[4] * radius`` (Red Blob's ring).
        Radius 0 gives the centre alone; a negative radius is an error.

        >>> Hex(0, 0).ring(0)
        [Hex(q=0, r=0)]
        >>> len(Hex(5, -2).ring(3))
        18
        """
        if radius < 0:
            raise GeometryError(f"ring radius must be >= 0, got {radius}")
        if radius == 0:
            return [self]
        results: list[Hex] = []
        h = self + DIRECTIONS[4] * radius
        for i in range(6):
            for _ in range(radius):
                results.append(h)
                h = h.neighbor(i)
        return results

    def spiral(self, radius: int) -> list[Hex]:
        """The centre, then ring 1, ring 2, ... up to ``radius``: ``1 + 3R(R+1)`` hexes."""
        if radius < 0:
            raise GeometryError(f"spiral radius must be >= 0, got {radius}")
        results = [self]
        for k in range(1, radius + 1):
            results.extend(self.ring(k))
        return results

    def within(self, radius: int) -> Iterator[Hex]:
        """All hexes at distance <= ``radius``, in ``(q, r)`` order."""
        if radius < 0:
            raise GeometryError(f"radius must be >= 0, got {radius}")
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                yield Hex(self.q + dq, self.r + dr)

    # -- lines ------------------------------------------------------------------
    def line_to(self, other: Hex) -> list[Hex]:
        """The hexes on the straight line from ``self`` to ``other``, both included.

        Red Blob's line drawing: sample ``distance + 1`` evenly spaced points on the
        segment between the two centres and round each to its hex, so the line has
        ``distance + 1`` hexes and consecutive hexes are adjacent.

        A line along hexsides (e.g. toward a :meth:`diagonal`) has sample points exactly
        on a hexside. Both ends are nudged by ``(+1e-6, +2e-6, -3e-6)`` in cube
        coordinates ``(q, r, s)`` (Red Blob's nudge), which is parallel to no hexside, so
        such a tie always goes to the same side: **the hex with the smaller** ``s``, **or
        with the larger** ``r`` **if** ``s`` **is equal** -- of two hexes across a
        hexside, the one in direction 0, 4 or 5 from the other (E, SW or SE with
        pointy tops). The tie rule depends only on the point, so the line from ``b``
        to ``a`` is the reverse of the line from ``a`` to ``b``. (Verified exact for lines
        up to 2 * 10**4 hexes long; much longer lines could let the nudge move a point.)

        >>> Hex(0, 0).line_to(Hex(2, -1))
        [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=-1)]
        >>> Hex(0, 0).line_to(Hex(1, 1))  # ties between Hex(1, 0) and Hex(0, 1)
        [Hex(q=0, r=0), Hex(q=0, r=1), Hex(q=1, r=1)]
        """
        n = self.distance(other)
        if n == 0:
            return [self]
        aq, ar = self.q + _NUDGE_Q, self.r + _NUDGE_R
        dq, dr = other.q - self.q, other.r - self.r
        return [hex_round(aq + dq * i / n, ar + dr * i / n) for i in range(n + 1)]

    # -- transforms -------------------------------------------------------------
    def rotate_left(self, center: Hex | None = None, times: int = 1) -> Hex:
        """Rotate 60° counter-clockwise (toward higher direction numbers) about ``center``.

        >>> Hex(1, 0).rotate_left()
        Hex(q=1, r=-1)
        """
        c = center if center is not None else ORIGIN
        q, r = self.q - c.q, self.r - c.r
        for _ in range(times % 6):
            q, r = q + r, -q  # (q, r, s) -> (-s, -q, -r)
        return Hex(q + c.q, r + c.r)

    def rotate_right(self, center: Hex | None = None, times: int = 1) -> Hex:
        """Rotate 60° clockwise (toward lower direction numbers) about ``center``.

        >>> Hex(1, 0).rotate_right()
        Hex(q=0, r=1)
        """
        return self.rotate_left(center, -times % 6)

    def reflect_q(self, center: Hex | None = None) -> Hex:
        """Reflect across the ``q`` axis through ``center`` (swap ``r`` and ``s``)."""
        c = center if center is not None else ORIGIN
        q, r = self.q - c.q, self.r - c.r
        return Hex(q + c.q, -q - r + c.r)

    def reflect_r(self, center: Hex | None = None) -> Hex:
        """Reflect across the ``r`` axis through ``center`` (swap ``q`` and ``s``)."""
        c = center if center is not None else ORIGIN
        q, r = self.q - c.q, self.r - c.r
        return Hex(-q - r + c.q, r + c.r)

    def reflect_s(self, center: Hex | None = None) -> Hex:
        """Reflect across the ``s`` axis through ``center`` (swap ``q`` and ``r``)."""
        c = center if center is not None else ORIGIN
        q, r = self.q - c.q, self.r - c.r
        return Hex(r + c.q, q + c.r)


@attrs.frozen
class FractionalHex:
    """A point in axial space with float coordinates; :meth:`round` gives its hex."""

    q: float
    r: float

    @property
    def s(self) -> float:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def round(self) -> Hex:
        """The hex containing this point (see :func:`hex_round`)."""
        return hex_round(self.q, self.r)

    def lerp(self, other: FractionalHex, t: float) -> FractionalHex:
        """The point a fraction ``t`` of the way from ``self`` to ``other``."""
        return FractionalHex(self.q + (other.q - self.q) * t, self.r + (other.r - self.r) * t)


def hex_round(q: float, r: float) -> Hex:
    """Round fractional axial coordinates to the containing hex (Red Blob's cube rounding).

    Each cube coordinate is rounded half up; the one that moved most is then recomputed
    from the other two. A point exactly on a hexside or vertex goes to one of the hexes
    that touch it.

    >>> hex_round(0.4, 0.4)
    Hex(q=0, r=1)
    >>> hex_round(-0.6, 0.1)
    Hex(q=-1, r=0)
    """
    s = -q - r
    rq, rr, rs = math.floor(q + 0.5), math.floor(r + 0.5), math.floor(s + 0.5)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(rq, rr)


ORIGIN: Final = Hex(0, 0)
DIRECTIONS: Final[tuple[Hex, ...]] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)
"""The six unit vectors in the documented order 0-5."""

DIAGONALS: Final[tuple[Hex, ...]] = (
    Hex(2, -1),
    Hex(1, -2),
    Hex(-1, -1),
    Hex(-2, 1),
    Hex(-1, 2),
    Hex(1, 1),
)
"""Diagonal ``i`` lies across the vertex between directions ``i`` and ``i + 1``."""

_DIRECTION_INDEX: Final[dict[tuple[int, int], int]] = {
    (d.q, d.r): i for i, d in enumerate(DIRECTIONS)
}
