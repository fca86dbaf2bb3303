"""Triumph & Glory «Триумф и Слава» (GMT 2004), Borodino: sections 3-6 as a hexwar ruleset.

Sequence of play (3.0), one turn:

A. Orders: order-delay roll (5.29; Napoleon never rolls), then each side secretly puts
   up to its commander's order rating of command groups under orders (5.21-5.23; here a
   command group is a whole activation group). The statuses stay hidden from the
   opponent until the group's first marker is drawn.
B. Initiative (4.0): d10 + order rating each; the higher total wins; a tie gives nobody
   the initiative.
C. Activation: two markers per group (5.31) go into the cup; the initiative player picks
   the first one (one of his own), the rest are drawn at random. Per marker: the status
   is revealed (5.23), a No-Orders group may try an individual order (5.28), then stack
   order (6.24) -> movement -> assault -> rally -> stack order.
D. Reserve activation (5.5): the initiative player (else a roll-off) picks who starts;
   each side may activate one group whose units are within the commander's range
   (5.52); only units not adjacent to an enemy act, as No Orders (5.53), and every
   non-artillery unit that moved rolls for disorder (5.54).
E. Morale (10.x) is outside the seed's sections 1-6 and is not played.

Modules: this one (sequence of play, orders, activation, what may be done);
:mod:`.board` (the units on the map: a ``Pieces`` registry, strength, disorder, facing
and its arcs, 6.11-6.13); :mod:`.stacking` (6.21 limits, checked where a move or a
retreat ends and at load; newcomers go to the bottom, 6.24); :mod:`.combat` (the
PLACEHOLDER assault table and resolution). The activation is in ``act`` (group, status,
units) with the scratch tables of :data:`FRESH`.

PLACEHOLDERS (not the real rules; the seed stops at 6.24): the assault table, its
rear-attack shift and results (:mod:`.combat`), retreats, rally, limited movement (half
allowance), ZOC (hexwar's default: entering an enemy-adjacent hex stops), and victory
(who holds the redoubt at the end; a side with no units loses).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any, cast

from hexwar.actions import Action, Decision, Outcome, Value
from hexwar.cups import Cup
from hexwar.dice import D10
from hexwar.geometry import Hex
from hexwar.movement import reachable
from hexwar.pieces import Pieces
from hexwar.sequencer import Phase, Segment, Stage, TurnSequence, token_draw, token_pick
from hexwar.stacking import to_top
from hexwar.state import Ruleset, State

from .board import (
    attacked_in_rear,
    eliminate,
    facing,
    in_range,
    near_enemy,
    other,
    relocate,
    side_of,
    stack,
    strength,
    tg,
    where,
)
from .combat import ASSAULT, resolve_assault
from .scenario import SIDES, Scenario, load_scenario
from .stacking import LIMIT, MOVE_RULES

FULL_ORDERS = ("orders", "orders-io")  # 5.26 (orders-io: an individual order, 5.28)
REAR_SHIFT = 1  # PLACEHOLDER magnitude of 6.13 "especially severe" rear attacks
NO_ORDERS_DRM = 1  # 5.27: +1 to the assault roll outside the commander's range
# Emptied when an activation begins (3.0 C.3): its context ("act": group, status, units)
# and its flags (unit -> True).
FRESH = ("act", "moved", "assaulted", "turned", "arranged")


def act(state: State, key: str) -> Any:
    return state.get("act", key)


def active_side(state: State) -> str:
    return tg(state).groups[act(state, "group")].side


def acting(state: State) -> list[str]:
    """The units of the current activation still on the map."""
    return [u for u in act(state, "units") if tg(state).pieces.is_placed(state, u)]


def flagged(state: State, *tables: str) -> set[str]:
    return {u for t in tables for u in state.table(t)}


# -- A. orders phase ----------------------------------------------------------------------


def roll_delay(state: State) -> None:
    """5.29: from turn 2, a side rolls; <= delay rating (after -1 per earlier failure)
    lets it issue new orders, else its orders stay as they were."""
    for side in reversed(SIDES):
        state.put("game", f"may-order:{side}", True)
        if state.turn > 1 and tg(state).scenario.commanders[side].delay is not None:
            state.push(Decision.roll("delay", D10, params=(side,)))


def ask_orders(state: State) -> None:
    """5.21-5.23: each side chooses, secretly, up to its order rating of groups."""
    rules = tg(state)
    for side in reversed(SIDES):
        if state.get("game", f"may-order:{side}"):
            groups = rules.groups_on_map(state, side)
            top = rules.scenario.commanders[side].order_rating
            choices = tuple(
                Action("orders", c)
                for n in range(min(top, len(groups)) + 1)
                for c in combinations(groups, n)
            )
            state.push(Decision("orders", side, choices=choices, private=side))


# -- B. initiative, C. activation, D. reserve ---------------------------------------------


def roll_initiative(state: State) -> None:
    """4.0: each side rolls d10 and adds its commander's order rating."""
    for side in reversed(SIDES):
        state.push(Decision.roll("initiative", D10, params=(side,)))


