"""The Triumph & Glory board: the units on the map, their stacks (6.2), strength and losses.

The state layout: a :class:`~hexwar.board.pieces.Pieces` registry (``pieces``/``stacks``, top
first, 6.24) keyed by printed hex labels, with the per-unit attributes ``strength``,
``disordered`` and ``facing`` (the corner, per unit: the infantry/cavalry of a hex face
one way, 6.11, artillery may face apart, 6.14; a newcomer faces as its kind there,
:func:`join`), which leave the state with the unit. What may share a hex (6.21) is
:data:`LIMIT`, checked where a move or a retreat ends and at load. Facing arcs
(6.11-6.13) and command range (5.61) are in :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from hexwar.board.move_rules import MoveRules
from hexwar.board.stacking import all_limits, can_end, max_units
from hexwar.engine.actions import Outcome
from hexwar.engine.state import State
from hexwar.grid.geometry import Hex

if TYPE_CHECKING:
    from .rules import TriumphAndGlory
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


def tg(state: State) -> TriumphAndGlory:
    """The example's ruleset (its map, units and :class:`~hexwar.board.pieces.Pieces`)."""
    return cast("TriumphAndGlory", state.ruleset)


def stack(state: State, h: Hex) -> tuple[str, ...]:
    """The units in ``h``, top first (6.24); none off the map."""
    return tg(state).pieces.occupants(state, h) if h in tg(state).map else ()


def where(state: State, uid: str) -> Hex:
    return tg(state).pieces.where(state, uid)


def side_of(state: State, uid: str) -> str:
    return tg(state).pieces.side(state, uid)


def kin_facing(state: State, uid: str, h: Hex) -> int | None:
    """The facing ``uid`` takes on joining ``h``: that of the units of its kind there
    (6.11: the infantry/cavalry of a hex face one way; 6.14: artillery with them may face
    apart, and faces as the artillery there); ``None`` if there are none."""
    rules = tg(state)
    gun = rules.units[uid].arm == "artillery"
    kin = [u for u in stack(state, h) if u != uid and (rules.units[u].arm == "artillery") == gun]
    return cast(int, state.get("facing", kin[0])) if kin else None


def join(state: State, uid: str, h: Hex) -> None:
    """Move ``uid`` to ``h``: it joins the stack at the bottom (6.24) and faces as its
    kind there (:func:`kin_facing`), else keeps its facing."""
    corner = kin_facing(state, uid, h)
    tg(state).pieces.move(state, uid, h)
    if corner is not None:
        state.put("facing", uid, corner)


def strength(state: State, units: Iterable[str]) -> int:
    """The total strength points of ``units`` (a stack assaults and defends as one, 6.23)."""
    return sum(cast(int, state.get("strength", u)) for u in units)


def eliminate(state: State, uid: str) -> None:
    """The unit leaves the map; a side with no units left loses (PLACEHOLDER victory)."""
    side = side_of(state, uid)
    tg(state).pieces.remove(state, uid)  # with its strength, disorder and facing
    if not tg(state).pieces.pieces_of(state, side):
        winner = next(s for s in tg(state).sides if s != side)
        state.end_game(Outcome(winner, f"placeholder victory: no {side} units left"))


def lose_step(state: State, uid: str) -> None:
    """PLACEHOLDER step loss (section 9): 1 strength point and disorder; the last one kills."""
    if strength(state, [uid]) > 1:
        state.put("strength", uid, strength(state, [uid]) - 1)
        state.put("disordered", uid, True)
    else:
        eliminate(state, uid)
