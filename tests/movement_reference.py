"""An independent brute-force reference for ZOC-aware movement, for tests only.

It shares no code with ``hexwar.board.movement`` / ``hexwar.board.zoc`` / ``TerrainChart.step``: it
prices a step from the chart's raw data itself, computes ZOC from the enemy positions
itself, and enumerates *every simple path* from the start within the allowance, applying
the rules step by step. Simple paths suffice: a cheapest legal move never revisits a
cell, because a cell it passed through once it could not have been stopped in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from hexwar.board.maps import GameMap

Pred = Callable[[Any, Sequence[Any]], bool]
CellPred = Callable[[Any, Any, Sequence[Any]], bool]


def ref_step(m: GameMap[Any], a: Any, b: Any, cls: str) -> tuple[float, bool] | None:
    """(cost, must stop) of the step a -> b, or None; straight from the chart's data."""
    chart = m.chart
    mc = chart.movement_classes[cls]
    terrain = m.graph.nodes[b]["terrain"]
    if chart.terrains[terrain].impassable:
        return None
    edge = m.graph.edges[a, b]
    options = []
    if not mc.only and mc.terrain.get(terrain) is not None:
        options.append(mc.terrain[terrain])
    for f in edge["linear"]:
        if f in mc.along and (not mc.only or f in mc.only):
            options.append(mc.along[f])
    if not options:
        return None
    cost = min(options)
    present = set(edge["hexside"])
    active = {
        f for f in present if not any(f in chart.hexside_features[g].negates for g in present)
    }
    stop = False
    for f in active:
        eff = mc.hexside.get(f)
        if eff is None:
            continue
        if eff.impassable:
            return None
        cost += eff.cost
        stop = stop or eff.stop
    return cost, stop


def ref_zoc(
    m: GameMap[Any], enemies: dict[Any, list[Any]], exerts: Callable[[Any], bool]
) -> set[Any]:
    """Cells next to an exerting enemy, unless a (non-negated) ZOC-blocking feature lies
    between or the cell's terrain is out of ZOC (S2.1, S2.3)."""
    chart = m.chart
    out = set()
    for cell, units in enemies.items():
        if not any(exerts(u) for u in units):
            continue
        for nb in m.topology.neighbors(cell):
            if nb not in m.graph:
                continue
            present = set(m.graph.edges[cell, nb]["hexside"])
            negated = set().union(*(chart.hexside_features[g].negates for g in present))
            if any(chart.hexside_features[f].blocks_zoc for f in present - negated):
                continue
            if chart.terrains[m.graph.nodes[nb]["terrain"]].in_zoc:
                out.add(nb)
    return out


def brute_force_reach(
    m: GameMap[Any],
    start: Any,
    cls: str,
    allowance: float,
    *,
    mover: Any = None,
    friends: dict[Any, list[Any]] | None = None,
    enemies: dict[Any, list[Any]] | None = None,
    zoc: bool = True,
    exerts: Callable[[Any], bool] = lambda u: True,
    can_end: Pred = lambda mover, friends: not friends,
    can_end_at: CellPred | None = None,
    can_pass: Pred = lambda mover, friends: True,
    enemy_blocks: Pred = lambda mover, enemies: bool(enemies),
) -> dict[Any, float]:
    """Minimal cost of every cell where the unit may end its move (start included, 0)."""
    friends = friends or {}
    enemies = enemies or {}
    zoc_cells = ref_zoc(m, enemies, exerts) if zoc else set()
    best: dict[Any, float] = {start: 0}

    def visit(cell: Any, cost: float, seen: frozenset[Any]) -> None:
        for nb in m.graph.adj[cell]:
            if nb in seen:
                continue
            step = ref_step(m, cell, nb, cls)
            if step is None:
                continue
            total = cost + step[0]
            if total > allowance:
                continue
            foes = enemies.get(nb, [])
            if foes and enemy_blocks(mover, foes):
                continue
            here = friends.get(nb, [])
            passable = not here or can_pass(mover, here)
            endable = can_end_at(mover, nb, here) if can_end_at else can_end(mover, here)
            if not passable and not endable:
                continue
            if endable and total < best.get(nb, math.inf):
                best[nb] = total
            stopped = step[1] or nb in zoc_cells or not passable
            if not stopped:
                visit(nb, total, seen | {nb})

    visit(start, 0, frozenset([start]))
    return best


def path_is_legal(
    m: GameMap[Any],
    path: list[Any],
    cls: str,
    allowance: float,
    *,
    mover: Any = None,
    friends: dict[Any, list[Any]] | None = None,
    enemies: dict[Any, list[Any]] | None = None,
    zoc: bool = True,
    exerts: Callable[[Any], bool] = lambda u: True,
    can_end: Pred = lambda mover, friends: not friends,
    can_end_at: CellPred | None = None,
    can_pass: Pred = lambda mover, friends: True,
    enemy_blocks: Pred = lambda mover, enemies: bool(enemies),
) -> float | None:
    """The cost of ``path`` if it is a legal move under the rules, else None."""
    friends = friends or {}
    enemies = enemies or {}
    zoc_cells = ref_zoc(m, enemies, exerts) if zoc else set()
    cost: float = 0
    for k in range(1, len(path)):
        a, b = path[k - 1], path[k]
        if not m.graph.has_edge(a, b):
            return None
        step = ref_step(m, a, b, cls)
        if step is None:
            return None
        cost += step[0]
        foes = enemies.get(b, [])
        if cost > allowance or (foes and enemy_blocks(mover, foes)):
            return None
        here = friends.get(b, [])
        last = k == len(path) - 1
        if not last and (step[1] or b in zoc_cells or (here and not can_pass(mover, here))):
            return None
    last_cell = path[-1]
    here = friends.get(last_cell, [])
    ok = can_end_at(mover, last_cell, here) if can_end_at else can_end(mover, here)
    if len(path) > 1 and not ok:
        return None
    return cost
