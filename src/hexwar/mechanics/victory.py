"""Common end-of-game checks on a :class:`~hexwar.board.pieces.Pieces` registry.

Many games end when a side is wiped out, when a side has pulled all its pieces back into
some area, or — at a turn limit — in favour of the side that lost the smaller share of
its force («Бой отрядов» X: destruction is defeat, withdrawal into one's neutral zone
is a success for the enemy, a draw with light losses; its example's turn limit).
These helpers answer those questions; the game decides what each answer means.

>>> from hexwar.grid.square import Square
>>> from hexwar.board.pieces import SQUARE_CODEC, Pieces
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> state, reg = Game().new_state(), Pieces(SQUARE_CODEC)
>>> reg.place(state, "r1", Square(0, 0), "red")
>>> reg.place(state, "b1", Square(5, 5), "blue")
>>> reg.place(state, "b2", Square(5, 6), "blue")
>>> sides = ("blue", "red")
>>> eliminated(reg, state, sides), withdrawn(reg, state, sides, {Square(0, 0)})
(None, ['red'])
>>> reg.remove(state, "b1")
>>> loss_share(reg, state, "blue", 2)
Fraction(1, 2)
>>> fewer_losses({"blue": loss_share(reg, state, "blue", 2), "red": Fraction(0)})
Outcome(winner='red', reason='fewer losses')

Control of cities (:class:`~hexwar.mechanics.control.Control`) as the condition: a
:class:`ControlVictory` names the side that must hold ``need`` of the ``cells`` (default:
every controllable cell) and who wins otherwise; :meth:`ControlVictory.met` answers at
any moment (a sudden death), :meth:`ControlVictory.outcome` at the end.

>>> from hexwar.mechanics.control import Control
>>> towns = Control(SQUARE_CODEC, [Square(1, 1), Square(2, 2), Square(3, 3)])
>>> towns.set_up(state, {Square(1, 1): "blue", Square(2, 2): "red", Square(3, 3): "red"})
>>> hold_two = ControlVictory(towns, "blue", "red", need=2, what="towns")
>>> hold_two.met(state), hold_two.outcome(state)
(False, Outcome(winner='red', reason='blue holds 1 of 3 towns (needs 2)'))
>>> _ = towns.take(state, Square(2, 2), "blue")
>>> hold_two.outcome(state)
Outcome(winner='blue', reason='blue holds 2 of 3 towns (needs 2)')
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from fractions import Fraction
from typing import Any

import attrs

from hexwar.base.errors import VictoryError
from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Outcome
from hexwar.engine.state import State
from hexwar.mechanics.control import Control

__all__ = ["ControlVictory", "eliminated", "fewer_losses", "loss_share", "withdrawn"]


def eliminated(pieces: Pieces[Any], state: State, sides: Iterable[str]) -> str | None:
    """The first of ``sides`` with no piece left on the map, or ``None``."""
    return next((s for s in sides if not pieces.pieces_of(state, s)), None)


def withdrawn(
    pieces: Pieces[Any], state: State, sides: Iterable[str], area: Container[Any]
) -> list[str]:
    """The ``sides`` (in given order) every piece of which stands in ``area`` (a side
    with no pieces left counts as withdrawn)."""
    return [s for s in sides if all(c in area for c in pieces.positions(state, s))]


def loss_share(pieces: Pieces[Any], state: State, side: str, start: int) -> Fraction:
    """The share of ``side``'s ``start`` pieces that are no longer on the map."""
    if start <= 0:
        raise VictoryError(f"{side!r} started with {start} pieces: no loss share")
    return Fraction(start - len(pieces.pieces_of(state, side)), start)


def fewer_losses(
    shares: Mapping[str, Fraction], won: str = "fewer losses", tied: str = "equal losses"
) -> Outcome:
    """The side with the smallest loss share wins (reason ``won``); a draw (``tied``) if
    two or more sides share the smallest."""
    if not shares:
        raise VictoryError("no sides to compare")
    best = min(shares.values())
    top = sorted(s for s, v in shares.items() if v == best)
    return Outcome(top[0], won) if len(top) == 1 else Outcome(None, tied)


@attrs.frozen
class ControlVictory:
    """``side`` wins by holding at least ``need`` of ``cells`` (default: every cell of
    ``control``; ``need`` default: all of them); else ``otherwise`` wins (``None``: a
    draw). ``what`` names the cells in the reason ("towns")."""

    control: Control[Any]
    side: str
    otherwise: str | None
    need: int | None = None
    cells: frozenset[Any] | None = attrs.field(
        default=None, converter=attrs.converters.optional(frozenset)
    )
    what: str = "cities"

    def __attrs_post_init__(self) -> None:
        counted = self._counted()
        if not counted <= self.control.cells:
            raise VictoryError("victory cells that the control does not keep")
        if not 0 < self._need() <= len(counted):
            raise VictoryError(f"need {self.need} of {len(counted)} {self.what}")

    def _counted(self) -> frozenset[Any]:
        return self.control.cells if self.cells is None else self.cells

    def _need(self) -> int:
        return len(self._counted()) if self.need is None else self.need

    def held(self, state: State) -> int:
        """How many of the cells ``side`` holds now."""
        return sum(1 for c in self._counted() if self.control.owner(state, c) == self.side)

    def met(self, state: State) -> bool:
        """Whether ``side`` holds enough now."""
        return self.held(state) >= self._need()

    def outcome(self, state: State) -> Outcome:
        """The result now: ``side`` if :meth:`met`, else ``otherwise``."""
        held, need, total = self.held(state), self._need(), len(self._counted())
        reason = f"{self.side} holds {held} of {total} {self.what} (needs {need})"
        return Outcome(self.side if held >= need else self.otherwise, reason)
