"""Ground forces: movement (S6), artillery (S7) and ground attacks (S8).

Each function pair lists the legal actions of a phase and carries one out; the ruleset
(:mod:`hexwar_stalingrad.rules`) dispatches to them. Rule questions that cards may change
go through hook points (``movement_allowance``, ``combat_strength``, ``odds_shift``,
``die_modifier``, ``may_exploit``, ``may_retreat``, ``bombard_strength``).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from itertools import chain, combinations
from typing import Any, Final

import attrs

from hexwar.actions import Action, Decision, Value
from hexwar.crt import Result
from hexwar.dice import D6
from hexwar.movement import MoveSearch
from hexwar.state import State
from hexwar_stalingrad.board import (
    FULL,
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
from hexwar_stalingrad.units import EXPLOITING_ARMS

__all__ = [
    "ARTILLERY_ARMS",
    "attack_actions",
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
_ROLLS: Final = tuple((Action.of("roll", n), p) for n, p in D6.outcomes())
#: Memo entries of the movement memo (a few KB each) before it is cleared.
_CACHE_LIMIT: Final = 20_000


# -- helpers ---------------------------------------------------------------------------------


def zoc_of_side(state: State, side: str) -> set[str]:
    """Labels in the ZOC of ``side``'s ground units (S2.1)."""
    zoc_of = static(state).zoc_of
    out: set[str] = set()
    for label, _ in on_map(state, side):
        out.update(zoc_of[label])
    return out


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
    rules = state.ruleset
    if rules.static_hook("movement_allowance") is not None:
        return True
    return any("movement_allowance" in rules.effect_rules[e.kind] for e in state.effects)


def may_move_now(state: State, unit: str, side: str, exploitation: bool) -> bool:
    """Whether ``unit`` may move in this phase (S6.5 for exploitation)."""
    if state.get("moved", unit):
        return False
    if not exploitation:
        return True
    arm = static(state).ground[unit].arm
    return arm in EXPLOITING_ARMS[side] and bool(state.hook("may_exploit", True, unit=unit))


# -- movement (S6) -----------------------------------------------------------------------------


def move_actions(state: State, side: str, exploitation: bool) -> list[Action]:
    """``move UNIT HEX`` for every unit that may move and every hex it may end in (S6).

    Sorted by unit, then hex.
    """
    return list(_moves(state, side, exploitation))


def has_move_actions(state: State, side: str, exploitation: bool) -> bool:
    """Whether :func:`move_actions` is not empty."""
    return bool(_moves(state, side, exploitation))


#: A memo entry of :meth:`_Context.unit_moves`: the hexes the search read, their occupants when
#: the actions were built, the actions, the enemy units on those hexes when the search
#: ran, the hexes the unit reaches when no friend is in the way (sorted) and their
#: ``move`` actions, and the hexes read as a set.
_Entry = tuple[
    tuple[str, ...],
    tuple[Value, ...],
    tuple[Action, ...],
    tuple[Value, ...],
    tuple[str, ...],
    tuple[Action, ...],
    frozenset[str],
]
_NOTHING: Final[tuple[tuple[Action, ...], frozenset[str]]] = ((), frozenset())


@attrs.define
class _View:
    """One side's ``move`` actions in one kind of phase, and what they were built from.

    A later query diffs the ``at``, ``units`` and ``moved`` tables against the snapshot
    and rebuilds only the units a difference can touch: a unit whose own entry changed,
    or one whose actions read a hex whose occupant changed. Everything else a unit's
    actions depend on (its printed data, the effects in force) is in the snapshot too.
    """

    effects: tuple[Any, ...]
    overrides: tuple[Any, ...]
    hooked: bool
    at: dict[str, Value]
    units: dict[str, Value]
    moved: dict[str, Value]
    #: unit → (its actions, the hexes they depend on), for the side's units on the map
    per_unit: dict[str, tuple[tuple[Action, ...], frozenset[str]]]
    flat: list[Action]
    #: the version of the state last seen (:attr:`hexwar.state.State.version`)
    version: int


