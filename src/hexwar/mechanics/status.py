"""A status each piece takes at the start of a turn and keeps for the turn.

Many games test a condition once, at a fixed moment, and let it act for the rest of the
turn: a unit out of supply at the start of its turn is halved for that turn however it
moves later (*Battle for Moscow*), a disorganised unit, a unit in the open at dawn. A
:class:`TurnStatus` keeps the pieces that have the status in a state table (clone, undo
and saving cover it): :meth:`TurnStatus.take` asks its ``test`` of every piece on the map
and marks those for which it holds — wire it as the sequence's ``on_turn_start`` (or a
phase's ``on_enter``) — :meth:`TurnStatus.has` answers during the turn, and
:meth:`TurnStatus.halved` is a strength that halves a marked piece (a
:class:`~fractions.Fraction`; the odds of :class:`~hexwar.mechanics.combat.Combat` sum
exact fractions, so ``Combat(strength=...)`` or a ``combat_strength`` hook may halve).

>>> from fractions import Fraction
>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.grid.geometry import Hex
>>> reg = Pieces(HEX_CODEC)
>>> cut_off = TurnStatus(reg, lambda state, piece: reg.where(state, piece).q > 1,
...                      table="unsupplied")
>>> class Game(Ruleset):
...     sides = ("red",)
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),),
...                             on_turn_start=cut_off.take)
...     def setup(self, state, scenario, options):
...         reg.place(state, "a", Hex(0, 0), "red"); reg.place(state, "b", Hex(2, 0), "red")
>>> state = Game().new_state()
>>> cut_off.marked(state), cut_off.has(state, "b")
(['b'], True)
>>> reg.move(state, "b", Hex(0, 1))              # back in supply: still halved this turn
>>> cut_off.halved(state, "b", 5), cut_off.halved(state, "a", 5)
(Fraction(5, 2), 5)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs

from hexwar.board.pieces import Pieces
from hexwar.engine.state import State

__all__ = ["TurnStatus"]


@attrs.frozen
class TurnStatus:
    """The pieces (on the map of ``pieces``) for which ``test(state, piece)`` held when
    :meth:`take` last ran, kept in ``table`` until it runs again."""

    pieces: Pieces[Any]
    test: Callable[[State, str], bool]
    table: str = "status"

    def take(self, state: State) -> None:
        """Mark every piece on the map the test holds for; clear the others' marks."""
        for piece in sorted(state.table(self.table)):
            state.delete(self.table, piece)
        for side in state.ruleset.sides:
            for piece in self.pieces.pieces_of(state, side):
                if self.test(state, piece):
                    state.put(self.table, piece, True)

    def has(self, state: State, piece: str) -> bool:
        """Whether ``piece`` took the status at the last :meth:`take`."""
        return state.get(self.table, piece) is True

    def marked(self, state: State) -> list[str]:
        """The pieces with the status, sorted."""
        return sorted(state.table(self.table))

    def halved(self, state: State, piece: str, value: int | Fraction) -> int | Fraction:
        """``value`` halved (exactly) for a piece with the status, else as it is."""
        return Fraction(value, 2) if self.has(state, piece) else value
