"""Axial hex geometry: Red Blob's known values and the algebraic properties of the grid."""

from __future__ import annotations

import itertools
import math
import pickle
from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import GeometryError
from hexwar.grid.geometry import DIAGONALS, DIRECTIONS, ORIGIN, FractionalHex, Hex, hex_round
from hexwar.testing.strategies import directions, hexes

small = hexes(radius=60)
radii = st.integers(min_value=0, max_value=12)

# -- the value class ---------------------------------------------------------------------


def test_hex_is_a_frozen_slotted_value() -> None:
    h = Hex(2, -5)
    assert h.s == 3
    assert not hasattr(h, "__dict__")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        h.q = 1  # type: ignore[misc]
    assert {Hex(2, -5), Hex(2, -5)} == {h}
    assert repr(h) == "Hex(q=2, r=-5)"
    assert pickle.loads(pickle.dumps(h)) == h


@given(small, small)
def test_hex_order_is_q_then_r(a: Hex, b: Hex) -> None:
    assert (a < b) == ((a.q, a.r) < (b.q, b.r))


@given(small, small, st.integers(-5, 5))
def test_arithmetic_is_vector_arithmetic(a: Hex, b: Hex, k: int) -> None:
    assert (a + b).q == a.q + b.q
    assert (a + b).r == a.r + b.r
    assert a + b - b == a
    assert a * k == k * a == Hex(a.q * k, a.r * k)
    assert -a + a == ORIGIN
    assert (a * k).length() == abs(k) * a.length()


def test_arithmetic_with_non_hex_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Hex(1, 2) + 1  # type: ignore[operator]
    with pytest.raises(TypeError):
        Hex(1, 2) * 1.5  # type: ignore[operator]


def test_red_blob_known_values() -> None:
    # From Red Blob Games' reference tests (cube (q, r, s) written as axial (q, r)).
    assert Hex(1, -3) + Hex(3, -7) == Hex(4, -10)
    assert Hex(1, -3) - Hex(3, -7) == Hex(-2, 4)
    assert DIRECTIONS[2] == Hex(0, -1)
    assert Hex(1, -2).neighbor(2) == Hex(1, -3)
    assert Hex(1, -2).diagonal(3) == Hex(-1, -1)
    assert Hex(3, -7).distance(Hex(0, 0)) == 7
    assert Hex(1, -3).rotate_right() == Hex(3, -2)
    assert Hex(1, -3).rotate_left() == Hex(-2, -1)
    assert Hex(0, 0).line_to(Hex(1, -5)) == [
        Hex(0, 0),
        Hex(0, -1),
        Hex(0, -2),
        Hex(1, -3),
        Hex(1, -4),
        Hex(1, -5),
    ]


# -- directions, neighbours, diagonals -----------------------------------------------------


def test_directions_are_in_red_blob_order() -> None:
    as_pairs = [(d.q, d.r) for d in DIRECTIONS]
    assert as_pairs == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


@given(small, directions())
def test_direction_plus_three_is_opposite(h: Hex, d: int) -> None:
    assert h.neighbor(d).neighbor(d + 3) == h
    assert h.neighbor(d + 6) == h.neighbor(d) == h.neighbor(d - 6)


@given(small)
def test_neighbors_are_the_six_hexes_at_distance_one(h: Hex) -> None:
    ns = h.neighbors()
    assert ns == tuple(h.neighbor(d) for d in range(6))
    assert len(set(ns)) == 6
    assert all(h.distance(n) == 1 for n in ns)
    assert set(ns) == set(h.ring(1))
    assert [h.direction_to(n) for n in ns] == list(range(6))


def test_direction_to_a_non_neighbour_is_an_error() -> None:
    with pytest.raises(GeometryError, match="not adjacent"):
        Hex(0, 0).direction_to(Hex(2, 0))
    with pytest.raises(GeometryError):
        Hex(0, 0).direction_to(Hex(0, 0))


@given(small, directions())
def test_diagonal_lies_across_the_vertex_between_two_directions(h: Hex, i: int) -> None:
    diag = h.diagonal(i)
    assert diag == h.neighbor(i).neighbor(i + 1) == h + DIAGONALS[i]
    assert h.distance(diag) == 2
    # the two hexes touching that vertex are neighbours of both
    assert {h.neighbor(i), h.neighbor(i + 1)} == set(h.neighbors()) & set(diag.neighbors())
    assert h.diagonals()[i] == diag


# -- distance is a metric ------------------------------------------------------------------


@given(small, small, small)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(small, small)
def test_distance_is_max_of_cube_differences(a: Hex, b: Hex) -> None:
    assert a.distance(b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))
    assert a.distance(b) == (a - b).length()


