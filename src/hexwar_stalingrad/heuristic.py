"""A heuristic bot for «Сталинград»: simple, explainable, deterministic given its seed.

What it does, phase by phase:

- cards (S5): plays a card in the phase where its effect counts (a movement bonus in
  movement, an odds shift in the attack phase, air strength in air combat, a bombardment
  die modifier in the artillery phase, the rest at once in its card phase);
- replacements (S4.1): restores the strongest reduced unit, else rebuilds the strongest
  destroyed unit at full strength, else at reduced strength;
- air (S10): bombers onto the strongest non-tank enemy units (reduced ones first: one loss
  destroys them), fighters next to enemy bombers; attacks at the best odds, 2:1 or better;
- the ring (S11.1): once per RKKA movement/exploitation phase, :func:`ring_plan` runs a
  max-flow query on :func:`hexwar_stalingrad.victory.encircled`'s graph (passable hexes
  minus RKKA units and ZOC) from the 6th Army units in the Stalingrad area (ruling S11.1)
  to the supply sources (and, in the long game, to Manstein's relief group): the minimum
  cut nearest the 6th Army (the tightest ring; the cut nearest the supply sources runs
  along the Don bend, and the 6th Army's armour keeps pushing it west) gives the *gaps*
  still to block, the pocket behind it and the *wall* of ring hexes already held; once
  the ring is closed, the gaps are its thin spots (a ZOC hex of the wall next to an open
  outside hex, which a 6th Army unit could step into and trace a path out from, S6.3);
- the screen (S11.2, long game): the relief group's units (from turn 5: their start
  hexes, S4.2) are cut off by a second minimum cut, nearest them, from the hexes next to
  the 6th Army and its pocket; those hexes join the gaps;
- the counter-attack (S11.2, long game): once the relief group is on the map, RKKA units
  neither needed on the ring or screen nor bound for the city head for the nearest relief
  unit, and RKKA attacks relief units at any odds (``RELIEF_BONUS``), before others;
- sparing the 6th Army (S4.1, S11.2): in the long game, before the last turn, RKKA
  neither attacks, bombards nor bombs 6th Army units, since a destroyed one is rebuilt on
  a Wehrmacht truck hex (Tormosin, Kotelnikovo, ...) and S11.2 counts any 6th Army unit
  next to the relief; in the short game it does (S11.1 counts only the Stalingrad area,
  which the rebuilt unit leaves); on the long game's last turn it attacks either unit of a
  6th Army-relief contact at any odds;
- movement and exploitation (S6): RKKA units score a move by gaps newly blocked (its hex
  and ZOC) minus ring hexes it alone held and would give up (the last unit in the city
  stays), then by progress toward an objective: a hex that covers open gaps (greedy set
  cover, matched to free units by turns to arrive; armour and cavalry arrive first), else
  (long game, relief on the map) the nearest relief unit, else the nearest gap, else the
  6th Army; one unit goes to the city if none is there.
  Wehrmacht: the relief group heads for the 6th Army (S11.2), the 6th Army for the relief
  once it is on the map, and before that the 6th Army's armour for the gaps (keeping a
  corridor open); artillery of both sides: range 2 of an enemy (S7.1);
- artillery (S7): bombards the best target (reduced, not tanks, not fortified);
- ground attacks (S8): the best odds available, 2:1 or better, or worse odds whose
  expected step-loss balance (:class:`hexwar.crt.Distribution`) favours the attacker (any
  odds on artillery, S7.4), with the fewest attackers; RKKA attacks 6th Army units on or
  next to a gap at any odds, and prefers them;
- decisions: the strongest attacker advances (RKKA: only a unit that keeps the ring held,
  else none); the weakest takes an attacker's loss; the defender (AL) hits a reduced
  attacker first; a retreating 6th Army unit is pushed away from its supply sources, any
  other unit away from its goal.

Ties are broken by a :class:`hexwar.dice.SeededDriver`, so a seed fixes every choice.

>>> from hexwar_stalingrad.rules import StalingradRules
>>> bots = {s: HeuristicBot(seed=1) for s in ("rkka", "wehrmacht")}
>>> state = play(StalingradRules(length="short"), bots, seed=1)
>>> state.is_terminal(), state.turn
(True, 5)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from typing import Final

import attrs

from hexwar.actions import END, Action, Value
from hexwar.crt import Distribution
from hexwar.dice import SeededDriver
from hexwar.play import Player
from hexwar.play import play as run
from hexwar.state import Ruleset, State
from hexwar_stalingrad import air, ground, reinforce
from hexwar_stalingrad.board import (
    FULL,
    POOL,
    REDUCED,
    enemy,
    on_map,
    static,
    step,
    strength,
    where,
)
from hexwar_stalingrad.static import Static
from hexwar_stalingrad.victory import RELIEF, SIXTH_ARMY, SUPPLY_TAG

__all__ = [
    "ATTACK_THRESHOLD",
    "HeuristicBot",
    "RingPlan",
    "min_vertex_cut",
    "objectives",
    "play",
    "ring_plan",
    "ring_targets",
]

#: The lowest odds column the bot attacks at (ground S8.2, air S10.5), as an index: 2:1.
ATTACK_THRESHOLD: Final = 1
_MOBILE: Final = frozenset({"tank", "mechanized", "cavalry"})
SIXTH: Final = SIXTH_ARMY
SUPPLY: Final = SUPPLY_TAG
#: Score of one ring gap blocked (or one ring hex given up) by a move, against the one
#: hex of progress toward a unit's objective (S11.1).
RING_WEIGHT: Final = 10
#: Ring hexes' worth of the last RKKA unit in Stalingrad (S11.1: it must stay there).
CITY_WEIGHT: Final = 5
#: Attack score bonus of a relief-group unit for RKKA in the long game (S11.2): it is
#: attacked at any odds, and before other targets at equal odds.
RELIEF_BONUS: Final = 1.0
#: Most disjoint escape paths the ring query follows before giving up (it never nears it).
FLOW_LIMIT: Final = 400
#: Where a card's effect kind counts (S5.4): the phase to play it in (else its card phase).
_CARD_PHASE: Final = {
    "movement_bonus": "movement",
    "odds_shift": "attack",
    "air_strength": "combat",
    "die_modifier": "artillery",
}


class HeuristicBot:
    """A bot: ``bot(state) -> Action`` for the side to act (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self._driver = SeededDriver(seed)
        self._plan_key: object = None
        self._plan_value: RingPlan | None = None

    def _pick(self, scored: Sequence[tuple[float, Action]]) -> Action:
        best = max(s for s, _ in scored)
        top = sorted(a for s, a in scored if s == best)
        if len(top) == 1:
            return top[0]
        return self._driver.pick([(a, Fraction(1, len(top))) for a in top])

    def __call__(self, state: State) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        side = state.current_player()
        if state.pending:
            return self._decide(state, side, actions)
        card = self._card(state, side, actions)
        if card is not None:
            return card
        kinds = {a.kind for a in actions}
        if "move" in kinds:
            return self._move(state, side, actions)
        if "bombard" in kinds:
            targets = [
                (_bombard_score(state, a), a)
                for a in actions
                if a.kind == "bombard" and not self._spare(state, a.args[1])
            ]
            return self._pick(targets) if targets else END
        if "attack" in kinds:
            return self._best_attack(state, actions, "attack")
        if "intercept" in kinds:
            return self._best_attack(state, actions, "intercept")
        if kinds & {"restore", "rebuild"}:
            return self._replace(state, actions)
        return END

    # -- cards (S5) ----------------------------------------------------------------------------

    def _card(self, state: State, side: str, actions: list[Action]) -> Action | None:
        data = static(state)
        phase = str(state.phase)
        for a in actions:
            if a.kind != "play":
                continue
            kinds = [e.kind for e in data.cards[a.args[0]].effects]
            wanted = _CARD_PHASE.get(kinds[0]) if kinds else None
            if wanted is None and state.stage == "cards":
                return a
            if wanted is not None and phase.startswith(wanted):
                return a
        return None

    # -- replacements (S4.1) -------------------------------------------------------------------

    def _replace(self, state: State, actions: list[Action]) -> Action:
        data = static(state)

        def value(unit: str) -> int:
            if unit in data.ground:
                return data.ground[unit].strength.full
            return data.air[unit].strength.full

        scored = []
        for a in actions:
            if a.kind == "restore":
                scored.append((1000 + value(a.args[0]), a))
            elif a.kind == "rebuild":
                scored.append(((500 if a.args[2] == FULL else 0) + value(a.args[0]), a))
        return self._pick(scored) if scored else END

    # -- movement (S6) -------------------------------------------------------------------------

    def _plan(self, state: State) -> RingPlan | None:
        """The ring plan of this phase (computed once per phase: S11.1 max-flow query)."""
        key = (state.turn, str(state.stage), str(state.phase), tuple(_group(state, SIXTH)))
        if self._plan_key != key:
            self._plan_key, self._plan_value = key, ring_plan(state)
        return self._plan_value

    def _ring_turn(self, state: State) -> RingPlan | None:
        """This turn's last ring plan, if any (decisions reuse it rather than recompute)."""
        key = self._plan_key
        if isinstance(key, tuple) and key[0] == state.turn:
            return self._plan_value
        return None

    def _advance_in_ring(self, state: State, actions: list[Action]) -> Action:
        """RKKA advance after combat (S8.4): never with a unit that opens the ring."""
        plan = self._ring_turn(state)
        assert plan is not None
        vacated = str(state.pending[-1].params[0])
        mine = on_map(state, "rkka")
        ring = _RingMoves(state, plan, mine)
        scored: list[tuple[float, Action]] = [(0.0, END if END in actions else actions[0])]
        for a in actions:
            unit = a.args[0]
            if unit == "none":
                scored[0] = (0.0, a)
                continue
            new, lost = ring.change(unit, where(state, unit), vacated)
            if lost == 0:
                scored.append((1 + RING_WEIGHT * new + 0.01 * _power(state, unit), a))
        return self._pick(scored)

    def _move(self, state: State, side: str, actions: list[Action]) -> Action:
        data = static(state)
        plan = self._plan(state)
        goals = objectives(state, side, plan)
        enemies = [lab for lab, _ in on_map(state, enemy(side))]
        mine = on_map(state, side)
        here = {u: lab for lab, u in mine}
        dist = data.distance
        ring = _RingMoves(state, plan, mine) if side == "rkka" and plan is not None else None
        scored: list[tuple[float, Action]] = []
        for a in actions:
            if a.kind != "move":
                continue
            unit, target = a.args
            origin = here[unit]
            if data.ground[unit].arm in ground.ARTILLERY_ARMS:
                gain = _range_gain(data, origin, target, enemies)
                if ring is not None and ring.change(unit, origin, target)[1]:
                    continue  # artillery holding the ring stays (S11.1)
            else:
                goal = goals.get(unit)
                gain = 0.0 if goal is None else dist(origin, goal) - dist(target, goal)
                if ring is not None:
                    new, lost = ring.change(unit, origin, target)
                    gain = RING_WEIGHT * (new - lost) + (gain if lost == 0 else 0)
            if gain > 0:
                scored.append((gain - 0.01 * dist(origin, target), a))
        return self._pick(scored) if scored else END

    # -- attacks (S8, S10.5) -------------------------------------------------------------------

    def _best_attack(self, state: State, actions: list[Action], kind: str) -> Action:
        data = static(state)
        scored: list[tuple[float, Action]] = []
        for a in actions:
            if a.kind != kind:
                continue
            defender, *attackers = a.args
            if kind == "attack" and self._spare(state, defender):
                continue
            if kind == "attack":
                column, shift = ground.attack_odds(state, defender, attackers)
                labels = data.crt.labels
                helpless = data.ground[defender].arm in ground.ARTILLERY_ARMS
            else:
                bonus = 0.0
                column = air.air_odds(state, defender, attackers)[2]
                shift, labels, helpless = 0, air.air_table(state).labels, False
            if column is None:
                continue
            index = min(max(labels.index(column) + shift, 0), len(labels) - 1)
            balance = 0.0
            if kind == "attack":
                dist = data.crt.distribution_at(labels[index])
                balance = float(_step_balance(state, defender, dist))
                bonus = self._ring_bonus(state, defender)
                if index < ATTACK_THRESHOLD and balance <= 0 and not helpless and not bonus:
                    continue
            elif index < ATTACK_THRESHOLD:
                continue
            reduced_bonus = 0.5 if kind == "attack" and step(state, defender) == REDUCED else 0
            bonus = bonus if kind == "attack" else 0.0
            scored.append((index + reduced_bonus + balance + bonus - 0.1 * len(attackers), a))
        return self._pick(scored) if scored else END

    def _spare(self, state: State, defender: str) -> bool:
        """RKKA leaves the 6th Army alone before the last turn (S11): a destroyed 6th Army
        unit comes back on a Wehrmacht truck hex (S4.1), outside the ring."""
        if state.current_player() != "rkka" or _last_turn(state) or _short(state):
            return False
        return SIXTH in static(state).ground[defender].groups

    def _ring_bonus(self, state: State, defender: str) -> float:
        """RKKA: a 6th Army unit on or next to a gap of the ring is worth hitting (S11.1);
        on the long game's last turn, so is either unit of a 6th Army-relief contact
        (S11.2), at any odds."""
        plan = self._ring_turn(state)
        data = static(state)
        groups = data.ground[defender].groups
        if state.current_player() == "rkka" and _last_turn(state) and not _short(state):
            other = RELIEF if SIXTH in groups else SIXTH if RELIEF in groups else None
            if other and set(data.neighbors[where(state, defender)]) & set(_group(state, other)):
                return 2.0
        if state.current_player() == "rkka" and RELIEF in groups:
            return RELIEF_BONUS
        if plan is None or SIXTH not in groups:
            return 0.0
        return 1.0 if _disk(data, where(state, defender)) & plan.gaps else 0.0

    # -- decisions -----------------------------------------------------------------------------

    def _decide(self, state: State, side: str, actions: list[Action]) -> Action:
        kind = state.pending[-1].kind
        data = static(state)
        if kind == "air_place":
            return self._place(state, side, actions)
        if kind == "advance" and side == "rkka" and self._ring_turn(state) is not None:
            return self._advance_in_ring(state, actions)
        if kind in ("advance", "air_advance"):
            units = [a for a in actions if a.args[0] != "none"]
            return self._pick([(_power(state, a.args[0]), a) for a in units]) if units else END
        if kind in ("ex_loss", "air_loss"):
            return self._pick([(-_power(state, a.args[0]), a) for a in actions])
        if kind == "al_loss":  # the defender chooses the attacker that loses
            return self._pick(
                [
                    ((step(state, a.args[0]) == REDUCED) * 100 + _power(state, a.args[0]), a)
                    for a in actions
                ]
            )
        if kind == "retreat":  # the attacker pushes the defender away from its goals
            defender = str(state.pending[-1].params[0])
            supply = data.tagged(SUPPLY)
            if SIXTH in data.ground[defender].groups and supply:  # deeper into the pocket
                return self._pick(
                    [(min(data.distance(a.args[0], t) for t in supply), a) for a in actions]
                )
            goal = objectives(state, data.ground[defender].side).get(defender)
            if goal is not None:
                return self._pick([(data.distance(a.args[0], goal), a) for a in actions])
        return self._pick([(0, a) for a in actions])

    def _place(self, state: State, side: str, actions: list[Action]) -> Action:
        data = static(state)
        flies = [a for a in actions if a.kind == "fly"]
        if not flies:
            return END
        role = str(state.pending[-1].params[0])
        scored: list[tuple[float, Action]] = []
        if role == air.BOMBER:
            for a in flies:
                target = state.get("at", a.args[1])
                assert isinstance(target, str)
                info = data.ground[target]
                if self._spare(state, target):
                    continue
                value = strength(state, target) + (10 if step(state, target) == REDUCED else 0)
                scored.append((-100 if info.arm == "tank" else value, a))
        else:
            enemy_bombers = [
                h for u in air.aloft(state, enemy(side), air.BOMBER) if (h := air.sky_hex(state, u))
            ]
            taken = {h for u in air.aloft(state, side) if (h := air.sky_hex(state, u))}
            for a in flies:
                near = sum(1 for h in enemy_bombers if data.distance(h, a.args[1]) == 1)
                if near:
                    scored.append((near - (a.args[1] in taken), a))
        return self._pick(scored) if scored and max(s for s, _ in scored) > 0 else END


def _last_turn(state: State) -> bool:
    """Whether this is the game's last turn (S3.4): nothing destroyed now comes back."""
    limit = state.ruleset.sequence.turn_limit
    return limit is not None and state.turn >= limit


def _short(state: State) -> bool:
    """The short game (S3.4, S11.1): only 6th Army units in the Stalingrad area count, so
    a destroyed one, rebuilt on a truck hex outside it (S4.1), no longer matters."""
    return getattr(state.ruleset, "length", None) == "short"


def _step_balance(state: State, defender: str, dist: Distribution) -> Fraction:
    """Expected defender step losses minus attacker step losses of an attack (S8.4, S9.1).

    Destroying a defender counts both its steps; a reduced defender has one to lose.
    """
    left = 2 if step(state, defender) == FULL else 1
    return dist.expect(lambda r: left if r.eliminated else min(r.defender_steps, left)) - (
        dist.expected_attacker_steps
    )


def _power(state: State, unit: str) -> int:
    if unit in static(state).ground:
        return strength(state, unit)
    return air.air_strength(state, unit)


def _bombard_score(state: State, action: Action) -> float:
    data = static(state)
    target = action.args[1]
    info = data.ground[target]
    score = float(strength(state, target))
    if step(state, target) == REDUCED:
        score += 10
    if info.arm == "tank" or where(state, target) in data.fortified:
        score -= 20
    return score


def _range_gain(data: Static, here: str, there: str, enemies: list[str]) -> float:
    """Artillery: get to exactly two hexes from an enemy (S7.1), never next to one."""

    def badness(label: str) -> int:
        if not enemies:
            return 0
        nearest = min(data.distance(label, e) for e in enemies)
        return 10 if nearest <= 1 else abs(nearest - 2)

    return badness(here) - badness(there)


def _group(state: State, group: str) -> list[str]:
    """Sorted labels of the Wehrmacht ground units of ``group`` on the map."""
    ground_units = static(state).ground
    return sorted(lab for lab, u in on_map(state, "wehrmacht") if group in ground_units[u].groups)


def _disk(data: Static, label: str) -> frozenset[str]:
    """The hexes a ground unit on ``label`` blocks for the ring: its hex and its ZOC (S2.1)."""
    return data.zoc_closure(label)


@attrs.frozen
class RingPlan:
    """Where the ring around the 6th Army is open (S11.1), from one max-flow query.

    ``gaps``: a minimum set of hexes that RKKA units must still block (occupy or hold in
    ZOC) so that no 6th Army unit in the Stalingrad area can trace a path to a supply
    source (or, in the long game, to Manstein's relief group, S11.2) — the cut nearest
    the 6th Army, so the ring hugs the pocket rather than chasing the 6th Army's armour
    along the Don — plus, in the long game, the relief's screen (:func:`ring_plan`);
    ``pocket``: the open hexes on the 6th Army's side of that cut; ``wall``: the blocked
    hexes next to the pocket (the ring already held).
    """

    gaps: frozenset[str]
    pocket: frozenset[str]
    wall: frozenset[str]


def ring_plan(state: State) -> RingPlan | None:
    """The :class:`RingPlan` of the position, or ``None`` if no 6th Army unit is on the map.

    The graph is :func:`hexwar_stalingrad.victory.encircled`'s: passable hexes minus RKKA
    units and RKKA ZOC, plus the 6th Army's own hexes (sources, never cut).
    """
    data = static(state)
    sixth = set(_group(state, SIXTH)) & data.stalingrad_area
    if not sixth:
        return None
    blocked = {lab for lab, _ in on_map(state, "rkka")} | ground.zoc_of_side(state, "rkka")
    open_cells = (data.passable - blocked) | sixth
    sinks = (set(data.tagged(SUPPLY)) | set(_group(state, RELIEF))) & open_cells
    found = min_vertex_cut(data.neighbors, open_cells, sixth, sinks, near_sources=True)
    if found is None:
        return None
    gaps, outside = found
    pocket = frozenset(open_cells - outside - gaps)
    wall = (
        frozenset(n for lab in pocket for n in data.neighbors[lab] if n not in open_cells)
        & data.passable
    )
    screen = _screen(state, (data.passable - blocked), pocket)
    if gaps:
        return RingPlan(frozenset(gaps) | screen, pocket, wall)
    # Closed: a 6th Army unit may still step into a ZOC hex of the wall (S6.3) and from
    # there trace a path out; such a hex next to an open outside hex is a thin spot. The
    # cut with those hexes as sources gives the hexes that thicken the ring.
    band = wall - {lab for lab, _ in on_map(state, "rkka")}
    found = min_vertex_cut(data.neighbors, open_cells | band, sixth | band, sinks - band)
    if found is None or not found[0]:
        return RingPlan(screen, pocket, wall)
    thin, outside = found
    deep = frozenset(open_cells - outside - thin)
    wall |= (
        frozenset(
            n for lab in deep | band for n in data.neighbors[lab] if n not in open_cells | band
        )
        & data.passable
    )
    return RingPlan(frozenset(thin) | screen, pocket, wall)


def _screen(state: State, open_cells: AbstractSet[str], pocket: AbstractSet[str]) -> frozenset[str]:
    """Long game (S11.2): the hexes to block so that Manstein's relief group cannot move
    (stopping only on entering RKKA ZOC, S6.3) next to a 6th Army unit or the pocket.

    The minimum cut nearest the relief (its units on the map, else, from the turn before
    the reserves arrive, their start hexes, S4.2) between it and the hexes next to the
    6th Army, in the graph of hexes free of RKKA units and ZOC.
    """
    if _short(state):
        return frozenset()
    data = static(state)
    relief = set(_group(state, RELIEF))
    if not relief and state.turn >= reinforce.RESERVE_TURN - 1:
        relief = {
            h
            for u, info in sorted(data.ground.items())
            if RELIEF in info.groups
            and info.arrives == reinforce.RESERVE_TURN
            and where(state, u) == POOL
            and (h := data.start_hex(info.side, info.start)) is not None
        }
    sixth = set(_group(state, SIXTH))
    if not relief or not sixth:
        return frozenset()
    near = sixth | set(pocket)
    near |= {n for h in sorted(near) for n in data.neighbors[h]}
    cells = set(open_cells) | relief
    targets = {n for h in sorted(near) for n in data.neighbors[h]} & cells
    found = min_vertex_cut(data.neighbors, cells, relief, targets - relief, near_sources=True)
    return frozenset(found[0]) if found is not None else frozenset()


def min_vertex_cut(
    neighbors: Mapping[str, Sequence[str]],
    open_cells: AbstractSet[str],
    sources: AbstractSet[str],
    sinks: AbstractSet[str],
    limit: int = FLOW_LIMIT,
    *,
    near_sources: bool = False,
) -> tuple[set[str], set[str]] | None:
    """A minimum set of hexes whose removal separates ``sources`` from ``sinks``.

    Unit vertex capacities (sources uncuttable) on the graph induced by ``open_cells``;
    augmenting paths on the split graph (each hex an ``in`` and an ``out`` node), then the
    cut nearest the sinks (``near_sources``: nearest the sources). Returns ``(cut,
    outside)`` — ``outside``: the open hexes beyond the cut, on the sinks' side — or
    ``None`` past ``limit`` disjoint paths.

    >>> nb = {"a": ("b",), "b": ("a", "c", "d"), "c": ("b",), "d": ("b",)}
    >>> cut, outside = min_vertex_cut(nb, {"a", "b", "c", "d"}, {"a"}, {"c", "d"})
    >>> sorted(cut), sorted(outside)
    (['b'], ['c', 'd'])
    >>> line = {"a": ("b",), "b": ("a", "c"), "c": ("b", "d"), "d": ("c",)}
    >>> [sorted(min_vertex_cut(line, set(line), {"a"}, {"d"}, near_sources=n)[0])
    ...  for n in (False, True)]
    [['d'], ['b']]
    """
    used: set[str] = set()  # hexes carrying a path (their unit capacity is used)
    flow: dict[tuple[str, str], int] = {}  # net flow out(u) -> in(v)
    for _ in range(limit):
        parent: dict[tuple[str, int], tuple[str, int] | None] = {}
        queue: deque[tuple[str, int]] = deque()
        for s in sorted(sources):
            parent[s, 1] = None
            queue.append((s, 1))
        found = None
        while queue:
            node = queue.popleft()
            v, out = node
            if out:
                if v in sinks and v not in sources:
                    found = node
                    break
                nxt = [(w, 0) for w in neighbors[v] if w in open_cells]
                if v in used and v not in sources:
                    nxt.append((v, 0))
            else:
                nxt = [(v, 1)] if v in sources or v not in used else []
                nxt.extend((u, 1) for u in neighbors[v] if flow.get((u, v), 0) > 0)
            for n in nxt:
                if n not in parent:
                    parent[n] = node
                    queue.append(n)
        if found is None:
            if near_sources:
                return _source_side_cut(neighbors, open_cells, sources, used, flow)
            return _sink_side_cut(neighbors, open_cells, sources, sinks, used, flow)
        node, prev = found, parent[found]
        while prev is not None:
            (a, a_out), b = prev, node[0]
            if a == b:
                (used.add if a_out == 0 else used.discard)(a)
            else:  # out(a) -> in(b), or in(a) -> out(b) cancelling flow b -> a
                flow[a, b] = flow.get((a, b), 0) + 1
                flow[b, a] = flow.get((b, a), 0) - 1
            node, prev = prev, parent[prev]
    return None


def _sink_side_cut(
    neighbors: Mapping[str, Sequence[str]],
    open_cells: AbstractSet[str],
    sources: AbstractSet[str],
    sinks: AbstractSet[str],
    used: set[str],
    flow: dict[tuple[str, str], int],
) -> tuple[set[str], set[str]]:
    """After a maximum flow: the nodes that still reach a sink in the residual graph."""
    reach = {(v, 1) for v in sinks if v not in sources}
    queue = deque(sorted(reach))
    while queue:
        v, out = queue.popleft()
        if out:  # arcs into out(v): in(v) -> out(v); in(u) -> out(v) if flow v -> u
            prev = [(v, 0)] if v in sources or v not in used else []
            prev.extend((u, 0) for u in neighbors[v] if flow.get((v, u), 0) > 0)
        else:  # arcs into in(v): out(u) -> in(v); out(v) -> in(v) if v carries a path
            prev = [(u, 1) for u in neighbors[v] if u in open_cells]
            if v in used and v not in sources:
                prev.append((v, 1))
        for n in prev:
            if n not in reach:
                reach.add(n)
                queue.append(n)
    cut = {v for v, out in reach if out and (v, 0) not in reach}
    return cut, {v for v, _ in reach} - cut


def _source_side_cut(
    neighbors: Mapping[str, Sequence[str]],
    open_cells: AbstractSet[str],
    sources: AbstractSet[str],
    used: set[str],
    flow: dict[tuple[str, str], int],
) -> tuple[set[str], set[str]]:
    """After a maximum flow: the cut nearest the sources (the nodes the sources still reach
    in the residual graph end just before it); ``outside``: every open hex beyond it."""
    reach = {(v, 0) for v in sources}
    queue = deque(sorted(reach))
    while queue:
        v, out = queue.popleft()
        if out:  # out(v) -> in(w); out(v) -> in(v) back along a used hex
            nxt = [(w, 0) for w in neighbors[v] if w in open_cells]
            if v in used and v not in sources:
                nxt.append((v, 0))
        else:  # in(v) -> out(v) if free; in(v) -> out(u) back along flow u -> v
            nxt = [(v, 1)] if v in sources or v not in used else []
            nxt.extend((u, 1) for u in neighbors[v] if flow.get((u, v), 0) > 0)
        for n in nxt:
            if n not in reach:
                reach.add(n)
                queue.append(n)
    cut = {v for v, out in reach if not out and (v, 1) not in reach}
    inside = {v for v, _ in reach}
    return cut, set(open_cells) - inside


class _RingMoves:
    """RKKA moves scored against a :class:`RingPlan`: gaps newly blocked, ring hexes lost."""

    def __init__(self, state: State, plan: RingPlan, mine: Sequence[tuple[str, str]]) -> None:
        self.data = data = static(state)
        count: dict[str, int] = {}
        for label, _ in mine:
            for h in _disk(data, label):
                count[h] = count.get(h, 0) + 1
        self.count = count
        self.open_gaps = frozenset(g for g in plan.gaps if not count.get(g))
        self.important = plan.gaps | plan.wall
        in_city = [u for lab, u in mine if lab in data.city]
        self.last_in_city = in_city[0] if len(in_city) == 1 else None

    def held(self, origin: str) -> frozenset[str]:
        """Ring hexes only the unit on ``origin`` blocks."""
        return frozenset(
            h for h in _disk(self.data, origin) & self.important if self.count.get(h) == 1
        )

    def change(self, unit: str, origin: str, target: str) -> tuple[int, int]:
        """``(gaps newly blocked, ring hexes given up)`` by ``move unit target``."""
        disk = _disk(self.data, target)
        new = len(self.open_gaps & disk)
        lost = len(self.held(origin) - disk)
        if unit == self.last_in_city and target not in self.data.city:
            lost += CITY_WEIGHT
        return new, lost


def ring_targets(state: State, plan: RingPlan, units: Sequence[str]) -> dict[str, str]:
    """Assign hexes that block the open gaps to free RKKA ``units`` (S11.1).

    Greedy set cover of the open gaps by unit positions (hex and ZOC), then a greedy
    matching of the free units (those holding no ring hex alone) by turns to arrive.
    """
    data = static(state)
    mine = on_map(state, "rkka")
    moves = _RingMoves(state, plan, mine)
    here = {u: lab for lab, u in mine}
    open_gaps = set(moves.open_gaps)
    anchors: list[str] = []
    candidates = sorted(
        {
            n
            for g in open_gaps
            for n in _disk(data, g)
            if n in data.passable and state.get("at", n) is None
        }
    )
    while open_gaps and candidates:
        best = max(
            candidates, key=lambda c: (len(open_gaps & _disk(data, c)), c not in plan.pocket)
        )
        if not open_gaps & _disk(data, best):
            break
        anchors.append(best)
        open_gaps -= _disk(data, best)
        candidates.remove(best)
    free = [
        u
        for u in units
        if u in here and data.ground[u].arm not in ground.ARTILLERY_ARMS and not moves.held(here[u])
    ]

    def turns(unit: str, anchor: str) -> tuple[int, int, str, str]:
        d = data.distance(here[unit], anchor)
        return -(-d // max(ground.allowance(state, unit, hooked=False), 1)), d, unit, anchor

    out: dict[str, str] = {}
    for t in sorted(turns(u, a) for u in free for a in anchors):
        unit, anchor = t[2], t[3]
        if unit not in out and anchor not in out.values():
            out[unit] = anchor
    return out


def objectives(state: State, side: str, plan: RingPlan | None = None) -> dict[str, str]:
    """The hex each of ``side``'s ground units heads for (see the module docstring)."""
    data = static(state)
    ground_units = data.ground
    mine = on_map(state, side)
    foes = on_map(state, enemy(side))
    sixth = _group(state, SIXTH)
    relief = _group(state, RELIEF)

    def nearest(label: str, targets: Sequence[str]) -> str | None:
        return min(targets, key=lambda t: (data.distance(label, t), t)) if targets else None

    goals: dict[str, str | None] = {}
    if side == "rkka":
        enemy_hexes = [lab for lab, _ in foes]
        assigned = ring_targets(state, plan, [u for _, u in mine]) if plan else {}
        gaps = sorted(plan.gaps) if plan else []
        in_city = any(lab in data.city for lab, _ in mine)
        city_goer = None
        if not in_city and data.city:
            city = sorted(data.city)
            city_goer = min(
                (u for _, u in mine if ground_units[u].arm not in ground.ARTILLERY_ARMS),
                key=lambda u: (
                    data.distance(where(state, u), nearest(where(state, u), city) or ""),
                    u,
                ),
                default=None,
            )
        for label, unit in mine:
            arm = ground_units[unit].arm
            if unit == city_goer:
                goals[unit] = nearest(label, sorted(data.city))
            elif unit in assigned:
                goals[unit] = assigned[unit]
            elif relief:  # long game (S11.2): go for Manstein's relief group
                goals[unit] = nearest(label, relief)
            elif arm in _MOBILE or plan is not None:  # close up on the ring
                goals[unit] = nearest(label, gaps or sixth or enemy_hexes)
            else:
                goals[unit] = nearest(label, enemy_hexes)
    else:
        corridor = sorted(plan.gaps) if plan and not relief else []
        for label, unit in mine:
            info = ground_units[unit]
            if RELIEF in info.groups:
                goals[unit] = nearest(label, sixth)
            elif SIXTH in info.groups and relief:
                goals[unit] = nearest(label, relief)
            elif SIXTH in info.groups and info.arm in _MOBILE and corridor:
                goals[unit] = nearest(label, corridor)  # keep the way out open (S11.1)
    return {u: g for u, g in goals.items() if g is not None}


def play(
    rules: Ruleset,
    bots: Mapping[str, Player],
    seed: int = 0,
    *,
    options: Mapping[str, Value] | None = None,
    max_steps: int = 100_000,
    on_step: Callable[[State, Action], None] | None = None,
) -> State:
    """Play one game: chance through ``SeededDriver(seed)``, each side by its bot.

    ``on_step(state, action)`` is called before each action is applied (for summaries).
    """
    return run(
        rules.new_state(options=options),
        bots,
        SeededDriver(seed),
        max_steps=max_steps,
        on_step=on_step,
    )
