"""The Triumph & Glory board: where the units stand and how (6.1 facing, 6.2 stacks).

The state layout: a :class:`~hexwar.pieces.Pieces` registry (``pieces``/``stacks``, top
first, 6.24) keyed by printed hex labels, with the per-unit attributes ``strength``,
``disordered`` and ``facing`` (the corner; all units of a hex share it, 6.11), which
leave the state with the unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from hexwar.actions import Outcome
from hexwar.edges import Arc, Facing, FacingStyle
from hexwar.geometry import Hex
from hexwar.state import State

from .scenario import SIDES

if TYPE_CHECKING:
    from .rules import TriumphAndGlory

ALL_ROUND_TERRAIN = ("village", "redoubt")  # 6.11


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


def facing(state: State, h: Hex) -> Facing:
    """The vertex the stack in ``h`` faces (6.11: all units of a hex face one way)."""
    return Facing(h, cast(int, state.get("facing", stack(state, h)[0])))


def strength(state: State, uid: str) -> int:
    return cast(int, state.get("strength", uid))


def in_range(state: State, side: str, h: Hex) -> bool:
    """5.61: within command range (excluding the commander's hex, including the unit's)."""
    c = tg(state).scenario.commanders[side]
    return c.hex.distance(h) <= c.range


def near_enemy(state: State, h: Hex) -> bool:
    side = side_of(state, stack(state, h)[0])
    return any(side_of(state, u) != side for n in h.neighbors() for u in stack(state, n))


def relocate(state: State, uid: str, dest: Hex) -> None:
    """Move a unit: it joins ``dest`` at the bottom (6.24), facing like the stack there
    (6.11) or keeping its own facing if ``dest`` is empty."""
    there = stack(state, dest)
    if there:
        state.put("facing", uid, state.get("facing", there[0]))
    tg(state).pieces.move(state, uid, dest)


def eliminate(state: State, uid: str) -> None:
    side = side_of(state, uid)
    tg(state).pieces.remove(state, uid)  # with its strength, disorder and facing
    if not tg(state).pieces.pieces_of(state, side):
        state.end_game(Outcome(other(side), f"placeholder victory: no {side} units left"))


def lose_step(state: State, uid: str) -> None:
    if strength(state, uid) > 1:
        state.put("strength", uid, strength(state, uid) - 1)
        state.put("disordered", uid, True)
    else:
        eliminate(state, uid)


def defence_style(state: State, h: Hex) -> FacingStyle:
    """6.11/6.14: infantry in a village or redoubt faces all round; cavalry in good order
    defends in the flanked formation (flank hexes count as front); else standard."""
    top = next((u for u in stack(state, h) if tg(state).units[u].arm != "artillery"), None)
    arm = None if top is None else tg(state).units[top].arm
    if arm == "infantry" and tg(state).map.terrain(h) in ALL_ROUND_TERRAIN:
        return FacingStyle.ALL_ROUND
    if arm == "cavalry" and not state.get("disordered", top):  # type: ignore[arg-type]
        return FacingStyle.FLANKED
    return FacingStyle.STANDARD


def attacked_in_rear(state: State, attacker: Hex, defender: Hex) -> bool:
    """6.13: is the attacker in a rear hex of the defending stack?"""
    arcs = facing(state, defender).arcs(defence_style(state, defender))
    return arcs.arc_of(attacker) is Arc.REAR
