"""The core's movement query (``hexwar.mechanics.moves``, ``hexwar.mechanics.move_memo``)
against an independent brute force (``movement_reference``: every simple path, the rules
applied step by step) on random maps, placements, points and terrain-cost overrides."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexwar.board.maps import GameMap, build_map, hexagon
from hexwar.board.movement import MoveSearch
from hexwar.board.pieces import HEX_CODEC, LABELS, Pieces
from hexwar.board.terrain import chart_from_dict
from hexwar.engine.actions import Action
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.move_memo import (
    Overrides,
    class_map,
    effect_costs,
    first_steps,
    map_variant,
    reach_labels,
    search_memo,
)
from hexwar.mechanics.moves import PieceMoves, SideZoc
from hexwar.testing.strategies import game_maps
from movement_reference import brute_force_reach


class Game(Ruleset):
    sides = ("red", "blue")
    sequence = TurnSequence((Stage("p", (Phase("move", "red", end_when_idle=False),)),))


def brute_moves(
    game_map: GameMap[Any],
    placed: dict[str, tuple[Any, str]],
    classes: dict[str, str],
    points: dict[str, int],
    moved: set[str],
    overrides: Overrides,
) -> list[Action]:
    """Every ``move PIECE CELL`` of red, from a fresh brute-force search per piece with
    every friendly and enemy piece (friends pass, may not be ended on; enemies block and
    exert ZOC), on the map with ``overrides``."""
    board = game_map.with_movement_costs(overrides) if overrides else game_map
    out = []
    for piece in sorted(p for p, (_, side) in placed.items() if side == "red"):
        start = placed[piece][0]
        if piece in moved or points[piece] <= 0:
            continue
        friends = {c: [p] for p, (c, s) in placed.items() if s == "red" and p != piece}
        enemies = {c: [p] for p, (c, s) in placed.items() if s == "blue"}
        reach = brute_force_reach(
            board, start, classes[piece], points[piece], friends=friends, enemies=enemies
        )
        ends = sorted(HEX_CODEC.label(c) for c in reach if c != start)
        out += [Action("move", (piece, lab)) for lab in ends]
    return out


@st.composite
def positions(draw: st.DrawFn) -> tuple[Any, ...]:
    game_map = draw(game_maps(max_cells=16), label="map")
    cells = list(game_map.indexed_cells())
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=7, unique=True))
    sides = draw(st.lists(st.sampled_from(["red", "blue"]), min_size=len(chosen)))
    placed = {f"p{i}": (c, sides[i] if i < len(sides) else "red") for i, c in enumerate(chosen)}
    mclasses = sorted(game_map.chart.movement_classes)
    classes = {p: draw(st.sampled_from(mclasses)) for p in placed}
    points = {p: draw(st.integers(0, 4)) for p in placed}
    moved = {p for p in placed if draw(st.integers(0, 3)) == 0}
    terrains = sorted(game_map.chart.terrains)
    override = st.tuples(
        st.sampled_from(mclasses), st.sampled_from(terrains), st.sampled_from([1, 3, None])
    )
    costs = {(c, t): v for c, t, v in draw(st.lists(override, max_size=2))}
    overrides = tuple((c, t, v) for (c, t), v in sorted(costs.items()))
    return game_map, placed, classes, points, moved, overrides


def _set_up(position: tuple[Any, ...]) -> tuple[State, Pieces[Hex], PieceMoves]:
    game_map, placed, classes, points, moved, overrides = position
    reg: Pieces[Hex] = Pieces(HEX_CODEC)
    moves = PieceMoves(
        reg,
        lambda state: game_map,
        classes=lambda state: classes,
        points=lambda state, side: points.__getitem__,
        overrides=lambda state: overrides,
        codec=HEX_CODEC,
    )
    state = Game().new_state()
    for piece, (cell, side) in placed.items():
        reg.place(state, piece, cell, side)
    for piece in moved:
        state.put("moved", piece, True)
    return state, reg, moves


def _check(state: State, moves: PieceMoves, want: list[Action]) -> None:
    assert moves.actions(state, "red") == want
    movers = sorted({a.args[0] for a in want})
    assert list(moves.movers(state, "red")) == movers
    assert moves.exists(state, "red") is bool(want)
    for piece in movers:
        assert moves.ends(state, "red", (piece,)) == [a.args[1] for a in want if a.args[0] == piece]
    query = moves.query(state, "red")
    for piece, label, points in query.ready():
        assert query.may_move(piece, label) is (piece in movers)
        if query.steps_out(piece, label, points):  # the cheap test is sufficient
            assert piece in movers


def _match(position: tuple[Any, ...]) -> None:
    """Movers, end cells, the idle test and every action equal the brute force; after a
    move (the piece is marked as moved, the memos are shared) they still do."""
    state, reg, moves = _set_up(position)
    game_map, placed, classes, points, moved, overrides = position
    want = brute_moves(game_map, placed, classes, points, moved, overrides)
    _check(state, moves, want)
    if want:
        piece, label = want[0].args
        moves.play(state, want[0])
        assert reg.where(state, piece) == HEX_CODEC.cell_at(label)
        assert state.get("moved", piece) is True
        placed = {**placed, piece: (HEX_CODEC.cell_at(label), "red")}
        after = brute_moves(game_map, placed, classes, points, moved | {piece}, overrides)
        _check(state, moves, after)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_piece_moves_match_a_brute_force_search(position: tuple[Any, ...]) -> None:
    _match(position)


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_piece_moves_match_a_brute_force_search_many(position: tuple[Any, ...]) -> None:
    _match(position)


def _marsh_board() -> GameMap[Hex]:
    """A radius-2 hexagon, marsh east of the centre column: dearer for wheels than feet."""
    chart = chart_from_dict(
        {
            "terrain": {"clear": {}, "marsh": {}},
            "movement": {
                "foot": {"terrain": {"clear": 1, "marsh": 2}},
                "wheeled": {"terrain": {"clear": 1, "marsh": 3}},
            },
        }
    )
    return build_map(chart, {h: "marsh" if h.q > 0 else "clear" for h in hexagon(2)})


def _foot_moves(reg: Pieces[Hex], board: GameMap[Hex], pieces: tuple[str, ...]) -> PieceMoves:
    """Moves of ``pieces`` on ``board``, each on foot with 1 point."""
    return PieceMoves(
        reg,
        lambda state: board,
        classes=lambda state: dict.fromkeys(pieces, "foot"),
        points=lambda state, side: dict.fromkeys(pieces, 1).__getitem__,
        codec=HEX_CODEC,
    )


def test_a_clone_keeps_its_own_answers_when_the_original_moves_on() -> None:
    # One query serves a position's idle test, pieces and end cells; a clone taken
    # meanwhile shares the position's derived values but not that query, which reads
    # its own state: after the original moves, the clone still answers for its position.
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
    )
    board = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
    reg: Pieces[Hex] = Pieces(HEX_CODEC)
    moves = _foot_moves(reg, board, ("r1", "r2"))
    state = Game().new_state()
    reg.place(state, "r1", Hex(0, 0), "red")
    reg.place(state, "r2", Hex(2, 0), "red")
    assert moves.query(state, "red") is moves.query(state, "red")
    assert list(moves.movers(state, "red")) == ["r1", "r2"]
    clone = state.clone()
    moves.play(state, Action("move", ("r1", "1,0")))
    assert list(moves.movers(state, "red")) == ["r2"]
    assert "1,0" not in moves.ends(state, "red", ("r2",))
    assert list(moves.movers(clone, "red")) == ["r1", "r2"]
    assert "1,0" in moves.ends(clone, "red", ("r2",))


def test_an_unchanged_enemy_set_is_the_same_object_in_the_next_position() -> None:
    """While the enemies stay put, every position's enemy set is the one found first, so
    the ends kept under it share one set (memory) and match by identity (speed); once an
    enemy moves, a new set."""
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
    )
    board = build_map(chart, dict.fromkeys(hexagon(3), "clear"))
    reg: Pieces[Hex] = Pieces(HEX_CODEC)
    moves = _foot_moves(reg, board, ("r1", "r2", "b1"))
    state = Game().new_state()
    reg.place(state, "r1", Hex(0, 0), "red")
    reg.place(state, "r2", Hex(-2, 0), "red")
    reg.place(state, "b1", Hex(3, 0), "blue")
    first = moves.query(state, "red").enemies()
    moves.play(state, Action("move", ("r1", "1,0")))  # a red move: blue's cells unchanged
    again = moves.query(state, "red").enemies()
    assert again == first == frozenset({"3,0"})
    assert again is first
    moves.play(state, Action("move", ("b1", "2,0")))  # blue moves: a new set
    moved = moves.query(state, "red").enemies()
    assert moved == frozenset({"2,0"})
    assert moved is not first


def test_overrides_apply_to_their_class_only_and_variants_are_kept() -> None:
    board = _marsh_board()
    mud: Overrides = (("wheeled", "marsh", None),)
    assert class_map(board, mud, "foot") is board
    assert class_map(board, mud, "wheeled") is map_variant(board, mud)
    assert map_variant(board, mud) is map_variant(board, mud)
    wheeled = reach_labels(
        class_map(board, mud, "wheeled"), "wheeled", frozenset(), "0,0", 3, HEX_CODEC
    )
    foot = reach_labels(class_map(board, mud, "foot"), "foot", frozenset(), "0,0", 3, HEX_CODEC)
    assert "1,0" in foot
    assert "1,0" not in wheeled
    assert all(HEX_CODEC.cell_at(lab).q <= 0 for lab in wheeled)
    steps = first_steps(board, "foot", HEX_CODEC)["0,0"]
    assert steps == tuple(sorted(steps))
    assert [cost for cost, _ in steps] == [1, 1, 1, 1, 2, 2]  # two marsh neighbours


class CardGame(Game):
    effect_rules: ClassVar[dict[str, dict[str, Any]]] = {"terrain_cost": {}, "other": {}}


def test_effect_costs_read_the_effects_in_force_a_later_one_overriding() -> None:
    state = CardGame().new_state()
    state.add_effect("terrain_cost", {"terrain": "marsh", "cost": "impassable"})
    state.add_effect("terrain_cost", {"terrain": "clear", "cost": 2, "movement_class": "foot"})
    state.add_effect("terrain_cost", {"terrain": "marsh", "cost": 4, "movement_class": "foot"})
    state.add_effect("other", {"terrain": "clear", "cost": 9})
    assert effect_costs(state, {"wheeled": 0, "foot": 0}) == (
        ("foot", "clear", 2),
        ("foot", "marsh", 4),
        ("wheeled", "marsh", None),
    )


def test_piece_moves_given_an_effect_kind_read_the_costs_its_effects_set() -> None:
    """``overrides="terrain_cost"``: the costs of the effects in force over the map's
    movement classes (an effect without a class sets every class's cost), as a reader
    written by hand gives them; the ends follow the effects as they come and go."""
    board = _marsh_board()
    reg: Pieces[Hex] = Pieces(HEX_CODEC)

    def moves(overrides: Any) -> PieceMoves:
        return PieceMoves(
            reg, lambda state: board, classes=lambda state: {"r1": "wheeled"},
            points=lambda state, side: {"r1": 3}.__getitem__, overrides=overrides,
            codec=HEX_CODEC,
        )  # fmt: skip

    by_kind = moves("terrain_cost")
    by_hand = moves(lambda state: effect_costs(state, ("foot", "wheeled")))
    state = CardGame().new_state()
    reg.place(state, "r1", Hex(0, 0), "red")
    before = by_kind.ends(state, "red", ("r1",))
    assert "1,0" in before
    assert by_kind.terrain_costs(state) == ()
    mud = state.add_effect("terrain_cost", {"terrain": "marsh", "cost": "impassable"})
    assert by_kind.terrain_costs(state) == (("foot", "marsh", None), ("wheeled", "marsh", None))
    ends = by_kind.ends(state, "red", ("r1",))
    assert ends == by_hand.ends(state, "red", ("r1",))
    assert "1,0" not in ends
    assert ends != before
    state.remove_effect(mud)
    assert by_kind.ends(state, "red", ("r1",)) == before


def test_side_zoc_is_the_union_of_its_pieces_zones_and_follows_moves() -> None:
    line = {"a": ("b",), "b": ("a", "c"), "c": ("b", "d"), "d": ("c",)}
    reg: Pieces[str] = Pieces(LABELS)
    zoc = SideZoc(reg, lambda state: line)
    state = Game().new_state()
    reg.place(state, "r1", "a", "red")
    reg.place(state, "r2", "c", "red")
    reg.place(state, "b1", "d", "blue")
    assert zoc(state, "red") == {"b", "d"}
    assert zoc(state, "blue") == {"c"}
    reg.move(state, "r2", "b")
    assert zoc(state, "red") == {"a", "b", "c"}
    reg.move(state, "r2", "c")
    assert zoc(state, "red") == {"b", "d"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_enemy_zones_shared_by_classes_and_variants_answer_as_fresh_searches(
    data: st.DataObject,
) -> None:
    # one enemy zone per enemy position serves every class and cost variant of the map
    # (S6.2, S6.3: what blocks and what stops depend on the cells and the ZOC, not on
    # costs): each memoised search, in any order of the variants and positions, answers
    # as a MoveSearch built from scratch on its own map
    game_map = data.draw(game_maps(max_cells=16), label="map")
    cells = list(game_map.indexed_cells())
    mclasses = sorted(game_map.chart.movement_classes)
    terrains = sorted(game_map.chart.terrains)
    override = st.tuples(
        st.sampled_from(mclasses), st.sampled_from(terrains), st.sampled_from([1, 3, None])
    )
    positions = st.lists(st.sampled_from(cells), max_size=4, unique=True)
    for _ in range(6):
        costs = {(c, t): v for c, t, v in data.draw(st.lists(override, max_size=2))}
        overrides: Overrides = tuple((c, t, v) for (c, t), v in sorted(costs.items()))
        mclass = data.draw(st.sampled_from(mclasses))
        board = class_map(game_map, overrides, mclass)
        enemies = data.draw(positions)
        labels = frozenset(map(HEX_CODEC.label, enemies))
        start = data.draw(st.sampled_from([c for c in cells if c not in enemies] or cells))
        points = data.draw(st.integers(0, 4))
        fresh = MoveSearch(board, mclass, enemies=enemies)
        got = search_memo(board, mclass, HEX_CODEC).search(labels)
        assert got.end_indices(start, points) == fresh.end_indices(start, points)
        want = tuple(
            sorted(HEX_CODEC.label(c) for c in fresh.reachable(start, points) if c != start)
        )
        if start not in enemies:
            assert (
                reach_labels(board, mclass, labels, HEX_CODEC.label(start), points, HEX_CODEC)
                == want
            )


def test_a_move_has_a_path_and_the_towns_on_it_change_hands() -> None:
    """Issue 30: ``PieceMoves.path`` is the cheapest route of a move (start first), so
    ``Control.enter`` takes the towns passed through; forest costs more, so the route
    keeps to the clear cells; a friend's cell may be passed."""
    from hexwar.mechanics.control import Control

    chart = chart_from_dict(
        {
            "terrain": {"clear": {}, "forest": {}},
            "movement": {"foot": {"terrain": {"clear": 1, "forest": 3}}},
        }
    )
    board = build_map(
        chart, dict.fromkeys(hexagon(3), "forest") | {Hex(q, 0): "clear" for q in range(-3, 4)}
    )
    reg = Pieces(HEX_CODEC)
    moves = PieceMoves(
        reg, lambda state: board, classes=lambda state: {"r1": "foot", "r2": "foot"},
        points=lambda state, side: {"r1": 3, "r2": 3}.__getitem__, codec=HEX_CODEC,
    )  # fmt: skip
    towns = Control(HEX_CODEC, [Hex(1, 0), Hex(0, 1)])
    state = Game().new_state()
    towns.set_up(state, {Hex(1, 0): "blue", Hex(0, 1): "blue"})
    reg.place(state, "r1", Hex(-1, 0), "red")
    reg.place(state, "r2", Hex(0, 0), "red")
    path = moves.path(state, Action.parse("move r1 2,0"))
    moves.play(state, Action.parse("move r1 2,0"))
    assert path == [Hex(-1, 0), Hex(0, 0), Hex(1, 0), Hex(2, 0)]
    assert towns.enter(state, "red", path) == [Hex(1, 0)]
    assert towns.held(state, "red") == [Hex(1, 0)]
    assert moves.path(state, Action.parse("move r2 -1,0")) == [Hex(0, 0), Hex(-1, 0)]