# 3.0 C.1: the initiative player picks the first marker (one of his own), then the
# markers are drawn from the cup at random.
CUP = Cup(
    key="markers",
    first=lambda s: s.get("game", "initiative"),
    owner=lambda s, g: tg(s).groups[g].side,
)


def fill_cup(state: State) -> None:
    """5.31/5.32: two markers for every group with units on the map."""
    CUP.fill(state, (g for g in tg(state).groups_on_map(state) for _ in "ab"))


def open_marker(state: State, group: str) -> None:
    """Reveal the group's order status (5.23); the marker has left the cup."""
    state.reveal("orders", group)
    status = "orders" if state.get("orders", group) else "no-orders"
    begin(state, group, status, tg(state).group_units(state, group))


def begin(state: State, group: str, status: str, units: Iterable[str]) -> None:
    for key, value in (("group", group), ("status", status), ("units", tuple(units))):
        state.put("act", key, value)


def next_reserve(state: State) -> Decision | None:
    """5.51: the initiative player (else a roll-off, ties re-rolled: 1/2 each) picks who
    starts; then each side picks one group (5.52: one unit within command range) or passes."""
    tokens, holder = state.cursor.tokens, state.get("game", "initiative")
    if not tokens:
        return token_pick(holder, SIDES) if isinstance(holder, str) else token_draw(SIDES)
    if len(tokens) > 2:
        return None
    side = tokens[0] if len(tokens) == 1 else other(tokens[0])
    units = tg(state).pieces.pieces_of(state, side)
    near = {tg(state).units[u].group for u in units if in_range(state, side, where(state, u))}
    return token_pick(side, [*sorted(near), "pass"])


def open_reserve(state: State, token: str) -> None:
    """5.52/5.53: only units not adjacent to an enemy act, as No Orders, no 5.28 roll."""
    if token in tg(state).groups:
        units = tg(state).group_units(state, token)
        begin(state, token, "reserve", [u for u in units if not near_enemy(state, where(state, u))])


def check_reserve(state: State) -> None:
    """5.54: each non-artillery unit that moved in the reserve phase rolls d10; above its
    cohesion it is disordered (already disordered: routed, removed here)."""
    for uid in sorted(state.table("moved"), reverse=True):
        if tg(state).units[uid].arm != "artillery":
            state.push(Decision.roll("cohesion", D10, params=(uid,)))


def rally(state: State) -> None:
    """3.0 C.3.d: units that did nothing rally (PLACEHOLDER for 10.1: automatically)."""
    for uid in sorted(set(acting(state)) - flagged(state, "moved", "assaulted")):
        state.put("disordered", uid, False)


def acts(state: State) -> bool:
    return act(state, "status") not in (None, "halted")


PHASES = (
    Phase("individual-order", side=active_side, skip=lambda s: act(s, "status") != "no-orders"),
    Phase("arrange", side=active_side, skip=lambda s: not acts(s)),
    Phase("move", side=active_side, skip=lambda s: not acts(s)),
    Phase("reserve-check", on_enter=check_reserve, skip=lambda s: act(s, "status") != "reserve"),
    Phase("assault", side=active_side, skip=lambda s: not acts(s)),
    Phase("rally", on_enter=rally, skip=lambda s: act(s, "status") in (None, "reserve")),
    Phase("rearrange", side=active_side, skip=lambda s: not acts(s)),
)
ACTIVATION = Segment(
    "activation", PHASES, None, open_marker, on_enter=fill_cup, cup=CUP, token_scratch=FRESH
)
RESERVE = Segment("reserve", PHASES, next_reserve, open_reserve, token_scratch=FRESH)

REASONS = {
    "orders": ("at most the commander's order rating of groups under orders", "5.22"),
    "pick": ("the initiative player picks one of his own markers", "4.0"),
    "request": ("only a No Orders group may try an individual order", "5.28"),
    "top": ("stack order changes at an activation's start or end, not by an enemy", "6.24"),
    "move": ("not a hex this unit can reach now", "7.0"),
    "face": ("only a stack wholly of the active group turns, in its movement", "6.12"),
    "assault": ("assault only into a front hex, led by the active top unit, at 1:2+", "6.13"),
}


