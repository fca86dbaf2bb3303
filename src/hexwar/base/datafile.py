"""Reading and validating data files (TOML or JSON): one reader and one set of checks.

:func:`read_data_file` parses a file (never pickle, never eval); :class:`Checker` holds
typed accessors that return the checked value or raise :class:`~hexwar.base.errors.DataError`
naming the file (``source``) and the entry, so every loader fails the same way.

>>> ck = Checker("units.toml")
>>> unit = ck.table({"id": "r-1tc", "move": 6}, "units[0]")
>>> ck.keys(unit, required=("id",), optional=("move", "arm"), entry="units[0]")
>>> ck.integer(unit["move"], "units[0].move", minimum=1)
6
>>> ck.integer(0, "units[0].move", minimum=1)
Traceback (most recent call last):
    ...
hexwar.base.errors.DataError: units.toml: units[0].move: must be >= 1, got 0
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, TypeVar

import attrs

from hexwar.base.errors import DataError

__all__ = ["Checker", "read_data_file", "record_from"]

R = TypeVar("R")


def read_data_file(path: str | Path) -> tuple[dict[str, Any], str]:
    """Parse a ``.toml`` or ``.json`` file into a dict; return it and its name (the path).

    Any failure (missing file, bad syntax, unknown extension, a JSON top level that is
    not an object) is a :class:`DataError` naming the file.

    >>> read_data_file("rules.yaml")
    Traceback (most recent call last):
        ...
    hexwar.base.errors.DataError: rules.yaml: unknown extension '.yaml': expected a .toml or ...
    """
    p = Path(path)
    source = str(p)
    if p.suffix not in (".toml", ".json"):
        raise DataError(
            f"unknown extension {p.suffix!r}: expected a .toml or .json file", source=source
        )
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise DataError(f"cannot read: {e}", source=source) from None
    try:
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise DataError(
            f"cannot read: not valid {p.suffix[1:].upper()}: {e}", source=source
        ) from None
    if not isinstance(data, dict):
        raise DataError("top level must be an object", source=source)
    return data, source


def _kind(value: object) -> str:
    return type(value).__name__


class Checker:
    """Typed accessors for parsed data; each failure is a :class:`DataError` naming
    ``source`` and the entry (``"units[3].strength"``).

    >>> ck = Checker("chart.toml")
    >>> ck.choice("foot", ("foot", "rail"), "movement.class", what="movement class")
    'foot'
    >>> ck.cost(-1, "movement.foot.terrain.clear")
    Traceback (most recent call last):
        ...
    hexwar.base.errors.DataError: chart.toml: movement.foot.terrain.clear: cost must be ...
    """

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, entry: str | None, reason: str) -> DataError:
        """The error to raise for ``entry`` (``None``: the file as a whole)."""
        return DataError(reason, source=self.source, entry=entry)

    def table(self, value: object, entry: str) -> dict[str, Any]:
        """``value`` if it is a table (a dict)."""
        if not isinstance(value, dict):
            raise self.fail(entry, f"wrong type: expected a table, got {_kind(value)}")
        return value

    def items(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        """The array of tables ``data[key]`` (``[[key]]`` in TOML; empty if absent).

        >>> Checker("m.toml").items({"cells": [{"at": "0101"}]}, "cells")
        [{'at': '0101'}]
        """
        raw = data.get(key, [])
        if not isinstance(raw, list):
            raise self.fail(key, f"wrong type: expected an array of tables, got {_kind(raw)}")
        return [self.table(v, f"{key}[{i}]") for i, v in enumerate(raw)]

    def keys(
        self,
        value: dict[str, Any],
        required: Collection[str] = (),
        optional: Collection[str] = (),
        entry: str = "top level",
    ) -> None:
        """Check that ``value`` has every ``required`` key and no key outside both sets.

        >>> Checker("m.toml").keys({"at": 1, "colour": 2}, ("at",), ("name",), "cells[0]")
        Traceback (most recent call last):
            ...
        hexwar.base.errors.DataError: m.toml: cells[0]: unknown key 'colour' (allowed: ...)
        """
        for k in sorted(required):
            if k not in value:
                raise self.fail(entry, f"missing field {k!r}")
        allowed = set(required) | set(optional)
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise self.fail(entry, f"unknown key {unknown[0]!r} (allowed: {sorted(allowed)})")

    def string(self, value: object, entry: str) -> str:
        """``value`` if it is a non-empty string."""
        if not isinstance(value, str) or not value:
            raise self.fail(entry, f"wrong type: expected a non-empty string, got {value!r}")
        return value

    def integer(self, value: object, entry: str, minimum: int | None = None) -> int:
        """``value`` if it is an integer (not a boolean), at least ``minimum`` if given."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(entry, f"wrong type: expected an integer, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(entry, f"must be >= {minimum}, got {value}")
        return value

    def number(self, value: object, entry: str) -> float:
        """``value`` as a float if it is an integer or a float (not a boolean)."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(entry, f"wrong type: expected a number, got {value!r}")
        return float(value)

    def cost(self, value: object, entry: str) -> float:
        """``value`` if it is a finite number >= 0 (a movement cost); ints stay ints."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(entry, f"wrong type: expected a number, got {value!r}")
        if not math.isfinite(value) or value < 0:
            raise self.fail(entry, f"cost must be a finite number >= 0, got {value!r}")
        return value

    def boolean(self, value: object, entry: str) -> bool:
        """``value`` if it is ``true`` or ``false``."""
        if not isinstance(value, bool):
            raise self.fail(entry, f"wrong type: expected true or false, got {value!r}")
        return value

    def choice(
        self, value: object, allowed: Collection[str], entry: str, what: str = "value"
    ) -> str:
        """``value`` if it is one of ``allowed``; ``what`` names the kind in the message.

        >>> Checker("m.toml").choice("swamp", {"clear", "forest"}, "cells[0]", "terrain")
        Traceback (most recent call last):
            ...
        hexwar.base.errors.DataError: m.toml: cells[0]: unknown terrain 'swamp' ...
        """
        s = self.string(value, entry)
        if s not in allowed:
            raise self.fail(entry, f"unknown {what} {s!r} (allowed: {sorted(allowed)})")
        return s

    def str_list(self, value: object, entry: str) -> list[str]:
        """``value`` if it is a list of non-empty strings."""
        if not isinstance(value, list):
            raise self.fail(entry, f"wrong type: expected a list of strings, got {value!r}")
        return [self.string(v, f"{entry}[{i}]") for i, v in enumerate(value)]

    def int_list(self, value: object, entry: str, length: int | None = None) -> list[int]:
        """``value`` if it is a list of integers (of ``length`` items, if given).

        >>> Checker("rules.toml").int_list([1, 2], "rules.share", length=2)
        [1, 2]
        """
        if not isinstance(value, list):
            raise self.fail(entry, f"wrong type: expected a list of integers, got {value!r}")
        if length is not None and len(value) != length:
            raise self.fail(entry, f"expected {length} integers, got {len(value)}")
        return [self.integer(v, f"{entry}[{i}]") for i, v in enumerate(value)]

    def names(self, value: object, known: Collection[str], what: str, entry: str) -> frozenset[str]:
        """``value`` as a set if it is a list of names, each one of ``known``.

        >>> sorted(Checker("c.toml").names(["road"], {"road", "rail"}, "linear feature", "x"))
        ['road']
        """
        if not isinstance(value, list):
            raise self.fail(entry, f"wrong type: expected a list of {what} names, got {value!r}")
        return frozenset(self.choice(v, known, f"{entry}[{i}]", what) for i, v in enumerate(value))


def record_from(cls: type[R], value: R | Mapping[str, Any], entry: str) -> R:
    """``value`` if it is a ``cls`` (an attrs class), else one built from its fields as data.

    >>> @attrs.frozen
    ... class Shift:
    ...     feature: str
    ...     shift: int = 0
    >>> record_from(Shift, {"feature": "river", "shift": -1}, "hexsides")
    Shift(feature='river', shift=-1)
    >>> record_from(Shift, {"feature": "river", "shfit": -1}, "hexsides")
    Traceback (most recent call last):
    ...
    hexwar.base.errors.DataError: <data>: hexsides: unknown field(s) ['shfit'] of Shift; ...
    """
    if isinstance(value, cls):
        return value
    if not isinstance(value, Mapping):
        raise DataError(f"expected a {cls.__name__} or a mapping of its fields", entry=entry)
    names = {f.alias for f in attrs.fields(cls) if f.init}  # type: ignore[arg-type]
    unknown = sorted(set(value) - names)
    if unknown:
        raise DataError(
            f"unknown field(s) {unknown} of {cls.__name__}; expected some of {sorted(names)}",
            entry=entry,
        )
    return cls(**value)
