"""«Сталинград»'s positions on the core registry (issue 12): ``hexwar_stalingrad.board`` over
``hexwar.board.pieces`` and ``hexwar.mechanics.steps``, checked against the tables and the
save-file validation after every write."""

from __future__ import annotations

import pytest

from hexwar.engine.savefile import dumps, loads
from hexwar.engine.state import State
from hexwar_stalingrad.board import (
    PIECES,
    counters,
    on_map,
    place,
    remove,
    set_aside,
    set_step,
    step,
    strength,
    take_loss,
    unit_at,
    where,
)
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.situations import situation

RULES = StalingradRules()
#: A hex and two passable hexes next to it (S2.3).
HOME = "2715"
NEAR, OTHER = [n for n in RULES.data.neighbors[HOME] if n in RULES.data.passable][:2]


def _valid(state: State) -> None:
    assert loads(RULES, dumps(state)) == state  # validate_position accepts it


def test_a_unit_through_loss_death_rebuild_and_the_pool_s1_3_s4_1() -> None:
    state = situation(RULES, {"r-62a": HOME, "w-li-c": OTHER}, turn=2)
    assert state.table("pieces")["r-62a"] == (HOME, "rkka")
    assert (unit_at(state, HOME), unit_at(state, NEAR)) == ("r-62a", None)
    set_step(state, "r-62a", "reduced")  # S1.3: the back of the counter
    assert (step(state, "r-62a"), state.get("steps", "r-62a")) == ("reduced", 1)
    printed = RULES.data.ground["r-62a"].strength
    assert printed.reduced < printed.full
    assert counters(state).value(state, "r-62a", "strength") == printed.reduced
    assert strength(state, "r-62a") == printed.reduced
    set_step(state, "r-62a", "full")
    assert state.get("steps", "r-62a") is None
    _valid(state)
    assert take_loss(state, "r-62a") is False
    assert take_loss(state, "r-62a") is True  # reduced -> destroyed (S1.3)
    assert (where(state, "r-62a"), step(state, "r-62a")) == ("dead", "gone")
    assert state.get("eliminated", "r-62a") == "rkka"
    assert HOME not in PIECES.occupied(state)
    assert [u for _, u in on_map(state)] == ["w-li-c"]
    _valid(state)
    place(state, "r-62a", NEAR, "reduced")  # rebuilt at a chosen level (S4.1)
    assert (where(state, "r-62a"), step(state, "r-62a")) == (NEAR, "reduced")
    assert state.get("eliminated", "r-62a") is None
    _valid(state)
    set_aside(state, "r-62a")
    assert (where(state, "r-62a"), step(state, "r-62a")) == ("pool", "full")
    _valid(state)


def test_surrender_from_full_strength_and_a_move_keep_the_tables_in_step_s6_2_s8_4() -> None:
    state = situation(RULES, {"r-62a": HOME, "w-li-c": OTHER}, turn=2)
    place(state, "w-li-c", NEAR)  # a move: the hex it left is empty
    assert dict(PIECES.occupied(state)) == {HOME: ("r-62a",), NEAR: ("w-li-c",)}
    with pytest.raises(AssertionError, match="occupied by w-li-c"):
        place(state, "r-62a", NEAR)  # S6.2: one unit per hex
    remove(state, "w-li-c")  # surrender at full strength: dead at once (S8.4)
    assert (where(state, "w-li-c"), step(state, "w-li-c")) == ("dead", "gone")
    remove(state, "w-li-c")  # already dead: nothing changes
    assert state.get("eliminated", "w-li-c") == "wehrmacht"
    _valid(state)
