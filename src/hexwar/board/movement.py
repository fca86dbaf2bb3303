"""ZOC-aware movement (S6): where can a unit end its move, at what cost, by which path?

:func:`reachable` returns every cell a unit can **end** its move in, with the minimal
cost and one cheapest path; :func:`find_path` asks for one target. The rules are
pluggable (:class:`MoveRules`); the defaults are Stalingrad's:

- S6.2: never enter a cell with enemy units; pass through friendly ones; end only where
  the stacking predicate allows (default: one ground unit per cell);
- S6.3: entering an enemy-ZOC cell stops the unit, whatever allowance it has left;
- S6.4: a unit may start in enemy ZOC and leave it; it stops in the next ZOC cell;
- a hexside feature with "stop" in the terrain chart also ends the move.

So a friendly unit in an enemy-ZOC cell can be neither passed nor joined (entering stops
the mover, and it may not end there). Because a cheap arrival may be a stopping one while
a dearer one could go on, the search state is ``(cell, stopped?)``.

Costs come from the terrain chart per step (:meth:`hexwar.board.maps.GameMap.cost`); they are
compiled once per map and movement class into an integer-indexed adjacency, and the
rules are resolved once per query (predicates are called once per unit or per occupied
cell, never per edge).

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.terrain import chart_from_dict
>>> chart = chart_from_dict({"terrain": {"clear": {}},
...     "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> m = build_map(chart, dict.fromkeys(hexagon(3), "clear"))
>>> reach = reachable(m, Hex(0, 0), "foot", 2, enemies=[Hex(3, 0)])
>>> reach.costs[Hex(2, 0)], Hex(-2, 0) in reach, len(reach)
(2, True, 19)
>>> reach.path_to(Hex(2, 0))
[Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=0)]
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs

from hexwar.base.errors import OffMapError
from hexwar.board.maps import COST_CACHE, GameMap
from hexwar.board.zoc import every_unit_exerts_zoc, occupants, zoc_sources
from hexwar.grid.geometry import Hex

__all__ = [
    "DEFAULT_RULES",
    "CompiledSteps",
    "MoveRules",
    "MoveSearch",
    "Path",
    "Reach",
    "compiled_adjacency",
    "enemies_block",
    "find_path",
    "friends_passable",
    "one_unit_per_cell",
    "reachable",
]

C = TypeVar("C", bound=Hashable)
Units = Mapping[C, Sequence[Any]] | Collection[C] | None

_ = Hex  # used by the doctest


def one_unit_per_cell(mover: Any, friends: Sequence[Any]) -> bool:
    """S6.2: a unit may end its move only in an empty cell (the default stacking rule)."""
    return not friends


def friends_passable(mover: Any, friends: Sequence[Any]) -> bool:
    """S6.2: a unit may pass through cells holding friendly units."""
    return True


def enemies_block(mover: Any, enemies: Sequence[Any]) -> bool:
    """S6.2: a unit never enters a cell holding enemy units."""
    return bool(enemies)


@attrs.frozen
class MoveRules:
    """The pluggable movement rules; the defaults are Stalingrad's (S2, S6).

    - ``zoc``: apply enemy ZOC (S6.3, S6.4); ``False`` for scripted moves.
    - ``exerts_zoc(unit)``: whether an enemy unit has a ZOC (S2.1: all ground units).
    - ``can_end(mover, friends)``: stacking; may the mover end in a cell holding these
      friendly units? Called once per occupied cell (and once with ``()``).
    - ``can_end_at(mover, cell, friends)``: cell-aware stacking (a limit that depends on
      the cell's terrain, «Бой отрядов» VI.3: two figures in a masking square). When
      given it is used *instead of* ``can_end``, called once per occupied friendly cell
      and once per other cell reached (and for the target of :func:`find_path`).
    - ``can_pass(mover, friends)``: may the mover pass through such a cell?
    - ``enemy_blocks(mover, enemies)``: may the mover not enter such a cell? A cell
      with enemies that does not block is treated as holding no units.

    A cell the mover can end in but not pass through stops it on entry.
    """

    zoc: bool = True
    exerts_zoc: Callable[[Any], bool] = every_unit_exerts_zoc
    can_end: Callable[[Any, Sequence[Any]], bool] = one_unit_per_cell
    can_end_at: Callable[[Any, Any, Sequence[Any]], bool] | None = None
    can_pass: Callable[[Any, Sequence[Any]], bool] = friends_passable
    enemy_blocks: Callable[[Any, Sequence[Any]], bool] = enemies_block


DEFAULT_RULES = MoveRules()
"""Stalingrad's rules (S6.2-S6.4)."""


@attrs.frozen
class Path(Generic[C]):
    """A path: the cells from start to end (both included) and its total cost."""

    cells: list[C]
    cost: float


@attrs.frozen(eq=False)
class Reach(Generic[C]):
    """The result of :func:`reachable`: end cells, their minimal costs, cheapest paths.

    ``costs`` maps each cell the unit may end in to its minimal cost; the start cell is
    always included with cost 0 (the unit may stay).
    """

    start: C
    costs: dict[C, float]
    _cells: tuple[C, ...] = attrs.field(repr=False)
    _go_prev: dict[int, int] = attrs.field(repr=False)
    _stop: dict[int, float] = attrs.field(repr=False)
    _stop_prev: dict[int, int] = attrs.field(repr=False)
    _go: dict[int, float] = attrs.field(repr=False)
    _index: Mapping[C, int] = attrs.field(repr=False)

    def __contains__(self, cell: object) -> bool:
        return cell in self.costs

    def __len__(self) -> int:
        return len(self.costs)

    def __iter__(self) -> Iterator[C]:
        """The end cells, sorted."""
        return iter(sorted(self.costs))  # type: ignore[type-var]

    def path_to(self, cell: C) -> list[C]:
        """One cheapest legal path from the start to end cell ``cell`` (both included)."""
        if cell not in self.costs:
            raise OffMapError(f"{cell!r} is not a cell the unit can end its move in")
        i = self._index[cell]
        cost = self.costs[cell]
        out = [i]
        if i in self._stop and self._stop[i] == cost and self._go.get(i) != cost:
            i = self._stop_prev[i]
            out.append(i)
        while True:
            p = self._go_prev[i]
            if p < 0:
                break
            out.append(p)
            i = p
        cells = self._cells
        return [cells[k] for k in reversed(out)]


@attrs.frozen(eq=False)
class CompiledSteps:
    """A movement class's legal steps on one map, by integer cell index.

    ``go[i]``: ``(j, cost)`` for the ordinary steps out of cell ``i``; ``stop[i]``: the
    steps that end the move in ``j`` (a "stop" hexside). ``integral``: every cost is an
    int (the search then uses a bucket queue instead of a heap).
    """

    go: list[tuple[tuple[int, float], ...]]
    stop: list[tuple[tuple[int, float], ...]]
    integral: bool


def compiled_adjacency(game_map: GameMap[Any], movement_class: str) -> CompiledSteps:
    """The legal steps of ``movement_class`` on ``game_map``, priced by the terrain chart.

    Built once per map and movement class and cached on the map.
    """
    key = (COST_CACHE, movement_class)
    cached: CompiledSteps | None = game_map._cache.get(key)
    if cached is not None:
        return cached
    chart = game_map.chart
    chart.movement_class(movement_class)  # fail early on an unknown class
    cells = game_map.indexed_cells()
    index = game_map.index()
    nodes = game_map.graph.nodes
    adj = game_map.graph.adj
    memo: dict[tuple[str, frozenset[str], frozenset[str]], tuple[float, bool] | None] = {}
    go: list[tuple[tuple[int, float], ...]] = []
    stop: list[tuple[tuple[int, float], ...]] = []
    integral = True
    for cell in cells:
        go_steps: list[tuple[int, float]] = []
        stop_steps: list[tuple[int, float]] = []
        for nb, edge in adj[cell].items():
            k = (nodes[nb]["terrain"], edge["hexside"], edge["linear"])
            if k not in memo:
                step = chart.step(movement_class, k[0], k[1], k[2])
                memo[k] = None if step is None else (step.cost, step.stop)
            priced = memo[k]
            if priced is not None:
                cost, must_stop = priced
                integral = integral and isinstance(cost, int)
                (stop_steps if must_stop else go_steps).append((index[nb], cost))
        go.append(tuple(sorted(go_steps)))
        stop.append(tuple(sorted(stop_steps)))
    compiled = CompiledSteps(go, stop, integral)
    game_map._cache[key] = compiled
    return compiled


_MAX_BUCKETS = 4096


class MoveSearch(Generic[C]):
    """A movement search prepared once for many starts against the same units.

    :func:`reachable` resolves the rules (which cells block, which exert ZOC, where a
    mover may end) on every call; a phase that searches for every unit of a side against
    the same enemies can resolve them once here and then pay only for the search itself.
    The answers equal :func:`reachable`'s with the same arguments (a test checks it).

    >>> from hexwar.board.maps import build_map, hexagon
    >>> from hexwar.board.terrain import chart_from_dict
    >>> chart = chart_from_dict({"terrain": {"clear": {}},
    ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
    >>> m = build_map(chart, dict.fromkeys(hexagon(3), "clear"))
    >>> search = MoveSearch(m, "foot", enemies=[Hex(3, 0)])
    >>> search.reachable(Hex(0, 0), 2).costs == reachable(m, Hex(0, 0), "foot", 2,
    ...     enemies=[Hex(3, 0)]).costs
    True
    >>> sorted(search.end_indices(Hex(0, 0), 1).values())
    [0, 1, 1, 1, 1, 1, 1]
    """

    def __init__(
        self,
        game_map: GameMap[C],
        movement_class: str,
        *,
        mover: Any = None,
        friends: Units[C] = None,
        enemies: Units[C] = None,
        rules: MoveRules = DEFAULT_RULES,
    ) -> None:
        self.game_map = game_map
        self.mover = mover
        self.rules = rules
        self._index = index = game_map.index()
        self._cells = game_map.indexed_cells()
        self._compiled = compiled_adjacency(game_map, movement_class)
        # Resolve the rules once: the cells one may not enter (``blocked``), the enemy
        # cells that exert ZOC (``exerting``), the friendly cells that stop the mover
        # (may end, may not pass) and whether each occupied cell may be ended in.
        enemy_units = occupants(enemies)
        exerts = rules.exerts_zoc
        always = exerts is every_unit_exerts_zoc
        try:
            if rules.enemy_blocks is enemies_block and always:
                blocked = {index[c] for c, units in enemy_units.items() if units}
                exerting = blocked if rules.zoc else set()
            else:
                blocked = {
                    index[c] for c, u in enemy_units.items() if u and rules.enemy_blocks(mover, u)
                }
                exerting = set()
                if rules.zoc:
                    exerting = {
                        index[c]
                        for c, u in enemy_units.items()
                        if u and (always or any(exerts(x) for x in u))
                    }
        except KeyError as e:
            raise OffMapError(f"enemy position {e.args[0]!r} is off the map") from None
        end_at = rules.can_end_at
        self._end_ok_empty = rules.can_end(mover, ()) if end_at is None else False
        end_ok: dict[int, bool] = {}
        stop_cells: set[int] = set()
        for cell, units in occupants(friends).items():
            i = index.get(cell)
            if i is None:
                raise OffMapError(f"friendly position {cell!r} is off the map")
            if not units or i in blocked:
                continue
            can_end = rules.can_end(mover, units) if end_at is None else end_at(mover, cell, units)
            end_ok[i] = can_end
            if not rules.can_pass(mover, units):
                if can_end:
                    stop_cells.add(i)  # may end there, may not go on
                else:
                    blocked = blocked | {i}
        self._blocked = blocked
        self._exerting = exerting
        self._stop_cells = stop_cells
        self._end_ok = end_ok
        self._sources = zoc_sources(game_map) if exerting else None

    def reachable(self, start: C, allowance: float) -> Reach[C]:
        """Every cell a unit at ``start`` can end its move in (as :func:`reachable`)."""
        return self._search(start, allowance, None)

    def end_indices(self, start: C, allowance: float) -> dict[int, float]:
        """The end cells as ``{cell index: minimal cost}`` (indices of the map's
        :meth:`~hexwar.board.maps.GameMap.indexed_cells`); the start is included with cost 0.

        The cheapest form of the answer, for callers that index cells themselves; the
        iteration order is the search's (sort it before it decides anything).
        """
        s = self._index.get(start)
        if s is None:
            raise OffMapError(f"start {start!r} is off the map")
        go, go_prev, stop, stop_prev = self._run(s, allowance, -1)
        if self._end_ok or self.rules.can_end_at is not None:
            index = self._index
            reach = self._finish(start, go, go_prev, stop, stop_prev)
            return {index[c]: d for c, d in reach.costs.items()}
        if not self._end_ok_empty:
            return {s: 0}
        out = dict(go)
        for i, d in stop.items():
            if d < go.get(i, math.inf):
                out[i] = d
        out[s] = 0
        return out

    def _search(self, start: C, allowance: float, target: C | None) -> Reach[C]:
        s = self._index.get(start)
        if s is None:
            raise OffMapError(f"start {start!r} is off the map")
        t = -1
        if target is not None:
            t = self._index.get(target, -1)
            if t < 0:
                raise OffMapError(f"target {target!r} is off the map")
        end_at = self.rules.can_end_at
        t_ok = False
        if t >= 0:
            if end_at is not None and t not in self._end_ok:
                t_ok = end_at(self.mover, self._cells[t], ())
            else:
                t_ok = self._end_ok.get(t, self._end_ok_empty)
        go, go_prev, stop, stop_prev = self._run(s, allowance, t if t_ok else -1)
        return self._finish(start, go, go_prev, stop, stop_prev)

    def _run(
        self, s: int, allowance: float, target: int
    ) -> tuple[dict[int, float], dict[int, int], dict[int, float], dict[int, int]]:
        blocked = self._blocked
        if s in blocked:
            blocked = blocked - {s}
        go: dict[int, float] = {s: 0}
        go_prev: dict[int, int] = {s: -1}
        stop: dict[int, float] = {}
        stop_prev: dict[int, int] = {}
        compiled = self._compiled
        args = (
            compiled,
            s,
            blocked,
            self._exerting,
            self._sources,
            self._stop_cells,
            go,
            go_prev,
            stop,
            stop_prev,
        )
        if compiled.integral and allowance < _MAX_BUCKETS:
            _dial(*args, int(allowance), target)
        else:
            _dijkstra(*args, allowance, target)
        return go, go_prev, stop, stop_prev

    def _finish(
        self,
        start: C,
        go: dict[int, float],
        go_prev: dict[int, int],
        stop: dict[int, float],
        stop_prev: dict[int, int],
    ) -> Reach[C]:
        cells = self._cells
        end_at = self.rules.can_end_at
        end_ok_empty = self._end_ok_empty
        end_ok = self._end_ok
        inf = math.inf
        costs: dict[C, float]
        if end_at is not None:  # cell-aware stacking: ask once per cell reached
            end_ok = dict(end_ok)
            for i in (*go, *stop):
                if i not in end_ok:
                    end_ok[i] = end_at(self.mover, cells[i], ())
        if end_ok:
            costs = {}
            for i, d in go.items():
                if end_ok.get(i, end_ok_empty):
                    costs[cells[i]] = d
            for i, d in stop.items():
                if end_ok.get(i, end_ok_empty) and d < go.get(i, inf):
                    costs[cells[i]] = d
        elif end_ok_empty:
            costs = {cells[i]: d for i, d in go.items()}
            for i, d in stop.items():
                if d < go.get(i, inf):
                    costs[cells[i]] = d
        else:
            costs = {}
        costs[start] = 0
        return Reach(start, costs, cells, go_prev, stop, stop_prev, go, self._index)


def _search(
    game_map: GameMap[C],
    start: C,
    movement_class: str,
    allowance: float,
    mover: Any,
    friends: Units[C],
    enemies: Units[C],
    rules: MoveRules,
    target: C | None,
) -> Reach[C]:
    if start not in game_map.index():
        raise OffMapError(f"start {start!r} is off the map")
    search = MoveSearch(
        game_map, movement_class, mover=mover, friends=friends, enemies=enemies, rules=rules
    )
    return search._search(start, allowance, target)


# The two searches below are Dijkstra over states (cell, stopped?). A cell in enemy ZOC
# (a neighbour of an ``exerting`` cell, through ``sources``) or in ``stop_cells`` stops
# every unit entering it, so its arrival is kept in ``go`` but never expanded (tested
# when popped: the ZOC test costs one set operation per cell reached, not per enemy);
# an arrival over a "stop" hexside is kept in ``stop`` and never expanded. The start
# cell is always expanded (S6.4). ``target`` >= 0: stop once the target is settled.


def _dial(
    compiled: CompiledSteps,
    s: int,
    blocked: Collection[int],
    exerting: set[int],
    sources: list[tuple[int, ...]] | None,
    stop_cells: set[int],
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
    disjoint = exerting.isdisjoint
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
            if i != s and ((sources is not None and not disjoint(sources[i])) or i in stop_cells):
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
    exerting: set[int],
    sources: list[tuple[int, ...]] | None,
    stop_cells: set[int],
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
    disjoint = exerting.isdisjoint
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
        if i != s and ((sources is not None and not disjoint(sources[i])) or i in stop_cells):
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


def reachable(
    game_map: GameMap[C],
    start: C,
    movement_class: str,
    allowance: float,
    *,
    mover: Any = None,
    friends: Units[C] = None,
    enemies: Units[C] = None,
    rules: MoveRules = DEFAULT_RULES,
) -> Reach[C]:
    """Every cell a unit at ``start`` can end its move in, with minimal costs (S6).

    ``friends`` and ``enemies``: the other units, as a mapping cell -> units or just a
    collection of cells (the mover itself is not among the friends). ``mover`` is
    passed to the rule predicates. The result's ``path_to(cell)`` gives a cheapest path.
    """
    return _search(game_map, start, movement_class, allowance, mover, friends, enemies, rules, None)


def find_path(
    game_map: GameMap[C],
    start: C,
    target: C,
    movement_class: str,
    allowance: float = math.inf,
    *,
    mover: Any = None,
    friends: Units[C] = None,
    enemies: Units[C] = None,
    rules: MoveRules = DEFAULT_RULES,
) -> Path[C] | None:
    """A cheapest legal move from ``start`` ending in ``target``, or ``None`` if none.

    Same rules as :func:`reachable`; the search stops as soon as the target is settled.
    """
    reach = _search(
        game_map, start, movement_class, allowance, mover, friends, enemies, rules, target
    )
    if target not in reach.costs:
        return None
    return Path(reach.path_to(target), reach.costs[target])
