"""Hexsides, vertices and facing (Triumph & Glory «Триумф и Слава» 6.11)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.base.errors import GeometryError
from hexwar.grid.edges import (
    Arc,
    Facing,
    FacingStyle,
    Hexside,
    Vertex,
    hexsides_of,
    vertices_of,
)
from hexwar.grid.geometry import DIAGONALS, Hex
from hexwar.testing.strategies import directions, facings, hexes, hexsides, vertices

small = hexes(radius=200)

# -- hexsides ---------------------------------------------------------------------------------


@given(small, directions())
def test_hexside_is_the_same_named_from_either_side(h: Hex, d: int) -> None:
    side = Hexside.from_direction(h, d)
    other = h.neighbor(d)
    assert side == Hexside.from_direction(other, d + 3)
    assert side == Hexside(other, h) == Hexside(h, other)
    assert hash(side) == hash(Hexside(other, h))
    assert side.hexes == tuple(sorted((h, other)))


@given(small, directions())
def test_hexside_direction_and_other_from_each_side(h: Hex, d: int) -> None:
    side = Hexside.from_direction(h, d)
    other = h.neighbor(d)
    assert side.direction_from(h) == d
    assert side.direction_from(other) == (d + 3) % 6
    assert side.other(h) == other
    assert side.other(other) == h


@given(small, small)
def test_hexside_needs_adjacent_hexes(a: Hex, b: Hex) -> None:
    if a.distance(b) == 1:
        assert set(Hexside(a, b).hexes) == {a, b}
    else:
        with pytest.raises(GeometryError, match="not adjacent"):
            Hexside(a, b)


def test_hexside_of_a_hex_it_does_not_touch_is_an_error() -> None:
    side = Hexside(Hex(0, 0), Hex(1, 0))
    with pytest.raises(GeometryError, match="not on"):
        side.other(Hex(5, 5))
    with pytest.raises(GeometryError):
        side.direction_from(Hex(0, 1))


@given(small)
def test_a_hex_has_six_distinct_hexsides_in_direction_order(h: Hex) -> None:
    sides = hexsides_of(h)
    assert len(set(sides)) == 6
    assert [s.direction_from(h) for s in sides] == list(range(6))


@given(hexsides())
def test_hexside_ends_are_the_two_vertices_both_hexes_touch(side: Hexside) -> None:
    v1, v2 = side.vertices()
    assert v1 != v2
    for v in (v1, v2):
        assert set(side.hexes) <= set(v.hexes)
        assert side in v.hexsides()


# -- vertices ---------------------------------------------------------------------------------


@given(vertices())
def test_vertex_has_three_mutually_adjacent_hexes(v: Vertex) -> None:
    a, b, c = v.hexes
    assert a < b < c
    assert a.distance(b) == b.distance(c) == a.distance(c) == 1


@given(small, directions())
def test_vertex_is_the_same_named_from_each_of_its_hexes(h: Hex, i: int) -> None:
    v = Vertex.from_corner(h, i)
    assert v.corner_of(h) == i
    for x in v.hexes:
        assert Vertex.from_corner(x, v.corner_of(x)) == v
    a, b, c = v.hexes
    assert Vertex(c, a, b) == v
    assert hash(Vertex(b, c, a)) == hash(v)


@given(small, directions())
def test_corner_i_lies_between_directions_i_and_i_plus_1(h: Hex, i: int) -> None:
    v = Vertex.from_corner(h, i)
    assert set(v.hexes) == {h, h.neighbor(i), h.neighbor(i + 1)}
    # and toward the diagonal across it
    assert set(v.hexes) - {h} == set(h.neighbors()) & set((h + DIAGONALS[i]).neighbors())


@given(small)
def test_a_hex_has_six_distinct_corners_and_each_hexside_two(h: Hex) -> None:
    corners = vertices_of(h)
    assert len(set(corners)) == 6
    for d, side in enumerate(hexsides_of(h)):
        # the hexside in direction d runs from corner d - 1 to corner d
        assert set(side.vertices()) == {corners[(d - 1) % 6], corners[d]}


@given(vertices())
def test_vertex_hexsides_and_neighbouring_vertices(v: Vertex) -> None:
    sides = v.hexsides()
    assert len(set(sides)) == 3
    assert {h for s in sides for h in s.hexes} == set(v.hexes)
    near = v.adjacent_vertices()
    assert len(set(near)) == 3
    assert v not in near
    for w in near:
        assert len(set(w.hexes) & set(v.hexes)) == 2  # one shared hexside
        assert v in w.adjacent_vertices()


def test_vertex_needs_mutually_adjacent_hexes() -> None:
    with pytest.raises(GeometryError, match="not mutually adjacent"):
        Vertex(Hex(0, 0), Hex(1, 0), Hex(-1, 0))
    with pytest.raises(GeometryError):
        Vertex(Hex(0, 0), Hex(0, 0), Hex(1, 0))
    with pytest.raises(GeometryError, match="does not touch"):
        Vertex.from_corner(Hex(0, 0), 0).corner_of(Hex(4, 4))


# -- facing (T&G 6.11) --------------------------------------------------------------------------


@given(facings())
def test_tg_6_11_front_is_the_two_hexes_touching_the_faced_vertex(f: Facing) -> None:
    front = f.front()
    assert set(front) == set(f.vertex.hexes) - {f.hex}


@given(facings())
def test_tg_6_11_front_and_rear_split_the_six_neighbours(f: Facing) -> None:
    front, rear = set(f.front()), set(f.rear())
    assert len(front) == 2
    assert len(rear) == 4
    assert front.isdisjoint(rear)
    assert front | rear == set(f.hex.neighbors())


@given(facings())
def test_front_flank_back_partition_the_neighbours(f: Facing) -> None:
    parts = [set(f.front()), set(f.flank()), set(f.back())]
    assert all(len(p) == 2 for p in parts)
    assert set().union(*parts) == set(f.hex.neighbors())
    assert set(f.rear()) == parts[1] | parts[2]
    # each flank hex is adjacent to one front hex; back hexes touch no front hex
    for x in f.flank():
        assert sum(x.distance(y) == 1 for y in f.front()) == 1
    for x in f.back():
        assert all(x.distance(y) == 2 for y in f.front())


@given(facings())
def test_tg_6_11_styles_assign_every_neighbour_one_arc(f: Facing) -> None:
    expected_sizes = {
        FacingStyle.STANDARD: (2, 0, 4),
        FacingStyle.FLANKED: (2, 2, 2),  # defensive formation of cavalry in good order
        FacingStyle.ALL_ROUND: (6, 0, 0),  # infantry in villages, castles, redoubts
    }
    for style, sizes in expected_sizes.items():
        arcs = f.arcs(style)
        assert (len(arcs.front), len(arcs.flank), len(arcs.rear)) == sizes
        assert sorted(arcs.front + arcs.flank + arcs.rear) == sorted(f.hex.neighbors())
        for n in f.hex.neighbors():
            arc = arcs.arc_of(n)
            assert n in {Arc.FRONT: arcs.front, Arc.FLANK: arcs.flank, Arc.REAR: arcs.rear}[arc]
    assert f.arcs(FacingStyle.FLANKED).front == f.arcs().front == f.front()


def test_arc_of_a_non_neighbour_is_an_error() -> None:
    with pytest.raises(GeometryError, match="not adjacent"):
        Facing(Hex(0, 0), 0).arcs().arc_of(Hex(3, 0))


@given(facings(), st.integers(-20, 20))
def test_facing_rotation(f: Facing, k: int) -> None:
    assert f.rotate_left(6) == f
    assert f.rotate_left().rotate_right() == f
    assert f.rotate_left(k) == f.rotate_right(-k)
    turned = f.rotate_left()
    assert turned.hex == f.hex
    # turning left by 60° turns the front with the hex rotation of the same name
    assert {h.rotate_left(f.hex) for h in f.front()} == set(turned.front())


@given(facings())
def test_facing_toward_its_vertex_round_trips(f: Facing) -> None:
    assert Facing.toward(f.hex, f.vertex) == f


@pytest.mark.parametrize("corner", [-1, 6, 2.0])
def test_facing_corner_must_be_0_to_5(corner: int) -> None:
    with pytest.raises(GeometryError, match="0-5"):
        Facing(Hex(0, 0), corner)


def test_facing_a_vertex_of_another_hex_is_an_error() -> None:
    with pytest.raises(GeometryError, match="does not touch"):
        Facing.toward(Hex(0, 0), Vertex.from_corner(Hex(5, 0), 0))


def test_tg_6_11_known_arcs_of_a_unit_facing_corner_0() -> None:
    # pointy tops: corner 0 is between east (direction 0) and north-east (direction 1)
    f = Facing(Hex(0, 0), 0)
    east, north_east, north_west = Hex(1, 0), Hex(1, -1), Hex(0, -1)
    west, south_west, south_east = Hex(-1, 0), Hex(-1, 1), Hex(0, 1)
    assert f.front() == (east, north_east)
    assert f.flank() == (south_east, north_west)
    assert f.back() == (west, south_west)
    assert f.rear() == (north_west, west, south_west, south_east)
