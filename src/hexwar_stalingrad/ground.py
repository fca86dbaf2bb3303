"""Ground forces: movement (S6), artillery (S7) and ground attacks (S8).

Each function pair lists the legal actions of a phase and carries one out; the ruleset
(:mod:`hexwar_stalingrad.rules`) dispatches to them. Rule questions that cards may change
go through hook points (``movement_allowance``, ``combat_strength``, ``odds_shift``,
``die_modifier``, ``may_exploit``, ``may_retreat``, ``bombard_strength``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Final

from hexwar.base.errors import AttackRefused
from hexwar.board.maps import COST_CACHE
from hexwar.board.move_search import CompiledSteps
from hexwar.engine.actions import Action, Decision, Value
from hexwar.engine.dice import D6
from hexwar.engine.memo import StateMemo
from hexwar.engine.state import State
from hexwar.mechanics.attacks import PieceAttacks, PieceFire
from hexwar.mechanics.combat import AdvanceRules, Combat, ResultForms, ResultHooks
from hexwar.mechanics.crt_values import CombatResult, Distribution
from hexwar.mechanics.retreat import RetreatRules
from hexwar.mechanics.steps import StepCounters
from hexwar_stalingrad.board import (
    ELIMINATED,
    FULL,
    PIECES,
    SIDES,
    STEPS,
    counters,
    enemy,
    on_map,
    place,
    static,
    step,
    strength,
    unit_at,
    where,
)
from hexwar_stalingrad.static import Overrides, Static
from hexwar_stalingrad.units import EXPLOITING_ARMS

__all__ = [
    "ARTILLERY_ARMS",
    "attack_actions",
    "attack_distribution",
    "attack_odds",
    "bombard_actions",
    "declare_attack",
    "declare_bombard",
    "move_actions",
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
ROLL_OUTCOMES: Final = tuple((Action.of("roll", n), p) for n, p in D6.outcomes())
_ROLLS: Final = ROLL_OUTCOMES
#: The answer to an ``advance`` decision that declines it (S8.4).
NO_ADVANCE: Final = "none"


# -- helpers ---------------------------------------------------------------------------------


def zoc_of_side(state: State, side: str) -> frozenset[str]:
    """Labels in the ZOC of ``side``'s ground units (S2.1); memoised on ``stacks``."""
    return _ZOC_OF_SIDE(state, side)


def _zoc_of_side(state: State, side: str) -> frozenset[str]:
    zoc_of = static(state).zoc_of
    out: set[str] = set()
    for label, _ in on_map(state, side):
        out.update(zoc_of[label])
    return frozenset(out)


#: Reads only ``stacks`` (the units' hexes) and the static data; at most 256 entries.
_ZOC_OF_SIDE: Final = StateMemo(reads=(PIECES.stacks,), compute=_zoc_of_side, size=256)


def terrain_overrides(state: State) -> tuple[tuple[str, str, float | None], ...]:
    """``terrain_cost`` effects in force, as ``(class, terrain, cost)`` (card effects)."""
    if not state.effects:
        return ()
    classes = sorted(static(state).game_map.chart.movement_classes)
    out: dict[tuple[str, str], float | None] = {}
    for e in state.effects:
        if e.kind != "terrain_cost":
            continue
        terrain, cost, mclass = e.param("terrain"), e.param("cost"), e.param("movement_class")
        assert isinstance(terrain, str)
        value = None if cost == "impassable" else cost
        for c in classes if mclass is None else [mclass]:
            assert isinstance(c, str)
            assert value is None or isinstance(value, int | float)
            out[c, terrain] = value
    return tuple((c, t, v) for (c, t), v in sorted(out.items()))


def allowance(state: State, unit: str, *, hooked: bool = True) -> int:
    """Movement points this phase (S6.1), after card effects.

    ``hooked=False`` (see :func:`allowance_hooked`) skips the ``movement_allowance`` hook
    when nothing would change the printed value.
    """
    info = static(state).ground[unit]
    base = info.movement.full if step(state, unit) == FULL else info.movement.reduced
    if not hooked:
        return max(0, base)
    return max(0, int(state.hook("movement_allowance", base, unit=unit)))


