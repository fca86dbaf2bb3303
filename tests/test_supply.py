"""Traces to a source (hexwar.mechanics.supply): against a brute force over every path."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import OffMapError
from hexwar.board.maps import build_map, hexagon
from hexwar.board.terrain import chart_from_dict
from hexwar.board.zoc import zoc_cells
from hexwar.grid.geometry import Hex
from hexwar.mechanics.supply import trace_lengths, trace_path, traced, zoc_stops
from hexwar.testing.strategies import game_maps


def brute_lengths(m: Any, sources: set[Any], blocked: set[Any], stops: set[Any]) -> dict[Any, int]:
    """Shortest trace length per cell by relaxing every edge until nothing changes
    (Bellman-Ford: no priority queue, no early stop; a different method from the one
    under test)."""
    best = {s: 0 for s in sources if s not in blocked}
    changed = True
    while changed:
        changed = False
        for a, b in m.graph.edges:
            for near, far in ((a, b), (b, a)):
                if near not in best or far in blocked:
                    continue
                if near in stops:
                    continue  # a trace may start in a stop but never enter one later
                if best[near] + 1 < best.get(far, 10**9):
                    best[far] = best[near] + 1
                    changed = True
    return best


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_trace_lengths_equal_the_brute_force(data: st.DataObject) -> None:
    m = data.draw(game_maps(max_cells=16))
    cells = sorted(m.graph.nodes)
    pick = st.sets(st.sampled_from(cells), max_size=3)
    sources, blocked, stops = data.draw(pick), data.draw(pick), data.draw(pick)
    got = trace_lengths(m, sorted(sources), blocked=blocked, stops=stops)
    assert got == brute_lengths(m, sources, blocked, stops)
    cap = data.draw(st.integers(0, 3))
    capped = trace_lengths(m, sorted(sources), blocked=blocked, stops=stops, max_length=cap)
    assert capped == {c: n for c, n in got.items() if n <= cap}
    # traced: the same answer, searched from the cells (in any order, sharing verdicts)
    order = data.draw(st.permutations(cells))
    assert traced(m, order, sorted(sources), blocked=blocked, stops=stops) == set(got)
    assert traced(m, order, sorted(sources), blocked=blocked, stops=stops, max_length=cap) == {
        c for c, n in got.items() if n <= cap
    }
    for start in cells:
        path = trace_path(m, start, sorted(sources), blocked=blocked, stops=stops)
        if start not in got:
            assert path is None
            continue
        assert path is not None
        assert path[0] == start
        assert path[-1] in sources
        assert len(path) - 1 == got[start]
        assert not set(path) & blocked
        assert not set(path[1:]) & stops  # only the start may stand in a stop
        assert all(m.graph.has_edge(a, b) for a, b in itertools.pairwise(path))


def _plain(radius: int = 3) -> Any:
    chart = chart_from_dict(
        {"terrain": {"clear": {}}, "movement": {"foot": {"terrain": {"clear": 1}}}}
    )
    return build_map(chart, dict.fromkeys(hexagon(radius), "clear"))


def test_zoc_stops_leave_out_friendly_cells_and_a_pocket_is_cut_off() -> None:
    m = _plain()
    enemies = [Hex(1, 0), Hex(-1, 1), Hex(0, -1)]
    zoc = zoc_cells(m, enemies)
    friends = {Hex(1, -1)}
    stops = zoc_stops(m, enemies, friends)
    assert stops == set(zoc) - friends
    # the unit at the centre is in enemy ZOC: its own cell may start the trace
    edge = [h for h in hexagon(3) if h.distance(Hex(0, 0)) == 3]
    lengths = trace_lengths(m, edge, blocked=set(enemies), stops=stops)
    assert Hex(0, 0) in lengths
    ring = set(Hex(0, 0).ring(1))
    pocket = trace_lengths(m, edge, blocked=ring, stops=stops)
    assert Hex(0, 0) not in pocket  # every neighbour held: encircled


def test_step_costs_and_forbidden_steps() -> None:
    m = _plain(2)
    river = {frozenset({Hex(0, 0), Hex(1, 0)})}

    def cost(a: Any, b: Any) -> float | None:
        return None if frozenset({a, b}) in river else 2

    lengths = trace_lengths(m, [Hex(1, 0)], cost=cost)
    assert lengths[Hex(1, 0)] == 0
    assert lengths[Hex(0, 0)] == 4
    assert trace_lengths(m, [Hex(1, 0)], cost=cost, max_length=3).get(Hex(0, 0)) is None


def test_off_map_cells_are_refused() -> None:
    m = _plain(1)
    with pytest.raises(OffMapError):
        trace_lengths(m, [Hex(5, 5)])
    with pytest.raises(OffMapError):
        trace_path(m, Hex(5, 5), [Hex(0, 0)])
    assert trace_lengths(m, [Hex(0, 0)], blocked={Hex(0, 0)}) == {}


_BIG = _plain(5)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_traced_equals_trace_lengths_on_larger_maps(data: st.DataObject) -> None:
    """Many blocked and stop cells on one hexagon of 91 cells, asked again and again: the
    shared verdicts of :func:`traced` (connected, or cut off) and the traces it keeps on
    the map from earlier positions agree with the full search."""
    m = _BIG
    cells = sorted(m.graph.nodes)
    pick = st.sets(st.sampled_from(cells), max_size=30)
    sources = tuple(sorted(data.draw(st.sets(st.sampled_from(cells), min_size=1, max_size=6))))
    for _ in range(3):
        blocked, stops = data.draw(pick), data.draw(pick)
        got = trace_lengths(m, sources, blocked=blocked, stops=stops)
        asked = data.draw(st.lists(st.sampled_from(cells), max_size=40))
        assert traced(m, asked, sources, blocked=blocked, stops=stops) == set(asked) & set(got)
