"""Screen layout: hex <-> pixel round trips, corners, and agreement with directions."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.base.errors import GeometryError
from hexwar.grid.edges import Vertex
from hexwar.grid.geometry import DIRECTIONS, FractionalHex, Hex
from hexwar.grid.layout import FLAT, POINTY, Layout, Orientation, Point
from hexwar.testing.strategies import directions, hexes

small = hexes(radius=200)
orientations = st.sampled_from([POINTY, FLAT])
sizes = st.tuples(
    st.floats(min_value=1, max_value=100),
    st.floats(min_value=1, max_value=100),
)
origins = st.tuples(st.floats(-500, 500), st.floats(-500, 500))


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    return Layout(draw(orientations), draw(sizes), draw(origins))


def angle_of(v: Point) -> float:
    """The on-screen angle in degrees, counter-clockwise as seen (screen y points down)."""
    return math.degrees(math.atan2(-v.y, v.x)) % 360


def close(p: Point, q: Point, tol: float = 1e-6) -> bool:
    return math.isclose(p.x, q.x, abs_tol=tol) and math.isclose(p.y, q.y, abs_tol=tol)


def test_red_blob_layout_round_trips() -> None:
    # Red Blob's reference test: Hex(3, 4, -7) through both layouts of size (10, 15)
    h = Hex(3, 4)
    for orientation in (FLAT, POINTY):
        layout = Layout(orientation, Point(10, 15), Point(35, 71))
        assert layout.pixel_to_hex(layout.hex_to_pixel(h)) == h


def test_known_pixel_positions() -> None:
    pointy = Layout(POINTY, 10.0)
    flat = Layout(FLAT, 10.0)
    root3 = math.sqrt(3)
    assert close(pointy.hex_to_pixel(Hex(1, 0)), Point(10 * root3, 0))
    assert close(pointy.hex_to_pixel(Hex(0, 1)), Point(5 * root3, 15))
    assert close(flat.hex_to_pixel(Hex(1, 0)), Point(15, 5 * root3))
    assert close(flat.hex_to_pixel(Hex(0, 1)), Point(0, 10 * root3))


@given(layouts(), small)
def test_hex_to_pixel_to_hex_round_trips(layout: Layout, h: Hex) -> None:
    p = layout.hex_to_pixel(h)
    assert layout.pixel_to_hex(p) == h
    f = layout.pixel_to_fractional(p)
    assert math.isclose(f.q, h.q, abs_tol=1e-9)
    assert math.isclose(f.r, h.r, abs_tol=1e-9)


@given(layouts(), small, st.floats(0, 0.95), st.floats(0, 2 * math.pi))
def test_pixels_inside_a_hex_map_back_to_it(
    layout: Layout, h: Hex, frac: float, angle: float
) -> None:
    # inscribed circle radius (centre to hexside) is sqrt(3)/2 of the size, per axis
    centre = layout.hex_to_pixel(h)
    rx, ry = layout.size.x * math.sqrt(3) / 2, layout.size.y * math.sqrt(3) / 2
    p = Point(centre.x + frac * rx * math.cos(angle), centre.y + frac * ry * math.sin(angle))
    assert layout.pixel_to_hex(p) == h


@given(layouts(), small, st.floats(-0.45, 0.45), st.floats(-0.45, 0.45))
def test_fractional_pixel_round_trip(layout: Layout, h: Hex, dq: float, dr: float) -> None:
    f = FractionalHex(h.q + dq, h.r + dr)
    back = layout.pixel_to_fractional(layout.hex_to_pixel(f))
    assert math.isclose(back.q, f.q, abs_tol=1e-9)
    assert math.isclose(back.r, f.r, abs_tol=1e-9)


@pytest.mark.parametrize(("orientation", "first_direction_angle"), [(POINTY, 0.0), (FLAT, 330.0)])
def test_directions_run_counter_clockwise_on_screen(
    orientation: Orientation, first_direction_angle: float
) -> None:
    layout = Layout(orientation, 1.0)
    for d, step in enumerate(DIRECTIONS):
        expected = (first_direction_angle + 60 * d) % 360
        assert math.isclose(angle_of(layout.hex_to_pixel(step)), expected, abs_tol=1e-9)


@given(st.sampled_from([POINTY, FLAT]), directions())
def test_corner_i_lies_between_directions_i_and_i_plus_1(orientation: Orientation, i: int) -> None:
    layout = Layout(orientation, 1.0)
    a = angle_of(layout.hex_to_pixel(DIRECTIONS[i]))
    corner = angle_of(layout.corner_offset(i))
    assert math.isclose((a + 30) % 360, corner, abs_tol=1e-9)


@given(layouts(), small, directions())
def test_a_vertex_has_the_same_pixel_from_each_of_its_hexes(layout: Layout, h: Hex, i: int) -> None:
    v = Vertex.from_corner(h, i)
    points = [layout.corner(x, v.corner_of(x)) for x in v.hexes]
    assert all(close(p, points[0], tol=1e-6) for p in points)


@given(layouts(), small)
def test_corners_form_a_hexagon_around_the_centre(layout: Layout, h: Hex) -> None:
    corners = layout.corners(h)
    assert len(corners) == 6
    centre = layout.hex_to_pixel(h)
    for i, p in enumerate(corners):
        off = layout.corner_offset(i)
        assert close(p, Point(centre.x + off.x, centre.y + off.y))
        assert close(p, layout.corner(h, i))
    # shoelace area of a regular hexagon scaled by (size.x, size.y): 3*sqrt(3)/2 * sx * sy
    area = 0.5 * sum(
        a.x * b.y - b.x * a.y for a, b in zip(corners, corners[1:] + corners[:1], strict=True)
    )
    expected = 3 * math.sqrt(3) / 2 * layout.size.x * layout.size.y
    # counter-clockwise on screen is clockwise in y-down maths: negative signed area
    assert math.isclose(-area, expected, rel_tol=1e-9)


def test_negative_y_size_gives_a_y_up_picture() -> None:
    up = Layout(POINTY, (10.0, -10.0))
    assert up.hex_to_pixel(Hex(0, -1)).y > 0  # north-west is up: larger y
    assert up.pixel_to_hex(up.hex_to_pixel(Hex(2, -3))) == Hex(2, -3)
    assert up.corner_offset(1).y > 0  # the top corner of a pointy hex


@pytest.mark.parametrize(
    ("orientation", "size"), [("square", 1.0), ("pointy", 0.0), ("flat", (1.0, 0.0))]
)
def test_bad_layouts_are_rejected(orientation: str, size: float | tuple[float, float]) -> None:
    with pytest.raises(GeometryError):
        Layout(orientation, size)


def test_orientation_may_be_given_by_name() -> None:
    assert Layout("pointy", 2.0) == Layout(POINTY, (2.0, 2.0))
