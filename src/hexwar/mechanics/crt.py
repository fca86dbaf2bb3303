"""Combat results tables: odds-ratio CRTs and strength-category (bombardment) tables.

A table is data: columns, die rows, and result codes whose parts (steps lost, retreat
hexes, flags) the table defines and the game's rules apply. Ratios are exact
:class:`~fractions.Fraction` values, never floats (:mod:`hexwar.mechanics.crt_values`:
ratios, :class:`CombatResult`, :class:`Distribution`). :func:`load_table` reads a table from
a TOML or JSON file, :func:`table_from_data` from parsed data (format: ``docs/combat.md``);
every part is checked and bad data raises :class:`~hexwar.base.errors.DataError` naming the
file and the entry.

>>> crt = OddsTable.build(
...     columns=["1:1", "2:1", "3:1"],
...     rows={1: ["AL", "EX", "DR"], 2: ["NE", "DR", "DE"]},
...     results=[CombatResult("AL", rank=-1, attacker_steps=1), CombatResult("NE"),
...              CombatResult("EX", rank=1, defender_steps=1, attacker_steps=1),
...              CombatResult("DR", rank=2, retreat=1),
...              CombatResult("DE", rank=3, eliminated=True)],
...     dice="d2", rule="S8.2")
>>> crt.column_for(17, 4)
'3:1'
>>> crt.resolve(5, 2, roll=1).code
'EX'
>>> crt.distribution(5, 2).probability("DR")
Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, Literal, Self, TypeVar

import attrs

from hexwar.base.datafile import read_data_file
from hexwar.base.errors import AttackRefused, CombatError, DataError
from hexwar.engine.dice import ChanceDriver, Dice
from hexwar.engine.memo import KEPT_LIMIT, kept
from hexwar.mechanics.crt_values import (
    CombatResult,
    Distribution,
    Number,
    check_strength,
    format_amount,
    format_ratio,
    parse_amount,
    parse_ratio,
    validate_grid,
)

__all__ = [
    "ROUNDINGS",
    "OddsTable",
    "ResultsTable",
    "Rounding",
    "StrengthTable",
    "load_table",
    "table_from_data",
]

Rounding = Literal["floor", "nearest"]
ROUNDINGS: Final = ("floor", "nearest")
#: At most this many answers kept per table (then they are worked out afresh).
_MEMO_SIZE: Final = KEPT_LIMIT


# -- tables ----------------------------------------------------------------------------


def _roll_of(dice: Dice, roll: int | ChanceDriver) -> int:
    if isinstance(roll, bool):
        raise CombatError(f"roll must be an int or a driver, got {roll!r}")
    if isinstance(roll, int):
        if not dice.minimum <= roll <= dice.maximum:
            raise CombatError(f"roll {roll} is not a possible {dice} roll")
        return roll
    return dice.roll(roll)


@attrs.frozen(kw_only=True)
class ResultsTable:
    """What every table shares: columns × die rows → result codes, and the codes' parts.

    ``cells[i][j]`` is the code for die row ``row_range[0] + i`` in column ``j``.
    Modified rolls are clamped to ``row_range``; shifted columns to the table.
    """

    name: str
    columns: tuple[Fraction, ...]
    cells: tuple[tuple[str, ...], ...]
    results: Mapping[str, CombatResult]
    dice: Dice
    row_range: tuple[int, int]
    rule: str | None = None
    source: str = "<data>"
    _labels: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    _by_label: dict[str, int] = attrs.field(init=False, eq=False, repr=False)
    #: answers worked out from the (immutable) data once, at most _MEMO_SIZE: the
    #: distributions by (column, modifier), the columns by integer strengths or amount
    _memo: dict[Any, Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        validate_grid(
            self.columns, self.cells, self.results, self.dice, self.row_range, self.source
        )
        labels = tuple(self._label(c) for c in self.columns)
        object.__setattr__(self, "_labels", labels)
        object.__setattr__(self, "_by_label", {lab: i for i, lab in enumerate(labels)})

    @property
    def labels(self) -> tuple[str, ...]:
        """Column labels, left to right."""
        return self._labels

    def _label(self, column: Fraction) -> str:
        raise NotImplementedError

    @classmethod
    def _parse_column(cls, value: str | int) -> Fraction:
        raise NotImplementedError

    @classmethod
    def from_data(
        cls, data: Mapping[str, Any], *, source: str = "<data>", prefix: str = ""
    ) -> Self:
        """A table of this class from parsed TOML/JSON data
        (:func:`table_from_data`: ``source`` names the file,
        ``prefix`` the table's place in it); a table of the other ``kind`` is refused.

        >>> data = {"kind": "strength", "columns": ["1"], "results": {"NE": {"rank": 0}},
        ...         "rows": {str(n): ["NE"] for n in range(1, 7)}}
        >>> StrengthTable.from_data(data).resolve(1, roll=3).code
        'NE'
        >>> OddsTable.from_data(data, source="t.toml", prefix="crt.")
        Traceback (most recent call last):
        ...
        hexwar.base.errors.DataError: t.toml: crt.kind: must be 'odds' here, not 'strength'
        """
        table = table_from_data(data, source=source, prefix=prefix)
        if not isinstance(table, cls):
            want = "odds" if issubclass(cls, OddsTable) else "strength"
            raise DataError(
                f"must be {want!r} here, not {data['kind']!r}", source=source, entry=f"{prefix}kind"
            )
        return table

    @classmethod
    def build(
        cls,
        *,
        columns: Sequence[str | int],
        rows: Mapping[int, Sequence[str]],
        results: Mapping[str, CombatResult | Mapping[str, Any]] | Sequence[CombatResult],
        dice: Dice | str = "d6",
        name: str = "table",
        rule: str | None = None,
        **extra: Any,
    ) -> Self:
        """Build a table in Python: column labels, ``rows`` keyed by die roll, results.

        The die rows must be consecutive; their range is the table's row range.
        ``results`` maps each code to its parts as data (``{"DE": {"rank": 1, "eliminated":
        True}}``, :class:`~hexwar.mechanics.crt_values.CombatResult`'s fields) or lists
        :class:`~hexwar.mechanics.crt_values.CombatResult` objects.

        >>> t = OddsTable.build(columns=["1:1"], rows={n: ["AE" if n < 4 else "DE"]
        ...     for n in range(1, 7)}, results={"AE": {"rank": -1}, "DE": {"eliminated": True}})
        >>> t.result_at("1:1", 5).eliminated, t.results["AE"].rank
        (True, -1)
        >>> OddsTable.build(columns=["1:1"], rows={}, results={"AE": {"ranks": -1}})
        Traceback (most recent call last):
        ...
        hexwar.base.errors.DataError: <data>: results.AE: unknown part(s) ['ranks']; expected ...
        """
        dice = Dice.parse(dice) if isinstance(dice, str) else dice
        results = _results(results)
        low, high = min(rows, default=dice.minimum), max(rows, default=dice.maximum)
        if sorted(rows) != list(range(low, high + 1)):
            raise DataError(f"die rows must be consecutive, got {sorted(rows)}", entry="rows")
        try:
            cols = tuple(cls._parse_column(c) for c in columns)
        except ValueError as exc:
            raise DataError(str(exc), entry="columns") from None
        return cls(
            name=name,
            columns=cols,
            cells=tuple(tuple(rows[r]) for r in range(low, high + 1)),
            results=dict(results),
            dice=dice,
            row_range=(low, high),
            rule=rule,
            **extra,
        )

    def column_index(self, label: str) -> int:
        """Index of the column labelled ``label``."""
        found = self._by_label.get(label) if isinstance(label, str) else None
        if found is None:
            raise CombatError(f"{self.name}: no column {label!r}; columns are {self.labels}")
        return found

    def result_at(
        self, column: str, roll: int, *, shift: int = 0, modifier: int = 0
    ) -> CombatResult:
        """The result in column ``column`` (a label) for a raw ``roll``."""
        return self._lookup(self.column_index(column), _roll_of(self.dice, roll), shift, modifier)

    def _lookup(self, index: int, roll: int, shift: int, modifier: int) -> CombatResult:
        col = min(max(index + shift, 0), len(self.columns) - 1)
        low, high = self.row_range
        row = min(max(roll + modifier, low), high)
        return self.results[self.cells[row - low][col]]

    def distribution_at(self, column: str, *, shift: int = 0, modifier: int = 0) -> Distribution:
        """The exact result distribution in column ``column`` (a label)."""
        return self._distribution(self.column_index(column), shift, modifier)

    def _distribution(self, index: int, shift: int, modifier: int) -> Distribution:
        col = min(max(index + shift, 0), len(self.columns) - 1)
        key = ("dist", col, modifier)
        found: Distribution | None = self._memo.get(key)
        if found is None:  # a Distribution is immutable: one object per column and modifier
            acc: dict[str, Fraction] = {}
            for roll, p in self.dice.outcomes():
                code = self._lookup(col, roll, 0, modifier).code
                acc[code] = acc.get(code, Fraction(0)) + p
            order = sorted(acc, key=lambda c: (self.results[c].rank, c))
            found = Distribution(tuple((self.results[c], acc[c]) for c in order))
            kept(self._memo, key, found, _MEMO_SIZE)
        return found

    def monotonicity_violations(self) -> list[tuple[int, str, str]]:
        """``(row, left label, right label)`` where moving right is worse for the attacker.

        Empty when the table is monotone under its ranks (S9.1b).
        """
        low = self.row_range[0]
        bad: list[tuple[int, str, str]] = []
        for i, row in enumerate(self.cells):
            for j in range(len(row) - 1):
                if self.results[row[j + 1]].rank < self.results[row[j]].rank:
                    bad.append((low + i, self.labels[j], self.labels[j + 1]))
        return bad

    def _refuse(self, what: str) -> AttackRefused:
        return AttackRefused(
            f"{what} is below the lowest column {self.labels[0]} of {self.name!r}",
            rule=self.rule,
        )


@attrs.frozen(kw_only=True)
class OddsTable(ResultsTable):
    """An odds-ratio CRT: the column is chosen by attack ÷ defence.

    ``rounding="floor"``: the highest column not above the ratio (S8.2, 17÷4 → 4:1).
    ``rounding="nearest"``: the nearest column; an exact half-way ratio goes to the
    higher column (S10.5: 14÷6 → 2:1, 14÷21 → 1:1, 5÷2 → 3:1). Ratios below
    ``refuse_below`` are refused with :class:`AttackRefused`; its default is the lowest
    column for floor, and for nearest the lowest column minus half the gap to the
    second column (columns 1:1, 2:1 … → 0.5: "below 0.5 no attack"). Ratios above the
    highest column count as it (40÷4 → 6:1).
    """

    rounding: Rounding = "floor"
    refuse_below: Fraction | None = None

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        if self.rounding not in ROUNDINGS:
            raise DataError(
                f"unknown rounding {self.rounding!r}; expected one of {ROUNDINGS}",
                source=self.source,
                entry="rounding",
            )

    def _label(self, column: Fraction) -> str:
        return format_ratio(column)

    @classmethod
    def _parse_column(cls, value: str | int) -> Fraction:
        if isinstance(value, str):
            return parse_ratio(value)
        raise CombatError(f"bad odds column {value!r}: expected 'A:D'")

    @property
    def threshold(self) -> Fraction:
        """The lowest ratio that may attack."""
        if self.refuse_below is not None:
            return self.refuse_below
        first = self.columns[0]
        if self.rounding == "floor" or len(self.columns) == 1:
            return first
        return first - (self.columns[1] - first) / 2

    def try_column(self, attack: Number, defence: Number) -> str | None:
        """The column label for these strengths (before shifts), ``None`` if refused."""
        index = self._cached_index(attack, defence)
        return None if index < 0 else self.labels[index]

    def _cached_index(self, attack: Number, defence: Number) -> int:
        """:meth:`_try_index`, kept per pair of exact ints (the usual strengths)."""
        if type(attack) is not int or type(defence) is not int or defence <= 0:
            return self._try_index(attack, defence)
        key = ("int", attack, defence)
        found: int | None = self._memo.get(key)
        if found is None:
            found = self._try_index(attack, defence)
            kept(self._memo, key, found, _MEMO_SIZE)
        return found

    def _try_index(self, attack: Number, defence: Number) -> int:
        """The unshifted column's index, ``-1`` below :attr:`threshold`."""
        if isinstance(attack, bool) or not isinstance(attack, int | Fraction):
            raise CombatError(f"attack strength must be an int or Fraction, got {attack!r}")
        d = check_strength("defence", defence)
        if d == 0:
            raise CombatError("defence strength must be positive")
        if attack / d < self.threshold:
            return -1
        return self._index_for(attack, defence)

    def ratio(self, attack: Number, defence: Number) -> Fraction:
        """The exact ratio attack ÷ defence."""
        a = check_strength("attack", attack)
        d = check_strength("defence", defence)
        if d == 0:
            raise CombatError("defence strength must be positive")
        return a / d

    def _index_for(self, attack: Number, defence: Number) -> int:
        r = self.ratio(attack, defence)
        if r < self.threshold:
            raise self._refuse(f"odds {attack}:{defence} (ratio {r})")
        if self.rounding == "floor":
            below = [i for i, c in enumerate(self.columns) if c <= r]
            return below[-1] if below else 0
        # nearest: smallest distance; ties go to the higher column
        return min(range(len(self.columns)), key=lambda i: (abs(self.columns[i] - r), -i))

    def column_for(self, attack: Number, defence: Number) -> str:
        """The column label for these strengths (before shifts)."""
        index = self._cached_index(attack, defence)
        return self.labels[index if index >= 0 else self._index_for(attack, defence)]

    def _index(self, attack: Number, defence: Number, column: str | None) -> int:
        if column is not None:
            return self.column_index(column)
        index = self._cached_index(attack, defence)
        return index if index >= 0 else self._index_for(attack, defence)  # refused: raises

    def resolve(
        self,
        attack: Number,
        defence: Number,
        *,
        roll: int | ChanceDriver,
        shift: int = 0,
        modifier: int = 0,
        column: str | None = None,
    ) -> CombatResult:
        """The result for these strengths and die ``roll`` (an int, or a driver to roll).

        ``column`` forces a column whatever the strengths (S7.4: artillery in close
        combat at 6:1). ``shift`` moves columns, ``modifier`` adds to the roll; both are
        clamped to the table (a shift past either edge counts as the edge column).
        Refusal is decided on the unshifted ratio. For another behaviour past the edges
        (refuse after the shifts, an automatic result), see
        :class:`hexwar.mechanics.combat.OddsRules`.
        """
        index = self._index(attack, defence, column)
        return self._lookup(index, _roll_of(self.dice, roll), shift, modifier)

    def distribution(
        self,
        attack: Number,
        defence: Number,
        *,
        shift: int = 0,
        modifier: int = 0,
        column: str | None = None,
    ) -> Distribution:
        """The exact distribution of results for these strengths over the table's dice."""
        return self._distribution(self._index(attack, defence, column), shift, modifier)


@attrs.frozen(kw_only=True)
class StrengthTable(ResultsTable):
    """A strength-category table (bombardment, S9.2): the column is chosen by an amount.

    The column is the highest one not above the amount (so 2 × 1 bomb → "2"; 3 → "2");
    an amount below the lowest column is refused.
    """

    def _label(self, column: Fraction) -> str:
        return format_amount(column)

    @classmethod
    def _parse_column(cls, value: str | int) -> Fraction:
        return parse_amount(value)

    def column_for(self, amount: Number) -> str:
        """The column label for ``amount`` (e.g. bombs)."""
        return self.labels[self._index_for(amount)]

    def _index_for(self, amount: Number) -> int:
        if type(amount) is Fraction or type(amount) is int:  # not a bool: kept per amount
            key = ("amount", *amount.as_integer_ratio())  # ints: no Python Fraction hash
            found: int | None = self._memo.get(key)
            if found is None:
                found = self._find_index(amount)
                kept(self._memo, key, found, _MEMO_SIZE)
            return found
        return self._find_index(amount)

    def _find_index(self, amount: Number) -> int:
        a = check_strength("bombardment", amount)
        below = [i for i, c in enumerate(self.columns) if c <= a]
        if not below:
            raise self._refuse(f"strength {a}")
        return below[-1]

    def _index(self, amount: Number, column: str | None) -> int:
        return self.column_index(column) if column is not None else self._index_for(amount)

    def resolve(
        self,
        amount: Number,
        *,
        roll: int | ChanceDriver,
        shift: int = 0,
        modifier: int = 0,
        column: str | None = None,
    ) -> CombatResult:
        """The result for ``amount`` and die ``roll``; shifts and modifiers clamp."""
        index = self._index(amount, column)
        return self._lookup(index, _roll_of(self.dice, roll), shift, modifier)

    def distribution(
        self, amount: Number, *, shift: int = 0, modifier: int = 0, column: str | None = None
    ) -> Distribution:
        """The exact distribution of results for ``amount``."""
        return self._distribution(self._index(amount, column), shift, modifier)


_RESULT_PARTS: Final = frozenset(f.name for f in attrs.fields(CombatResult) if f.name != "code")


def _results(
    given: Mapping[str, CombatResult | Mapping[str, Any]] | Sequence[CombatResult],
) -> dict[str, CombatResult]:
    """:meth:`ResultsTable.build`'s ``results`` as result objects by code."""
    if not isinstance(given, Mapping):
        return {r.code: r for r in given}
    out: dict[str, CombatResult] = {}
    for code, parts in given.items():
        if isinstance(parts, CombatResult):
            out[code] = parts
            continue
        unknown = sorted(set(parts) - _RESULT_PARTS)
        if unknown:
            expected = sorted(_RESULT_PARTS)
            raise DataError(
                f"unknown part(s) {unknown}; expected some of {expected}", entry=f"results.{code}"
            )
        out[code] = CombatResult(code, **parts)
    return out


# -- tables from data (format: docs/combat.md) ------------------------------------------------


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
