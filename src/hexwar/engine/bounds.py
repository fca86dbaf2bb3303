"""Declared bounds of a game: what search and learning frameworks must know beforehand.

:meth:`hexwar.engine.state.Ruleset.bounds` returns a :class:`Bounds`; the verification kit
(:func:`hexwar.testing.check_random_games`) checks every game it plays against it, and the
framework adapters (:mod:`hexwar.interop`) declare it to OpenSpiel and the like.

- ``max_tokens``: the most *token steps* a game can take: the sum over every action
  applied (phase actions, decision answers, chance outcomes, ``end``) of its tokens plus
  the closing ``done`` (:func:`token_steps`). An adapter that steps one token at a time
  never takes more (it may take fewer: a token that is the only legal one needs no step).
  ``None``: not declared (an adapter that needs it refuses the game).
- ``utility``: the range of a player's return (:meth:`~hexwar.engine.state.Ruleset.returns`);
  ``zero_sum``: the sides' returns sum to zero.
- the most chance outcomes at one step needs no declaration: a chance step picks one
  token too, so it is at most the action space's size.

>>> from hexwar.engine.actions import Action
>>> token_steps([Action.of("move", "5TA", "0912"), Action("end")])
6
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from hexwar.engine.actions import Action

__all__ = ["Bounds", "token_steps"]


@attrs.frozen
class Bounds:
    """A game's declared bounds (see the module text)."""

    max_tokens: int | None = None
    utility: tuple[float, float] = (-1.0, 1.0)
    #: the sides' returns always sum to zero (:meth:`~hexwar.engine.state.Ruleset.returns`)
    zero_sum: bool = True

    def failures(self, history: Iterable[Action]) -> list[tuple[str, str]]:
        """``[("bounds", why)]`` when a game of ``history`` took more token steps than
        :attr:`max_tokens` (the kit's check), else ``[]``."""
        taken = token_steps(history)
        if self.max_tokens is not None and taken > self.max_tokens:
            return [("bounds", f"{taken} token steps, more than the declared {self.max_tokens}")]
        return []


def token_steps(actions: Iterable[Action]) -> int:
    """The token steps of ``actions``: each one's kind, arguments and closing ``done``."""
    return sum(len(a.args) + 2 for a in actions)
