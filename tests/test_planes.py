"""Board planes declared piece by piece (``Board.piece``, ``piece_zoc``, ``keyed``): the
planes each observer keeps and patches from the entries that changed equal the planes
listed anew from the whole view, whatever writes the tables (issue 14)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import HexwarError, StaleMemo, UndeclaredRead
from hexwar.engine.memo import read_checking
from hexwar.engine.observe import Board, Observed
from hexwar.engine.planes import BoardPlanes
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State

CELLS = tuple(f"c{i}" for i in range(6))
#: c0 - c1 - ... - c5 in a row; a piece controls the cells next to it
NEXT = {
    c: tuple(CELLS[j] for j in (i - 1, i + 1) if 0 <= j < len(CELLS)) for i, c in enumerate(CELLS)
}
SIDES = ("red", "blue")
IDS = ("a", "b", "c", "d")
#: "pool" is not a cell: a piece there is off the board
PLACES = (*CELLS[:4], "pool")


class Game(Ruleset):
    sides = SIDES
    sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))


def piece(view: Observed, i: str) -> list[tuple[str, str, str]]:
    at = view.get("pos", i)
    if not isinstance(at, tuple):  # absent, or hidden from the observer
        return []
    return [(str(at[0]), str(at[1]), "hurt" if view.get("hurt", i) else "fresh")]


def piece_zoc(view: Observed, i: str) -> tuple[str, tuple[str, ...]] | None:
    at = view.get("pos", i)
    if not isinstance(at, tuple):
        return None
    return str(at[1]), NEXT.get(str(at[0]), ())


def whole_pieces(view: Observed) -> list[tuple[str, str, str]]:
    """The same pieces, listed from the whole ``pos`` table (the reference)."""
    hurt = view.table("hurt")
    return [
        (str(at[0]), str(at[1]), "hurt" if hurt.get(i) else "fresh")
        for i, at in view.table("pos").items()
        if isinstance(at, tuple)
    ]


def whole_zoc(view: Observed, side: str) -> set[str]:
    out: set[str] = set()
    for at in view.table("pos").values():
        if isinstance(at, tuple) and at[1] == side:
            out.update(NEXT.get(str(at[0]), ()))
    return out


def boards(depth: int) -> tuple[Board, Board]:
    common: dict[str, Any] = {
        "cells": CELLS,
        "terrain": ("clear", "wood") * 3,
        "statuses": ("fresh", "hurt"),
        "depth": depth,
    }
    by_piece = Board(
        **common, piece=piece, piece_zoc=piece_zoc, keyed=("pos", "hurt"), reads=("pos", "hurt")
    )
    whole = Board(**common, pieces=whole_pieces, zoc=whole_zoc, reads=("pos", "hurt"))
    return by_piece, whole


_WRITE = st.one_of(
    st.tuples(
        st.just("place"), st.sampled_from(IDS), st.sampled_from(PLACES), st.sampled_from(SIDES)
    ),
    st.tuples(st.just("remove"), st.sampled_from(IDS)),
    st.tuples(st.just("hurt"), st.sampled_from(IDS), st.booleans()),
    st.tuples(
        st.just("hide"), st.sampled_from(IDS), st.sampled_from((*SIDES, None)), st.booleans()
    ),
    st.tuples(st.just("reveal"), st.sampled_from(IDS)),
    st.tuples(st.just("hide other"), st.sampled_from(IDS), st.sampled_from((*SIDES, None))),
    st.tuples(st.just("clone")),
    st.tuples(st.just("switch")),
)


def _write(states: list[State], op: tuple[Any, ...]) -> None:
    state = states[-1]
    kind = op[0]
    if kind == "place":
        state.put("pos", op[1], (op[2], op[3]))
    elif kind == "remove":
        state.delete("pos", op[1])
    elif kind == "hurt":
        if op[2]:
            state.put("hurt", op[1], 1)
        else:
            state.delete("hurt", op[1])
    elif kind == "hide":
        state.hide("pos", op[1], op[2], key_too=op[3])
    elif kind == "hide other":  # an entry of a table the board does not read
        state.hide("posx", op[1], op[2], key_too=op[2] is None)
    elif kind == "reveal":
        state.reveal("pos", op[1])
    elif kind == "clone":
        states.append(state.clone())
    else:  # the planes are asked for another state (another line of play)
        states.insert(0, states.pop())


@settings(max_examples=150, deadline=None)
@given(st.lists(_WRITE, max_size=30), st.sampled_from((1, 2)))
def test_patched_planes_equal_planes_listed_anew(writes: list[tuple[Any, ...]], depth: int) -> None:
    """After every write (a piece placed, moved off the board, hurt, hidden from one side
    or all, its key too, revealed; another table's entry hidden; a clone written on; the
    planes asked for another state) each observer's patched pieces and ZOC planes
    (counted up to ``depth`` per cell) are the planes listed anew; and where the planes
    say which indices went and came since planes they handed out (``change``, what a
    dense copy writes), those turn the one set of ones into the other."""
    by_piece, whole = boards(depth)
    patched = BoardPlanes(by_piece, SIDES, 0)
    anew = BoardPlanes(whole, SIDES, 0)
    states = [Game().new_state()]
    held: list[tuple[tuple[int, ...], ...]] = []  # every planes handed out, in turn
    for op in [("switch",), *writes]:
        _write(states, op)
        for side in SIDES:
            for state in states:
                now = patched.hot(state, side)
                assert now == anew.hot(state, side), (op, side)
                for was in held[-6:]:
                    change = patched.change(was, now)
                    if change is not None:
                        ones = {i for part in was for i in part}
                        assert ones.issuperset(change[0]), (op, side)
                        ones = ones.difference(change[0]).union(change[1])
                        assert ones == {i for part in now for i in part}, (op, side)
                held.append(now)


def test_derived_pieces_and_zoc_are_the_union_of_the_pieces() -> None:
    by_piece, _ = boards(1)
    state = Game().new_state()
    state.put("pos", "a", ("c1", "red"))
    state.put("pos", "b", ("pool", "blue"))
    state.put("hurt", "a", 1)
    view = Observed(state, "red")
    assert by_piece.pieces is not None
    assert by_piece.zoc is not None
    assert sorted(by_piece.pieces(view)) == [("c1", "red", "hurt"), ("pool", "blue", "fresh")]
    assert by_piece.zoc(view, "red") == {"c0", "c2"}
    assert by_piece.zoc(view, "blue") == set()


def test_a_board_is_declared_one_way() -> None:
    with pytest.raises(HexwarError, match="piece needs keyed"):
        Board(CELLS, ("clear",) * 6, piece=piece)
    with pytest.raises(HexwarError, match="derived"):
        Board(CELLS, ("clear",) * 6, pieces=whole_pieces, piece=piece, keyed=("pos",))
    with pytest.raises(HexwarError, match="give pieces"):
        Board(CELLS, ("clear",) * 6)


def test_a_piece_reading_beyond_its_own_entries_is_caught() -> None:
    """Read checking compares each patched result with the planes listed anew: a piece
    whose entries depend on another piece's entry (here: hurt when ``a`` is) is a
    ``StaleMemo``, and a table the board does not declare an ``UndeclaredRead``."""

    def leaky(view: Observed, i: str) -> list[tuple[str, str, str]]:
        at = view.get("pos", i)
        if not isinstance(at, tuple):
            return []
        return [(str(at[0]), str(at[1]), "hurt" if view.get("hurt", "a") else "fresh")]

    state = Game().new_state()
    state.put("pos", "a", ("c0", "red"))
    state.put("pos", "b", ("c3", "blue"))
    board = Board(
        CELLS, ("clear",) * 6, statuses=("fresh", "hurt"), piece=leaky, keyed=("pos", "hurt")
    )
    planes = BoardPlanes(board, SIDES, 0)
    planes.hot(state, "red")
    state.put("hurt", "a", 1)  # changes b's status too: b is not asked again
    with read_checking(), pytest.raises(StaleMemo, match="patched"):
        planes.hot(state, "red")

    def peeking(view: Observed, i: str) -> list[tuple[str, str, str]]:
        view.get("weather", "now")
        return piece(view, i)

    board = Board(
        CELLS,
        ("clear",) * 6,
        statuses=("fresh", "hurt"),
        piece=peeking,
        keyed=("pos", "hurt"),
        reads=("pos", "hurt"),
    )
    with read_checking(), pytest.raises(UndeclaredRead, match="weather"):
        BoardPlanes(board, SIDES, 0).hot(state, "blue")


def test_a_failed_patch_is_not_kept() -> None:
    """A piece that raises half-way leaves no half-patched planes behind."""
    patched, anew = (BoardPlanes(b, SIDES, 0) for b in boards(1))
    state = Game().new_state()
    state.put("pos", "a", ("c1", "red"))
    patched.hot(state, "red")
    state.put("pos", "b", ("c2", "green"))  # a side the board does not know
    with pytest.raises(HexwarError, match="not declared"):
        patched.hot(state, "red")
    state.delete("pos", "b")
    assert patched.hot(state, "red") == anew.hot(state, "red")


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.integers(0, 80), st.integers(1, 3), max_size=60),
    st.lists(st.tuples(st.integers(0, 80), st.booleans()), max_size=12),
)
def test_a_plane_resorted_from_the_ones_that_went_and_came(
    before: dict[int, int], ops: list[tuple[int, bool]]
) -> None:
    """A plane's ascending indices patched from the counts that fell to 0 and rose from
    0 (a count may fall and rise again, or rise and fall, in one patch; few changes: the
    binary searches, many: sorted anew) are the counts' keys sorted."""
    from hexwar.engine.planes import _resorted

    counts = dict(before)
    went: list[int] = []
    came: list[int] = []
    for at, up in ops:  # as BoardPlanes._patch counts a piece out and in
        c = counts.get(at, 0)
        if up:
            if not c:
                came.append(at)
            counts[at] = c + 1
        elif c:
            if c == 1:
                del counts[at]
                went.append(at)
            else:
                counts[at] = c - 1
    was = tuple(sorted(before))
    went = [at for at in went if at not in counts]
    came = [at for at in came if at in counts]
    assert _resorted(was, went, came, counts) == tuple(sorted(counts))
