"""Leaders on the map (`hexwar.mechanics.leaders`): range and displacement (T&G 5.61, 5.63)."""

from __future__ import annotations

import pytest

from hexwar.base.errors import PieceError
from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.edges import Facing
from hexwar.grid.geometry import Hex
from hexwar.mechanics.leaders import Leaders


class Game(Ruleset):
    sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))


def setup() -> tuple[State, Pieces[Hex], Leaders]:
    state, units, leaders = Game().new_state(), Pieces(HEX_CODEC), Leaders(HEX_CODEC)
    units.place(state, "r1", Hex(3, 0), "red")
    units.place(state, "r2", Hex(0, -3), "red")
    units.place(state, "b1", Hex(0, 0), "blue")
    leaders.place(state, "red", Hex(0, 0))
    return state, units, leaders


def test_range_excludes_the_leaders_hex_and_includes_the_units() -> None:
    state, _, leaders = setup()
    assert leaders.in_range(state, "red", Hex(3, 0), 3)
    assert not leaders.in_range(state, "red", Hex(3, 0), 2)


def test_displaced_to_the_nearest_own_unit_ties_by_label() -> None:
    state, units, leaders = setup()
    assert leaders.displace(state, Hex(0, 0), units, lambda leader: leader) == ["red"]
    assert leaders.where(state, "red") == Hex(0, -3)  # both 3 away: label "0,-3" < "3,0"


def test_not_displaced_with_own_units_there_or_none_left() -> None:
    state, units, leaders = setup()
    units.place(state, "r3", Hex(0, 0), "red")  # (a set-up: friends share the hex)
    assert leaders.displace(state, Hex(0, 0), units, lambda leader: leader) == []
    state, units, leaders = setup()
    units.remove(state, "r1")
    units.remove(state, "r2")
    assert leaders.displace(state, Hex(0, 0), units, lambda leader: leader) == []
    assert leaders.where(state, "red") == Hex(0, 0)
    with pytest.raises(PieceError, match="not on the map"):
        leaders.where(state, "blue")


def test_fire_sector_is_symmetric_about_the_faced_vertex() -> None:
    for corner in range(6):
        f = Facing(Hex(0, 0), corner)
        seen = [h for h in Hex(0, 0).within(4) if f.sees(h)]
        mirrored = {Facing(Hex(0, 0), (corner + 3) % 6).sees(h) for h in seen}
        assert mirrored == {False}  # nothing is seen both ways
        assert len(seen) == 2 + 5 + 6 + 9  # per ring: 2, 5, 6, 9
