"""PLACEHOLDER assault for the Triumph & Glory example: NOT the real rules.

Section 9 (assault) is outside the seed's sections 1-6.24; the table, its results and
the retreat only make the example playable. Which assaults may be made (6.13, 6.23) and
their rear shift and No Orders modifier (5.27) are in ``rules.py``.
"""

from __future__ import annotations

from hexwar.actions import Value
from hexwar.crt import OddsTable, Result
from hexwar.dice import D10
from hexwar.geometry import Hex
from hexwar.state import State

from .board import lose_step, relocate, side_of, stack, strength, tg
from .stacking import LIMIT

# PLACEHOLDER assault table (section 9 is outside the seed): d10, low rolls favour the
# attacker. AD attacker top unit disordered; DR defender retreats 1 hex, disordered;
# DL defender top unit loses 1 strength point, then DR.
ASSAULT = OddsTable.build(
    columns=["1:2", "1:1", "2:1", "3:1"],
    rows={
        0: ["DR", "DL", "DL", "DL"],
        1: ["NE", "DR", "DL", "DL"],
        2: ["NE", "DR", "DR", "DL"],
        3: ["NE", "NE", "DR", "DL"],
        4: ["AD", "NE", "DR", "DR"],
        5: ["AD", "NE", "NE", "DR"],
        6: ["AD", "AD", "NE", "DR"],
        7: ["AD", "AD", "NE", "NE"],
        8: ["AD", "AD", "AD", "NE"],
        9: ["AD"] * 4,
        10: ["AD"] * 4,
    },
    results=[
        Result("AD", rank=-1),
        Result("NE"),
        Result("DR", rank=1, retreat=1),
        Result("DL", rank=2, defender_steps=1, retreat=1),
    ],
    dice=D10,
    name="assault (placeholder)",
    rule="placeholder",
)


def resolve_assault(state: State, n: int, params: tuple[Value, ...]) -> None:
    """PLACEHOLDER resolution on :data:`ASSAULT` (section 9 is not in the seed) of roll
    ``n``; ``params``: from hex, to hex, column shift, roll modifier, attacking units."""
    frm, to = (tg(state).hexes[str(p)] for p in params[:2])
    units = [str(u) for u in params[4:]]
    attack = sum(strength(state, u) for u in units)
    defence = sum(strength(state, u) for u in stack(state, to))
    result = ASSAULT.resolve(
        attack, defence, roll=n, shift=int(str(params[2])), modifier=int(str(params[3]))
    )
    if result.code == "AD":
        state.put("disordered", units[0], True)
    if result.defender_steps:
        lose_step(state, stack(state, to)[0])
    if result.retreat and stack(state, to) and state.outcome is None:
        retreat(state, to, frm)


def retreat(state: State, h: Hex, away: Hex) -> None:
    """PLACEHOLDER retreat: the stack moves, in order, to the first hex (sorted) farther
    from the attacker, free of enemies and within 6.21; else its top unit loses 1 SP."""
    rules, units = tg(state), stack(state, h)
    side = side_of(state, units[0])
    for n in sorted(x for x in h.neighbors() if x in rules.map and x.distance(away) == 2):
        there = stack(state, n)
        if (not there or side_of(state, there[0]) == side) and LIMIT(
            [rules.units[u] for u in (*there, *units)]
        ) is None:
            for uid in units:
                relocate(state, uid, n)
                state.put("disordered", uid, True)
            return
    lose_step(state, units[0])


__all__ = ["ASSAULT", "resolve_assault"]
