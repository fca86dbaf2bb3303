"""Zones of control (S2): which cells a side's units control.

A unit that exerts ZOC controls the cells adjacent to it (S2.1), across every hexside
unless a hexside feature is declared ``blocks_zoc`` in the terrain chart (ruling S2.3:
rivers do not block by default); cells whose terrain has ``in_zoc = false`` (impassable
terrain by default, S2.3) are in no ZOC. Which units exert ZOC is a predicate.

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.terrain import chart_from_dict
>>> chart = chart_from_dict({"terrain": {"clear": {}, "lake": {"impassable": True}},
...     "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> m = build_map(chart, dict.fromkeys(hexagon(2), "clear") | {Hex(1, 0): "lake"})
>>> sorted(zoc_cells(m, {Hex(0, 0): ["an enemy unit"]}))  # Hex(1, 0) is a lake: no ZOC
[Hex(q=-1, r=0), Hex(q=-1, r=1), Hex(q=0, r=-1), Hex(q=0, r=1), Hex(q=1, r=-1)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from typing import Any, TypeVar

from hexwar.base.errors import OffMapError
from hexwar.board.maps import GameMap
from hexwar.grid.geometry import Hex

__all__ = [
    "every_unit_exerts_zoc",
    "occupants",
    "zoc_cells",
    "zoc_indices",
    "zoc_sources",
]

C = TypeVar("C", bound=Hashable)

_ = Hex  # used by the doctest


def every_unit_exerts_zoc(unit: Any) -> bool:
    """S2.1: every ground unit has a ZOC (the default predicate)."""
    return True


def occupants(units: Mapping[C, Sequence[Any]] | Collection[C] | None) -> Mapping[C, Sequence[Any]]:
    """Normalise occupants: a mapping cell -> units, or just cells (one anonymous unit each).

    >>> occupants([Hex(0, 0)])
    {Hex(q=0, r=0): (None,)}
    """
    if units is None:
        return {}
    if isinstance(units, Mapping):
        return units
    return {cell: (None,) for cell in units}


def zoc_indices(
    game_map: GameMap[Any],
    enemies: Mapping[Any, Sequence[Any]],
    exerts_zoc: Callable[[Any], bool] = every_unit_exerts_zoc,
) -> set[int]:
    """The indices of the cells in the ZOC of ``enemies`` (cell -> units).

    ``exerts_zoc`` is called once per unit at most (a cell exerts ZOC if any unit does).
    """
    proj = game_map.zoc_projection()
    index = game_map.index()
    zoc: set[int] = set()
    always = exerts_zoc is every_unit_exerts_zoc
    for cell, units in enemies.items():
        i = index.get(cell)
        if i is None:
            raise OffMapError(f"unit position {cell!r} is off the map")
        if units and (always or any(exerts_zoc(u) for u in units)):
            zoc.update(proj[i])
    return zoc


def zoc_cells(
    game_map: GameMap[C],
    units: Mapping[C, Sequence[Any]] | Collection[C],
    exerts_zoc: Callable[[Any], bool] = every_unit_exerts_zoc,
) -> frozenset[C]:
    """The cells in the ZOC of ``units`` (a mapping cell -> units, or just cells)."""
    cells = game_map.indexed_cells()
    return frozenset(cells[i] for i in zoc_indices(game_map, occupants(units), exerts_zoc))


def zoc_sources(game_map: GameMap[Any]) -> list[tuple[int, ...]]:
    """Per cell index ``j``: the indices of the cells from which a unit controls ``j``.

    The inverse of :meth:`~hexwar.board.maps.GameMap.zoc_projection`, cached on the map:
    "is cell ``j`` in the ZOC of these units?" for one cell at a time (the movement search
    builds its set of ZOC cells from the projection instead, once per prepared search).
    """
    return game_map.derived("zoc_sources", lambda: _sources(game_map))


def _sources(game_map: GameMap[Any]) -> list[tuple[int, ...]]:
    sources: list[list[int]] = [[] for _ in game_map.indexed_cells()]
    for i, targets in enumerate(game_map.zoc_projection()):
        for j in targets:
            sources[j].append(i)
    return [tuple(s) for s in sources]
