"""Maps as graphs: shapes, labels, map files and their validation."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import DataError
from hexwar.board.map_load import load_map, map_from_dict
from hexwar.board.maps import (
    OFFSET_LAYOUTS,
    GameMap,
    build_map,
    hexagon,
    rectangle,
    square_rectangle,
)
from hexwar.board.terrain import Step, chart_from_dict
from hexwar.grid.coords import hex_to_offset, offset_to_hex
from hexwar.grid.geometry import Hex
from hexwar.grid.square import SQUARE_GRID, Square
from hexwar.testing.strategies import game_maps, hexes

CHART = chart_from_dict(
    {
        "terrain": {"clear": {}, "forest": {}, "town": {}, "lake": {"impassable": True}},
        "hexside": {"river": {}, "bridge": {"negates": ["river"]}},
        "linear": {"road": {}, "rail": {}},
        "movement": {
            "foot": {
                "terrain": {"clear": 1, "forest": 2, "town": 1},
                "hexside": {"river": 2},
                "along": {"road": 1},
            }
        },
    }
)

MAP_TOML = """
[map]
name = "Test / Тест"
shape = "rectangle"
columns = 6
rows = 5
offset = "odd-q"
default_terrain = "clear"

[[cells]]
at = "0302"
terrain = "town"
name = "Kalach / Калач"
tags = ["city", "truck:rkka", "start:12"]

[[cells]]
cells = ["0101", "0102", [5, 0]]
terrain = "forest"

[[hexsides]]
between = ["0302", "0303"]
features = ["river"]

[[hexsides]]
between = ["0402", "0302"]
features = ["river", "bridge"]

