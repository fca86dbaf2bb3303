"""Offset and doubled coordinates, and printed-map hex labels such as ``"0912"``.

All conversions follow Red Blob Games' hex guide and round-trip exactly, negative
coordinates included (parity is taken with ``& 1``, which is correct for negatives).

*Offset* coordinates ``(col, row)`` are what a rectangular map prints. The four kinds
say which rows (``-r``, pointy-topped hexes) or columns (``-q``, flat-topped hexes) are
shoved by half a hex: odd ones or even ones (shoved right for rows, down for columns).

>>> hex_to_offset(Hex(1, 2), OffsetKind.ODD_R)
OffsetCoord(col=2, row=2)
>>> offset_to_hex(2, 2, OffsetKind.ODD_R)
Hex(q=1, r=2)
>>> hex_to_doubled(Hex(1, 2), DoubledKind.DOUBLED_WIDTH)
DoubledCoord(col=4, row=2)
>>> MapLabels(OffsetKind.ODD_Q).label(offset_to_hex(9, 12, OffsetKind.ODD_Q))
'0912'
"""

from __future__ import annotations

import enum

import attrs

from hexwar.base.errors import GeometryError
from hexwar.grid.geometry import Hex

__all__ = [
    "DoubledCoord",
    "DoubledKind",
    "MapLabels",
    "OffsetCoord",
    "OffsetKind",
    "doubled_to_hex",
    "hex_to_doubled",
    "hex_to_offset",
    "offset_to_hex",
]


class OffsetKind(enum.StrEnum):
    """The four offset layouts (Red Blob's names); ``OffsetKind("odd-q")`` also works.

    ``ODD_R``/``EVEN_R`` go with pointy-topped hexes (rows are straight), ``ODD_Q``/
    ``EVEN_Q`` with flat-topped hexes (columns are straight).
    """

    ODD_R = "odd-r"
    """Pointy tops; odd rows shoved right by half a hex."""
    EVEN_R = "even-r"
    """Pointy tops; even rows shoved right by half a hex."""
    ODD_Q = "odd-q"
    """Flat tops; odd columns shoved down by half a hex."""
    EVEN_Q = "even-q"
    """Flat tops; even columns shoved down by half a hex."""


class DoubledKind(enum.StrEnum):
    """The two doubled layouts: one coordinate steps by 2 between neighbours."""

    DOUBLED_WIDTH = "doubled-width"
    """Pointy tops; ``col = 2q + r``, ``row = r`` (``col + row`` is always even)."""
    DOUBLED_HEIGHT = "doubled-height"
    """Flat tops; ``col = q``, ``row = 2r + q`` (``col + row`` is always even)."""


@attrs.frozen(order=True)
class OffsetCoord:
    """A column and row in some offset layout (the layout is not stored)."""

    col: int
    row: int

    @classmethod
    def from_hex(cls, h: Hex, kind: OffsetKind) -> OffsetCoord:
        """Same as :func:`hex_to_offset`."""
        return hex_to_offset(h, kind)

    def to_hex(self, kind: OffsetKind) -> Hex:
        """The axial hex of this coordinate read in layout ``kind``."""
        return offset_to_hex(self.col, self.row, kind)


@attrs.frozen(order=True)
class DoubledCoord:
    """A column and row in a doubled layout; ``col + row`` is even for a real hex."""

    col: int
    row: int

    def to_hex(self, kind: DoubledKind) -> Hex:
        """The axial hex of this coordinate read in layout ``kind``."""
        return doubled_to_hex(self.col, self.row, kind)


