"""Axial hex coordinates and the hex algorithms (after Red Blob Games' hex guide).

A :class:`Hex` is an axial coordinate ``(q, r)`` with the cube coordinate
``s = -q - r`` derived. Directions are numbered 0-5 in the Red Blob order::

    0: (+1, 0)   1: (+1, -1)   2: (0, -1)   3: (-1, 0)   4: (-1, +1)   5: (0, +1)

With pointy-topped hexes this is east, north-east, north-west, west, south-west,
south-east: counter-clockwise, starting east. Direction ``i + 3`` is the opposite
of direction ``i``.

>>> a = Hex(0, 0)
>>> a.neighbor(0)
Hex(q=1, r=0)
>>> a.distance(Hex(3, -1))
3
>>> len(a.ring(2)), len(a.spiral(2))
(12, 19)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import attrs

__all__ = [
    "DIAGONALS",
    "DIRECTIONS",
    "FractionalHex",
    "Hex",
    "hex_round",
]


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
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __mul__(self, k: int) -> Hex:
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
        delta = other - self
        try:
            return DIRECTIONS.index(delta)
        except ValueError:
            raise ValueError(f"{other!r} is not adjacent to {self!r}") from None

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
            raise ValueError(f"ring radius must be >= 0, got {radius}")
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
            raise ValueError(f"spiral radius must be >= 0, got {radius}")
        results = [self]
        for k in range(1, radius + 1):
            results.extend(self.ring(k))
        return results

    def within(self, radius: int) -> Iterator[Hex]:
        """All hexes at distance <= ``radius``, in ``(q, r)`` order."""
        if radius < 0:
            raise ValueError(f"radius must be >= 0, got {radius}")
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                yield Hex(self.q + dq, self.r + dr)

    # -- lines ------------------------------------------------------------------
    def line_to(self, other: Hex) -> list[Hex]:
        """The hexes on the straight line from ``self`` to ``other``, both included.

        Red Blob's line drawing: sample ``distance + 1`` points evenly on the
        segment between the centres and round each to a hex. Both ends are nudged by
        ``(+1e-6, +1e-6, -2e-6)`` in cube space, so a line that runs exactly along a
        hexside (through hex corners) resolves its ties consistently: of the two hexes
        sharing that hexside it takes the one with the larger ``q`` (then larger
        ``r``) side of the nudge. The line is symmetric in distance but not
        necessarily in which hexes it picks when reversed.

        >>> Hex(0, 0).line_to(Hex(2, -1))
        [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=-1)]
        """
        n = self.distance(other)
        if n == 0:
            return [self]
        eps_q, eps_r = 1e-6, 1e-6
        aq, ar = self.q + eps_q, self.r + eps_r
        bq, br = other.q + eps_q, other.r + eps_r
        step = 1.0 / n
        dq, dr = (bq - aq) * step, (br - ar) * step
        return [hex_round(aq + dq * i, ar + dr * i) for i in range(n + 1)]

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
        return -self.q - self.r

    def round(self) -> Hex:
        return hex_round(self.q, self.r)

    def lerp(self, other: FractionalHex, t: float) -> FractionalHex:
        return FractionalHex(self.q + (other.q - self.q) * t, self.r + (other.r - self.r) * t)


def hex_round(q: float, r: float) -> Hex:
    """Round fractional axial coordinates to the containing hex (cube rounding).

    >>> hex_round(0.4, 0.4)
    Hex(q=0, r=1)
    >>> hex_round(-0.6, 0.1)
    Hex(q=-1, r=0)
    """
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


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
