"""Ground forces: movement (S6), artillery (S7) and ground attacks (S8).

Each function pair lists the legal actions of a phase and carries one out; the ruleset
(:mod:`hexwar_stalingrad.rules`) dispatches to them. Rule questions that cards may change
go through hook points (``movement_allowance``, ``combat_strength``, ``odds_shift``,
``die_modifier``, ``may_exploit``, ``may_retreat``, ``bombard_strength``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

import attrs

from hexwar.base.errors import AttackRefused
from hexwar.engine.actions import Action, Decision, Value
from hexwar.engine.state import State
from hexwar.mechanics.attacks import PieceAttacks, PieceFire
from hexwar.mechanics.combat import Combat
from hexwar.mechanics.crt_values import CombatResult, Distribution
from hexwar.mechanics.moves import PieceMoves, SideZoc
from hexwar.mechanics.steps import StepCounters
from hexwar_stalingrad.board import (
    ELIMINATED,
    FULL,
    PIECES,
    SIDES,
    STEPS,
    counters,
    enemy,
    static,
    step,
    unit_at,
    where,
)
from hexwar_stalingrad.static import Static
from hexwar_stalingrad.units import EXPLOITING_ARMS

__all__ = [
    "ARTILLERY_ARMS",
    "attack_distribution",
    "attack_odds",
    "declare_attack",
    "declare_bombard",
    "resolve",
    "zoc_of_side",
]

#: Arms that bombard (S7.1), cover (S7.3), are helpless in close combat (S7.4) and do not
#: attack (ruling S7.4). The Katyusha is a rocket-artillery unit.
ARTILLERY_ARMS: Final = frozenset({"artillery", "katyusha"})
#: S7.1: artillery bombards exactly two hexes away.
ARTILLERY_RANGE: Final = 2
#: S7.4: a ground attack on artillery is resolved at this column.
HELPLESS_COLUMN: Final = "6:1"
#: The die roll of a ground attack or a bombardment (S8.3, S7.2): ``roll N``, 1/6 each.
ROLL_OUTCOMES: Final = Decision.roll("roll").outcomes
_ROLLS: Final = ROLL_OUTCOMES
#: The answer to an ``advance`` decision that declines it (S8.4).
NO_ADVANCE: Final = "none"


# -- movement (S6) -----------------------------------------------------------------------------


#: ``zoc_of_side(state, side)``: the labels in the ZOC of ``side``'s ground units (S2.1).
zoc_of_side: Final = SideZoc(PIECES, lambda state: static(state).zoc_of)


def allowance(state: State, unit: str, *, hooked: bool = True) -> int:
    """Movement points this phase (S6.1), after card effects unless ``hooked=False``."""
    full, reduced, _ = mechanisms(state).unit_moves[unit]
    base = full if step(state, unit) == FULL else reduced
    return max(0, int(state.hook("movement_allowance", base, unit=unit)) if hooked else base)


def _points(
    data: Static, state: State, side: str, exploitation: bool | None = None
) -> Callable[[str], int]:
    """The movement points of a unit that has not moved (S6.1; in the exploitation phase,
    S6.5, only the exploiting arms a card does not stop), after card effects."""
    exploits_now = state.phase == "exploitation" if exploitation is None else exploitation
    moves, reduced = mechanisms(state).unit_moves, state.table(STEPS)
    # a hook point nothing contributes to returns the value: asked once, not per unit
    exploit_hooked = exploits_now and state.contributes("may_exploit")
    hooked = state.contributes("movement_allowance")

    def points(unit: str) -> int:
        full, red, exploits = moves[unit]
        if exploits_now and not (
            exploits and (not exploit_hooked or bool(state.hook("may_exploit", True, unit=unit)))
        ):
            return 0
        base = red if reduced.get(unit) else full
        return max(0, int(state.hook("movement_allowance", base, unit=unit))) if hooked else base

    return points


def _unit_moves(data: Static) -> dict[str, tuple[int, int, bool]]:
    """Each ground unit's full and reduced movement points (S1.3), whether it exploits (S6.5)."""
    return {
        u: (g.movement.full, g.movement.reduced, g.arm in EXPLOITING_ARMS[g.side])
        for u, g in data.ground.items()
    }


