"""Traces to a source: supply, lines of communication, encirclement — one query.

"Is this unit in supply?" is, in nearly every hex-and-counter game, "is there a trace of
cells from it to a source (a map edge, a city, a railhead) that avoids enemy units and
does not pass through enemy zones of control (unless a friendly unit stands there),
perhaps at most N hexes long?". :func:`trace_lengths` answers it for every cell at once,
searching outward from the sources (breadth first over the map's cell indices for the
default step cost of 1, networkx's multi-source Dijkstra for a ``cost``), so a game asks
once per position and looks each unit up:

- ``blocked`` cells are never on a trace (enemy units, impassable terrain);
- ``stops`` cells may *start* a trace — the unit itself may stand in an enemy ZOC — but
  a trace never enters one after its start, so a source in a stop serves only a unit
  standing on it (:func:`zoc_stops` builds them: enemy ZOC minus the cells friendly units
  hold);
- ``cost(a, b)``: the price of the step from ``a`` toward the source ``b`` (default 1 per
  hex; return ``None`` for a step the trace may not take, e.g. across an unbridged
  river); ``max_length``: the longest trace allowed.

An encircled unit is one whose cell is not in the answer.

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.terrain import chart_from_dict
>>> from hexwar.grid.geometry import Hex
>>> chart = chart_from_dict({"terrain": {"clear": {}},
...     "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> m = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
>>> lengths = trace_lengths(m, [Hex(2, 0)], blocked={Hex(1, 0)})
>>> lengths[Hex(2, 0)], lengths[Hex(0, 0)], Hex(1, 0) in lengths
(0, 3, False)
>>> trace_path(m, Hex(0, 0), [Hex(2, 0)], blocked={Hex(1, 0)}, max_length=2) is None
True
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable
from typing import Any, Final, TypeVar

import networkx as nx

from hexwar.base.errors import OffMapError
from hexwar.base.kept import kept
from hexwar.board.maps import GameMap, step_levels
from hexwar.board.occupancy import PieceReads
from hexwar.board.zoc import zoc_cells, zoc_indices
from hexwar.engine.state import State

__all__ = ["in_communication", "trace_lengths", "trace_path", "traced", "zoc_stops"]

C = TypeVar("C")
StepCost = Callable[[Any, Any], float | None]


def _weight(
    blocked: Collection[Any], stops: Collection[Any], cost: StepCost | None
) -> Callable[[Any, Any, Any], float | None]:
    # networkx calls weight(v, u, data) for the edge from the settled cell v to its
    # neighbour u: the trace steps from u toward v (toward the source), so v is a cell
    # after the trace's start and may not be a stop
    def weight(v: Any, u: Any, _data: Any) -> float | None:
        if u in blocked or v in stops:
            return None
        return 1 if cost is None else cost(u, v)

    return weight


def _sources(game_map: GameMap[C], sources: Iterable[C], blocked: Collection[C]) -> list[C]:
    out = []
    for s in sources:
        if s not in game_map:
            raise OffMapError(f"source {s!r} is off the map")
        if s not in blocked:
            out.append(s)
    return out


def trace_lengths(
    game_map: GameMap[C],
    sources: Iterable[C],
    *,
    blocked: Collection[C] = (),
    stops: Collection[C] = (),
    cost: StepCost | None = None,
    max_length: float | None = None,
) -> dict[C, float]:
    """Every cell with a trace to one of ``sources``, and the length of its shortest trace
    (a source: 0). See the module docstring for ``blocked``, ``stops`` and ``cost``."""
    found = _sources(game_map, sources, blocked)
    if not found:
        return {}
    if cost is None:
        return _breadth_first(game_map, found, blocked, stops, max_length)
    lengths: dict[C, float] = nx.multi_source_dijkstra_path_length(
        game_map.graph, set(found), cutoff=max_length, weight=_weight(blocked, stops, cost)
    )
    return lengths


def _breadth_first(
    game_map: GameMap[C],
    sources: list[C],
    blocked: Collection[C],
    stops: Collection[C],
    max_length: float | None,
) -> dict[C, float]:
    """:func:`trace_lengths` for steps of 1: breadth first, one level at a time, over the
    cells by index (networkx's Dijkstra called a Python weight per edge and hashed every
    cell: 5-8 ms a trace on «Сталинград»'s 1,155 hexes, this ~0.6 ms)."""
    cells, index = game_map.indexed_cells(), game_map.index()
    near = _neighbours(game_map)
    bad = {i for c in blocked if (i := index.get(c)) is not None}
    halt = {i for c in stops if (i := index.get(c)) is not None}
    level = list(dict.fromkeys(map(index.__getitem__, sources)))
    found: dict[int, float] = dict.fromkeys(level, 0)
    d = 0
    while level and (max_length is None or d + 1 <= max_length):
        d += 1
        ahead = []
        for v in level:
            if v in halt:
                continue  # a stop may start a trace, never carry one on
            for u in near[v]:
                if u not in found and u not in bad:
                    found[u] = d
                    ahead.append(u)
        level = ahead
    return {cells[i]: n for i, n in found.items()}


def _neighbours(game_map: GameMap[Any]) -> list[tuple[int, ...]]:
    """Per cell index: the indices of the adjacent cells, kept on the map."""

    def build() -> list[tuple[int, ...]]:
        index, adj = game_map.index(), game_map.graph.adj
        return [tuple(map(index.__getitem__, adj[c])) for c in game_map.indexed_cells()]

    return game_map.derived("neighbour-indices", build)


def traced(
    game_map: GameMap[C],
    cells: Iterable[C],
    sources: Iterable[C],
    *,
    blocked: Collection[C] = (),
    stops: Collection[C] = (),
    max_length: int | None = None,
) -> set[C]:
    """The cells of ``cells`` with a trace to one of ``sources`` (steps of 1; ``blocked``,
    ``stops`` and ``max_length`` as in :func:`trace_lengths`): the same answer as looking
    each cell up in :func:`trace_lengths`, searched from the cells instead, so the work
    follows the traces, not the map. Each search is an A* guided by the cell's distance
    to the sources on the empty map (one breadth-first pass per map and source set, kept
    on the map); without ``max_length``, the cells a finished search visited answer the
    later ones (they are connected, or not, alike).

    >>> from hexwar.board.maps import build_map, hexagon
    >>> from hexwar.board.terrain import chart_from_dict
    >>> from hexwar.grid.geometry import Hex
    >>> chart = chart_from_dict({"terrain": {"clear": {}},
    ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
    >>> m = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
    >>> sorted(traced(m, [Hex(0, 0), Hex(-2, 0)], [Hex(2, 0)], max_length=3))
    [Hex(q=0, r=0)]
    """
    index = game_map.index()
    bad = {i for c in blocked if (i := index.get(c)) is not None}
    halt = {i for c in stops if (i := index.get(c)) is not None}
    return _traced(game_map, cells, sources, bad, halt, max_length)


def _traced(
    game_map: GameMap[C],
    cells: Iterable[C],
    sources: Iterable[C],
    bad: set[int],
    halt: set[int],
    max_length: int | None,
) -> set[C]:
    """:func:`traced` with the blocked and stopping cells given by index."""
    index, near = game_map.index(), _neighbours(game_map)
    key, guide = _prepared(game_map, sources)
    goal = key - bad
    shared = max_length is None
    good: set[int] = set()
    dead: set[int] = set()
    paths: list[tuple[int, ...]] = []
    if shared:  # the traces found before that are still clear answer at once
        paths = [p for p in _paths(game_map).get(key, ()) if _clear(p, bad, halt, goal)]
        for p in paths:
            good.update(p[1:] if p[0] in halt else p)
    out: set[C] = set()
    for cell in cells:
        start = index.get(cell)
        if start is None or start in bad or start in dead or guide[start] < 0:
            continue
        if max_length is not None and guide[start] > max_length:
            continue
        if start in goal or start in good:
            out.add(cell)
            continue
        path, seen = _search(start, near, guide, goal, bad, halt, good, dead, max_length)
        if path is not None:
            out.add(cell)
            if shared:
                _remember(paths, path, goal)
                if start not in halt:
                    good.update(seen)  # all connected to the start, so to a source
        elif shared:
            dead.update(seen)  # the whole search was in vain: no source behind any of it
    if shared and paths:
        kept(_paths(game_map), key, tuple(dict.fromkeys(paths[-PATHS_KEPT:])))
    return out


#: The traces :func:`traced` keeps per map and source set, the latest (they are checked
#: against each new position, and answer every cell on them while clear).
PATHS_KEPT: Final = 8


def _paths(game_map: GameMap[Any]) -> dict[frozenset[int], tuple[tuple[int, ...], ...]]:
    return game_map.derived("trace-paths", dict)


def _clear(path: tuple[int, ...], bad: set[int], halt: set[int], goal: Collection[int]) -> bool:
    """Whether ``path`` (cell indices, its source last) is a trace in this position."""
    return path[-1] in goal and bad.isdisjoint(path) and halt.isdisjoint(path[1:])


def _remember(paths: list[tuple[int, ...]], path: list[int], goal: Collection[int]) -> None:
    """Keep the trace ``path`` found (ending at a source, or on a kept trace: joined)."""
    end = path[-1]
    if end in goal:
        paths.append(tuple(path))
        return
    for p in paths:
        if end in p:
            paths.append((*path[:-1], *p[p.index(end) :]))
            return


def _search(
    start: int,
    near: list[tuple[int, ...]],
    guide: list[int],
    goal: Collection[int],
    bad: set[int],
    halt: set[int],
    good: set[int],
    dead: set[int],
    max_length: int | None,
) -> tuple[list[int] | None, dict[int, int]]:
    """A* from ``start`` toward ``goal`` (or a cell known to reach it): the trace found
    (``None``: none), and the cells visited (each with the cell it was reached from)."""
    came = {start: -1}
    cost = {start: 0}
    heap = [(guide[start], 0, start)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        _, back, v = pop(heap)
        g = -back
        if g > cost[v]:
            continue
        g += 1
        for u in near[v]:
            if u in bad or u in halt or u in dead:
                continue
            if u in goal or u in good:
                if max_length is None or g <= max_length:
                    path = [u]
                    while v >= 0:
                        path.append(v)
                        v = came[v]
                    path.reverse()
                    return path, came
                continue
            h = guide[u]
            if h < 0 or (max_length is not None and g + h > max_length):
                continue
            if g < cost.get(u, g + 1):
                cost[u] = g
                came[u] = v
                push(heap, (g + h, -g, u))
    return None, came


def _prepared(game_map: GameMap[Any], sources: Iterable[Any]) -> tuple[frozenset[int], list[int]]:
    """The sources' indices and their :func:`_guide`; for a tuple or frozenset (which
    cannot change), kept on the map by identity, so a game that passes the same edge
    every time does not convert its cells again."""
    fixed = isinstance(sources, tuple | frozenset)
    if fixed:
        store: dict[int, Any] = game_map.derived("trace-sources", dict)
        hit = store.get(id(sources))
        if hit is not None and hit[0] is sources:
            return hit[1]  # type: ignore[no-any-return]
    index = game_map.index()
    key = frozenset(map(index.__getitem__, _sources(game_map, sources, ())))
    out = key, _guide(game_map, key)
    if fixed:
        kept(store, id(sources), (sources, out))  # the sources kept: their id stays theirs
    return out


def _guide(game_map: GameMap[Any], sources: frozenset[int]) -> list[int]:
    """Per cell index: its distance to ``sources`` on the empty map (``-1``: none), kept
    on the map per source set (:func:`~hexwar.base.kept.kept`)."""
    store: dict[frozenset[int], list[int]] = game_map.derived("trace-guides", dict)
    found = store.get(sources)
    if found is None:
        near = _neighbours(game_map)
        found = [-1] * len(near)
        step_levels(near, sources, found)
        kept(store, sources, found)
    return found


def trace_path(
    game_map: GameMap[C],
    start: C,
    sources: Iterable[C],
    *,
    blocked: Collection[C] = (),
    stops: Collection[C] = (),
    cost: StepCost | None = None,
    max_length: float | None = None,
) -> list[C] | None:
    """One shortest trace from ``start`` to a source (both included), or ``None``."""
    if start not in game_map:
        raise OffMapError(f"start {start!r} is off the map")
    found = _sources(game_map, sources, blocked)
    if not found or start in blocked:
        return None
    try:
        _length, path = nx.multi_source_dijkstra(
            game_map.graph,
            set(found),
            target=start,
            cutoff=max_length,
            weight=_weight(blocked, stops, cost),
        )
    except nx.NetworkXNoPath:
        return None
    return list(reversed(path))


def zoc_stops(game_map: GameMap[C], enemies: Iterable[C], friends: Collection[C] = ()) -> set[C]:
    """The cells in the zone of control of units on ``enemies`` (ZOC-blocking hexsides and
    terrain as the chart says) that no friendly unit holds: what a trace may not pass."""
    return {c for c in zoc_cells(game_map, list(enemies)) if c not in friends}


def in_communication(
    pieces: PieceReads[C],
    game_map: GameMap[C],
    state: State,
    side: str,
    sources: Iterable[C],
    cells: Iterable[C] | None = None,
) -> Collection[C]:
    """The cells ``side`` traces to ``sources`` from (its map edge, its supply sources): a
    trace enters no enemy unit, and stops in an enemy ZOC cell without a friendly unit
    (:func:`zoc_stops`). With ``cells``, only those of them (:func:`traced`: the work
    follows their traces, not the map); else every such cell with its trace length
    (:func:`trace_lengths`)."""
    friends, enemies = pieces.friends_enemies(state, side)
    if cells is not None:  # by cell index: no cell objects built for the ZOC
        index = game_map.index()
        bad = {i for c in enemies if (i := index.get(c)) is not None}
        held = {i for c in friends if (i := index.get(c)) is not None}
        halt = zoc_indices(game_map, enemies) - held
        return _traced(game_map, cells, sources, bad, halt, None)
    stops = zoc_stops(game_map, enemies, friends)
    return trace_lengths(game_map, sources, blocked=set(enemies), stops=stops)
