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
compiled once per map and movement class into an integer-indexed adjacency, searched by
:mod:`hexwar.board.move_search`, and the rules (:mod:`hexwar.board.move_rules`) are
resolved once per query (predicates are called once per unit or per occupied cell, never
per edge).

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

import math
from collections.abc import Collection, Hashable, Iterator, Mapping
from typing import Any, Generic, TypeVar

import attrs

from hexwar.base.errors import OffMapError
from hexwar.board.maps import GameMap
from hexwar.board.move_rules import DEFAULT_RULES, MoveRules, ResolvedRules, Units, resolve_rules
from hexwar.board.move_search import Found, arrivals, compiled_adjacency, search
from hexwar.grid.geometry import Hex

__all__ = ["EnemyZone", "MoveSearch", "Path", "Reach", "enemy_zone", "find_path", "reachable"]

C = TypeVar("C", bound=Hashable)

_ = Hex  # used by the doctest


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
class EnemyZone:
    """The rules resolved against enemy cells alone (no mover, no friendly units): what
    blocks (S6.2) and what stops a mover entering it (enemy ZOC, S6.3) by cell index. It
    depends on the map's cells and ZOC, not on a movement class or its costs, so one
    zone serves every class on a map and its cost variants
    (:meth:`~hexwar.board.maps.GameMap.with_movement_costs`)."""

    rules: MoveRules
    resolved: ResolvedRules
    halt: set[int]


def enemy_zone(
    game_map: GameMap[Any], enemies: Collection[int], rules: MoveRules = DEFAULT_RULES
) -> EnemyZone:
    """The :class:`EnemyZone` of enemy cells given by their indices (one anonymous unit
    each), for :meth:`MoveSearch.in_zone`."""
    n = len(game_map.indexed_cells())
    ids = game_map.derived("index-of-index", lambda: {i: i for i in range(n)})
    resolved = resolve_rules(rules, ids, None, None, enemies)
    return EnemyZone(rules, resolved, _halt(game_map, resolved))


def _halt(game_map: GameMap[Any], resolved: ResolvedRules) -> set[int]:
    """The cells that stop a mover entering them: enemy ZOC (S6.3) and stop cells."""
    halt = set(resolved.stop_cells)
    if resolved.exerting:
        halt.update(*map(game_map.zoc_projection().__getitem__, resolved.exerting))
    return halt


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
        # Resolve the rules once (S6.2-S6.4): the cells one may not enter, the enemy cells
        # that exert ZOC, the friendly cells that stop the mover (may end, may not pass)
        # and whether each occupied cell may be ended in.
        resolved = resolve_rules(rules, game_map.index(), mover, friends, enemies)
        self._prepare(game_map, movement_class, mover, rules, resolved)

    @classmethod
    def against(
        cls,
        game_map: GameMap[C],
        movement_class: str,
        enemies: Collection[int],
        rules: MoveRules = DEFAULT_RULES,
    ) -> MoveSearch[C]:
        """``MoveSearch(game_map, movement_class, enemies=cells, rules=rules)`` for enemy
        cells given by their indices (one anonymous unit each, no friendly units), for
        callers that index cells themselves: no cell is looked up."""
        return cls.in_zone(game_map, movement_class, enemy_zone(game_map, enemies, rules))

    @classmethod
    def in_zone(cls, game_map: GameMap[C], movement_class: str, zone: EnemyZone) -> MoveSearch[C]:
        """:meth:`against` the enemy cells ``zone`` was resolved for (:func:`enemy_zone`
        on this map or a cost variant of it: one zone serves every movement class)."""
        search = cls.__new__(cls)
        search._prepare(game_map, movement_class, None, zone.rules, zone.resolved, zone.halt)
        return search

    def _prepare(
        self,
        game_map: GameMap[C],
        movement_class: str,
        mover: Any,
        rules: MoveRules,
        resolved: ResolvedRules,
        halt: set[int] | None = None,
    ) -> None:
        self.game_map = game_map
        self.mover = mover
        self.rules = rules
        self._index = game_map.index()
        self._cells = game_map.indexed_cells()
        self._compiled = compiled_adjacency(game_map, movement_class)
        self._blocked = resolved.blocked
        self._exerting = resolved.exerting
        self._stop_cells = resolved.stop_cells
        self._end_ok = resolved.end_ok
        self._end_ok_empty = resolved.end_ok_empty
        self._halt = _halt(game_map, resolved) if halt is None else halt

    def reachable(self, start: C, allowance: float) -> Reach[C]:
        """Every cell a unit at ``start`` can end its move in (as :func:`reachable`)."""
        return self._search(start, allowance, None)

    def path(self, start: C, allowance: float, target: C) -> list[C]:
        """One cheapest legal path from ``start`` to the end cell ``target`` (both
        included; the search stops once ``target`` is settled)."""
        return self._search(start, allowance, target).path_to(target)

    def end_indices(self, start: C, allowance: float) -> dict[int, float]:
        """The end cells as ``{cell index: minimal cost}`` (indices of the map's
        :meth:`~hexwar.board.maps.GameMap.indexed_cells`); the start is included with cost 0.

        The cheapest form of the answer, for callers that index cells themselves; the
        iteration order is the search's (sort it before it decides anything).
        """
        s = self._index.get(start)
        if s is None:
            raise OffMapError(f"start {start!r} is off the map")
        return self.ends_from(s, allowance)

    def ends_from(self, s: int, allowance: float) -> dict[int, float]:
        """:meth:`end_indices` from the cell of index ``s`` (no cell looked up)."""
        go, stop = arrivals(self._compiled, s, allowance, self._blocked, self._halt)
        if self._end_ok or self.rules.can_end_at is not None:
            index = self._index
            reach = self._finish(self._cells[s], go, {}, stop, {})  # the costs only
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

    def _run(self, s: int, allowance: float, target: int) -> Found:
        return search(
            self._compiled,
            s,
            allowance,
            target,
            self._blocked,
            self._halt,
        )

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
    prepared = MoveSearch(
        game_map, movement_class, mover=mover, friends=friends, enemies=enemies, rules=rules
    )
    return prepared._search(start, allowance, target)


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
