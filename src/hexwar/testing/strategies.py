"""Hypothesis strategies for hexwar values, for game authors' property tests.

Requires ``hypothesis`` (the ``test`` extra). Every strategy is a plain function
returning a ``SearchStrategy``, so they compose with ``st.builds`` / ``st.composite``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from hexwar.grid.geometry import Hex

__all__ = ["hexes"]


def hexes(radius: int = 1000) -> st.SearchStrategy[Hex]:
    """Hexes with ``|q|, |r| <= radius`` (negative coordinates included)."""
    coord = st.integers(min_value=-radius, max_value=radius)
    return st.builds(Hex, coord, coord)


# -- hex geometry: directions, offsets, hexsides, vertices, facings -------------------------
# (imports kept here so that sections appended by different modules stay self-contained)
from hexwar.grid.coords import OffsetKind  # noqa: E402
from hexwar.grid.edges import Facing, Hexside, Vertex  # noqa: E402

__all__ += ["directions", "facings", "hexes_near", "hexsides", "offset_kinds", "vertices"]


def directions() -> st.SearchStrategy[int]:
    """Direction (or corner) indices 0-5."""
    return st.integers(min_value=0, max_value=5)


def hexes_near(center: Hex, radius: int) -> st.SearchStrategy[Hex]:
    """Hexes at distance ``<= radius`` from ``center``."""
    return st.sampled_from(list(center.within(radius)))


def offset_kinds() -> st.SearchStrategy[OffsetKind]:
    """The four offset layouts."""
    return st.sampled_from(list(OffsetKind))


def hexsides(radius: int = 1000) -> st.SearchStrategy[Hexside]:
    """Hexsides of hexes with ``|q|, |r| <= radius``, named from either side."""
    return st.builds(Hexside.from_direction, hexes(radius), directions())


def vertices(radius: int = 1000) -> st.SearchStrategy[Vertex]:
    """Vertices of hexes with ``|q|, |r| <= radius``, named from any of their hexes."""
    return st.builds(Vertex.from_corner, hexes(radius), directions())


def facings(radius: int = 1000) -> st.SearchStrategy[Facing]:
    """Facings (hex + corner 0-5) of hexes with ``|q|, |r| <= radius``."""
    return st.builds(Facing, hexes(radius), directions())


# -- maps, terrain charts and unit placements (hexwar.board.maps, hexwar.board.terrain) -
from typing import Any as _Any  # noqa: E402

from hexwar.board.maps import GameMap, build_map, hexagon, rectangle, square_rectangle  # noqa: E402
from hexwar.board.terrain import TerrainChart, chart_from_dict  # noqa: E402
from hexwar.grid.square import HEX_GRID, Topology  # noqa: E402

__all__ += ["game_maps", "placements", "terrain_charts"]

_TERRAINS = ("clear", "rough", "marsh", "lake")


@st.composite
def terrain_charts(draw: st.DrawFn) -> TerrainChart:
    """Small random charts: terrains clear/rough/marsh/lake (impassable); hexside features
    river (extra cost), stream ("stop"), wall (impassable), ridge (blocks ZOC), bridge
    (negates river and wall); linear feature road; classes ``foot`` and ``roadbound``
    (``only = ["road"]``). Costs are drawn from 0-3, with 0.5 now and then.
    """
    cost = st.sampled_from([1, 1, 2, 3, 0, 0.5])
    foot_terrain: dict[str, _Any] = {"clear": draw(st.sampled_from([1, 1, 2, 0.5]))}
    for t in ("rough", "marsh"):
        foot_terrain[t] = draw(st.one_of(cost, st.just("impassable")))
    river: _Any = draw(
        st.one_of(cost, st.just("stop"), st.builds(dict, cost=cost, stop=st.booleans()))
    )
    return chart_from_dict(
        {
            "terrain": {
                "clear": {},
                "rough": {},
                "marsh": {"in_zoc": draw(st.booleans())},
                "lake": {"impassable": True},
            },
            "hexside": {
                "river": {},
                "stream": {},
                "wall": {},
                "ridge": {"blocks_zoc": True},
                "bridge": {"negates": ["river", "wall"]},
            },
            "linear": {"road": {}},
            "movement": {
                "foot": {
                    "terrain": foot_terrain,
                    "hexside": {"river": river, "stream": "stop", "wall": "impassable"},
                    "along": {"road": draw(cost)},
                },
                "roadbound": {"only": ["road"], "along": {"road": draw(cost)}},
            },
        },
        source="<strategy>",
    )


@st.composite
def game_maps(
    draw: st.DrawFn,
    chart: TerrainChart | None = None,
    topology: Topology[_Any] = HEX_GRID,
    max_cells: int = 20,
) -> GameMap[_Any]:
    """Small random maps on ``topology`` (hex: hexagon or rectangle; square: rectangle),
    with random terrain (impassable included), hexside features and a few roads.
    """
    chart = chart if chart is not None else draw(terrain_charts())
    cells: list[_Any]
    if topology is HEX_GRID and draw(st.booleans()):
        cells = hexagon(draw(st.integers(1, 2)))
    else:
        cols = draw(st.integers(2, 5))
        rows = draw(st.integers(2, max(2, max_cells // cols)))
        cells = rectangle(cols, rows) if topology is HEX_GRID else square_rectangle(cols, rows)
    terrain_names = sorted(chart.terrains)
    passable = [t for t in terrain_names if not chart.terrains[t].impassable] or terrain_names
    any_terrain = st.one_of(st.sampled_from(passable), st.sampled_from(terrain_names))
    terrain = {c: draw(any_terrain) for c in cells}
    cell_set = set(cells)
    edges = sorted((a, b) for a in cells for b in topology.neighbors(a) if b in cell_set and a < b)
    features = sorted(chart.hexside_features)
    hexsides: dict[tuple[_Any, _Any], set[str]] = {}
    if edges:
        for e in draw(st.lists(st.sampled_from(edges), max_size=len(edges) // 2, unique=True)):
            hexsides[e] = draw(st.sets(st.sampled_from(features), min_size=1, max_size=2))
    paths: list[tuple[str, list[_Any]]] = []
    linear = sorted(chart.linear_features)
    for _ in range(draw(st.integers(0, 2)) if linear and len(cells) > 1 else 0):
        path = [draw(st.sampled_from(cells))]
        for _ in range(draw(st.integers(1, 5))):
            options = sorted(n for n in topology.neighbors(path[-1]) if n in cell_set)
            path.append(draw(st.sampled_from(options)))
        paths.append((draw(st.sampled_from(linear)), path))
    return build_map(chart, terrain, topology=topology, hexsides=hexsides, paths=paths)


@st.composite
def placements(
    draw: st.DrawFn, game_map: GameMap[_Any], max_units: int = 6
) -> tuple[_Any, dict[_Any, list[int]], dict[_Any, list[int]]]:
    """``(start, friends, enemies)`` on distinct cells of ``game_map``; units are ints
    (1-9) so that predicates can tell them apart; friends may stack two to a cell.
    """
    cells = list(game_map.indexed_cells())
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=max_units + 1, unique=True))
    start, others = chosen[0], chosen[1:]
    unit = st.integers(1, 9)
    friends: dict[_Any, list[int]] = {}
    enemies: dict[_Any, list[int]] = {}
    for c in others:
        if draw(st.booleans()):
            enemies[c] = [draw(unit)]
        else:
            friends[c] = draw(st.lists(unit, min_size=1, max_size=2))
    return start, friends, enemies
