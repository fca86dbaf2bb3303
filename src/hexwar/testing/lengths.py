"""Game lengths against a ruleset's declared bound: the kit's check of ``max_tokens``.

:func:`check_length_bound` plays random games token by token (each legal next token
alike, chance outcomes by their odds: what a random agent under a framework does) and
checks the ruleset's :meth:`~hexwar.engine.state.Ruleset.scenario_bounds`: no game may
reach ``max_tokens`` (the adapters end a game there, as truncated), and ``max_tokens``
must be within ``factor`` (3) times the longest game, so that OpenSpiel's
``max_game_length`` says how long a game really is.

>>> from hexwar.engine.registry import make
>>> report = check_length_bound(make("stalingrad-short"), games=3)
>>> report.games, report.declared, report.longest < report.declared  # ``ok`` needs many games
(3, 1875, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

import attrs

from hexwar.engine.actions import Action
from hexwar.engine.bounds import token_steps
from hexwar.engine.space import DONE

__all__ = ["LengthReport", "check_length_bound", "random_game_length"]

#: How many times the longest random game the declared bound may be.
FACTOR: Final = 3.0


@attrs.frozen
class LengthReport:
    """The token steps of the longest of ``games`` random games against the declared
    ``max_tokens``; ``ok`` when no game reached it and it is within ``factor`` of it."""

    games: int
    longest: int
    mean: float
    declared: int | None
    factor: float

    @property
    def ok(self) -> bool:
        d = self.declared
        return d is not None and self.longest < d <= self.factor * self.longest

    def __str__(self) -> str:
        return (
            f"{self.games} random games: longest {self.longest} token steps (mean "
            f"{self.mean:.1f}); declared {self.declared} = "
            f"{(self.declared or 0) / max(self.longest, 1):.2f}x the longest"
        )


def random_game_length(
    ruleset: Any,
    rng: random.Random,
    scenario: str = "default",
    options: Mapping[str, Any] | None = None,
    limit: int | None = None,
) -> int:
    """The token steps of one random game (token by token, chance by its odds), played
    until its end or until ``limit`` token steps."""
    state = ruleset.new_state(scenario, options)
    taken = 0
    while not state.is_terminal() and (limit is None or taken < limit):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            action = rng.choices(actions, [float(p) for _, p in outcomes])[0]
        else:
            prefix: tuple[str, ...] = ()
            while True:
                tokens = state.legal_tokens(prefix)
                token = tokens[rng.randrange(len(tokens))]
                if token == DONE:
                    break
                prefix = (*prefix, token)
            action = Action(prefix[0], prefix[1:])
        state.apply(action)
        taken += token_steps((action,))
    return taken


def check_length_bound(
    ruleset: Any,
    scenario: str = "default",
    options: Mapping[str, Any] | None = None,
    *,
    games: int = 1000,
    seed: int = 0,
    factor: float = FACTOR,
) -> LengthReport:
    """Play ``games`` random games (from ``seed``) and compare the longest with the
    declared ``max_tokens`` (see the module text)."""
    declared = ruleset.scenario_bounds(scenario).max_tokens
    rng = random.Random(seed)
    lengths = [random_game_length(ruleset, rng, scenario, options, declared) for _ in range(games)]
    return LengthReport(games, max(lengths), sum(lengths) / len(lengths), declared, factor)
