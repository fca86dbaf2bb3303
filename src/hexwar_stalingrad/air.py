"""Air operations (S10, stage 3 of S4) and air replacements (S4.1).

State (``docs/stalingrad/air.md``):

- ``air[unit] = (where, step)``: ``where`` is ``"pool"`` (not arrived), ``"dead"``
  (destroyed, rebuildable, S4.1 / S10.7), an airfield label (based) or ``"aloft"``;
- ``sky[unit] = (hex, target)``: an aloft unit's hex; ``target`` is the ground unit a
  bomber strikes (``""`` for a fighter);
- ``air_plan["<side>:<role>"]``: a side's committed placements ``((unit, hex, target), ...)``,
  hidden from the other side until both sides are in (ruling S10.2);
- ``air_spent[unit] = True``: attacked (a fighter) or struck (a bomber) this turn (S10.4).

The stage's phases: ``bombers`` and ``fighters`` (hidden placements as private decisions,
RKKA's first, then the Wehrmacht's; revealed together when both are in: S10.2, S10.3),
``combat_rkka`` then ``combat_wehrmacht`` (S10.5: RKKA fighters attack first), ``return``
(S10.6: fighters land, bombers strike, bombers land; S10.7).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Final, cast

import attrs

from hexwar.engine.actions import END, Action, Decision
from hexwar.engine.sequencer import Phase, Stage
from hexwar.engine.state import State
from hexwar.mechanics.combat_rules import GroupNeed
from hexwar.mechanics.crt import OddsTable
from hexwar.mechanics.crt_values import CombatResult
from hexwar_stalingrad.board import (
    DEAD,
    FULL,
    GONE,
    PIECES,
    POOL,
    REDUCED,
    SIDES,
    enemy,
    static,
    unit_at,
)
from hexwar_stalingrad.board import where as ground_where
from hexwar_stalingrad.ground import apply_bombardment
from hexwar_stalingrad.static import Static

__all__ = [
    "ALOFT",
    "DECISIONS",
    "air_odds",
    "air_step",
    "air_strength",
    "air_where",
    "airfield_is_free",
    "aloft",
    "based",
    "decide",
    "declare_air_attack",
    "explain",
    "free_airfields",
    "is_air_action",
    "play_replacement",
    "stage",
]

ALOFT: Final = "aloft"
BOMBER: Final = "bomber"
FIGHTER: Final = "fighter"
#: Decision kinds of the air rules (dispatched by the ruleset to :func:`decide`).
DECISIONS: Final = frozenset({"air_place", "air_roll", "air_home", "air_advance", "air_loss"})
#: The die of air combat (S10.5) and air strikes (S10.6).
_ROLLS: Final = Decision.roll("air_roll").outcomes
#: S4.1: replacement costs (same as ground units): restore 1, rebuild reduced 1 / full 2.
REPLACEMENT_COST: Final = {"restore": 1, REDUCED: 1, FULL: 2}
#: Air combat / air strikes in the ``die_modifier`` hook's ``combat`` context.
AIR_COMBAT: Final = "air"
AIR_STRIKE: Final = "air_strike"


# -- reading the air tables ------------------------------------------------------------------------


def _entry(state: State, unit: str) -> tuple[str, str]:
    value = state.get("air", unit)
    assert isinstance(value, tuple), unit
    assert len(value) == 2, unit
    w, s = value
    assert isinstance(w, str)
    assert isinstance(s, str)
    return w, s


def air_where(state: State, unit: str) -> str:
    """``"pool"``, ``"dead"``, ``"aloft"`` or the airfield label the unit stands on."""
    return _entry(state, unit)[0]


def air_step(state: State, unit: str) -> str:
    """``"full"``, ``"reduced"`` or ``"gone"``."""
    return _entry(state, unit)[1]


def _side(state: State, unit: str) -> str:
    return static(state).air[unit].side


def _role(state: State, unit: str) -> str:
    return static(state).air[unit].role


def sky_hex(state: State, unit: str) -> str | None:
    """The hex an aloft unit flies over, or ``None``."""
    v = state.get("sky", unit)
    return str(v[0]) if isinstance(v, tuple) else None


def _target(state: State, unit: str) -> str:
    v = state.get("sky", unit)
    assert isinstance(v, tuple)
    return str(v[1])


def aloft(state: State, side: str | None = None, role: str | None = None) -> list[str]:
    """Aloft air units (of ``side``, of ``role``), sorted."""
    air = static(state).air
    return sorted(
        u
        for u in state.table("sky")
        if (side is None or air[u].side == side) and (role is None or air[u].role == role)
    )


def based(state: State, side: str, role: str | None = None) -> list[str]:
    """Air units of ``side`` standing on an airfield (may take off), sorted."""
    table = state.table("air")
    return [
        u
        for u in _tables(state).units.get((side, role), ())
        if isinstance(v := table.get(u), tuple) and v[0] not in _NOT_BASED
    ]


#: Where an air unit that is not on an airfield is.
_NOT_BASED: Final = frozenset({POOL, DEAD, ALOFT})


def _air_units(data: Static) -> Mapping[tuple[str, str | None], tuple[str, ...]]:
    """Each side's air units, sorted, by role (and all of them: role ``None``)."""
    air = data.air
    return {
        (side, role): tuple(u for u in data.side_air(side) if role in (None, air[u].role))
        for side in SIDES
        for role in (None, BOMBER, FIGHTER)
    }


