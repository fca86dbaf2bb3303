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

Facing (6.11): a stack faces a hex vertex; assault only into a front hex (6.13);
infantry in a village or redoubt faces all six hexes, cavalry in good order defends in
the flanked formation. Stacking (6.21) is checked where a move ends; newcomers go to the
bottom (6.24).

PLACEHOLDERS (not the real rules; the seed stops at 6.24): the assault table, its
rear-attack shift and results, retreats, rally, limited movement (half allowance), ZOC
(hexwar's default: entering an enemy-adjacent hex stops), and victory (who holds the
redoubt at the end; a side with no units loses).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from hexwar.actions import Action, Decision, Outcome, Value
from hexwar.crt import OddsTable, Result
from hexwar.dice import D10
from hexwar.edges import Arc, Facing, FacingStyle
from hexwar.errors import DataError
from hexwar.geometry import Hex
from hexwar.movement import MoveRules, reachable
from hexwar.sequencer import Phase, Segment, Stage, TurnSequence, token_draw, token_pick
from hexwar.stacking import all_limits, arrive, can_end, depart, max_units, to_top
from hexwar.state import Ruleset, State

from .scenario import SIDES, Scenario, Unit, load_scenario

FULL_ORDERS = ("orders", "orders-io")  # 5.26 (orders-io: an individual order, 5.28)
ALL_ROUND_TERRAIN = ("village", "redoubt")  # 6.11
REAR_SHIFT = 1  # PLACEHOLDER magnitude of 6.13 "especially severe" rear attacks
NO_ORDERS_DRM = 1  # 5.27: +1 to the assault roll outside the commander's range

# PLACEHOLDER assault table (section 9 is outside the seed): d10, low rolls favour the
# attacker. AD attacker top unit disordered; DR defender retreats 1 hex, disordered;
# DL defender top unit loses 1 strength point, then DR.
ASSAULT = OddsTable.build(
    columns=["1:2", "1:1", "2:1", "3:1"],
    rows={
        0: ["DR", "DL", "DL", "DL"],
        1: ["NE", "DR", "DL", "DL"],
        2: ["NE", "DR", "DR", "DL"],
        3: ["NE", "NE", "DR", "DL"],
        4: ["AD", "NE", "DR", "DR"],
        5: ["AD", "NE", "NE", "DR"],
        6: ["AD", "AD", "NE", "DR"],
        7: ["AD", "AD", "NE", "NE"],
        8: ["AD", "AD", "AD", "NE"],
        9: ["AD"] * 4,
        10: ["AD"] * 4,
    },
    results=[
        Result("AD", rank=-1),
        Result("NE"),
        Result("DR", rank=1, retreat=1),
        Result("DL", rank=2, defender_steps=1, retreat=1),
    ],
    dice=D10,
    name="assault (placeholder)",
    rule="placeholder",
)


def stacking_limit(units: Sequence[Unit]) -> str | None:
    """6.21: at most 3 units; no infantry with cavalry; 2 of a kind (3 if one brigade);
    artillery alone: 2 of one activation group with <= 6 SP; with others: at most 1,
    and with two infantry/cavalry only if they are of one brigade."""
    troops = [u for u in units if u.arm != "artillery"]
    guns = [u for u in units if u.arm == "artillery"]
    one_brigade = len({u.brigade for u in troops}) <= 1
    if len({u.arm for u in troops}) > 1:
        return "6.21: infantry and cavalry never stack together"
    if len(troops) == 3 and not one_brigade:
        return "6.21: three infantry/cavalry units only if all of one brigade"
    if not troops and (len({u.group for u in guns}) > 1 or sum(u.strength for u in guns) > 6):
        return "6.21: stacked artillery must be of one activation group, at most 6 SP"
    if troops and len(guns) > 1:
        return "6.21: at most one artillery unit with non-artillery units"
    if guns and len(troops) == 2 and not one_brigade:
        return "6.21: artillery joins two units only if they are of one brigade"
    return None


LIMIT = all_limits(
    max_units(3, rule="6.21"),
    max_units(2, counts=lambda u: u.arm == "artillery", rule="6.21"),
    stacking_limit,
)
MOVE_RULES = MoveRules(can_end=can_end(LIMIT))  # passing through any stack is free (6.21)


