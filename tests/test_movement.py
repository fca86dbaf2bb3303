"""ZOC-aware movement (S6, S2): hand-made rule cases and a brute-force cross-check."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexwar.base.errors import OffMapError, UnknownMovementClassError
from hexwar.board.maps import GameMap, build_map, hexagon, square_rectangle
from hexwar.board.move_rules import MoveRules
from hexwar.board.move_search import arrivals, compiled_adjacency, search
from hexwar.board.movement import MoveSearch, find_path, reachable
from hexwar.board.terrain import chart_from_dict
from hexwar.board.zoc import zoc_cells
from hexwar.grid.geometry import Hex
from hexwar.grid.square import HEX_GRID, SQUARE_GRID, Square
from hexwar.testing.strategies import game_maps, placements
from movement_reference import brute_force_reach, path_is_legal

CHART = chart_from_dict(
    {
        "terrain": {"clear": {}, "forest": {}, "lake": {"impassable": True}},
        "hexside": {
            "river": {},
            "ford": {},
            "wall": {"blocks_zoc": True},
            "bridge": {"negates": ["river"]},
        },
        "linear": {"road": {}, "rail": {}},
        "movement": {
            "foot": {
                "terrain": {"clear": 1, "forest": 2},
                "hexside": {"river": 2, "ford": "stop", "wall": "impassable"},
                "along": {"road": 1},
            },
            "train": {"only": ["rail"], "along": {"rail": 1}},
        },
    }
)


def open_map(radius: int = 4, **kw: Any) -> GameMap[Hex]:
    return build_map(CHART, dict.fromkeys(hexagon(radius), "clear"), **kw)


ORIGIN = Hex(0, 0)


# -- S6.1/S6.2: allowance, enemy and friendly cells ----------------------------------------
def test_s6_1_allowance_on_open_ground_is_the_hex_disc() -> None:
    reach = reachable(open_map(), ORIGIN, "foot", 3)
    assert set(reach.costs) == set(ORIGIN.within(3))
    assert all(reach.costs[h] == ORIGIN.distance(h) for h in reach.costs)


def test_s6_2_never_enters_enemy_cells_and_may_not_end_on_friends() -> None:
    m = open_map()
    reach = reachable(m, ORIGIN, "foot", 2, friends=[Hex(1, 0)], enemies={Hex(-2, 0): ["foe"]})
    assert Hex(-2, 0) not in reach
    assert Hex(1, 0) not in reach  # occupied by a friend: no ending there
    # ... but the mover passes through it (the cell beyond costs 2, not 3).
    assert reach.costs[Hex(2, 0)] == 2
    assert reach.path_to(Hex(2, 0)) == [ORIGIN, Hex(1, 0), Hex(2, 0)]


def test_s6_3_entering_enemy_zoc_stops_whatever_allowance_is_left() -> None:
    m = open_map()
    enemy = Hex(2, 0)
    reach = reachable(m, ORIGIN, "foot", 6, enemies=[enemy])
    # Hex(1, 0) is in the enemy ZOC: reachable, and nothing is reached *through* it.
    assert reach.costs[Hex(1, 0)] == 1
    for h, cost in reach.costs.items():
        path = reach.path_to(h)
        assert all(p not in zoc_cells(m, [enemy]) for p in path[1:-1])
        assert len(path) - 1 == cost
    # Hex(3, 0) lies behind the enemy: the way round costs more than the straight line.
    assert reach.costs[Hex(3, 0)] > 3


def test_s6_4_may_leave_enemy_zoc_but_stops_in_the_next_zoc_cell() -> None:
    m = open_map()
    enemy = Hex(1, 0)
    # The start is in the enemy ZOC: leaving it is allowed and costs normally.
    reach = reachable(m, ORIGIN, "foot", 3, enemies=[enemy])
    assert reach.costs[Hex(-3, 0)] == 3
    # Hex(1, -1) is also in the enemy ZOC: the unit can enter it but not go beyond.
    assert reach.costs[Hex(1, -1)] == 1
    assert reach.costs[Hex(1, -2)] == 2  # via Hex(0, -1), which is not in the ZOC
    assert Hex(1, -1) not in reach.path_to(Hex(1, -2))


def test_corner_case_friend_in_enemy_zoc_can_be_neither_passed_nor_joined() -> None:
    # A corridor of width 1: start - friend - beyond, with an enemy next to the friend.
    cells = [Square(c, 0) for c in range(4)] + [Square(1, 2)]
    m = build_map(CHART, dict.fromkeys(cells, "clear"), topology=SQUARE_GRID)
    friend, enemy = Square(1, 0), Square(2, 0)
    reach = reachable(m, Square(0, 0), "foot", 5, friends=[friend], enemies=[enemy])
    assert friend not in reach
    assert Square(3, 0) not in reach
    # Without the enemy the mover passes through the friend.
    assert reachable(m, Square(0, 0), "foot", 5, friends=[friend]).costs[Square(2, 0)] == 2


def test_zoc_can_be_switched_off_for_scripted_moves() -> None:
    m = open_map()
    enemies = [Hex(1, 0), Hex(-1, 0)]
    reach = reachable(m, ORIGIN, "foot", 3, enemies=enemies, rules=MoveRules(zoc=False))
    assert reach.costs[Hex(2, -1)] == 2  # through Hex(1, -1), in both ZOCs
    # With ZOC every neighbour of the start is in an enemy ZOC: one step, then stop.
    with_zoc = reachable(m, ORIGIN, "foot", 3, enemies=enemies)
    assert set(with_zoc.costs) == set(ORIGIN.within(1)) - set(enemies)


def test_s2_1_only_units_that_exert_zoc_stop_the_mover() -> None:
    m = open_map()
    rules = MoveRules(exerts_zoc=lambda unit: unit != "air")
    reach = reachable(m, ORIGIN, "foot", 4, enemies={Hex(2, 0): ["air"]}, rules=rules)
    assert reach.costs[Hex(3, -1)] == 3
    reach = reachable(m, ORIGIN, "foot", 4, enemies={Hex(2, 0): ["tank"]}, rules=rules)
    assert reach.costs[Hex(3, -1)] > 3


# -- S2.3: ZOC across rivers, blocking hexsides, impassable terrain -------------------------
def test_s2_3_zoc_extends_across_rivers_by_default() -> None:
    m = open_map(hexsides={(Hex(1, 0), Hex(2, 0)): {"river"}})
    assert Hex(1, 0) in zoc_cells(m, [Hex(2, 0)])


def test_s2_3_a_zoc_blocking_hexside_feature_stops_zoc() -> None:
    m = open_map(hexsides={(Hex(1, 0), Hex(2, 0)): {"wall"}})
    assert Hex(1, 0) not in zoc_cells(m, [Hex(2, 0)])
    assert Hex(1, 1) in zoc_cells(m, [Hex(2, 0)])


def test_s2_3_impassable_cells_are_in_no_zoc() -> None:
    m = build_map(CHART, dict.fromkeys(hexagon(2), "clear") | {Hex(1, 0): "lake"})
    assert Hex(1, 0) not in zoc_cells(m, [Hex(2, 0)])
    assert Hex(1, 0) not in reachable(m, ORIGIN, "foot", 5)


# -- costs: hexside features, must-stop, roads, rail-only ---------------------------------
def test_s6_6_river_costs_extra_and_a_bridge_negates_it() -> None:
    river = open_map(hexsides={(ORIGIN, Hex(1, 0)): {"river"}})
    assert river.cost(ORIGIN, Hex(1, 0), "foot").cost == 3  # type: ignore[union-attr]
    bridged = open_map(hexsides={(ORIGIN, Hex(1, 0)): {"river", "bridge"}})
    assert bridged.cost(ORIGIN, Hex(1, 0), "foot").cost == 1  # type: ignore[union-attr]


def test_must_stop_hexside_ends_the_move_in_the_entered_cell() -> None:
    m = open_map(hexsides={(ORIGIN, Hex(1, 0)): {"ford"}})
    reach = reachable(m, ORIGIN, "foot", 5)
    assert reach.costs[Hex(1, 0)] == 1
    assert reach.costs[Hex(2, 0)] == 3  # the straight line crosses the ford: go round
    assert reach.path_to(Hex(2, 0))[1] != Hex(1, 0)


def test_cheapest_arrival_may_stop_while_a_dearer_one_goes_on() -> None:
    """The search state is (cell, stopped?): a cheap stopping arrival must not hide a
    dearer arrival that can continue."""
    # Squares: (0,0) -> (1,0) over a ford costs 1 but stops; (0,0) -> (0,1) -> (1,0)
    # diagonally costs 2 and may go on to (2,0). (1,1) and (2,1) are lakes.
    terrain = {Square(0, 0): "clear", Square(1, 0): "clear", Square(2, 0): "clear"}
    terrain |= {Square(0, 1): "clear", Square(1, 1): "lake", Square(2, 1): "lake"}
    m = build_map(
        CHART,
        terrain,
        topology=SQUARE_GRID,
        hexsides={(Square(0, 0), Square(1, 0)): {"ford"}},
    )
    reach = reachable(m, Square(0, 0), "foot", 4)
    assert reach.costs[Square(1, 0)] == 1  # the cheap, stopping arrival
    assert reach.costs[Square(2, 0)] == 3  # via (0, 1) then (1, 0): the dearer, free arrival
    assert reach.path_to(Square(2, 0)) == [Square(0, 0), Square(0, 1), Square(1, 0), Square(2, 0)]
    assert brute_force_reach(m, Square(0, 0), "foot", 4) == reach.costs


def test_roads_give_the_cheaper_cost_along_them() -> None:
    m = build_map(
        CHART, dict.fromkeys(hexagon(3), "forest"), paths=[("road", [ORIGIN, Hex(1, 0), Hex(2, 0)])]
    )
    reach = reachable(m, ORIGIN, "foot", 2)
    assert reach.costs[Hex(2, 0)] == 2
    assert reach.costs[Hex(0, 1)] == 2


def test_rail_only_class_moves_only_along_the_railway() -> None:
    line = [ORIGIN, Hex(1, 0), Hex(2, -1), Hex(3, -1)]
    m = open_map(paths=[("rail", line)])
    reach = reachable(m, ORIGIN, "train", 9)
    assert set(reach.costs) == set(line)


def test_stacking_is_a_pluggable_predicate() -> None:
    m = open_map()
    up_to_three = MoveRules(can_end=lambda mover, friends: len(friends) < 3)
    friends = {Hex(1, 0): ["a", "b"], Hex(2, 0): ["a", "b", "c"]}
    reach = reachable(m, ORIGIN, "foot", 3, friends=friends, rules=up_to_three)
    assert Hex(1, 0) in reach
    assert Hex(2, 0) not in reach
    assert Hex(3, 0) in reach


def test_can_end_at_gives_cell_aware_stacking_and_replaces_can_end() -> None:
    m = build_map(CHART, dict.fromkeys(hexagon(3), "clear"))
    double = {Hex(1, 0)}  # a "masking" cell holds two (Бой отрядов VI.3)
    friends = {Hex(1, 0): [7], Hex(0, 1): [8]}
    calls: list[Any] = []

    def limit(mover: Any, cell: Any, here: Any) -> bool:
        calls.append(cell)
        return len(here) < (2 if cell in double else 1)

    rules = MoveRules(can_end_at=limit, can_end=lambda mover, friends: False)
    reach = reachable(m, Hex(0, 0), "foot", 2, mover=1, friends=friends, rules=rules)
    assert Hex(1, 0) in reach
    assert Hex(0, 1) not in reach
    assert Hex(2, 0) in reach
    assert len(calls) == len(set(calls))  # once per cell
    assert find_path(m, Hex(0, 0), Hex(1, 0), "foot", 2, friends=friends, rules=rules)
    assert find_path(m, Hex(0, 0), Hex(0, 1), "foot", 2, friends=friends, rules=rules) is None


def test_find_path_returns_a_cheapest_legal_path_or_none() -> None:
    m = open_map(hexsides={(ORIGIN, Hex(1, 0)): {"river"}})
    path = find_path(m, ORIGIN, Hex(2, 0), "foot")
    assert path is not None
    assert path.cost == 3
    assert path.cells[0] == ORIGIN
    assert path.cells[-1] == Hex(2, 0)
    assert find_path(m, ORIGIN, Hex(2, 0), "foot", 2) is None
    assert find_path(m, ORIGIN, Hex(1, 0), "foot", enemies=[Hex(1, 0)]) is None


def test_errors_name_what_is_wrong() -> None:
    m = open_map(2)
    with pytest.raises(OffMapError, match="start"):
        reachable(m, Hex(9, 9), "foot", 2)
    with pytest.raises(OffMapError, match="enemy"):
        reachable(m, ORIGIN, "foot", 2, enemies=[Hex(9, 9)])
    with pytest.raises(UnknownMovementClassError, match="'ski'"):
        reachable(m, ORIGIN, "ski", 2)
    with pytest.raises(OffMapError):
        reachable(m, ORIGIN, "foot", 1).path_to(Hex(2, 0))


def test_compiled_adjacency_is_cached_per_movement_class() -> None:
    m = open_map(2)
    assert compiled_adjacency(m, "foot") is compiled_adjacency(m, "foot")
    assert compiled_adjacency(m, "foot") is not compiled_adjacency(m, "train")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_arrivals_by_levels_equal_the_search_costs(data: st.DataObject) -> None:
    # arrivals() (the cost levels as sets, S6.2-S6.4) answers the go and stop costs of
    # search() (Dial's buckets / the heap) for any blocked and halting cells.
    m = data.draw(game_maps(topology=data.draw(st.sampled_from([HEX_GRID, SQUARE_GRID]))))
    compiled = compiled_adjacency(m, data.draw(st.sampled_from(["foot", "roadbound"])))
    n = len(m.indexed_cells())
    s = data.draw(st.integers(0, n - 1), label="start")
    cells = st.sets(st.integers(0, n - 1), max_size=n // 2)
    blocked, halt = data.draw(cells, label="blocked"), data.draw(cells, label="halt")
    allowance = data.draw(st.sampled_from([-1, 0, 1, 2, 3, 4, 6, 2.5]), label="allowance")
    go, _, stop, _ = search(compiled, s, allowance, -1, blocked, halt)
    assert arrivals(compiled, s, allowance, blocked, halt) == (go, stop)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_search_against_enemy_indices_answers_as_against_their_cells(
    data: st.DataObject,
) -> None:
    # MoveSearch.against (enemy cells by index, one anonymous unit each, no friends) gives
    # the brute force's end cells (S6.2-S6.4), with ZOC and without.
    m = data.draw(game_maps(topology=HEX_GRID), label="map")
    start, _, enemies = data.draw(placements(m), label="placement")
    cls = data.draw(st.sampled_from(["foot", "roadbound"]), label="class")
    allowance = data.draw(st.sampled_from([0, 1, 2, 3, 4, 2.5]), label="allowance")
    zoc = data.draw(st.booleans(), label="zoc")
    index = m.index()
    search = MoveSearch.against(m, cls, [index[c] for c in enemies], MoveRules(zoc=zoc))
    expected = brute_force_reach(m, start, cls, allowance, enemies=enemies, zoc=zoc)
    assert search.end_indices(start, allowance) == {index[c]: d for c, d in expected.items()}
    assert search.reachable(start, allowance).costs == expected


def test_a_search_against_an_index_off_the_map_names_it() -> None:
    with pytest.raises(OffMapError, match="enemy position 999"):
        MoveSearch.against(open_map(1), "foot", [999])


def test_the_cost_layers_need_whole_costs_of_one_or_more() -> None:
    # The levels search runs only on whole costs >= 1; a step of no cost (or a half)
    # leaves the layers out and arrivals() asks search() instead.
    whole = compiled_adjacency(open_map(), "foot")
    assert whole.layers is not None
    assert [c for c, _, _ in whole.layers] == [1]
    free = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 0}}}}
    )
    half = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 0.5}}}}
    )
    for chart in (free, half):
        board = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
        assert compiled_adjacency(board, "foot").layers is None
        centre = board.index()[ORIGIN]
        go, stop = arrivals(compiled_adjacency(board, "foot"), centre, 1, set(), set())
        assert len(go) == len(board.indexed_cells())  # radius 2 for 1 point
        assert stop == {}


# -- the brute-force cross-check ---------------------------------------------------------
def _parity(cell: Any, n: int = 2) -> int:
    return int(sum(attrs.astuple(cell)) % n)


def _even(u: Any) -> bool:
    return bool(u % 2 == 0)


RULESETS: list[dict[str, Any]] = [
    {},
    {"zoc": False},
    {"can_end": lambda mover, friends: len(friends) < 2},
    {"exerts_zoc": _even, "enemy_blocks": lambda mover, foes: foes[0] > 3},
    {
        "can_pass": lambda mover, friends: 9 not in friends,
        "can_end": lambda mover, friends: not friends or friends == [9],
    },
    # cell-aware stacking (can_end_at): terrain-like limits that depend on the cell
    {"can_end_at": lambda mover, cell, friends: len(friends) < 1 + _parity(cell)},
    {
        "can_end_at": lambda mover, cell, friends: not friends and _parity(cell, 3) != 0,
        "can_pass": lambda mover, friends: 9 not in friends,
    },
]


def _ref_kwargs(rules: dict[str, Any]) -> dict[str, Any]:
    names = {"exerts_zoc": "exerts"}
    return {names.get(k, k): v for k, v in rules.items()}


def _check(m: GameMap[Any], data: st.DataObject) -> None:
    start, friends, enemies = data.draw(placements(m), label="placement")
    cls = data.draw(st.sampled_from(["foot", "foot", "foot", "roadbound"]), label="class")
    allowance = data.draw(st.sampled_from([0, 1, 2, 3, 4, 5, 2.5]), label="allowance")
    rules = data.draw(st.sampled_from(RULESETS), label="rules")
    mover = data.draw(st.integers(1, 9), label="mover")
    reach = reachable(
        m,
        start,
        cls,
        allowance,
        mover=mover,
        friends=friends,
        enemies=enemies,
        rules=MoveRules(**rules),
    )
    expected = brute_force_reach(
        m,
        start,
        cls,
        allowance,
        mover=mover,
        friends=friends,
        enemies=enemies,
        **_ref_kwargs(rules),
    )
    assert reach.costs == expected
    # A MoveSearch prepared once answers for this start and for another one (the units
    # stay put) exactly as reachable() and the brute force do.
    search = MoveSearch(
        m, cls, mover=mover, friends=friends, enemies=enemies, rules=MoveRules(**rules)
    )
    index = m.index()
    assert search.reachable(start, allowance).costs == expected
    assert search.end_indices(start, allowance) == {index[c]: d for c, d in expected.items()}
    occupied = set(friends or ()) | set(enemies or ())
    others = [c for c in m.indexed_cells() if c not in occupied]
    other = data.draw(st.sampled_from(others), label="other start")
    expected_other = brute_force_reach(
        m,
        other,
        cls,
        allowance,
        mover=mover,
        friends=friends,
        enemies=enemies,
        **_ref_kwargs(rules),
    )
    assert search.reachable(other, allowance).costs == expected_other
    assert search.end_indices(other, allowance) == {index[c]: d for c, d in expected_other.items()}
    for cell, cost in reach.costs.items():
        path = reach.path_to(cell)
        assert path[0] == start
        assert path[-1] == cell
        legal_cost = path_is_legal(
            m,
            path,
            cls,
            allowance,
            mover=mover,
            friends=friends,
            enemies=enemies,
            **_ref_kwargs(rules),
        )
        assert legal_cost == cost
    target = data.draw(st.sampled_from(list(m.indexed_cells())), label="target")
    found = find_path(
        m,
        start,
        target,
        cls,
        allowance,
        mover=mover,
        friends=friends,
        enemies=enemies,
        rules=MoveRules(**rules),
    )
    if target in expected:
        assert found is not None
        assert found.cost == expected[target]
    else:
        assert found is None


# The brute-force comparisons: 60 and 50 maps in the README's run, 300 and 250 in the slow run.
_FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_FULL = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(st.data())
def test_s6_reachable_matches_brute_force_on_hex_maps(data: st.DataObject) -> None:
    _check(data.draw(game_maps(topology=HEX_GRID), label="map"), data)


@_FAST
@given(st.data())
def test_s6_reachable_matches_brute_force_on_square_maps(data: st.DataObject) -> None:
    _check(data.draw(game_maps(topology=SQUARE_GRID), label="map"), data)


@pytest.mark.slow
@_FULL
@given(st.data())
def test_s6_reachable_matches_brute_force_on_many_hex_maps(data: st.DataObject) -> None:
    _check(data.draw(game_maps(topology=HEX_GRID), label="map"), data)


@pytest.mark.slow
@settings(_FULL, max_examples=250)
@given(st.data())
def test_s6_reachable_matches_brute_force_on_many_square_maps(data: st.DataObject) -> None:
    _check(data.draw(game_maps(topology=SQUARE_GRID), label="map"), data)


def test_square_grid_moves_diagonally() -> None:
    m = build_map(CHART, dict.fromkeys(square_rectangle(10, 15), "clear"), topology=SQUARE_GRID)
    reach = reachable(m, Square(0, 0), "foot", 3)
    assert reach.costs[Square(3, 3)] == 3
    assert len(reach) == 16
