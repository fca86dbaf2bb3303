"""hexwar.board.stacking: stack order (T&G 6.24) and pluggable stacking limits (T&G 6.21, S6.2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.base.errors import StackError, StackingViolation
from hexwar.board.maps import build_map, hexagon
from hexwar.board.move_rules import MoveRules
from hexwar.board.movement import reachable
from hexwar.board.stacking import (
    all_limits,
    arrive,
    can_end,
    check_stack,
    depart,
    max_units,
    reorder,
    to_top,
)
from hexwar.board.terrain import chart_from_dict
from hexwar.grid.geometry import Hex

UNITS = st.lists(st.integers(0, 50), unique=True, max_size=6).map(tuple)


@given(UNITS, st.integers(51, 60), st.booleans())
def test_arrive_then_depart_restores_the_stack(
    stack: tuple[int, ...], unit: int, top: bool
) -> None:
    grown = arrive(stack, unit, on_top=top)
    assert grown[0 if top else -1] == unit
    assert depart(grown, unit) == stack


@given(UNITS.filter(bool), st.data())
def test_to_top_keeps_the_others_in_order(stack: tuple[int, ...], data: st.DataObject) -> None:
    unit = data.draw(st.sampled_from(stack))
    moved = to_top(stack, unit)
    assert moved[0] == unit
    assert moved[1:] == tuple(u for u in stack if u != unit)
    assert reorder(stack, list(reversed(moved))) == tuple(reversed(moved))


def test_stack_errors_name_the_unit() -> None:
    with pytest.raises(StackError, match="already in the stack"):
        arrive(("a",), "a")
    with pytest.raises(StackError, match="'z' is not in the stack"):
        depart(("a",), "z")
    with pytest.raises(StackError, match="permutation"):
        reorder(("a", "b"), ["a", "a"])


def test_limits_combine_and_report_the_first_failure() -> None:
    no_mixed = lambda units: "no mixing" if len({u[0] for u in units}) > 1 else None  # noqa: E731
    limit = all_limits(max_units(2, rule="X1"), no_mixed)
    assert limit(["i1", "i2"]) is None
    assert limit(["i1", "c1"]) == "no mixing"
    assert limit(["i1", "c1", "i3"]) == "X1: more than 2 units in one cell (3)"
    with pytest.raises(StackingViolation, match="X1: more than 2") as err:
        check_stack(max_units(2, rule="X1"), [1, 2, 3], rule="T6.21")
    assert err.value.rule == "T6.21"
    check_stack(limit, ["i1"])


def test_can_end_plugs_a_limit_into_movement() -> None:
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
    )
    game_map = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
    friends = {Hex(1, 0): ("a", "b"), Hex(-1, 0): ("c",)}
    rules = MoveRules(zoc=False, can_end=can_end(max_units(2)))
    reach = reachable(game_map, Hex(0, 0), "foot", 2, mover="m", friends=friends, rules=rules)
    assert Hex(1, 0) not in reach  # full: may pass, may not end
    assert Hex(-1, 0) in reach
    assert Hex(2, 0) in reach  # through the full stack
