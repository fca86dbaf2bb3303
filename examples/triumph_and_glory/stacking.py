"""Triumph & Glory stacking (6.21): what may share a hex, and where a move may end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.movement import MoveRules
from hexwar.stacking import all_limits, can_end, max_units

if TYPE_CHECKING:
    from .scenario import Unit


def stacking_limit(units: Sequence[Unit]) -> str | None:
    """6.21: at most 3 units; no infantry with cavalry; 2 of a kind (3 if one brigade);
    artillery alone: 2 of one activation group with <= 6 SP; with others: at most 1,
    and with two infantry/cavalry only if they are of one brigade."""
    troops = [u for u in units if u.arm != "artillery"]
    guns = [u for u in units if u.arm == "artillery"]
    one_brigade = len({u.brigade for u in troops}) <= 1
    if len({u.arm for u in troops}) > 1:
        return "6.21: infantry and cavalry never stack together"
    if len(troops) == 3 and not one_brigade:
        return "6.21: three infantry/cavalry units only if all of one brigade"
    if not troops and (len({u.group for u in guns}) > 1 or sum(u.strength for u in guns) > 6):
        return "6.21: stacked artillery must be of one activation group, at most 6 SP"
    if troops and len(guns) > 1:
        return "6.21: at most one artillery unit with non-artillery units"
    if guns and len(troops) == 2 and not one_brigade:
        return "6.21: artillery joins two units only if they are of one brigade"
    return None


LIMIT = all_limits(
    max_units(3, rule="6.21"),
    max_units(2, counts=lambda u: u.arm == "artillery", rule="6.21"),
    stacking_limit,
)
MOVE_RULES = MoveRules(can_end=can_end(LIMIT))  # passing through any stack is free (6.21)


__all__ = ["LIMIT", "MOVE_RULES", "stacking_limit"]
