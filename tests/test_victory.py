"""End-of-game checks: elimination, withdrawal into an area, loss shares («Бой отрядов» X)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import VictoryError
from hexwar.board.pieces import SQUARE_CODEC, Pieces
from hexwar.engine.actions import Outcome
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.square import Square
from hexwar.mechanics.victory import eliminated, fewer_losses, loss_share, withdrawn

SIDES = ("blue", "red")
REG: Pieces[Square] = Pieces(SQUARE_CODEC)


class Game(Ruleset):
    sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))


def _state(placed: dict[str, tuple[str, Square]]) -> State:
    state = Game().new_state()
    for piece, (side, cell) in placed.items():
        REG.place(state, piece, cell, side)
    return state


def test_eliminated_names_the_first_side_with_nothing_left_x() -> None:
    state = _state({"b1": ("blue", Square(0, 0)), "r1": ("red", Square(1, 1))})
    assert eliminated(REG, state, SIDES) is None
    REG.remove(state, "r1")
    assert eliminated(REG, state, SIDES) == "red"
    REG.remove(state, "b1")
    assert eliminated(REG, state, SIDES) == "blue"  # both gone: the first in order


def test_withdrawn_sides_stand_wholly_in_the_area_x() -> None:
    zone = {Square(0, 0), Square(1, 0)}
    state = _state({"b1": ("blue", Square(0, 0)), "b2": ("blue", Square(5, 5)),
                    "r1": ("red", Square(1, 0))})  # fmt: skip
    assert withdrawn(REG, state, SIDES, zone) == ["red"]
    REG.move(state, "b2", Square(1, 0))
    assert withdrawn(REG, state, SIDES, zone) == ["blue", "red"]


@settings(max_examples=50)
@given(start=st.integers(1, 12), data=st.data())
def test_loss_share_is_the_lost_fraction(start: int, data: st.DataObject) -> None:
    left = data.draw(st.integers(0, start))
    state = _state({f"b{i}": ("blue", Square(i, 0)) for i in range(left)})
    assert loss_share(REG, state, "blue", start) == Fraction(start - left, start)


def test_loss_share_needs_a_starting_force() -> None:
    with pytest.raises(VictoryError, match="started with 0"):
        loss_share(REG, _state({}), "blue", 0)


def test_fewer_losses_wins_and_a_tie_is_a_draw() -> None:
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    assert fewer_losses({"blue": half, "red": quarter}) == Outcome("red", "fewer losses")
    assert fewer_losses({"blue": quarter, "red": quarter}, "w", "t") == Outcome(None, "t")
    assert fewer_losses({"a": half, "b": quarter, "c": quarter}).winner is None
    with pytest.raises(VictoryError):
        fewer_losses({})
