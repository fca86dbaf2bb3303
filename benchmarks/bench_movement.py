"""Benchmark of ZOC-aware movement (a script that prints figures; not a test).

Run: ``python benchmarks/bench_movement.py``. It prints median times of

1. the ZOC-aware reachable set (allowance 8) on a 100x100 hex map with 300 enemy units,
   versus ``networkx.single_source_dijkstra_path_length(G, start, cutoff=8)`` on the same
   graph without ZOC (target ratio <= 0.5);
2. the same ZOC query on a 300x300 map versus a 30x30 map, with the same 300 enemy units
   placed at the same offsets from the start on both maps (target ratio <= 1.3).

Each timed query is the whole user call ``reachable(...)``: index look-ups, resolving
the rules (ZOC and occupancy sets from the 300 enemies), the search and the conversion
of the result to a dict cell -> cost. Map building and the per-map compiled adjacency
are done once before timing (they are cached on the map, as in real use).
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import networkx as nx

from hexwar.geometry import Hex
from hexwar.maps import GameMap, build_map, offset_to_axial, rectangle
from hexwar.movement import reachable
from hexwar.terrain import chart_from_dict

CHART = chart_from_dict(
    {
        "terrain": {"clear": {}, "forest": {}, "lake": {"impassable": True}},
        "hexside": {"river": {}},
        "movement": {
            "foot": {"terrain": {"clear": 1, "forest": 2}, "hexside": {"river": 1}},
            # float costs: the search uses its binary-heap variant instead of buckets
            "float": {"terrain": {"clear": 1.0, "forest": 2.0}, "hexside": {"river": 1.0}},
        },
    }
)


def make_map(size: int, seed: int = 1) -> GameMap[Hex]:
    """A size x size odd-q rectangle: 80% clear, 15% forest, 5% lake, a few rivers."""
    rng = random.Random(seed)
    terrain = {}
    for h in rectangle(size, size):
        x = rng.random()
        terrain[h] = "clear" if x < 0.80 else "forest" if x < 0.95 else "lake"
    terrain[center_of(size)] = "clear"
    hexsides = {}
    for h in terrain:
        nb = h.neighbor(rng.randrange(6))
        if nb in terrain and rng.random() < 0.05:
            hexsides[h, nb] = {"river"}
    return build_map(CHART, terrain, hexsides=hexsides, offset="odd-q")


def weighted_graph(m: GameMap[Hex]) -> nx.DiGraph:
    """The same map as a plain weighted digraph (no ZOC), for networkx's Dijkstra."""
    g = nx.DiGraph()
    g.add_nodes_from(m.graph.nodes)
    for a, b in m.graph.edges:
        for u, v in ((a, b), (b, a)):
            step = m.cost(u, v, "foot")
            if step is not None:
                g.add_edge(u, v, weight=step.cost)
    return g


def enemies_around(center: Hex, count: int, radius: int, seed: int = 2) -> dict[Hex, list[str]]:
    """``count`` enemy units at random offsets within ``radius`` of ``center``."""
    rng = random.Random(seed)
    offsets = [h for h in Hex(0, 0).within(radius) if h.length() > 1]
    return {center + d: [f"enemy{i}"] for i, d in enumerate(rng.sample(offsets, count))}


def median_time(fn: Callable[[], Any], repeat: int = 7, number: int = 50) -> float:
    """Median over ``repeat`` runs of the mean time of ``number`` calls, in seconds."""
    fn()  # warm up
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t0) / number)
    return statistics.median(runs)


def center_of(size: int) -> Hex:
    """The hex in the middle of a size x size map (always clear terrain)."""
    return offset_to_axial(size // 2, size // 2)


def main() -> None:
    print(f"python {sys.version.split()[0]} on {platform.machine()}, networkx {nx.__version__}")

    # 1. ZOC query vs networkx Dijkstra, 100x100, 300 enemies over the whole map.
    m100 = make_map(100)
    start = center_of(100)
    rng = random.Random(3)
    cells = [h for h in m100.indexed_cells() if h != start and h.distance(start) > 1]
    enemies = {h: ["enemy"] for h in rng.sample(cells, 300)}
    reach = reachable(m100, start, "foot", 8, enemies=enemies)  # compiles and caches
    g = weighted_graph(m100)
    dist = nx.single_source_dijkstra_path_length(m100.graph, start, cutoff=8)
    t_zoc = median_time(lambda: reachable(m100, start, "foot", 8, enemies=enemies))
    t_nx = median_time(lambda: nx.single_source_dijkstra_path_length(m100.graph, start, cutoff=8))
    t_nxw = median_time(lambda: nx.single_source_dijkstra_path_length(g, start, cutoff=8))
    print(
        f"100x100, 300 enemies spread over the map: reachable() {t_zoc * 1e6:.0f} us "
        f"({len(reach)} end cells)\n"
        f"  networkx Dijkstra cutoff=8 on game_map.graph (the naive call, every step 1): "
        f"{t_nx * 1e6:.0f} us ({len(dist)} cells); ratio {t_zoc / t_nx:.2f} (target <= 0.5)\n"
        f"  networkx Dijkstra cutoff=8 on a weighted digraph with the same step costs: "
        f"{t_nxw * 1e6:.0f} us; ratio {t_zoc / t_nxw:.2f}"
    )
    t_free = median_time(lambda: reachable(m100, start, "foot", 8))
    reachable(m100, start, "float", 8, enemies=enemies)
    t_float = median_time(lambda: reachable(m100, start, "float", 8, enemies=enemies))
    print(
        f"100x100, no units: reachable() {t_free * 1e6:.0f} us; ratio to the naive networkx "
        f"call {t_free / t_nx:.2f}, to the weighted one {t_free / t_nxw:.2f}\n"
        f"100x100, 300 enemies, float costs (heap search): {t_float * 1e6:.0f} us; "
        f"ratio {t_float / t_nx:.2f}"
    )
    # Same, with the 300 enemies all near the start (more ZOC work per query).
    near = enemies_around(start, 300, 12)
    t_near = median_time(lambda: reachable(m100, start, "foot", 8, enemies=near))
    print(
        f"100x100, 300 enemies within 12 hexes of the start: reachable() "
        f"{t_near * 1e6:.0f} us; ratio to networkx {t_near / t_nx:.2f}"
    )

    # 2. Map-size independence: 300x300 vs 30x30, the same 300 enemies near the start.
    times = {}
    for size in (30, 300):
        m = make_map(size, seed=5)
        s = center_of(size)
        en = enemies_around(s, 300, 12)
        reachable(m, s, "foot", 8, enemies=en)
        times[size] = median_time(lambda m=m, s=s, en=en: reachable(m, s, "foot", 8, enemies=en))
        print(
            f"{size}x{size}, 300 enemies within 12 hexes of the start: {times[size] * 1e6:.0f} us"
        )
    print(f"ratio 300x300 / 30x30: {times[300] / times[30]:.2f} (target <= 1.3)")


if __name__ == "__main__":
    main()
