"""The compiled movement search: a map's legal steps by integer index, and Dijkstra on them.

:func:`compiled_adjacency` prices every step of a movement class on a map once (cached
on the map); :func:`search` runs the ZOC-aware search over states ``(cell, stopped?)``
on those tables, with a bucket queue for small integer costs (Dial's algorithm) or a
binary heap otherwise; :func:`arrivals` answers the same search's costs without the
predecessors, level by level on sets (costs of 1 or more, whole numbers). All know only
cell indices and the resolved rules (:class:`~hexwar.board.move_rules.ResolvedRules`);
:class:`hexwar.board.movement.MoveSearch` turns their answer into cells.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection
from itertools import chain
from operator import itemgetter
from typing import Any

import attrs

from hexwar.board.maps import COST_CACHE, GameMap

__all__ = [
    "CompiledSteps",
    "Found",
    "Layers",
    "arrivals",
    "compiled_adjacency",
    "search",
]

#: ``(go, go_prev, stop, stop_prev)``: the cheapest arrival cost and predecessor per cell
#: index, for arrivals that may go on (``go``) and those over a "stop" hexside (``stop``).
Found = tuple[dict[int, float], dict[int, int], dict[int, float], dict[int, int]]
#: The steps out of one cell: ``(j, cost)``.
Steps = tuple[tuple[int, float], ...]
#: The cells one step of some cost leads to out of one cell; :data:`Rows`: by cell index.
Row = tuple[int, ...]
Rows = tuple[Row, ...]
#: ``(cost, go, stop)`` per step cost, cheapest first: the cells one ordinary (``go[i]``)
#: or "stop" (``stop[i]``) step of that cost leads to out of cell ``i`` (``stop``
#: ``None`` when no step of that cost stops).
Layers = tuple[tuple[int, Rows, Rows | None], ...]


@attrs.frozen(eq=False)
class CompiledSteps:
    """A movement class's legal steps on one map, by integer cell index.

    ``go[i]``: ``(j, cost)`` for the ordinary steps out of cell ``i``; ``stop[i]``: the
    steps that end the move in ``j`` (a "stop" hexside). ``integral``: every cost is an
    int (the search then uses a bucket queue instead of a heap). ``layers``: the same
    steps by cost (:data:`Layers`) when every cost is a whole number of 1 or more
    (:func:`arrivals` searches on them), else ``None``.
    """

    go: list[tuple[tuple[int, float], ...]]
    stop: list[tuple[tuple[int, float], ...]]
    integral: bool
    layers: Layers | None = None
    #: the levels' steps per allowance (:func:`arrivals`), filled on use
    plans: dict[int, Plan] = attrs.field(factory=dict, init=False, repr=False)
    #: The cheapest step (``0``: none): a move of ``p`` points ends at most
    #: ``p // least`` cells away.
    least: float = 0


def compiled_adjacency(game_map: GameMap[Any], movement_class: str) -> CompiledSteps:
    """The legal steps of ``movement_class`` on ``game_map``, priced by the terrain chart.

    Built once per map and movement class and cached on the map.
    """
    return game_map.derived(
        (COST_CACHE, movement_class), lambda: _compile(game_map, movement_class)
    )


def _compile(game_map: GameMap[Any], movement_class: str) -> CompiledSteps:
    chart = game_map.chart
    chart.movement_class(movement_class)  # fail early on an unknown class
    rows, kinds = _step_kinds(game_map)
    priced: list[tuple[float, bool] | None] = []
    for terrain, hexside, linear in kinds:
        step = chart.step(movement_class, terrain, hexside, linear)
        priced.append(None if step is None else (step.cost, step.stop))
    integral = all(isinstance(p[0], int) for p in priced if p is not None)
    go: list[tuple[tuple[int, float], ...]] = []
    stop: list[tuple[tuple[int, float], ...]] = []
    for row in rows:  # by neighbour index: the steps come out sorted
        go_steps: list[tuple[int, float]] = []
        stop_steps: list[tuple[int, float]] = []
        for j, k in row:
            if (p := priced[k]) is not None:
                (stop_steps if p[1] else go_steps).append((j, p[0]))
        go.append(tuple(go_steps))
        stop.append(tuple(stop_steps))
    # the rows by cost are shared by the classes and the cost variants of the map where
    # equal (a variant changes a few terrains' costs: most rows stay as they were)
    shared: dict[tuple[int, ...], tuple[int, ...]] = game_map.derived("step-rows", dict)
    layers = _layers(go, stop, shared) if integral else None
    least = min((p[0] for p in priced if p is not None), default=0)  # every kind is on the map
    return CompiledSteps(go, stop, integral, layers, least=least)


#: What prices a step: ``(terrain entered, hexside features, linear features)``.
StepKind = tuple[str, frozenset[str], frozenset[str]]


def _step_kinds(game_map: GameMap[Any]) -> tuple[list[tuple[tuple[int, int], ...]], list[StepKind]]:
    """The map's steps without their prices: per cell index, ``(j, k)`` for each
    neighbour index ``j`` (ascending), ``k`` indexing the kinds of step
    (:data:`StepKind`). Kept on the map under a key of no movement class: its cost
    variants share it, and compiling a class prices each kind once, the graph unread."""

    def build() -> tuple[list[tuple[tuple[int, int], ...]], list[StepKind]]:
        index, nodes, adj = game_map.index(), game_map.graph.nodes, game_map.graph.adj
        ids: dict[StepKind, int] = {}
        rows = []
        for cell in game_map.indexed_cells():
            row = []
            for nb, edge in adj[cell].items():
                kind = (nodes[nb]["terrain"], edge["hexside"], edge["linear"])
                row.append((index[nb], ids.setdefault(kind, len(ids))))
            rows.append(tuple(sorted(row)))
        return rows, list(ids)

    return game_map.derived("step-kinds", build)


def _layers(go: list[Steps], stop: list[Steps], shared: dict[Row, Row]) -> Layers | None:
    # the costs by set operations over every step, no loop over the cells
    go_costs = set(map(itemgetter(1), chain.from_iterable(go)))
    stop_costs = set(map(itemgetter(1), chain.from_iterable(stop)))
    costs = sorted(go_costs | stop_costs)
    if costs and costs[0] < 1:
        return None  # a step of no cost: the level search needs every step to cost
    go_rows, stop_rows = _by_cost(go, costs, shared), _by_cost(stop, costs, shared)
    return tuple((int(c), go_rows[c], stop_rows[c] if c in stop_costs else None) for c in costs)


def _by_cost(steps: list[Steps], costs: list[float], shared: dict[Row, Row]) -> dict[float, Rows]:
    """Per cost: each cell's steps of that cost (most cells' steps all cost the same:
    those rows are taken whole), an equal row in ``shared`` taken instead."""
    none: Row = ()
    out = {c: [none] * len(steps) for c in costs}
    first, second, share = itemgetter(0), itemgetter(1), shared.setdefault
    for i, row in enumerate(steps):
        if not row:
            continue
        found = set(map(second, row))
        if len(found) == 1:
            cells = tuple(map(first, row))
            out[row[0][1]][i] = share(cells, cells)
        else:
            for c in found:
                cells = tuple([j for j, cost in row if cost == c])
                out[c][i] = share(cells, cells)
    return {c: tuple(rows) for c, rows in out.items()}


_MAX_BUCKETS = 4096


def arrivals(
    compiled: CompiledSteps, s: int, allowance: float, blocked: set[int], halt: set[int]
) -> tuple[dict[int, float], dict[int, float]]:
    """The ``go`` and ``stop`` costs of :func:`search` from ``s`` without a target and
    without the predecessors (the end cells of a move, not its paths): on the steps by
    cost (:attr:`CompiledSteps.layers`) one level of cost at a time, each level a few set
    operations whatever the cells in it; :func:`search` when there are no layers."""
    layers = compiled.layers
    if layers is None or allowance >= _MAX_BUCKETS:
        go, _, stop, _ = search(compiled, s, allowance, -1, blocked, halt)
        return go, stop
    if allowance < 0:
        return {s: 0}, {}
    a = int(allowance)
    plan = compiled.plans.get(a)
    if plan is None:
        plan = compiled.plans[a] = _plan(layers, a)
    if s in blocked:
        blocked = blocked - {s}
    return _levels(plan, s, blocked, halt)


#: Per level ``d`` of an allowance: ``(d + c, rows)`` of the go steps of each cost ``c``
#: that stay within it, then the same of the stop steps.
Plan = tuple[tuple[tuple[tuple[int, Rows], ...], tuple[tuple[int, Rows], ...]], ...]


def _plan(layers: Layers, allowance: int) -> Plan:
    def spread(d: int, stop: bool) -> tuple[tuple[int, Rows], ...]:
        return tuple(
            (d + c, rows)
            for c, go_rows, stop_rows in layers
            if d + c <= allowance and (rows := stop_rows if stop else go_rows) is not None
        )

    return tuple((spread(d, False), spread(d, True)) for d in range(allowance + 1))


def _levels(
    plan: Plan, s: int, blocked: set[int], halt: set[int]
) -> tuple[dict[int, float], dict[int, float]]:
    # Dial's buckets as sets: level d holds the go arrivals costing d; the cells first
    # settled there (not reached cheaper, not blocked) cost d, and those not halting
    # (enemy ZOC, stop cells: the start always goes on, S6.4) spread to level d + c
    # through the steps of cost c, every cell of the level at once (set.update over
    # the cells' tuples). Stop steps arrive in ``stop`` levels that never spread.
    go: dict[int, float] = {}
    level: list[set[int]] = [set() for _ in plan]
    stops: list[set[int]] = []
    cur = {s}
    for d, (spread, stop_spread) in enumerate(plan):
        if d:
            cur = level[d]
            cur.difference_update(go, blocked)
            if not cur:
                continue
            go.update(dict.fromkeys(cur, d))
            if not spread and not stop_spread:
                continue
            cur.difference_update(halt)
        else:
            go[s] = 0
        for e, rows in spread:
            level[e].update(*map(rows.__getitem__, cur))
        if stop_spread:
            stops = stops or [set() for _ in plan]
            for e, rows in stop_spread:
                stops[e].update(*map(rows.__getitem__, cur))
    return go, _stop_costs(stops, blocked)


def _stop_costs(stops: list[set[int]], blocked: set[int]) -> dict[int, float]:
    """The cheapest level of each cell in the stop levels, blocked cells left out."""
    out: dict[int, float] = {}
    for e, cells in enumerate(stops):
        cells.difference_update(out, blocked)
        out.update(dict.fromkeys(cells, e))
    return out


def search(
    compiled: CompiledSteps,
    s: int,
    allowance: float,
    target: int,
    blocked: set[int],
    halt: set[int],
) -> Found:
    """Every arrival from cell ``s`` within ``allowance`` (see the comment below);
    ``target`` >= 0: stop once that cell is settled. ``halt``: the cells a mover stops
    in on entering (in enemy ZOC, or friendly cells it may end in but not pass)."""
    if s in blocked:
        blocked = blocked - {s}
    go: dict[int, float] = {s: 0}
    go_prev: dict[int, int] = {s: -1}
    stop: dict[int, float] = {}
    stop_prev: dict[int, int] = {}
    args = (compiled, s, blocked, halt, go, go_prev, stop, stop_prev)
    if compiled.integral and allowance < _MAX_BUCKETS:
        _dial(*args, int(allowance), target)
    else:
        _dijkstra(*args, allowance, target)
    return go, go_prev, stop, stop_prev


# The two searches below are Dijkstra over states (cell, stopped?). A cell in ``halt``
# (enemy ZOC, or a friendly cell the mover may end in but not pass) stops every unit
# entering it, so its arrival is kept in ``go`` but never expanded (tested when popped:
# one set look-up per cell reached; ``halt`` is built once per prepared search, from the
# ZOC projection of the exerting cells: Dec 2026, the ZOC had been tested per cell
# through its sources);
# an arrival over a "stop" hexside is kept in ``stop`` and never expanded. The start
# cell is always expanded (S6.4). ``target`` >= 0: stop once the target is settled.
# Their relaxation loops are alike but kept apart on purpose: shared as one function
# (a call per expanded cell) the searches ran 1.1-1.4x slower (benchmarks/bench_movement.py
# queries, CPU time, interleaved).


def _dial(
    compiled: CompiledSteps,
    s: int,
    blocked: Collection[int],
    halt: set[int],
    go: dict[int, float],
    go_prev: dict[int, int],
    stop: dict[int, float],
    stop_prev: dict[int, int],
    allowance: int,
    target: int,
) -> None:
    """Dijkstra with a bucket queue (Dial's algorithm) for small integer costs."""
    if allowance < 0:
        return
    adj_go, adj_stop = compiled.go, compiled.stop
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
    buckets[0].append(s)
    go_get, stop_get = go.get, stop.get
    big = allowance + 1
    best_t = big
    for d in range(allowance + 1):
        if d >= best_t:
            break
        for i in buckets[d]:  # zero-cost steps append to this very list
            if go[i] != d:
                continue
            if i == target:
                best_t = d
                break
            if i in halt and i != s:
                continue
            for j, c in adj_go[i]:
                nd = d + c
                if nd <= allowance and nd < go_get(j, big) and j not in blocked:
                    go[j] = nd
                    go_prev[j] = i
                    buckets[int(nd)].append(j)
            for j, c in adj_stop[i]:
                nd = d + c
                if nd <= allowance and nd < stop_get(j, big) and j not in blocked:
                    stop[j] = nd
                    stop_prev[j] = i
                    if j == target and nd < best_t:
                        best_t = int(nd)


def _dijkstra(
    compiled: CompiledSteps,
    s: int,
    blocked: Collection[int],
    halt: set[int],
    go: dict[int, float],
    go_prev: dict[int, int],
    stop: dict[int, float],
    stop_prev: dict[int, int],
    allowance: float,
    target: int,
) -> None:
    """Dijkstra with a binary heap, for any non-negative costs."""
    adj_go, adj_stop = compiled.go, compiled.stop
    inf = math.inf
    heap: list[tuple[float, int]] = [(0, s)]
    pop, push = heapq.heappop, heapq.heappush
    go_get, stop_get = go.get, stop.get
    best_t = inf
    while heap:
        d, i = pop(heap)
        if d > go[i]:
            continue
        if d >= best_t:
            break
        if i == target:
            best_t = d
            break
        if i in halt and i != s:
            continue
        for j, c in adj_go[i]:
            nd = d + c
            if nd <= allowance and nd < go_get(j, inf) and j not in blocked:
                go[j] = nd
                go_prev[j] = i
                push(heap, (nd, j))
        for j, c in adj_stop[i]:
            nd = d + c
            if nd <= allowance and nd < stop_get(j, inf) and j not in blocked:
                stop[j] = nd
                stop_prev[j] = i
                if j == target and nd < best_t:
                    best_t = nd