@given(small, small)
def test_distance_counts_steps_of_a_greedy_walk(a: Hex, b: Hex) -> None:
    steps, here = 0, a
    while here != b:
        here = min(here.neighbors(), key=lambda n: n.distance(b))
        steps += 1
    assert steps == a.distance(b)


# -- rings, spirals, ranges ----------------------------------------------------------------


@given(small, radii)
def test_ring_has_6r_distinct_hexes_at_distance_r(center: Hex, radius: int) -> None:
    ring = center.ring(radius)
    assert len(ring) == max(1, 6 * radius)
    assert len(set(ring)) == len(ring)
    assert all(center.distance(h) == radius for h in ring)


@given(small, st.integers(1, 12))
def test_ring_walks_adjacent_hexes_from_direction_4(center: Hex, radius: int) -> None:
    ring = center.ring(radius)
    assert ring[0] == center + DIRECTIONS[4] * radius
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        assert a.distance(b) == 1


def test_ring_of_radius_zero_is_the_centre() -> None:
    assert Hex(3, -1).ring(0) == [Hex(3, -1)]


@given(small, radii)
def test_spiral_has_1_plus_3r_r_plus_1_hexes_ring_by_ring(center: Hex, radius: int) -> None:
    spiral = center.spiral(radius)
    assert len(spiral) == 1 + 3 * radius * (radius + 1)
    assert spiral[0] == center
    assert [center.distance(h) for h in spiral] == sorted(center.distance(h) for h in spiral)
    assert set(spiral) == set(center.within(radius))


@given(small, radii)
def test_within_is_every_hex_up_to_radius_in_q_r_order(center: Hex, radius: int) -> None:
    inside = list(center.within(radius))
    assert inside == sorted(inside)
    box = (
        Hex(center.q + dq, center.r + dr)
        for dq in range(-radius - 1, radius + 2)
        for dr in range(-radius - 1, radius + 2)
    )
    assert inside == sorted(h for h in box if center.distance(h) <= radius)


@pytest.mark.parametrize("method", ["ring", "spiral", "within"])
def test_negative_radius_is_an_error(method: str) -> None:
    with pytest.raises(GeometryError, match="radius"):
        list(getattr(Hex(0, 0), method)(-1))


# -- rounding --------------------------------------------------------------------------------


def _nearest_hexes(q: Fraction, r: Fraction) -> list[Hex]:
    """All hexes whose centre is nearest to the point (exact arithmetic, brute force)."""
    s = -q - r
    fq, fr = math.floor(q), math.floor(r)
    scored = []
    for hq in range(fq - 1, fq + 3):
        for hr in range(fr - 1, fr + 3):
            hs = -hq - hr
            scored.append(((q - hq) ** 2 + (r - hr) ** 2 + (s - hs) ** 2, Hex(hq, hr)))
    best = min(d for d, _ in scored)
    return sorted(h for d, h in scored if d == best)


def test_red_blob_rounding_values() -> None:
    a, b, c = FractionalHex(0, 0), FractionalHex(1, -1), FractionalHex(0, -1)
    assert FractionalHex(0, 0).lerp(FractionalHex(10, -20), 0.5).round() == Hex(5, -10)
    assert a.lerp(b, 0.499).round() == Hex(0, 0)
    assert a.lerp(b, 0.501).round() == Hex(1, -1)
    mix = FractionalHex(a.q * 0.4 + b.q * 0.3 + c.q * 0.3, a.r * 0.4 + b.r * 0.3 + c.r * 0.3)
    assert mix.round() == Hex(0, 0)
    mix = FractionalHex(a.q * 0.3 + b.q * 0.3 + c.q * 0.4, a.r * 0.3 + b.r * 0.3 + c.r * 0.4)
    assert mix.round() == Hex(0, -1)


@given(
    st.fractions(min_value=-50, max_value=50, max_denominator=60),
    st.fractions(min_value=-50, max_value=50, max_denominator=60),
)
def test_rounding_gives_a_nearest_hex(q: Fraction, r: Fraction) -> None:
    assert hex_round(float(q), float(r)) in _nearest_hexes(q, r)


@given(small)
def test_rounding_a_hex_centre_gives_that_hex(h: Hex) -> None:
    assert hex_round(float(h.q), float(h.r)) == h
    assert hex_round(h.q + 0.3, h.r - 0.2) == h


# -- lines -------------------------------------------------------------------------------------


@given(small, small)
def test_line_has_distance_plus_one_adjacent_hexes(a: Hex, b: Hex) -> None:
    line = a.line_to(b)
    assert len(line) == a.distance(b) + 1
    assert line[0] == a
    assert line[-1] == b
    assert all(x.distance(y) == 1 for x, y in itertools.pairwise(line))


