"""Terrain charts: step costs (ruling S6.6) and validation of chart files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hexwar.base.errors import DataError, UnknownMovementClassError
from hexwar.board.terrain import Step, chart_from_dict, load_chart

CHART_TOML = """
[chart]
name = "test"

[terrain.clear]
name = "Clear / Чистая местность"
[terrain.forest]
[terrain.marsh]
[terrain.lake]
impassable = true

[hexside.river]
[hexside.major_river]
[hexside.ridge]
blocks_zoc = true
[hexside.bridge]
negates = ["river", "major_river"]

[linear.road]
[linear.rail]

[movement.foot]
terrain = { clear = 1, forest = 2, marsh = 3 }
hexside = { river = 1, major_river = "impassable", ridge = { cost = 1, stop = true } }
along = { road = 1 }

[movement.motorized]
terrain = { clear = 1, forest = 3, marsh = "impassable" }
hexside = { river = "stop", major_river = "impassable" }
along = { road = 0.5 }

[movement.train]
only = ["rail"]
along = { rail = 1 }
"""


def base() -> dict[str, Any]:
    return {
        "terrain": {"clear": {}, "forest": {}},
        "hexside": {"river": {}},
        "linear": {"road": {}},
        "movement": {"foot": {"terrain": {"clear": 1, "forest": 2}, "hexside": {"river": 1}}},
    }


@pytest.fixture
def chart_file(tmp_path: Path) -> Path:
    p = tmp_path / "chart.toml"
    p.write_text(CHART_TOML, encoding="utf-8")
    return p


def test_load_toml_chart(chart_file: Path) -> None:
    chart = load_chart(chart_file)
    assert chart.name == "test"
    assert sorted(chart.movement_classes) == ["foot", "motorized", "train"]
    assert chart.terrains["clear"].title == "Clear / Чистая местность"
    assert chart.terrains["lake"].impassable
    assert not chart.terrains["lake"].in_zoc  # S2.3
    assert chart.terrains["clear"].in_zoc


def test_json_chart_equals_toml_chart(chart_file: Path, tmp_path: Path) -> None:
    import tomllib

    j = tmp_path / "chart.json"
    j.write_text(json.dumps(tomllib.loads(CHART_TOML)), encoding="utf-8")
    a, b = load_chart(chart_file), load_chart(j)
    assert a.movement_classes == b.movement_classes
    assert a.terrains == b.terrains


def test_step_costs_per_class_terrain_and_hexside(chart_file: Path) -> None:
    chart = load_chart(chart_file)
    assert chart.step("foot", "marsh") == Step(3)
    assert chart.step("motorized", "marsh") is None
    assert chart.step("foot", "lake") is None
    assert chart.step("foot", "lake", linear={"road"}) is None  # impassable terrain blocks all
    assert chart.step("foot", "clear", hexside={"river"}) == Step(2)
    assert chart.step("motorized", "clear", hexside={"river"}) == Step(1, stop=True)
    assert chart.step("foot", "clear", hexside={"major_river"}) is None
    assert chart.step("foot", "clear", hexside={"major_river", "bridge"}) == Step(1)
    assert chart.step("foot", "forest", hexside={"ridge"}) == Step(3, stop=True)


def test_roads_take_the_cheaper_option_and_restricted_classes_need_them(chart_file: Path) -> None:
    chart = load_chart(chart_file)
    assert chart.step("motorized", "forest", linear={"road"}) == Step(0.5)
    assert chart.step("motorized", "marsh", linear={"road"}) == Step(0.5)
    assert chart.step("foot", "clear", linear={"road"}) == Step(1)
    assert chart.step("train", "clear") is None
    assert chart.step("train", "clear", linear={"road"}) is None
    assert chart.step("train", "forest", linear={"rail"}) == Step(1)


def test_zoc_blocking_features_and_negation(chart_file: Path) -> None:
    chart = load_chart(chart_file)
    assert not chart.blocks_zoc({"river"})  # S2.3: ZOC extends across rivers
    assert chart.blocks_zoc({"ridge"})
    assert chart.active_features({"river", "bridge"}) == {"bridge"}


def test_unknown_movement_class_is_a_specific_error(chart_file: Path) -> None:
    with pytest.raises(UnknownMovementClassError, match="'ski'"):
        load_chart(chart_file).step("ski", "clear")


def _bad(mutate: Any) -> dict[str, Any]:
    d = base()
    mutate(d)
    return d


@pytest.mark.parametrize(
    ("mutate", "entry", "reason"),
    [
        (
            lambda d: d["movement"]["foot"]["terrain"].update(swamp=1),
            "movement.foot.terrain.swamp",
            "unknown terrain",
        ),
        (
            lambda d: d["movement"]["foot"]["hexside"].update(wall=1),
            "movement.foot.hexside.wall",
            "unknown hexside feature",
        ),
        (
            lambda d: d["movement"]["foot"].update(along={"rail": 1}),
            "movement.foot.along.rail",
            "unknown linear feature",
        ),
        (
            lambda d: d["movement"]["foot"]["terrain"].update(clear=-1),
            "movement.foot.terrain.clear",
            ">= 0",
        ),
        (
            lambda d: d["movement"]["foot"]["terrain"].update(clear="1"),
            "movement.foot.terrain.clear",
            "expected a number",
        ),
        (
            lambda d: d["movement"]["foot"]["terrain"].update(clear=True),
            "movement.foot.terrain.clear",
            "expected a number",
        ),
        (
            lambda d: d["movement"]["foot"]["terrain"].pop("forest"),
            "movement.foot.terrain",
            "missing field",
        ),
        (
            lambda d: d["movement"]["foot"]["hexside"].update(river="slow"),
            "movement.foot.hexside.river",
            "expected a number",
        ),
        (lambda d: d["movement"]["foot"].update(speed=3), "movement.foot", "unknown key 'speed'"),
        (
            lambda d: d["movement"]["foot"].update(only=["road"]),
            "movement.foot.along",
            "missing field",
        ),
        (
            lambda d: d["terrain"]["clear"].update(impassable="yes"),
            "terrain.clear.impassable",
            "true or false",
        ),
        (
            lambda d: d["hexside"]["river"].update(negates=["river"]),
            "hexside.river.negates",
            "itself",
        ),
        (
            lambda d: d["hexside"]["river"].update(negates=["ford"]),
            "hexside.river.negates[0]",
            "unknown hexside feature",
        ),
        (lambda d: d.pop("movement"), "movement", "missing field"),
        (lambda d: d.pop("terrain"), "terrain", "missing field"),
        (lambda d: d.update(terrain=[]), "terrain", "expected a table"),
        (lambda d: d.update(extra={}), "top level", "unknown key 'extra'"),
    ],
)
def test_validation_names_file_and_entry(mutate: Any, entry: str, reason: str) -> None:
    with pytest.raises(DataError) as info:
        chart_from_dict(_bad(mutate), source="chart.toml")
    assert info.value.source == "chart.toml"
    assert info.value.entry == entry
    assert reason in info.value.reason
    assert str(info.value).startswith(f"chart.toml: {entry}: ")


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text("[terrain\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"broken\.toml"):
        load_chart(bad)
    with pytest.raises(DataError, match="unknown extension"):
        load_chart(tmp_path / "chart.yaml")
    with pytest.raises(DataError, match="cannot read"):
        load_chart(tmp_path / "missing.toml")
    j = tmp_path / "chart.json"
    j.write_text(json.dumps(_bad(lambda d: d["movement"]["foot"]["terrain"].update(swamp=1))))
    with pytest.raises(DataError, match=r"chart\.json: movement\.foot\.terrain\.swamp"):
        load_chart(j)