def tg(state: State) -> TriumphAndGlory:
    assert isinstance(state.ruleset, TriumphAndGlory)
    return state.ruleset


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def unit_row(state: State, uid: str) -> tuple[int, int, int, bool]:
    """``(q, r, strength, disordered)`` of a unit on the map."""
    q, r, sp, dis = state.get("units", uid)  # type: ignore[misc]
    return q, r, sp, dis


def where(state: State, uid: str) -> Hex:
    q, r, _, _ = unit_row(state, uid)
    return Hex(q, r)


def stack(state: State, h: Hex) -> tuple[str, ...]:
    """The units in ``h``, top first (6.24); none off the map."""
    if h not in tg(state).map:
        return ()
    return state.get("stacks", tg(state).label(h)) or ()  # type: ignore[return-value]


def facing(state: State, h: Hex) -> Facing:
    """The vertex the stack in ``h`` faces (6.11: all units of a hex face one way)."""
    return Facing(h, state.get("facing", tg(state).label(h)))  # type: ignore[arg-type]


def side_units(state: State, side: str) -> list[str]:
    return sorted(u for u in state.table("units") if tg(state).units[u].side == side)


def act(state: State, key: str) -> Any:
    return state.get("act", key)


def active_side(state: State) -> str:
    return tg(state).groups[act(state, "group")].side


def in_range(state: State, side: str, h: Hex) -> bool:
    """5.61: within command range (excluding the commander's hex, including the unit's)."""
    c = tg(state).scenario.commanders[side]
    return c.hex.distance(h) <= c.range


def near_enemy(state: State, h: Hex) -> bool:
    side = tg(state).units[stack(state, h)[0]].side
    return any(tg(state).units[u].side != side for n in h.neighbors() for u in stack(state, n))


def put_unit(state: State, uid: str, h: Hex, sp: int, dis: bool) -> None:
    state.put("units", uid, (h.q, h.r, sp, dis))


def relocate(state: State, uid: str, dest: Hex) -> None:
    """Move a unit: it leaves its stack and joins ``dest`` at the bottom (6.24), facing
    like the stack there (6.11) or keeping its own if ``dest`` is empty."""
    rules, src = tg(state), where(state, uid)
    corner, rest = state.get("facing", rules.label(src)), depart(stack(state, src), uid)
    state.put("stacks", rules.label(src), rest) if rest else clear_hex(state, src)
    if not stack(state, dest):
        state.put("facing", rules.label(dest), corner)
    state.put("stacks", rules.label(dest), arrive(stack(state, dest), uid))
    _, _, sp, dis = unit_row(state, uid)
    put_unit(state, uid, dest, sp, dis)


def clear_hex(state: State, h: Hex) -> None:
    state.delete("stacks", tg(state).label(h))
    state.delete("facing", tg(state).label(h))


def eliminate(state: State, uid: str) -> None:
    h = where(state, uid)
    rest = depart(stack(state, h), uid)
    state.put("stacks", tg(state).label(h), rest) if rest else clear_hex(state, h)
    state.delete("units", uid)
    side = tg(state).units[uid].side
    if not side_units(state, side):
        state.end_game(Outcome(other(side), f"placeholder victory: no {side} units left"))


def roll(kind: str, *params: Value) -> Decision:
    return Decision.chance(
        kind, tuple((Action.of("roll", n), p) for n, p in D10.outcomes()), params=params
    )


# -- A. orders phase ----------------------------------------------------------------------


def roll_delay(state: State) -> None:
    """5.29: from turn 2, a side rolls; <= delay rating (after -1 per earlier failure)
    lets it issue new orders, else its orders stay as they were."""
    for side in reversed(SIDES):
        state.put("game", f"may-order:{side}", True)
        if state.turn > 1 and tg(state).scenario.commanders[side].delay is not None:
            state.push(roll("delay", side))


def ask_orders(state: State) -> None:
    """5.21-5.23: each side chooses, secretly, up to its order rating of groups."""
    rules = tg(state)
    for side in reversed(SIDES):
        if state.get("game", f"may-order:{side}"):
            groups = sorted(g for g in rules.groups_on_map(state) if rules.groups[g].side == side)
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
        state.push(roll("initiative", side))


def fill_cup(state: State) -> None:
    """5.31/5.32: two markers for every group with units on the map."""
    state.put("cup", "markers", tuple(g for g in tg(state).groups_on_map(state) for _ in "ab"))


