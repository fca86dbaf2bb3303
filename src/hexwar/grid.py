"""Grid topologies: which cells touch, and how far apart cells are.

The movement and ZOC code only asks a topology for ``neighbors``, ``distance`` and
``are_adjacent``, so it runs unchanged on hexes (the default) and on squares (the 1930
game «Бой отрядов»: 8-neighbour moves, Chebyshev distance).

>>> HEX_GRID.distance(Hex(0, 0), Hex(2, -1))
2
>>> SQUARE_GRID.distance(Square(0, 0), Square(3, 2))
3
>>> len(SQUARE_GRID.neighbors(Square(4, 4))), SQUARE_GRID.are_adjacent(Square(0, 0), Square(1, 1))
(8, True)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final, Protocol, TypeVar

import attrs

from hexwar.geometry import Hex

__all__ = [
    "HEX_GRID",
    "SQUARE_GRID",
    "SQUARE_GRID_4",
    "HexGrid",
    "Square",
    "SquareGrid",
    "Topology",
]

C = TypeVar("C", bound=Hashable)


@attrs.frozen(order=True, cache_hash=True, repr=False)
class Square:
    """A square cell: column and row (0-based), frozen, hashable, ordered by ``(col, row)``.

    >>> Square(2, 3)
    Square(col=2, row=3)
    """

    col: int
    row: int

    def __repr__(self) -> str:
        return f"Square(col={self.col}, row={self.row})"


class Topology(Protocol[C]):
    """What the map and movement code need from a grid."""

    @property
    def name(self) -> str:
        """``"hex"`` or ``"square"`` (the map file's ``grid`` value)."""
        ...

    def neighbors(self, cell: C) -> tuple[C, ...]:
        """The cells adjacent to ``cell`` (on an unbounded grid), in a fixed order."""
        ...

    def distance(self, a: C, b: C) -> int:
        """Number of steps between ``a`` and ``b`` on an empty unbounded grid."""
        ...

    def are_adjacent(self, a: C, b: C) -> bool:
        """Whether ``a`` and ``b`` are distinct neighbours."""
        ...


@attrs.frozen
class HexGrid:
    """The hex topology: six neighbours in :data:`hexwar.geometry.DIRECTIONS` order."""

    @property
    def name(self) -> str:
        return "hex"

    def neighbors(self, cell: Hex) -> tuple[Hex, ...]:
        return cell.neighbors()

    def distance(self, a: Hex, b: Hex) -> int:
        return a.distance(b)

    def are_adjacent(self, a: Hex, b: Hex) -> bool:
        return a.distance(b) == 1


_ORTHOGONAL: Final = ((1, 0), (0, -1), (-1, 0), (0, 1))
_KING: Final = ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1))


@attrs.frozen
class SquareGrid:
    """The square topology; ``diagonal=True`` (default): 8 neighbours, Chebyshev distance.

    With ``diagonal=False``: 4 neighbours and Manhattan distance.

    >>> SquareGrid(diagonal=False).distance(Square(0, 0), Square(3, 2))
    5
    """

    diagonal: bool = True

    @property
    def name(self) -> str:
        return "square" if self.diagonal else "square4"

    def neighbors(self, cell: Square) -> tuple[Square, ...]:
        c, r = cell.col, cell.row
        steps = _KING if self.diagonal else _ORTHOGONAL
        return tuple(Square(c + dc, r + dr) for dc, dr in steps)

    def distance(self, a: Square, b: Square) -> int:
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        return max(dc, dr) if self.diagonal else dc + dr

    def are_adjacent(self, a: Square, b: Square) -> bool:
        return self.distance(a, b) == 1


HEX_GRID: Final = HexGrid()
"""The default topology."""
SQUARE_GRID: Final = SquareGrid()
"""Squares with 8-neighbour moves and Chebyshev distance."""
SQUARE_GRID_4: Final = SquareGrid(diagonal=False)
"""Squares with 4-neighbour moves and Manhattan distance."""