def allowance_hooked(state: State) -> bool:
    """Whether anything contributes to the ``movement_allowance`` hook now (a static hook
    of the ruleset or an effect in force, e.g. a ``movement_bonus`` card, S5)."""
    return _hooked(state, "movement_allowance")


def _hooked(state: State, point: str) -> bool:
    """Whether a static hook or an effect in force contributes to hook ``point`` (if
    not, ``state.hook(point, value)`` is ``value``)."""
    rules = state.ruleset
    if rules.static_hook(point) is not None:
        return True
    return any(point in rules.effect_rules[e.kind] for e in state.effects)


def may_move_now(state: State, unit: str, side: str, exploitation: bool) -> bool:
    """Whether ``unit`` may move in this phase (S6.5 for exploitation)."""
    if state.get("moved", unit):
        return False
    if not exploitation:
        return True
    arm = static(state).ground[unit].arm
    return arm in EXPLOITING_ARMS[side] and bool(state.hook("may_exploit", True, unit=unit))


# -- movement (S6) -----------------------------------------------------------------------------


class FirstSteps(dict[str, tuple[tuple[float, str], ...]]):
    """The steps out of each hex for one movement class on one map variant (ordinary and
    "stop" hexsides alike: S6.3 ends a move in a ZOC hex, S6.4 lets a unit leave one),
    label -> ``(cost, label)`` sorted by cost; each label's entry is built on first use
    (units stand on few of the map's hexes)."""

    def __init__(self, steps: CompiledSteps, labels: Sequence[str], indices: Mapping[str, int]):
        super().__init__()
        self._steps, self._labels, self._indices = steps, labels, indices

    def __missing__(self, label: str) -> tuple[tuple[float, str], ...]:
        i, labels, steps = self._indices[label], self._labels, self._steps
        found = tuple(sorted((cost, labels[j]) for j, cost in (*steps.go[i], *steps.stop[i])))
        self[label] = found
        return found


def first_steps(data: Static, overrides: Overrides, movement_class: str) -> FirstSteps:
    """:class:`FirstSteps` of ``movement_class`` under ``overrides``, kept on the map."""
    overrides = data.for_class(overrides, movement_class)

    def build() -> FirstSteps:
        steps = data.steps(overrides, movement_class)
        return FirstSteps(steps, data.index_labels, data.label_indices)

    key = (COST_CACHE, movement_class, "stalingrad-first-steps")
    return data.map_with(overrides).derived(key, build)


@functools.lru_cache(maxsize=8)
def _unit_moves(data: Static) -> Mapping[str, tuple[str, int, int, bool]]:
    """Each ground unit's movement class, full and reduced movement points (S1.3) and
    whether its arm exploits (S6.5)."""
    return {
        u: (g.movement_class, g.movement.full, g.movement.reduced, g.arm in EXPLOITING_ARMS[g.side])
        for u, g in data.ground.items()
    }


