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
    ActionSpace,
    Combat,
    Control,
    ControlVictory,
    DataError,
    GameMap,
    Outcome,
    Phase,
    PieceMoves,
    Pieces,
    Replacements,
    Ruleset,
    State,
    StepCounters,
    TurnSequence,
    edge_or_held,
    in_communication,
)

from .data import (
    COLUMNS,
    CRT,
    MAP,
    MUD_COST,
    REPLACEMENT_POINTS,
    ROWS,
    SIDES,
    TOWNS,
    TOWNS_TO_WIN,
    TURNS,
    UNITS,
    WEATHER,
    bridgehead_map,
    cell,
)  # fmt: skip

CLASSES = {unit: mclass for unit, (_, _, mclass, _) in UNITS.items()}
#: The largest map: labels have two digits a coordinate.
MAX_SIZE = 99
#: Token steps a turn a framework allows (both sides' three phases and the attrition):
#: about 2.5x the longest turn of 1,000 random games (``tests/test_interop_bounds.py``).
TOKENS_PER_TURN: Final = 60


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


class Parts:
    """Bridgehead's mechanisms wired to one map (the printed 9x7, or a larger one)."""

    def __init__(self, game_map: GameMap[Any]) -> None:
        self.map = game_map
        self.reg: Pieces[Any] = Pieces(game_map)
        self.counters = StepCounters({u: t for u, (_, t, _, _) in UNITS.items()}, pieces=self.reg)
        self.towns: Control[Any] = Control(game_map, [cell(t) for t in TOWNS])
        self.mud_map = game_map.with_movement_costs(
            [(mc, t, cost + (mc == "tracked" and t == "forest")) for mc in ("foot", "tracked")
             for t, cost in MUD_COST.items()]
        )  # fmt: skip
        self.combat = Combat(
            self.reg,
            self.counters,
            game_map,
            CRT,
            odds_rules={
                "terrain": {"forest": -1, "town": -2},
                "hexsides": [{"feature": "river", "shift": -1, "when": "all"}],
            },
            retreat={"movement_class": "foot", "cannot": "eliminate", "until_free": True},
            advance={"mode": "optional", "units": 1},
            exchange="points",
            exchange_lost="defence",
            exchange_paid="defence",
        )
        self.moves = PieceMoves(
            self.reg, self.board, classes=lambda state: CLASSES,
            points=lambda state, side: lambda p: self.counters.value(state, p, "move"),
        )  # fmt: skip
        self.edges = {side: tuple(game_map.tagged(f"supply:{side}")) for side in SIDES}
        self.replacements: Replacements[Any] = Replacements(
            self.counters, places=edge_or_held(self.reg, game_map, self.edges, self.towns)
        )
        self.victory = ControlVictory(self.towns, "blue", "red", need=TOWNS_TO_WIN, what="towns")
        self.sequence = TurnSequence.each_side(
            SIDES,
            self.side_phases,
            TURNS,
            end=(Phase("attrition", on_enter=self.attrition),),
            on_turn_start=self.grant,
        )

    def board(self, state: State) -> GameMap[Any]:
        """The map of this turn: mud makes every step dearer (``data.MUD_COST``)."""
        return self.mud_map if WEATHER[state.turn - 1] == "mud" else self.map

    def take_towns(self, state: State, path: list[Any]) -> None:
        """``move PIECE HEX`` goes along the cheapest path, taking the towns it enters."""
        self.towns.enter(state, state.current_player(), path)

    def occupy(self, state: State) -> None:
        """A town with a unit in it belongs to the unit's side (after advances)."""
        for town in self.towns.cells:
            held = self.reg.occupants(state, town)
            if held:
                self.towns.take(state, town, self.reg.side(state, held[0]))

    def attrition(self, state: State) -> None:
        """Every unit with no trace to its own map edge loses a step (traced from the
        units: the work follows them, not the map)."""
        reg = self.reg
        for side in SIDES:
            where = [reg.where(state, p) for p in reg.pieces_of(state, side)]
            supplied = in_communication(reg, self.map, state, side, self.edges[side], where)
            for piece in reg.pieces_of(state, side):
                if reg.where(state, piece) not in supplied:
                    self.counters.lose(state, piece)
        self.occupy(state)
        for side in SIDES:
            if not reg.pieces_of(state, side):
                state.end_game(Outcome(other(side), f"{side} has no units left"))
                return

    def grant(self, state: State) -> None:
        for side in SIDES:  # points are kept from turn to turn
            self.replacements.grant(state, side, REPLACEMENT_POINTS, keep=True)

    def side_phases(self, side: str) -> tuple[Phase, ...]:
        """Each side's phases: replacements, movement (taking towns on the way), combat."""
        return (
            self.replacements.phase("replacements", side),
            self.moves.phase("movement", side, self.take_towns,
                             cell="a hex that unit can reach", on_exit=self.occupy),
            self.combat.phase("combat", side, on_exit=self.occupy, kinds=self.combat.kinds),
        )  # fmt: skip


