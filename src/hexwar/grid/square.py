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

from collections.abc import Callable, Hashable, Iterable
from typing import Final, Protocol, TypeVar

import attrs

from hexwar.base.errors import LabelError
from hexwar.base.kept import kept
from hexwar.grid.geometry import Hex

__all__ = [
    "HEX_GRID",
    "SQUARE_GRID",
    "SQUARE_GRID_4",
    "HexGrid",
    "Square",
    "SquareGrid",
    "SquareLabels",
    "Topology",
    "line_clear",
    "square_line",
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
    """The hex topology: six neighbours in :data:`hexwar.grid.geometry.DIRECTIONS` order."""

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


# -- lines of sight on squares -------------------------------------------------------------


def _split(num: int, den: int) -> tuple[int, ...]:
    """``num / den`` rounded to the nearest integer; both integers on an exact half."""
    q, r = divmod(num, den)
    return (q, q + 1) if 2 * r == den else (q + (2 * r > den),)


#: The lines from ``Square(0, 0)`` by their far end's offset (:func:`_offsets`).
_LINES: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]] = {}


def _offsets(dc: int, dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`square_line` from ``Square(0, 0)`` to ``Square(dc, dr)``, as offsets; a line
    from any square is the same offsets moved there (the rounding of ``(a * n + x) / n``
    is ``a`` plus that of ``x / n``), so lines are kept by offset (:func:`kept`)."""
    found = _LINES.get((dc, dr))
    if found is None:
        n = max(abs(dc), abs(dr))
        steps = (((0, 0),),) if n == 0 else tuple(
            tuple((c, r) for c in _split(dc * i, n) for r in _split(dr * i, n))
            for i in range(n + 1)
        )  # fmt: skip
        found = kept(_LINES, (dc, dr), steps)
    return found


def square_line(a: Square, b: Square) -> list[tuple[Square, ...]]:
    """The squares a straight line from the centre of ``a`` to that of ``b`` crosses.

    One entry per step of the longer axis, ``a`` first and ``b`` last (``n + 1`` entries
    for a Chebyshev distance ``n``): the square(s) nearest the line at that step, found
    in exact integer arithmetic. Where the line passes exactly between two squares (a
    tie) the entry holds both, lower coordinate first; otherwise one square. Unlike
    :meth:`hexwar.grid.geometry.Hex.line_to` nothing is nudged: which tied square counts is
    the rules' choice (see :func:`line_clear`). The line from ``b`` is the reverse.

    >>> [s for (s,) in square_line(Square(0, 0), Square(3, 1))]
    [Square(col=0, row=0), Square(col=1, row=0), Square(col=2, row=1), Square(col=3, row=1)]
    >>> square_line(Square(0, 0), Square(2, 1))[1]       # a tie: both squares
    (Square(col=1, row=0), Square(col=1, row=1))
    """
    ca, ra = a.col, a.row
    steps = _offsets(b.col - ca, b.row - ra)
    return [tuple(Square(ca + c, ra + r) for c, r in step) for step in steps]


def line_clear(a: Square, b: Square, blocks: Callable[[Square], bool]) -> bool:
    """Whether the line of sight from ``a`` to ``b`` is clear of squares that ``blocks``.

    Only the squares strictly between ``a`` and ``b`` are asked; at a tie the line is
    blocked only if *both* squares block (it may pass along either side). «Бой отрядов»
    V: fire is stopped by strong or green squares and by figures on the line.

    >>> wall = {Square(1, 0)}
    >>> line_clear(Square(0, 0), Square(2, 0), wall.__contains__)
    False
    >>> line_clear(Square(0, 0), Square(2, 1), wall.__contains__)   # passes by Square(1, 1)
    True
    """
    ca, ra = a.col, a.row
    for step in _offsets(b.col - ca, b.row - ra)[1:-1]:
        if all(blocks(Square(ca + c, ra + r)) for c, r in step):
            return False
    return True


def _names(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(names)


@attrs.frozen(eq=False)
class SquareLabels:
    """Printed square labels: a column name then a row name (chess ``e4``, «Бой отрядов»
    ``К4`` and ``К-IIIb``), given as data. A :class:`hexwar.board.pieces.CellCodec`.

    ``columns[i]`` names column ``i``, ``rows[j]`` row ``j``; every concatenation must be
    distinct (checked when built).

    >>> labels = SquareLabels(("a", "b"), ("1", "2", "3"))
    >>> labels.label(Square(1, 2)), labels.cell_at("a2")
    ('b3', Square(col=0, row=1))
    >>> labels.cell_at("c1")
    Traceback (most recent call last):
    ...
    hexwar.base.errors.LabelError: 'c1' is not a square label (columns a..b, rows 1..3)
    """

    columns: tuple[str, ...] = attrs.field(converter=_names)
    rows: tuple[str, ...] = attrs.field(converter=_names)
    _cells: dict[str, Square] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        cells = {c + r: Square(i, j) for i, c in enumerate(self.columns)
                 for j, r in enumerate(self.rows)}  # fmt: skip
        if len(cells) != len(self.columns) * len(self.rows):
            raise LabelError("column and row names do not give distinct square labels")
        object.__setattr__(self, "_cells", cells)

    def label(self, cell: Square) -> str:
        """The label of ``cell``; :class:`LabelError` off the named columns and rows."""
        if not (0 <= cell.col < len(self.columns) and 0 <= cell.row < len(self.rows)):
            raise LabelError(f"{cell!r} has no label")
        return self.columns[cell.col] + self.rows[cell.row]

    def cell_at(self, label: str) -> Square:
        """The square labelled ``label``; :class:`LabelError` if none is."""
        cell = self._cells.get(label)
        if cell is None:
            c, r = self.columns, self.rows
            raise LabelError(
                f"{label!r} is not a square label (columns {c[0]}..{c[-1]}, rows {r[0]}..{r[-1]})"
            )
        return cell
