"""Bridgehead's rules on hexwar's shared mechanisms (``docs/tutorial.md``, part 2).

Six turns (turn 3 is mud). Blue, then Red, plays three phases: **replacements**
(``restore PIECE``: 1 point, a step back; ``rebuild PIECE CELL``: 2 points, a dead unit
at its weakest step on its own map edge or in a town its side holds in communication
with that edge; 1 point a turn, kept); **movement** (``move PIECE CELL`` with its step's
move points; an enemy ZOC stops it, so does the river but at the bridge; it takes every
town on its path); **combat** (``attack CELL A1 ...``: forest -1 column, town -2, all
across the river -1, nothing below 1:2; the pipeline runs losses, exchanges by printed
defence, one-hex retreats — on through friends to an empty hex —, advances).
Then **attrition**: a unit with no trace to its own map edge (past enemy units and enemy
ZOC a friend does not hold) loses a step. After turn 6 Blue wins holding two of the
three towns, else Red; a side with no units left loses at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from hexwar import (
    Action,
    ActionSpace,
    AdvanceRules,
    Bounds,
    Combat,
    Control,
    ControlVictory,
    GameMap,
    HexsideShift,
    Kind,
    Kinds,
    OddsRules,
    Outcome,
    Phase,
    PieceMoves,
    Pieces,
    Replacements,
    RetreatRules,
    Ruleset,
    Stage,
    State,
    StepCounters,
    TurnSequence,
    Value,
    Values,
    edge_or_held,
    trace_lengths,
    zoc_stops,
)

from .data import (
    CRT,
    MAP,
    MUD_COST,
    REPLACEMENT_POINTS,
    SIDES,
    TOWNS,
    TOWNS_TO_WIN,
    TURNS,
    UNITS,
    WEATHER,
    cell,
)  # fmt: skip

#: Token steps a turn a framework allows (both sides' three phases and the attrition):
#: about 2.5x the longest turn of 1,000 random games (``tests/test_interop_bounds.py``).
TOKENS_PER_TURN: Final = 60
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
    retreat=RetreatRules(movement_class="foot", cannot="eliminate", until_free=True),
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


CLASSES = {unit: mclass for unit, (_, _, mclass, _) in UNITS.items()}
MOVES = PieceMoves(
    REG, board, classes=lambda state: CLASSES,
    points=lambda state, side: lambda p: COUNTERS.value(state, p, "move"),
)  # fmt: skip
EDGES = {side: MAP.tagged(f"supply:{side}") for side in SIDES}
REPLACEMENTS: Replacements[Any] = Replacements(
    COUNTERS, places=edge_or_held(REG, MAP, EDGES, TOWN_CONTROL)
)


def move(state: State, action: Action) -> None:
    """``move PIECE HEX``: along the cheapest path, taking the towns it enters."""
    TOWN_CONTROL.enter(state, state.current_player(), MOVES.play(state, action))


MOVE: Kind[str] = Kind(
    "move",
    (
        Values(MOVES.movers, checked=True, means="a unit of yours that has not moved and can"),
        Values(MOVES.ends, means="a hex that unit can reach"),
    ),
    does=move,
)
VICTORY = ControlVictory(TOWN_CONTROL, "blue", "red", need=TOWNS_TO_WIN, what="towns")


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
            Phase("replacements", side=side, kinds=Kinds(REPLACEMENTS.kinds())),
            Phase("movement", side=side, scratch=("moved",), on_exit=occupy, kinds=Kinds((MOVE,))),
            COMBAT.phase("combat", side, on_exit=occupy, kinds=COMBAT.kinds),
        ),
    )


class Bridgehead(Ruleset):
    """Bridgehead (see the module docstring)."""

    name = "bridgehead"
    sides = SIDES
    decision_kinds = COMBAT.decision_kinds
    end = Stage("end", (Phase("attrition", on_enter=attrition),))
    sequence = TurnSequence(
        (side_stage("blue"), side_stage("red"), end), TURNS, on_turn_start=grant
    )

    def bounds(self) -> Bounds:
        """The token steps a framework allows a game: :data:`TOKENS_PER_TURN` a turn."""
        return Bounds(max_tokens=TURNS * TOKENS_PER_TURN)

    def observation_view(self) -> Any:
        """The board for learning agents: terrain and each side's units by step, by hex."""
        steps = max(len(COUNTERS.track(u)) for u in UNITS)

        def step(view: Any, unit: str) -> str:
            return str(view.get(COUNTERS.table, unit) or 0)

        return REG.observation_view(
            MAP, status=step, statuses=tuple(map(str, range(steps))), reads=(COUNTERS.table,)
        )

    def action_space(self) -> ActionSpace:
        labels = [MAP.label(c) for c in MAP]
        own = ActionSpace.of(["end", "move", "restore", "rebuild"])
        return own.merged(COMBAT.action_space(UNITS, labels))

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        for unit, (side, _, _, start) in UNITS.items():
            REG.place(state, unit, cell(start), side)
        TOWN_CONTROL.set_up(state, {cell(t): "red" for t in TOWNS})

    def final_outcome(self, state: State) -> Outcome:
        return VICTORY.outcome(state)
