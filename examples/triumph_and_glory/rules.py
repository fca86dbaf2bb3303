"""Triumph & Glory «Триумф и Слава» (GMT 2004), Borodino: sections 2-6.24 as a hexwar ruleset.

Sequence of play (3.0), one turn:

A. Orders: reinforcements due enter (3.0 B.3, 5.25), the order-delay roll (5.29; Napoleon
   never rolls), then each side secretly puts up to its commander's order rating of
   command groups under orders (5.21-5.23). RULING (5.24): a command group is a whole
   activation group, which never splits — the text names the command-group range that
   splits a group («Предел Группы Приказа») but never gives it; a unit far from its group
   keeps the group's status. The statuses stay hidden until the group's first marker is drawn
   (:class:`hexwar.mechanics.selection.SecretSelection`).
B. Initiative (4.0): d10 + order rating each; a tie gives nobody the initiative
   (:class:`hexwar.mechanics.contest.OpposedRoll`). Then each side may place its barrage
   marker and a combined-group marker (5.33-5.35).
C. Activation: the markers (5.31, 5.32) go into the cup; the initiative player picks the
   first one (one of his own), the rest are drawn at random. Per marker: the status is
   revealed (5.23), a No-Orders group may try an individual order (5.28), then stack
   order (6.24) -> artillery fire (C.3.a, 6.13) -> movement, turning at will (6.12) ->
   assault (6.13, 6.23) -> rally -> stack order.
D. Reserve activation (5.5): the initiative player (else a roll-off) picks who starts;
   each side may activate one group (5.52, 5.57); only units not adjacent to an enemy act,
   as No Orders (5.53); movers and firing artillery roll for disorder (5.54-5.56).
   Then the commanders move, in the same order (4.0, 5.62).
E. Morale (10.5, 10.2) is outside the seed's sections 1-6.24 and is not played.

Modules: this one (sequence of play, orders, activation, commanders 5.61-5.63, facing
arcs 6.11-6.14, what may be done); :mod:`.board` (the units on the map in a ``Pieces``
registry with strength, disorder and a per-unit facing; the 6.21 stacking limits);
:mod:`.combat` (the PLACEHOLDER assault and fire); :mod:`.scenario` (the data);
``data/rules.toml`` (rule values and the reasons :meth:`TriumphAndGlory.explain` cites);
:mod:`.web` (the drawn board). An activation's group, status, units and flags are kept
by :data:`ACT`, a :class:`hexwar.mechanics.activation.Activation`; the commanders by a
:class:`hexwar.mechanics.leaders.Leaders`.

PLACEHOLDERS (not the real rules; the seed stops at 6.24): the fire table (8), the
assault table with its rear, cavalry-type and DFR modifiers (9), retreats, rally (10.1),
limited movement (half allowance, 7.12), the commanders' costs (7), reinforcements
blocked at their hex (7.4), ZOC (6.3: hexwar's default, entering an enemy-adjacent hex
stops), and victory (who holds the objective at the end; a side with no units loses).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import cast

from hexwar.board.movement import reachable
from hexwar.board.pieces import Pieces
from hexwar.board.stacking import to_top
from hexwar.engine.actions import Action, Decision, Outcome, Value
from hexwar.engine.bounds import Bounds
from hexwar.engine.dice import D10
from hexwar.engine.observe import ObservationView
from hexwar.engine.sequencer import Phase, Segment, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.grid.edges import Arc, Facing, FacingStyle
from hexwar.grid.geometry import Hex
from hexwar.mechanics.activation import Activation, alternate
from hexwar.mechanics.contest import OpposedRoll
from hexwar.mechanics.cups import Cup
from hexwar.mechanics.leaders import Leaders
from hexwar.mechanics.selection import SecretSelection

from .board import (
    LIMIT,
    MOVE_RULES,
    eliminate,
    join,
    kin_facing,
    side_of,
    stack,
    strength,
    tg,
    where,
)
from .combat import ASSAULT, resolve_assault, resolve_fire
from .evaluation import Evaluation
from .scenario import SIDES, TABLES, Commander, Scenario, load_scenario

FULL_ORDERS = ("orders", "orders-io")  # 5.26 (orders-io: an individual order, 5.28)
ACTING = (*FULL_ORDERS, "no-orders", "reserve")  # statuses of a group that acts


def chief(state: State, side: str) -> Commander:
    """The side's commander-in-chief (ratings and command range, 5.61)."""
    return tg(state).scenario.commanders[side]