def air_strength(state: State, unit: str) -> int:
    """Air-to-air strength of the side the counter shows (S1.4), after cards (S5.4)."""
    info = static(state).air[unit]
    base = info.strength.full if air_step(state, unit) == FULL else info.strength.reduced
    value = state.hook("air_strength", base, unit=unit, side=info.side, role=info.role)
    return max(0, int(value))


def strike_bombs(state: State, unit: str) -> Fraction:
    """Bombs of a bomber's showing side (ruling S1.4: reduced = one step less)."""
    info = static(state).air[unit]
    bombs = info.bombs if air_step(state, unit) == FULL else info.reduced_bombs
    assert bombs is not None, unit
    return bombs


# -- airfields (ruling S10.7) ----------------------------------------------------------------------


def airfields(state: State, side: str) -> tuple[str, ...]:
    """The side's own airfields (map tag ``airfield:<side>``), sorted."""
    return static(state).tagged(f"airfield:{side}")


def _occupied(state: State) -> set[str]:
    return {str(value[0]) for value in state.table("air").values() if isinstance(value, tuple)}


def airfield_is_free(state: State, label: str, side: str) -> bool:
    """Ruling S10.7: no air unit on it, no enemy ground unit on it or next to it."""
    if label in _occupied(state):
        return False
    data = static(state)
    area = frozenset((label, *data.neighbors[label]))
    return not _foe_on(PIECES.occupied(state), data.foes(side), area)


def _foe_on(at: Mapping[str, tuple[str, ...]], foes: frozenset[str], area: frozenset[str]) -> bool:
    """Whether a stack of ``at`` (cell -> pieces, top first) on a hex of ``area`` is a foe's."""
    return any(at[h][0] in foes for h in at.keys() & area)


def free_airfields(state: State, side: str) -> list[str]:
    """The side's free airfields (ruling S10.7), sorted; an airfield that is the base of a
    unit still to arrive (S3.2, S4.2) is kept for it."""
    data = static(state)
    table = state.table("air")
    taken = _occupied(state)  # once for every airfield
    taken.update(
        base
        for u, base in _tables(state).bases[side]
        if base is not None and isinstance(v := table.get(u), tuple) and v[0] == POOL
    )
    at, foes = PIECES.occupied(state), data.foes(side)
    return [
        a
        for a, area in _tables(state).airfield_areas[side]
        if a not in taken and not _foe_on(at, foes, area)
    ]


def _airfield_areas(data: Static) -> Mapping[str, tuple[tuple[str, frozenset[str]], ...]]:
    """Each side's airfields (sorted) with the hexes no enemy ground unit may hold for the
    airfield to be free: itself and its neighbours (ruling S10.7)."""
    return {
        side: tuple(
            (a, frozenset((a, *data.neighbors[a]))) for a in data.tagged(f"airfield:{side}")
        )
        for side in SIDES
    }


def _bases(data: Static) -> Mapping[str, tuple[tuple[str, str | None], ...]]:
    """Each side's air units and the labels of their bases (S3.2, S4.2)."""
    return {
        side: tuple((u, data.place(data.air[u].base)) for u in data.side_air(side))
        for side in SIDES
    }