class Movers:
    """One side's movement query in one phase (S6, S6.5 for exploitation): what it reads
    once (the effects' terrain overrides, whether the allowance and exploitation hooks are
    in play, the enemy units' hexes) and the per-unit answers built on it.

    Friendly units are passable and exert no ZOC (S6.2, S2.1), so a unit's end hexes
    are the hexes it reaches against the enemy units alone (:meth:`Static.reach`, memoised
    on its arguments) minus the occupied ones. "Has the unit a move?" is first asked
    one step out (:meth:`steps_out`); the search runs only for a unit it does not settle.
    """

    def __init__(self, state: State, side: str, exploitation: bool) -> None:
        self.state, self.side, self.exploitation = state, side, exploitation
        self.data = static(state)
        self.at = PIECES.occupied(state)
        self.moved = state.table("moved")
        self.reduced = state.table(STEPS)
        # derived once per position (immutable values: a clone may share them)
        self.overrides, self.hooked, self.exploit_hooked = state.derive(
            "stalingrad-movement-effects",
            lambda: (
                terrain_overrides(state),
                _hooked(state, "movement_allowance"),
                _hooked(state, "may_exploit"),
            ),
        )
        self._steps: dict[str, FirstSteps] = {}
        self._moves = _unit_moves(self.data)

    def enemies(self) -> frozenset[str]:
        """The labels holding enemy ground units (one set per position and side)."""
        state, side = self.state, self.side

        def build() -> frozenset[str]:
            foes = self.data.foes(side)
            occupied = PIECES.occupied(state).items()
            return frozenset([lab for lab, s in occupied if s[0] in foes])

        return state.derive(("stalingrad-enemy-hexes", side), build)

    def units(self) -> list[tuple[str, str]]:
        """``(unit, label)`` of the side's units on the map, sorted by unit."""
        entries = PIECES.entries(self.state)
        out = []
        for unit in self.data.side_ground(self.side):
            entry = entries.get(unit)
            if entry is not None:
                out.append((unit, entry[0]))
        return out

    def ready(self) -> tuple[tuple[str, str, int], ...]:
        """``(unit, label, points)`` of the side's units on the map that may move in this
        phase (points > 0), sorted by unit."""
        return tuple(self._ready())

    def _ready(self) -> Iterator[tuple[str, str, int]]:
        entries, points = PIECES.entries(self.state), self.points
        for unit in self.data.side_ground(self.side):
            entry = entries.get(unit)
            if entry is not None and (p := points(unit)) > 0:
                yield unit, entry[0], p

    def points(self, unit: str) -> int:
        """The unit's movement points now, 0 if it may not move in this phase (S6.1, S6.5)."""
        state = self.state
        if self.moved.get(unit):
            return 0
        _, full, red, exploits = self._moves[unit]
        if self.exploitation and not (
            exploits
            and (not self.exploit_hooked or bool(state.hook("may_exploit", True, unit=unit)))
        ):
            return 0
        base = red if self.reduced.get(unit) else full
        if not self.hooked:
            return max(0, base)
        return max(0, int(state.hook("movement_allowance", base, unit=unit)))

    def steps_out(self, unit: str, label: str, points: int) -> bool:
        """The cheap sufficient test: an adjacent empty hex the unit can enter with its
        points (it may always end there: S6.3 stops it in a ZOC hex, S6.4 lets it leave)."""
        mclass = self._moves[unit][0]
        steps = self._steps.get(mclass)
        if steps is None:
            steps = self._steps[mclass] = first_steps(self.data, self.overrides, mclass)
        at = self.at
        for cost, lab in steps[label]:
            if cost > points:
                return False
            if lab not in at:
                return True
        return False

    def ends(self, unit: str, label: str, points: int) -> list[str]:
        """The hexes ``unit`` on ``label`` may end its move in (sorted)."""
        if points <= 0:
            return []
        data = self.data
        reach = data.reach(
            self.overrides, data.ground[unit].movement_class, self.enemies(), label, points
        )
        at = self.at
        return [lab for lab in reach if lab not in at]

    def may_move(self, unit: str, label: str) -> bool:
        """Whether ``unit`` has at least one hex to move to."""
        points = self.points(unit)
        if points <= 0:
            return False
        return self.steps_out(unit, label, points) or bool(self.ends(unit, label, points))

    def place_of(self, unit: str) -> str | None:
        """The label of one of the side's units on the map, or ``None``."""
        info = self.data.ground.get(unit)
        if info is None or info.side != self.side:
            return None
        return PIECES.label_of(self.state, unit)


def _exploiting(state: State) -> bool:
    return state.phase == "exploitation"


def has_move(state: State, side: str) -> bool:
    """Whether ``side`` has at least one ``move`` in this phase (S6, S6.5): the cheap test
    unit by unit (stopping at the first that steps out), the search only for the units it
    does not settle (S4 idle test)."""
    movers = Movers(state, side, _exploiting(state))
    later = []
    steps_out = movers.steps_out
    for unit, label, points in movers._ready():
        if steps_out(unit, label, points):
            return True
        later.append((unit, label, points))
    return any(movers.ends(u, lab, p) for u, lab, p in later)


