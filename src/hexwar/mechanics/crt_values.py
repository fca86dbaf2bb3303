"""What combat results tables deal in: column values and results.

Odds ratios (:func:`parse_ratio`, :func:`format_ratio`) and strength amounts
(:func:`parse_amount`) as exact :class:`~fractions.Fraction` values, never floats; a
result code and its parts (:class:`CombatResult`) and the exact distribution of results
of one resolution (:class:`Distribution`). The tables themselves:
:mod:`hexwar.mechanics.crt`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Final

import attrs

from hexwar.base.errors import CombatError, DataError
from hexwar.engine.dice import Dice

__all__ = [
    "CombatResult",
    "Distribution",
    "Number",
    "check_strength",
    "format_amount",
    "format_ratio",
    "parse_amount",
    "parse_ratio",
    "validate_grid",
]

Number = int | Fraction


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


def parse_amount(value: object) -> Fraction:
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


def format_amount(amount: Fraction) -> str:
    """A category amount's label: ``Fraction(1, 2)`` → ``"1/2"``."""
    return str(amount)


def check_strength(name: str, value: Number) -> Fraction:
    """``value`` as a Fraction if it is a non-negative int or Fraction, else CombatError."""
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


# -- validation ------------------------------------------------------------------------


def validate_grid(
    columns: tuple[Fraction, ...],
    cells: tuple[tuple[str, ...], ...],
    results: Mapping[str, CombatResult],
    dice: Dice,
    row_range: tuple[int, int],
    src: str,
) -> None:
    """Check a table's grid (:class:`~hexwar.mechanics.crt.ResultsTable`): ascending
    columns, die rows covering the dice, a known code in every cell; :class:`DataError`."""
    if not columns:
        raise DataError("a table needs at least one column", source=src, entry="columns")
    for i in range(1, len(columns)):
        if columns[i] <= columns[i - 1]:
            raise DataError(
                f"columns must be strictly ascending: {columns[i - 1]} then {columns[i]}",
                source=src,
                entry=f"columns[{i}]",
            )
    low, high = row_range
    if low > dice.minimum or high < dice.maximum:
        raise DataError(
            f"rows {low}..{high} do not cover every {dice} roll ({dice.minimum}..{dice.maximum})",
            source=src,
            entry="rows",
        )
    if len(cells) != high - low + 1:
        raise DataError(
            f"expected {high - low + 1} die rows, got {len(cells)}", source=src, entry="rows"
        )
    for code, result in results.items():
        if result.code != code:
            raise DataError(f"result keyed {code!r} has code {result.code!r}", source=src)
    for i, row in enumerate(cells):
        entry = f"rows.{low + i}"
        if len(row) != len(columns):
            raise DataError(
                f"{len(row)} cells for {len(columns)} columns (missing or extra cell)",
                source=src,
                entry=entry,
            )
        for j, code in enumerate(row):
            if code not in results:
                raise DataError(
                    f"unknown result code {code!r}; known: {sorted(results)}",
                    source=src,
                    entry=f"{entry}[{j}]",
                )
