"""Replacements (S4.1), turn-6 reserves (S4.2) and the arrival of aviation (S3.2, S10.1).

Replacement points live in ``game``: ``rp:<side>`` (points left this phase) and
``rpg:<side>:<group>`` (a group-scoped change from a card: positive = extra points only
that group's units may use, negative = that group may use that many fewer).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from hexwar.engine.actions import Action, Decision
from hexwar.engine.state import State
from hexwar_stalingrad.board import (
    ELIMINATED,
    FULL,
    PIECES,
    POOL,
    REDUCED,
    STEPS,
    enemy,
    place,
    set_step,
    static,
    unit_at,
    where,
)
from hexwar_stalingrad.ground import zoc_of_side
from hexwar_stalingrad.static import Static
from hexwar_stalingrad.units import GROUPS

__all__ = [
    "AIR_ARRIVAL_TURN",
    "REPLACEMENT_COST",
    "REPLACEMENT_POINTS",
    "RESERVE_TURN",
    "air_arrival",
    "begin_replacements",
    "end_replacements",
    "place_reserves",
    "play_replacement",
]

#: S4.1: points per side and turn; cost of restoring / rebuilding reduced / full.
REPLACEMENT_POINTS: Final = 2
REPLACEMENT_COST: Final = {"restore": 1, REDUCED: 1, FULL: 2}
#: S4.2: the turn the reserves arrive; S10.1: the first turn of aviation.
RESERVE_TURN: Final = 6
AIR_ARRIVAL_TURN: Final = 3


def _int(state: State, key: str) -> int:
    v = state.get("game", key, 0)
    assert isinstance(v, int)
    return v


def begin_replacements(state: State, side: str) -> None:
    """S4.1: the side receives its points (card effects via ``replacement_points``)."""
    base = int(state.hook("replacement_points", REPLACEMENT_POINTS, side=side, group=None))
    state.put("game", f"rp:{side}", max(0, base))
    for group in sorted(GROUPS):
        delta = int(state.hook("replacement_points", 0, side=side, group=group))
        if delta:
            state.put("game", f"rpg:{side}:{group}", delta)


def end_replacements(state: State, side: str) -> None:
    """S4.1: unused points are lost."""
    state.delete("game", f"rp:{side}")
    for group in sorted(GROUPS):
        state.delete("game", f"rpg:{side}:{group}")


def _available(state: State, side: str, unit: str) -> int:
    general = _int(state, f"rp:{side}")
    for group in sorted(static(state).ground[unit].groups):
        general += _int(state, f"rpg:{side}:{group}")
    return general


def _spend(state: State, side: str, unit: str, cost: int) -> None:
    for group in sorted(static(state).ground[unit].groups):
        key = f"rpg:{side}:{group}"
        bonus = _int(state, key)
        if bonus > 0:
            used = min(bonus, cost)
            state.put("game", key, bonus - used)
            cost -= used
    state.put("game", f"rp:{side}", _int(state, f"rp:{side}") - cost)


def _has_points(state: State, side: str) -> bool:
    return _int(state, f"rp:{side}") > 0 or any(_int(state, f"rpg:{side}:{g}") > 0 for g in GROUPS)


def _outside_enemy_zoc(state: State, side: str, labels: Iterable[str]) -> list[str]:
    """The ``labels`` (in order) in the ZOC of no ground unit of ``side``'s enemy (S2.1;
    the same answer as ``label not in zoc_of_side(state, enemy(side))``)."""
    data, at = static(state), PIECES.occupied(state)
    ground, foe, controllers = data.ground, enemy(side), data.zoc_controllers
    out = []
    for label in labels:
        for source in controllers[label]:
            stack = at.get(source)
            if stack and ground[stack[0]].side == foe:
                break
        else:
            out.append(label)
    return out


def _restorable(state: State, side: str) -> list[str]:
    """The side's reduced units on the map, not in enemy ZOC, it can pay to restore (S4.1,
    S2.2), sorted: read from the reduced units (the steps table), not from every unit."""
    data, entries, cost = static(state), PIECES.entries(state), REPLACEMENT_COST["restore"]
    found = [
        (unit, entry[0])
        for unit, reduced in sorted(state.table(STEPS).items())
        if reduced
        and (entry := entries.get(unit)) is not None
        and data.ground[unit].side == side
        and _available(state, side, unit) >= cost
    ]
    free = set(_outside_enemy_zoc(state, side, [label for _, label in found]))
    return [unit for unit, label in found if label in free]


def _trucks(state: State, side: str) -> tuple[str, ...]:
    """The side's free truck hexes not in enemy ZOC (S4.1, S2.2)."""
    at = PIECES.occupied(state)
    free = [t for t in static(state).tagged(f"truck:{side}") if not at.get(t)]
    return tuple(_outside_enemy_zoc(state, side, free))


