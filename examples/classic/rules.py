"""Bridgehead's rules on hexwar's shared mechanisms (``docs/tutorial.md``, part 2).

Six turns (turn 3 is mud). Blue, then Red, plays three phases: **replacements**
(``restore PIECE``: 1 point, a step back; ``rebuild PIECE CELL``: 2 points, a dead unit
at its weakest step on Blue's west edge or in a town Red holds; 1 point a turn, kept);
**movement** (``move PIECE CELL`` with its step's move points; an enemy ZOC stops it, so
does the river but at the bridge; it takes every town on its path); **combat** (``attack
CELL A1 ...``: forest -1 column, town -2, all across the river -1, nothing below 1:2;
the pipeline runs losses, exchanges by printed defence, one-hex retreats, advances).
Then **attrition**: a unit with no trace to its own map edge (past enemy units and enemy
ZOC a friend does not hold) loses a step. After turn 6 Blue wins holding two of the
three towns, else Red; a side with no units left loses at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hexwar import (
    Action,
    ActionSpace,
    AdvanceRules,
    Combat,
    Control,
    Decision,
    GameMap,
    HexsideShift,
    Kind,
    Kinds,
    OddsRules,
    Outcome,
    Phase,
    Pieces,
    Reach,
    Replacements,
    RetreatRules,
    Ruleset,
    Stage,
    State,
    StepCounters,
    TurnSequence,
    Value,
    Values,
    trace_lengths,
    zoc_stops,
)

from .data import CRT, MAP, MUD_COST, REPLACEMENT_POINTS, SIDES, TOWNS, TURNS, UNITS, WEATHER, cell

REG: Pieces[Any] = Pieces(MAP)
COUNTERS = StepCounters({u: track for u, (_, track, _, _) in UNITS.items()}, pieces=REG)
TOWN_CONTROL: Control[Any] = Control(MAP, [cell(t) for t in TOWNS])
MUD_MAP = MAP.with_movement_costs(
    [(mc, t, cost + (mc == "tracked" and t == "forest")) for mc in ("foot", "tracked")
     for t, cost in MUD_COST.items()]
)  # fmt: skip
COMBAT = Combat(
    REG,
    COUNTERS,
    MAP,
    CRT,
    odds_rules=OddsRules(
        terrain={"forest": -1, "town": -2}, hexsides=(HexsideShift("river", -1, "all"),)
    ),
    retreat=RetreatRules(movement_class="foot", cannot="eliminate"),
    advance=AdvanceRules("optional", units=1),
    exchange="points",
    exchange_lost="defence",
    exchange_paid="defence",
)


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def board(state: State) -> GameMap[Any]:
    """The map of this turn: mud makes every step dearer (``data.MUD_COST``)."""
    return MUD_MAP if WEATHER[state.turn - 1] == "mud" else MAP


def reach(state: State, piece: str) -> Reach[Any]:
    """Where ``piece`` may move now (its step's move points), once per position."""
    points = COUNTERS.value(state, piece, "move")
    return state.derive(
        ("bridgehead-reach", piece),
        lambda: REG.reach(state, piece, board(state), UNITS[piece][2], points),
    )


def movers(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    return [
        p for p in REG.pieces_of(state, side)
        if not state.get("moved", p) and len(reach(state, p).costs) > 1
    ]  # fmt: skip


def ends(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    start = REG.where(state, args[0])
    return sorted(MAP.label(c) for c in reach(state, args[0]).costs if c != start)


def rebuild_places(state: State, side: str, piece: str) -> list[Any]:
    """Blue rebuilds on its west edge, Red in a town it holds."""
    return MAP.tagged("supply:blue") if side == "blue" else TOWN_CONTROL.held(state, "red")


REPLACEMENTS: Replacements[Any] = Replacements(COUNTERS, places=rebuild_places)
MOVE: Kind[str] = Kind(
    "move",
    (
        Values(movers, checked=True, means="a unit of yours that has not moved and can"),
        Values(ends, means="a hex that unit can reach"),
    ),
)
KINDS: Mapping[str, Kinds[str]] = {
    "replacements": Kinds(REPLACEMENTS.kinds()),
    "movement": Kinds((MOVE,)),
    "combat": COMBAT.kinds,
}


def occupy(state: State) -> None:
    """A town with a unit in it belongs to the unit's side (after advances)."""
    for town in TOWN_CONTROL.cells:
        held = REG.occupants(state, town)
        if held:
            TOWN_CONTROL.take(state, town, REG.side(state, held[0]))


def attrition(state: State) -> None:
    """Every unit with no trace to its own map edge loses a step."""
    for side in SIDES:
        friends = {REG.where(state, p) for p in REG.pieces_of(state, side)}
        enemies = {REG.where(state, p) for p in REG.pieces_of(state, other(side))}
        supplied = trace_lengths(
            MAP,
            MAP.tagged(f"supply:{side}"),
            blocked=enemies,
            stops=zoc_stops(MAP, enemies, friends),
        )
        for piece in REG.pieces_of(state, side):
            if REG.where(state, piece) not in supplied:
                COUNTERS.lose(state, piece)
    occupy(state)
    for side in SIDES:
        if not REG.pieces_of(state, side):
            state.end_game(Outcome(other(side), f"{side} has no units left"))
            return


def grant(state: State) -> None:
    for side in SIDES:  # points are kept from turn to turn
        REPLACEMENTS.grant(state, side, REPLACEMENT_POINTS, keep=True)


def side_stage(side: str) -> Stage:
    return Stage(
        side,
        (
            Phase("replacements", side=side),
            Phase("movement", side=side, scratch=("moved",), on_exit=occupy),
            COMBAT.phase("combat", side, on_exit=occupy),
        ),
    )


class Bridgehead(Ruleset):
    """Bridgehead (see the module docstring)."""

    name = "bridgehead"
    sides = SIDES
    end = Stage("end", (Phase("attrition", on_enter=attrition),))
    sequence = TurnSequence(
        (side_stage("blue"), side_stage("red"), end), TURNS, on_turn_start=grant
    )

    def action_space(self) -> ActionSpace:
        labels = [MAP.label(c) for c in MAP]
        own = ActionSpace.of(["end", "move", "restore", "rebuild"])
        return own.merged(COMBAT.action_space(UNITS, labels))

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        for unit, (side, _, _, start) in UNITS.items():
            REG.place(state, unit, cell(start), side)
        TOWN_CONTROL.set_up(state, {cell(t): "red" for t in TOWNS})

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> Sequence[str]:
        return KINDS[str(state.phase)].tokens(state, side, prefix)

    def step_meaning(self, state: State, prefix: tuple[str, ...]) -> str | None:
        return None if state.pending else KINDS[str(state.phase)].meaning(prefix)

    def play(self, state: State, action: Action) -> None:
        side = state.current_player()
        if COMBAT.play(state, action) or REPLACEMENTS.play(state, side, action):
            return
        piece, label = action.args  # move
        path = reach(state, piece).path_to(MAP.cell_at(label))
        REG.move(state, piece, path[-1])
        state.put("moved", piece, True)
        TOWN_CONTROL.enter(state, side, path)

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        COMBAT.decide(state, decision, action)

    def final_outcome(self, state: State) -> Outcome:
        towns = TOWN_CONTROL.count(state, "blue")
        winner = "blue" if towns >= 2 else "red"
        return Outcome(winner, f"Blue holds {towns} of {len(TOWNS)} towns")
