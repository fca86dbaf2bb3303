"""PLACEHOLDER assault for the Triumph & Glory example: NOT the real rules.

Section 9 (assault) is outside the seed's sections 1-6.24; the table
(``data/assault.toml``: AD attacker's top unit disordered; DR defender retreats 1 hex,
disordered; DL defender's top unit loses 1 strength point, then DR), its results and
the retreat only make the example playable. Which assaults may be made (6.13, 6.23) and
their rear shift and No Orders modifier (5.27) are in ``rules.py``.
"""

from __future__ import annotations

from typing import cast

from hexwar.engine.actions import Value
from hexwar.engine.state import State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.crt import OddsTable, load_table
from hexwar.mechanics.retreat import retreat_cells

from .board import LIMIT, join, lose_step, stack, strength, tg
from .scenario import DATA, TABLES

ASSAULT = cast(OddsTable, load_table(DATA / "assault.toml"))


def resolve_assault(state: State, n: int, params: tuple[Value, ...]) -> None:
    """PLACEHOLDER resolution on :data:`ASSAULT` (section 9 is not in the seed) of roll
    ``n``; ``params``: from hex, to hex, column shift, roll modifier, attacking units."""
    frm, to = (tg(state).hexes[str(p)] for p in params[:2])
    units = [str(u) for u in params[4:]]
    shift, drm = (int(str(p)) for p in params[2:4])
    attack, defence = strength(state, units), strength(state, stack(state, to))
    result = ASSAULT.resolve(attack, defence, roll=n, shift=shift, modifier=drm)
    if result.code == "AD":
        state.put("disordered", units[0], True)
    if result.defender_steps:
        lose_step(state, stack(state, to)[0])
    if result.retreat and stack(state, to) and state.outcome is None:
        retreat(state, to, frm)


def resolve_fire(state: State, n: int, params: tuple[Value, ...]) -> None:
    """PLACEHOLDER artillery fire (section 8 is not in the seed) of roll ``n`` by
    ``params`` (gun, target hex): a hit if ``n`` (+ the long-range modifier beyond the
    effective range, 2.0) is below the gun's strength. 6.23: fire strikes every unit of
    the target stack: each is disordered, and one already disordered loses SP."""
    rules = tg(state)
    gun, to = str(params[0]), rules.hexes[str(params[1])]
    far = rules.pieces.where(state, gun).distance(to) > rules.units[gun].effective_range
    if n + (TABLES.fire_long_drm if far else 0) >= strength(state, [gun]):
        return
    for uid in stack(state, to):
        if state.outcome is not None:
            return
        if state.get("disordered", uid):
            for _ in range(TABLES.fire_steps):
                if rules.pieces.is_placed(state, uid):
                    lose_step(state, uid)
        else:
            state.put("disordered", uid, True)


def retreat(state: State, h: Hex, away: Hex) -> None:
    """PLACEHOLDER retreat: the stack moves, in order, to the first hex (sorted) farther
    from the attacker, free of enemies and within 6.21; else its top unit loses 1 SP."""
    rules, units = tg(state), stack(state, h)
    unit = rules.units.__getitem__
    to = retreat_cells(rules.pieces, state, h, away, on_map=rules.map, limit=LIMIT, unit=unit)
    if not to:
        lose_step(state, units[0])
        return
    for uid in units:  # in order, at the bottom, facing as their kind there (6.11, 6.14)
        join(state, uid, to[0])
    for uid in units:
        state.put("disordered", uid, True)


__all__ = ["ASSAULT", "resolve_assault", "resolve_fire"]