def next_marker(state: State) -> Decision | None:
    """3.0 C.1: the initiative player picks the first marker (one of his own), then the
    markers are drawn from the cup at random."""
    cup: tuple[str, ...] = state.get("cup", "markers")  # type: ignore[assignment]
    holder = state.get("game", "initiative")
    own = [g for g in cup if tg(state).groups[g].side == holder]
    if not state.cursor.tokens and isinstance(holder, str) and own:
        return token_pick(holder, own)
    return token_draw(cup) if cup else None


def open_marker(state: State, group: str) -> None:
    """Take the marker out of the cup and reveal the group's order status (5.23)."""
    cup = list(state.get("cup", "markers"))  # type: ignore[arg-type]
    cup.remove(group)
    state.put("cup", "markers", tuple(cup))
    state.reveal("orders", group)
    status = "orders" if state.get("orders", group) else "no-orders"
    begin(state, group, status, tg(state).group_units(state, group))


def begin(state: State, group: str, status: str, units: Iterable[str]) -> None:
    for key in ("moved", "assaulted", "turned", "arranged"):
        state.put("act", key, ())
    for key, value in (("group", group), ("status", status)):
        state.put("act", key, value)
    state.put("act", "units", tuple(units))


def next_reserve(state: State) -> Decision | None:
    """5.51: the initiative player (else a roll-off, ties re-rolled: 1/2 each) picks who
    starts; then each side picks one group (5.52: one unit within command range) or passes."""
    tokens, holder = state.cursor.tokens, state.get("game", "initiative")
    if not tokens:
        return token_pick(holder, SIDES) if isinstance(holder, str) else token_draw(SIDES)
    if len(tokens) > 2:
        return None
    side = tokens[0] if len(tokens) == 1 else other(tokens[0])
    rules = tg(state)
    groups = [
        g
        for g in rules.groups_on_map(state)
        if rules.groups[g].side == side
        and any(in_range(state, side, where(state, u)) for u in rules.group_units(state, g))
    ]
    return token_pick(side, [*groups, "pass"])


def open_reserve(state: State, token: str) -> None:
    """5.52/5.53: only units not adjacent to an enemy act, as No Orders, no 5.28 roll."""
    state.delete("act", "status")
    if token in tg(state).groups:
        units = [
            u for u in tg(state).group_units(state, token) if not near_enemy(state, where(state, u))
        ]
        begin(state, token, "reserve", units)


def check_reserve(state: State) -> None:
    """5.54: each non-artillery unit that moved in the reserve phase rolls d10; above its
    cohesion it is disordered (already disordered: routed, removed here)."""
    for uid in reversed(act(state, "moved")):
        if tg(state).units[uid].arm != "artillery":
            state.push(roll("cohesion", uid))


def rally(state: State) -> None:
    """3.0 C.3.d: units that did nothing rally (PLACEHOLDER for 10.1: automatically)."""
    busy = act(state, "moved") + act(state, "assaulted")
    for uid in act(state, "units"):
        if uid in state.table("units") and uid not in busy:
            q, r, sp, _ = unit_row(state, uid)
            put_unit(state, uid, Hex(q, r), sp, False)


def retreat(state: State, h: Hex, away: Hex) -> None:
    """PLACEHOLDER retreat: the stack moves, in order, to the first hex (sorted) farther
    from the attacker, free of enemies and within 6.21; else its top unit loses 1 SP."""
    rules, units = tg(state), stack(state, h)
    side = rules.units[units[0]].side
    for n in sorted(x for x in h.neighbors() if x in rules.map and x.distance(away) == 2):
        there = stack(state, n)
        if (not there or rules.units[there[0]].side == side) and LIMIT(
            [rules.units[u] for u in (*there, *units)]
        ) is None:
            for uid in units:
                relocate(state, uid, n)
                put_unit(state, uid, n, unit_row(state, uid)[2], True)
            return
    lose_step(state, units[0])


def lose_step(state: State, uid: str) -> None:
    q, r, sp, _ = unit_row(state, uid)
    put_unit(state, uid, Hex(q, r), sp - 1, True) if sp > 1 else eliminate(state, uid)


def disorder(state: State, uid: str) -> None:
    q, r, sp, _ = unit_row(state, uid)
    put_unit(state, uid, Hex(q, r), sp, True)


