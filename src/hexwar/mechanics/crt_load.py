"""Combat results tables from data: TOML or JSON files (format: ``docs/combat.md``).

:func:`load_table` reads a file, :func:`table_from_data` builds an
:class:`~hexwar.mechanics.crt.OddsTable` or :class:`~hexwar.mechanics.crt.StrengthTable`
from parsed data. Every part is checked (one reader per part: columns, results, rows, the
odds options) and bad data raises :class:`~hexwar.base.errors.DataError` naming the file
and the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, TypeVar

from hexwar.base.datafile import read_data_file
from hexwar.base.errors import CombatError, DataError
from hexwar.engine.dice import Dice
from hexwar.mechanics.crt import ROUNDINGS, OddsTable, ResultsTable, StrengthTable
from hexwar.mechanics.crt_values import CombatResult, parse_amount, parse_ratio

__all__ = ["load_table", "table_from_data"]

TableT = TypeVar("TableT", bound=ResultsTable)
Fail = Callable[[str, str], DataError]

_TOP_KEYS: Final = {
    "kind",
    "name",
    "rule",
    "dice",
    "rounding",
    "refuse_below",
    "columns",
    "rows",
    "row_range",
    "results",
}
_RESULT_KEYS: Final = {
    "rank",
    "defender_steps",
    "attacker_steps",
    "retreat",
    "eliminated",
    "flags",
    "text",
}


def table_from_data(
    data: Mapping[str, Any], *, source: str = "<data>", prefix: str = ""
) -> OddsTable | StrengthTable:
    """Build a table from parsed TOML/JSON data (format: ``docs/combat.md``).

    ``source`` names the file and ``prefix`` the table's place in it, for error messages.
    """

    def fail(reason: str, entry: str) -> DataError:
        return DataError(reason, source=source, entry=f"{prefix}{entry}".rstrip(".") or None)

    if not isinstance(data, Mapping):
        raise fail(f"a table must be a mapping, got {type(data).__name__}", "")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise fail(f"unknown key(s) {unknown}; expected some of {sorted(_TOP_KEYS)}", unknown[0])
    for key in ("kind", "columns", "rows", "results"):
        if key not in data:
            raise fail(f"missing required key {key!r}", key)
    kind = data["kind"]
    if kind not in ("odds", "strength"):
        raise fail(f"unknown kind {kind!r}; expected 'odds' or 'strength'", "kind")
    try:
        dice = Dice.parse(str(data.get("dice", "d6")))
    except ValueError as exc:
        raise fail(str(exc), "dice") from None
    columns = _columns_from_data(data["columns"], kind, fail)
    results = _results_from_data(data["results"], fail)
    low, high = _row_range_from_data(data, dice, fail)
    rows = _rows_from_data(data["rows"], low, high, fail)
    common: dict[str, Any] = {
        "name": str(data.get("name", Path(source).stem or "table")),
        "columns": columns,
        "cells": tuple(tuple(rows[r]) for r in range(low, high + 1)),
        "results": results,
        "dice": dice,
        "row_range": (low, high),
        "rule": data.get("rule"),
        "source": source,
    }
    if common["rule"] is not None and not isinstance(common["rule"], str):
        raise fail("rule must be a string such as 'S8.2'", "rule")
    if kind == "strength":
        for key in ("rounding", "refuse_below"):
            if key in data:
                raise fail(f"{key!r} applies to odds tables only", key)
        return _construct(StrengthTable, common, fail)
    common.update(_odds_options(data, fail))
    return _construct(OddsTable, common, fail)


def _columns_from_data(raw_columns: Any, kind: str, fail: Fail) -> tuple[Fraction, ...]:
    if not isinstance(raw_columns, list) or not raw_columns:
        raise fail("columns must be a non-empty list", "columns")
    columns: list[Fraction] = []
    for i, raw in enumerate(raw_columns):
        try:
            columns.append(parse_ratio(raw) if kind == "odds" else parse_amount(raw))
        except (ValueError, AttributeError, TypeError) as exc:
            raise fail(str(exc), f"columns[{i}]") from None
    return tuple(columns)


def _row_range_from_data(data: Mapping[str, Any], dice: Dice, fail: Fail) -> tuple[int, int]:
    if "row_range" not in data:
        return dice.minimum, dice.maximum
    rr = data["row_range"]
    if (
        not isinstance(rr, list)
        or len(rr) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in rr)
        or rr[0] > rr[1]
    ):
        raise fail(f"row_range must be [low, high] ints, got {rr!r}", "row_range")
    return rr[0], rr[1]


def _rows_from_data(raw_rows: Any, low: int, high: int, fail: Fail) -> dict[int, list[str]]:
    if not isinstance(raw_rows, Mapping):
        raise fail("rows must be a mapping of die roll to a list of codes", "rows")
    rows: dict[int, list[str]] = {}
    for key, row in raw_rows.items():
        try:
            roll = int(key)
        except ValueError:
            raise fail(f"die row {key!r} is not an integer", f"rows.{key}") from None
        if not low <= roll <= high:
            raise fail(f"die row {roll} is out of range {low}..{high}", f"rows.{key}")
        if roll in rows:
            raise fail(f"die row {roll} given twice", f"rows.{key}")
        if not isinstance(row, list) or not all(isinstance(c, str) for c in row):
            raise fail("a row must be a list of result codes", f"rows.{key}")
        rows[roll] = row
    missing = [r for r in range(low, high + 1) if r not in rows]
    if missing:
        raise fail(f"missing die row(s) {missing}", f"rows.{missing[0]}")
    return rows


def _odds_options(data: Mapping[str, Any], fail: Fail) -> dict[str, Any]:
    refuse_below = None
    if "refuse_below" in data:
        try:
            refuse_below = _parse_threshold(data["refuse_below"])
        except (ValueError, TypeError) as exc:
            raise fail(str(exc), "refuse_below") from None
    rounding = data.get("rounding", "floor")
    if rounding not in ROUNDINGS:
        raise fail(f"unknown rounding {rounding!r}; expected one of {ROUNDINGS}", "rounding")
    return {"rounding": rounding, "refuse_below": refuse_below}


def _construct(cls: type[TableT], kwargs: dict[str, Any], fail: Fail) -> TableT:
    """Build ``cls``, re-raising grid errors with the entry's full name."""
    try:
        return cls(**kwargs)
    except DataError as exc:
        raise fail(exc.reason, exc.entry or "") from None


