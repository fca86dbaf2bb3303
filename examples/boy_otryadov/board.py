"""The «Бой отрядов» play map as the rules see it: labels, zones, rows, lines of fire (I, V).

Labels follow the seed: a column letter А–К then the battle row 1–15 (``К4``); in the
neutral zones the roman row and the zone's side (``К-IIIb``: blue's rear square К-III).
"""

from __future__ import annotations

from collections.abc import Iterator

from hexwar.grid import Square
from hexwar.pieces import PieceError

from .data import GameData

SIDES = ("blue", "red")  # X.1: blue always moves first
LETTERS = "АБВГДЕЖЗИК"


class Board:
    """Labels (``К4``, ``К-IIIb``), zones, rows and lines of fire of the play map (I)."""

    def __init__(self, data: GameData) -> None:
        self.map = m = data.game_map
        self.labels: dict[Square, str] = {c: self._label(c) for c in m}
        self.cells: dict[str, Square] = {v: k for k, v in self.labels.items()}
        self.zone = {c: t[5:] for c in m for t in m.tags(c) if t.startswith("zone:")}
        self.roman = {c: t[4:] for c in m for t in m.tags(c) if t.startswith("row:")}
        self.rear = {s: m.tagged(f"rear:{s}")[0] for s in SIDES}
        self.rail = {c for c in m for n in m.neighbors(c) if "rail" in m.linear(c, n)}
        self.last_row = max(c.row for c in m)

    def _label(self, c: Square) -> str:
        tags = self.map.tags(c)
        for side in SIDES:
            if f"zone:{side}" in tags:
                roman = next(t[4:] for t in tags if t.startswith("row:"))
                return f"{LETTERS[c.col]}-{roman}{side[0]}"
        return f"{LETTERS[c.col]}{c.row - 2}"

    def label(self, cell: Square) -> str:
        """The seed's label of ``cell`` (the board is the pieces' cell codec)."""
        return self.labels[cell]

    def cell_at(self, label: str) -> Square:
        """The square labelled ``label``."""
        if label not in self.cells:
            raise PieceError(f"{label!r} is not a square of the «Бой отрядов» map")
        return self.cells[label]

    def advance(self, side: str, c: Square) -> int:
        """How far forward ``c`` is for ``side`` (blue starts at the bottom rows)."""
        return self.last_row - c.row if side == "blue" else c.row

    def terrain(self, c: Square) -> str:
        return self.map.terrain(c)

    def line(self, a: Square, b: Square) -> Iterator[tuple[Square, ...]]:
        """The squares strictly between ``a`` and ``b``; a tie yields both candidates."""
        n = max(abs(b.col - a.col), abs(b.row - a.row))
        for i in range(1, n):
            cols, rows = (
                _split(x * n + (y - x) * i, n) for x, y in ((a.col, b.col), (a.row, b.row))
            )
            yield tuple(Square(c, r) for c in cols for r in rows)


def _split(num: int, den: int) -> tuple[int, ...]:
    q, r = divmod(num, den)
    return (q, q + 1) if 2 * r == den else (q + (2 * r > den),)
