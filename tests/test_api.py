"""The public API: one grouped namespace a game is written from, one error tree, one name
per concept."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest
from tools import api_surface
from tools.api_surface import GAMES, TARGETS, Import, imports_of, surface

import hexwar
from hexwar.base import errors
from test_layers import MODULES


def test_the_top_level_names_are_few_unique_and_all_resolve() -> None:
    assert len(hexwar.__all__) <= 70
    assert len(set(hexwar.__all__)) == len(hexwar.__all__)
    for name in hexwar.__all__:
        assert getattr(hexwar, name) is not None


def test_the_module_docstring_lists_every_public_name_once_under_a_topic() -> None:
    assert hexwar.__doc__ is not None
    topics = re.findall(r"^- ([a-z ]+): (.+?)[;.]$", hexwar.__doc__, re.MULTILINE | re.DOTALL)
    listed = [n for _, names in topics for n in re.findall(r"``(\w+)``", names)]
    assert len(topics) >= 8
    assert sorted(listed) == sorted(hexwar.__all__)


@pytest.mark.parametrize("game", ["tutorial", "Bridgehead"])
def test_the_example_games_import_only_from_the_namespace(game: str) -> None:
    """Their rules import from ``hexwar`` alone; Bridgehead's web page also from
    ``hexwar.render`` and ``hexwar.web``. The module targets of issue 27 hold."""
    found = surface(GAMES[game])
    pages = {"hexwar.render", "hexwar.web.games", "hexwar.web.combat", "hexwar.study"}
    assert found.modules <= {"hexwar", *pages}
    assert len(found.modules) <= (TARGETS[game][1] or 0)
    assert {i.name for i in found.imports if i.module == "hexwar"} <= set(hexwar.__all__)


@pytest.mark.parametrize("game", ["tutorial", "Bridgehead"])
def test_the_example_games_meet_their_surface_targets(game: str) -> None:
    """Issue 27's targets: names (and modules) a game imports from hexwar."""
    found = surface(GAMES[game])
    most_names, most_modules = TARGETS[game]
    assert len(found.names) <= most_names, sorted(found.names)
    assert most_modules is None or len(found.modules) <= most_modules


def test_stalingrad_imports_no_more_names_than_today() -> None:
    """«Сталинград» must not grow past today's count (its target is 60)."""
    assert len(surface(GAMES["«Сталинград»"]).names) <= 60


def test_the_surface_counts_each_way_of_importing_once_per_name() -> None:
    source = """
from hexwar import Hex, State
from hexwar.engine import dice
from hexwar.board.maps import build_map as bm
import hexwar.mechanics.crt as crt
import hexwar
from . import data
from hexwarish import Nope
def f():
    from hexwar import Hex
    return dice.D6, crt.OddsTable.build, hexwar.engine.state.Ruleset, hexwar.Hex
"""
    found = imports_of(source)
    assert set(found) == {
        Import("hexwar", "Hex"),
        Import("hexwar", "State"),
        Import("hexwar.board.maps", "build_map"),
        Import("hexwar.engine.dice", "D6"),
        Import("hexwar.mechanics.crt", "OddsTable"),
        Import("hexwar.engine.state", "Ruleset"),
    }
    assert found.count(Import("hexwar", "Hex")) == 3  # two imports and one read


def test_the_surface_of_a_folder_is_the_union_of_its_files(tmp_path: Path) -> None:
    root = tmp_path
    (root / "a.py").write_text("from hexwar import Hex, State\n", encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "b.py").write_text("from hexwar.grid.geometry import Hex\n", encoding="utf-8")
    found = surface([root])
    assert found.names == {"Hex", "State"}
    assert found.modules == {"hexwar", "hexwar.grid.geometry"}
    assert api_surface.report({"x": [root]}).splitlines()[1].split() == ["x", "2", "2"]


def test_the_surface_tool_doctests_pass() -> None:
    assert doctest.testmod(api_surface).failed == 0


def test_every_core_error_is_defined_in_hexwar_base_errors_under_one_base() -> None:
    found = {}
    for module in MODULES:
        for name, obj in vars(importlib.import_module(module)).items():
            is_error = inspect.isclass(obj) and issubclass(obj, BaseException)
            if is_error and obj.__module__.startswith("hexwar."):
                found[name] = obj
    assert "RecordError" in found
    for name, cls in found.items():
        if cls.__module__ == "hexwar.testing.kit":
            continue  # the kit's test failures are AssertionErrors, not rule errors
        assert cls.__module__ == "hexwar.base.errors", name
        assert issubclass(cls, errors.HexwarError), name
        assert name in errors.__all__, name


def test_no_second_name_for_one_thing() -> None:
    from hexwar.board import maps
    from hexwar.engine.state import State

    assert not hasattr(maps, "offset_to_axial")
    assert not hasattr(maps, "axial_to_offset")
    assert "check" not in inspect.signature(State.apply).parameters
    assert inspect.isfunction(hexwar.play)  # the game loop is a function; its module is engine.loop
    assert not importlib.util.find_spec("hexwar.strategies")
