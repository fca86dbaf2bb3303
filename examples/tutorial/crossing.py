"""«Переправа» (The Crossing): the game built step by step in ``docs/tutorial.md``, as an
importable module (for the registry and the frameworks, :mod:`hexwar.interop`).

The code is the tutorial's, with types, its declared bounds and ``perfect_information``;
``tests/examples/test_tutorial.py`` checks that the two play alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from hexwar import (
    Action,
    ActionSpace,
    Bounds,
    Decision,
    Hex,
    OddsTable,
    Outcome,
    Pieces,
    Ruleset,
    State,
    TurnSequence,
    build_map,
    chart_from_dict,
    hexagon,
    reachable,
)

__all__ = ["MAP", "PIECES", "START", "TOWN", "UNITS", "Crossing"]

CHART = chart_from_dict(
    {
        "terrain": {"clear": {}, "woods": {}, "town": {}},
        "movement": {
            "foot": {"terrain": {"clear": 1, "woods": 2, "town": 1}},
            "horse": {"terrain": {"clear": 1, "woods": 3, "town": 1}},
        },
    }
)
TOWN = Hex(0, 0)
_TERRAIN = dict.fromkeys(hexagon(2), "clear")
_TERRAIN.update({TOWN: "town", Hex(1, -1): "woods", Hex(-1, 1): "woods"})
MAP = build_map(CHART, _TERRAIN, name="The Crossing")
#: id: (side, movement class, movement allowance, strength)
UNITS: Mapping[str, tuple[str, str, int, int]] = {
    "b-inf": ("blue", "foot", 1, 2),
    "b-cav": ("blue", "horse", 2, 1),
    "r-inf": ("red", "foot", 1, 2),
    "r-cav": ("red", "horse", 2, 1),
}
START = {"b-inf": Hex(-2, 2), "b-cav": Hex(-2, 1), "r-inf": Hex(2, -1), "r-cav": Hex(2, -2)}
PIECES: Pieces[Hex] = Pieces()
CRT = OddsTable.build(
    columns=["1:2", "1:1", "2:1"],
    rows={
        1: ["AE", "NE", "DE"],
        2: ["AE", "NE", "DE"],
        3: ["AE", "DE", "DE"],
        4: ["NE", "DE", "DE"],
        5: ["NE", "AE", "DE"],
        6: ["AE", "AE", "NE"],
    },
    results={"AE": {"rank": -1}, "NE": {}, "DE": {"rank": 1, "eliminated": True}},
    dice="d6",
)
TURNS = 3


def other(side: str) -> str:
    return "red" if side == "blue" else "blue"


class Crossing(Ruleset):
    """The tutorial's ruleset."""

    name = "crossing"
    sides = ("blue", "red")
    # each side in turn moves, then attacks
    sequence = TurnSequence.each_side(("blue", "red"), ("move", "attack"), turn_limit=TURNS)
    perfect_information: ClassVar[bool] = True

    def bounds(self) -> Bounds:
        """Per side and turn: each unit moves once (5 tokens) and attacks once (4, and its
        roll 3), plus two phase ends (2 each)."""
        per_side = 2 * 5 + 2 * (4 + 3) + 2 * 2
        return Bounds(max_tokens=TURNS * 2 * per_side)

    def observation_view(self) -> Any:
        """The board for learning agents: terrain and each side's units, by hex."""
        return PIECES.observation_view(MAP)

    def action_space(self) -> ActionSpace:
        return ActionSpace.of(
            ["end", "move", "attack", "roll"],
            unit=UNITS,
            coordinate=range(-2, 3),
            die=range(1, 7),
        )

    def setup(self, state: State, scenario: str, options: Mapping[str, object]) -> None:
        for unit, h in START.items():
            PIECES.place(state, unit, h, UNITS[unit][0])

    def phase_actions(self, state: State, side: str) -> list[Action]:
        mine = PIECES.pieces_of(state, side)
        if state.phase == "move":
            moves = []
            for u in mine:
                if state.get("done", u) != state.turn:
                    _, cls, allowance, _ = UNITS[u]
                    here = PIECES.where(state, u)
                    friends, enemies = PIECES.friends_enemies(state, side, exclude=u)
                    reach = reachable(MAP, here, cls, allowance, friends=friends, enemies=enemies)
                    moves += [Action.of("move", u, h.q, h.r) for h in reach.costs if h != here]
            return moves
        foes = PIECES.positions(state, other(side))
        return [
            Action.of("attack", u, foes[n][0])
            for u in mine
            if state.get("fired", u) != state.turn
            for n in PIECES.where(state, u).neighbors()
            if n in foes
        ]

    def play(self, state: State, action: Action) -> None:
        unit = action.args[0]
        if action.kind == "move":
            PIECES.move(state, unit, Hex(action.int_arg(1), action.int_arg(2)))
            state.put("done", unit, state.turn)  # one move per unit and turn
        else:
            state.put("fired", unit, state.turn)
            state.push(Decision.roll("roll", params=action.args))

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        attacker, defender = (str(p) for p in decision.params)
        roll = decision.rolled(action)
        result = CRT.resolve(UNITS[attacker][3], UNITS[defender][3], roll=roll)
        loser = {"AE": attacker, "DE": defender}.get(result.code)
        if loser is not None:
            PIECES.remove(state, loser)
            side = UNITS[loser][0]
            if not PIECES.pieces_of(state, side):
                state.end_game(Outcome(other(side), f"the {side} force is destroyed"))

    def final_outcome(self, state: State) -> Outcome:
        holder = next((UNITS[u][0] for u in PIECES.occupants(state, TOWN)), None)
        return Outcome(holder, "holds the town" if holder else "nobody holds the town")
