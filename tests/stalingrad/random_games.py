"""Seeded random games of «Сталинград» for the tests: the core game loop
(:func:`hexwar.engine.loop.play`), token-wise random players, chance by a seeded driver."""

from __future__ import annotations

from typing import Any

from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import Player, RandomPlayer, play
from hexwar.engine.state import State
from hexwar_stalingrad.rules import StalingradRules


def random_players(rules: StalingradRules, seed: int) -> dict[str, Player]:
    """A :class:`~hexwar.engine.loop.RandomPlayer` per side, seeded from ``seed``."""
    return {side: RandomPlayer(seed * 7919 + i) for i, side in enumerate(rules.sides)}


def random_game(rules: StalingradRules, seed: int, **kwargs: Any) -> State:
    """``play(rules.new_state(), random players, SeededDriver(seed))`` to the end."""
    return play(rules.new_state(), random_players(rules, seed), SeededDriver(seed), **kwargs)
