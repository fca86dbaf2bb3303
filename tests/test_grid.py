"""Grid topologies: hex (default) and square (8 or 4 neighbours)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.geometry import Hex
from hexwar.grid import HEX_GRID, SQUARE_GRID, SQUARE_GRID_4, Square, Topology
from hexwar.strategies import hexes

squares = st.builds(Square, st.integers(-50, 50), st.integers(-50, 50))
GRIDS: list[tuple[Topology[Any], st.SearchStrategy[Any]]] = [
    (HEX_GRID, hexes(50)),
    (SQUARE_GRID, squares),
    (SQUARE_GRID_4, squares),
]


@pytest.mark.parametrize(("grid", "cells"), GRIDS, ids=["hex", "square8", "square4"])
@settings(max_examples=100)
@given(data=st.data())
def test_topology_metric_and_adjacency_agree(
    grid: Topology[Any], cells: st.SearchStrategy[Any], data: st.DataObject
) -> None:
    a, b, c = data.draw(cells), data.draw(cells), data.draw(cells)
    assert grid.distance(a, a) == 0
    assert grid.distance(a, b) == grid.distance(b, a)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)
    nbs = grid.neighbors(a)
    assert len(set(nbs)) == len(nbs)
    assert all(grid.distance(a, n) == 1 and grid.are_adjacent(n, a) for n in nbs)
    assert grid.are_adjacent(a, b) == (b in nbs)


def test_neighbour_counts() -> None:
    assert len(HEX_GRID.neighbors(Hex(0, 0))) == 6
    assert len(SQUARE_GRID.neighbors(Square(0, 0))) == 8
    assert len(SQUARE_GRID_4.neighbors(Square(0, 0))) == 4
    assert HEX_GRID.neighbors(Hex(2, 3)) == Hex(2, 3).neighbors()


def test_square_metrics_chebyshev_and_manhattan() -> None:
    assert SQUARE_GRID.distance(Square(0, 0), Square(9, 14)) == 14
    assert SQUARE_GRID_4.distance(Square(0, 0), Square(9, 14)) == 23
    assert not SQUARE_GRID_4.are_adjacent(Square(0, 0), Square(1, 1))
    assert not SQUARE_GRID.are_adjacent(Square(0, 0), Square(0, 0))


def test_square_is_a_hashable_ordered_value() -> None:
    assert Square(1, 2) == Square(1, 2)
    assert len({Square(1, 2), Square(1, 2)}) == 1
    assert sorted([Square(2, 0), Square(1, 5)]) == [Square(1, 5), Square(2, 0)]
    assert repr(Square(1, 2)) == "Square(col=1, row=2)"
    assert HEX_GRID.name == "hex"
    assert SQUARE_GRID.name == "square"