#: The printed game's parts, and their names as the tutorial and the tests use them.
PARTS = Parts(MAP)
REG, COUNTERS, TOWN_CONTROL, MUD_MAP = PARTS.reg, PARTS.counters, PARTS.towns, PARTS.mud_map
COMBAT, MOVES, EDGES, REPLACEMENTS = PARTS.combat, PARTS.moves, PARTS.edges, PARTS.replacements
VICTORY, board, take_towns, occupy = PARTS.victory, PARTS.board, PARTS.take_towns, PARTS.occupy
attrition, grant, side_phases = PARTS.attrition, PARTS.grant, PARTS.side_phases


class Bridgehead(Ruleset):
    """Bridgehead (see the module docstring); ``columns`` and ``rows`` set a larger map
    (the same units; Red's supply edge is the last column)."""

    name = "bridgehead"
    sides = SIDES
    decision_kinds = COMBAT.decision_kinds
    sequence = PARTS.sequence
    parts = PARTS
    max_tokens = TURNS * TOKENS_PER_TURN  # the token steps a framework allows a game

    def __init__(self, columns: int = COLUMNS, rows: int = ROWS) -> None:
        for what, n, low in (("columns", columns, COLUMNS), ("rows", rows, ROWS)):
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= MAX_SIZE:
                raise DataError(f"bridgehead: {what} must be from {low} to {MAX_SIZE}, not {n!r}")
        self.columns, self.rows = columns, rows
        if (columns, rows) != (COLUMNS, ROWS):
            self.parts = Parts(bridgehead_map(columns, rows))
            self.sequence = self.parts.sequence
            self.decision_kinds = self.parts.combat.decision_kinds

    def options(self) -> dict[str, int]:
        """The map size when it is not the printed 9x7."""
        size = {"columns": self.columns, "rows": self.rows}
        return {} if (self.columns, self.rows) == (COLUMNS, ROWS) else size

    def observation_view(self) -> Any:
        """The board for learning agents: terrain and each side's units by step, by hex."""
        counters = self.parts.counters
        steps = max(len(counters.track(u)) for u in UNITS)

        def step(view: Any, unit: str) -> str:
            return str(view.get(counters.table, unit) or 0)

        return self.parts.reg.observation_view(
            self.parts.map,
            status=step,
            statuses=tuple(map(str, range(steps))),
            reads=(counters.table,),
        )

    def action_space(self) -> ActionSpace:
        labels = [self.parts.map.label(c) for c in self.parts.map]
        own = ActionSpace.of(["end", "move", "restore", "rebuild"])
        return own.merged(self.parts.combat.action_space(UNITS, labels))

    def setup(self, state: State, scenario: str, options: Mapping[str, object]) -> None:
        for unit, (side, _, _, start) in UNITS.items():
            self.parts.reg.place(state, unit, cell(start), side)
        self.parts.towns.set_up(state, {cell(t): "red" for t in TOWNS})

    def final_outcome(self, state: State) -> Outcome:
        return self.parts.victory.outcome(state)