def _moves(data: Static) -> PieceMoves:
    """``move UNIT HEX`` (S6): friendly units pass, exert no ZOC (S6.2, S2.1); enemy units
    block, their ZOC stops (S6.3, S6.4); one unit per hex (S6.2); cards' costs (S6.6)."""
    classes = {u: g.movement_class for u, g in data.ground.items()}
    orders = {g.side: data.side_ground(g.side) for g in data.ground.values()}
    return PieceMoves(
        PIECES,
        lambda state: data.game_map,
        classes=lambda state: classes,
        points=functools.partial(_points, data),
        order=lambda state, side: orders.get(side, ()),
        overrides="terrain_cost",
    )


def move_units(state: State, side: str, args: tuple[str, ...] = ()) -> Iterator[str]:
    """The units that may move and have at least one hex to end in (S6, S6.5), sorted."""
    return mechanisms(state).moves.movers(state, side)


def move_ends(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The hexes the unit ``args[0]`` may end its move in (S6.2-S6.4), sorted."""
    return mechanisms(state).moves.ends(state, side, args)


def play_move(state: State, action: Action) -> None:
    """Carry out ``move UNIT HEX`` (S6)."""
    mechanisms(state).moves.play(state, action)


def bombs(state: State, unit: str) -> Fraction:
    """Bombs the artillery unit strikes with now (S1.4, S7.2), after card effects.

    The printed bombs of the side the counter shows. The Katyusha's double strike (S7.2,
    S1.7) is in its printed value (2 bombs to the A-19's 1; reduced 1 to ½), so it counts
    once (ruling S1.7, Dec 2026): no factor is applied here.
    """
    info = static(state).ground[unit]
    base = info.bombs if step(state, unit) == FULL else info.reduced_bombs
    assert base is not None, unit
    out: Fraction = state.hook("bombard_strength", base, unit=unit)
    return out


def _artillery(data: Static) -> dict[str, tuple[str, ...]]:
    """Each side's artillery, sorted: the units that bombard and cover (S7.1, S7.3)."""
    arm = {u: g.arm for u, g in data.ground.items()}
    return {s: tuple(u for u in data.side_ground(s) if arm[u] in ARTILLERY_ARMS) for s in SIDES}


def _fire(data: Static, armed: Mapping[str, tuple[str, ...]]) -> PieceFire:
    """``bombard ART TARGET``: unspent artillery at an enemy unit exactly two hexes away,
    once per turn (S7.1); the scenario ``data`` bound into the questions it asks."""

    rings = {label: data.ring(label, ARTILLERY_RANGE) for label in data.cells}

    def reach(state: State, label: str) -> tuple[str, ...]:
        return rings[label]

    return PieceFire(
        PIECES, reach,
        may_fire=lambda state, unit: not state.get("fired", unit),
        kind="bombard", armed=lambda state, side: armed[side],
    )  # fmt: skip


def bombard_units(state: State, side: str, args: tuple[str, ...] = ()) -> Iterator[str]:
    """The side's artillery that may bombard something now (S7.1), sorted."""
    return mechanisms(state).fire.firers(state, side, args)


def bombard_targets(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The enemy units the artillery unit ``args[0]`` may bombard (S7.1), sorted."""
    return mechanisms(state).fire.targets(state, side, args)


def declare_bombard(state: State, action: Action) -> None:
    """Spend the artillery unit and roll on the bombardment table (S7.1, S7.2)."""
    unit, target = action.args
    state.put("fired", unit, True)
    state.push(Decision.chance("roll", _ROLLS, params=("bombard", unit, target)))


def bombard_result(state: State, unit: str, target: str, roll: int) -> CombatResult:
    """The bombardment table's result for ``roll`` (modifiers from cards, S5.4)."""
    modifier = _modifier(state, unit, "bombardment")
    return static(state).bombardment.resolve(bombs(state, unit), roll=roll, modifier=modifier)


def apply_bombardment(
    state: State, target: str, result: CombatResult, *, from_air: bool = False
) -> int:
    """Apply a bombardment result to ``target`` (S9.2); returns the losses inflicted.

    ``Lo`` results (flags ``outside_fortifications``, ``not_tanks``) spare tanks and units
    in fortifications; air strikes (``from_air``) ignore the fortification exemption,
    artillery does not (ruling S9.3).
    """
    data = static(state)
    if result.defender_steps == 0:
        return 0
    fortified = where(state, target) in data.fortified and not from_air
    if result.has("outside_fortifications") and fortified:
        return 0
    if result.has("not_tanks") and data.ground[target].arm == "tank":
        return 0
    return counters(state).lose(state, target, result.defender_steps).steps


# -- ground attacks (S8) -----------------------------------------------------------------------


def _power(state: State, unit: str, role: str = "attack") -> int:
    """The unit's strength as ``role`` (``attack``, ``defend``, ``cover``), after cards."""
    return _strength(mechanisms(state).strengths, state, unit, role)


def _strength(strengths: Mapping[str, tuple[int, int]], state: State, unit: str, role: str) -> int:
    """:func:`_power` with the printed ``strengths``: the strength of the side the counter
    shows (:func:`~hexwar_stalingrad.board.strength`, S1.3), then the ``combat_strength``
    hook (which returns at once when nothing contributes to it)."""
    full, reduced = strengths[unit]
    base = reduced if state.get(STEPS, unit) or state.get(ELIMINATED, unit) is not None else full
    return int(state.hook("combat_strength", base, unit=unit, role=role))


def attack_strength(state: State, attackers: Iterable[str]) -> int:
    """Sum of the attackers' strengths (S8.2), after card effects."""
    strengths = mechanisms(state).strengths
    return sum(_strength(strengths, state, u, "attack") for u in attackers)


def defence_strength(state: State, defender: str) -> int:
    """Defender's strength plus covering artillery adjacent to it (S7.3)."""
    return _defence(mechanisms(state), state, defender)


def _defence(ground: Ground, state: State, defender: str) -> int:
    at, data, strengths = PIECES.occupied(state), ground.data, ground.strengths
    cover = ground.artillery[data.ground[defender].side]
    total = _strength(strengths, state, defender, "defend")
    for n in at.keys() & data.neighbors[PIECES.label_of(state, defender)]:  # type: ignore[index]
        if (u := at[n][0]) in cover:
            total += _strength(strengths, state, u, "cover")
    return total


def attack_odds(state: State, defender: str, attackers: Iterable[str]) -> tuple[str | None, int]:
    """``(column, shift)`` of an attack, or ``(None, 0)`` when refused (below 1:1, S8.2).

    Artillery attacked in close combat: 6:1 whatever the strengths (S7.4).
    """
    data = static(state)
    attackers = tuple(attackers)
    if data.ground[defender].arm in ARTILLERY_ARMS:
        column: str | None = HELPLESS_COLUMN
    else:
        found = mechanisms(state)
        attack = sum(_strength(found.strengths, state, u, "attack") for u in attackers)
        column = data.crt.try_column(attack, max(_defence(found, state, defender), 1))
        if column is None:
            return None, 0
    shift = int(state.hook("odds_shift", 0, attacker=attackers, defender=defender))
    return column, shift


def _attacks(ground: Ground) -> PieceAttacks:
    """``attack DEFENDER A1 [A2 ...]``: adjacent units, not artillery, not yet attacked this
    turn (S8.1, S7.4), at 1:1 or better (S8.2; any group against artillery, S7.4); the
    scenario ``data`` bound into the questions it asks."""
    gunners, neighbors = ground.gunners, ground.data.neighbors

    def may_attack(state: State, unit: str) -> bool:
        return unit not in gunners and not state.get("attacked", unit)

    power = functools.partial(_strength, ground.strengths, role="attack")  # no frame per unit

    num, den = ground.data.crt.threshold.as_integer_ratio()

    def need(state: State, side: str, defender: str) -> int | None:
        """The summed attack strength that reaches 1:1 on ``defender`` (S8.2; strengths
        are integers, so its ceiling), ``None`` against artillery: any group (S7.4)."""
        if defender in gunners:
            return None
        return -(-num * max(_defence(ground, state, defender), 1) // den)

    return PieceAttacks(
        PIECES, lambda state: neighbors, may_attack=may_attack,
        name="stalingrad-attack", strength=power, threshold=need,
    )  # fmt: skip


def attack_defenders(state: State, side: str, args: tuple[str, ...] = ()) -> Iterator[str]:
    """The enemy units some group of the side's units may attack now (S8.1, S8.2), sorted."""
    return mechanisms(state).attacks.defenders(state, side, args)


def attackers(state: State, side: str, fixed: tuple[str, ...]) -> list[str]:
    """The units that may attack the defender ``fixed[0]`` (S8.1, S7.4), sorted."""
    return mechanisms(state).attacks.attackers(state, side, fixed)


def attack_valid(state: State, side: str, fixed: tuple[str, ...], chosen: tuple[str, ...]) -> bool:
    """Whether ``chosen`` may attack ``fixed[0]``: 1:1 or better (S8.2, S7.4)."""
    return mechanisms(state).attacks.valid(state, side, fixed, chosen)


def attack_feasible(
    state: State, side: str, fixed: tuple[str, ...], chosen: tuple[str, ...]
) -> bool:
    """Whether ``chosen`` plus later attackers can reach 1:1 (S8.2; monotone)."""
    return mechanisms(state).attacks.feasible(state, side, fixed, chosen)


def explain_attack(state: State, action: Action) -> tuple[str, str] | None:
    """Why an ``attack`` action is illegal (S8.1, S8.2, S7.4), or ``None``."""
    if len(action.args) < 2:
        return f"{action}: name the defender and at least one attacker", "S8.1"
    data = static(state)
    defender, *attackers = action.args
    for u in (defender, *attackers):
        if u not in data.ground or where(state, u) not in data.neighbors:
            return f"{action}: {u} is not a ground unit on the map", "S8.1"
    for u in attackers:
        if data.ground[u].arm in ARTILLERY_ARMS:
            return f"{action}: artillery {u} does not take part in ground attacks", "S7.4"
        if state.get("attacked", u):
            return f"{action}: {u} has already attacked this turn", "S8.1"
        if where(state, defender) not in data.neighbors[where(state, u)]:
            return f"{action}: {u} is not adjacent to {defender}", "S8.1"
    column, _ = attack_odds(state, defender, attackers)
    if column is None:
        a, d = attack_strength(state, attackers), defence_strength(state, defender)
        return f"{action}: odds {a}:{d} are below 1:1", "S8.2"
    return None


def declare_attack(state: State, action: Action) -> None:
    """Spend the attackers (once per turn, S8.1) and roll the die (S8.3)."""
    defender, *attackers = action.args
    column, shift = attack_odds(state, defender, attackers)
    assert column is not None
    for u in attackers:
        state.put("attacked", u, True)
    params: tuple[Value, ...] = ("attack", defender, column, shift, *attackers)
    state.push(Decision.chance("roll", _ROLLS, params=params))


def _modifier(state: State, unit: str, combat: str) -> int:
    """The card die modifiers of the side of ``unit`` (S5.4)."""
    side = static(state).ground[unit].side
    return int(state.hook("die_modifier", 0, side=side, combat=combat))


def attack_result(
    state: State, defender: str, column: str, shift: int, attackers: tuple[str, ...], roll: int
) -> CombatResult:
    """The CRT result for ``roll`` (S8.3), with card die modifiers."""
    modifier = _modifier(state, attackers[0], "ground")
    return static(state).crt.result_at(column, roll, shift=shift, modifier=modifier)


def attack_distribution(state: State, defender: str, attackers: Sequence[str]) -> Distribution:
    """The exact distribution of the CRT results of an attack now (S8.2, S8.3, S7.4): its
    column, the card odds shifts and die modifiers (S5.4); refused below 1:1."""
    attackers = tuple(attackers)
    column, shift = attack_odds(state, defender, attackers)
    if column is None:
        raise AttackRefused(f"attack on {defender}: odds below 1:1", rule="S8.2")
    modifier = _modifier(state, attackers[0], "ground")
    return static(state).crt.distribution_at(column, shift=shift, modifier=modifier)


def resolve(state: State, decision: Decision, action: Action) -> None:
    """Carry out a die roll for an attack or a bombardment."""
    kind, *params = (str(p) for p in decision.params)
    roll = action.int_arg(0)
    if kind == "bombard":
        unit, target = params
        apply_bombardment(state, target, bombard_result(state, unit, target, roll))
        return
    defender, column, shift, *attackers = params
    result = attack_result(state, defender, column, int(shift), tuple(attackers), roll)
    mechanisms(state).results.execute(state, where(state, defender), tuple(attackers), result)


# -- results (S8.4) ------------------------------------------------------------------------------


def _enters(state: State, unit: str, there: str) -> bool:
    """Whether ``unit`` may step into the adjacent hex ``there``: empty, its terrain and
    hexside passable for the unit under the card effects in force (S6.2, S6.6)."""
    data = static(state)
    if unit_at(state, there) is not None or there not in data.passable:
        return False
    mclass = data.ground[unit].movement_class
    game_map = mechanisms(state).moves.map_for(state, mclass)
    return game_map.cost(data.cell(where(state, unit)), data.cell(there), mclass) is not None


def retreat_hexes(state: State, defender: str) -> list[str]:
    """S8.5: adjacent, empty, passable for the unit, not in an enemy ZOC."""
    zoc = zoc_of_side(state, enemy(static(state).ground[defender].side))
    near = static(state).neighbors[where(state, defender)]
    return [n for n in near if n not in zoc and _enters(state, defender, n)]


def may_advance(state: State, unit: str, vacated: str) -> bool:
    """S8.4: whether the attacker ``unit`` may enter the vacated hex (adjacent, S6.6)."""
    near = static(state).neighbors.get(where(state, unit), ())
    return vacated in near and _enters(state, unit, vacated)


def _results(data: Static, steps: StepCounters) -> Combat:
    """S8.4 on the core's result program: DR retreats one hex, chosen by the attacker
    (S8.5), and without a hex the defender surrenders; a ``may_retreat`` card costs a
    loss in place; AL is chosen by the defender; EX is paid by the attacker step by step
    by printed strength, same arm first (ruling S8.4); one attacker advances, obligatory
    after DR, optional (``advance none``) after DRL, DE and EX."""
    forms = {
        "kinds": {"aloss": "al_loss", "pay": "ex_loss", "retreat": "retreat", "advance": "advance"},
        "lose": "loss",
        "stop": ("advance", NO_ADVANCE),
        "advance_cell": False,
        "always_ask": {"retreat"},
        "attacker_loss_by": "defender",
        "exchange_codes": {"EX"},
    }
    hooks: dict[str, Callable[..., Any]] = {
        "retreat_cells": lambda state, _, movers: retreat_hexes(state, movers[0]),
        "may_retreat": lambda state, unit: bool(state.hook("may_retreat", True, unit=unit)),
        "may_advance": may_advance,
        "kind_of": lambda unit: data.ground[unit].arm,
    }
    return Combat(
        PIECES, steps, data.game_map, data.crt, name="ground", forms=forms, hooks=hooks,
        retreat={"chooser": "attacker", "cannot": "eliminate", "forbidden": "step"},
        advance={"by_result": {"DR": "obligatory"}},
        exchange="stepwise", exchange_lost="strength", exchange_paid="strength",
    )  # fmt: skip


def decide_combat(state: State, decision: Decision, action: Action) -> None:
    """Answers to ``retreat``, ``advance``, ``al_loss`` and ``ex_loss`` decisions."""
    assert mechanisms(state).results.decide(state, decision, action), decision


# -- the mechanisms of one scenario ---------------------------------------------------------------


@attrs.frozen(eq=False)
class Ground:
    """The ground rules' core mechanisms and printed values of one scenario, built once
    with its ruleset (:meth:`of`; data, not a cache: nothing here depends on a state)."""

    data: Static
    #: Each ground unit's full and reduced movement points, whether it exploits (S6.1, S6.5).
    unit_moves: Mapping[str, tuple[int, int, bool]]
    #: Each ground unit's printed full and reduced combat strength (S1.3).
    strengths: Mapping[str, tuple[int, int]]
    #: Each side's artillery, sorted (S7.1, S7.3); both sides' together (S7.4).
    artillery: Mapping[str, tuple[str, ...]]
    gunners: frozenset[str]
    #: The ground units' step counters (two steps each, S1.3; :func:`board.counters`).
    counters: StepCounters
    moves: PieceMoves = attrs.field(init=False)
    fire: PieceFire = attrs.field(init=False)
    attacks: PieceAttacks = attrs.field(init=False)
    results: Combat = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        for name, value in (
            ("moves", _moves(self.data)),
            ("fire", _fire(self.data, self.artillery)),
            ("attacks", _attacks(self)),
            ("results", _results(self.data, self.counters)),
        ):
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, data: Static) -> Ground:
        """The mechanisms of the scenario ``data``."""
        artillery = _artillery(data)
        return cls(
            data,
            _unit_moves(data),
            {u: (g.strength.full, g.strength.reduced) for u, g in data.ground.items()},
            artillery,
            frozenset(u for side in SIDES for u in artillery[side]),
            StepCounters(data.step_tracks, pieces=PIECES, table=STEPS, pool=ELIMINATED),
        )


def mechanisms(state: State) -> Ground:
    """The ground mechanisms of the state's «Сталинград» ruleset (its ``ground``)."""
    found: Ground = state.ruleset.ground  # type: ignore[attr-defined]
    return found