def groups(state: State, side: str | None = None) -> dict[str, list[str]]:
    """The activation groups with units on the map (of ``side``) -> their units."""
    return tg(state).pieces.group_by(state, lambda u: tg(state).units[u].group, side)


def group_side(state: State, token: str) -> str:
    """The side of an activation marker: a group's, or a barrage/combined marker's
    (``barrage-french``, 5.33; ``combined-russian``, 5.34)."""
    if token in tg(state).groups:
        return tg(state).groups[token].side
    return token.split("-", 1)[1]


FLAGS = ("moved", "assaulted", "turned", "arranged", "fired")  # per unit and activation
# "turned" is cleared when the unit moves: a unit turns in every hex it stands in (6.12)
ACT = Activation(flags=FLAGS, present=lambda s, u: tg(s).pieces.is_placed(s, u), owner=group_side)
# 5.21-5.23: up to the order rating of a side's groups on the map, hidden until activation
ORDERS = SecretSelection("orders", groups, lambda s, side: chief(s, side).order_rating)
# 4.0: d10 + the commander's order rating (ORDERS.limit); a tie gives nobody the initiative
INITIATIVE = OpposedRoll("initiative", D10, SIDES, ORDERS.limit, table="game")
# 3.0 C.1: the initiative player picks the first marker (one of his own), then the
# markers are drawn from the cup at random.
CUP = Cup(key="markers", first=INITIATIVE.winner, owner=ACT.owner)


def limited(state: State) -> bool:
    """5.27: the active group is not under (individual) orders."""
    return ACT.status(state) not in FULL_ORDERS


# -- 5.61 command range, 6.1 facing ----------------------------------------------------


def in_range(state: State, side: str, h: Hex) -> bool:
    """5.61: within command range of the commander's counter (excluding his hex,
    including the unit's)."""
    return tg(state).leaders.in_range(state, side, h, chief(state, side).range)


def near_enemy(state: State, h: Hex) -> bool:
    side = side_of(state, stack(state, h)[0])
    return any(side_of(state, u) != side for n in h.neighbors() for u in stack(state, n))


def troops(state: State, h: Hex) -> list[str]:
    """The infantry and cavalry in ``h``, top first (6.14: artillery faces apart)."""
    return [u for u in stack(state, h) if tg(state).units[u].arm != "artillery"]


def unit_facing(state: State, uid: str) -> Facing:
    """The vertex unit ``uid`` faces (6.11; per unit, 6.14)."""
    return Facing(where(state, uid), cast(int, state.get("facing", uid)))


def facing(state: State, h: Hex) -> Facing:
    """The vertex the stack in ``h`` faces in an assault: its infantry's or cavalry's
    (6.11: they all face one way; 6.14: artillery may face apart and does not count),
    else its top artillery's."""
    lead = (troops(state, h) or list(stack(state, h)))[0]
    return unit_facing(state, lead)


def defence_style(state: State, h: Hex) -> FacingStyle:
    """6.11/6.14: infantry in a village or redoubt faces all round; cavalry in good order
    defends in the flanked formation (flank hexes count as front); else standard."""
    top = next((u for u in stack(state, h) if tg(state).units[u].arm != "artillery"), None)
    arm = None if top is None else tg(state).units[top].arm
    if arm == "infantry" and tg(state).map.terrain(h) in TABLES.all_round_terrain:
        return FacingStyle.ALL_ROUND
    if arm == "cavalry" and not state.get("disordered", top):  # type: ignore[arg-type]
        return FacingStyle.FLANKED
    return FacingStyle.STANDARD