def defence_style(state: State, h: Hex) -> FacingStyle:
    """6.11/6.14: infantry in a village or redoubt faces all round; cavalry in good order
    defends in the flanked formation (flank hexes count as front); else standard."""
    top = next((u for u in stack(state, h) if tg(state).units[u].arm != "artillery"), None)
    if top is None:
        return FacingStyle.STANDARD
    arm = tg(state).units[top].arm
    if arm == "infantry" and tg(state).map.terrain(h) in ALL_ROUND_TERRAIN:
        return FacingStyle.ALL_ROUND
    return (
        FacingStyle.FLANKED
        if arm == "cavalry" and not unit_row(state, top)[3]
        else (FacingStyle.STANDARD)
    )


def attacked_in_rear(state: State, attacker: Hex, defender: Hex) -> bool:
    """6.13: is the attacker in a rear hex of the defending stack?"""
    arcs = facing(state, defender).arcs(defence_style(state, defender))
    return arcs.arc_of(attacker) is Arc.REAR


PHASES = (
    Phase("individual-order", side=active_side, skip=lambda s: act(s, "status") != "no-orders"),
    Phase("arrange", side=active_side, skip=lambda s: act(s, "status") in (None, "halted")),
    Phase("move", side=active_side, skip=lambda s: act(s, "status") in (None, "halted")),
    Phase("reserve-check", on_enter=check_reserve, skip=lambda s: act(s, "status") != "reserve"),
    Phase("assault", side=active_side, skip=lambda s: act(s, "status") in (None, "halted")),
    Phase("rally", on_enter=rally, skip=lambda s: act(s, "status") in (None, "reserve")),
    Phase("rearrange", side=active_side, skip=lambda s: act(s, "status") in (None, "halted")),
)

REASONS = {
    "orders": ("at most the commander's order rating of groups under orders", "5.22"),
    "pick": ("the initiative player picks one of his own markers", "4.0"),
    "request": ("only a No Orders group may try an individual order", "5.28"),
    "top": (
        "stack order changes at the start or end of the unit's activation, not next to an enemy",
        "6.24",
    ),
    "move": ("not a hex this unit can reach now", "7.0"),
    "face": ("only a stack wholly of the active group turns, in its movement", "6.12"),
    "assault": ("assault only into a front hex, led by the active top unit, at 1:2+", "6.13"),
}