def _set_air(state: State, unit: str, where: str, step: str | None = None) -> None:
    state.put("air", unit, (where, step or air_step(state, unit)))


def destroy(state: State, unit: str) -> None:
    """An air unit is destroyed (S8.4 as applied by S10.5, S10.7); it may be rebuilt (S4.1)."""
    state.delete("sky", unit)
    _set_air(state, unit, DEAD, GONE)


def air_loss(state: State, unit: str) -> bool:
    """One loss (S1.3 applied to air units, S10.5): full → reduced → destroyed."""
    if air_step(state, unit) == FULL:
        _set_air(state, unit, air_where(state, unit), REDUCED)
        return False
    destroy(state, unit)
    return True


# -- the stage (S4 stage 3) ------------------------------------------------------------------------


def stage(skip: Callable[[State], bool]) -> Stage:
    """Stage 3 of S4: placements (S10.2, S10.3), air combat (S10.5), return (S10.6)."""
    return Stage(
        "air",
        (
            Phase("bombers", on_enter=_begin_bombers, on_exit=_reveal(BOMBER)),
            Phase("fighters", on_enter=_begin_fighters, on_exit=_reveal(FIGHTER)),
            Phase("combat_rkka", side="rkka"),
            Phase("combat_wehrmacht", side="wehrmacht"),
            Phase("return", on_enter=continue_return),
        ),
        skip=skip,
        on_enter=_clear_spent,
    )


def _clear_spent(state: State) -> None:
    for key in sorted(state.table("air_spent")):
        state.delete("air_spent", key)


# -- placement (S10.2, S10.3): hidden, RKKA's first, revealed together -----------------------------


def _plan_key(side: str, role: str) -> str:
    return f"{side}:{role}"


def _plan(state: State, side: str, role: str) -> tuple[tuple[str, str, str], ...]:
    value = state.get("air_plan", _plan_key(side, role), ())
    assert isinstance(value, tuple)  # written by _decide_placement: (unit, hex, target) each
    return cast("tuple[tuple[str, str, str], ...]", value)


def _placement_units(state: State, side: str, role: str) -> list[str]:
    """The units ``side`` may still place for ``role`` (S10.2, S10.3), sorted; none when
    there is no hex to place them on."""
    placed = {u for u, _, _ in _plan(state, side, role)}
    units = [u for u in based(state, side, role) if u not in placed]
    if not units or next(_open_hexes(state, side, role), None) is None:
        return []
    return units


def _open_hexes(state: State, side: str, role: str) -> Iterator[str]:
    """The hexes open to ``side``'s ``role`` placements, in no set order: bombers on an
    enemy unit's hex (S10.2), fighters next to a bomber's (S10.3); one placement per hex."""
    taken = {h for _, h, _ in _plan(state, side, role)}
    data = static(state)
    if role == BOMBER:
        foes = data.foes(side)
        return (
            h for h, units in PIECES.occupied(state).items() if units[0] in foes and h not in taken
        )
    bomber_hexes = {h for u in aloft(state, role=BOMBER) if (h := sky_hex(state, u))}
    near = {n for h in bomber_hexes for n in data.neighbors[h]}
    return iter(near - bomber_hexes - taken)


def fly_units(state: State, decision: Decision, args: tuple[str, ...] = ()) -> list[str]:
    """The units an ``air_place`` decision may still place (S10.2, S10.3), sorted; none
    when there is no hex to place them on."""
    return _placement_units(state, decision.side, str(decision.params[0]))


def fly_hexes(state: State, decision: Decision, args: tuple[str, ...]) -> list[str]:
    """The hexes the unit ``args[0]`` (one :func:`fly_units` gives) may be placed on
    (S10.2, S10.3), sorted: the same for every unit."""
    return sorted(_open_hexes(state, decision.side, str(decision.params[0])))


def _ask_placement(state: State, side: str, role: str) -> None:
    key = _plan_key(side, role)
    if state.get("air_plan", key) is None:
        state.put("air_plan", key, ())
        state.hide("air_plan", key, side)
    if _placement_units(state, side, role):  # some fly action (S10.2, S10.3)
        state.push(Decision("air_place", side, (role,), private=side))
    else:
        _placement_done(state, side, role)