def attacked_in_rear(state: State, attacker: Hex, defender: Hex) -> bool:
    """6.13: is the attacker in a rear hex of the defending stack?"""
    return facing(state, defender).arcs(defence_style(state, defender)).arc_of(attacker) is Arc.REAR


# -- A. orders phase, C. activation, D. reserve -----------------------------------------


def roll_delay(state: State) -> None:
    """5.29: from turn 2, a side rolls; <= delay rating (after -1 per earlier failure)
    lets it issue new orders, else its orders stay as they were."""
    for side in reversed(SIDES):
        if state.turn > 1 and chief(state, side).delay is not None:
            state.push(Decision.roll("delay", D10, params=(side,)))


def ask_orders(state: State) -> None:
    """5.21-5.23: each side whose last delay roll passed (``delay``: failures in a row)
    chooses, secretly, up to its order rating of groups."""
    for side in reversed(SIDES):
        if not state.get("delay", side):
            ORDERS.ask(state, side)


def arrive(state: State) -> None:
    """3.0 B.3, 5.25: reinforcements due by this turn enter at their hex (at the bottom of
    any stack there, facing their side's first corner). PLACEHOLDER for 7.4: a unit whose
    hex holds an enemy, or where 6.21 would break, waits for a later turn."""
    rules = tg(state)
    for turn in sorted(t for t in rules.scenario.arrivals if t <= state.turn):
        for uid, h in rules.scenario.arrivals[turn]:
            if state.get("entered", uid):
                continue
            here = [rules.units[u] for u in stack(state, h)]
            u = rules.units[uid]
            if any(x.side != u.side for x in here) or LIMIT([*here, u]):
                continue
            values = {"strength": u.strength, "disordered": False}
            corner = kin_facing(state, uid, h)  # 6.11/6.14: as its kind there
            values["facing"] = rules.scenario.first_facing[u.side] if corner is None else corner
            rules.pieces.place(state, uid, h, u.side, attributes=values)
            state.put("entered", uid, state.turn)
            displace(state, h)


def markers(state: State, group: str) -> int:
    """5.32: two markers a turn; a reinforcement group may get fewer on its turn of entry."""
    entering = all(state.get("entered", u) == state.turn for u in groups(state)[group])
    return tg(state).groups[group].entry_markers if entering else 2


def fill_cup(state: State) -> None:
    """5.31/5.32: the markers of every group with units on the map; 5.33/5.34: the
    barrage and combined-group markers placed this turn (a combined marker replaces one
    marker of each of its two groups)."""
    chits = [g for g in groups(state) for _ in range(markers(state, g))]
    for side in SIDES:
        if state.get("barrage", side) == state.turn:
            chits.append(f"barrage-{side}")
        pair = state.get("combined", side)
        if isinstance(pair, tuple) and pair and pair[0] == state.turn:
            chits.append(f"combined-{side}")
            for g in pair[1:]:
                chits.remove(str(g))
    CUP.fill(state, chits)
    for g in set(chits) & set(tg(state).groups):  # 5.57: whose markers are in this turn
        state.put("cupped", g, state.turn)


def spare_rating(state: State, side: str) -> int:
    """5.33: order-rating points not spent on orders this turn."""
    spent = sum(1 for g in groups(state, side) if ORDERS.chosen(state, g))
    return ORDERS.limit(state, side) - spent


def ask_markers(state: State) -> None:
    """5.35: after the initiative, before the first pick, each side may place its barrage
    marker (5.33: one a turn, for a point of order rating) and a combined-group marker
    (5.34: two of its groups, while the scenario's uses last)."""
    rules = tg(state)
    for side in reversed(SIDES):
        used = sum(1 for k, v in state.table("combined-used").items() if k.startswith(side))
        mine = sorted(groups(state, side))
        if rules.scenario.combined.get(side, 0) > used and len(mine) > 1:
            pairs = [Action.of("combine", a, b) for i, a in enumerate(mine) for b in mine[i + 1 :]]
            state.push(
                Decision("combine", side, (side,), choices=(*pairs, Action.of("combine", "pass")))
            )
        if side in rules.scenario.barrage and spare_rating(state, side) > 0:
            choices = (Action("barrage"), Action.of("barrage", "pass"))
            state.push(Decision("barrage", side, (side,), choices=choices))


