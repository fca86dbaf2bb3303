"""Ground forces: movement (S6), artillery (S7) and ground attacks (S8).

Each function pair lists the legal actions of a phase and carries one out; the ruleset
(:mod:`hexwar_stalingrad.rules`) dispatches to them. Rule questions that cards may change
go through hook points (``movement_allowance``, ``combat_strength``, ``odds_shift``,
``die_modifier``, ``may_exploit``, ``may_retreat``, ``bombard_strength``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Final

from hexwar.base.errors import AttackRefused
from hexwar.board.maps import COST_CACHE
from hexwar.board.move_search import CompiledSteps
from hexwar.engine.actions import Action, Decision, Value
from hexwar.engine.dice import D6
from hexwar.engine.memo import StateMemo
from hexwar.engine.state import State
from hexwar.mechanics.crt_values import CombatResult, Distribution
from hexwar_stalingrad.board import (
    FULL,
    PIECES,
    STEPS,
    enemy,
    on_map,
    place,
    remove,
    static,
    step,
    strength,
    take_loss,
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
        # points() inlined: the idle test of every movement position runs this
        state, side, exploitation = self.state, self.side, self.exploitation
        entries, moved, reduced = PIECES.entries(state), self.moved, self.reduced
        table = self._moves
        hooked, exploit_hooked, hook = self.hooked, self.exploit_hooked, state.hook
        for unit in self.data.side_ground(side):
            entry = entries.get(unit)
            if entry is None or moved.get(unit):
                continue
            _, full, red, exploits = table[unit]
            if exploitation and not (
                exploits and (not exploit_hooked or bool(hook("may_exploit", True, unit=unit)))
            ):
                continue
            base = red if reduced.get(unit) else full
            if hooked:
                base = int(hook("movement_allowance", base, unit=unit))
            if base > 0:
                yield unit, entry[0], base

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


def _bombard_targets(state: State, side: str, unit: str, label: str) -> list[str]:
    data = static(state)
    if data.ground[unit].arm not in ARTILLERY_ARMS or state.get("fired", unit):
        return []
    foes, at = data.foes(side), PIECES.occupied(state)
    out = []
    for h in data.ring(label, ARTILLERY_RANGE):
        stack = at.get(h)
        if stack and stack[0] in foes:
            out.append(stack[0])
    out.sort()
    return out


def bombard_actions(state: State, side: str) -> list[Action]:
    """``bombard ART TARGET``: an enemy unit exactly two hexes away, once per turn (S7.1)."""
    return [
        Action("bombard", (unit, target))
        for label, unit in on_map(state, side)
        for target in _bombard_targets(state, side, unit, label)
    ]


def bombard_units(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The side's unspent artillery with an enemy unit two hexes away (S7.1), sorted."""
    return [u for lab, u in on_map(state, side) if _bombard_targets(state, side, u, lab)]


