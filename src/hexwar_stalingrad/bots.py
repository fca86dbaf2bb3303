"""Bots and the game driver: a uniform random bot with a seeded chance driver.

:func:`fast_legal_actions` equals ``state.legal_actions()`` (a test checks it) but skips
the engine's final sort, because :meth:`StalingradRules.phase_actions` already returns its
actions sorted and unique; bots use it on the hot path.

>>> from hexwar_stalingrad.rules import StalingradRules
>>> state = play_game(StalingradRules(length="short"), seed=3)
>>> state.is_terminal(), state.turn
(True, 5)
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from hexwar.actions import END, Action
from hexwar.dice import SeededDriver
from hexwar.play import RandomPlayer, play
from hexwar.state import Ruleset, State

__all__ = ["Bot", "RandomBot", "fast_legal_actions", "play_game"]

Bot = Callable[[State], Action]


def fast_legal_actions(state: State) -> list[Action]:
    """``state.legal_actions()`` without its sort (the ruleset's lists are sorted already)."""
    if state.is_terminal():
        return []
    if state.pending:
        return state.legal_actions()
    actions = list(state.ruleset.phase_actions(state, state.current_player()))
    actions.insert(bisect.bisect_left(actions, END.kind, key=_kind), END)
    return actions


def _kind(action: Action) -> str:
    return action.kind


class RandomBot(RandomPlayer):
    """Picks uniformly among the legal actions (its own seeded generator): the core's
    :class:`~hexwar.play.RandomPlayer` reading :func:`fast_legal_actions`."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, legal=fast_legal_actions)


def play_game(
    rules: Ruleset,
    seed: int = 0,
    bots: dict[str, Bot] | None = None,
    *,
    max_steps: int = 100_000,
) -> State:
    """Play one game to the end: chance through a :class:`SeededDriver`, sides by ``bots``
    (default: a :class:`RandomBot` per side seeded from ``seed``)."""
    players = bots or {side: RandomBot(seed * 7919 + i) for i, side in enumerate(rules.sides)}
    return play(rules.new_state(), players, SeededDriver(seed), max_steps=max_steps)
