"""SVG rendering: well-formed output, one polygon per cell, features where they belong,
counters with their texts, determinism, escaping, and the notebook hook."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import RenderError
from hexwar.board.maps import GameMap, build_map, hexagon, rectangle
from hexwar.board.terrain import chart_from_dict
from hexwar.grid.geometry import Hex
from hexwar.grid.layout import FLAT, POINTY, Layout, Point
from hexwar.grid.square import SQUARE_GRID, Square
from hexwar.render import (
    DEFAULT_HEX_SIZE,
    CounterView,
    HexsideKind,
    HexsideStyle,
    LineStyle,
    SquareLayout,
    Style,
    SvgImage,
    render_svg,
    write_svg,
)
from hexwar.render.metrics import text_width

NS = "{http://www.w3.org/2000/svg}"

CHART = chart_from_dict(
    {
        "terrain": {"clear": {}, "forest": {}, "town": {}, "swamp": {}},
        "hexside": {
            "river": {},
            "major_river": {},
            "bridge": {"negates": ["river"]},
            "don": {},
        },
        "linear": {"road": {}, "rail": {}},
        "movement": {"foot": {"terrain": {"clear": 1, "forest": 2, "town": 1, "swamp": 3}}},
    }
)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def group(root: ET.Element, cls: str) -> ET.Element | None:
    for g in root.iter(f"{NS}g"):
        if g.get("class") == cls:
            return g
    return None


def cells_of(root: ET.Element) -> list[ET.Element]:
    return [p for p in root.iter(f"{NS}polygon") if p.get("class") == "cell"]


def points(attr: str) -> list[Point]:
    out = []
    for pair in attr.split():
        x, y = pair.split(",")
        out.append(Point(float(x), float(y)))
    return out


def line_ends(el: ET.Element) -> tuple[Point, Point]:
    return (
        Point(float(el.get("x1", "nan")), float(el.get("y1", "nan"))),
        Point(float(el.get("x2", "nan")), float(el.get("y2", "nan"))),
    )


def lines(root: ET.Element, cls: str, feature: str | None = None) -> list[ET.Element]:
    return [
        el
        for el in root.iter(f"{NS}line")
        if el.get("class") == cls and (feature is None or el.get("data-feature") == feature)
    ]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def close(a: Point, b: Point, tol: float = 0.02) -> bool:
    return math.dist(a, b) <= tol


def demo_map(offset: str = "odd-q") -> GameMap[Any]:
    cells = rectangle(5, 4, offset)
    terrain = dict.fromkeys(cells, "clear") | {Hex(1, 1): "forest", Hex(2, 1): "town"}
    return build_map(
        CHART,
        terrain,
        names={Hex(2, 1): "Kalach", Hex(1, 1): "Forest <&> \"Glade\" 'x'"},
        hexsides={
            (Hex(0, 0), Hex(1, 0)): {"river"},
            (Hex(1, 0), Hex(1, 1)): {"river", "bridge"},
            (Hex(2, 1), Hex(3, 0)): {"major_river"},
        },
        paths=[("road", [Hex(0, 1), Hex(1, 1), Hex(2, 1)]), ("rail", [Hex(2, 1), Hex(2, 2)])],
        offset=offset,
    )


# -- structure --------------------------------------------------------------------------


@pytest.mark.parametrize("orientation", [POINTY, FLAT])
def test_one_polygon_per_cell_and_well_formed(orientation: Any) -> None:
    m = demo_map()
    layout = Layout(orientation, 20.0, (5, 7))
    root = parse(render_svg(m, layout))
    polys = cells_of(root)
    assert len(polys) == len(m) == 20
    for poly in polys:
        corners = points(poly.get("points", ""))
        assert len(corners) == 6
        centre = Point(sum(p.x for p in corners) / 6, sum(p.y for p in corners) / 6)
        assert poly.get("data-cell") == repr(layout.pixel_to_hex(centre))


@settings(max_examples=40, deadline=None)
@given(
    cells=st.sets(st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6)), min_size=1, max_size=25),
    terrain=st.sampled_from(["clear", "forest", "town", "swamp"]),
    orientation=st.sampled_from([POINTY, FLAT]),
    size=st.floats(5, 60),
)
def test_any_hex_map_renders_each_cell_inside_the_view_box(
    cells: set[Hex], terrain: str, orientation: Any, size: float
) -> None:
    m = build_map(CHART, dict.fromkeys(cells, terrain))
    layout = Layout(orientation, size)
    root = parse(render_svg(m, layout))
    polys = cells_of(root)
    assert sorted(p.get("data-cell", "") for p in polys) == sorted(repr(c) for c in cells)
    x0, y0, w, h = map(float, root.get("viewBox", "").split())
    for poly in polys:
        for p in points(poly.get("points", "")):
            assert x0 < p.x < x0 + w
            assert y0 < p.y < y0 + h


def test_terrain_colours_come_from_the_style_with_a_fallback() -> None:
    m = build_map(CHART, {Hex(0, 0): "clear", Hex(1, 0): "swamp", Hex(2, 0): "town"})
    style = Style(terrain={"clear": "#010203", "town": "#0a0b0c"}, terrain_fallback="#999999")
    fills = {
        p.get("data-cell"): p.get("fill") for p in cells_of(parse(render_svg(m, None, (), style)))
    }
    assert fills == {
        repr(Hex(0, 0)): "#010203",
        repr(Hex(1, 0)): "#999999",
        repr(Hex(2, 0)): "#0a0b0c",
    }


def test_style_updated_merges_the_game_palette_with_the_defaults() -> None:
    style = Style().updated(terrain={"steppe": "#123456"}, grid_colour="#000000")
    assert style.terrain_colour("steppe") == "#123456"
    assert style.terrain_colour("forest") == Style().terrain_colour("forest")
    assert style.grid_colour == "#000000"


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Style(terrain={"clear": 'red" onload="x'}),
        lambda: Style(hexside={"river": "blue"}),
        lambda: Style(highlight_opacity=2.0),
        lambda: HexsideStyle("#000000", 0.0),
        lambda: LineStyle("#000000", 0.1, dash=(0.1, -1.0)),
        lambda: CounterView(Hex(0, 0), ""),
    ],
)
def test_bad_style_values_raise_render_error(bad: Any) -> None:
    with pytest.raises(RenderError):
        bad()


# -- hexside and linear features -------------------------------------------------------


@pytest.mark.parametrize("orientation", [POINTY, FLAT])
def test_river_is_drawn_on_the_shared_hexside(orientation: Any) -> None:
    m = demo_map()
    layout = Layout(orientation, 30.0)
    rivers = lines(parse(render_svg(m, layout)), "hexside", "river")
    sides = sorted(el.get("data-cells", "") for el in rivers)
    assert sides == sorted([f"{Hex(0, 0)!r} {Hex(1, 0)!r}", f"{Hex(1, 0)!r} {Hex(1, 1)!r}"])
    for el, (a, b) in zip(
        sorted(rivers, key=lambda e: e.get("data-cells", "")),
        sorted([(Hex(0, 0), Hex(1, 0)), (Hex(1, 0), Hex(1, 1))], key=repr),
        strict=True,
    ):
        p, q = line_ends(el)
        ca, cb = layout.hex_to_pixel(a), layout.hex_to_pixel(b)
        mid = Point((p.x + q.x) / 2, (p.y + q.y) / 2)
        assert close(mid, Point((ca.x + cb.x) / 2, (ca.y + cb.y) / 2))
        # the segment is a whole hexside: as long as the hex radius, across the centre line
        assert math.dist(p, q) == pytest.approx(30.0, abs=0.02)
        dot = (q.x - p.x) * (cb.x - ca.x) + (q.y - p.y) * (cb.y - ca.y)
        assert abs(dot) < 0.5


@settings(max_examples=30, deadline=None)
@given(
    centre=st.builds(Hex, st.integers(-3, 3), st.integers(-3, 3)),
    direction=st.integers(0, 5),
    orientation=st.sampled_from([POINTY, FLAT]),
)
def test_any_river_segment_lies_between_its_two_hex_centres(
    centre: Hex, direction: int, orientation: Any
) -> None:
    other = centre.neighbor(direction)
    m = build_map(
        CHART,
        dict.fromkeys([centre, other, *centre.neighbors()], "clear"),
        hexsides={(centre, other): {"river"}},
    )
    layout = Layout(orientation, 25.0)
    (el,) = lines(parse(render_svg(m, layout)), "hexside", "river")
    p, q = line_ends(el)
    ca, cb = layout.hex_to_pixel(centre), layout.hex_to_pixel(other)
    assert close(
        Point((p.x + q.x) / 2, (p.y + q.y) / 2), Point((ca.x + cb.x) / 2, (ca.y + cb.y) / 2)
    )
    # both ends are corners of both hexes
    for end in (p, q):
        assert any(close(end, c) for c in layout.corners(centre))
        assert any(close(end, c) for c in layout.corners(other))


def test_major_river_is_thicker_and_unknown_hexside_features_use_the_fallback() -> None:
    m = build_map(
        CHART,
        dict.fromkeys(hexagon(1), "clear"),
        hexsides={(Hex(0, 0), Hex(1, 0)): {"major_river"}, (Hex(0, 0), Hex(0, 1)): {"river"}},
    )
    root = parse(render_svg(m))
    (major,) = lines(root, "hexside", "major_river")
    (river,) = lines(root, "hexside", "river")
    assert float(major.get("stroke-width", "0")) > float(river.get("stroke-width", "0"))
    m2 = build_map(
        CHART, dict.fromkeys(hexagon(1), "clear"), hexsides={(Hex(0, 0), Hex(1, 0)): {"don"}}
    )
    (don,) = lines(parse(render_svg(m2)), "hexside", "don")
    assert don.get("stroke") == Style().hexside_fallback.colour


def test_bridge_is_a_bar_across_the_hexside_along_the_centre_line() -> None:
    m = demo_map()
    layout = Layout(FLAT, 30.0)
    root = parse(render_svg(m, layout))
    (bridge,) = lines(root, "crossing", "bridge")
    assert lines(root, "hexside", "bridge") == []
    p, q = line_ends(bridge)
    ca, cb = layout.hex_to_pixel(Hex(1, 0)), layout.hex_to_pixel(Hex(1, 1))
    assert close(
        Point((p.x + q.x) / 2, (p.y + q.y) / 2), Point((ca.x + cb.x) / 2, (ca.y + cb.y) / 2)
    )
    cross = (q.x - p.x) * (cb.y - ca.y) - (q.y - p.y) * (cb.x - ca.x)
    assert abs(cross) < 0.5  # parallel to the line between the centres


def test_roads_run_centre_to_centre_and_railways_have_ties() -> None:
    m = demo_map()
    layout = Layout(POINTY, 30.0)
    root = parse(render_svg(m, layout))
    roads = lines(root, "linear", "road")
    assert len(roads) == 2
    centres = {layout.hex_to_pixel(h) for h in (Hex(0, 1), Hex(1, 1), Hex(2, 1))}
    for el in roads:
        for end in line_ends(el):
            assert any(close(end, c) for c in centres)
    (rail,) = lines(root, "linear", "rail")
    ties = lines(root, "tie")
    assert len(ties) >= 2
    a, b = line_ends(rail)
    for tie in ties:
        p, q = line_ends(tie)
        mid = Point((p.x + q.x) / 2, (p.y + q.y) / 2)
        # each tie is centred on the rail line and crosses it at a right angle
        assert abs((b.x - a.x) * (mid.y - a.y) - (b.y - a.y) * (mid.x - a.x)) < 1.0
        assert abs((q.x - p.x) * (b.x - a.x) + (q.y - p.y) * (b.y - a.y)) < 1.0


def test_dashed_linear_style_sets_a_dash_array() -> None:
    style = Style().updated(linear={"road": LineStyle("#000000", 0.05, dash=(0.2, 0.1))})
    root = parse(render_svg(demo_map(), Layout(POINTY, 10.0), (), style))
    assert {el.get("stroke-dasharray") for el in lines(root, "linear", "road")} == {"2 1"}


# -- names, labels, title, escaping ----------------------------------------------------


def test_names_appear_escaped_and_round_trip() -> None:
    svg = render_svg(demo_map())
    root = parse(svg)
    assert "Kalach" in texts(root)
    assert "Forest <&> \"Glade\" 'x'" in texts(root)
    assert "Forest &lt;&amp;&gt;" in svg
    assert "<&>" not in svg
    assert "Kalach" not in texts(parse(render_svg(demo_map(), names=False)))


def test_control_characters_do_not_break_the_xml() -> None:
    m = build_map(CHART, {Hex(0, 0): "clear"}, names={Hex(0, 0): "bad\x00\x1fname"})
    root = parse(render_svg(m, title="t\x07"))
    assert "bad\ufffd\ufffdname" in texts(root)


def test_labels_are_the_maps_own_labels() -> None:
    m = demo_map("odd-q")
    root = parse(render_svg(m, labels=True))
    label_group = group(root, "labels")
    assert label_group is not None
    assert sorted(t.text or "" for t in label_group) == sorted(m.label(c) for c in m)
    assert "0101" in texts(root)
    assert group(parse(render_svg(m)), "labels") is None


def test_labels_can_be_a_function_and_none_skips_a_cell() -> None:
    m = build_map(CHART, dict.fromkeys(hexagon(1), "clear"))
    root = parse(render_svg(m, labels=lambda h: f"{h.q}/{h.r}" if h.q >= 0 else None))
    label_group = group(root, "labels")
    assert label_group is not None
    assert sorted(t.text or "" for t in label_group) == sorted(
        f"{h.q}/{h.r}" for h in hexagon(1) if h.q >= 0
    )


def test_labels_on_a_map_without_an_offset_layout_raise() -> None:
    m = build_map(CHART, dict.fromkeys(hexagon(1), "clear"))
    with pytest.raises(RenderError, match="no labels"):
        render_svg(m, labels=True)


def test_title_is_a_title_element_and_a_visible_heading() -> None:
    root = parse(render_svg(demo_map(), title="Сталинград <1942>"))
    title = root.find(f"{NS}title")
    assert title is not None
    assert title.text == "Сталинград <1942>"
    assert "Сталинград <1942>" in texts(root)


# -- counters ---------------------------------------------------------------------------


def counter_groups(root: ET.Element) -> list[ET.Element]:
    return [
        g
        for g in root.iter(f"{NS}g")
        if (g.get("class") or "").startswith("counter ") or g.get("class") == "counter"
    ]


def test_counters_appear_with_their_texts_and_reduced_marks() -> None:
    counters = [
        CounterView(Hex(1, 1), "#c03030", top="62 A", bottom="6-4"),
        CounterView(Hex(2, 2), "#3050c0", top="4 Pz", bottom="8-6", reduced=True, title="<4>"),
    ]
    root = parse(render_svg(demo_map(), counters=counters))
    groups = counter_groups(root)
    assert [g.get("data-cell") for g in groups] == [repr(Hex(1, 1)), repr(Hex(2, 2))]
    first, second = ([t.text for t in g.iter(f"{NS}text")] for g in groups)
    assert first == ["62 A", "6-4"]
    assert second == ["4 Pz", "8-6"]
    assert groups[0].get("class") == "counter"
    assert groups[1].get("class") == "counter reduced"
    assert [r.get("class") for r in groups[1].iter(f"{NS}rect")] == [None, "stripe"]
    assert [r.get("class") for r in groups[0].iter(f"{NS}rect")] == [None]
    assert groups[1].find(f"{NS}title") is not None
    assert groups[0].find(f"{NS}rect").get("fill") == "#c03030"  # type: ignore[union-attr]


def test_stacked_counters_fan_out_around_the_cell_centre() -> None:
    layout = Layout(FLAT, 30.0)
    stack = [CounterView(Hex(1, 1), "#ffffff", bottom=str(i)) for i in range(3)]
    root = parse(render_svg(demo_map(), layout, stack))
    centres = []
    for g in counter_groups(root):
        rect = g.find(f"{NS}rect")
        assert rect is not None
        x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
        w, h = float(rect.get("width", "0")), float(rect.get("height", "0"))
        centres.append(Point(x + w / 2, y + h / 2))
    assert len(set(centres)) == 3
    mean = Point(sum(p.x for p in centres) / 3, sum(p.y for p in centres) / 3)
    assert close(mean, layout.hex_to_pixel(Hex(1, 1)))
    # later counters (drawn on top) sit up and to the right
    assert centres[0].x < centres[1].x < centres[2].x
    assert centres[0].y > centres[1].y > centres[2].y


def test_long_counter_text_is_squeezed_to_fit() -> None:
    root = parse(render_svg(demo_map(), counters=[CounterView(Hex(0, 0), "#fff", top="X" * 30)]))
    (text,) = [t for t in root.iter(f"{NS}text") if t.text == "X" * 30]
    side = Style().counter_size * DEFAULT_HEX_SIZE  # pointy hexes: the unit is the radius
    width = text_width("X" * 30, float(text.get("font-size", "0")))
    assert 0.8 * side < width <= 0.9 * side  # a smaller font, as wide as the counter allows


def test_counter_off_the_map_raises() -> None:
    with pytest.raises(RenderError, match="not on the map"):
        render_svg(demo_map(), counters=[CounterView(Hex(40, 40), "#fff")])
    with pytest.raises(RenderError, match="CounterView"):
        render_svg(demo_map(), counters=["6-4"])  # type: ignore[list-item]


# -- highlight and path -----------------------------------------------------------------


def test_highlight_overlays_the_given_cells() -> None:
    cells = [Hex(0, 0), Hex(1, 0), Hex(1, 1)]
    root = parse(render_svg(demo_map(), highlight=reversed(cells)))
    hl = group(root, "highlight")
    assert hl is not None
    assert [p.get("data-cell") for p in hl] == [repr(c) for c in sorted(cells)]
    assert 0 < float(hl.get("fill-opacity", "0")) < 1
    root = parse(render_svg(demo_map(), highlight={Hex(0, 0): "#ff0000", Hex(1, 0): "#00ff00"}))
    hl = group(root, "highlight")
    assert hl is not None
    assert [p.get("fill") for p in hl] == ["#ff0000", "#00ff00"]
    with pytest.raises(RenderError, match="highlighted cell"):
        render_svg(demo_map(), highlight=[Hex(-9, 0)])


def test_path_is_a_polyline_through_the_cell_centres() -> None:
    layout = Layout(POINTY, 30.0)
    route = [Hex(0, 0), Hex(0, 1), Hex(1, 1), Hex(2, 1)]
    root = parse(render_svg(demo_map(), layout, path=route))
    line = root.find(f"{NS}g[@class='path']/{NS}polyline")
    assert line is not None
    drawn = points(line.get("points", ""))
    assert len(drawn) == len(route)
    for p, h in zip(drawn, route, strict=True):
        assert close(p, layout.hex_to_pixel(h))
    with pytest.raises(RenderError, match="path cell"):
        render_svg(demo_map(), path=[Hex(0, 0), Hex(99, 0)])


# -- determinism, notebook, files -------------------------------------------------------


def test_rendering_is_deterministic_whatever_the_build_order() -> None:
    kw: dict[str, Any] = {
        "counters": [CounterView(Hex(1, 1), "#fff", top="a", bottom="1-1")],
        "labels": True,
        "title": "t",
        "highlight": {Hex(0, 0), Hex(1, 0), Hex(2, 0)},
    }
    first = render_svg(demo_map(), **kw)
    assert render_svg(demo_map(), **kw) == first
    m = demo_map()
    # the same map built from data given in the reverse order
    terrain = {c: m.terrain(c) for c in reversed(list(m))}
    rebuilt = build_map(
        CHART,
        terrain,
        names={c: n for c in reversed(list(m)) if (n := m.cell_name(c))},
        hexsides={
            (b, a): m.hexside(a, b) for a, b in reversed(sorted(m.graph.edges)) if m.hexside(a, b)
        },
        paths=[("rail", [Hex(2, 2), Hex(2, 1)]), ("road", [Hex(2, 1), Hex(1, 1), Hex(0, 1)])],
        offset="odd-q",
    )
    assert render_svg(rebuilt, **kw) == first


def test_svg_image_is_a_string_with_a_notebook_hook() -> None:
    svg = render_svg(demo_map())
    assert isinstance(svg, SvgImage)
    assert isinstance(svg, str)
    assert svg._repr_svg_() == str(svg)
    parse(svg._repr_svg_())


def test_width_scales_the_image_and_keeps_the_aspect_ratio() -> None:
    root = parse(render_svg(demo_map(), width=400))
    _, _, w, h = map(float, root.get("viewBox", "").split())
    assert float(root.get("width", "0")) == 400
    assert float(root.get("height", "0")) == pytest.approx(400 * h / w, abs=0.01)
    with pytest.raises(RenderError):
        render_svg(demo_map(), width=0)


def test_write_svg_writes_the_same_text(tmp_path: Path) -> None:
    target = write_svg(tmp_path / "map.svg", demo_map(), labels=True)
    assert target.read_text(encoding="utf-8") == render_svg(demo_map(), labels=True)


def test_default_layout_follows_the_offset_kind() -> None:
    # odd-q maps are flat-topped: corner 0 of Hex(0, 0) lies on the x axis
    root = parse(render_svg(demo_map("odd-q")))
    first = points(cells_of(root)[0].get("points", ""))[0]
    assert first.y == 0
    root = parse(render_svg(demo_map("odd-r")))
    first = points(cells_of(root)[0].get("points", ""))[0]
    assert first.y != 0


# -- squares ----------------------------------------------------------------------------


def square_map() -> GameMap[Any]:
    cells = [Square(c, r) for c in range(4) for r in range(3)]
    return build_map(
        CHART,
        dict.fromkeys(cells, "clear"),
        topology=SQUARE_GRID,
        names={Square(1, 1): "Хутор"},
        hexsides={
            (Square(0, 0), Square(1, 0)): {"river"},
            (Square(1, 1), Square(2, 2)): {"river"},
            (Square(2, 0), Square(2, 1)): {"bridge"},
        },
        paths=[("road", [Square(0, 2), Square(1, 1), Square(2, 1)])],
    )


def test_square_grid_renders_squares_and_side_features() -> None:
    m = square_map()
    layout = SquareLayout(40.0, (20, 20))
    root = parse(render_svg(m, layout, labels=True))
    polys = cells_of(root)
    assert len(polys) == 12
    assert all(len(points(p.get("points", ""))) == 4 for p in polys)
    assert "Хутор" in texts(root)
    assert "0101" in texts(root)
    (river,) = lines(root, "hexside", "river")  # the diagonal one has no side to draw on
    p, q = line_ends(river)
    assert sorted([p, q]) == [Point(40.0, 0.0), Point(40.0, 40.0)]
    (bridge,) = lines(root, "crossing", "bridge")
    assert close(Point(*[sum(v) / 2 for v in zip(*line_ends(bridge), strict=True)]), Point(100, 40))
    assert len(lines(root, "linear", "road")) == 2


def test_layout_that_does_not_fit_the_cells_raises() -> None:
    with pytest.raises(RenderError, match="hex layout"):
        render_svg(square_map(), Layout(POINTY, 10.0))
    with pytest.raises(RenderError, match="square layout"):
        render_svg(demo_map(), SquareLayout(10.0))
    with pytest.raises(RenderError, match="layout must be"):
        render_svg(demo_map(), "pointy")  # type: ignore[arg-type]


def test_hexside_kinds_are_configurable() -> None:
    style = Style().updated(hexside={"river": HexsideStyle("#00f", 0.1, HexsideKind.CROSSING)})
    root = parse(render_svg(demo_map(), None, (), style))
    assert lines(root, "hexside", "river") == []
    assert len(lines(root, "crossing", "river")) == 2