def members(state: State, token: str) -> list[str]:
    """The groups a marker activates: its own, or a combined marker's two (5.34)."""
    if token.startswith("combined-"):
        return [
            str(g)
            for g in cast(tuple[Value, ...], state.get("combined", group_side(state, token)))[1:]
        ]
    return [token] if token in tg(state).groups else []


def activate(state: State, token: str) -> None:
    """A marker has left the cup: reveal the order status of its group(s) (5.23) and
    activate them. 5.34: a combined marker's two groups act as one; RULING: under
    orders only if both are. 5.33: a barrage activates the side's artillery to fire
    only (PLACEHOLDER for section 8's barrage: every artillery unit on the map)."""
    if token.startswith("barrage-"):
        side = group_side(state, token)
        guns = [
            u
            for u in tg(state).pieces.pieces_of(state, side)
            if tg(state).units[u].arm == "artillery"
        ]
        ACT.begin(state, token, sorted(guns), status="barrage")
        return
    parts = members(state, token)
    statuses = [ORDERS.reveal(state, g) for g in parts]
    status = "orders" if statuses and all(statuses) else "no-orders"
    units = [u for g in parts for u in groups(state).get(g, [])]  # [] if wiped out
    ACT.begin(state, token, units, status=status)


def in_command(state: State, side: str) -> list[str]:
    """5.52: the groups of ``side`` with a unit within command range; 5.57: only those
    whose markers went into the cup this turn."""
    mine = {g: us for g, us in groups(state, side).items() if state.get("cupped", g) == state.turn}
    return [g for g in mine if any(in_range(state, side, where(state, u)) for u in mine[g])]


def next_reserve(state: State) -> Decision | None:
    """5.51: the initiative player (else a roll-off, ties re-rolled: 1/2 each) picks who
    starts; then each side picks one group (5.52: one unit within command range) or passes."""
    return alternate(state, SIDES, INITIATIVE.winner(state), in_command)


def activate_reserve(state: State, token: str) -> None:
    """5.52/5.53: only units not adjacent to an enemy act, as No Orders, no 5.28 roll.
    The segment's first token is the side that starts (4.0, 5.51); RULING: it moves
    its commander first too (4.0 names one choice for both phases)."""
    if len(state.cursor.tokens) == 1:
        state.put("game", "first", token)
    if token in tg(state).groups:
        free = [u for u in groups(state)[token] if not near_enemy(state, where(state, u))]
        ACT.begin(state, token, free, status="reserve")


def check_reserve(state: State) -> None:
    """5.54: each non-artillery unit that moved in the reserve phase rolls d10; above its
    cohesion it is disordered (already disordered: routed, removed here). 5.55/5.56:
    artillery rolls if it fired, not for moving."""
    moved, fired = ACT.flagged(state, "moved"), ACT.flagged(state, "fired")
    for uid in sorted(moved | fired, reverse=True):
        if (tg(state).units[uid].arm == "artillery") == (uid in fired):
            state.push(Decision.roll("cohesion", D10, params=(uid,)))


def commander_order(state: State) -> tuple[str, ...]:
    """4.0: the side that started the reserve phase moves its commander first."""
    first = state.get("game", "first") or SIDES[0]
    return (str(first), *(s for s in SIDES if s != first))


def displace(state: State, h: Hex) -> None:
    """5.63: enemy units entered ``h``: a commander there moves at once to the nearest
    of his own units (he suffers nothing)."""
    tg(state).leaders.displace(state, h, tg(state).pieces, lambda side: side)


def rally(state: State) -> None:
    """3.0 C.3.d: units that did nothing rally (PLACEHOLDER for 10.1: automatically)."""
    for uid in ACT.ready(state, "moved", "assaulted"):
        state.put("disordered", uid, False)


