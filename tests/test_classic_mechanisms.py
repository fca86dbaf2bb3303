"""The classic mechanisms games used to write by hand (issue 30): replacement options
(no restore in the phase of the rebuild, a first turn per unit, a map edge or a held city
in communication), a status taken at the turn's start that halves, victory by control."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from hexwar.base.errors import ReplacementError, VictoryError
from hexwar.board.maps import build_map, hexagon
from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.board.terrain import chart_from_dict
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.control import Control
from hexwar.mechanics.replacements import Replacements, edge_or_held
from hexwar.mechanics.status import TurnStatus
from hexwar.mechanics.steps import StepCounters, StepTrack
from hexwar.mechanics.victory import ControlVictory

CHART = chart_from_dict({"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}})
BOARD = build_map(CHART, dict.fromkeys(hexagon(3), "clear"))
WEST = [c for c in BOARD if c.q == -3]
TRACK = StepTrack.of({"attack": 4}, {"attack": 2})


def registry() -> tuple[Pieces[Hex], StepCounters]:
    reg: Pieces[Hex] = Pieces(HEX_CODEC)
    return reg, StepCounters({p: TRACK for p in ("a", "b", "c", "e1", "e2")}, pieces=reg)


class Game(Ruleset):
    sides = ("red", "blue")
    sequence = TurnSequence(
        (Stage("s", (Phase("r", "red", end_when_idle=False), Phase("m", "red"))),), 3
    )


def test_a_piece_rebuilt_in_a_phase_is_not_restored_in_it() -> None:
    reg, counters = registry()
    state = Game().new_state()
    reg.place(state, "a", Hex(0, 0), "red")
    _ = counters.lose(state, "a", 2)
    plain = Replacements(counters, places=lambda s, side, p: WEST, rebuild_cost=1)
    strict = Replacements(counters, places=lambda s, side, p: WEST, rebuild_cost=1,
                          restore_rebuilt=False)  # fmt: skip
    for repl, restorable in ((plain, ["a"]), (strict, [])):
        copy = state.clone()
        repl.grant(copy, "red", 3)
        repl.rebuild(copy, "red", "a", WEST[0])
        assert repl.restorable(copy, "red") == restorable
    copy = state.clone()
    strict.grant(copy, "red", 3)
    strict.rebuild(copy, "red", "a", WEST[0])
    with pytest.raises(ReplacementError):
        strict.restore(copy, "red", "a")
    copy.apply("end")  # the next turn's replacements: it may be restored then
    assert copy.turn == 2
    strict.grant(copy, "red", 1)
    assert strict.restorable(copy, "red") == ["a"]


def test_a_piece_is_rebuilt_from_its_first_turn_only() -> None:
    reg, counters = registry()
    state = Game().new_state()
    for piece in ("a", "b"):
        reg.place(state, piece, Hex(0, 0) if piece == "a" else Hex(1, 0), "red")
        _ = counters.lose(state, piece, 2)
    repl = Replacements(counters, places=lambda s, side, p: WEST, first_turn={"b": 2})
    repl.grant(state, "red", 9)
    assert repl.rebuildable(state, "red") == ["a"]
    state.apply("end")  # the move phase has nothing to do: skipped
    assert state.turn == 2
    repl.grant(state, "red", 9)
    assert repl.rebuildable(state, "red") == ["a", "b"]


def test_rebuild_on_the_edge_or_in_a_held_city_in_communication() -> None:
    reg, _counters = registry()
    state = Game().new_state()
    cities = Control(HEX_CODEC, [Hex(1, 0), Hex(2, -2)])
    cities.set_up(state, {Hex(1, 0): "red", Hex(2, -2): "red"})
    # blue units ring Hex(2, -2) in: no trace from it to red's west edge
    for i, cell in enumerate((Hex(1, -2), Hex(1, -1), Hex(2, -1))):
        reg.place(state, f"e{i + 1}" if i < 2 else "c", cell, "blue")
    places = edge_or_held(reg, BOARD, {"red": WEST}, cities)
    assert places(state, "red", "a") == [*sorted(WEST, key=HEX_CODEC.label), Hex(1, 0)]
    assert edge_or_held(reg, BOARD, {"red": WEST})(state, "red", "a") == sorted(
        WEST, key=HEX_CODEC.label
    )


def test_a_status_taken_at_the_turn_start_halves_for_the_turn() -> None:
    reg: Pieces[Hex] = Pieces(HEX_CODEC)
    cut_off = TurnStatus(reg, lambda state, piece: reg.where(state, piece).q >= 2)

    class Supplied(Game):
        sequence = TurnSequence(
            (Stage("s", (Phase("r", "red", end_when_idle=False),)),), 3,
            on_turn_start=cut_off.take,
        )  # fmt: skip

        def setup(self, state: State, scenario: str, options: Any) -> None:
            reg.place(state, "a", Hex(2, 0), "red")
            reg.place(state, "b", Hex(0, 0), "blue")

    state = Supplied().new_state()
    assert cut_off.marked(state) == ["a"]
    reg.move(state, "a", Hex(0, 1))  # in supply again, but halved for this turn
    assert cut_off.halved(state, "a", 5) == Fraction(5, 2)
    assert cut_off.halved(state, "b", 5) == 5
    state.apply("end")  # the next turn: taken again
    assert state.turn == 2
    assert cut_off.marked(state) == []


def test_victory_by_control_of_cities() -> None:
    state = Game().new_state()
    cities = Control(HEX_CODEC, [Hex(1, 0), Hex(2, -2), Hex(0, 3)])
    cities.set_up(state, {Hex(1, 0): "blue", Hex(2, -2): "red"})
    moscow = ControlVictory(cities, "blue", "red", cells=[Hex(2, -2)], what="Moscow")
    assert moscow.outcome(state).winner == "red"
    _ = cities.take(state, Hex(2, -2), "blue")
    assert moscow.met(state)
    assert moscow.outcome(state).reason == "blue holds 1 of 1 Moscow (needs 1)"
    with pytest.raises(VictoryError):
        ControlVictory(cities, "blue", "red", need=4)
    with pytest.raises(VictoryError):
        ControlVictory(cities, "blue", "red", cells=[Hex(3, 0)])
