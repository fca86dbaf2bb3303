"""``python -m hexwar demo``: the core tour runs and prints what the library computes."""

from __future__ import annotations

import pytest

from hexwar.__main__ import demo_map, main
from hexwar.board.movement import reachable
from hexwar.grid.coords import offset_to_hex


def test_core_demo_prints_the_reachable_hexes_and_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    reach = reachable(
        demo_map(),
        offset_to_hex(1, 3),
        "foot",
        5,
        enemies=[offset_to_hex(4, 1), offset_to_hex(5, 5)],
    )
    assert f"end its move? {len(reach)} hexes" in out
    assert "2:1 column" in out
    assert "DR: 1/2 (50%)" in out


def test_demo_river_costs_one_extra_point_s6_6() -> None:
    game_map = demo_map()
    a, b = offset_to_hex(4, 4), offset_to_hex(5, 4)
    step = game_map.cost(a, b, "foot")
    assert step is not None
    assert step.cost == 2
