"""Playing whole games: players (bots) and the game loop.

A *player* is any callable ``state -> action`` for the side to move; chance nodes are
answered by a :class:`~hexwar.dice.ChanceDriver` (a :class:`~hexwar.dice.SeededDriver` in
play, so a game replays exactly from its seed).

>>> from hexwar.dice import SeededDriver
>>> from hexwar.state import Ruleset
>>> from hexwar.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.actions import Action, Outcome
>>> class Count(Ruleset):
...     name = "count"
...     sides = ("a",)
...     sequence = TurnSequence((Stage("s", (Phase("p", side="a", end_when_idle=False),)),),
...                             turn_limit=3)
...     def setup(self, state, scenario, options):
...         state.put("game", "n", 0)
...     def phase_actions(self, state, side):
...         return [Action.of("add", 1), Action.of("add", 2)]
...     def play(self, state, action):
...         state.put("game", "n", state.get("game", "n") + action.int_arg(0))
...     def final_outcome(self, state):
...         return Outcome("a", f"counted to {state.get('game', 'n')}")
>>> a = play(Count().new_state(), {"a": RandomPlayer(7)}, SeededDriver(7))
>>> b = play(Count().new_state(), {"a": RandomPlayer(7)}, SeededDriver(7))
>>> a.history == b.history and a.is_terminal()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hexwar.actions import Action
from hexwar.dice import ChanceDriver
from hexwar.state import State

__all__ = ["Player", "RandomPlayer", "play"]

Player = Callable[[State], Action]
"""A player (a bot, or a human front end): given the state, the action it takes."""


class RandomPlayer:
    """Picks uniformly among ``state.legal_actions()`` with its own seeded generator.

    A player is outside the rules: its choices are the player's, not chance events, so it
    owns a ``random.Random`` (seeded, hence reproducible). ``legal``: another source of
    the same list in the same order, for a game that has a faster one (it must equal
    ``state.legal_actions()``; test that in the game's own tests).
    """

    def __init__(
        self, seed: int = 0, *, legal: Callable[[State], Sequence[Action]] | None = None
    ) -> None:
        self._rng = random.Random(seed)
        self._legal: Callable[[State], Sequence[Action]] = legal or State.legal_actions

    def __call__(self, state: State) -> Action:
        return self._rng.choice(self._legal(state))


def play(
    state: State,
    players: Mapping[str, Player],
    driver: ChanceDriver,
    *,
    max_steps: int = 100_000,
    on_step: Callable[[State, Action], Any] | None = None,
    check: bool = False,
) -> State:
    """Play ``state`` on to the end (or ``max_steps`` actions) and return it.

    Chance nodes are answered by ``driver``; otherwise ``players[state.current_player()]``
    chooses. ``on_step(state, action)`` is called before each action is applied (for
    summaries and logs). Actions are applied unchecked (the players are trusted to pick
    legal actions) unless ``check=True``.
    """
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = driver.pick(state.chance_outcomes())
        else:
            action = players[state.current_player()](state)
        if on_step is not None:
            on_step(state, action)
        if check:
            state.apply(action)
        else:
            state.apply_unchecked(action)
    return state
