"""The unit-position registry: place/move/remove, ordered stacks, undo/clone/save, codecs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import PieceError, StackError
from hexwar.board.maps import build_map, hexagon
from hexwar.board.movement import reachable
from hexwar.board.pieces import HEX_CODEC, LABELS, SQUARE_CODEC, Pieces
from hexwar.board.terrain import chart_from_dict
from hexwar.engine.actions import Action
from hexwar.engine.memo import StateMemo, read_checking
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import HIDDEN, Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.grid.square import SQUARE_GRID, Square

REG = Pieces(HEX_CODEC)


class Board(Ruleset):
    """A do-nothing game whose single phase never ends by itself (rules code writes)."""

    name = "board"
    sides = ("red", "blue")
    sequence = TurnSequence((Stage("play", (Phase("move", side="red", end_when_idle=False),)),))


def fresh() -> State:
    return Board().new_state()


def test_place_move_remove_keep_both_tables_in_step() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    REG.place(s, "b", Hex(0, 0), "red", on_top=True)
    REG.place(s, "c", Hex(0, 0), "red")
    assert REG.occupants(s, Hex(0, 0)) == ("b", "a", "c")  # T&G 6.24: arrivals at the bottom
    REG.move(s, "b", Hex(1, 0))
    assert REG.occupants(s, Hex(0, 0)) == ("a", "c")
    assert REG.where(s, "b") == Hex(1, 0)
    REG.remove(s, "a")
    REG.remove(s, "c")
    assert REG.occupants(s, Hex(0, 0)) == ()
    assert "0,0" not in s.table("stacks")  # an emptied cell leaves no entry
    assert not REG.is_placed(s, "a")
    assert REG.is_placed(s, "b")


def test_misuse_raises_piece_or_stack_errors_naming_the_piece() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    with pytest.raises(PieceError, match="'a' is already placed"):
        REG.place(s, "a", Hex(1, 0), "red")
    with pytest.raises(PieceError, match="'z' is not on the map"):
        REG.move(s, "z", Hex(1, 0))
    with pytest.raises(PieceError, match="not on the map"):
        REG.where(s, "z")
    with pytest.raises(StackError, match="permutation"):
        REG.restack(s, Hex(0, 0), ["a", "b"])
    assert isinstance(PieceError("x"), ValueError)


def test_restack_reorders_and_pieces_of_is_sorted_per_side() -> None:
    s = fresh()
    for p, side in (("r2", "red"), ("r1", "red"), ("b1", "blue")):
        REG.place(s, p, Hex(0, 0), side)
    REG.restack(s, Hex(0, 0), ["b1", "r1", "r2"])
    assert REG.occupants(s, Hex(0, 0)) == ("b1", "r1", "r2")
    assert REG.pieces_of(s, "red") == ["r1", "r2"]
    assert REG.pieces_of(s) == ["b1", "r1", "r2"]
    assert REG.positions(s, "blue") == {Hex(0, 0): ("b1",)}


def test_friends_enemies_feed_reachable_s6_2() -> None:
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
    )
    m = build_map(chart, dict.fromkeys(hexagon(3), "clear"))
    s = fresh()
    reg = REG
    reg.place(s, "mover", Hex(0, 0), "red")
    reg.place(s, "friend", Hex(1, 0), "red")
    reg.place(s, "foe", Hex(-2, 0), "blue")
    friends, enemies = reg.friends_enemies(s, "red", exclude="mover", unit=str.upper)
    assert friends == {Hex(1, 0): ("FRIEND",)}
    assert enemies == {Hex(-2, 0): ("FOE",)}
    reach = reachable(m, Hex(0, 0), "foot", 2, friends=friends, enemies=enemies)
    assert Hex(1, 0) not in reach  # S6.2: may not end on a friend
    assert Hex(-2, 0) not in reach  # S6.2: never enters an enemy
    assert Hex(2, 0) in reach  # passes through the friend


def test_codecs_round_trip_and_reject_bad_labels() -> None:
    squares = build_map(
        chart_from_dict(
            {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
        ),
        {Square(c, r): "clear" for c in range(3) for r in range(3)},
        topology=SQUARE_GRID,
    )
    s = fresh()
    on_map = Pieces(squares)  # a GameMap is a codec: its printed labels
    on_map.place(s, "a", Square(1, 2), "red")
    assert s.table("pieces")["a"] == ("0203", "red")
    assert on_map.where(s, "a") == Square(1, 2)
    assert SQUARE_CODEC.cell_at(SQUARE_CODEC.label(Square(2, -3))) == Square(2, -3)
    assert HEX_CODEC.label(Hex(-1, 4)) == "-1,4"
    with pytest.raises(PieceError, match="'1,2,3'"):
        SQUARE_CODEC.cell_at("1,2,3")


# -- a model-based property test --------------------------------------------------------------

CELLS = [Hex(q, r) for q in range(3) for r in range(2)]
PIECES = ["p0", "p1", "p2", "p3", "p4"]
OPS = st.lists(
    st.tuples(
        st.sampled_from(["place", "move", "remove", "top"]),
        st.sampled_from(PIECES),
        st.sampled_from(CELLS),
        st.sampled_from(["red", "blue"]),
        st.booleans(),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_registry_matches_a_plain_model_and_undo_clone_save_cover_it(ops: list) -> None:  # type: ignore[type-arg]
    s = fresh()
    model: dict[Hex, list[str]] = {}  # cell -> stack, top first
    sides: dict[str, str] = {}
    snapshots = [s.to_data()]
    s._frame = frame = []  # journal the rules-code writes like State.apply does
    for op, piece, cell, side, on_top in ops:
        placed = piece in sides
        where = next((c for c, st_ in model.items() if piece in st_), None)
        if op == "place" and not placed:
            REG.place(s, piece, cell, side, on_top=on_top)
            model.setdefault(cell, []).insert(0 if on_top else len(model.get(cell, [])), piece)
            sides[piece] = side
        elif op == "move" and placed and where is not None:
            REG.move(s, piece, cell, on_top=on_top)
            model[where].remove(piece)
            model.setdefault(cell, []).insert(0 if on_top else len(model.get(cell, [])), piece)
        elif op == "remove" and placed and where is not None:
            REG.remove(s, piece)
            model[where].remove(piece)
            del sides[piece]
        elif op == "top" and placed and where is not None:
            order = [piece] + [p for p in model[where] if p != piece]
            REG.restack(s, where, order)
            model[where] = order
        elif placed:
            with pytest.raises(PieceError):
                REG.place(s, piece, cell, side)
        else:
            with pytest.raises(PieceError):
                REG.remove(s, piece)
        for c in CELLS:
            assert REG.occupants(s, c) == tuple(model.get(c, []))
        for p, sd in sides.items():
            assert REG.side(s, p) == sd
            assert p in model[REG.where(s, p)]
    for sd in ("red", "blue"):
        assert REG.pieces_of(s, sd) == sorted(p for p, x in sides.items() if x == sd)
    # save files and clones carry the registry
    assert loads(s.ruleset, dumps(s)).to_data() == s.to_data()
    twin = s.clone()
    assert twin.to_data() == s.to_data()
    # the journal takes every write back exactly
    s._frame = None
    s._rollback(frame)
    assert s.to_data() == snapshots[0]


def test_undo_through_apply_takes_a_move_back() -> None:
    class Mover(Board):
        def setup(self, state, scenario, options):  # type: ignore[no-untyped-def]
            REG.place(state, "a", Hex(0, 0), "red")

        def phase_actions(self, state, side):  # type: ignore[no-untyped-def]
            return [Action.of("go")] if REG.where(state, "a") == Hex(0, 0) else []

        def play(self, state, action):  # type: ignore[no-untyped-def]
            REG.move(state, "a", Hex(1, 0))

    s = Mover().new_state()
    before = s.to_data()
    s.apply("go")
    assert REG.where(s, "a") == Hex(1, 0)
    s.undo()
    assert s.to_data() == before


def test_a_clone_of_a_120_piece_registry_is_equal_and_independent() -> None:
    s = fresh()
    for i in range(120):
        REG.place(s, f"u{i:03d}", Hex(i % 11, i // 11), "red" if i % 2 else "blue")
    c = s.clone()
    assert c == s
    assert c.to_data() == s.to_data()
    REG.move(c, "u000", Hex(-3, 0))
    REG.remove(s, "u001")
    assert REG.where(s, "u000") == Hex(0, 0)
    assert REG.where(c, "u001") == Hex(1, 0)
    assert REG.where(c, "u000") == Hex(-3, 0)
    assert not REG.occupants(s, Hex(-3, 0))
    assert c != s


def test_a_hidden_piece_hides_its_cell_from_the_other_side() -> None:
    """Hidden set-up: the opponent sees neither where the piece is nor that a cell is held."""
    state = fresh()
    REG.place(state, "b1", Hex(3, 1), "blue")
    REG.place(state, "r1", Hex(-1, 0), "red")
    REG.hide(state, "b1", "blue")
    red, blue = state.observation("red"), state.observation("blue")
    assert red["tables"]["pieces"]["b1"] == HIDDEN
    assert red["tables"]["stacks"] == {"-1,0": ["r1"]}
    assert "3,1" not in str(red)
    assert blue["tables"]["stacks"]["3,1"] == ["b1"]
    REG.reveal(state, "b1")
    assert state.observation("red")["tables"]["stacks"]["3,1"] == ["b1"]


def test_hidden_keys_survive_save_and_a_plain_hide_shows_the_key_again() -> None:
    state = fresh()
    REG.place(state, "b1", Hex(1, 0), "blue")
    state.hide("stacks", "1,0", "blue", key_too=True)
    loaded = loads(state.ruleset, dumps(state))
    assert loaded == state
    assert "1,0" not in loaded.observation("red")["tables"]["stacks"]
    state.hide("stacks", "1,0", "blue")  # value hidden, key shown
    assert state.observation("red")["tables"]["stacks"]["1,0"] == HIDDEN
    state.reveal("stacks", "1,0")
    assert state.observation("red")["tables"]["stacks"]["1,0"] == ["b1"]


ATTRS = Pieces(HEX_CODEC, attributes=("strength", "disordered"))


def test_piece_attributes_go_with_the_piece_and_undo_brings_them_back() -> None:
    class Killer(Board):
        def setup(self, state, scenario, options):  # type: ignore[no-untyped-def]
            ATTRS.place(state, "a", Hex(0, 0), "red", attributes={"strength": 3})
            ATTRS.place(state, "b", Hex(1, 0), "blue", attributes={"strength": 2})
            ATTRS.set_attr(state, "a", "disordered", True)

        def phase_actions(self, state, side):  # type: ignore[no-untyped-def]
            return [Action.of("kill")] if ATTRS.is_placed(state, "a") else []

        def play(self, state, action):  # type: ignore[no-untyped-def]
            ATTRS.remove(state, "a")

    s = Killer().new_state()
    assert (ATTRS.get_attr(s, "a", "strength"), s.get("disordered", "a")) == (3, True)
    assert ATTRS.get_attr(s, "b", "disordered", "unset") == "unset"
    before = s.to_data()
    s.apply("kill")
    assert dict(s.table("strength")) == {"b": 2}
    assert dict(s.table("disordered")) == {}
    assert ATTRS.get_attr(s, "a", "strength") is None
    s.undo()
    assert s.to_data() == before


def test_piece_attribute_errors() -> None:
    s = fresh()
    with pytest.raises(PieceError, match="'morale' is not a piece attribute"):
        ATTRS.place(s, "a", Hex(0, 0), "red", attributes={"morale": 1})
    assert not ATTRS.is_placed(s, "a")  # checked before any write
    with pytest.raises(PieceError, match="not on the map"):
        ATTRS.set_attr(s, "a", "strength", 1)
    with pytest.raises(PieceError, match="'morale' is not a piece attribute"):
        ATTRS.get_attr(s, "a", "morale")
    REG.place(s, "z", Hex(0, 0), "red")
    REG.remove(s, "z")  # a registry without attributes deletes none
    assert "z" not in s.table("pieces")


# -- shared attributes, stacks moving as one, reach, groups (T&G 6.11, 6.24) -------------

FACED = Pieces(HEX_CODEC, attributes=("facing", "strength"), shared=("facing",))


def test_a_newcomer_takes_the_stacks_facing_6_11() -> None:
    s = fresh()
    FACED.place(s, "a", Hex(0, 0), "red", attributes={"facing": 2, "strength": 3})
    FACED.place(s, "b", Hex(0, 0), "red", attributes={"facing": 5, "strength": 1})
    assert FACED.get_attr(s, "b", "facing") == 2  # placed into an occupied hex
    assert FACED.get_attr(s, "b", "strength") == 1  # unshared attributes stay its own
    FACED.place(s, "c", Hex(1, 0), "red", attributes={"facing": 4})
    FACED.move(s, "c", Hex(0, 0))
    assert FACED.get_attr(s, "c", "facing") == 2
    FACED.move(s, "a", Hex(2, 0))  # into an empty hex: keeps its own
    assert FACED.cell_attr(s, Hex(2, 0), "facing") == 2
    FACED.set_cell_attr(s, Hex(0, 0), "facing", 1)  # the stack turns as one
    assert [FACED.get_attr(s, p, "facing") for p in ("b", "c", "a")] == [1, 1, 2]
    assert FACED.cell_attr(s, Hex(5, 5), "facing", "none") == "none"


def test_shared_attribute_errors() -> None:
    with pytest.raises(PieceError, match="'facing' is not a piece attribute"):
        Pieces(HEX_CODEC, shared=("facing",))
    s = fresh()
    with pytest.raises(PieceError, match="'strength' is not a shared attribute"):
        FACED.cell_attr(s, Hex(0, 0), "strength")
    with pytest.raises(PieceError, match="'strength' is not a shared attribute"):
        FACED.set_cell_attr(s, Hex(0, 0), "strength", 1)


def test_move_stack_keeps_the_order_below_or_above_the_stack_there_6_24() -> None:
    s = fresh()
    for p, cell in (("a", Hex(0, 0)), ("b", Hex(0, 0)), ("x", Hex(1, 0))):
        FACED.place(s, p, cell, "red", attributes={"facing": 0 if p != "x" else 3})
    FACED.move_stack(s, Hex(0, 0), Hex(1, 0))
    assert FACED.occupants(s, Hex(1, 0)) == ("x", "a", "b")
    assert FACED.cell_attr(s, Hex(1, 0), "facing") == 3
    assert {FACED.get_attr(s, p, "facing") for p in "xab"} == {3}
    FACED.move_stack(s, Hex(1, 0), Hex(2, 0))
    FACED.place(s, "y", Hex(3, 0), "red", attributes={"facing": 1})
    FACED.move_stack(s, Hex(2, 0), Hex(3, 0), on_top=True)
    assert FACED.occupants(s, Hex(3, 0)) == ("x", "a", "b", "y")
    FACED.move_stack(s, Hex(9, 9), Hex(3, 0))  # an empty cell moves nothing
    assert FACED.occupants(s, Hex(3, 0)) == ("x", "a", "b", "y")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["move", "stack", "turn"]),
            st.integers(0, 3),
            st.integers(0, 3),
            st.integers(0, 5),
        ),
        max_size=25,
    )
)
def test_shared_attributes_stay_equal_within_every_cell(ops: list) -> None:  # type: ignore[type-arg]
    """Whatever moves and turns happen, all pieces of a cell share one facing."""
    s = fresh()
    cells = [Hex(q, 0) for q in range(4)]
    for i, cell in enumerate(cells):
        FACED.place(s, f"p{i}", cell, "red", attributes={"facing": i})
    for kind, a, b, corner in ops:
        if kind == "move":
            FACED.move(s, f"p{a}", cells[b])
        elif kind == "stack":
            FACED.move_stack(s, cells[a], cells[b])
        else:
            FACED.set_cell_attr(s, cells[a], "facing", corner)
        for pieces in FACED.positions(s).values():
            assert len({FACED.get_attr(s, p, "facing") for p in pieces}) == 1
    assert sorted(p for ps in FACED.positions(s).values() for p in ps) == ["p0", "p1", "p2", "p3"]
    assert s.clone() == s


def test_reach_is_reachable_with_the_registrys_friends_and_enemies_s6_2() -> None:
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
    )
    m = build_map(chart, dict.fromkeys(hexagon(3), "clear"))
    s = fresh()
    REG.place(s, "mover", Hex(0, 0), "red")
    REG.place(s, "friend", Hex(1, 0), "red")
    REG.place(s, "foe", Hex(-2, 0), "blue")
    got = REG.reach(s, "mover", m, "foot", 2, unit=str.upper)
    friends, enemies = REG.friends_enemies(s, "red", exclude="mover", unit=str.upper)
    expected = reachable(m, Hex(0, 0), "foot", 2, mover="MOVER", friends=friends, enemies=enemies)
    assert got.costs == expected.costs
    assert Hex(-2, 0) not in got.costs
    assert Hex(2, 0) in got.costs  # through the friend


def test_group_by_lists_placed_pieces_by_formation() -> None:
    s = fresh()
    for p, side in (("V-b", "red"), ("I-a", "red"), ("V-a", "red"), ("N27-a", "blue")):
        REG.place(s, p, Hex(0, 0), side)
    key = lambda p: p.split("-")[0]  # noqa: E731
    assert REG.group_by(s, key) == {"I": ["I-a"], "N27": ["N27-a"], "V": ["V-a", "V-b"]}
    assert list(REG.group_by(s, key, "red")) == ["I", "V"]
    REG.remove(s, "I-a")
    assert "I" not in REG.group_by(s, key)


# -- labels as cells; the table reads (games that work in labels, «Сталинград») ----------------

NAMED = Pieces(LABELS, attributes=("strength",))


def test_label_cells_and_the_table_reads_agree_with_the_cell_reads() -> None:
    s = fresh()
    NAMED.place(s, "r-62a", "2715", "rkka", attributes={"strength": 5})
    NAMED.place(s, "w-6a", "Kalach", "wehrmacht")
    assert NAMED.where(s, "r-62a") == "2715" == NAMED.label_of(s, "r-62a")
    assert NAMED.label_of(s, "nobody") is None
    assert dict(NAMED.occupied(s)) == {"2715": ("r-62a",), "Kalach": ("w-6a",)}
    assert dict(NAMED.entries(s)) == {"r-62a": ("2715", "rkka"), "w-6a": ("Kalach", "wehrmacht")}
    NAMED.move(s, "r-62a", "2716")
    assert "2715" not in NAMED.occupied(s)
    assert NAMED.occupants(s, "2716") == ("r-62a",)
    assert NAMED.reads == ("pieces", "stacks", "strength")
    with pytest.raises(PieceError, match="non-empty text"):
        NAMED.place(s, "x", "", "rkka")
    with pytest.raises(TypeError):
        NAMED.occupied(s)["2716"] = ()  # type: ignore[index]  # read-only


def test_a_memo_over_the_registry_reads_is_exact_under_read_checking() -> None:
    """``reads`` declares every table the reads touch: read checking recomputes each call
    and fails on an undeclared read or a stale answer."""
    memo = StateMemo(
        reads=NAMED.reads,
        compute=lambda state: (
            tuple(sorted(NAMED.occupied(state))),
            NAMED.label_of(state, "a"),
            NAMED.get_attr(state, "a", "strength"),
            tuple(NAMED.pieces_of(state, "rkka")),
        ),
    )
    s = fresh()
    with read_checking():
        assert memo(s) == ((), None, None, ())
        NAMED.place(s, "a", "0101", "rkka", attributes={"strength": 3})
        assert memo(s) == (("0101",), "0101", 3, ("a",))
        NAMED.move(s, "a", "0102")
        before = s.clone()  # same versions: shares the memo's entries until one is written
        NAMED.set_attr(s, "a", "strength", 2)
        assert memo(s) == (("0102",), "0102", 2, ("a",))
        assert memo(before) == (("0102",), "0102", 3, ("a",))
