"""The Triumph & Glory board: where the units stand (6.2 stacks), their strength and losses.

The state layout: a :class:`~hexwar.pieces.Pieces` registry (``pieces``/``stacks``, top
first, 6.24) keyed by printed hex labels, with the per-unit attributes ``strength``,
``disordered`` and ``facing`` (the corner; a *shared* attribute: all units of a hex face
one way, 6.11, and a newcomer takes the stack's facing), which leave the state with the
unit. Facing arcs (6.11-6.13) and command range (5.61) are in :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from hexwar.actions import Outcome
from hexwar.geometry import Hex
from hexwar.state import State

from .scenario import SIDES

if TYPE_CHECKING:
    from .rules import TriumphAndGlory


def tg(state: State) -> TriumphAndGlory:
    """The example's ruleset (its map, units and :class:`~hexwar.pieces.Pieces`)."""
    return cast("TriumphAndGlory", state.ruleset)


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def stack(state: State, h: Hex) -> tuple[str, ...]:
    """The units in ``h``, top first (6.24); none off the map."""
    return tg(state).pieces.occupants(state, h) if h in tg(state).map else ()


def where(state: State, uid: str) -> Hex:
    return tg(state).pieces.where(state, uid)


def side_of(state: State, uid: str) -> str:
    return tg(state).pieces.side(state, uid)


def strength(state: State, units: Iterable[str]) -> int:
    """The total strength points of ``units`` (a stack assaults and defends as one, 6.23)."""
    return sum(cast(int, state.get("strength", u)) for u in units)


def eliminate(state: State, uid: str) -> None:
    side = side_of(state, uid)
    tg(state).pieces.remove(state, uid)  # with its strength, disorder and facing
    if not tg(state).pieces.pieces_of(state, side):
        state.end_game(Outcome(other(side), f"placeholder victory: no {side} units left"))


def lose_step(state: State, uid: str) -> None:
    if strength(state, [uid]) > 1:
        state.put("strength", uid, strength(state, [uid]) - 1)
        state.put("disordered", uid, True)
    else:
        eliminate(state, uid)
