"""The combat pipeline (hexwar.mechanics.combat): declaration, odds, roll, result program.

A toy two-side game (tests' own, not a real one) uses the pipeline alone: a move phase
(one hex per unit) and a combat phase per side, units with step tracks, a CRT with every
kind of result part. The kit plays it at random under several rule variants.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import pytest

from hexwar.base.errors import DataError, NotLegalNow
from hexwar.board.maps import build_map, hexagon
from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.board.stacking import max_units
from hexwar.board.terrain import chart_from_dict
from hexwar.engine.actions import Action, Outcome, Value
from hexwar.engine.kinds import Kind, Kinds, Values
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.combat import (
    AdvanceRules,
    Attack,
    Combat,
    HexsideShift,
    OddsRules,
    ResultForms,
    ResultHooks,
)
from hexwar.mechanics.crt import OddsTable
from hexwar.mechanics.crt_values import CombatResult
from hexwar.mechanics.retreat import RetreatRules
from hexwar.mechanics.steps import StepCounters, StepTrack, cheapest_cover
from hexwar.testing import check_random_games, check_rejects

# -- the toy game -----------------------------------------------------------------------

CHART = chart_from_dict(
    {
        "terrain": {"clear": {}, "forest": {}, "lake": {"impassable": True}},
        "hexside": {"river": {}, "bridge": {"negates": ["river"]}},
        "movement": {"foot": {"terrain": {"clear": 1, "forest": 2}, "hexside": {"river": 1}}},
    }
)
FOREST, LAKE = Hex(2, 0), Hex(-3, 3)
RIVER = (Hex(-1, -1), Hex(0, -1))  # the hexside between these two cells
BOARD = build_map(
    CHART,
    dict.fromkeys(hexagon(3), "clear") | {FOREST: "forest", LAKE: "lake"},
    hexsides={RIVER: {"river"}},
)
CELLS = tuple(HEX_CODEC.label(c) for c in BOARD)

#: d6 rows for the columns 1:2 1:1 2:1 3:1 (column 2:1: 1 NE, 2 DL, 3 DR2, 4 EX, 5 DLR, 6 DE)
CRT = OddsTable.build(
    name="toy-crt",
    columns=["1:2", "1:1", "2:1", "3:1"],
    rows={
        1: ["AL", "AL", "NE", "DL"],
        2: ["AL", "NE", "DL", "DR2"],
        3: ["NE", "DL", "DR2", "DLR"],
        4: ["DL", "EX", "EX", "EX"],
        5: ["DR2", "DR2", "DLR", "DE"],
        6: ["EX", "DLR", "DE", "DE"],
    },
    results=[
        CombatResult("AL", rank=-1, attacker_steps=1),
        CombatResult("NE"),
        CombatResult("DL", rank=1, defender_steps=1),
        CombatResult("EX", rank=1, defender_steps=1, flags=["exchange"]),
        CombatResult("DR2", rank=2, retreat=2),
        CombatResult("DLR", rank=3, defender_steps=1, retreat=1),
        CombatResult("DE", rank=4, eliminated=True),
    ],
    rule="T7.1",
)
RIFLES = StepTrack.of({"attack": 4, "defence": 4}, {"attack": 2, "defence": 2})
TANKS = StepTrack.of(
    {"attack": 6, "defence": 3}, {"attack": 3, "defence": 2}, {"attack": 1, "defence": 1}
)
TRACKS = {"r1": RIFLES, "r2": RIFLES, "r3": TANKS, "r4": RIFLES}
TRACKS |= {"b1": RIFLES, "b2": RIFLES, "b3": TANKS, "b4": RIFLES}
REG = Pieces(HEX_CODEC)
COUNTERS = StepCounters(TRACKS, pieces=REG)
LIMIT = max_units(2, rule="T5.2")
START = {
    "r1": (Hex(-1, 0), "red"),
    "r2": (Hex(-1, 1), "red"),
    "r3": (Hex(-2, 1), "red"),
    "r4": (Hex(-2, 1), "red"),
    "b1": (Hex(1, 0), "blue"),
    "b2": (Hex(1, -1), "blue"),
    "b3": (Hex(2, -1), "blue"),
    "b4": (Hex(2, -1), "blue"),
}


def make_combat(**kw: Any) -> Combat:
    kw.setdefault("odds_rules", OddsRules(terrain={"forest": -1}, rule="T7.2"))
    kw.setdefault("limit", LIMIT)
    return Combat(REG, COUNTERS, BOARD, CRT, **kw)


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


def movers(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    return [p for p in REG.pieces_of(state, side) if not state.get("moved", p)]


def destinations(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    here = REG.where(state, args[0])
    out = []
    for n in BOARD.neighbors(here):
        there = REG.occupants(state, n)
        if BOARD.cost(here, n, "foot") is None or any(REG.side(state, p) != side for p in there):
            continue
        if LIMIT((*there, args[0])) is None:
            out.append(HEX_CODEC.label(n))
    return out


MOVE: Kinds[str] = Kinds((Kind("move", (Values(movers), Values(destinations))),))


class Toy(Ruleset):
    """Two sides, each turn: red moves and attacks, then blue; three turns."""

    name = "combat-toy"
    sides = ("red", "blue")

    def __init__(
        self, combat: Combat, start: Mapping[str, tuple[Hex, str]] = START, turns: int = 3
    ) -> None:
        self.combat, self.start = combat, start
        stages = tuple(
            Stage(
                side,
                (
                    Phase(f"{side}-move", side=side, scratch=("moved",)),
                    combat.phase(f"{side}-combat", side),
                ),
            )
            for side in self.sides
        )
        self.sequence = TurnSequence(stages, turn_limit=turns)

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        for piece, (cell, side) in sorted(self.start.items()):
            REG.place(state, piece, cell, side)

    def action_space(self) -> ActionSpace:
        return ActionSpace(("end", "move")).merged(self.combat.action_space(TRACKS, CELLS))

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[str, ...]:
        phase = state.phase or ""
        kinds = MOVE if phase.endswith("move") else self.combat.kinds
        return kinds.tokens(state, side, prefix)

    def step_meaning(self, state: State, prefix: tuple[str, ...]) -> str | None:
        return None if (state.phase or "").endswith("move") else self.combat.meaning(prefix)

    def play(self, state: State, action: Action) -> None:
        if action.kind == "move":
            REG.move(state, action.args[0], HEX_CODEC.cell_at(action.args[1]))
            state.put("moved", action.args[0], True)
        else:
            assert self.combat.play(state, action)

    def decide(self, state: State, decision: Any, action: Action) -> None:
        assert self.combat.decide(state, decision, action)

    def final_outcome(self, state: State) -> Outcome:
        steps = {
            s: sum(len(TRACKS[p]) - COUNTERS.step(state, p) for p in REG.pieces_of(state, s))
            for s in self.sides
        }
        if steps["red"] == steps["blue"]:
            return Outcome(None, "equal steps")
        return Outcome(max(steps, key=steps.__getitem__), "more steps left")


def fight(combat: Combat, start: Mapping[str, tuple[Hex, str]]) -> State:
    """A state at red's combat phase, with only ``start`` on the map."""
    state = Toy(combat, start).new_state()
    state.apply("end")  # red's move phase
    assert state.phase == "red-combat"
    return state


def legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def lab(cell: Hex) -> str:
    return HEX_CODEC.label(cell)


def step_of(state: State, piece: str) -> int:
    return COUNTERS.step(state, piece)


# -- the kit ----------------------------------------------------------------------------

VARIANTS = {
    "at-once": {},
    "chosen-points": {"resolution": "chosen", "exchange": "points"},
    "attacker-retreats-zoc-step": {
        "retreat": RetreatRules(chooser="attacker", enemy_zoc="step", cannot="step"),
        "advance": AdvanceRules(mode="obligatory", units=None, along_path=True),
    },
    "lowest-and-automatic": {
        "odds_rules": OddsRules(
            terrain={"forest": -1},
            hexsides=(HexsideShift("river", -1, when="any"),),
            below="lowest",
            above="DE",
        ),
        "shift": lambda state, attack: len(attack.attackers) - 1,
        "advance": AdvanceRules(mode="none"),
    },
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_toy_game_passes_the_kit(variant: str) -> None:
    combat = make_combat(**VARIANTS[variant])
    report = check_random_games(lambda: Toy(combat, turns=6).new_state(), games=12, seed=0)
    assert report.ok, report.violations[:3]
    assert report.terminal == 12
    assert report.steps > 12 * 20  # six turns of moves and combats each


def test_random_games_reach_every_part_of_the_program() -> None:
    """The kit's games go through losses, exchanges, retreats and advances (the kit above
    checks something that happens)."""
    import random

    from hexwar.engine.loop import sample_action

    combat = make_combat(resolution="chosen", exchange="points")
    seen: set[str] = set()
    rng = random.Random(1)
    for _ in range(40):
        state = Toy(combat, turns=6).new_state()
        while not state.is_terminal():
            if state.pending:
                seen.add(state.pending[-1].kind)
            state.apply(sample_action(state, rng))
    assert seen >= {f"combat_{k}" for k in ("roll", "loss", "pay", "retreat", "advance")}


# -- odds -------------------------------------------------------------------------------


def test_odds_sum_terrain_hexside_and_side_shifts() -> None:
    start = {"r1": (Hex(1, 0), "red"), "r2": (Hex(3, -1), "red"), "b1": (FOREST, "blue")}
    plain = make_combat()
    state = fight(plain, start)
    odds = plain.odds(state, "red", lab(FOREST), ("r1", "r2"))
    assert (odds.attack, odds.defence, odds.column, odds.shift) == (8, 4, "1:1", -1)  # 2:1 -1
    side = make_combat(shift=lambda s, a: 1 if len(a.attackers) > 1 else 0)
    assert side.odds(state, "red", lab(FOREST), ("r1", "r2")).column == "2:1"
    assert side.odds(state, "red", lab(FOREST), ("r1",)).column == "1:2"  # 1:1 -1


def test_hexside_shifts_for_all_or_any_attacker_across() -> None:
    # b1 in Hex(0, -1); r1 across the river in Hex(-1, -1), r2 not in Hex(1, -1)
    start = {"r1": (RIVER[0], "red"), "r2": (Hex(1, -1), "red"), "b1": (RIVER[1], "blue")}
    every = make_combat(odds_rules=OddsRules(hexsides=(HexsideShift("river", -1),)))
    anyone = make_combat(odds_rules=OddsRules(hexsides=(HexsideShift("river", -1, "any"),)))
    state = fight(every, start)
    assert every.odds(state, "red", lab(RIVER[1]), ("r1",)).shift == -1
    assert every.odds(state, "red", lab(RIVER[1]), ("r1", "r2")).shift == 0
    assert anyone.odds(state, "red", lab(RIVER[1]), ("r1", "r2")).shift == -1
    assert anyone.odds(state, "red", lab(RIVER[1]), ("r2",)).shift == 0


def test_below_the_lowest_column_is_refused_by_default() -> None:
    # r1 (attack 2 when reduced) against b1 + b2 (defence 8): 1:4 is below 1:2
    start = {"r1": (Hex(0, 0), "red"), "b1": (Hex(1, 0), "blue"), "b2": (Hex(1, 0), "blue")}
    combat = make_combat()
    state = fight(combat, start)
    COUNTERS.lose(state, "r1")
    odds = combat.odds(state, "red", lab(Hex(1, 0)), ("r1",))
    assert odds.refused
    assert odds.column is None
    assert "attack 1,0 r1" not in legal(state)
    err = check_rejects(state, Action.parse("attack 1,0 r1"))
    assert isinstance(err, NotLegalNow)
    assert state.legal_tokens(("attack",)) == ()  # no defender has a legal attacker group


def test_below_lowest_fights_on_it_or_takes_an_automatic_result() -> None:
    start = {"r1": (Hex(0, 0), "red"), "b1": (Hex(1, 0), "blue"), "b2": (Hex(1, 0), "blue")}
    lowest = make_combat(odds_rules=OddsRules(below="lowest"))
    state = fight(lowest, start)
    assert lowest.odds(state, "red", "1,0", ("r1",)).column == "1:2"  # 4:8 is 1:2 itself
    COUNTERS.lose(state, "r1")  # 2:8
    assert lowest.odds(state, "red", "1,0", ("r1",)).column == "1:2"
    automatic = make_combat(odds_rules=OddsRules(below="AL"))
    state = fight(automatic, start)
    COUNTERS.lose(state, "r1")
    assert automatic.odds(state, "red", "1,0", ("r1",)).automatic == "AL"
    state.apply("attack 1,0 r1")  # no roll: the attacker loses its last step at once
    assert not state.is_chance_node()
    assert COUNTERS.is_eliminated(state, "r1")


def test_above_the_highest_column_is_the_highest_or_automatic() -> None:
    start = {"r3": (Hex(0, 0), "red"), "r1": (Hex(0, 1), "red"), "b1": (Hex(1, 0), "blue")}
    plus = make_combat(shift=lambda s, a: 2)
    state = fight(plus, start)
    assert plus.odds(state, "red", "1,0", ("r1", "r3")).column == "3:1"  # 10:4 2:1 +2
    auto = make_combat(shift=lambda s, a: 2, odds_rules=OddsRules(above="DE"))
    assert auto.odds(state, "red", "1,0", ("r1", "r3")).automatic == "DE"
    assert auto.distribution(state, "red", "1,0", ("r1", "r3")).probability("DE") == 1


# -- declaration ------------------------------------------------------------------------


def test_one_attack_per_attacker_and_per_defender_per_phase() -> None:
    start = {
        "r1": (Hex(0, 0), "red"),
        "r2": (Hex(0, 1), "red"),
        "b1": (Hex(1, 0), "blue"),
        "b2": (Hex(-1, 1), "blue"),
    }
    combat = make_combat()
    state = fight(combat, start)
    assert state.legal_tokens(("attack",)) == ("-1,1", "1,0")
    assert state.legal_tokens(("attack", "1,0")) == ("r1", "r2")
    assert state.legal_tokens(("attack", "1,0", "r1")) == ("done", "r2")
    state.apply("attack 1,0 r1")
    state.apply("roll 1")  # 1:1 roll 1: AL, r1 loses a step
    assert step_of(state, "r1") == 1
    assert state.phase == "red-combat"
    assert state.legal_tokens(("attack",)) == ("-1,1",)  # 1,0 was attacked
    assert state.legal_tokens(("attack", "-1,1")) == ("r2",)  # r1 has attacked
    err = check_rejects(state, Action.parse("attack -1,1 r1"))
    assert "`r1` may not follow `attack -1,1`" in err.reason
    assert "has not attacked this phase" in err.reason
    err = check_rejects(state, Action.parse("attack 1,0 r2"))
    assert "a cell of enemy units you may attack now" in err.reason


def test_the_declarations_are_cleared_for_the_next_phase() -> None:
    start = {"r1": (Hex(0, 0), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat()
    state = fight(combat, start)
    state.apply("attack 1,0 r1")
    state.apply("roll 2")  # NE
    assert state.phase == "blue-move"  # red had nothing left to attack with
    assert state.table(combat.attackers_table) == {"r1": "1,0"}
    state.apply("end")  # blue moves nothing
    assert state.phase == "blue-combat"
    assert not state.table(combat.attackers_table)
    assert "attack 0,0 b1" in legal(state)


def test_attacks_declared_first_then_resolved_in_the_chosen_order() -> None:
    start = {
        "r1": (Hex(0, 0), "red"),
        "r2": (Hex(0, 1), "red"),
        "b1": (Hex(1, 0), "blue"),
        "b2": (Hex(-1, 1), "blue"),
    }
    combat = make_combat(resolution="chosen")
    state = fight(combat, start)
    state.apply("attack 1,0 r1")
    assert not state.is_chance_node()  # recorded, not rolled
    assert "end" not in legal(state)  # a declared attack waits
    state.apply("attack -1,1 r2")
    assert legal(state) == ["resolve -1,1", "resolve 1,0"]
    state.apply("resolve -1,1")
    assert state.is_chance_node()
    state.apply("roll 2")  # NE
    assert legal(state) == ["resolve 1,0"]  # no more declarations after a resolution
    state.apply("resolve 1,0")
    state.apply("roll 2")
    assert state.phase == "blue-move"  # nothing left: the phase ended by itself


# -- losses and exchanges ---------------------------------------------------------------


def test_the_owner_chooses_which_unit_of_the_stack_loses_the_step() -> None:
    # r1 + r3 (10) against b1 + b2 (8): 1:1, roll 3 DL
    start = {
        "r1": (Hex(0, 0), "red"),
        "r3": (Hex(1, -1), "red"),
        "b1": (Hex(1, 0), "blue"),
        "b2": (Hex(1, 0), "blue"),
    }
    combat = make_combat()
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r3")
    state.apply("roll 3")
    assert state.current_player() == "blue"
    assert legal(state) == ["lose b1", "lose b2"]
    state.apply("lose b2")
    assert (step_of(state, "b1"), step_of(state, "b2")) == (0, 1)
    assert not combat.in_progress(state)  # DL: no retreat, the defender held, no advance


def test_a_single_candidate_loses_at_once() -> None:
    start = {"r1": (Hex(0, 0), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat()
    state = fight(combat, start)
    state.apply("attack 1,0 r1")
    state.apply("roll 3")  # 1:1 DL
    assert step_of(state, "b1") == 1
    assert not state.pending
    assert state.phase == "blue-move"  # red has no attack left: the phase is over


def test_an_exchange_by_steps_costs_the_attackers_as_many_steps() -> None:
    # r1 + r2 (8) against b1 (4): 2:1, roll 4 EX
    start = {"r1": (Hex(0, 0), "red"), "r2": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat()
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 4")
    assert step_of(state, "b1") == 1
    assert state.current_player() == "red"
    assert legal(state) == ["lose r1", "lose r2"]
    state.apply("lose r2")
    assert (step_of(state, "r1"), step_of(state, "r2")) == (0, 1)
    assert not combat.in_progress(state)


def test_an_exchange_by_points_offers_the_minimal_covers() -> None:
    # b1 loses a step: 4 - 2 = 2 printed defence; r1 pays 2 (4 -> 2), r3 pays 3 (6 -> 3)
    start = {"r1": (Hex(0, 0), "red"), "r3": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat(exchange="points")
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r3")  # 10:4: 2:1
    state.apply("roll 4")  # EX
    want = cheapest_cover(COUNTERS, state, ["r1", "r3"], 2, "attack")
    assert want == [("r1",), ("r3",)]
    assert legal(state) == ["pay r1", "pay r3"]
    state.apply("pay r3")
    assert (step_of(state, "r1"), step_of(state, "r3")) == (0, 1)


def test_an_exchange_by_points_can_take_several_steps() -> None:
    # b1 is eliminated by EX when reduced: 2 points; r3 reduced twice pays 3-1 = 2, or r1 2
    start = {"r1": (Hex(0, 0), "red"), "r3": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat(exchange="points")
    state = fight(combat, start)
    COUNTERS.lose(state, "b1")
    COUNTERS.lose(state, "r1")  # r1 has 2 left: it pays 2 (its last step)
    state.apply("attack 1,0 r1 r3")  # 8:2: 3:1 (4:1 on top)
    state.apply("roll 4")  # EX: b1 is gone
    assert COUNTERS.is_eliminated(state, "b1")
    assert legal(state) == ["pay r1", "pay r3"]
    state.apply("pay r1")
    assert COUNTERS.is_eliminated(state, "r1")
    # the defender's cell is empty: the advance follows (optional, one unit)
    assert legal(state) == ["advance r3 1,0", "stop"]


# -- retreats ---------------------------------------------------------------------------


def test_a_retreat_of_two_cells_is_chosen_cell_by_cell_by_its_owner() -> None:
    start = {"r1": (Hex(0, 0), "red"), "r2": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat()
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")  # 2:1 DR2
    # straight away from 1,0, out of the ZOC of r1 (0,0) and r2 (1,-1): not 0,1 or 2,-1
    assert state.current_player() == "blue"
    assert legal(state) == ["retreat 1,1", "retreat 2,0"]
    state.apply("retreat 2,0")
    assert legal(state) == ["retreat 2,1", "retreat 3,-1", "retreat 3,0"]  # 2 from 1,0
    state.apply("retreat 3,-1")
    assert REG.where(state, "b1") == Hex(3, -1)
    assert legal(state) == ["advance r1 1,0", "advance r2 1,0", "stop"]


def test_a_retreat_through_friends_leaves_them_where_they_are() -> None:
    start = {
        "r1": (Hex(0, 0), "red"),
        "r2": (Hex(1, -1), "red"),
        "b1": (Hex(1, 0), "blue"),
        "b2": (Hex(1, 1), "blue"),
        "b4": (Hex(1, 1), "blue"),
    }
    combat = make_combat(limit=max_units(3))
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")  # 2:1 DR2
    state.apply("retreat 1,1")  # into b2 and b4's cell, then on
    assert REG.occupants(state, Hex(1, 1)) == ("b2", "b4", "b1")
    assert legal(state) == ["retreat 0,2", "retreat 1,2", "retreat 2,1"]
    state.apply("retreat 2,1")
    assert REG.occupants(state, Hex(1, 1)) == ("b2", "b4")
    assert REG.where(state, "b1") == Hex(2, 1)


def test_the_attacker_may_choose_the_retreat() -> None:
    start = {"r1": (Hex(0, 0), "red"), "r2": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat(retreat=RetreatRules(chooser="attacker"))
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")
    assert state.current_player() == "red"
    assert legal(state) == ["retreat 1,1", "retreat 2,0"]


def test_entering_an_enemy_zoc_may_cost_a_step() -> None:
    # b1 in 1,0 retreats 1 (DLR); every cell away is in red's ZOC but 2,0 (forest)...
    start = {
        "r1": (Hex(0, 0), "red"),
        "r2": (Hex(1, -1), "red"),
        "r4": (Hex(3, -1), "red"),
        "b1": (Hex(1, 0), "blue"),
    }
    combat = make_combat(retreat=RetreatRules(enemy_zoc="step"))
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 5")  # 2:1 DLR: a step, then 1 cell
    assert step_of(state, "b1") == 1
    assert legal(state) == ["retreat 0,1", "retreat 1,1", "retreat 2,-1", "retreat 2,0"]
    state.apply("retreat 2,0")  # in the ZOC of r4: its last step
    assert COUNTERS.is_eliminated(state, "b1")
    assert legal(state) == ["advance r1 1,0", "advance r2 1,0", "stop"]


def test_a_stack_that_cannot_retreat_is_eliminated_or_loses_a_step() -> None:
    # b1 in 1,0 ringed by red units and their ZOC: no retreat at all
    start = {
        "r1": (Hex(0, 0), "red"),
        "r2": (Hex(1, -1), "red"),
        "r3": (Hex(2, 0), "red"),
        "r4": (Hex(0, 2), "red"),
        "b1": (Hex(1, 0), "blue"),
    }
    eliminate = make_combat()
    state = fight(eliminate, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")  # DR2
    assert COUNTERS.is_eliminated(state, "b1")
    stepped = make_combat(retreat=RetreatRules(cannot="step"))
    state = fight(stepped, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")
    assert step_of(state, "b1") == 1
    assert REG.where(state, "b1") == Hex(1, 0)
    assert not stepped.in_progress(state)  # the defender held: no advance


def test_a_retreat_never_crosses_what_the_data_closes() -> None:
    start = {"r1": (Hex(1, -1), "red"), "b1": (RIVER[1], "blue")}  # b1 in 0,-1
    shut = make_combat(retreat=RetreatRules(away="any", uncrossable={"river"}, enemy_zoc="ignore"))
    state = fight(shut, start)
    state.apply("attack 0,-1 r1")
    state.apply("roll 5")  # 1:1 DR2
    firsts = {a.args[0] for a in state.legal_actions()}
    assert lab(RIVER[0]) not in firsts
    assert lab(Hex(1, -1)) not in firsts  # never into the enemy


# -- advance after combat ---------------------------------------------------------------


def test_no_advance_or_an_obligatory_one() -> None:
    start = {"r1": (Hex(0, 0), "red"), "r2": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    none = make_combat(advance=AdvanceRules(mode="none"))
    state = fight(none, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 6")  # 2:1 DE
    assert not none.in_progress(state)
    assert not REG.occupants(state, Hex(1, 0))
    must = make_combat(advance=AdvanceRules(mode="optional", by_result={"DE": "obligatory"}))
    state = fight(must, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 6")
    assert legal(state) == ["advance r1 1,0", "advance r2 1,0"]  # no stop
    state.apply("advance r1 1,0")
    assert REG.where(state, "r1") == Hex(1, 0)
    assert not must.in_progress(state)  # one unit advances


def test_several_units_may_advance_and_follow_the_retreat_path() -> None:
    start = {"r1": (Hex(0, 0), "red"), "r2": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat(advance=AdvanceRules(units=None, along_path=True, movement_class="foot"))
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")  # DR2
    state.apply("retreat 1,1")
    state.apply("retreat 1,2")
    assert legal(state) == ["advance r1 1,0", "advance r1 1,1", "advance r2 1,0",
                            "advance r2 1,1", "stop"]  # fmt: skip
    state.apply("advance r1 1,1")
    assert legal(state) == ["advance r2 1,0", "advance r2 1,1", "stop"]
    state.apply("advance r2 1,1")  # two units fit the stacking limit
    assert REG.occupants(state, Hex(1, 1)) == ("r1", "r2")
    assert not combat.in_progress(state)


# -- save, load and undo in the middle of a combat ---------------------------------------


def test_save_load_and_undo_between_the_decisions_of_a_result() -> None:
    start = {"r1": (Hex(0, 0), "red"), "r2": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat()
    rules = Toy(combat, start)
    state = rules.new_state()
    state.apply("end")
    before = dumps(state)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")
    state.apply("retreat 2,0")  # half-way through a 2-cell retreat
    assert combat.in_progress(state)
    copy = loads(rules, dumps(state))
    assert copy == state
    for s in (state, copy):
        s.apply("retreat 3,-1")
        s.apply("advance r2 1,0")
    assert copy == state
    for _ in range(5):
        state.undo()
    assert dumps(state) == before


def test_an_attack_by_a_unit_that_may_not_attack_is_refused() -> None:
    start = {"r1": (Hex(0, 0), "red"), "r2": (Hex(0, 1), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat(may_attack=lambda state, piece: piece != "r2")
    state = fight(combat, start)
    assert state.legal_tokens(("attack", "1,0")) == ("r1",)
    check_rejects(state, Action.parse("attack 1,0 r1 r2"))


def test_side_conditions_see_the_attack() -> None:
    seen: list[Attack] = []

    def note(state: State, attack: Attack) -> int:
        seen.append(attack)
        return 0

    start = {"r1": (Hex(0, 0), "red"), "b1": (Hex(1, 0), "blue")}
    combat = make_combat(shift=note)
    state = fight(combat, start)
    combat.odds(state, "red", "1,0", ("r1",))
    assert seen[-1] == Attack("red", "1,0", ("r1",))


# -- a game's own forms and hooks (ResultForms, ResultHooks) ----------------------------

#: A game spelling its decisions in its own words (as «Сталинград» does, S8.4).
FORMS = ResultForms(
    kinds={"aloss": "al_loss", "pay": "ex_loss", "retreat": "retreat", "advance": "advance"},
    lose="loss",
    stop=("advance", "none"),
    advance_cell=False,
    always_ask={"retreat"},
    attacker_loss_by="defender",
)
DUEL = {"r1": (Hex(0, 0), "red"), "r2": (Hex(1, -1), "red"), "b1": (Hex(1, 0), "blue")}


def test_the_game_spells_the_advance_and_its_refusal() -> None:
    combat = make_combat(forms=FORMS)
    state = fight(combat, DUEL)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 6")  # 2:1 DE
    decision = state.pending[-1]
    assert (decision.kind, decision.params[0]) == ("advance", "1,0")  # the vacated cell
    assert legal(state) == ["advance none", "advance r1", "advance r2"]
    state.apply("advance r2")
    assert REG.where(state, "r2") == Hex(1, 0)
    assert not combat.in_progress(state)


def test_a_part_in_always_ask_is_asked_even_with_one_answer() -> None:
    def only(state: State, cell: str, movers: tuple[str, ...]) -> list[str]:
        return ["2,0"] if cell == "1,0" else ["3,-1"]  # the game's one retreat hex

    asked = make_combat(forms=FORMS, hooks=ResultHooks(retreat_cells=only))
    state = fight(asked, DUEL)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")  # 2:1 DR2: the hook offers one cell, asked anyway
    decision = state.pending[-1]
    assert (decision.kind, decision.params[0], state.current_player()) == ("retreat", "b1", "blue")
    assert legal(state) == ["retreat 2,0"]
    quiet = make_combat(hooks=ResultHooks(retreat_cells=only))
    state = fight(quiet, DUEL)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 3")
    assert REG.where(state, "b1") == Hex(3, -1)  # both cells taken at once, no decision
    assert legal(state) == ["advance r1 1,0", "advance r2 1,0", "stop"]


def test_the_defender_may_choose_the_attacker_that_loses() -> None:
    start = DUEL | {"b2": (Hex(1, 0), "blue")}
    combat = make_combat(forms=FORMS)
    state = fight(combat, start)
    state.apply("attack 1,0 r1 r2")  # 8:8 1:1
    state.apply("roll 1")  # AL
    assert (state.pending[-1].kind, state.current_player()) == ("al_loss", "blue")
    assert legal(state) == ["loss r1", "loss r2"]
    state.apply("loss r2")
    assert (step_of(state, "r1"), step_of(state, "r2")) == (0, 1)


def test_a_stepwise_exchange_is_paid_a_step_at_a_time_same_kind_first() -> None:
    # b1 (rifles) loses both steps: 4 printed defence; r1, r2 are rifles, r3 tanks
    start = DUEL | {"r3": (Hex(0, 1), "red")}

    def kind_of(piece: str) -> str:
        return "tank" if piece in ("r3", "b3") else "rifle"

    combat = make_combat(
        forms=attrs.evolve(FORMS, exchange_codes={"XX"}),
        hooks=ResultHooks(kind_of=kind_of),
        exchange="stepwise",
        exchange_paid="defence",
    )
    state = fight(combat, start)
    exchange = CombatResult("XX", defender_steps=2, attacker_steps=1)  # no flag: by its code
    combat.execute(state, "1,0", ("r1", "r2", "r3"), exchange)
    assert COUNTERS.is_eliminated(state, "b1")
    assert (state.pending[-1].kind, legal(state)) == ("ex_loss", ["loss r1", "loss r2"])
    state.apply("loss r1")  # 2 of 4 paid: asked again
    assert legal(state) == ["loss r1", "loss r2"]
    state.apply("loss r1")  # 4 of 4: paid, no further attacker loss (the exchange is it)
    assert COUNTERS.is_eliminated(state, "r1")
    assert (step_of(state, "r2"), step_of(state, "r3")) == (0, 0)
    assert legal(state) == ["advance none", "advance r2", "advance r3"]
    # no attacker of the defender's kind (tanks): any attacker pays
    tanks = {"r1": DUEL["r1"], "r2": DUEL["r2"], "b3": (Hex(1, 0), "blue")}
    state = fight(combat, tanks)
    combat.execute(state, "1,0", ("r1", "r2"), CombatResult("XX", eliminated=True))
    assert legal(state) == ["loss r1", "loss r2"]


def test_a_forbidden_retreat_costs_a_step_or_the_stack() -> None:
    never = ResultHooks(may_retreat=lambda state, piece: piece != "b1")
    for forbidden, eliminated in (("step", False), ("eliminate", True)):
        combat = make_combat(hooks=never, retreat=RetreatRules(forbidden=forbidden))
        state = fight(combat, DUEL)
        state.apply("attack 1,0 r1 r2")
        state.apply("roll 3")  # 2:1 DR2, but b1 may not retreat
        assert COUNTERS.is_eliminated(state, "b1") is eliminated
        if not eliminated:
            assert (REG.where(state, "b1"), step_of(state, "b1")) == (Hex(1, 0), 1)
            assert not combat.in_progress(state)  # it held: no advance


def test_the_game_decides_who_may_advance() -> None:
    only_r2 = ResultHooks(may_advance=lambda state, piece, cell: piece == "r2" and cell == "1,0")
    combat = make_combat(hooks=only_r2, advance=AdvanceRules(mode="obligatory"))
    state = fight(combat, DUEL)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 6")  # DE: one candidate, obligatory: it advances at once
    assert REG.where(state, "r2") == Hex(1, 0)
    assert not state.pending


def test_result_forms_refuse_unknown_parts() -> None:
    with pytest.raises(DataError, match="result part 'defender'"):
        ResultForms(kinds={"defender": "x"})
    with pytest.raises(DataError, match="attacker_loss_by"):
        ResultForms(attacker_loss_by="nobody")  # type: ignore[arg-type]
    with pytest.raises(DataError, match="forbidden"):
        RetreatRules(forbidden="ignore")  # type: ignore[arg-type]


# -- issue 30: one stacking default; retreats through friends -------------------------------

CROWDED = {
    "r1": (Hex(0, 0), "red"),
    "r2": (Hex(0, 1), "red"),
    "b1": (Hex(1, 0), "blue"),
    "b2": (Hex(2, -1), "blue"),
    "b3": (Hex(2, 0), "blue"),
    "b4": (Hex(1, 1), "blue"),
}


def test_a_retreat_ends_one_unit_per_cell_by_default_like_movement() -> None:
    """``Combat`` without a ``limit`` stacks as movement does (``ONE_PER_CELL``): b1's
    only ways back hold friends, so it cannot retreat and is eliminated (DLR, 2:1, 5)."""
    from hexwar.board.stacking import ONE_PER_CELL

    combat = Combat(REG, COUNTERS, BOARD, CRT)
    assert combat.limit is ONE_PER_CELL
    state = fight(combat, CROWDED)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 5")
    assert COUNTERS.is_eliminated(state, "b1")
    assert not any(a.kind == "retreat" for a in state.legal_actions())


def test_a_retreat_until_free_goes_on_through_friends_to_an_empty_cell() -> None:
    """``RetreatRules(until_free=True)`` (*Battle for Moscow*): the retreat into a friend's
    cell goes on, a cell at a time, until it ends where the limit allows."""
    combat = Combat(REG, COUNTERS, BOARD, CRT, retreat=RetreatRules(until_free=True))
    state = fight(combat, CROWDED)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 5")
    assert legal(state) == ["retreat 2,-1", "retreat 2,0"]
    state.apply("retreat 2,0")  # b3 is there: on, one cell farther from the start
    assert state.current_player() == "blue"
    assert legal(state) == ["retreat 2,1", "retreat 3,-1", "retreat 3,0"]
    state.apply("retreat 3,0")
    assert REG.where(state, "b1") == Hex(3, 0)
    assert COUNTERS.step(state, "b1") == 1
    assert legal(state) == ["advance r1 1,0", "advance r2 1,0", "stop"]


def test_a_save_whose_decision_repeats_a_choice_is_refused() -> None:
    """A pending decision's fixed choices are distinct (issue 30: a resealed save)."""
    import hashlib
    import json

    from hexwar.base.errors import RecordError

    combat = Combat(REG, COUNTERS, BOARD, CRT, retreat=RetreatRules(until_free=True))
    state = fight(combat, CROWDED)
    state.apply("attack 1,0 r1 r2")
    state.apply("roll 5")
    env = json.loads(dumps(state))
    assert env["state"]["pending"][-1]["choices"] == ["retreat 2,-1", "retreat 2,0"]
    env["state"]["pending"][-1]["choices"].append("retreat 2,0")
    del env["digest"]
    body = json.dumps(env, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    env["digest"] = hashlib.sha256(body.encode()).hexdigest()
    with pytest.raises(RecordError, match="repeated choice"):
        loads(Toy(combat, CROWDED), json.dumps(env))


def test_the_odds_of_an_attacker_not_next_to_the_cell_are_refused() -> None:
    """Issue 30: a HexwarError naming the piece, not the map graph's ``KeyError``."""
    from hexwar.base.errors import HexwarError

    combat = make_combat(odds_rules=OddsRules(hexsides=(HexsideShift("river", -1, "all"),)))
    state = Toy(combat, START).new_state()
    for cell, attackers, message in (
        ("1,0", ("r3",), "r3 is not next to it"),
        ("1,0", ("b2",), "b2 is not a piece of red here"),
        ("9,9", ("r1",), "not a cell of the map"),
    ):
        with pytest.raises(HexwarError, match=message):
            combat.odds(state, "red", cell, attackers)
        with pytest.raises(HexwarError, match=message):
            combat.distribution(state, "red", cell, attackers)


def test_terrain_shifts_by_the_defender_s_side_and_by_cell_tag() -> None:
    """Issue 30: ``OddsRules.side_terrain`` (the defender's own terrain) and ``tags``."""
    tagged = build_map(
        CHART,
        dict.fromkeys(hexagon(3), "clear") | {FOREST: "forest"},
        tags={FOREST: ["moscow"]},
    )
    start = {"r1": (Hex(1, 0), "red"), "r2": (Hex(3, -1), "red"), "b1": (FOREST, "blue")}
    rules = OddsRules(terrain={"forest": -1}, side_terrain={"blue": {"forest": -1}})
    combat = Combat(REG, COUNTERS, tagged, CRT, odds_rules=rules)
    state = fight(combat, start)
    assert combat.odds(state, "red", lab(FOREST), ("r1", "r2")).shift == -2
    moscow = attrs.evolve(combat, odds_rules=OddsRules(tags={"moscow": -2, "other": 5}))
    assert moscow.odds(state, "red", lab(FOREST), ("r1", "r2")).shift == -2
    blue_fights = {"b1": (Hex(1, 0), "blue"), "b2": (Hex(3, -1), "blue"), "r1": (FOREST, "red")}
    state = fight(combat, blue_fights)
    assert combat.odds(state, "blue", lab(FOREST), ("b1", "b2")).shift == -1  # red: no bonus


def test_a_strength_may_halve_exactly() -> None:
    """Issue 30: a status taken at the turn's start (``TurnStatus``) halves a unit's
    strength as a Fraction; the odds sum exactly (2 + 4 = 6 against 4: 1:1, not 2:1)."""
    from fractions import Fraction

    from hexwar.mechanics.status import TurnStatus

    cut_off = TurnStatus(REG, lambda state, piece: piece == "r1", table="unsupplied")

    def strength(state: State, piece: str, role: str) -> int | Fraction:
        value = COUNTERS.value(state, piece, "attack" if role == "attack" else "defence")
        return cut_off.halved(state, piece, value)

    combat = make_combat(strength=strength)
    state = fight(combat, CROWDED)
    assert combat.odds(state, "red", "1,0", ("r1", "r2")).column == "2:1"
    cut_off.take(state)
    odds = combat.odds(state, "red", "1,0", ("r1", "r2"))
    assert (odds.attack, odds.column) == (Fraction(6), "1:1")
