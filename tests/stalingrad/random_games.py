"""Seeded random games of «Сталинград» for the tests: the core game loop
(:func:`hexwar.play.play`), token-wise random players, chance by a seeded driver."""

from __future__ import annotations

from typing import Any

from hexwar.dice import SeededDriver
from hexwar.play import Player, RandomPlayer, play
from hexwar.state import State
from hexwar_stalingrad.rules import StalingradRules


def random_players(rules: StalingradRules, seed: int) -> dict[str, Player]:
    """A :class:`~hexwar.play.RandomPlayer` per side, seeded from ``seed``."""
    return {side: RandomPlayer(seed * 7919 + i) for i, side in enumerate(rules.sides)}


def random_game(rules: StalingradRules, seed: int, **kwargs: Any) -> State:
    """``play(rules.new_state(), random players, SeededDriver(seed))`` to the end."""
    return play(rules.new_state(), random_players(rules, seed), SeededDriver(seed), **kwargs)