class TriumphAndGlory(Ruleset):
    """The example ruleset (see the module docstring); ``scenario`` defaults to Shevardino.

    It is also the :class:`~hexwar.pieces.Pieces` codec: printed labels, cached both ways.
    """

    name = "triumph-and-glory"
    sides = SIDES

    def __init__(self, scenario: Scenario | None = None, *, turns: int | None = None) -> None:
        self.scenario = scenario or load_scenario()
        self.units, self.groups = self.scenario.units, self.scenario.groups
        self.map = self.scenario.game_map
        self.labels = {h: self.map.label(h) for h in self.map}
        self.hexes = {label: h for h, label in self.labels.items()}
        self.pieces = Pieces(self, attributes=("strength", "disordered", "facing"))
        self.sequence = TurnSequence(
            stages=(
                Stage(
                    "orders",
                    (Phase("delay", on_enter=roll_delay), Phase("issue", on_enter=ask_orders)),
                ),
                Stage("initiative", (Phase("initiative", on_enter=roll_initiative),)),
                ACTIVATION,
                RESERVE,
            ),
            turn_limit=turns or self.scenario.turns,
        )

    def label(self, h: Hex) -> str:
        return self.labels[h]

    def cell_at(self, label: str) -> Hex:
        return self.hexes[label]

    def groups_on_map(self, state: State, side: str | None = None) -> list[str]:
        return sorted({self.units[u].group for u in self.pieces.pieces_of(state, side)})

    def group_units(self, state: State, group: str) -> list[str]:
        return [u for u in self.pieces.pieces_of(state) if self.units[u].group == group]

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        for h, uids in sorted(self.scenario.stacks.items()):
            for uid in uids:  # file order, each newcomer below (6.24); 6.21 checked at load
                u = self.units[uid]
                corner = self.scenario.first_facing[u.side]
                values = {"strength": u.strength, "disordered": False, "facing": corner}
                self.pieces.place(state, uid, h, u.side, attributes=values)

    # -- what may be done ----------------------------------------------------------------

    def phase_actions(self, state: State, side: str) -> list[Action]:
        if state.phase == "individual-order":
            return [Action("request")] if act(state, "status") == "no-orders" else []
        mine = acting(state)
        if state.phase in ("arrange", "rearrange"):
            free = sorted(set(mine) - flagged(state, "arranged"))  # 6.24: once, not by an enemy
            free = [u for u in free if not near_enemy(state, where(state, u))]
            return [Action.of("top", u) for u in free if stack(state, where(state, u))[0] != u]
        if state.phase == "move":
            return self.moves(state, side, mine) + self.turns(state, mine)
        return self.assaults(state, side, mine) if state.phase == "assault" else []

    def moves(self, state: State, side: str, mine: list[str]) -> list[Action]:
        """6.22: never into or through an enemy; 6.21: end only where the stack is legal;
        No Orders: half allowance (PLACEHOLDER for 7.12), and move or assault (5.27)."""
        limited = act(state, "status") not in FULL_ORDERS
        out: list[Action] = []
        for uid in sorted(set(mine) - flagged(state, "moved", "assaulted")):
            u, h = self.units[uid], where(state, uid)
            friends, enemies = self.pieces.friends_enemies(
                state, side, exclude=uid, unit=self.units.__getitem__
            )
            allowance = u.allowance // 2 if limited else u.allowance
            reach = reachable(
                self.map, h, u.arm, allowance, mover=u, friends=friends, enemies=enemies,
                rules=MOVE_RULES,
            )  # fmt: skip
            out += [Action("move", (uid, self.label(d))) for d in reach.costs if d != h]
        return out

    def turns(self, state: State, mine: list[str]) -> list[Action]:
        """6.12: turning is free; a stack turns as one (6.11), here once per activation."""
        out = []
        for h in sorted({where(state, u) for u in mine}):
            if set(stack(state, h)) <= set(mine) - flagged(state, "turned"):
                corner = facing(state, h).corner
                out += [Action.of("face", self.label(h), k) for k in range(6) if k != corner]
        return out

    def attackers(self, state: State, h: Hex, mine: list[str]) -> list[str]:
        """6.23: the stack attacks as one mass if its top unit belongs to the active group."""
        done = flagged(state, "assaulted")
        if act(state, "status") not in FULL_ORDERS:
            done |= flagged(state, "moved")  # 5.27: move or assault
        ready = [
            u
            for u in stack(state, h)
            if u in mine
            and self.units[u].arm != "artillery"
            and not state.get("disordered", u)
            and u not in done
        ]
        return ready if ready and ready[0] == stack(state, h)[0] else []

    def assaults(self, state: State, side: str, mine: list[str]) -> list[Action]:
        out = []
        for h in sorted({where(state, u) for u in mine}):
            attack = sum(strength(state, u) for u in self.attackers(state, h, mine))
            for t in facing(state, h).front():  # 6.13 (attacking cavalry: 2 front hexes)
                defence = sum(strength(state, u) for u in stack(state, t))
                foe = stack(state, t) and side_of(state, stack(state, t)[0]) != side
                if attack and foe and ASSAULT.ratio(attack, defence) >= ASSAULT.threshold:
                    out.append(Action.of("assault", self.label(h), self.label(t)))
        return out

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        uid, label = (*action.args, "", "")[:2]
        there = stack(state, self.hexes[label]) if label in self.hexes else ()
        units = [self.units[u] for u in (*there, uid)] if self.pieces.is_placed(state, uid) else []
        reason = LIMIT(units) if there and units and units[0].side == units[-1].side else None
        if action.kind == "move" and reason is not None:
            return f"{action}: {reason}", "6.21"
        if action.kind in REASONS:
            reason, rule = REASONS[action.kind]
            return f"{action}: {reason}", rule
        return super().explain(state, action)

    # -- what happens --------------------------------------------------------------------

    def play(self, state: State, action: Action) -> None:
        kind, args = action.kind, action.args
        if kind == "request":
            state.push(Decision.roll("io", D10, params=(act(state, "group"),)))
        elif kind == "top":
            h = where(state, args[0])
            self.pieces.restack(state, h, to_top(stack(state, h), args[0]))
            state.put("arranged", args[0], True)
        elif kind == "move":
            relocate(state, args[0], self.hexes[args[1]])
            state.put("moved", args[0], True)
        elif kind == "face":
            for uid in stack(state, self.hexes[args[0]]):
                state.put("facing", uid, action.int_arg(1))
                state.put("turned", uid, True)
        else:  # assault (6.13, 6.23; the resolution is a PLACEHOLDER)
            frm, to = self.hexes[args[0]], self.hexes[args[1]]
            units = self.attackers(state, frm, acting(state))
            for uid in units:
                state.put("assaulted", uid, True)
            shift = REAR_SHIFT if attacked_in_rear(state, frm, to) else 0
            limited = act(state, "status") not in FULL_ORDERS
            outside = not in_range(state, side_of(state, units[0]), frm)
            drm = NO_ORDERS_DRM if limited and outside else 0
            state.push(Decision.roll("assault", D10, params=(*args, shift, drm, *units)))

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        kind, params = decision.kind, decision.params
        if kind == "orders":  # 5.21-5.23: hidden from the opponent until activation
            for g in self.groups:
                if self.groups[g].side == decision.side:
                    state.put("orders", g, g in action.args)
                    state.hide("orders", g, decision.side)
            return
        n, first = decision.rolled(action), str(params[0])
        if kind == "delay":  # 5.29
            fails = cast(int, state.get("delay", first, 0))
            ok = n - fails <= cast(int, self.scenario.commanders[first].delay)
            state.put("game", f"may-order:{first}", ok)
            state.put("delay", first, 0 if ok else fails + 1)
        elif kind == "initiative":  # 4.0
            state.put("game", f"total:{first}", n + self.scenario.commanders[first].order_rating)
            if first == SIDES[-1]:
                a, b = (cast(int, state.get("game", f"total:{s}")) for s in SIDES)
                state.put("game", "initiative", None if a == b else SIDES[b > a])
        elif kind == "io":  # 5.28
            side = self.groups[first].side
            near = any(in_range(state, side, where(state, u)) for u in act(state, "units"))
            drm = self.scenario.commanders[side].drm if near else 0
            ok = n - drm <= self.groups[first].io_rating
            state.put("act", "status", "orders-io" if ok else "halted")
        elif kind == "assault":
            resolve_assault(state, n, params)
        elif self.pieces.is_placed(state, first) and n > self.units[first].cohesion:  # 5.54
            routed = state.get("disordered", first)
            state.put("disordered", first, True)
            if routed:  # disordered again: routed, leaves the map (PLACEHOLDER)
                eliminate(state, first)

    def final_outcome(self, state: State) -> Outcome:
        """PLACEHOLDER victory: the side holding the redoubt at the end wins."""
        holders = stack(state, self.scenario.objective)
        if holders and side_of(state, holders[0]) == "french":
            return Outcome("french", "placeholder victory: the French hold the redoubt")
        return Outcome("russian", "placeholder victory: the French do not hold the redoubt")


__all__ = ["LIMIT", "TriumphAndGlory", "attacked_in_rear", "facing", "stack", "where"]