def _placement_done(state: State, side: str, role: str) -> None:
    if side == SIDES[0]:
        _ask_placement(state, SIDES[1], role)


def _begin_bombers(state: State) -> None:
    _ask_placement(state, SIDES[0], BOMBER)


def _begin_fighters(state: State) -> None:
    _ask_placement(state, SIDES[0], FIGHTER)


def _reveal(role: str) -> Callable[[State], None]:
    def reveal(state: State) -> None:
        """Both sides are in: reveal the placements, the units take off (S10.2)."""
        for side in SIDES:
            key = _plan_key(side, role)
            for unit, label, target in _plan(state, side, role):
                state.put("sky", unit, (label, target))
                _set_air(state, unit, ALOFT)
            state.reveal("air_plan", key)
            state.delete("air_plan", key)

    return reveal


def _decide_placement(state: State, decision: Decision, action: Action) -> None:
    side, role = decision.side, str(decision.params[0])
    if action == END:
        _placement_done(state, side, role)
        return
    unit, label = action.args
    target = unit_at(state, label) if role == BOMBER else ""
    plan = tuple(sorted((*_plan(state, side, role), (unit, label, target or ""))))
    state.put("air_plan", _plan_key(side, role), plan)
    if _placement_units(state, side, role):  # some fly action left
        state.push(decision)
    else:
        _placement_done(state, side, role)


# -- air combat (S10.4, S10.5) ---------------------------------------------------------------------


def _adjacent(state: State, a: str, b: str) -> bool:
    return static(state).distance(a, b) == 1


def supporters(state: State, defender: str) -> list[str]:
    """The defender's own air units adjacent to it, fighters and bombers alike (S10.5:
    «Каждая фишка бомбардировщиков и истребителей может атаковать, наносить авиаудар или
    поддерживать свои фишки только 1 раз за ход!»); supporting spends nothing (S10.4)."""
    here = sky_hex(state, defender)
    assert here is not None
    side = _side(state, defender)
    return [
        f
        for f in aloft(state, side)
        if f != defender and _adjacent(state, here, sky_hex(state, f) or here)
    ]


def air_table(state: State) -> OddsTable:
    """The CRT with nearest rounding and refusal below 0.5 (S10.5; cached per ruleset)."""
    return static(state).air_crt


def air_odds(state: State, defender: str, attackers: Iterable[str]) -> tuple[int, int, str | None]:
    """``(attack, defence, column)``: S10.5 odds = attackers' sum ÷ (defender + its adjacent
    fighters), nearest column, capped at 6:1; column ``None`` below 0.5 (no attack)."""
    attack = sum(air_strength(state, a) for a in attackers)
    defence = air_strength(state, defender) + sum(
        air_strength(state, f) for f in supporters(state, defender)
    )
    table = air_table(state)
    if attack == 0 or Fraction(attack, max(defence, 1)) < table.threshold:
        return attack, defence, None
    return attack, defence, table.column_for(attack, max(defence, 1))


def _may_attack(state: State, unit: str) -> bool:
    return not state.get("air_spent", unit)


def _air_need(state: State, side: str, defender: str) -> GroupNeed:
    """An air attack on one aloft enemy unit (S10.4, S10.5): the side's unspent fighters
    adjacent to it (sorted), their strengths (never negative) and the strength that
    reaches 0.5 (strengths are integers: at least 1, the ceiling of 0.5 x defence)."""
    here = sky_hex(state, defender)
    assert here is not None
    near = [
        f
        for f in aloft(state, side, FIGHTER)
        if _may_attack(state, f) and _adjacent(state, here, sky_hex(state, f) or here)
    ]
    defence = air_strength(state, defender) + sum(
        air_strength(state, f) for f in supporters(state, defender)
    )
    need = max(1, math.ceil(air_table(state).threshold * max(defence, 1)))
    return GroupNeed(near, {f: air_strength(state, f) for f in near}, need)


def _air_group(state: State, side: str, defender: str) -> GroupNeed | None:
    info = static(state).air.get(defender)
    if info is None or info.side == side or sky_hex(state, defender) is None:
        return None
    return _air_need(state, side, defender)