def _dead(state: State, side: str) -> list[str]:
    """The side's dead units it can pay to rebuild at some level (S4.1), sorted: read
    from the dead (the eliminated table), not from every unit."""
    ground = static(state).ground
    return [
        u
        for u in sorted(state.table(ELIMINATED))
        if u in ground and ground[u].side == side and _levels(state, side, u)
    ]


def _levels(state: State, side: str, unit: str) -> list[str]:
    """The levels of rebuilding the dead ``unit`` the side can pay for (sorted)."""
    points = _available(state, side, unit)
    return sorted(level for level in (FULL, REDUCED) if points >= REPLACEMENT_COST[level])


def restore_units(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The side's reduced units on the map, not in enemy ZOC, it can pay to restore (S4.1,
    S2.2), sorted."""
    return _restorable(state, side) if _has_points(state, side) else []


def rebuild_units(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The side's dead units it can pay to rebuild, if a truck hex is free (S4.1)."""
    if not _has_points(state, side):
        return []
    dead = _dead(state, side)
    if not dead or not _trucks(state, side):
        return []
    return dead


def rebuild_hexes(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The free truck hexes not in enemy ZOC the dead unit ``args[0]`` (one of
    :func:`rebuild_units`) may be rebuilt on."""
    return list(_trucks(state, side))


def rebuild_levels(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The levels the side can pay for to rebuild ``args[0]`` on ``args[1]`` (one of
    :func:`rebuild_hexes`), S4.1."""
    return _levels(state, side, args[0])


def play_replacement(state: State, side: str, action: Action) -> None:
    """Carry out ``restore`` / ``rebuild`` (S4.1)."""
    unit = action.args[0]
    if action.kind == "restore":
        _spend(state, side, unit, REPLACEMENT_COST["restore"])
        set_step(state, unit, FULL)
    else:
        _, label, level = action.args
        _spend(state, side, unit, REPLACEMENT_COST[level])
        place(state, unit, label, level)


# -- reserves (S4.2) ----------------------------------------------------------------------------


def reserve_hexes(state: State, unit: str) -> list[str]:
    """Where a reserve unit may be placed: its start hex, else the nearest empty hexes not in
    an enemy ZOC (ruling S4.2; several at the same distance: the player chooses)."""
    data = static(state)
    info = data.ground[unit]
    home = data.start_hex(info.side, info.start)
    assert home is not None, unit
    if unit_at(state, home) is None:
        return [home]
    zoc = zoc_of_side(state, enemy(info.side))
    seen = {home}
    frontier = [home]
    while frontier:
        nxt = sorted({n for h in frontier for n in data.neighbors[h]} - seen)
        seen.update(nxt)
        ok = [n for n in nxt if n in data.passable and unit_at(state, n) is None and n not in zoc]
        if ok:
            return ok
        frontier = nxt
    return []


def _arrivals(data: Static) -> Mapping[str, tuple[str, ...]]:
    """The units that arrive during play, sorted: the turn-6 ground reserves (S4.2) and
    every air unit (S3.2, S10.1; each waits in the pool until its turn)."""
    reserves = tuple(u for u in sorted(data.ground) if data.ground[u].arrives == RESERVE_TURN)
    return {"ground": reserves, "air": tuple(sorted(data.air))}


def place_reserves(state: State) -> None:
    """S4.2: place every turn-6 reserve still in the pool; ties become decisions."""
    if state.turn < RESERVE_TURN:
        return
    data = static(state)
    for unit in _arrivals(data)["ground"]:
        info = data.ground[unit]
        if where(state, unit) != POOL:
            continue
        hexes = reserve_hexes(state, unit)
        if len(hexes) == 1:
            place(state, unit, hexes[0])
        elif hexes:
            choices = tuple(Action("place", (unit, h)) for h in hexes)
            state.push(Decision("reserve", info.side, (unit,), choices=choices))
            return


def decide_reserve(state: State, action: Action) -> None:
    """The player's choice of hex for a reserve unit (S4.2); then the next reserves."""
    unit, label = action.args
    place(state, unit, label)
    place_reserves(state)


# -- aviation arrives (S3.2, S10.1) -------------------------------------------------------------


def air_arrival(state: State) -> None:
    """Air units whose turn has come go to their base airfields (``air`` table)."""
    data = static(state)
    for unit in _arrivals(data)["air"]:
        info = data.air[unit]
        if info.arrives > state.turn:
            continue
        value = state.get("air", unit)
        if not isinstance(value, tuple) or value[0] != POOL:
            continue
        base = data.place(info.base) or POOL
        state.put("air", unit, (base, value[1]))