def _moves(state: State, side: str, exploitation: bool) -> list[Action]:
    """The side's ``move`` actions, sorted (by unit, then hex); do not mutate the list.

    Kept per ``(side, exploitation)`` on the ruleset as a :class:`_View`, brought up to
    date by diffs, so after one move only the units near the two hexes it changed are
    looked at again. A ruleset with a static ``movement_allowance`` or ``may_exploit``
    hook (which could read anything) gets a full rebuild on every query instead.
    """
    rules = state.ruleset
    at, units, moved = state.table("at"), state.table("units"), state.table("moved")
    effects = state.effects
    views: dict[tuple[str, bool], _View] = rules.__dict__.setdefault("_move_views", {})
    key = (side, exploitation)
    view = views.get(key)
    dynamic = (
        rules.static_hook("movement_allowance") is not None
        or rules.static_hook("may_exploit") is not None
    )
    if view is None or dynamic or view.effects != effects:
        overrides, hooked = terrain_overrides(state), allowance_hooked(state)
        ctx = _Context(state, side, exploitation, overrides, hooked)
        ground_info = ctx.ground_info
        mine = sorted(
            [
                (u, lab)
                for lab, u in at.items()
                if isinstance(u, str) and ground_info[u].side == side
            ]
        )
        per_unit = {u: ctx.unit_moves(u, lab) for u, lab in mine}
        flat = list(chain.from_iterable([acts for acts, _ in per_unit.values()]))
        views[key] = _View(
            effects,
            overrides,
            hooked,
            dict(at),
            dict(units),
            dict(moved),
            per_unit,
            flat,
            state.version,
        )
        return flat
    if view.version == state.version or (
        view.at == at and view.units == units and view.moved == moved
    ):
        view.version = state.version
        return view.flat
    hexes = {k for k, _ in view.at.items() ^ at.items()}
    touched = {k for k, _ in view.units.items() ^ units.items()}
    touched.update([k for k, _ in view.moved.items() ^ moved.items()])
    per_unit = view.per_unit
    for u, (_, deps) in per_unit.items():
        if not hexes.isdisjoint(deps):
            touched.add(u)
    ctx = _Context(state, side, exploitation, view.overrides, view.hooked)
    ground_info = ctx.ground_info
    reorder = False
    for u in sorted(touched):
        if ground_info[u].side != side:
            continue
        entry = units.get(u)
        lab = entry[0] if isinstance(entry, tuple) else None
        if isinstance(lab, str) and at.get(lab) == u:
            reorder = reorder or u not in per_unit
            per_unit[u] = ctx.unit_moves(u, lab)
        else:
            per_unit.pop(u, None)
    if reorder:
        view.per_unit = per_unit = {u: per_unit[u] for u in sorted(per_unit)}
    view.flat = list(chain.from_iterable([acts for acts, _ in per_unit.values()]))
    view.at, view.units, view.moved = dict(at), dict(units), dict(moved)
    view.version = state.version
    return view.flat


