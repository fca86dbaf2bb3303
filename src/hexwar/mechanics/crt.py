"""Combat results tables: odds-ratio CRTs and strength-category (bombardment) tables.

A table is data: columns, die rows, and result codes whose parts (steps lost, retreat
hexes, flags) the table defines and the game's rules apply. Ratios are exact
:class:`~fractions.Fraction` values, never floats. See ``docs/combat.md`` for the TOML
format.

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

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, Literal, Self, TypeVar

import attrs

from hexwar.base.datafile import read_data_file
from hexwar.base.errors import AttackRefused, CombatError, DataError
from hexwar.engine.dice import ChanceDriver, Dice

__all__ = [
    "CombatResult",
    "Distribution",
    "OddsTable",
    "ResultsTable",
    "StrengthTable",
    "format_ratio",
    "load_table",
    "parse_ratio",
    "table_from_data",
]

Rounding = Literal["floor", "nearest"]
ROUNDINGS: Final = ("floor", "nearest")
Number = int | Fraction
TableT = TypeVar("TableT", bound="ResultsTable")


# -- ratios ----------------------------------------------------------------------------

_RATIO_RE: Final = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")
_AMOUNT_RE: Final = re.compile(r"^\s*(\d+)\s*(?:/\s*(\d+))?\s*$")


def parse_ratio(text: str) -> Fraction:
    """``"3:2"`` → ``Fraction(3, 2)``.

    >>> parse_ratio("1:2"), parse_ratio("6:1")
    (Fraction(1, 2), Fraction(6, 1))
    """
    m = _RATIO_RE.match(text) if isinstance(text, str) else None
    if m is None or int(m.group(1)) == 0 or int(m.group(2)) == 0:
        raise CombatError(f"bad odds ratio {text!r}: expected 'A:D' with positive integers")
    return Fraction(int(m.group(1)), int(m.group(2)))


def format_ratio(ratio: Fraction) -> str:
    """``Fraction(3, 2)`` → ``"3:2"``; ``Fraction(1, 3)`` → ``"1:3"``.

    >>> format_ratio(Fraction(2)), format_ratio(Fraction(3, 2)), format_ratio(Fraction(1, 3))
    ('2:1', '3:2', '1:3')
    """
    return f"{ratio.numerator}:{ratio.denominator}"


def _parse_amount(value: object) -> Fraction:
    """A category amount: an int, ``"1/2"`` or ``"½"``."""
    if isinstance(value, bool):
        raise CombatError(f"bad amount {value!r}")
    if isinstance(value, int):
        if value <= 0:
            raise CombatError(f"bad amount {value!r}: must be positive")
        return Fraction(value)
    if isinstance(value, str):
        if value.strip() == "½":
            return Fraction(1, 2)
        m = _AMOUNT_RE.match(value)
        if m is not None:
            amount = Fraction(int(m.group(1)), int(m.group(2) or 1)) if m.group(2) != "0" else None
            if amount is not None and amount > 0:
                return amount
    raise CombatError(f"bad amount {value!r}: expected a positive int or 'N/M'")


def _format_amount(amount: Fraction) -> str:
    return str(amount)


def _check_strength(name: str, value: Number) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise CombatError(f"{name} strength must be an int or Fraction, got {value!r}")
    if value < 0:
        raise CombatError(f"{name} strength must not be negative, got {value}")
    return Fraction(value)


# -- results ---------------------------------------------------------------------------


def _sorted_flags(flags: Iterable[str]) -> tuple[str, ...]:
    if isinstance(flags, str):
        flags = (flags,)
    return tuple(sorted(set(flags)))


@attrs.frozen
class CombatResult:
    """One result code and its parts, as the table's data defines them.

    ``rank`` orders results for the attacker (higher is better for the attacker), so
    that a game can check a table's monotonicity (S9.1b). ``flags`` carry qualifiers such
    as ``"outside_fortifications"`` that only the game's rules interpret.

    >>> r = CombatResult("Lo", rank=1, defender_steps=1, flags=["outside_fortifications"])
    >>> r.defender_steps, r.has("outside_fortifications"), r.retreat
    (1, True, 0)
    """

    code: str
    rank: int = 0
    defender_steps: int = 0
    attacker_steps: int = 0
    retreat: int = 0
    eliminated: bool = False
    flags: tuple[str, ...] = attrs.field(default=(), converter=_sorted_flags)

    def __attrs_post_init__(self) -> None:
        if not self.code or not isinstance(self.code, str):
            raise DataError(f"result code must be a non-empty string, got {self.code!r}")
        for part in ("rank", "defender_steps", "attacker_steps", "retreat"):
            value = getattr(self, part)
            if isinstance(value, bool) or not isinstance(value, int):
                raise DataError(f"{part} must be an int, got {value!r}", entry=self.code)
            if part != "rank" and value < 0:
                raise DataError(f"{part} must not be negative, got {value}", entry=self.code)

    def has(self, flag: str) -> bool:
        """Whether the result carries ``flag``."""
        return flag in self.flags


@attrs.frozen
class Distribution:
    """The exact probability of each result of one resolution (a chance event).

    ``outcomes`` is ordered by ``rank`` then code; the probabilities sum to 1.
    """

    outcomes: tuple[tuple[CombatResult, Fraction], ...]

    def probability(self, code: str) -> Fraction:
        """P(result code)."""
        return sum((p for r, p in self.outcomes if r.code == code), Fraction(0))

    def expect(self, part: Callable[[CombatResult], Number]) -> Fraction:
        """The expectation of ``part(result)``."""
        return sum((Fraction(part(r)) * p for r, p in self.outcomes), Fraction(0))

    @property
    def expected_defender_steps(self) -> Fraction:
        """Expected defender step losses (``defender_steps``; elimination not counted)."""
        return self.expect(lambda r: r.defender_steps)

    @property
    def expected_attacker_steps(self) -> Fraction:
        """Expected attacker step losses."""
        return self.expect(lambda r: r.attacker_steps)

    @property
    def p_retreat(self) -> Fraction:
        """P(the defender must retreat)."""
        return self.expect(lambda r: 1 if r.retreat > 0 else 0)

    @property
    def p_eliminated(self) -> Fraction:
        """P(the defender is eliminated outright)."""
        return self.expect(lambda r: 1 if r.eliminated else 0)

    def __iter__(self) -> Iterator[tuple[CombatResult, Fraction]]:
        return iter(self.outcomes)


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

    def __attrs_post_init__(self) -> None:
        _validate_grid(self)

    @property
    def labels(self) -> tuple[str, ...]:
        """Column labels, left to right."""
        return tuple(self._label(c) for c in self.columns)

    def _label(self, column: Fraction) -> str:
        raise NotImplementedError

    @classmethod
    def _parse_column(cls, value: str | int) -> Fraction:
        raise NotImplementedError

    @classmethod
    def build(
        cls,
        *,
        columns: Sequence[str | int],
        rows: Mapping[int, Sequence[str]],
        results: Mapping[str, CombatResult] | Sequence[CombatResult],
        dice: Dice | str = "d6",
        name: str = "table",
        rule: str | None = None,
        **extra: Any,
    ) -> Self:
        """Build a table in Python: column labels, ``rows`` keyed by die roll, results.

        The die rows must be consecutive; their range is the table's row range.
        """
        dice = Dice.parse(dice) if isinstance(dice, str) else dice
        if not isinstance(results, Mapping):
            results = {r.code: r for r in results}
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
        try:
            return self.labels.index(label)
        except ValueError:
            raise CombatError(
                f"{self.name}: no column {label!r}; columns are {self.labels}"
            ) from None

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
        acc: dict[str, Fraction] = {}
        for roll, p in self.dice.outcomes():
            code = self._lookup(index, roll, shift, modifier).code
            acc[code] = acc.get(code, Fraction(0)) + p
        order = sorted(acc, key=lambda c: (self.results[c].rank, c))
        return Distribution(tuple((self.results[c], acc[c]) for c in order))

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

    def ratio(self, attack: Number, defence: Number) -> Fraction:
        """The exact ratio attack ÷ defence."""
        a = _check_strength("attack", attack)
        d = _check_strength("defence", defence)
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
        return self.labels[self._index_for(attack, defence)]

    def _index(self, attack: Number, defence: Number, column: str | None) -> int:
        if column is not None:
            return self.column_index(column)
        return self._index_for(attack, defence)

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
        return _format_amount(column)

    @classmethod
    def _parse_column(cls, value: str | int) -> Fraction:
        return _parse_amount(value)

    def column_for(self, amount: Number) -> str:
        """The column label for ``amount`` (e.g. bombs)."""
        return self.labels[self._index_for(amount)]

    def _index_for(self, amount: Number) -> int:
        a = _check_strength("bombardment", amount)
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


# -- building and validation -----------------------------------------------------------


def _validate_grid(table: ResultsTable) -> None:
    src = table.source
    if not table.columns:
        raise DataError("a table needs at least one column", source=src, entry="columns")
    for i in range(1, len(table.columns)):
        if table.columns[i] <= table.columns[i - 1]:
            raise DataError(
                f"columns must be strictly ascending: {table.columns[i - 1]} then "
                f"{table.columns[i]}",
                source=src,
                entry=f"columns[{i}]",
            )
    low, high = table.row_range
    if low > table.dice.minimum or high < table.dice.maximum:
        raise DataError(
            f"rows {low}..{high} do not cover every {table.dice} roll "
            f"({table.dice.minimum}..{table.dice.maximum})",
            source=src,
            entry="rows",
        )
    if len(table.cells) != high - low + 1:
        raise DataError(
            f"expected {high - low + 1} die rows, got {len(table.cells)}", source=src, entry="rows"
        )
    for code, result in table.results.items():
        if result.code != code:
            raise DataError(f"result keyed {code!r} has code {result.code!r}", source=src)
    for i, row in enumerate(table.cells):
        entry = f"rows.{low + i}"
        if len(row) != len(table.columns):
            raise DataError(
                f"{len(row)} cells for {len(table.columns)} columns (missing or extra cell)",
                source=src,
                entry=entry,
            )
        for j, code in enumerate(row):
            if code not in table.results:
                raise DataError(
                    f"unknown result code {code!r}; known: {sorted(table.results)}",
                    source=src,
                    entry=f"{entry}[{j}]",
                )


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

    raw_columns = data["columns"]
    if not isinstance(raw_columns, list) or not raw_columns:
        raise fail("columns must be a non-empty list", "columns")
    columns: list[Fraction] = []
    for i, raw in enumerate(raw_columns):
        try:
            columns.append(parse_ratio(raw) if kind == "odds" else _parse_amount(raw))
        except (ValueError, AttributeError, TypeError) as exc:
            raise fail(str(exc), f"columns[{i}]") from None

    results = _results_from_data(data["results"], fail)

    low, high = dice.minimum, dice.maximum
    if "row_range" in data:
        rr = data["row_range"]
        if (
            not isinstance(rr, list)
            or len(rr) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in rr)
            or rr[0] > rr[1]
        ):
            raise fail(f"row_range must be [low, high] ints, got {rr!r}", "row_range")
        low, high = rr
    raw_rows = data["rows"]
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

    common: dict[str, Any] = {
        "name": str(data.get("name", Path(source).stem or "table")),
        "columns": tuple(columns),
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
    refuse_below = None
    if "refuse_below" in data:
        try:
            refuse_below = _parse_threshold(data["refuse_below"])
        except (ValueError, TypeError) as exc:
            raise fail(str(exc), "refuse_below") from None
    rounding = data.get("rounding", "floor")
    if rounding not in ROUNDINGS:
        raise fail(f"unknown rounding {rounding!r}; expected one of {ROUNDINGS}", "rounding")
    common.update(rounding=rounding, refuse_below=refuse_below)
    return _construct(OddsTable, common, fail)


def _construct(
    cls: type[TableT], kwargs: dict[str, Any], fail: Callable[[str, str], DataError]
) -> TableT:
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


def _results_from_data(
    raw: object, fail: Callable[[str, str], DataError]
) -> dict[str, CombatResult]:
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
