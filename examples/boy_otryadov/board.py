"""The «Бой отрядов» play map as the rules see it: labels, zones, rows, the railway (I, XV).

Labels follow the seed (``data/rules.toml`` ``[labels]``): a column letter А–К then the
battle row 1–15 (``К4``); in the neutral zones the roman row and the zone's side
(``К-IIIb``: blue's rear square К-III). Zones, rows and rear squares are the map's tags.
"""

from __future__ import annotations

from hexwar.grid.square import Square

from .data import GameData

SIDES = ("blue", "red")  # X.1: blue always moves first


class Board:
    """Labels (``К4``, ``К-IIIb``), zones, roman rows, rear squares and railway of the map."""

    def __init__(self, data: GameData) -> None:
        self.map = m = data.game_map
        self.labels = data.labels  # the pieces' cell codec
        self.label, self.cell_at, self.terrain = data.labels.label, data.labels.cell_at, m.terrain
        self.zone, self.roman = m.tag_values("zone"), m.tag_values("row")
        self.rear = {s: m.tagged(f"rear:{s}")[0] for s in SIDES}
        self.rail = set(m.feature_cells("rail"))
        self.villages = set(m.tagged("village"))  # XVI
        self.station = {s: m.tagged(f"station:{s}")[0] for s in SIDES}  # 1941
        self.last_row = max(c.row for c in m)
        #: V a-c: the squares that stop a direct line of fire, and the green ones.
        self.masking = frozenset(c for c in m if m.terrain(c) == "masking")
        self.cover = self.masking | {c for c in m if m.terrain(c) == "strong"}

    def advance(self, side: str, c: Square) -> int:
        """How far forward ``c`` is for ``side`` (blue starts at the bottom rows)."""
        return self.last_row - c.row if side == "blue" else c.row