def _parse_threshold(value: object) -> Fraction:
    if isinstance(value, str) and ":" in value:
        return parse_ratio(value)
    if isinstance(value, str):
        return Fraction(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    raise CombatError(f"bad refuse_below {value!r}: expected 'A:D', 'N/M' or an int")


def _results_from_data(raw: object, fail: Fail) -> dict[str, CombatResult]:
    if not isinstance(raw, Mapping) or not raw:
        raise fail("results must be a non-empty mapping of code to its parts", "results")
    results: dict[str, CombatResult] = {}
    for code, parts in raw.items():
        entry = f"results.{code}"
        if not isinstance(parts, Mapping):
            raise fail("a result must be a mapping of its parts", entry)
        unknown = sorted(set(parts) - _RESULT_KEYS)
        if unknown:
            raise fail(f"unknown part(s) {unknown}; expected some of {sorted(_RESULT_KEYS)}", entry)
        if "rank" not in parts:
            raise fail("missing 'rank' (order of results for the attacker)", entry)
        kwargs = {k: v for k, v in parts.items() if k != "text"}
        flags = kwargs.get("flags", [])
        if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
            raise fail("flags must be a list of strings", entry)
        if not isinstance(kwargs.get("eliminated", False), bool):
            raise fail("eliminated must be true or false", entry)
        try:
            results[code] = CombatResult(code, **kwargs)
        except DataError as exc:
            raise fail(exc.reason, entry) from None
    return results


def load_table(path: str | Path, *, key: str | None = None) -> OddsTable | StrengthTable:
    """Load a table from a ``.toml`` or ``.json`` file (``key``: a sub-table's name).

    Bad data raises :class:`~hexwar.base.errors.DataError` naming the file and the entry.
    """
    data, source = read_data_file(path)
    if key is not None:
        if key not in data:
            raise DataError(f"no table {key!r} in the file", source=source, entry=key)
        return table_from_data(data[key], source=source, prefix=f"{key}.")
    return table_from_data(data, source=source)
