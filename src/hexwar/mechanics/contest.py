"""Opposed rolls: every side rolls and adds its modifier; the highest total wins.

Triumph & Glory «Триумф и Слава» 4.0: each player rolls a d10 and adds his commander's
order rating; the higher total has the initiative, a tie gives it to nobody. A roll-off
(T&G 5.51) is the same with no modifiers and ties rolled again among the tied sides.
An :class:`OpposedRoll` pushes one roll decision per side (the first side rolls first),
records each total, and when the round is complete records the winner (``None``: a tie)
in ``state.get(table, kind)`` — or, with ``reroll_ties``, rolls the tied sides again.

>>> from hexwar.engine.dice import D10
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> ini = OpposedRoll("initiative", D10, ("fr", "ru"), modifier=lambda s, side: 2)
>>> class Game(Ruleset):
...     sides = ("fr", "ru")
...     sequence = TurnSequence((Stage("s", (Phase("ini", on_enter=ini.start),)),))
...     def decide(self, state, decision, action):
...         ini.answer(state, decision, action)
>>> state = Game().new_state()
>>> [d.params for d in reversed(state.pending)]      # the French roll first
[('fr', 'fr', 'ru'), ('ru', 'fr', 'ru')]
>>> state.apply("roll 7"); state.apply("roll 3")
>>> ini.total(state, "fr"), ini.winner(state)
(9, 'fr')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from hexwar.base.errors import ContestError
from hexwar.engine.actions import Action, Decision, RollSource
from hexwar.engine.state import State

__all__ = ["OpposedRoll"]


@attrs.frozen
class OpposedRoll:
    """An opposed roll of ``dice`` by ``sides`` (in rolling order) under decision ``kind``.

    ``modifier(state, side)`` is added to a side's roll (none by default). With
    ``reroll_ties`` the sides tied for the highest total roll again until one wins;
    without it a tie means nobody wins. Totals and the winner go into ``table``
    (``"<kind>:<side>"`` and ``<kind>``).
    """

    kind: str
    dice: RollSource
    sides: tuple[str, ...]
    modifier: Callable[[State, str], int] | None = None
    reroll_ties: bool = False
    table: str = "contest"

    def __attrs_post_init__(self) -> None:
        if len(self.sides) < 2 or len(set(self.sides)) != len(self.sides):
            raise ContestError(f"an opposed roll needs two or more distinct sides: {self.sides}")

    def start(self, state: State, sides: Sequence[str] | None = None) -> None:
        """Push the roll decisions of ``sides`` (all by default), the first one on top."""
        rolling = tuple(self.sides if sides is None else sides)
        for side in reversed(rolling):
            state.push(Decision.roll(self.kind, self.dice, params=(side, *rolling)))

    def answer(self, state: State, decision: Decision, action: Action) -> bool:
        """Record a roll (for ``Ruleset.decide``); ``False`` if ``decision`` is not one of
        this roll's. After the round's last roll, the winner is decided (or a re-roll)."""
        if decision.kind != self.kind:
            return False
        side, rolling = str(decision.params[0]), [str(p) for p in decision.params[1:]]
        bonus = 0 if self.modifier is None else self.modifier(state, side)
        state.put(self.table, f"{self.kind}:{side}", decision.rolled(action) + bonus)
        if side == rolling[-1]:
            best = max(self.total(state, s) for s in rolling)
            top = [s for s in rolling if self.total(state, s) == best]
            if len(top) > 1 and self.reroll_ties:
                self.start(state, top)
            else:
                state.put(self.table, self.kind, top[0] if len(top) == 1 else None)
        return True

    def total(self, state: State, side: str) -> int:
        """``side``'s total in the last round it rolled in (roll plus modifier)."""
        total = state.get(self.table, f"{self.kind}:{side}")
        if not isinstance(total, int):
            raise ContestError(f"{side!r} has not rolled for {self.kind!r} yet")
        return total

    def winner(self, state: State) -> str | None:
        """The side with the highest total, or ``None`` after a tie (or before any roll)."""
        won = state.get(self.table, self.kind)
        return None if won is None else str(won)
