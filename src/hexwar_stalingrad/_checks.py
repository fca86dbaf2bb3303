"""Small validation helpers shared by the Stalingrad data loaders.

Every failure is a :class:`hexwar.errors.DataError` naming the file and the entry.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from importlib import resources
from pathlib import Path
from typing import Any

from hexwar.errors import DataError

__all__ = ["Checker", "data_path", "read_toml"]


def data_path(name: str) -> Path:
    """The path of a data file shipped in ``hexwar_stalingrad/data``."""
    return Path(str(resources.files("hexwar_stalingrad") / "data" / name))


def read_toml(path: str | Path) -> tuple[dict[str, Any], str]:
    """Parse a TOML file; a :class:`DataError` naming the file if it cannot be read."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh), p.name
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise DataError(f"cannot read: {e}", source=p.name) from e


class Checker:
    """Typed accessors that raise :class:`DataError` with ``source`` and the entry."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, entry: str | None, reason: str) -> DataError:
        return DataError(reason, source=self.source, entry=entry)

    def table(self, value: object, entry: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(entry, f"wrong type: expected a table, got {type(value).__name__}")
        return value

    def items(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        """The array of tables ``[[key]]`` (empty if absent)."""
        raw = data.get(key, [])
        if not isinstance(raw, list):
            raise self.fail(key, "wrong type: expected an array of tables")
        return [self.table(v, f"{key}[{i}]") for i, v in enumerate(raw)]

    def keys(
        self,
        value: dict[str, Any],
        required: Collection[str],
        optional: Collection[str],
        entry: str,
    ) -> None:
        for k in sorted(required):
            if k not in value:
                raise self.fail(entry, f"missing field {k!r}")
        unknown = sorted(set(value) - set(required) - set(optional))
        if unknown:
            raise self.fail(entry, f"unknown field {unknown[0]!r}")

    def string(self, value: object, entry: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(entry, f"wrong type: expected a non-empty string, got {value!r}")
        return value

    def integer(self, value: object, entry: str, minimum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(entry, f"wrong type: expected an integer, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(entry, f"must be >= {minimum}, got {value}")
        return value

    def number(self, value: object, entry: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(entry, f"wrong type: expected a number, got {value!r}")
        return float(value)

    def boolean(self, value: object, entry: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(entry, f"wrong type: expected true or false, got {value!r}")
        return value

    def choice(self, value: object, allowed: Collection[str], entry: str) -> str:
        s = self.string(value, entry)
        if s not in allowed:
            raise self.fail(entry, f"unknown value {s!r} (allowed: {sorted(allowed)})")
        return s

    def str_list(self, value: object, entry: str) -> list[str]:
        if not isinstance(value, list):
            raise self.fail(entry, "wrong type: expected a list of strings")
        return [self.string(v, f"{entry}[{i}]") for i, v in enumerate(value)]