PHASES = (
    Phase("individual-order", side=ACT.side, skip=ACT.skip_unless("no-orders")),
    Phase("arrange", side=ACT.side, skip=ACT.skip_unless(*ACTING)),
    Phase("fire", side=ACT.side, skip=ACT.skip_unless(*ACTING, "barrage")),  # 3.0 C.3.a
    Phase("move", side=ACT.side, skip=ACT.skip_unless(*ACTING)),
    Phase("reserve-check", on_enter=check_reserve, skip=ACT.skip_unless("reserve")),
    Phase("assault", side=ACT.side, skip=ACT.skip_unless(*ACTING)),
    Phase("rally", on_enter=rally, skip=ACT.skip_unless(*ACTING[:3], "halted")),
    Phase("rearrange", side=ACT.side, skip=ACT.skip_unless(*ACTING)),
)
FRESH = ACT.scratch  # emptied when an activation begins
ORDERS_PHASES = (
    Phase("reinforce", on_enter=arrive),
    Phase("delay", on_enter=roll_delay),
    Phase("issue", on_enter=ask_orders),
)
LEAD = (  # 5.62: the commanders' movement phase, after the reserve (4.0)
    Phase("lead-first", side=lambda s: commander_order(s)[0]),
    Phase("lead-second", side=lambda s: commander_order(s)[1]),
)
STAGES = (
    Stage("orders", ORDERS_PHASES),
    Stage(
        "initiative",
        (Phase("initiative", on_enter=INITIATIVE.start), Phase("markers", on_enter=ask_markers)),
    ),
    Segment("activation", PHASES, None, activate, on_enter=fill_cup, cup=CUP, token_scratch=FRESH),
    Segment("reserve", PHASES, next_reserve, activate_reserve, token_scratch=FRESH),
    Stage("commanders", LEAD),
)


