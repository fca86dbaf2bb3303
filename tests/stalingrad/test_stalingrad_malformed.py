"""Malformed Stalingrad data is rejected at load, naming the file and the entry."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from tools.stalingrad_map.geography import load_geography
from tools.stalingrad_map.mapbuild import load_features

from hexwar.base.errors import DataError
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.cards import load_cards
from hexwar_stalingrad.scenario import load_scenario
from hexwar_stalingrad.turns import load_turns
from hexwar_stalingrad.units import load_oob


@pytest.fixture
def data(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(data_path("map.toml").parent, d)
    return d


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def rejects(load: Callable[[], object], *parts: str) -> None:
    with pytest.raises(DataError) as info:
        load()
    for part in parts:
        assert part in str(info.value), (part, str(info.value))


def test_unknown_terrain_in_the_map(data: Path) -> None:
    edit(data / "map.toml", 'terrain = "town"', 'terrain = "swamp"')
    rejects(lambda: load_scenario(data), "map.toml", "cells[", "unknown terrain 'swamp'")


def test_off_map_hex_in_the_map(data: Path) -> None:
    edit(data / "map.toml", 'at = "0103"', 'at = "9903"')
    rejects(lambda: load_scenario(data), "map.toml", "cells[", "off the map")


def test_bad_hexside_in_the_corrections(data: Path) -> None:
    edit(data / "map_corrections.toml", 'between = ["1717", "1716"]', 'between = ["1717", "1720"]')
    rejects(
        lambda: load_features(data / "map_features.toml", data / "map_corrections.toml"),
        "map_corrections.toml",
        "correction[1]",
        "bad hexside",
    )


def test_bad_hexside_feature_in_the_map(data: Path) -> None:
    edit(data / "map.toml", 'features = ["don"]', 'features = ["amazon"]')
    rejects(lambda: load_scenario(data), "map.toml", "hexsides[", "unknown hexside feature")


def test_duplicate_counter_id(data: Path) -> None:
    edit(data / "oob.toml", 'id = "r-5ta-b"', 'id = "r-5ta-a"')
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "ground[1] (r-5ta-a)", "duplicate id")


def test_missing_field(data: Path) -> None:
    edit(data / "oob.toml", 'arm = "tank"\n', "")
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "(r-1tc)", "missing field 'arm'")


def test_wrong_type(data: Path) -> None:
    edit(data / "oob.toml", "strength = [7, 4]", 'strength = ["seven", 4]')
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "(r-5ta-a).strength", "wrong type")


def test_unknown_arm(data: Path) -> None:
    edit(data / "oob.toml", 'arm = "cavalry"', 'arm = "dragoons"')
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "(r-8cc).arm", "'dragoons'")


def test_start_number_reused(data: Path) -> None:
    edit(data / "oob.toml", "start = 2\n", "start = 1\n")
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "(r-5ta-b)", "start number 1 reused")


def test_start_number_reused_on_the_map(data: Path) -> None:
    edit(data / "map_features.toml", "number = 2\n", "number = 1\n")
    rejects(
        lambda: load_features(data / "map_features.toml", data / "map_corrections.toml"),
        "map_features.toml",
        "start[1]",
        "reused",
    )


def test_start_number_missing_from_the_map(data: Path) -> None:
    edit(data / "oob.toml", "start = 45\n", "start = 46\n")
    rejects(lambda: load_scenario(data), "oob.toml", "ground r-87rd", "not on the map")


def test_bad_bombs(data: Path) -> None:
    edit(data / "oob.toml", "bombs = 2\n", "bombs = 3\n")
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "(r-swf-kat).bombs", "0.5, 1 or 2")


def test_fighter_with_bombs(data: Path) -> None:
    edit(data / "oob.toml", 'role = "fighter"\n', 'role = "fighter"\nbombs = 1\n')
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "(ra-lagg3).bombs", "no bombs")


def test_air_base_not_an_airfield(data: Path) -> None:
    edit(data / "oob.toml", 'base = "morozovsk"', 'base = "tormosin"')
    rejects(lambda: load_scenario(data), "oob.toml", "air wa-bf109g", "not a wehrmacht airfield")


def test_unknown_card_effect(data: Path) -> None:
    edit(data / "cards.toml", 'kind = "no_retreat"', 'kind = "teleport"')
    rejects(
        lambda: load_cards(data / "cards.toml"),
        "cards.toml",
        "card[0] (rkka-order-227).effects[0].kind",
        "unknown effect kind 'teleport'",
    )


def test_bad_card_parameter(data: Path) -> None:
    edit(data / "cards.toml", "shift = 1, on", "shift = 5, on")
    rejects(
        lambda: load_cards(data / "cards.toml"), "cards.toml", "(rkka-maskirovka)", "bad parameter"
    )


def test_unknown_card_parameter(data: Path) -> None:
    edit(data / "cards.toml", 'side = "rkka", duration', 'side = "rkka", colour = "red", duration')
    rejects(lambda: load_cards(data / "cards.toml"), "cards.toml", "(rkka-order-227)", "'colour'")


def test_bad_mark(data: Path) -> None:
    edit(data / "cards.toml", 'mark = "!"', 'mark = "?"')
    rejects(
        lambda: load_cards(data / "cards.toml"), "cards.toml", "(rkka-maskirovka).mark", "bad mark"
    )


def test_bad_card_window(data: Path) -> None:
    """Ruling S5.3: every card names its window, one of ``cards.WINDOWS``."""
    edit(data / "cards.toml", 'window = "wehrmacht_attack"', 'window = "teatime"')
    rejects(
        lambda: load_cards(data / "cards.toml"),
        "cards.toml",
        "card[0] (rkka-order-227).window",
        "unknown window 'teatime'",
    )


def test_missing_card_window(data: Path) -> None:
    edit(data / "cards.toml", 'window = "rkka_attack"\n', "")
    rejects(lambda: load_cards(data / "cards.toml"), "cards.toml", "(rkka-maskirovka)", "'window'")


def test_common_event_with_a_phase_effect(data: Path) -> None:
    """Ruling S5.5: a common event is in force until the next is turned, not one phase."""
    edit(
        data / "cards.toml",
        'non_flying = true, duration = "turn"',
        'non_flying = true, duration = "phase"',
    )
    rejects(
        lambda: load_cards(data / "cards.toml"),
        "cards.toml",
        "(common-fog-and-snow).effects[0].duration",
        "S5.5",
    )


def test_infinite_card_with_a_turn_effect(data: Path) -> None:
    edit(data / "cards.toml", 'amount = 1, duration = "game"', 'amount = 1, duration = "turn"')
    rejects(lambda: load_cards(data / "cards.toml"), "cards.toml", "(rkka-air-blockade)", "'∞'")


def test_card_naming_unknown_terrain(data: Path) -> None:
    edit(data / "cards.toml", 'terrain = "volga_crossing", cost = 1', 'terrain = "ice", cost = 1')
    rejects(lambda: load_scenario(data), "cards.toml", "card common-volga-freezes", "'ice'")


def test_incomplete_crt(data: Path) -> None:
    edit(data / "tables.toml", '6 = ["AL", "EX", "DRL", "DE", "DE", "DE"]', '6 = ["AL", "EX"]')
    rejects(lambda: load_scenario(data), "tables.toml", "crt.rows")


def test_turn_in_the_wrong_operation(data: Path) -> None:
    edit(data / "turns.toml", 'operation = "winter_storm"', 'operation = "uranus"')
    rejects(lambda: load_turns(data / "turns.toml"), "turns.toml", "turn[5].operation", "S1.2")


def test_geography_duplicate_id(data: Path) -> None:
    edit(data / "geography.toml", 'id = "marinovka"', 'id = "kalach"')
    rejects(
        lambda: load_geography(data / "geography.toml"), "geography.toml", "place[4]", "duplicate"
    )


def test_unparseable_file(data: Path) -> None:
    (data / "oob.toml").write_text("[[ground]\n", encoding="utf-8")
    rejects(lambda: load_oob(data / "oob.toml"), "oob.toml", "cannot read")


def test_victory_area_radius_must_be_a_non_negative_integer(data: Path) -> None:
    from hexwar_stalingrad.static import load_victory

    path = data / "victory.toml"
    edit(path, "area_radius = 15", 'area_radius = "far"')
    rejects(lambda: load_victory(path), "victory.toml", "area_radius")
    edit(path, 'area_radius = "far"', "area_radius = -1")
    rejects(lambda: load_victory(path), "victory.toml", "area_radius")
    edit(path, "area_radius = -1", "area_radius = 3\nradius = 4")
    rejects(lambda: load_victory(path), "victory.toml", "radius")