[[paths]]
feature = "road"
cells = ["0101", "0201", "0302", "0402"]
"""


def data() -> dict[str, Any]:
    return tomllib.loads(MAP_TOML)


@pytest.fixture
def map_file(tmp_path: Path) -> Path:
    p = tmp_path / "map.toml"
    p.write_text(MAP_TOML, encoding="utf-8")
    return p


@settings(max_examples=200)
@given(hexes(100), st.sampled_from(OFFSET_LAYOUTS))
def test_offset_conversion_round_trips(h: Hex, layout: str) -> None:
    c = hex_to_offset(h, layout)
    col, row = c.col, c.row
    assert offset_to_hex(col, row, layout) == h


@pytest.mark.parametrize("layout", OFFSET_LAYOUTS)
def test_rectangle_rows_and_columns_are_adjacent(layout: str) -> None:
    cells = set(rectangle(4, 4, layout))
    assert len(cells) == 16
    for c in range(4):
        for r in range(3):  # the cell below in the same column is always adjacent
            assert offset_to_hex(c, r, layout).distance(offset_to_hex(c, r + 1, layout)) == 1


def test_load_map_file(map_file: Path) -> None:
    m = load_map(map_file, CHART)
    assert isinstance(m.graph, nx.Graph)
    assert len(m) == 30
    assert m.name == "Test / Тест"
    town = m.cell_at("0302")
    assert town == offset_to_hex(2, 1, "odd-q")
    assert m.label(town) == "0302"
    assert m.terrain(town) == "town"
    assert m.cell_name(town) == "Kalach / Калач"
    assert m.tags(town) == {"city", "truck:rkka", "start:12"}
    assert m.tagged("city") == [town]
    assert m.terrain(m.cell_at("0102")) == "forest"
    assert m.terrain(Hex(5, 0)) == "forest"  # given in axial coordinates
    assert m.label(Hex(5, 0)) == "0603"
    assert m.terrain(m.cell_at("0505")) == "clear"
    below = m.cell_at("0303")
    assert m.hexside(town, below) == {"river"}
    assert m.cost(town, below, "foot") == Step(3)
    assert m.cost(town, m.cell_at("0402"), "foot") == Step(1)  # bridged
    assert m.linear(m.cell_at("0201"), town) == {"road"}
    assert m.graph.nodes[town]["terrain"] == "town"
    assert m.graph.edges[town, below]["hexside"] == {"river"}


def test_json_map_equals_toml_map(map_file: Path, tmp_path: Path) -> None:
    j = tmp_path / "map.json"
    j.write_text(json.dumps(data()), encoding="utf-8")
    a, b = load_map(map_file, CHART), load_map(j, CHART)
    assert nx.utils.graphs_equal(a.graph, b.graph)


def test_hexagon_and_cells_shapes_and_square_grid() -> None:
    hexa = map_from_dict(
        {"map": {"shape": "hexagon", "radius": 2, "default_terrain": "clear"}}, CHART
    )
    assert set(hexa.indexed_cells()) == set(hexagon(2))
    cells = map_from_dict(
        {
            "map": {"shape": "cells"},
            "cells": [{"at": [0, 0], "terrain": "clear"}, {"at": [1, 0], "terrain": "forest"}],
        },
        CHART,
    )
    assert len(cells) == 2
    assert cells.graph.has_edge(Hex(0, 0), Hex(1, 0))
    sq = map_from_dict(
        {"map": {"grid": "square", "columns": 10, "rows": 15, "default_terrain": "clear"}}, CHART
    )
    assert len(sq) == 150
    assert sq.topology is SQUARE_GRID
    assert sq.cell_at("1015") == Square(9, 14)
    assert sq.label(Square(0, 0)) == "0101"
    assert sq.graph.degree(Square(4, 4)) == 8


def test_build_map_in_code_matches_topology() -> None:
    m = build_map(CHART, dict.fromkeys(hexagon(3), "clear"))
    assert m.graph.number_of_edges() == sum(len(m.neighbors(c)) for c in m) // 2
    assert m.neighbors(Hex(0, 0)) == sorted(Hex(0, 0).neighbors())
    with pytest.raises(ValueError, match="no labels"):
        m.label(Hex(0, 0))


@settings(max_examples=30, deadline=None)
@given(game_maps())
def test_generated_maps_are_consistent_graphs(m: Any) -> None:
    for a, b in m.graph.edges:
        assert m.topology.are_adjacent(a, b)
        assert m.graph.edges[a, b]["hexside"] <= set(m.chart.hexside_features)
    for c in m:
        assert m.terrain(c) in m.chart.terrains


def _mutated(change: Any) -> dict[str, Any]:
    d = data()
    change(d)
    return d


@pytest.mark.parametrize(
    ("change", "entry", "reason"),
    [
        (lambda d: d["cells"][0].update(at="0909"), "cells[0].at", "off the map"),
        (lambda d: d["cells"][0].update(at=[40, 0]), "cells[0].at", "off the map"),
        (lambda d: d["cells"][0].update(at="09x9"), "cells[0].at", "bad map label"),
        (lambda d: d["cells"][0].update(terrain="swamp"), "cells[0].terrain", "unknown terrain"),
        (lambda d: d["cells"][1]["cells"].append("0302"), "cells[1]", "duplicate cell"),
        (lambda d: d["cells"][1].update(name="x"), "cells[1].name", "single cell"),
        (lambda d: d["cells"][0].update(colour="red"), "cells[0]", "unknown key 'colour'"),
        (
            lambda d: d["hexsides"][0].update(between=["0302", "0304"]),
            "hexsides[0]",
            "not adjacent",
        ),
        (
            lambda d: d["hexsides"][1].update(between=["0303", "0302"]),
            "hexsides[1]",
            "duplicate hexside",
        ),
        (
            lambda d: d["hexsides"][0].update(features=["wall"]),
            "hexsides[0].features[0]",
            "unknown hexside feature",
        ),
        (lambda d: d["paths"][0]["cells"].append("0505"), "paths[0].cells[4]", "not adjacent"),
        (
            lambda d: d["paths"][0].update(feature="canal"),
            "paths[0].feature",
            "unknown linear feature",
        ),
        (lambda d: d["paths"][0].update(cells=["0101"]), "paths[0].cells", "at least two"),
        (lambda d: d["map"].update(shape="star"), "map.shape", "unknown shape"),
        (lambda d: d["map"].update(columns=0), "map.columns", ">= 1"),
        (lambda d: d["map"].update(offset="odd-z"), "map.offset", "unknown offset"),
        (
            lambda d: d["map"].update(default_terrain="swamp"),
            "map.default_terrain",
            "unknown terrain",
        ),
        (lambda d: d["map"].pop("default_terrain"), "cells", "no terrain for"),
    ],
)
def test_map_validation_names_file_and_entry(change: Any, entry: str, reason: str) -> None:
    with pytest.raises(DataError) as info:
        map_from_dict(_mutated(change), CHART, source="map.toml")
    assert info.value.source == "map.toml"
    assert info.value.entry == entry
    assert reason in info.value.reason


def test_build_map_validation() -> None:
    cells = dict.fromkeys(hexagon(1), "clear")
    with pytest.raises(DataError, match="unknown terrain 'swamp'"):
        build_map(CHART, cells | {Hex(2, 0): "swamp"})
    with pytest.raises(DataError, match="not adjacent"):
        build_map(
            CHART,
            cells,
            hexsides={(Hex(0, 0), Hex(1, -1)): {"river"}} | {(Hex(-1, 0), Hex(1, 0)): {"river"}},
        )
    with pytest.raises(DataError, match="off the map"):
        build_map(CHART, cells, paths=[("road", [Hex(0, 0), Hex(1, 0), Hex(2, 0)])])


def test_labels_round_trip_on_every_cell_and_stay_right_when_cached() -> None:
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
    )
    game_map = build_map(chart, dict.fromkeys(rectangle(12, 9, "odd-r"), "clear"), offset="odd-r")
    for _ in range(2):  # the second pass reads the caches
        for cell in game_map:
            assert game_map.cell_at(game_map.label(cell)) == cell
    labels = [game_map.label(c) for c in game_map]
    assert len(set(labels)) == len(labels)
    with pytest.raises(ValueError, match="off the map"):
        game_map.cell_at("1310")


# -- tag-derived lookups and linear-feature cells ------------------------------------------


def _tagged_map() -> GameMap[Square]:
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "linear": {"rail": {}, "road": {}},
         "movement": {"foot": {"terrain": {"clear": 1}}}}
    )  # fmt: skip
    cells = dict.fromkeys(square_rectangle(3, 3), "clear")
    tags = {Square(0, 0): ["zone:red", "row:I"], Square(1, 0): ["zone:red"], Square(2, 2): ["x"]}
    rail = [Square(0, 0), Square(1, 1), Square(1, 2)]
    return build_map(chart, cells, topology=SQUARE_GRID, tags=tags, paths=[("rail", rail)])


def test_tag_values_reads_key_value_tags() -> None:
    m = _tagged_map()
    assert m.tag_values("zone") == {Square(0, 0): "red", Square(1, 0): "red"}
    assert m.tag_values("row") == {Square(0, 0): "I"}
    assert m.tag_values("x") == {}  # a bare tag has no value
    assert list(m.tag_values("zone")) == sorted(m.tag_values("zone"))


def test_tag_values_refuses_two_values_for_one_cell() -> None:
    m = _tagged_map()
    bad = build_map(m.chart, {Square(0, 0): "clear"}, topology=SQUARE_GRID,
                    tags={Square(0, 0): ["zone:red", "zone:blue"]}, name="two.toml")  # fmt: skip
    with pytest.raises(DataError, match=r"two\.toml: Square\(col=0, row=0\): two 'zone' tags"):
        bad.tag_values("zone")


def test_feature_cells_lists_the_cells_a_linear_feature_runs_through() -> None:
    m = _tagged_map()
    assert m.feature_cells("rail") == [Square(0, 0), Square(1, 1), Square(1, 2)]
    assert m.feature_cells("road") == []


def test_with_movement_costs_shares_only_what_the_change_leaves_alone() -> None:
    """A variant (mud, a frozen river) prices the changed class anew and keeps the other
    classes' compiled steps and the zones of control of the base map."""
    from hexwar.board.move_search import compiled_adjacency
    from hexwar.board.movement import reachable
    from hexwar.board.terrain import chart_from_dict

    spec = {
        "terrain": {"clear": {}, "marsh": {}},
        "movement": {
            "foot": {"terrain": {"clear": 1, "marsh": 2}},
            "wheel": {"terrain": {"clear": 1, "marsh": 3}},
        },
    }
    cells = {h: ("marsh" if h.q == 1 else "clear") for h in hexagon(3)}
    base = build_map(chart_from_dict(spec), cells)
    foot, wheel, zoc = (
        compiled_adjacency(base, "foot"),
        compiled_adjacency(base, "wheel"),
        base.zoc_projection(),
    )
    variant = base.with_movement_costs([("wheel", "marsh", None)])
    assert compiled_adjacency(variant, "foot") is foot
    assert variant.zoc_projection() is zoc
    assert compiled_adjacency(variant, "wheel") is not wheel
    dear = base.with_movement_costs([("wheel", "marsh", 2)])
    spec["movement"]["wheel"]["terrain"]["marsh"] = 2  # type: ignore[index]
    fresh = build_map(chart_from_dict(spec), cells)
    for mclass in ("foot", "wheel"):
        got = reachable(dear, Hex(0, 0), mclass, 4).costs
        assert got == reachable(fresh, Hex(0, 0), mclass, 4).costs
    assert (
        reachable(dear, Hex(0, 0), "wheel", 4).costs != reachable(base, Hex(0, 0), "wheel", 4).costs
    )
    assert Hex(1, 0) not in reachable(variant, Hex(0, 0), "wheel", 4).costs
    assert Hex(1, 0) in reachable(base, Hex(0, 0), "wheel", 4).costs
    assert base.with_movement_costs([]) is base
    both = base.with_movement_costs([("foot", "clear", 2), ("foot", "marsh", 5)])
    assert both.cost(Hex(0, 0), Hex(-1, 0), "foot").cost == 2  # several changes add up
    assert both.cost(Hex(0, 0), Hex(1, 0), "foot").cost == 5