def intercept_defenders(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The aloft enemy air units some group of the side's unspent adjacent fighters can
    attack at 0.5 or better, in the side's air combat phase (S10.4, S10.5); sorted."""
    if state.phase != f"combat_{side}":
        return []
    if not any(_may_attack(state, f) for f in aloft(state, side, FIGHTER)):
        return []
    out = []
    for defender in aloft(state, enemy(side)):
        group = _air_group(state, side, defender)
        if group is not None and any(group.feasible((f,)) for f in group.candidates):
            out.append(defender)
    return out


def interceptors(state: State, side: str, fixed: tuple[str, ...]) -> list[str]:
    """The side's unspent fighters adjacent to the aloft enemy unit ``fixed[0]``."""
    group = _air_group(state, side, fixed[0])
    return [] if group is None else list(group.candidates)


def intercept_valid(
    state: State, side: str, fixed: tuple[str, ...], chosen: tuple[str, ...]
) -> bool:
    """Whether ``chosen`` attacks ``fixed[0]`` at 0.5 or better (S10.5)."""
    group = _air_group(state, side, fixed[0])
    return group is not None and group.legal(chosen)


def intercept_feasible(
    state: State, side: str, fixed: tuple[str, ...], chosen: tuple[str, ...]
) -> bool:
    """Whether ``chosen`` plus later fighters can reach 0.5 (monotone, S10.5)."""
    group = _air_group(state, side, fixed[0])
    return group is not None and group.feasible(chosen)


def declare_air_attack(state: State, action: Action) -> None:
    """Spend the attackers (S10.4) and roll (S10.5)."""
    defender, *attackers = action.args
    _, _, column = air_odds(state, defender, attackers)
    assert column is not None
    for a in attackers:
        state.put("air_spent", a, True)
    params = ("combat", defender, column, *attackers)
    state.push(Decision.chance("air_roll", _ROLLS, params=params))


def combat_result(state: State, column: str, attacker_side: str, roll: int) -> CombatResult:
    """The CRT result (S9.1 shared by air combat, S10.5), with card die modifiers."""
    modifier = int(state.hook("die_modifier", 0, side=attacker_side, combat=AIR_COMBAT))
    return air_table(state).result_at(column, roll, modifier=modifier)


def apply_air_result(
    state: State, defender: str, attackers: tuple[str, ...], result: CombatResult
) -> None:
    """S10.5: DR (home; one attacker takes the hex), DRL, DE, AL (attacker's choice), EX
    (the defender and one attacker flip; neither attacks again this turn)."""
    code = result.code
    origin = sky_hex(state, defender)
    assert origin is not None
    side = _side(state, attackers[0])
    if code == "NE":
        return
    if code == "AL":
        _ask_loss(state, side, attackers, "AL")
        return
    if code == "EX":
        # S10.5 (W5): after an exchange neither flipped counter attacks again this turn
        # («Обе фишки больше не будут атаковать в этом ходу»); the attackers are spent
        # already (S10.4), and so is a defending fighter. Both may still support (support
        # spends nothing). A bomber defender is not spent: it still strikes (S10.5).
        if not air_loss(state, defender) and _role(state, defender) == FIGHTER:
            state.put("air_spent", defender, True)
        _ask_loss(state, side, attackers, "EX")
        return
    # DR, DRL, DE: the defender leaves its hex; one attacking fighter takes it.
    destroyed = result.eliminated
    for _ in range(result.defender_steps):
        if not destroyed:
            destroyed = air_loss(state, defender)
    if destroyed:
        destroy(state, defender)
    elif result.retreat or code == "DR":
        send_home(state, defender, "combat")
    _ask_advance(state, origin, attackers)


def _ask(state: State, decision: Decision) -> None:
    if len(decision.choices) == 1:
        decide(state, decision, decision.choices[0])
    elif decision.choices:
        state.push(decision)


def _ask_loss(state: State, side: str, attackers: tuple[str, ...], code: str) -> None:
    live = [a for a in attackers if sky_hex(state, a) is not None]
    choices = tuple(Action("loss", (a,)) for a in sorted(live))
    _ask(state, Decision("air_loss", side, (code,), choices=choices))


def _ask_advance(state: State, origin: str, attackers: tuple[str, ...]) -> None:
    live = [a for a in attackers if sky_hex(state, a) is not None]
    if not live:
        return
    side = _side(state, live[0])
    choices = tuple(Action("advance", (a,)) for a in sorted(live))
    _ask(state, Decision("air_advance", side, (origin,), choices=choices))


def send_home(state: State, unit: str, context: str) -> None:
    """The unit lands on a free own airfield of its owner's choice; none: destroyed (S10.7)."""
    side = _side(state, unit)
    free = free_airfields(state, side)
    if not free:
        destroy(state, unit)
        if context == "return":
            continue_return(state)
        return
    choices = tuple([Action("land", (unit, a)) for a in free])
    _ask(state, Decision("air_home", side, (context,), choices=choices))


# -- return and strikes (S10.6) --------------------------------------------------------------------


def continue_return(state: State) -> None:
    """S10.6: fighters land, then bombers strike, then bombers land; one step at a time."""
    fighters = aloft(state, role=FIGHTER)
    if fighters:
        send_home(state, fighters[0], "return")
        return
    bombers = aloft(state, role=BOMBER)
    for bomber in bombers:
        if not state.get("air_spent", bomber):
            state.put("air_spent", bomber, True)
            target = _target(state, bomber)
            if target and ground_where(state, target) == sky_hex(state, bomber):
                params = ("strike", bomber, target)
                state.push(Decision.chance("air_roll", _ROLLS, params=params))
                return
    if bombers:
        send_home(state, bombers[0], "return")


def strike_result(state: State, bomber: str, roll: int) -> CombatResult:
    """The bombardment table (S9.2) for the bomber's bombs, with card die modifiers."""
    data = static(state)
    modifier = int(state.hook("die_modifier", 0, side=_side(state, bomber), combat=AIR_STRIKE))
    return data.bombardment.resolve(strike_bombs(state, bomber), roll=roll, modifier=modifier)


# -- decisions -------------------------------------------------------------------------------------


def decide(state: State, decision: Decision, action: Action) -> None:
    """Carry out the answer to an air decision."""
    kind = decision.kind
    if kind == "air_place":
        _decide_placement(state, decision, action)
    elif kind == "air_roll":
        roll = action.int_arg(0)
        if decision.params[0] == "strike":
            _, bomber, target = (str(p) for p in decision.params)
            # S9.3: an air strike ignores the fortification exemption of Lo (from_air).
            apply_bombardment(state, target, strike_result(state, bomber, roll), from_air=True)
            continue_return(state)
        else:
            _, defender, column, *rest = (str(p) for p in decision.params)
            attackers = tuple(rest)
            result = combat_result(state, column, _side(state, attackers[0]), roll)
            apply_air_result(state, defender, attackers, result)
    elif kind == "air_home":
        unit, label = action.args
        state.delete("sky", unit)
        _set_air(state, unit, label)
        if decision.params[0] == "return":
            continue_return(state)
    elif kind == "air_advance":
        unit = action.args[0]
        state.put("sky", unit, (str(decision.params[0]), _target(state, unit)))
    elif kind == "air_loss":
        air_loss(state, action.args[0])
    else:  # pragma: no cover - the ruleset dispatches only DECISIONS
        raise AssertionError(decision)


# -- phase actions, explanations -------------------------------------------------------------------


def explain(state: State, action: Action) -> tuple[str, str] | None:
    """Why an air action is illegal now (S10.x), or ``None`` if it is not an air action."""
    data = static(state)
    if action.kind == "intercept":
        if len(action.args) < 2:
            return f"{action}: name the enemy air unit and at least one fighter", "S10.5"
        defender, *attackers = action.args
        side = state.current_player()
        if not str(state.phase).startswith("combat_"):
            return f"{action}: air combat only in the air combat phases", "S10.5"
        if defender not in data.air or sky_hex(state, defender) is None:
            return f"{action}: {defender} is not an aloft air unit", "S10.5"
        for a in attackers:
            if a not in data.air or data.air[a].role != FIGHTER or data.air[a].side != side:
                return f"{action}: {a} is not one of your fighters", "S10.5"
            if state.get("air_spent", a):
                return f"{action}: {a} has already attacked this turn", "S10.4"
            if not _adjacent(state, sky_hex(state, defender) or "", sky_hex(state, a) or ""):
                return f"{action}: {a} is not adjacent to {defender}", "S10.5"
        a_, d_, column = air_odds(state, defender, attackers)
        if column is None:
            return f"{action}: odds {a_}:{d_} are below 0.5", "S10.5"
        return None
    if action.kind == "fly":
        return f"{action}: not a based unit of the placing side, or not a legal hex", "S10.2"
    if action.kind in ("restore", "rebuild") and action.args and action.args[0] in data.air:
        return f"{action}: not affordable, or not a free own airfield", "S4.1"
    return None


# -- replacements of air units (S4.1) --------------------------------------------------------------


def _points(state: State, side: str) -> int:
    v = state.get("game", f"rp:{side}", 0)
    return v if isinstance(v, int) else 0


def _reduced_and_dead(state: State, side: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The side's reduced air units on an airfield and its destroyed ones, sorted (one
    pass over its units)."""
    table = state.table("air")
    reduced, dead = [], []
    for u in static(state).side_air(side):
        v = table.get(u)
        if isinstance(v, tuple):
            if v[0] == DEAD:
                dead.append(u)
            elif v[1] == REDUCED and v[0] not in _NOT_BASED:
                reduced.append(u)
    return tuple(reduced), tuple(dead)


def _restorable(state: State, side: str, points: int) -> list[str]:
    if points < REPLACEMENT_COST["restore"]:
        return []
    return list(_reduced_and_dead(state, side)[0])  # reduced, on an airfield


def _rebuildable(state: State, side: str) -> list[str]:
    return list(_reduced_and_dead(state, side)[1])


def _levels(points: int) -> list[str]:
    return sorted(level for level in (FULL, REDUCED) if points >= REPLACEMENT_COST[level])


def restore_units(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The side's reduced air units on an airfield it can pay to restore (S4.1)."""
    return _restorable(state, side, _points(state, side))


def rebuild_units(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The side's destroyed air units it can pay to rebuild onto a free airfield (S4.1)."""
    if not _levels(_points(state, side)):
        return []
    dead = _rebuildable(state, side)
    return dead if dead and free_airfields(state, side) else []


def rebuild_hexes(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The free own airfields the destroyed unit ``args[0]`` (one of
    :func:`rebuild_units`) may be rebuilt on (S4.1)."""
    return free_airfields(state, side)


def rebuild_levels(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The levels (``full``, ``reduced``) the side can pay for (S4.1), after a legal
    unit and airfield."""
    return _levels(_points(state, side))


def play_replacement(state: State, side: str, action: Action) -> None:
    """Carry out an air ``restore`` / ``rebuild`` (S4.1)."""
    unit = action.args[0]
    if action.kind == "restore":
        cost = REPLACEMENT_COST["restore"]
        _set_air(state, unit, air_where(state, unit), FULL)
    else:
        _, label, level = action.args
        cost = REPLACEMENT_COST[level]
        _set_air(state, unit, label, level)
    state.put("game", f"rp:{side}", _points(state, side) - cost)


def is_air_action(state: State, action: Action) -> bool:
    """Whether ``action`` concerns air units (for seat tags, S3.1)."""
    if action.kind in ("fly", "intercept", "land", "advance", "loss") and action.args:
        return action.args[0] in static(state).air
    return (
        action.kind in ("restore", "rebuild")
        and bool(action.args)
        and (action.args[0] in static(state).air)
    )


@attrs.frozen(eq=False)
class AirTables:
    """The air units' printed facts of one scenario, built once with its ruleset (data,
    not a cache)."""

    #: Each side's air units, sorted, by role (and all of them: role ``None``).
    units: Mapping[tuple[str, str | None], tuple[str, ...]]
    #: Each side's airfields with the hexes no enemy may hold for them to be free (S10.7).
    airfield_areas: Mapping[str, tuple[tuple[str, frozenset[str]], ...]]
    #: Each side's air units and the labels of their bases (S3.2, S4.2).
    bases: Mapping[str, tuple[tuple[str, str | None], ...]]

    @classmethod
    def of(cls, data: Static) -> AirTables:
        """The tables of the scenario ``data``."""
        return cls(_air_units(data), _airfield_areas(data), _bases(data))


def _tables(state: State) -> AirTables:
    found: AirTables = state.ruleset.air_tables  # type: ignore[attr-defined]
    return found
