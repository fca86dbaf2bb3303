"""Chosen removals: a side picks pieces to take off the map, one decision per piece.

Some results let a side choose which pieces are lost: «Бой отрядов» XIII (a raid on the
enemy's К-III removes two enemy figures of the raiding side's choice), losses a player
distributes among his own stacked units, a garrison that must give up N units. A
:class:`ChosenRemoval` pushes ``Decision(kind, side, (n,))`` — ``n`` cut to the number
of candidates — offers ``<action> <piece>`` for each candidate ``pieces(state, side)``,
removes the chosen one from the :class:`~hexwar.board.pieces.Pieces` registry and asks again
until ``n`` pieces are gone or no candidate is left.

>>> from hexwar.grid.geometry import Hex
>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> reg = Pieces(HEX_CODEC)
>>> raid = ChosenRemoval(reg, "raid", lambda state, side: reg.pieces_of(state, "blue"))
>>> class Game(Ruleset):
...     sides = ("red", "blue")
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
...     def decision_actions(self, state, decision):
...         return raid.actions(state, decision)
...     def decide(self, state, decision, action):
...         raid.answer(state, decision, action)
>>> state = Game().new_state()
>>> for piece in ("b1", "b2", "b3"):
...     reg.place(state, piece, Hex(0, 0), "blue")
>>> raid.start(state, "red", 2)
>>> [str(a) for a in state.legal_actions()]
['remove b1', 'remove b2', 'remove b3']
>>> state.apply("remove b2"); state.apply("remove b3")
>>> reg.pieces_of(state), state.pending
(['b1'], ())
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

import attrs

from hexwar.base.errors import RemovalError
from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action, Decision
from hexwar.engine.state import State

__all__ = ["ChosenRemoval"]


@attrs.frozen
class ChosenRemoval:
    """``side`` removes up to ``n`` of ``pieces(state, side)`` (sorted candidates), one
    decision ``kind`` at a time, each answered by ``<action> <piece>``."""

    registry: Pieces[Any]
    kind: str
    pieces: Callable[[State, str], Iterable[str]]
    action: str = "remove"

    def start(self, state: State, side: str, n: int) -> None:
        """Ask ``side`` to remove ``n`` pieces (at most as many as there are candidates)."""
        n = min(n, len(list(self.pieces(state, side))))
        if n > 0:
            state.push(Decision(self.kind, side, (n,)))

    def actions(self, state: State, decision: Decision) -> list[Action]:
        """The answers to ``decision`` (for ``Ruleset.decision_actions``)."""
        return [Action.of(self.action, p) for p in sorted(self.pieces(state, decision.side))]

    def answer(self, state: State, decision: Decision, action: Action) -> bool:
        """Remove the chosen piece and ask for the next (for ``Ruleset.decide``); ``False``
        if ``decision`` is not one of this removal's."""
        if decision.kind != self.kind:
            return False
        piece = str(action.args[0]) if action.args else ""
        if action.kind != self.action or piece not in self.pieces(state, decision.side):
            raise RemovalError(f"{action}: not one of the pieces to choose from")
        self.registry.remove(state, piece)
        self.start(state, decision.side, cast(int, decision.params[0]) - 1)
        return True
