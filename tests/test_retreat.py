"""Retreat cells: one step farther from the attacker, no enemy, within the stacking limit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.board.stacking import max_units
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.retreat import retreat_cells

REG = Pieces(HEX_CODEC)
AREA = frozenset(Hex(0, 0).spiral(3))


class Board(Ruleset):
    sides = ("red", "blue")
    sequence = TurnSequence((Stage("s", (Phase("m", "red", end_when_idle=False),)),))


def fresh() -> State:
    return Board().new_state()


def test_the_three_cells_away_from_the_attacker() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    got = retreat_cells(REG, s, Hex(0, 0), Hex(1, 0), on_map=AREA)
    assert got == sorted(h for h in Hex(0, 0).neighbors() if h.distance(Hex(1, 0)) == 2)
    assert len(got) == 3


def test_never_into_an_enemy_nor_off_the_map() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    REG.place(s, "x", Hex(-1, 0), "blue")
    got = retreat_cells(REG, s, Hex(0, 0), Hex(1, 0), on_map=AREA - {Hex(-1, 1)})
    assert got == [Hex(0, -1)]


def test_the_whole_stack_must_fit_the_limit_there() -> None:
    s = fresh()
    REG.place(s, "a", Hex(0, 0), "red")
    REG.place(s, "b", Hex(0, 0), "red")
    REG.place(s, "f", Hex(-1, 0), "red")
    seen: list[tuple[str, ...]] = []

    def limit(units: object) -> str | None:
        seen.append(tuple(units))  # type: ignore[arg-type]
        return max_units(2)(units)  # type: ignore[arg-type]

    got = retreat_cells(REG, s, Hex(0, 0), Hex(1, 0), on_map=AREA, limit=limit, unit=str.upper)
    assert Hex(-1, 0) not in got  # 3 units there would be too many
    assert ("F", "A", "B") in seen  # joining at the bottom, as unit records
    assert got == [Hex(-1, 1), Hex(0, -1)]


def test_an_empty_cell_has_nowhere_to_go() -> None:
    assert retreat_cells(REG, fresh(), Hex(0, 0), Hex(1, 0), on_map=AREA) == []


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(sorted(Hex(0, 0).spiral(2))), st.integers(0, 5))
def test_every_retreat_cell_is_adjacent_and_one_step_farther(cell: Hex, d: int) -> None:
    s = fresh()
    REG.place(s, "a", cell, "red")
    away = cell.neighbor(d)
    for h in retreat_cells(REG, s, cell, away, on_map=AREA):
        assert h.distance(cell) == 1
        assert h.distance(away) == cell.distance(away) + 1
        assert h in AREA


# -- N-hex retreats: retreat_paths against a brute force ---------------------------------

from typing import Any  # noqa: E402

from hexwar.board.maps import GameMap, build_map, hexagon  # noqa: E402
from hexwar.board.stacking import StackingLimit  # noqa: E402
from hexwar.board.terrain import chart_from_dict  # noqa: E402
from hexwar.board.zoc import zoc_cells  # noqa: E402
from hexwar.mechanics.retreat import (  # noqa: E402
    RetreatPath,
    RetreatRules,
    retreat_options,
    retreat_paths,
)
from hexwar.testing.strategies import game_maps, placements  # noqa: E402


def brute_force(
    game_map: GameMap[Any],
    start: Any,
    length: int,
    rules: RetreatRules,
    enemies: set[Any],
    zoc: frozenset[Any],
    friends: dict[Any, list[int]],
    movers: tuple[int, ...],
    limit: StackingLimit | None,
    attackers: list[Any],
) -> list[RetreatPath[Any]]:
    """Every sequence of ``length`` grid neighbours, kept when it obeys every rule."""
    topo, out = game_map.topology, []
    dist = topo.distance

    def in_zoc(c: Any) -> bool:
        return c in zoc and not (rules.friends_negate_zoc and c in friends)

    def candidates(prefix: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        if len(prefix) == length:
            return [prefix]
        last = prefix[-1] if prefix else start
        return [p for n in topo.neighbors(last) for p in candidates((*prefix, n))]

    def bad(walk: tuple[Any, ...], k: int) -> bool:
        a, b = walk[k - 1], walk[k]
        if b not in game_map.neighbors(a):
            return True
        crossed = game_map.chart.active_features(game_map.hexside(a, b))
        near = [min(dist(c, x) for x in attackers) for c in (a, b)] if attackers else [0, 1]
        mclass = rules.movement_class
        return (
            game_map.terrain(b) in rules.impassable
            or bool(crossed & rules.uncrossable)
            or (mclass is not None and game_map.cost(a, b, mclass) is None)
            or (rules.away == "start" and dist(start, b) != k)
            or (rules.away == "attackers" and near[1] <= near[0])
            or (not rules.through_friends and k < len(walk) - 1 and b in friends)
            or (rules.enemy_zoc == "forbidden" and in_zoc(b))
        )

    for cells in candidates(()):
        walk = (start, *cells)
        if any(c not in game_map for c in cells) or len(set(walk)) != len(walk):
            continue
        if any(c in enemies for c in cells):
            continue
        if any(bad(walk, k) for k in range(1, len(walk))):
            continue
        if cells and limit is not None and limit((*friends.get(cells[-1], ()), *movers)):
            continue
        penalties = sum(in_zoc(c) for c in cells) if rules.enemy_zoc == "step" else 0
        out.append(RetreatPath(tuple(cells), penalties))
    return sorted(out)


retreat_rules = st.builds(
    RetreatRules,
    away=st.sampled_from(["start", "attackers", "any"]),
    enemy_zoc=st.sampled_from(["forbidden", "step", "ignore"]),
    friends_negate_zoc=st.booleans(),
    through_friends=st.booleans(),
    movement_class=st.sampled_from([None, "foot"]),
    impassable=st.sets(st.sampled_from(["rough", "marsh"]), max_size=1),
    uncrossable=st.sets(st.sampled_from(["river", "wall", "ridge"]), max_size=2),
)


@settings(max_examples=200, deadline=None)
@given(st.data(), retreat_rules, st.integers(0, 3), st.sampled_from([None, 1, 2, 3]))
def test_retreat_paths_are_exactly_the_brute_force_ones(
    data: st.DataObject, rules: RetreatRules, length: int, most: int | None
) -> None:
    game_map = data.draw(game_maps(max_cells=16))
    start, friends, enemies = data.draw(placements(game_map))
    attackers = sorted(enemies)
    if rules.away == "attackers" and not attackers:
        rules = RetreatRules(away="start")
    movers = tuple(data.draw(st.lists(st.integers(1, 9), min_size=1, max_size=2)))
    zoc = zoc_cells(game_map, enemies)
    limit = None if most is None else max_units(most)
    got = retreat_paths(
        game_map, start, length, rules=rules, enemies=set(enemies), zoc=zoc, friends=friends,
        movers=movers, limit=limit, attackers=attackers,
    )  # fmt: skip
    want = brute_force(
        game_map, start, length, rules, set(enemies), zoc, friends, movers, limit, attackers
    )
    assert got == want


@settings(max_examples=100, deadline=None)
@given(st.data(), retreat_rules, st.integers(2, 3))
def test_a_retreat_continued_cell_by_cell_finds_the_same_paths(
    data: st.DataObject, rules: RetreatRules, length: int
) -> None:
    """Choosing one cell at a time (what the combat executor does) loses no path and adds
    none: the continuations after a first cell are the paths that start with it."""
    game_map = data.draw(game_maps(max_cells=16))
    start, friends, enemies = data.draw(placements(game_map))
    if rules.away == "attackers" and not enemies:
        rules = RetreatRules(away="any")
    kw: dict[str, Any] = dict(
        rules=rules, enemies=set(enemies), zoc=zoc_cells(game_map, enemies), friends=friends,
        movers=(1,), limit=max_units(2), attackers=sorted(enemies),
    )  # fmt: skip
    whole = retreat_paths(game_map, start, length, **kw)
    for first in sorted({p.cells[0] for p in whole}):
        rest = retreat_paths(game_map, first, length - 1, origin=start, passed=(first,), **kw)
        zoc_first = int(rules.enemy_zoc == "step" and first in kw["zoc"]
                        and not (rules.friends_negate_zoc and first in friends))  # fmt: skip
        joined = sorted(RetreatPath((first, *p.cells), p.zoc + zoc_first) for p in rest)
        assert joined == [p for p in whole if p.cells[0] == first]


def test_retreat_options_reads_the_registry_and_the_enemy_zoc() -> None:
    chart = chart_from_dict(
        {
            "terrain": {"clear": {}, "swamp": {}},
            "hexside": {"river": {}},
            "movement": {"foot": {"terrain": {"clear": 1, "swamp": 3}}},
        }
    )
    cells = dict.fromkeys(hexagon(3), "clear") | {Hex(-1, 0): "swamp"}
    board = build_map(chart, cells, hexsides={(Hex(0, 0), Hex(0, -1)): {"river"}})
    s = fresh()
    REG.place(s, "d", Hex(0, 0), "red")
    REG.place(s, "f", Hex(1, -1), "red")
    REG.place(s, "x", Hex(1, 1), "blue")  # ZOC: (2,1) (2,0) (1,0) (0,1) (0,2) (1,2)
    rules = RetreatRules(impassable={"swamp"}, uncrossable={"river"})
    paths = retreat_options(REG, s, board, Hex(0, 0), 2, rules=rules)
    assert {p.cells[0] for p in paths} == {Hex(1, -1), Hex(-1, 1)}  # river, swamp, ZOC shut
    assert all(p.zoc == 0 and p.end.distance(Hex(0, 0)) == 2 for p in paths)
    one = retreat_options(REG, s, board, Hex(0, 0), 1, rules=rules, limit=max_units(1))
    assert [p.end for p in one] == [Hex(-1, 1)]  # the friend's cell is full
    stepping = RetreatRules(enemy_zoc="step")
    costs = {p.cells: p.zoc for p in retreat_options(REG, s, board, Hex(0, 0), 1, rules=stepping)}
    assert costs[(Hex(1, 0),)] == 1
    assert costs[(Hex(0, -1),)] == 0
    assert (Hex(1, 1),) not in costs  # never into the enemy
