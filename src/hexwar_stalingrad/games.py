"""Registry factories (the ``hexwar.games`` entry points, :mod:`hexwar.engine.registry`):
``stalingrad-short`` and ``stalingrad-long`` (S3.4), two players (S3.1)."""

from __future__ import annotations

from hexwar_stalingrad.rules import StalingradRules

__all__ = ["long_game", "short_game"]


def short_game() -> StalingradRules:
    """The short game: turns 1-5, Operation Uranus (S3.4)."""
    return StalingradRules("short")


def long_game() -> StalingradRules:
    """The long game: turns 1-10 (S3.4)."""
    return StalingradRules("long")
