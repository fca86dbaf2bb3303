"""The attack (S8.1, S8.2, S7.4), bombardment (S7.1) and replacement (S4.1, S2.2)
legality, which reads only what it needs (the contacts, the artillery, the reduced and
dead units, a hex's ZOC controllers), and the free airfields (ruling S10.7), against a
scan of every unit, at every position of seeded random games."""

from __future__ import annotations

from typing import Any

from random_games import random_game

from hexwar.engine.actions import Action
from hexwar.engine.state import State
from hexwar_stalingrad import air, ground, reinforce
from hexwar_stalingrad.board import DEAD, POOL, REDUCED, enemy, on_map, static, step, unit_at, where
from hexwar_stalingrad.rules import ATTACK, BOMBARD, REPLACEMENTS, StalingradRules


def _scan_attacks(state: State, side: str) -> list[str]:
    """S8.1, S8.2, S7.4 by brute force: every enemy unit on the map with an adjacent unit of
    the side, not artillery, not yet attacked, whose group of all such units reaches 1:1
    (strengths are not negative, so no smaller group reaches it when that one does not)."""
    data, out = static(state), []
    for label, defender in on_map(state, enemy(side)):
        near = sorted(
            u
            for n in data.neighbors[label]
            if (u := unit_at(state, n)) is not None
            and data.ground[u].side == side
            and data.ground[u].arm not in ground.ARTILLERY_ARMS
            and not state.get("attacked", u)
        )
        assert all(ground.attack_strength(state, (u,)) >= 0 for u in near)
        if near and ground.attack_odds(state, defender, near)[0] is not None:
            out.append(defender)
    return sorted(out)


def _scan_bombards(state: State, side: str) -> list[str]:
    """S7.1 by brute force: the side's unspent artillery on the map with an enemy unit
    exactly two hexes away."""
    data = static(state)
    return [
        u
        for label, u in on_map(state, side)
        if data.ground[u].arm in ground.ARTILLERY_ARMS
        and not state.get("fired", u)
        and any(
            (t := unit_at(state, c)) is not None and data.ground[t].side != side
            for c in data.ring(label, ground.ARTILLERY_RANGE)
        )
    ]


def _scan_replacements(state: State, side: str) -> list[Action]:
    """S4.1, S2.2 by brute force over every unit of the side and the side-wide enemy ZOC."""
    data, zoc = static(state), ground.zoc_of_side(state, enemy(side))
    points = {u: reinforce._available(state, side, u) for u in data.side_ground(side)}
    if not reinforce._has_points(state, side):
        return []
    trucks = [t for t in data.tagged(f"truck:{side}") if unit_at(state, t) is None and t not in zoc]
    out = [
        Action("rebuild", (u, t, level))
        for u in data.side_ground(side)
        if where(state, u) == DEAD
        for level in ("full", "reduced")
        if points[u] >= reinforce.REPLACEMENT_COST[level]
        for t in trucks
    ]
    return out + [
        Action("restore", (u,))
        for label, u in on_map(state, side)
        if step(state, u) == REDUCED and label not in zoc and points[u] >= 1
    ]


def _scan_free_airfields(state: State, side: str, *, enemies: bool = True) -> list[str]:
    """Ruling S10.7 by brute force: the side's airfields with no air unit on them, no enemy
    ground unit on or next to them (unless not ``enemies``), and not the base of an air unit
    still to arrive."""
    data = static(state)
    air_on = {air.air_where(state, u) for u in data.air}
    kept = {
        data.place(data.air[u].base) for u in data.side_air(side) if air.air_where(state, u) == POOL
    }
    return [
        a
        for a in sorted(data.tagged(f"airfield:{side}"))
        if a not in air_on
        and a not in kept
        and not (
            enemies
            and any(
                (u := unit_at(state, c)) is not None and data.ground[u].side != side
                for c in (a, *data.neighbors[a])
            )
        )
    ]


def _check(state: State, seen: dict[str, int]) -> None:
    for side_ in ("rkka", "wehrmacht"):
        free = _scan_free_airfields(state, side_)
        assert air.free_airfields(state, side_) == free, state.turn
        assert [a for a in free if not air.airfield_is_free(state, a, side_)] == []
        # an airfield not free only for an enemy ground unit on or next to it
        seen["airfield"] += len(free) < len(_scan_free_airfields(state, side_, enemies=False))
    if state.pending or state.outcome is not None:
        return
    side, phase = state.current_player(), state.phase
    if phase == "attack" and state.stage == side:
        want = _scan_attacks(state, side)
        assert list(ground.attack_defenders(state, side)) == want, state.turn
        assert ATTACK.any(state, side) is bool(want)  # the idle test, from the steps
        seen["attack"] += bool(want)
    elif phase == "artillery" and state.stage == side:
        want = _scan_bombards(state, side)
        assert list(ground.bombard_units(state, side)) == want, state.turn
        assert BOMBARD.any(state, side) is bool(want)
        seen["bombard"] += bool(want)
    elif state.stage == "replacements":
        want = _scan_replacements(state, side)
        ground_units = static(state).ground
        listed = [a for a in REPLACEMENTS.actions(state, side) if a.args[0] in ground_units]
        assert sorted(map(str, listed)) == sorted(map(str, want)), state.turn
        assert reinforce.restore_units(state, side) == [
            a.args[0] for a in want if a.kind == "restore"
        ]
        rebuilt = sorted({a.args[0] for a in want if a.kind == "rebuild"})
        assert reinforce.rebuild_units(state, side) == rebuilt
        zoc = ground.zoc_of_side(state, enemy(side))
        cells = sorted(static(state).cells)
        outside = reinforce._outside_enemy_zoc(state, side, cells)
        assert outside == [lab for lab in cells if lab not in zoc]
        seen["restore"] += any(a.kind == "restore" for a in want)
        seen["rebuild"] += bool(rebuilt)


def test_the_scans_agree_in_random_games() -> None:
    seen = dict.fromkeys(("attack", "bombard", "restore", "rebuild", "airfield"), 0)

    def on_step(state: State, action: Any) -> None:
        _check(state, seen)

    for seed in (3,):
        random_game(StalingradRules(length="long"), seed, on_step=on_step)
    assert min(seen.values()) > 0, seen  # every kind was offered somewhere
