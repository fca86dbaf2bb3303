"""Offset, doubled and printed-map-label coordinates: known values, neighbours, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.base.errors import GeometryError
from hexwar.grid.coords import (
    DoubledCoord,
    DoubledKind,
    MapLabels,
    OffsetCoord,
    OffsetKind,
    doubled_to_hex,
    hex_to_doubled,
    hex_to_offset,
    offset_to_hex,
)
from hexwar.grid.geometry import Hex
from hexwar.testing.strategies import directions, hexes, offset_kinds

small = hexes(radius=500)
ints = st.integers(min_value=-500, max_value=500)

# Red Blob's neighbour tables for offset coordinates, as (dcol, drow) in direction order
# 0-5, indexed by the parity of the row (r kinds) or column (q kinds). They are an
# independent statement of each layout: neighbours must land where the table says.
OFFSET_NEIGHBOURS = {
    OffsetKind.ODD_R: (
        ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)),
        ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)),
    ),
    OffsetKind.EVEN_R: (
        ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)),
        ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)),
    ),
    OffsetKind.ODD_Q: (
        ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)),
        ((1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)),
    ),
    OffsetKind.EVEN_Q: (
        ((1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)),
        ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)),
    ),
}
DOUBLED_NEIGHBOURS = {
    DoubledKind.DOUBLED_WIDTH: ((2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)),
    DoubledKind.DOUBLED_HEIGHT: ((1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2)),
}

# -- offset ---------------------------------------------------------------------------------


def test_red_blob_offset_known_values() -> None:
    # Red Blob's reference tests: Hex(1, 2, -3) <-> even-q (1, 3), odd-q (1, 2)
    assert hex_to_offset(Hex(1, 2), OffsetKind.EVEN_Q) == OffsetCoord(1, 3)
    assert hex_to_offset(Hex(1, 2), OffsetKind.ODD_Q) == OffsetCoord(1, 2)
    assert offset_to_hex(1, 3, OffsetKind.EVEN_Q) == Hex(1, 2)
    assert offset_to_hex(1, 2, OffsetKind.ODD_Q) == Hex(1, 2)


@pytest.mark.parametrize(
    ("h", "kind", "expected"),
    [
        (Hex(0, 1), OffsetKind.ODD_R, (0, 1)),
        (Hex(-1, 2), OffsetKind.ODD_R, (0, 2)),
        (Hex(1, 2), OffsetKind.ODD_R, (2, 2)),
        (Hex(0, 1), OffsetKind.EVEN_R, (1, 1)),
        (Hex(-1, -1), OffsetKind.ODD_R, (-2, -1)),
        (Hex(-1, -1), OffsetKind.EVEN_R, (-1, -1)),
        (Hex(-1, -1), OffsetKind.ODD_Q, (-1, -2)),
        (Hex(-1, -1), OffsetKind.EVEN_Q, (-1, -1)),
        (Hex(-3, 0), OffsetKind.ODD_Q, (-3, -2)),
        (Hex(-3, 0), OffsetKind.EVEN_Q, (-3, -1)),
    ],
)
def test_offset_known_conversions_including_negative(
    h: Hex, kind: OffsetKind, expected: tuple[int, int]
) -> None:
    assert hex_to_offset(h, kind) == OffsetCoord(*expected)
    assert offset_to_hex(*expected, kind) == h


@given(small, offset_kinds(), directions())
def test_offset_neighbours_follow_red_blob_tables(h: Hex, kind: OffsetKind, d: int) -> None:
    here = hex_to_offset(h, kind)
    parity = (here.row if kind in (OffsetKind.ODD_R, OffsetKind.EVEN_R) else here.col) & 1
    dcol, drow = OFFSET_NEIGHBOURS[kind][parity][d]
    assert hex_to_offset(h.neighbor(d), kind) == OffsetCoord(here.col + dcol, here.row + drow)


@given(small, offset_kinds())
def test_offset_round_trips_from_hex(h: Hex, kind: OffsetKind) -> None:
    oc = hex_to_offset(h, kind)
    assert offset_to_hex(oc.col, oc.row, kind) == h
    assert OffsetCoord.from_hex(h, kind).to_hex(kind) == h


@given(ints, ints, offset_kinds())
def test_offset_round_trips_from_offset(col: int, row: int, kind: OffsetKind) -> None:
    assert hex_to_offset(offset_to_hex(col, row, kind), kind) == OffsetCoord(col, row)


@given(small)
def test_r_offsets_are_q_offsets_of_the_mirrored_hex(h: Hex) -> None:
    """Swapping q and r turns a row layout into the matching column layout."""
    for r_kind, q_kind in (
        (OffsetKind.ODD_R, OffsetKind.ODD_Q),
        (OffsetKind.EVEN_R, OffsetKind.EVEN_Q),
    ):
        rows = hex_to_offset(h, r_kind)
        cols = hex_to_offset(h.reflect_s(), q_kind)
        assert (rows.col, rows.row) == (cols.row, cols.col)


def test_offset_kind_accepts_red_blob_names() -> None:
    assert OffsetKind("odd-r") is OffsetKind.ODD_R
    assert [k.value for k in OffsetKind] == ["odd-r", "even-r", "odd-q", "even-q"]


# -- doubled --------------------------------------------------------------------------------


def test_red_blob_doubled_known_values() -> None:
    # Red Blob's reference tests: Hex(1, 2, -3) -> q-doubled (1, 5), r-doubled (4, 2)
    assert hex_to_doubled(Hex(1, 2), DoubledKind.DOUBLED_HEIGHT) == DoubledCoord(1, 5)
    assert hex_to_doubled(Hex(1, 2), DoubledKind.DOUBLED_WIDTH) == DoubledCoord(4, 2)
    assert doubled_to_hex(1, 5, DoubledKind.DOUBLED_HEIGHT) == Hex(1, 2)
    assert doubled_to_hex(4, 2, DoubledKind.DOUBLED_WIDTH) == Hex(1, 2)


@given(small, st.sampled_from(list(DoubledKind)), directions())
def test_doubled_neighbours_and_round_trip(h: Hex, kind: DoubledKind, d: int) -> None:
    here = hex_to_doubled(h, kind)
    assert (here.col + here.row) % 2 == 0
    assert here.to_hex(kind) == h
    dcol, drow = DOUBLED_NEIGHBOURS[kind][d]
    assert hex_to_doubled(h.neighbor(d), kind) == DoubledCoord(here.col + dcol, here.row + drow)


@given(ints, ints, st.sampled_from(list(DoubledKind)))
def test_doubled_with_odd_sum_is_not_a_hex(col: int, row: int, kind: DoubledKind) -> None:
    if (col + row) % 2 == 0:
        assert hex_to_doubled(doubled_to_hex(col, row, kind), kind) == DoubledCoord(col, row)
    else:
        with pytest.raises(GeometryError, match="must be even"):
            doubled_to_hex(col, row, kind)


# -- printed map labels ----------------------------------------------------------------------


def test_label_0912_is_column_9_row_12() -> None:
    for kind in OffsetKind:
        labels = MapLabels(kind)
        h = labels.parse("0912")
        assert hex_to_offset(h, kind) == OffsetCoord(9, 12)
        assert labels.label(h) == "0912"


@given(
    st.integers(1, 4),
    st.integers(1, 4),
    offset_kinds(),
    st.sampled_from(["", ".", "-", " / "]),
    st.integers(0, 1),
    st.data(),
)
def test_labels_round_trip(
    col_digits: int, row_digits: int, kind: OffsetKind, sep: str, first: int, data: st.DataObject
) -> None:
    labels = MapLabels(
        kind, col_digits=col_digits, row_digits=row_digits, separator=sep, first=first
    )
    col = data.draw(st.integers(first, 10**col_digits - 1))
    row = data.draw(st.integers(first, 10**row_digits - 1))
    h = offset_to_hex(col - first, row - first, kind)
    text = labels.label(h)
    assert text == f"{col:0{col_digits}d}{sep}{row:0{row_digits}d}"
    assert labels.parse(text) == h
    assert labels.printed(h) == (col, row)


def test_maps_numbered_from_0101() -> None:
    labels = MapLabels(OffsetKind.ODD_Q, first=1)
    assert labels.parse("0101") == Hex(0, 0)
    assert labels.parse("0912") == offset_to_hex(8, 11, OffsetKind.ODD_Q)
    with pytest.raises(GeometryError, match="numbers start at 1"):
        labels.parse("0100")
    with pytest.raises(GeometryError, match=r"column 0 is outside 1\.\.99"):
        labels.label(offset_to_hex(-1, 3, OffsetKind.ODD_Q))


def test_big_maps_use_three_digit_parts() -> None:
    labels = MapLabels(OffsetKind.EVEN_Q, col_digits=3, row_digits=3)
    h = offset_to_hex(120, 7, OffsetKind.EVEN_Q)
    assert labels.label(h) == "120007"
    assert labels.parse("120007") == h


def test_label_kind_may_be_given_by_name() -> None:
    assert MapLabels("odd-q") == MapLabels(OffsetKind.ODD_Q)


@pytest.mark.parametrize(
    ("col", "row", "why"),
    [(-1, 5, "column -1"), (3, -2, "row -2"), (100, 5, "column 100"), (5, 100, "row 100")],
)
def test_hexes_off_the_label_range_have_no_label(col: int, row: int, why: str) -> None:
    labels = MapLabels(OffsetKind.ODD_R)
    with pytest.raises(GeometryError, match=why):
        labels.label(offset_to_hex(col, row, OffsetKind.ODD_R))


@pytest.mark.parametrize("bad", ["", "091", "09123", "09a2", "-912", "09 12", "０９１２", "0912\n"])
def test_malformed_labels_are_rejected(bad: str) -> None:
    with pytest.raises(GeometryError, match="bad map label"):
        MapLabels(OffsetKind.ODD_Q).parse(bad)


def test_separator_must_match() -> None:
    labels = MapLabels(OffsetKind.ODD_Q, separator=".")
    assert labels.parse("09.12") == MapLabels(OffsetKind.ODD_Q).parse("0912")
    with pytest.raises(GeometryError, match="bad map label"):
        labels.parse("09-12")


@pytest.mark.parametrize(
    "kwargs",
    [{"col_digits": 0}, {"row_digits": 10}, {"separator": "1"}, {"kind": "odd"}, {"first": -1}],
)
def test_bad_label_settings_are_rejected(kwargs: dict[str, object]) -> None:
    settings: dict[str, object] = {"kind": OffsetKind.ODD_Q, **kwargs}
    with pytest.raises(GeometryError, match=r"MapLabels\.|unknown offset kind 'odd'"):
        MapLabels(**settings)  # type: ignore[arg-type]