class _Context:
    """What one query of :func:`_moves` computes once: the memo, the effects' terrain
    overrides, whether the allowance hook is in play, the enemy units' cells."""

    def __init__(
        self,
        state: State,
        side: str,
        exploitation: bool,
        overrides: tuple[Any, ...],
        hooked: bool,
    ) -> None:
        memo = state.ruleset.__dict__
        self.cache: dict[Any, _Entry] = memo.setdefault("_reach_cache", {})
        if len(self.cache) > _CACHE_LIMIT:
            self.cache.clear()
        self.state, self.side, self.exploitation = state, side, exploitation
        self.data = data = static(state)
        self.ground_info = data.ground
        foes: frozenset[str] | None = data._cache.get(("foes", side))
        if foes is None:
            foes = frozenset(u for u, info in data.ground.items() if info.side != side)
            data._cache["foes", side] = foes
        self.foe_ids = foes
        self.at = state.table("at")
        self.overrides, self.hooked = overrides, hooked
        self._enemies: frozenset[Any] | None = None
        self._searches: dict[str, MoveSearch[Any]] = {}

    def search_region(
        self, unit: str, label: str, points: int
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The hexes ``unit`` reaches ignoring friendly units (sorted), and the hexes whose
        enemy occupants decide them (S6.2-S6.4).

        The search reads only the enemy occupants of the hexes it reaches and of their
        neighbours (entering is blocked by an enemy, a ZOC source is a neighbour, S2.1):
        the closed neighbourhood of the region. Friendly units pass and exert no ZOC, so
        with them the search is the same and they only remove their hexes from the end
        hexes. One :class:`~hexwar.movement.MoveSearch` per movement class serves every
        unit of the query.
        """
        data = self.data
        mclass = data.ground[unit].movement_class
        search = self._searches.get(mclass)
        if search is None:
            search = self._searches[mclass] = MoveSearch(
                data.map_with(self.overrides), mclass, enemies=self.enemies()
            )
        ends = search.end_indices(data.cells[label], points)
        label_at, around = data.index_labels, data.neighbor_indices
        closed = set(ends).union(*map(around.__getitem__, ends))
        region = tuple(sorted(map(label_at.__getitem__, ends)))
        return region, tuple(map(label_at.__getitem__, sorted(closed)))

    def foes_on(self, occupants: tuple[Value, ...]) -> tuple[Value, ...]:
        """The occupants with friendly units (and the empty hexes) blanked out."""
        foe_ids = self.foe_ids
        return tuple([u if u in foe_ids else None for u in occupants])

    def enemies(self) -> frozenset[Any]:
        """The enemy units' cells (built when a search first needs them)."""
        if self._enemies is None:
            cells, info, side = self.data.cells, self.ground_info, self.side
            self._enemies = frozenset(
                [
                    cells[lab]
                    for lab, u in self.at.items()
                    if isinstance(u, str) and info[u].side != side
                ]
            )
        return self._enemies

    def unit_moves(self, unit: str, label: str) -> tuple[tuple[Action, ...], frozenset[str]]:
        """``unit``'s ``move`` actions from ``label`` (sorted by hex), and the hexes whose
        occupants they depend on.

        Memoised per ``(unit, hex, allowance, terrain effects)``. Friendly units are
        passable and exert no ZOC (S6.2, S2.1), so they only decide where the unit may
        *end*: the search result (:func:`_search_region`) depends only on the enemy units
        on the hexes it read, and is reused while those stay; the actions are that region
        minus the occupied hexes, rebuilt when an occupant of those hexes changes.
        """
        state = self.state
        if not may_move_now(state, unit, self.side, self.exploitation):
            return _NOTHING
        points = allowance(state, unit, hooked=self.hooked)
        if points <= 0:
            return _NOTHING
        at_get = self.at.get
        key = (unit, label, points, self.overrides)
        entry = self.cache.get(key)
        if entry is not None:
            deps, seen, actions, foes, region, region_moves, dep_set = entry
            occupants = tuple(map(at_get, deps))
            if occupants == seen:
                return actions, dep_set
            if self.foes_on(occupants) != foes:
                entry = None
        if entry is None:
            hexes, deps = self.search_region(unit, label, points)
            region, region_moves = hexes, tuple(map(self.data.move_table(unit).__getitem__, hexes))
            occupants = tuple(map(at_get, deps))
            foes = self.foes_on(occupants)
            dep_set = frozenset(deps)
        actions = tuple(
            [a for lab, a in zip(region, region_moves, strict=True) if at_get(lab) is None]
        )
        self.cache[key] = (deps, occupants, actions, foes, region, region_moves, dep_set)
        return actions, dep_set


def play_move(state: State, action: Action) -> None:
    """Carry out ``move UNIT HEX``."""
    unit, label = action.args
    place(state, unit, label)
    state.put("moved", unit, True)


# -- artillery (S7) ----------------------------------------------------------------------------


def _ring(state: State, label: str, radius: int) -> list[str]:
    data = static(state)
    cache: dict[tuple[str, int], list[str]] = data._cache.setdefault("ring", {})
    key = (label, radius)
    if key not in cache:
        centre = data.cell(label)
        cache[key] = sorted(data.label(h) for h in centre.ring(radius) if h in data.game_map)
    return cache[key]


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


def bombard_actions(state: State, side: str) -> list[Action]:
    """``bombard ART TARGET``: an enemy unit exactly two hexes away, once per turn (S7.1)."""
    ground = static(state).ground
    out = []
    for label, unit in on_map(state, side):
        if ground[unit].arm not in ARTILLERY_ARMS or state.get("fired", unit):
            continue
        for target_hex in _ring(state, label, ARTILLERY_RANGE):
            target = unit_at(state, target_hex)
            if target is not None and ground[target].side != side:
                out.append(Action("bombard", (unit, target)))
    return out


def declare_bombard(state: State, action: Action) -> None:
    """Spend the artillery unit and roll on the bombardment table (S7.1, S7.2)."""
    unit, target = action.args
    state.put("fired", unit, True)
    state.push(Decision.chance("roll", _ROLLS, params=("bombard", unit, target)))


def bombard_result(state: State, unit: str, target: str, roll: int) -> Result:
    """The bombardment table's result for ``roll`` (modifiers from cards, S5.4)."""
    data = static(state)
    side = data.ground[unit].side
    modifier = int(state.hook("die_modifier", 0, side=side, combat="bombardment"))
    return data.bombardment.resolve(bombs(state, unit), roll=roll, modifier=modifier)


def apply_bombardment(state: State, target: str, result: Result, *, from_air: bool = False) -> int:
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


def attack_actions(state: State, side: str) -> list[Action]:
    """``attack DEFENDER A1 [A2 ...]``: every group of adjacent attackers at 1:1 or better."""
    data = static(state)
    ground = data.ground
    out = []
    for label, defender in on_map(state, enemy(side)):
        near = [
            u
            for n in data.neighbors[label]
            if (u := unit_at(state, n)) is not None
            and ground[u].side == side
            and _may_attack(state, u)
        ]
        near.sort()
        for k in range(1, len(near) + 1):
            for group in combinations(near, k):
                column, _ = attack_odds(state, defender, group)
                if column is not None:
                    out.append(Action("attack", (defender, *group)))
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
) -> Result:
    """The CRT result for ``roll`` (S8.3), with card die modifiers."""
    data = static(state)
    side = data.ground[attackers[0]].side
    modifier = int(state.hook("die_modifier", 0, side=side, combat="ground"))
    return data.crt.result_at(column, roll, shift=shift, modifier=modifier)


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
    state: State, defender: str, attackers: tuple[str, ...], result: Result
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
    choices = moves if obligatory else (Action("advance", ("none",)), *moves)
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
        if action.args[0] != "none":
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