class TriumphAndGlory(Ruleset):
    """The example ruleset (see the module docstring); ``scenario`` defaults to Shevardino."""

    name = "triumph-and-glory"
    sides = SIDES

    def __init__(self, scenario: Scenario | str | None = None, *, turns: int | None = None) -> None:
        self.scenario = (
            load_scenario(scenario or "shevardino")
            if not isinstance(scenario, Scenario)
            else scenario
        )
        self.scenario_name = self.scenario.name.split(" / ")[0].lower()
        self.units, self.groups = self.scenario.units, self.scenario.groups
        self.map = self.scenario.game_map
        self.hexes = {self.map.label(h): h for h in self.map}
        attributes = ("strength", "disordered", "facing")
        self.pieces = Pieces(self.map, attributes=attributes)  # facing per unit (6.14)
        self.leaders = Leaders(self.map)  # 5.61-5.63: commanders on the map, not units
        self.sequence = TurnSequence(STAGES, turn_limit=turns or self.scenario.turns)

    def options(self) -> Mapping[str, Value]:
        return {"turns": self.sequence.turn_limit, "scenario": self.scenario_name}

    @classmethod
    def from_options(cls, options: Mapping[str, object]) -> TriumphAndGlory:
        turns, name = options.get("turns"), options.get("scenario")
        return cls(str(name) if name else None, turns=turns if isinstance(turns, int) else None)

    def bounds(self) -> Bounds:
        """The token steps a framework allows a game: per turn 30 for each unit (orders,
        moves, turns, fire, melee, rolls) and 128 for chit draws and phase ends — about
        twice the longest of 1,000 uniform random games (``tests/test_interop_bounds.py``)
        and above the longest of the kit's games, whose policy seldom ends a phase (574
        of 758 in 60 one-turn games, seeds 0-59)."""
        turns = self.sequence.turn_limit or self.scenario.turns
        return Bounds(max_tokens=turns * (len(self.units) * 30 + 128))

    def resample_hidden(self, state: State, side: str, rng: random.Random) -> State:
        """The other side's order statuses still hidden from ``side`` (5.23) drawn anew."""
        return ORDERS.resample(state, side, rng)

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        for side, c in sorted(self.scenario.commanders.items()):  # 5.61: on the map
            self.leaders.place(state, side, c.hex)
        for h, uids in sorted(self.scenario.stacks.items()):
            for uid in uids:  # file order, each newcomer below (6.24); 6.21 checked at load
                u, corner = self.units[uid], self.scenario.first_facing[self.units[uid].side]
                values = {"strength": u.strength, "disordered": False, "facing": corner}
                self.pieces.place(state, uid, h, u.side, attributes=values)

    def observation_view(self) -> ObservationView:
        """The board for learning agents: hexes, terrain and each side's units."""
        return self.pieces.observation_view(self.map)

    def action_space(self) -> ActionSpace:
        """Kinds (with the orders, rolls, picks and draws), units, groups and ``pass``,
        sides, hex labels, facings 0-5, d10 totals."""
        kinds = ["end", "request", "top", "fire", "move", "face", "assault", ORDERS.kind, "roll"]
        kinds += ["lead", "barrage", "combine"]
        extra = [f"{m}-{s}" for m in ("barrage", "combined") for s in SIDES]
        return ActionSpace.of(
            [*kinds, "pick", "draw"], unit=sorted(self.units),
            group=[*sorted(self.groups), *extra, "pass"],
            side=SIDES, hex=sorted(self.hexes), facing=range(6), d10=range(1, 11),
        )  # fmt: skip

    # -- what may be done ----------------------------------------------------------------

    def phase_actions(self, state: State, side: str) -> list[Action]:
        if state.phase == "individual-order":
            return [Action("request")] if ACT.status(state) == "no-orders" else []
        if state.phase in ("arrange", "rearrange"):  # 6.24: once a unit, not by an enemy
            at = {u: where(state, u) for u in ACT.ready(state, "arranged")}
            at = {u: h for u, h in at.items() if stack(state, h)[0] != u}
            return [Action.of("top", u) for u, h in at.items() if not near_enemy(state, h)]
        if state.phase == "fire":
            return self.fires(state, side)
        if state.phase == "move":
            return self.moves(state) + self.turns(state)
        if state.phase.startswith("lead-"):
            return self.leads(state, side)
        return self.assaults(state, side) if state.phase == "assault" else []

    def fires(self, state: State, side: str) -> list[Action]:
        """3.0 C.3.a, 5.26/5.27 (with or without orders), 6.13: each active artillery unit
        fires once, at an enemy stack within its maximum range (2.0) in the sector through
        its front hexsides; 6.23: wherever it is in its stack. PLACEHOLDER (section 8):
        no line of sight is checked."""
        out = []
        for uid in ACT.ready(state, "fired", "moved"):
            u = self.units[uid]
            if u.arm != "artillery":
                continue
            f = unit_facing(state, uid)
            for t in sorted(f.hex.within(u.max_range)):
                foes = stack(state, t) if t in self.map else ()
                if foes and side_of(state, foes[0]) != side and f.sees(t):
                    out.append(Action.of("fire", uid, self.map.label(t)))
        return out

    def leads(self, state: State, side: str) -> list[Action]:
        """5.62: the commander moves once in his phase, within his allowance (PLACEHOLDER
        costs: as cavalry, section 7), never into a hex with enemy units."""
        if state.get("led", side) == state.turn:
            return []
        here, c = tg(state).leaders.where(state, side), chief(state, side)
        enemies = {
            where(state, u) for s in SIDES if s != side for u in self.pieces.pieces_of(state, s)
        }
        reach = reachable(self.map, here, "cavalry", c.allowance, enemies=enemies)
        return [
            Action.of("lead", self.map.label(h))
            for h in sorted(reach.costs)
            if h != here and h not in enemies
        ]

    def moves(self, state: State) -> list[Action]:
        """6.22: never into or through an enemy; 6.21: end only where the stack is legal;
        No Orders: half allowance (PLACEHOLDER for 7.12), and move or assault (5.27)."""
        out: list[Action] = []
        fired = ACT.flagged(state, "fired")  # PLACEHOLDER (8.0): foot artillery that fired stays
        for uid in ACT.ready(state, "moved", "assaulted"):
            if uid in fired and not self.units[uid].horse:
                continue
            u, h, unit = self.units[uid], where(state, uid), self.units.__getitem__
            mp = u.allowance // 2 if limited(state) else u.allowance
            reach = self.pieces.reach(state, uid, self.map, u.arm, mp, rules=MOVE_RULES, unit=unit)
            out += [Action.of("move", uid, self.map.label(d)) for d in reach.costs if d != h]
        return out

    def turns(self, state: State) -> list[Action]:
        """6.12: turning is free, at any time during and at the end of a move: an active
        unit turns once in each hex it stands in (facing has no effect on movement, so a
        turn on the way equals one at the end). 6.11: the infantry/cavalry of a hex turn
        as one, so all of them must be active; 6.14: artillery turns on its own."""
        out, active = [], set(ACT.units(state))
        for uid in ACT.ready(state, "turned"):
            h = where(state, uid)
            if self.units[uid].arm != "artillery" and not set(troops(state, h)) <= active:
                continue
            corner = unit_facing(state, uid).corner
            out += [Action.of("face", uid, k) for k in range(6) if k != corner]
        return out

    def attackers(self, state: State, h: Hex) -> list[str]:
        """6.23: the stack attacks as one mass, led by its top infantry/cavalry unit, which
        must belong to the active group; below it, every unit down to the first of another
        group joins (artillery never assaults; it is passed over). 5.27: a group without
        full orders moves or assaults. PLACEHOLDER (section 9): disordered units stay out."""
        ready = set(ACT.ready(state, "assaulted", *(["moved"] if limited(state) else [])))
        active, mass = set(ACT.units(state)), []
        for uid in troops(state, h):
            if uid not in active:
                break
            if uid in ready and not state.get("disordered", uid):
                mass.append(uid)
            elif not mass:
                break
        return mass

    def assaults(self, state: State, side: str) -> list[Action]:
        """6.13: into an enemy in a front hex (attacking cavalry: 2 front hexes too)."""
        out = []
        for h in sorted({where(state, u) for u in ACT.units(state)}):
            attack = strength(state, self.attackers(state, h))
            for t in facing(state, h).front():
                foes = stack(state, t)
                ok = attack and foes and side_of(state, foes[0]) != side
                if ok and ASSAULT.ratio(attack, strength(state, foes)) >= ASSAULT.threshold:
                    out.append(Action.of("assault", self.map.label(h), self.map.label(t)))
        return out

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        uid, label = (*action.args, "", "")[:2]
        if action.kind == "move" and self.pieces.is_placed(state, uid) and label in self.hexes:
            units = [self.units[u] for u in (*stack(state, self.hexes[label]), uid)]
            if len(units) > 1 and units[0].side == units[-1].side and LIMIT(units):
                return f"{action}: {LIMIT(units)}", "6.21"
        reason, rule = TABLES.reasons.get(action.kind, ("", None))
        return (f"{action}: {reason}", rule) if reason else super().explain(state, action)

    # -- what happens --------------------------------------------------------------------

    def play(self, state: State, action: Action) -> None:
        kind, args = action.kind, action.args
        if kind == "request":
            state.push(Decision.roll("io", D10, params=(ACT.token(state),)))
        elif kind == "top":
            h = where(state, args[0])
            self.pieces.restack(state, h, to_top(stack(state, h), args[0]))
            ACT.flag(state, "arranged", args[0])
        elif kind == "move":
            join(state, args[0], self.hexes[args[1]])  # bottom (6.24), facing as there (6.11)
            displace(state, self.hexes[args[1]])  # 5.63
            ACT.flag(state, "moved", args[0])
            ACT.unflag(state, "turned", args[0])  # 6.12: it may turn again where it is
        elif kind == "face":
            uid = args[0]
            h = where(state, uid)
            turning = [uid] if self.units[uid].arm == "artillery" else troops(state, h)
            for u in turning:  # 6.11: the troops of a hex face one way; 6.14
                state.put("facing", u, action.int_arg(1))
            ACT.flag(state, "turned", *turning)
        elif kind == "fire":  # 6.13; the resolution is a PLACEHOLDER for section 8
            ACT.flag(state, "fired", args[0])
            state.push(Decision.roll("fire", D10, params=tuple(args)))
        elif kind == "lead":  # 5.62
            side = state.current_player()
            self.leaders.place(state, side, self.hexes[args[0]])
            state.put("led", side, state.turn)
        else:  # assault (6.13, 6.23; the resolution is a PLACEHOLDER)
            frm, to = self.hexes[args[0]], self.hexes[args[1]]
            units = self.attackers(state, frm)
            ACT.flag(state, "assaulted", *units)
            shift = TABLES.rear_shift if attacked_in_rear(state, frm, to) else 0
            shift += TABLES.cavalry_shift.get(self.units[units[0]].cavalry, 0)  # 2.0 (PLACEHOLDER)
            near = in_range(state, ACT.side(state), frm)  # 5.27: outside the range, +1
            drm = TABLES.no_orders_drm if limited(state) and not near else 0
            top = self.units[stack(state, to)[0]]  # 6.23: only a top infantry unit's DFR
            drm += top.dfr if top.arm == "infantry" else 0  # (2.0; PLACEHOLDER use, 9.0)
            state.push(Decision.roll("assault", D10, params=(*args, shift, drm, *units)))

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        if ORDERS.answer(state, decision, action) or INITIATIVE.answer(state, decision, action):
            return
        if decision.kind == "barrage":  # 5.33: the marker goes into the cup this turn
            if action.args[:1] != ("pass",):
                state.put("barrage", decision.side, state.turn)
            return
        if decision.kind == "combine":  # 5.34: one marker of each group is held back
            if action.args[:1] != ("pass",):
                state.put("combined", decision.side, (state.turn, *action.args))
                state.put("combined-used", f"{decision.side}-{state.turn}", True)
            return
        kind, n, first = decision.kind, decision.rolled(action), str(decision.params[0])
        if kind == "delay":  # 5.29: a failure keeps the old orders (see ask_orders)
            fails = cast(int, state.get("delay", first, 0))
            ok = n - fails <= cast(int, chief(state, first).delay)
            state.put("delay", first, 0 if ok else fails + 1)
        elif kind == "io":  # 5.28
            side = ACT.side(state)
            near = any(in_range(state, side, where(state, u)) for u in ACT.units(state))
            rating = min(self.groups[g].io_rating for g in members(state, first))  # RULING for 5.34
            ok = n - (chief(state, side).drm if near else 0) <= rating
            ACT.set_status(state, "orders-io" if ok else "halted")
        elif kind == "assault":
            resolve_assault(state, n, decision.params)
        elif kind == "fire":
            resolve_fire(state, n, decision.params)
        elif self.pieces.is_placed(state, first) and n > self.units[first].cohesion:  # 5.54
            routed = state.get("disordered", first)
            state.put("disordered", first, True)
            if routed:  # disordered again: routed, leaves the map (PLACEHOLDER)
                eliminate(state, first)

    def evaluation(self) -> Evaluation:
        """The search's evaluation: the objective and the material (PLACEHOLDER victory)."""
        return Evaluation()

    def final_outcome(self, state: State) -> Outcome:
        """PLACEHOLDER victory: the side holding the redoubt at the end wins."""
        holders = stack(state, self.scenario.objective)
        if holders and side_of(state, holders[0]) == "french":
            return Outcome("french", "placeholder victory: the French hold the redoubt")
        return Outcome("russian", "placeholder victory: the French do not hold the redoubt")


__all__ = ["LIMIT", "TriumphAndGlory", "attacked_in_rear", "facing", "stack", "where"]