@st.composite
def line_ends(draw: st.DrawFn) -> tuple[Hex, Hex]:
    """Two hexes; half the time on a line along hexsides (where ties happen)."""
    a = draw(small)
    if draw(st.booleans()):
        return a, draw(small)
    return a, a + DIAGONALS[draw(directions())] * draw(st.integers(1, 8))


@given(line_ends())
def test_line_hexes_are_nearest_to_exact_points_and_break_ties_by_rule(
    ends: tuple[Hex, Hex],
) -> None:
    """Each hex is nearest to its exact sample point; a tie on a hexside goes to the hex
    with the smaller ``s``, then the larger ``r`` (the documented rule of ``line_to``)."""
    a, b = ends
    n = a.distance(b)
    for i, h in enumerate(a.line_to(b)):
        q = a.q + Fraction((b.q - a.q) * i, n or 1)
        r = a.r + Fraction((b.r - a.r) * i, n or 1)
        tied = _nearest_hexes(q, r)
        assert h in tied
        assert len(tied) <= 2  # lines between centres never pass through a vertex
        assert h == min(tied, key=lambda x: (x.s, -x.r))


@pytest.mark.parametrize(
    ("i", "winner"),
    # the tie between directions i and i+1 goes to the hex with smaller s, then larger r
    [(0, 0), (1, 1), (2, 3), (3, 4), (4, 5), (5, 5)],
)
def test_lines_along_hexsides_break_ties_by_the_rule(i: int, winner: int) -> None:
    line = ORIGIN.line_to(DIAGONALS[i] * 3)  # along hexsides: a tie at every odd step
    for k in range(1, 6, 2):
        base = DIAGONALS[i] * ((k - 1) // 2)
        assert line[k] == base + DIRECTIONS[winner]


@given(line_ends())
def test_line_reversed_is_the_same_hexes(ends: tuple[Hex, Hex]) -> None:
    a, b = ends
    assert b.line_to(a) == a.line_to(b)[::-1]


@settings(max_examples=30)
@given(hexes(radius=20_000), hexes(radius=20_000))
def test_line_is_exact_for_far_apart_hexes(a: Hex, b: Hex) -> None:
    line = a.line_to(b)
    assert len(line) == a.distance(b) + 1
    assert all(x.distance(y) == 1 for x, y in itertools.pairwise(line))


def test_line_to_itself_is_one_hex() -> None:
    assert Hex(4, 4).line_to(Hex(4, 4)) == [Hex(4, 4)]


# -- rotations and reflections ------------------------------------------------------------------


@given(small, small, st.integers(-20, 20))
def test_rotation_is_a_symmetry_about_the_centre(h: Hex, c: Hex, k: int) -> None:
    assert h.rotate_left(c, 6) == h
    assert h.rotate_left(c).rotate_right(c) == h
    assert h.rotate_right(c).rotate_left(c) == h
    assert h.rotate_left(c, k) == h.rotate_right(c, -k)
    assert h.rotate_left(c, 3) == c - (h - c)
    assert h.rotate_left(c, k).distance(c) == h.distance(c)


@given(small, directions())
def test_rotate_left_turns_direction_i_into_i_plus_1(c: Hex, d: int) -> None:
    assert c.neighbor(d).rotate_left(c) == c.neighbor(d + 1)
    assert c.neighbor(d).rotate_right(c) == c.neighbor(d - 1)


@given(small, small, small)
def test_rotation_preserves_distances(a: Hex, b: Hex, c: Hex) -> None:
    assert a.rotate_left(c).distance(b.rotate_left(c)) == a.distance(b)


@pytest.mark.parametrize("reflect", [Hex.reflect_q, Hex.reflect_r, Hex.reflect_s])
@given(h=small, c=small, other=small)
def test_reflections_are_distance_preserving_involutions(
    reflect: object, h: Hex, c: Hex, other: Hex
) -> None:
    f = reflect  # a function of (hex, centre)
    assert callable(f)
    assert f(f(h, c), c) == h
    assert f(h, c).distance(c) == h.distance(c)
    assert f(h, c).distance(f(other, c)) == h.distance(other)
    assert f(c, c) == c


def test_reflections_swap_the_other_two_cube_coordinates() -> None:
    h = Hex(1, 2)  # s = -3
    assert (h.reflect_q().q, h.reflect_q().r, h.reflect_q().s) == (1, -3, 2)
    assert (h.reflect_r().q, h.reflect_r().r, h.reflect_r().s) == (-3, 2, 1)
    assert (h.reflect_s().q, h.reflect_s().r, h.reflect_s().s) == (2, 1, -3)