def hex_to_offset(h: Hex, kind: OffsetKind | str = OffsetKind.ODD_Q) -> OffsetCoord:
    """Axial to offset coordinates (``kind`` an :class:`OffsetKind` or its name, ``"odd-q"``).

    >>> [hex_to_offset(Hex(-1, -1), k) for k in OffsetKind]  # doctest: +NORMALIZE_WHITESPACE
    [OffsetCoord(col=-2, row=-1), OffsetCoord(col=-1, row=-1),
     OffsetCoord(col=-1, row=-2), OffsetCoord(col=-1, row=-1)]
    """
    if type(kind) is not OffsetKind:
        kind = _to_offset_kind(kind)
    q, r = h.q, h.r
    if kind is OffsetKind.ODD_R:
        return OffsetCoord(q + (r - (r & 1)) // 2, r)
    if kind is OffsetKind.EVEN_R:
        return OffsetCoord(q + (r + (r & 1)) // 2, r)
    if kind is OffsetKind.ODD_Q:
        return OffsetCoord(q, r + (q - (q & 1)) // 2)
    if kind is OffsetKind.EVEN_Q:
        return OffsetCoord(q, r + (q + (q & 1)) // 2)
    raise GeometryError(f"unknown offset kind {kind!r}")


def offset_to_hex(col: int, row: int, kind: OffsetKind | str = OffsetKind.ODD_Q) -> Hex:
    """Offset to axial coordinates; the inverse of :func:`hex_to_offset`.

    >>> offset_to_hex(1, 1), offset_to_hex(1, 1, "odd-r"), offset_to_hex(2, 3, "even-q")
    (Hex(q=1, r=1), Hex(q=1, r=1), Hex(q=2, r=2))
    """
    if type(kind) is not OffsetKind:
        kind = _to_offset_kind(kind)
    if kind is OffsetKind.ODD_R:
        return Hex(col - (row - (row & 1)) // 2, row)
    if kind is OffsetKind.EVEN_R:
        return Hex(col - (row + (row & 1)) // 2, row)
    if kind is OffsetKind.ODD_Q:
        return Hex(col, row - (col - (col & 1)) // 2)
    if kind is OffsetKind.EVEN_Q:
        return Hex(col, row - (col + (col & 1)) // 2)
    raise GeometryError(f"unknown offset kind {kind!r}")


def hex_to_doubled(h: Hex, kind: DoubledKind) -> DoubledCoord:
    """Axial to doubled coordinates."""
    if kind is DoubledKind.DOUBLED_WIDTH:
        return DoubledCoord(2 * h.q + h.r, h.r)
    if kind is DoubledKind.DOUBLED_HEIGHT:
        return DoubledCoord(h.q, 2 * h.r + h.q)
    raise GeometryError(f"unknown doubled kind {kind!r}")


def doubled_to_hex(col: int, row: int, kind: DoubledKind) -> Hex:
    """Doubled to axial coordinates; ``col + row`` must be even.

    >>> doubled_to_hex(4, 2, DoubledKind.DOUBLED_WIDTH)
    Hex(q=1, r=2)
    >>> doubled_to_hex(3, 2, DoubledKind.DOUBLED_WIDTH)
    Traceback (most recent call last):
    ...
    hexwar.base.errors.GeometryError: doubled coordinate (3, 2) is not a hex: ...
    """
    if (col + row) & 1:
        raise GeometryError(
            f"doubled coordinate ({col}, {row}) is not a hex: col + row must be even"
        )
    if kind is DoubledKind.DOUBLED_WIDTH:
        return Hex((col - row) // 2, row)
    if kind is DoubledKind.DOUBLED_HEIGHT:
        return Hex(col, (row - col) // 2)
    raise GeometryError(f"unknown doubled kind {kind!r}")


def _to_offset_kind(value: OffsetKind | str) -> OffsetKind:
    try:
        return OffsetKind(value)
    except ValueError:
        names = ", ".join(repr(k.value) for k in OffsetKind)
        raise GeometryError(f"unknown offset kind {value!r}; expected one of {names}") from None


def _check_digits(instance: MapLabels, attribute: attrs.Attribute[int], value: int) -> None:
    if not 1 <= value <= 9:
        raise GeometryError(f"MapLabels.{attribute.name} must be 1..9, got {value!r}")


def _check_separator(instance: MapLabels, attribute: attrs.Attribute[str], value: str) -> None:
    if any(c.isdigit() for c in value):
        raise GeometryError(f"MapLabels.separator must not contain digits, got {value!r}")


def _check_first(instance: MapLabels, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or value < 0:
        raise GeometryError(f"MapLabels.first must be an int >= 0, got {value!r}")


@attrs.frozen
class MapLabels:
    """The hex labels printed on wargame maps: ``"0912"`` is column 09, row 12.

    The printed numbers, minus ``first``, are the offset coordinates ``(col, row)`` of
    layout ``kind``. With the default ``first=0`` the printed numbers *are* the offset
    coordinates: pick the kind by which printed columns (flat tops) or rows (pointy tops)
    sit half a hex lower / further right. Maps numbered from ``0101`` use ``first=1``
    (then printed column 01 is offset column 0, an even one). Each part has a fixed number
    of digits (``col_digits``, ``row_digits``; 2+2 by default, 3+3 for big maps),
    zero-padded, optionally joined by ``separator``. A hex whose printed number would be
    below ``first`` or too big for its digits has no label, and a label that does not
    match the format is rejected (both :class:`~hexwar.base.errors.GeometryError`).

    >>> labels = MapLabels(OffsetKind.EVEN_Q)
    >>> labels.parse("0912")
    Hex(q=9, r=7)
    >>> labels.label(Hex(9, 7))
    '0912'
    >>> MapLabels(OffsetKind.ODD_R, col_digits=3, row_digits=3, separator=".").label(Hex(0, 5))
    '002.005'
    >>> MapLabels(OffsetKind.ODD_Q, first=1).label(Hex(0, 0))
    '0101'
    >>> labels.label(Hex(-1, 0))
    Traceback (most recent call last):
    ...
    hexwar.base.errors.GeometryError: Hex(q=-1, r=0) has no map label: column -1 is outside 0..99
    """

    kind: OffsetKind = attrs.field(converter=_to_offset_kind)
    col_digits: int = attrs.field(default=2, validator=_check_digits)
    row_digits: int = attrs.field(default=2, validator=_check_digits)
    separator: str = attrs.field(default="", validator=_check_separator)
    first: int = attrs.field(default=0, validator=_check_first)

    def printed(self, h: Hex) -> tuple[int, int]:
        """The printed column and row numbers of ``h``, checked to fit the label."""
        oc = hex_to_offset(h, self.kind)
        col, row = oc.col + self.first, oc.row + self.first
        for name, value, digits in (
            ("column", col, self.col_digits),
            ("row", row, self.row_digits),
        ):
            top = 10**digits - 1
            if not self.first <= value <= top:
                raise GeometryError(
                    f"{h!r} has no map label: {name} {value} is outside {self.first}..{top}"
                )
        return col, row

    def label(self, h: Hex) -> str:
        """The printed label of ``h``."""
        col, row = self.printed(h)
        return f"{col:0{self.col_digits}d}{self.separator}{row:0{self.row_digits}d}"

    def parse(self, label: str) -> Hex:
        """The hex a printed label names; the exact inverse of :meth:`label`.

        >>> MapLabels(OffsetKind.ODD_Q).parse("09-12")
        Traceback (most recent call last):
        ...
        hexwar.base.errors.GeometryError: bad map label '09-12': expected 2 + 2 digits ...
        """
        cd, rd, sep = self.col_digits, self.row_digits, self.separator
        col_part, sep_part, row_part = label[:cd], label[cd : cd + len(sep)], label[cd + len(sep) :]
        if (
            len(label) != cd + len(sep) + rd
            or sep_part != sep
            or not (col_part + row_part).isascii()
            or not (col_part + row_part).isdigit()
        ):
            example = "0" * cd + sep + "0" * rd
            raise GeometryError(
                f"bad map label {label!r}: expected {cd} + {rd} digits (like {example!r})"
            )
        col, row = int(col_part), int(row_part)
        if col < self.first or row < self.first:
            raise GeometryError(f"bad map label {label!r}: numbers start at {self.first}")
        return offset_to_hex(col - self.first, row - self.first, self.kind)
