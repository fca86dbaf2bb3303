"""The public API: at most 40 top-level names, one error tree, one name per concept."""

from __future__ import annotations

import importlib
import importlib.util
import inspect

import hexwar
from hexwar.base import errors
from test_layers import MODULES


def test_the_top_level_exports_at_most_40_names_that_all_resolve() -> None:
    assert len(hexwar.__all__) <= 40
    assert len(set(hexwar.__all__)) == len(hexwar.__all__)
    for name in hexwar.__all__:
        assert getattr(hexwar, name) is not None


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
