"""Grid topologies: hex (default) and square (8 or 4 neighbours)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import LabelError
from hexwar.grid.geometry import Hex
from hexwar.grid.square import (
    HEX_GRID,
    SQUARE_GRID,
    SQUARE_GRID_4,
    Square,
    SquareLabels,
    Topology,
    line_clear,
    square_line,
)
from hexwar.testing.strategies import hexes

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


# -- square lines of sight, square labels --------------------------------------------------

squares = st.builds(Square, st.integers(-30, 30), st.integers(-30, 30))


def _nearest(v: Fraction) -> tuple[int, ...]:
    """The integers nearest to ``v`` (two on an exact half), by brute force."""
    cands = range(math.floor(v) - 1, math.ceil(v) + 2)
    best = min(abs(v - k) for k in cands)
    return tuple(k for k in cands if abs(v - k) == best)


@settings(max_examples=300)
@given(a=squares, b=squares)
def test_square_line_matches_exact_arithmetic(a: Square, b: Square) -> None:
    line = square_line(a, b)
    n = SQUARE_GRID.distance(a, b)
    assert len(line) == n + 1
    assert line[0] == (a,)
    assert line[-1] == (b,)
    for i, step in enumerate(line):
        t = Fraction(i, n) if n else Fraction(0)
        cols = _nearest(a.col + (b.col - a.col) * t)
        rows = _nearest(a.row + (b.row - a.row) * t)
        assert step == tuple(Square(c, r) for c in cols for r in rows)
        assert 1 <= len(step) <= 2  # the longer axis never ties


@settings(max_examples=300)
@given(a=squares, b=squares)
def test_square_line_is_symmetric_and_connected(a: Square, b: Square) -> None:
    line = square_line(a, b)
    assert square_line(b, a) == line[::-1]
    for before, after in itertools.pairwise(line):
        assert all(SQUARE_GRID.are_adjacent(x, y) for x in before for y in after)


def test_square_line_ties_and_straight_lines() -> None:
    assert square_line(Square(0, 0), Square(0, 0)) == [(Square(0, 0),)]
    assert [s for (s,) in square_line(Square(0, 0), Square(3, 3))] == [
        Square(i, i) for i in range(4)
    ]
    assert square_line(Square(0, 0), Square(4, 2))[1] == (Square(1, 0), Square(1, 1))
    assert square_line(Square(0, 0), Square(2, 4))[3] == (Square(1, 3), Square(2, 3))


@settings(max_examples=200)
@given(a=squares, b=squares, walls=st.sets(squares, max_size=40))
def test_line_clear_blocks_only_where_every_candidate_blocks(
    a: Square, b: Square, walls: set[Square]
) -> None:
    inner = square_line(a, b)[1:-1]
    clear = line_clear(a, b, walls.__contains__)
    assert clear == all(set(step) - walls for step in inner)
    assert clear == line_clear(b, a, walls.__contains__)  # sight is mutual
    assert line_clear(a, b, lambda c: c in (a, b))  # the ends never block


def test_line_clear_passes_a_tie_on_the_open_side() -> None:
    a, b = Square(0, 0), Square(2, 1)
    assert line_clear(a, b, {Square(1, 0)}.__contains__)
    assert line_clear(a, b, {Square(1, 1)}.__contains__)
    assert not line_clear(a, b, {Square(1, 0), Square(1, 1)}.__contains__)


def test_square_labels_round_trip_and_refuse_unknown_labels() -> None:
    labels = SquareLabels("АБ", ("-Ir", "1", "2", "-Ib"))
    cells = [Square(c, r) for c in range(2) for r in range(4)]
    assert [labels.label(c) for c in cells][:4] == ["А-Ir", "А1", "А2", "А-Ib"]
    assert all(labels.cell_at(labels.label(c)) == c for c in cells)
    with pytest.raises(LabelError, match="not a square label"):
        labels.cell_at("В1")
    with pytest.raises(LabelError, match="has no label"):
        labels.label(Square(2, 0))
    with pytest.raises(LabelError, match="distinct"):
        SquareLabels(("a", "a1"), ("1", "11"))  # "a" + "11" == "a1" + "1"
    assert issubclass(LabelError, ValueError)
