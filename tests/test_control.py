"""Control of cells (hexwar.mechanics.control), taken along the path a unit took."""

from __future__ import annotations

import pytest

from hexwar.board.maps import build_map, hexagon
from hexwar.board.movement import reachable
from hexwar.board.pieces import HEX_CODEC
from hexwar.board.terrain import chart_from_dict
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset
from hexwar.grid.geometry import Hex
from hexwar.mechanics.control import Control, ControlError


class Game(Ruleset):
    sides = ("red", "blue")
    sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))


def test_a_unit_takes_the_cities_on_its_path_not_only_its_destination() -> None:
    chart = chart_from_dict(
        {
            "terrain": {"clear": {}, "marsh": {}},
            "movement": {"foot": {"terrain": {"clear": 1, "marsh": 3}}},
        }
    )
    cells = {h: "clear" for h in hexagon(3)}
    for h in (Hex(1, -1), Hex(0, 1), Hex(1, 1)):
        cells[h] = "marsh"  # the cheapest route from (0,0) to (2,0) runs through (1,0)
    m = build_map(chart, cells)
    city = Hex(1, 0)
    control = Control(HEX_CODEC, [city, Hex(-2, 0)])
    state = Game().new_state()
    control.set_up(state, {city: "blue", Hex(-2, 0): "blue"})
    path = reachable(m, Hex(0, 0), "foot", 2).path_to(Hex(2, 0))
    assert path == [Hex(0, 0), city, Hex(2, 0)]
    assert control.enter(state, "red", path) == [city]
    assert control.owner(state, city) == "red"
    assert control.held(state, "blue") == [Hex(-2, 0)]
    assert (control.count(state, "red"), control.count(state, "blue")) == (1, 1)
    assert control.enter(state, "red", path) == []  # already held: no change
    # the start is not entered: a unit leaving a city does not take it again
    assert control.enter(state, "blue", [city, Hex(0, 0)]) == []


def test_control_is_part_of_the_state_and_refuses_other_cells() -> None:
    control = Control(HEX_CODEC, [Hex(0, 0)])
    state = Game().new_state()
    clone = state.clone()
    control.take(state, Hex(0, 0), "red")
    assert control.owner(state, Hex(0, 0)) == "red"
    assert control.owner(clone, Hex(0, 0)) is None
    assert control.owner(state, Hex(5, 5)) is None
    with pytest.raises(ControlError):
        control.take(state, Hex(5, 5), "red")
