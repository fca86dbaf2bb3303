"""Retreat cells: one step farther from the attacker, no enemy, within the stacking limit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.board.stacking import max_units
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.retreat import retreat_cells

REG = Pieces(HEX_CODEC)
AREA = frozenset(Hex(0, 0).spiral(3))


class Board(Ruleset):
    sides = ("red", "blue")
    sequence = TurnSequence((Stage("s", (Phase("m", "red", end_when_idle=False),)),))


def fresh() -> State:
    return Board().new_state()


def test_the_three_cells_away_from_the_attacker() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    got = retreat_cells(REG, s, Hex(0, 0), Hex(1, 0), on_map=AREA)
    assert got == sorted(h for h in Hex(0, 0).neighbors() if h.distance(Hex(1, 0)) == 2)
    assert len(got) == 3


def test_never_into_an_enemy_nor_off_the_map() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    REG.place(s, "x", Hex(-1, 0), "blue")
    got = retreat_cells(REG, s, Hex(0, 0), Hex(1, 0), on_map=AREA - {Hex(-1, 1)})
    assert got == [Hex(0, -1)]


def test_the_whole_stack_must_fit_the_limit_there() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    REG.place(s, "b", Hex(0, 0), "red")
    REG.place(s, "f", Hex(-1, 0), "red")
    seen: list[tuple[str, ...]] = []

    def limit(units: object) -> str | None:
        seen.append(tuple(units))  # type: ignore[arg-type]
        return max_units(2)(units)  # type: ignore[arg-type]

    got = retreat_cells(REG, s, Hex(0, 0), Hex(1, 0), on_map=AREA, limit=limit, unit=str.upper)
    assert Hex(-1, 0) not in got  # 3 units there would be too many
    assert ("F", "A", "B") in seen  # joining at the bottom, as unit records
    assert got == [Hex(-1, 1), Hex(0, -1)]


def test_an_empty_cell_has_nowhere_to_go() -> None:
    assert retreat_cells(REG, fresh(), Hex(0, 0), Hex(1, 0), on_map=AREA) == []


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(sorted(Hex(0, 0).spiral(2))), st.integers(0, 5))
def test_every_retreat_cell_is_adjacent_and_one_step_farther(cell: Hex, d: int) -> None:
    s = fresh()
    REG.place(s, "a", cell, "red")
    away = cell.neighbor(d)
    for h in retreat_cells(REG, s, cell, away, on_map=AREA):
        assert h.distance(cell) == 1
        assert h.distance(away) == cell.distance(away) + 1
        assert h in AREA