def bombard_targets(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    """The enemy units the artillery unit ``args[0]`` may bombard (S7.1), sorted."""
    info = static(state).ground.get(args[0])
    if info is None or info.side != side:
        return []
    label = where(state, args[0])
    if unit_at(state, label) != args[0]:
        return []
    return _bombard_targets(state, side, args[0], label)


def declare_bombard(state: State, action: Action) -> None:
    """Spend the artillery unit and roll on the bombardment table (S7.1, S7.2)."""
    unit, target = action.args
    state.put("fired", unit, True)
    state.push(Decision.chance("roll", _ROLLS, params=("bombard", unit, target)))


def bombard_result(state: State, unit: str, target: str, roll: int) -> CombatResult:
    """The bombardment table's result for ``roll`` (modifiers from cards, S5.4)."""
    data = static(state)
    side = data.ground[unit].side
    modifier = int(state.hook("die_modifier", 0, side=side, combat="bombardment"))
    return data.bombardment.resolve(bombs(state, unit), roll=roll, modifier=modifier)


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
    losses = 0
    for _ in range(result.defender_steps):
        losses += 1
        if take_loss(state, target):
            break
    return losses


# -- ground attacks (S8) -----------------------------------------------------------------------


def _may_attack(state: State, unit: str) -> bool:
    return static(state).ground[unit].arm not in ARTILLERY_ARMS and not state.get("attacked", unit)


def attack_strength(state: State, attackers: Iterable[str]) -> int:
    """Sum of the attackers' strengths (S8.2), after card effects."""
    return sum(
        int(state.hook("combat_strength", strength(state, u), unit=u, role="attack"))
        for u in attackers
    )


def defence_strength(state: State, defender: str) -> int:
    """Defender's strength plus covering artillery adjacent to it (S7.3)."""
    data = static(state)
    side = data.ground[defender].side
    total = int(
        state.hook("combat_strength", strength(state, defender), unit=defender, role="defend")
    )
    for n in data.neighbors[where(state, defender)]:
        u = unit_at(state, n)
        info = None if u is None or u == defender else data.ground[u]
        if info is not None and info.side == side and info.arm in ARTILLERY_ARMS:
            assert u is not None
            total += int(state.hook("combat_strength", strength(state, u), unit=u, role="cover"))
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


def _attackers(state: State, side: str, label: str) -> list[str]:
    """The side's units next to ``label`` that may attack (S8.1, S7.4), sorted."""
    data = static(state)
    ground, at = data.ground, PIECES.occupied(state)
    out = []
    for n in data.neighbors[label]:
        stack = at.get(n)
        if stack and ground[stack[0]].side == side and _may_attack(state, stack[0]):
            out.append(stack[0])
    out.sort()
    return out


class _Group:
    """The attack on one defender (S8.1, S8.2, S7.4): its eligible attackers (sorted),
    their strengths and the strength that reaches 1:1 (``need``; ``None`` when any
    attacker will do: artillery in close combat, S7.4)."""

    def __init__(self, state: State, side: str, defender: str, label: str) -> None:
        data = static(state)
        self.attackers = _attackers(state, side, label)
        self.need: int | None = None
        self.strength = dict.fromkeys(self.attackers, 0)
        if self.attackers and data.ground[defender].arm not in ARTILLERY_ARMS:
            hook = state.hook
            for u in self.attackers:
                self.strength[u] = int(
                    hook("combat_strength", strength(state, u), unit=u, role="attack")
                )
            # strengths are integers: reaching the 1:1 ratio is reaching its ceiling
            self.need = math.ceil(data.crt.threshold * max(defence_strength(state, defender), 1))
        #: per attacker: its strength plus every later attacker's positive strength
        self.best: dict[str, int] = {}
        after = 0
        for u in reversed(self.attackers):
            self.best[u] = self.strength[u] + after
            after += max(0, self.strength[u])

    def legal(self, group: tuple[str, ...]) -> bool:
        """Whether ``group`` (eligible attackers) attacks at 1:1 or better (S8.2)."""
        return bool(group) and (
            self.need is None or sum(map(self.strength.__getitem__, group)) >= self.need
        )

    def feasible(self, group: tuple[str, ...]) -> bool:
        """Whether some legal group is ``group`` plus later attackers: the strongest such
        group adds every later attacker of positive strength (monotone)."""
        if self.need is None:
            return True
        strengths = self.strength
        return sum(map(strengths.__getitem__, group[:-1])) + self.best[group[-1]] >= self.need


def _group(state: State, side: str, defender: str) -> _Group | None:
    """The attack on ``defender`` by ``side`` now, or ``None`` if it is not an enemy
    unit on the map (kept for the position: :meth:`hexwar.engine.state.State.derive`)."""

    def build() -> _Group | None:
        info = static(state).ground.get(defender)
        if info is None or info.side == side:
            return None
        label = where(state, defender)
        if unit_at(state, label) != defender:
            return None
        return _Group(state, side, defender, label)

    return state.derive(("stalingrad-attack", side, defender), build)


def _open(state: State, side: str, defender: str) -> bool:
    group = _group(state, side, defender)
    return group is not None and any(group.feasible((u,)) for u in group.attackers)


def _targets(state: State, side: str) -> tuple[str, ...]:
    """The enemy units next to one of the side's units, sorted (memoised on ``stacks``)."""
    return _TARGETS(state, side)


def _find_targets(state: State, side: str) -> tuple[str, ...]:
    data = static(state)
    at, neighbors, foes = PIECES.occupied(state), data.neighbors, data.foes(side)
    found = set()
    for label, _ in on_map(state, side):
        for n in neighbors[label]:
            stack = at.get(n)
            if stack and stack[0] in foes:
                found.add(stack[0])
    return tuple(sorted(found))


#: Reads only ``stacks`` and the static data; at most 256 entries.
_TARGETS: Final = StateMemo(reads=(PIECES.stacks,), compute=_find_targets, size=256)


def attack_defenders(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The enemy units some group of the side's units can attack at 1:1 or better (S8.1,
    S8.2; any adjacent attacker for artillery, S7.4), sorted."""
    return [d for d in _targets(state, side) if _open(state, side, d)]


def has_attack(state: State, side: str) -> bool:
    """Whether ``side`` has at least one legal ``attack`` (stops at the first, S4)."""
    return any(_open(state, side, d) for d in _targets(state, side))


def attackers(state: State, side: str, fixed: tuple[str, ...]) -> list[str]:
    """The units that may attack the defender ``fixed[0]`` (adjacent, not artillery, not
    yet attacked this turn: S8.1, S7.4), sorted."""
    group = _group(state, side, fixed[0])
    return [] if group is None else group.attackers


def attack_valid(state: State, side: str, fixed: tuple[str, ...], chosen: tuple[str, ...]) -> bool:
    """Whether ``chosen`` attacks ``fixed[0]`` at 1:1 or better (S8.2)."""
    group = _group(state, side, fixed[0])
    return group is not None and group.legal(chosen)


def attack_feasible(
    state: State, side: str, fixed: tuple[str, ...], chosen: tuple[str, ...]
) -> bool:
    """Whether ``chosen`` plus later attackers can reach 1:1 (monotone, S8.2)."""
    group = _group(state, side, fixed[0])
    return group is not None and group.feasible(chosen)


def attack_actions(state: State, side: str) -> list[Action]:
    """``attack DEFENDER A1 [A2 ...]``: every group of adjacent attackers at 1:1 or better."""
    out = []
    for label, defender in on_map(state, enemy(side)):
        group = _Group(state, side, defender, label)
        near = group.attackers
        for k in range(1, len(near) + 1):
            for attackers in combinations(near, k):
                if group.legal(attackers):
                    out.append(Action("attack", (defender, *attackers)))
    return out


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


def attack_result(
    state: State, defender: str, column: str, shift: int, attackers: tuple[str, ...], roll: int
) -> CombatResult:
    """The CRT result for ``roll`` (S8.3), with card die modifiers."""
    data = static(state)
    side = data.ground[attackers[0]].side
    modifier = int(state.hook("die_modifier", 0, side=side, combat="ground"))
    return data.crt.result_at(column, roll, shift=shift, modifier=modifier)


def attack_distribution(state: State, defender: str, attackers: Sequence[str]) -> Distribution:
    """The exact distribution of the CRT results of an attack now (S8.2, S8.3, S7.4): its
    column, the card odds shifts and die modifiers (S5.4); refused below 1:1."""
    attackers = tuple(attackers)
    column, shift = attack_odds(state, defender, attackers)
    if column is None:
        raise AttackRefused(f"attack on {defender}: odds below 1:1", rule="S8.2")
    data = static(state)
    side = data.ground[attackers[0]].side
    modifier = int(state.hook("die_modifier", 0, side=side, combat="ground"))
    return data.crt.distribution_at(column, shift=shift, modifier=modifier)


def resolve(state: State, decision: Decision, action: Action) -> None:
    """Carry out a die roll for an attack or a bombardment."""
    kind = decision.params[0]
    roll = action.int_arg(0)
    if kind == "bombard":
        _, unit, target = decision.params
        assert isinstance(unit, str)
        assert isinstance(target, str)
        apply_bombardment(state, target, bombard_result(state, unit, target, roll))
        return
    _, defender, column, shift, *rest = decision.params
    assert isinstance(defender, str)
    assert isinstance(column, str)
    assert isinstance(shift, int)
    attackers = tuple(str(a) for a in rest)
    result = attack_result(state, defender, column, shift, attackers, roll)
    apply_attack_result(state, defender, attackers, result)


# -- results (S8.4) ------------------------------------------------------------------------------


def ask(state: State, decision: Decision) -> None:
    """Push an out-of-turn decision, or take its only choice at once."""
    if len(decision.choices) == 1:
        state.ruleset.decide(state, decision, decision.choices[0])
    else:
        state.push(decision)


def apply_attack_result(
    state: State, defender: str, attackers: tuple[str, ...], result: CombatResult
) -> None:
    """S8.4: NE, DR, DRL, AL, DE, EX."""
    code = result.code
    origin = where(state, defender)
    if code == "NE":
        return
    if code == "DE" or result.eliminated:
        remove(state, defender)
        offer_advance(state, origin, attackers)
        return
    if code == "AL":
        live = tuple(a for a in attackers if where(state, a) in static(state).neighbors)
        choices = tuple(Action("loss", (a,)) for a in live)
        ask(
            state,
            Decision("al_loss", static(state).ground[defender].side, attackers, choices=choices),
        )
        return
    if code == "EX":
        owed = loss_strength(state, defender)
        destroyed = take_loss(state, defender)
        arm = static(state).ground[defender].arm
        ask_ex_loss(state, origin if destroyed else "", arm, owed, attackers)
        return
    # DR / DRL
    for _ in range(result.defender_steps):
        if take_loss(state, defender):
            offer_advance(state, origin, attackers, obligatory=code == "DR")
            return
    if result.retreat:
        retreat(state, defender, attackers, code)


def loss_strength(state: State, unit: str) -> int:
    """Ruling S8.4 (EX): the printed strength one loss takes away from ``unit`` now —
    full − reduced for a flip, the remaining (reduced) strength for a removal."""
    printed = static(state).ground[unit].strength
    return printed.full - printed.reduced if step(state, unit) == FULL else printed.reduced


def ask_ex_loss(
    state: State, vacated: str, arm: str, owed: int, attackers: tuple[str, ...]
) -> None:
    """Ruling S8.4 (EX): ask the attacker for its next step loss (``ex_loss``).

    ``owed`` is the strength still to lose (the defender's loss minus what the attacker
    lost so far). The choices are the surviving attackers of the defender's ``arm`` (same
    type first), else every surviving attacker; one choice is taken at once. When every
    attacker is gone the exchange ends; then (defender destroyed) the optional advance.
    """
    data = static(state)
    live = sorted(a for a in attackers if where(state, a) in data.neighbors)
    if not live:
        if vacated:
            offer_advance(state, vacated, attackers)
        return
    pool = [a for a in live if data.ground[a].arm == arm] or live
    side = data.ground[attackers[0]].side
    choices = tuple(Action("loss", (a,)) for a in pool)
    ask(state, Decision("ex_loss", side, (vacated, arm, owed, *attackers), choices=choices))


def retreat_hexes(state: State, defender: str) -> list[str]:
    """S8.5: adjacent, empty, passable for the unit, not in an enemy ZOC."""
    data = static(state)
    here = where(state, defender)
    info = data.ground[defender]
    game_map = data.map_with(terrain_overrides(state))
    zoc = zoc_of_side(state, enemy(info.side))
    out = []
    for n in data.neighbors[here]:
        if n in zoc or unit_at(state, n) is not None or n not in data.passable:
            continue
        if game_map.cost(data.cell(here), data.cell(n), info.movement_class) is None:
            continue
        out.append(n)
    return out


def retreat(state: State, defender: str, attackers: tuple[str, ...], code: str = "DR") -> None:
    """The attacker picks the retreat hex (S8.5); no hex: the defender surrenders (S8.4).

    A card may forbid retreat (``may_retreat`` hook): the defender takes a loss in place.
    ``code`` (``DR`` or ``DRL``) decides whether the advance is obligatory
    (:func:`offer_advance`).
    """
    origin = where(state, defender)
    obligatory = code == "DR"
    if not state.hook("may_retreat", True, unit=defender):
        if take_loss(state, defender):
            offer_advance(state, origin, attackers, obligatory=obligatory)
        return
    hexes = retreat_hexes(state, defender)
    if not hexes:
        remove(state, defender)  # surrender
        offer_advance(state, origin, attackers, obligatory=obligatory)
        return
    side = static(state).ground[attackers[0]].side
    choices = tuple(Action("retreat", (h,)) for h in hexes)
    state.push(Decision("retreat", side, (defender, *attackers, code), choices=choices))


def advancers(state: State, vacated: str, attackers: tuple[str, ...]) -> list[str]:
    """The attackers that may legally enter ``vacated`` (S8.4): on the map, adjacent to it,
    and able to cross into it (its terrain and hexside passable for the unit, S6.6)."""
    data = static(state)
    if unit_at(state, vacated) is not None or vacated not in data.passable:
        return []
    game_map = data.map_with(terrain_overrides(state))
    target = data.cell(vacated)
    out = []
    for a in sorted(attackers):
        here = where(state, a)
        if here not in data.neighbors or vacated not in data.neighbors[here]:
            continue
        if game_map.cost(data.cell(here), target, data.ground[a].movement_class) is None:
            continue
        out.append(a)
    return out


def offer_advance(
    state: State, vacated: str, attackers: tuple[str, ...], *, obligatory: bool = False
) -> None:
    """One attacker occupies the vacated hex, the attacker choosing which (S8.4).

    Obligatory after a **DR** — a retreat or a surrender, or a loss in place under a
    no-retreat card: the source's DR text says the vacated hex «тут же занимается одной из
    фишек атакующего по его выбору»; there is no advance only when no attacker may legally
    enter (:func:`advancers`), and a single candidate advances at once. After **DRL**,
    **DE** and an **EX** that destroys the defender the source names no advance; ours is
    optional there (``advance none``).
    """
    live = advancers(state, vacated, attackers)
    if not live:
        return
    side = static(state).ground[live[0]].side
    moves = tuple(Action("advance", (a,)) for a in live)
    choices = moves if obligatory else (Action("advance", (NO_ADVANCE,)), *moves)
    ask(state, Decision("advance", side, (vacated, *attackers), choices=choices))


def decide_combat(state: State, decision: Decision, action: Action) -> None:
    """Answers to ``retreat``, ``advance``, ``al_loss`` and ``ex_loss`` decisions."""
    kind = decision.kind
    if kind == "retreat":
        defender, *rest, code = (str(p) for p in decision.params)
        origin = where(state, defender)
        place(state, defender, action.args[0])
        offer_advance(state, origin, tuple(rest), obligatory=code == "DR")
    elif kind == "advance":
        vacated = str(decision.params[0])
        if action.args[0] != NO_ADVANCE:
            place(state, action.args[0], vacated)
    elif kind == "al_loss":
        take_loss(state, action.args[0])
    elif kind == "ex_loss":
        hole, arm, due, *others = decision.params
        assert isinstance(due, int)
        unit = action.args[0]
        due -= loss_strength(state, unit)
        take_loss(state, unit)
        attackers = tuple(str(a) for a in others)
        if due > 0:  # ruling S8.4: not enough yet, another step
            ask_ex_loss(state, str(hole), str(arm), due, attackers)
        elif hole:
            offer_advance(state, str(hole), attackers)
    else:  # pragma: no cover - the ruleset dispatches only these
        raise AssertionError(decision)