class TriumphAndGlory(Ruleset):
    """The example ruleset (see the module docstring); ``scenario`` defaults to Shevardino."""

    name = "triumph-and-glory"
    sides = SIDES

    def __init__(self, scenario: Scenario | None = None, *, turns: int | None = None) -> None:
        self.scenario = scenario or load_scenario()
        self.units, self.groups = self.scenario.units, self.scenario.groups
        self.map = self.scenario.game_map
        self.labels = {h: self.map.label(h) for h in self.map}
        self.hexes = {label: h for h, label in self.labels.items()}
        self.sequence = TurnSequence(
            stages=(
                Stage(
                    "orders",
                    (Phase("delay", on_enter=roll_delay), Phase("issue", on_enter=ask_orders)),
                ),
                Stage("initiative", (Phase("initiative", on_enter=roll_initiative),)),
                Segment("activation", PHASES, next_marker, open_marker, on_enter=fill_cup),
                Segment("reserve", PHASES, next_reserve, open_reserve),
            ),
            turn_limit=turns or self.scenario.turns,
        )

    def label(self, h: Hex) -> str:
        return self.labels[h]

    def groups_on_map(self, state: State) -> list[str]:
        return sorted({self.units[u].group for u in state.table("units")})

    def group_units(self, state: State, group: str) -> list[str]:
        return sorted(u for u in state.table("units") if self.units[u].group == group)

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        for h, uids in sorted(self.scenario.stacks.items()):
            reason = LIMIT([self.units[u] for u in uids])
            if reason is not None:
                raise DataError(reason, source="shevardino.toml", entry=f"stack {self.label(h)}")
            state.put("stacks", self.label(h), uids)
            state.put("facing", self.label(h), self.scenario.first_facing[self.units[uids[0]].side])
            for uid in uids:
                put_unit(state, uid, h, self.units[uid].strength, False)

    # -- what may be done ----------------------------------------------------------------

    def phase_actions(self, state: State, side: str) -> list[Action]:
        if state.phase == "individual-order":
            return [Action("request")] if act(state, "status") == "no-orders" else []
        mine = [u for u in act(state, "units") if u in state.table("units")]
        if state.phase in ("arrange", "rearrange"):
            return [
                Action.of("top", u)
                for u in mine
                if stack(state, where(state, u))[0] != u
                and u not in act(state, "arranged")
                and not near_enemy(state, where(state, u))
            ]
        if state.phase == "move":
            return self.moves(state, side, mine) + self.turns(state, mine)
        return self.assaults(state, side, mine) if state.phase == "assault" else []

    def occupants(self, state: State, side: str) -> dict[Hex, tuple[Unit, ...]]:
        out: dict[Hex, tuple[Unit, ...]] = {}
        for label, uids in state.table("stacks").items():
            units = tuple(self.units[u] for u in uids)  # type: ignore[union-attr]
            if units[0].side == side:
                out[self.hexes[label]] = units
        return out

    def moves(self, state: State, side: str, mine: list[str]) -> list[Action]:
        """6.22: never into or through an enemy; 6.21: end only where the stack is legal;
        No Orders: half allowance (PLACEHOLDER for 7.12), and move or assault (5.27)."""
        limited = act(state, "status") not in FULL_ORDERS
        enemies, friends = self.occupants(state, other(side)), self.occupants(state, side)
        out: list[Action] = []
        for uid in mine:
            if uid in act(state, "moved") + act(state, "assaulted"):
                continue
            u, h = self.units[uid], where(state, uid)
            others = {**friends, h: tuple(x for x in friends[h] if x != u)}
            reach = reachable(
                self.map,
                h,
                u.arm,
                u.allowance // 2 if limited else u.allowance,
                mover=u,
                friends=others,
                enemies=enemies,
                rules=MOVE_RULES,
            )
            out += [Action("move", (uid, self.labels[d])) for d in reach.costs if d != h]
        return out

    def turns(self, state: State, mine: list[str]) -> list[Action]:
        """6.12: turning is free; a stack turns as one (6.11), here once per activation."""
        out = []
        for h in sorted({where(state, u) for u in mine}):
            if set(stack(state, h)) <= set(mine) - set(act(state, "turned")):
                corner = facing(state, h).corner
                out += [Action.of("face", self.label(h), k) for k in range(6) if k != corner]
        return out

    def attackers(self, state: State, h: Hex, mine: list[str]) -> list[str]:
        """6.23: the stack attacks as one mass if its top unit belongs to the active group."""
        limited = act(state, "status") not in FULL_ORDERS
        ready = [
            u
            for u in stack(state, h)
            if u in mine
            and self.units[u].arm != "artillery"
            and not unit_row(state, u)[3]
            and u not in act(state, "assaulted")
            and not (limited and u in act(state, "moved"))
        ]
        return ready if ready and ready[0] == stack(state, h)[0] else []

    def assaults(self, state: State, side: str, mine: list[str]) -> list[Action]:
        out = []
        for h in sorted({where(state, u) for u in mine}):
            attack = sum(unit_row(state, u)[2] for u in self.attackers(state, h, mine))
            for t in facing(state, h).front():  # 6.13 (attacking cavalry: 2 front hexes)
                defence = sum(unit_row(state, u)[2] for u in stack(state, t))
                foe = stack(state, t) and self.units[stack(state, t)[0]].side != side
                if attack and foe and ASSAULT.ratio(attack, defence) >= ASSAULT.threshold:
                    out.append(Action.of("assault", self.label(h), self.label(t)))
        return out

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        if (
            action.kind == "move"
            and len(action.args) == 2
            and action.args[0] in state.table("units")
        ):
            h = self.hexes.get(action.args[1])
            dest = () if h is None else stack(state, h)
            units = [self.units[u] for u in (*dest, action.args[0])]
            if dest and units[0].side == units[-1].side and LIMIT(units) is not None:
                return f"{action}: {LIMIT(units)}", "6.21"
        if action.kind in REASONS:
            reason, rule = REASONS[action.kind]
            return f"{action}: {reason}", rule
        return super().explain(state, action)

    # -- what happens --------------------------------------------------------------------

    def play(self, state: State, action: Action) -> None:
        kind, args = action.kind, action.args
        if kind == "request":
            state.push(roll("io", act(state, "group")))
        elif kind == "top":
            h = where(state, args[0])
            state.put("stacks", self.label(h), to_top(stack(state, h), args[0]))
            state.put("act", "arranged", (*act(state, "arranged"), args[0]))
        elif kind == "move":
            relocate(state, args[0], self.hexes[args[1]])
            state.put("act", "moved", (*act(state, "moved"), args[0]))
        elif kind == "face":
            state.put("facing", args[0], action.int_arg(1))
            turned = stack(state, self.hexes[args[0]])
            state.put("act", "turned", (*act(state, "turned"), *turned))
        else:  # assault (6.13, 6.23; the resolution is a PLACEHOLDER)
            frm, to = self.hexes[args[0]], self.hexes[args[1]]
            side = self.units[stack(state, frm)[0]].side
            mine = [u for u in act(state, "units") if u in state.table("units")]
            units = self.attackers(state, frm, mine)
            state.put("act", "assaulted", (*act(state, "assaulted"), *units))
            shift = REAR_SHIFT if attacked_in_rear(state, frm, to) else 0
            limited = act(state, "status") not in FULL_ORDERS
            drm = (
                NO_ORDERS_DRM
                if limited and not any(in_range(state, side, frm) for _ in units)
                else 0
            )
            state.push(roll("assault", args[0], args[1], shift, drm, *units))

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        kind, params = decision.kind, decision.params
        if kind == "orders":  # 5.21-5.23: hidden from the opponent until activation
            for g in self.groups:
                if self.groups[g].side == decision.side:
                    state.put("orders", g, g in action.args)
                    state.hide("orders", g, decision.side)
            return
        n, first = action.int_arg(0), str(params[0])
        if kind == "delay":  # 5.29
            fails = state.get("delay", first, 0)
            ok = n - fails <= self.scenario.commanders[first].delay  # type: ignore[operator]
            state.put("game", f"may-order:{first}", ok)
            state.put("delay", first, 0 if ok else fails + 1)  # type: ignore[operator]
        elif kind == "initiative":  # 4.0
            state.put("game", f"total:{first}", n + self.scenario.commanders[first].order_rating)
            if first == SIDES[-1]:
                a, b = (state.get("game", f"total:{s}") for s in SIDES)
                state.put("game", "initiative", None if a == b else SIDES[b > a])  # type: ignore[operator]
        elif kind == "io":  # 5.28
            drm = (
                self.scenario.commanders[self.groups[first].side].drm
                if any(
                    in_range(state, self.groups[first].side, where(state, u))
                    for u in act(state, "units")
                )
                else 0
            )
            ok = n - drm <= self.groups[first].io_rating
            state.put("act", "status", "orders-io" if ok else "halted")
        elif kind == "cohesion":  # 5.54 (routed units leave the map: PLACEHOLDER)
            if first in state.table("units") and n > self.units[first].cohesion:
                eliminate(state, first) if unit_row(state, first)[3] else disorder(state, first)
        else:
            self.resolve_assault(state, n, params)

    def resolve_assault(self, state: State, n: int, params: tuple[Value, ...]) -> None:
        """PLACEHOLDER resolution on :data:`ASSAULT` (section 9 is not in the seed)."""
        frm, to = (self.hexes[str(p)] for p in params[:2])
        units = [str(u) for u in params[4:]]
        attack = sum(unit_row(state, u)[2] for u in units)
        defence = sum(unit_row(state, u)[2] for u in stack(state, to))
        result = ASSAULT.resolve(
            attack, defence, roll=n, shift=int(str(params[2])), modifier=int(str(params[3]))
        )
        if result.code == "AD":
            disorder(state, units[0])
        if result.defender_steps:
            lose_step(state, stack(state, to)[0])
        if result.retreat and stack(state, to) and state.outcome is None:
            retreat(state, to, frm)

    def final_outcome(self, state: State) -> Outcome:
        """PLACEHOLDER victory: the side holding the redoubt at the end wins."""
        holders = stack(state, self.scenario.objective)
        if holders and self.units[holders[0]].side == "french":
            return Outcome("french", "placeholder victory: the French hold the redoubt")
        return Outcome("russian", "placeholder victory: the French do not hold the redoubt")


__all__ = ["ASSAULT", "LIMIT", "TriumphAndGlory", "attacked_in_rear", "stacking_limit"]