def move_units(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The units that may move and have at least one hex to end in (S6, S6.5), sorted."""
    movers = Movers(state, side, _exploiting(state))
    at, moves, tables = movers.at, movers._moves, movers._steps
    out = []
    for unit, label, points in movers._ready():
        # Movers.steps_out inlined: one step out to an empty hex settles most units
        mclass = moves[unit][0]
        steps = tables.get(mclass)
        if steps is None:
            steps = tables[mclass] = first_steps(movers.data, movers.overrides, mclass)
        free = False
        for cost, lab in steps[label]:
            if cost > points:
                break
            if lab not in at:
                free = True
                break
        if free or movers.ends(unit, label, points):
            out.append(unit)
    return out


def move_ends(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The hexes the unit ``args[0]`` may end its move in (S6.2-S6.4), sorted."""
    movers = Movers(state, side, _exploiting(state))
    label = movers.place_of(args[0])
    return [] if label is None else movers.ends(args[0], label, movers.points(args[0]))


def move_actions(state: State, side: str, exploitation: bool) -> list[Action]:
    """``move UNIT HEX`` for every unit that may move and every hex it may end in (S6).

    Sorted by unit, then hex.
    """
    movers = Movers(state, side, exploitation)
    out: list[Action] = []
    table = movers.data.move_table
    for unit, label, points in movers.ready():
        ends = movers.ends(unit, label, points)
        if ends:
            out.extend(map(table(unit).__getitem__, ends))
    return out


def play_move(state: State, action: Action) -> None:
    """Carry out ``move UNIT HEX``."""
    unit, label = action.args
    place(state, unit, label)
    state.put("moved", unit, True)


# -- artillery (S7) ----------------------------------------------------------------------------


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


@functools.lru_cache(maxsize=8)
def _artillery(data: Static) -> Mapping[str, tuple[str, ...]]:
    """Each side's artillery, sorted: the units that bombard and cover (S7.1, S7.3)."""
    arm = {u: g.arm for u, g in data.ground.items()}
    return {s: tuple(u for u in data.side_ground(s) if arm[u] in ARTILLERY_ARMS) for s in SIDES}


#: ``bombard ART TARGET``: unspent artillery at an enemy unit exactly two hexes away, once
#: per turn (S7.1).
FIRE: Final = PieceFire(
    PIECES,
    lambda state, label: static(state).ring(label, ARTILLERY_RANGE),
    may_fire=lambda state, unit: not state.get("fired", unit),
    kind="bombard",
    armed=lambda state, side: _artillery(static(state))[side],
)
bombard_actions, bombard_units, bombard_targets, has_bombard = (
    FIRE.actions, FIRE.firers, FIRE.targets, FIRE.exists
)  # fmt: skip


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


def _may_attack(state: State, unit: str) -> bool:
    return static(state).ground[unit].arm not in ARTILLERY_ARMS and not state.get("attacked", unit)


def _power(state: State, unit: str, role: str = "attack") -> int:
    """The unit's strength as ``role`` (``attack``, ``defend``, ``cover``), after cards."""
    return int(state.hook("combat_strength", strength(state, unit), unit=unit, role=role))


def attack_strength(state: State, attackers: Iterable[str]) -> int:
    """Sum of the attackers' strengths (S8.2), after card effects."""
    return sum(_power(state, u, "attack") for u in attackers)


def defence_strength(state: State, defender: str) -> int:
    """Defender's strength plus covering artillery adjacent to it (S7.3)."""
    data, at = static(state), PIECES.occupied(state)
    cover = _artillery(data)[data.ground[defender].side]
    total = _power(state, defender, "defend")
    for n in at.keys() & data.neighbors[where(state, defender)]:
        if (u := at[n][0]) in cover:
            total += _power(state, u, "cover")
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
        attack, defence = attack_strength(state, attackers), defence_strength(state, defender)
        ratio = Fraction(attack, max(defence, 1))
        if ratio < data.crt.threshold:
            return None, 0
        column = data.crt.column_for(attack, max(defence, 1))
    shift = int(state.hook("odds_shift", 0, attacker=attackers, defender=defender))
    return column, shift


def _need(state: State, side: str, defender: str) -> int | None:
    """The summed attack strength that reaches 1:1 on ``defender`` (S8.2; strengths are
    integers, so its ceiling), ``None`` against artillery: any group will do (S7.4)."""
    data = static(state)
    if data.ground[defender].arm in ARTILLERY_ARMS:
        return None
    ratio = data.crt.threshold
    return -(-ratio.numerator * max(defence_strength(state, defender), 1) // ratio.denominator)


#: ``attack DEFENDER A1 [A2 ...]``: adjacent units, not artillery, not yet attacked this
#: turn (S8.1, S7.4), at 1:1 or better (S8.2; any group against artillery, S7.4).
ATTACKS: Final = PieceAttacks(
    PIECES, lambda state: static(state).neighbors, may_attack=_may_attack,
    name="stalingrad-attack", strength=_power, threshold=_need,
)  # fmt: skip
attack_defenders: Final = ATTACKS.defenders
has_attack: Final = ATTACKS.exists
attackers: Final = ATTACKS.attackers
attack_valid: Final = ATTACKS.valid
attack_feasible: Final = ATTACKS.feasible
attack_actions: Final = ATTACKS.actions


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
    _results(static(state)).execute(state, where(state, defender), tuple(attackers), result)


# -- results (S8.4) ------------------------------------------------------------------------------


def _enters(state: State, unit: str, there: str) -> bool:
    """Whether ``unit`` may step into the adjacent hex ``there``: empty, its terrain and
    hexside passable for the unit under the card effects in force (S6.2, S6.6)."""
    data = static(state)
    if unit_at(state, there) is not None or there not in data.passable:
        return False
    game_map = data.map_with(terrain_overrides(state))
    here, mclass = data.cell(where(state, unit)), data.ground[unit].movement_class
    return game_map.cost(here, data.cell(there), mclass) is not None


def retreat_hexes(state: State, defender: str) -> list[str]:
    """S8.5: adjacent, empty, passable for the unit, not in an enemy ZOC."""
    zoc = zoc_of_side(state, enemy(static(state).ground[defender].side))
    near = static(state).neighbors[where(state, defender)]
    return [n for n in near if n not in zoc and _enters(state, defender, n)]


def may_advance(state: State, unit: str, vacated: str) -> bool:
    """S8.4: whether the attacker ``unit`` may enter the vacated hex (adjacent, S6.6)."""
    near = static(state).neighbors.get(where(state, unit), ())
    return vacated in near and _enters(state, unit, vacated)


@functools.lru_cache(maxsize=8)
def _results(data: Static) -> Combat:
    """S8.4 on the core's result program: DR retreats one hex, chosen by the attacker
    (S8.5), and without a hex the defender surrenders; a ``may_retreat`` card costs a
    loss in place; AL is chosen by the defender; EX is paid by the attacker step by step
    by printed strength, same arm first (ruling S8.4); one attacker advances, obligatory
    after DR, optional (``advance none``) after DRL, DE and EX."""
    steps = StepCounters(data.step_tracks, pieces=PIECES, table=STEPS, pool=ELIMINATED)
    forms = ResultForms(
        kinds={"aloss": "al_loss", "pay": "ex_loss", "retreat": "retreat", "advance": "advance"},
        lose="loss",
        stop=("advance", NO_ADVANCE),
        advance_cell=False,
        always_ask={"retreat"},
        attacker_loss_by="defender",
        exchange_codes={"EX"},
    )
    hooks = ResultHooks(
        retreat_cells=lambda state, _, movers: retreat_hexes(state, movers[0]),
        may_retreat=lambda state, unit: bool(state.hook("may_retreat", True, unit=unit)),
        may_advance=may_advance,
        kind_of=lambda unit: data.ground[unit].arm,
    )
    return Combat(
        PIECES, steps, data.game_map, data.crt, name="ground", forms=forms, hooks=hooks,
        retreat=RetreatRules(chooser="attacker", cannot="eliminate", forbidden="step"),
        advance=AdvanceRules(by_result={"DR": "obligatory"}),
        exchange="stepwise", exchange_lost="strength", exchange_paid="strength",
    )  # fmt: skip


def decide_combat(state: State, decision: Decision, action: Action) -> None:
    """Answers to ``retreat``, ``advance``, ``al_loss`` and ``ex_loss`` decisions."""
    assert _results(static(state)).decide(state, decision, action), decision
