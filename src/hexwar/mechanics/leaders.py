"""Leaders on the map: counters that are not units, with a command range, displaced by enemies.

Many games put commanders on the map as markers that do not stack or fight (Triumph &
Glory «Триумф и Слава» 5.61-5.63: the commander-in-chief's command range is counted from
his counter, not counting his hex and counting the unit's; he moves in his own phase; when
enemy units enter his hex he is moved at once to the nearest of his own units). A
:class:`Leaders` keeps where each leader is in one state table (leader -> cell label) and
answers those questions; which pieces are friends and enemies is the caller's
:class:`~hexwar.board.pieces.Pieces` registry.

>>> from hexwar.engine.state import Ruleset
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.grid.geometry import Hex
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> state, units = Game().new_state(), Pieces(HEX_CODEC)
>>> units.place(state, "guard", Hex(3, 0), "red")
>>> units.place(state, "hussars", Hex(1, 0), "blue")
>>> leaders = Leaders(HEX_CODEC)
>>> leaders.place(state, "red", Hex(1, 0))
>>> leaders.in_range(state, "red", Hex(3, 0), 2), leaders.in_range(state, "red", Hex(4, 0), 2)
(True, False)
>>> leaders.displace(state, Hex(1, 0), units, lambda leader: leader)   # blue entered
['red']
>>> leaders.where(state, "red")
Hex(q=3, r=0)
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from hexwar.base.errors import PieceError
from hexwar.board.pieces import CellCodec, Pieces
from hexwar.engine.state import State
from hexwar.grid.geometry import Hex

__all__ = ["Leaders"]


@attrs.frozen
class Leaders:
    """Leader counters (not units: they neither stack nor fight), one state ``table``."""

    codec: CellCodec[Hex]
    table: str = "leaders"

    def place(self, state: State, leader: str, cell: Hex) -> None:
        """Put ``leader`` in ``cell`` (set-up or a move; journaled)."""
        state.put(self.table, leader, self.codec.label(cell))

    def where(self, state: State, leader: str) -> Hex:
        """The cell of ``leader``; :class:`PieceError` if he is not on the map."""
        label = state.get(self.table, leader)
        if label is None:
            raise PieceError(f"leader {leader!r} is not on the map")
        return self.codec.cell_at(str(label))

    def in_range(self, state: State, leader: str, cell: Hex, reach: int) -> bool:
        """Whether ``cell`` is within ``reach`` hexes of ``leader`` (T&G 5.61: his own hex
        not counted, the unit's counted: plain hex distance)."""
        return self.where(state, leader).distance(cell) <= reach

    def displace(
        self, state: State, cell: Hex, pieces: Pieces[Hex], side_of: Callable[[str], str]
    ) -> list[str]:
        """Enemy pieces have entered ``cell``: every leader there whose side
        (``side_of(leader)``) has no piece in it moves at once to the nearest cell holding
        pieces of his side (ties: the lowest label); none left: he stays. The moved leaders.
        """
        here = {pieces.side(state, p) for p in pieces.occupants(state, cell)}
        moved = []
        for leader in sorted(k for k, v in state.table(self.table).items() if v is not None):
            side = side_of(leader)
            if self.where(state, leader) != cell or side in here or not here:
                continue
            own = [h for h, ps in pieces.positions(state).items() if ps]
            own = [h for h in own if pieces.side(state, pieces.occupants(state, h)[0]) == side]
            if own:
                best = min(own, key=lambda h: (cell.distance(h), self.codec.label(h)))
                self.place(state, leader, best)
                moved.append(leader)
        return moved
