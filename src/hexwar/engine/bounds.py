"""Declared bounds of a game: what search and learning frameworks must know beforehand.

:meth:`hexwar.engine.state.Ruleset.bounds` returns a :class:`Bounds`; the verification kit
(:func:`hexwar.testing.check_random_games`) checks every game it plays against it, and the
framework adapters (:mod:`hexwar.interop`) declare it to OpenSpiel and the like.

- ``max_tokens``: the most *token steps* a game takes under a framework: the sum over
  every action applied (phase actions, decision answers, chance outcomes, ``end``) of its
  tokens plus the closing ``done`` (:func:`token_steps`). The adapters
  (:mod:`hexwar.interop`) end a game that reaches it (*truncated*: every return ``0``), so
  it is OpenSpiel's ``max_game_length`` in truth; declare it near the real length — the
  kit (:func:`hexwar.testing.check_length_bound`) checks that no random game reaches it
  and that it is within 3x of the longest of them. ``None``: not declared (an adapter
  that needs it refuses the game).
- ``utility``: the range of a player's return (:meth:`~hexwar.engine.state.Ruleset.returns`);
  ``zero_sum``: the sides' returns sum to zero.
- the most chance outcomes at one step needs no declaration: a chance step picks one
  token too, so it is at most the action space's size.

The information type (``Ruleset.perfect_information``) is declared, or derived from what
the game hides (:func:`hides_anything`: random games probed for a hidden entry or a
private decision).

>>> from hexwar.engine.actions import Action
>>> token_steps([Action.of("move", "5TA", "0912"), Action("end")])
6
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from hexwar.engine.actions import Action

__all__ = ["Bounds", "hides_anything", "token_steps"]

#: Random games, and steps in all, :func:`hides_anything` plays at most by default.
PROBE_GAMES: Final = 3
PROBE_STEPS: Final = 20_000


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


def hides_anything(
    ruleset: Any,
    scenario: str = "default",
    options: Mapping[str, Any] | None = None,
    *,
    games: int = PROBE_GAMES,
    steps: int = PROBE_STEPS,
    seed: int = 0,
) -> bool:
    """Whether random games of ``ruleset`` (uniform legal actions, chance by its odds;
    at most ``games`` games and ``steps`` steps in all) ever hide anything: an entry
    hidden from a side (:meth:`~hexwar.engine.state.State.hide`) or a decision private
    to one. ``False`` is evidence, not proof: a ruleset whose hiding is rare declares
    ``perfect_information`` instead (the kit checks a declaration).

    >>> from hexwar.engine.registry import make
    >>> hides_anything(make("stalingrad-short"))    # the decks are shuffled face down
    True
    """
    rng = random.Random(seed)
    left = steps
    for _ in range(games):
        state = ruleset.new_state(scenario, options)
        while left > 0:
            if any(state.hides_from(side) for side in ruleset.sides):
                return True
            pending = state.pending
            if pending and pending[-1].private is not None:
                return True
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply(
                    rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
                )
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            left -= 1
    return False
