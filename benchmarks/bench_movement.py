"""Benchmark of ZOC-aware movement (a script that prints figures; not a test).

Run: ``python benchmarks/bench_movement.py``. It prints CPU times (``time.process_time``)
of

1. the ZOC-aware reachable set (allowance 8) on a 100x100 hex map with 300 enemy units,
   versus ``networkx.single_source_dijkstra_path_length(G, start, cutoff=8)`` on the same
   graph without ZOC (target ratio <= 0.5);
2. the same ZOC query on a 300x300 map versus a 30x30 map, with the same terrain, rivers
   and 300 enemy units at the same offsets from the start on both maps (so the same
   cells are reached; the script checks it), target ratio <= 1.3.

Each comparison is timed **interleaved in one run**: every repeat times a batch of each
query in turn, so a slow spell of the shared machine hits all of them alike; each figure
is the mean of a batch, reported as the min and the median over the repeats, and the
ratios are taken on the medians (and on the mins). Each timed query is the whole user
call ``reachable(...)``: index look-ups, resolving the rules (ZOC and occupancy sets from
the 300 enemies), the search and the conversion of the result to a dict cell -> cost.
Map building and the per-map compiled adjacency are done once before timing (they are
cached on the map, as in real use).
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

from hexwar.board.maps import GameMap, build_map, rectangle
from hexwar.board.movement import reachable
from hexwar.board.terrain import chart_from_dict
from hexwar.grid.coords import offset_to_hex
from hexwar.grid.geometry import Hex

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


def _terrain(x: float) -> str:
    return "clear" if x < 0.80 else "forest" if x < 0.95 else "lake"


#: Radius around the start within which maps of any size share their terrain and rivers.
SHARED = 14


def shared_pattern(seed: int) -> tuple[dict[Hex, str], dict[tuple[Hex, Hex], set[str]]]:
    """Terrain and rivers by offset from the start, for every offset within SHARED."""
    rng = random.Random(seed)
    offsets = sorted(Hex(0, 0).within(SHARED), key=lambda h: (h.q, h.r))
    terrain = {d: _terrain(rng.random()) for d in offsets}
    terrain[Hex(0, 0)] = "clear"
    rivers = {}
    for d in offsets:
        nb = d.neighbor(rng.randrange(6))
        if nb in terrain and rng.random() < 0.05:
            rivers[d, nb] = {"river"}
    return terrain, rivers


def make_map(size: int, seed: int = 1, shared: int | None = None) -> GameMap[Hex]:
    """A size x size odd-q rectangle: 80% clear, 15% forest, 5% lake, a few rivers; with
    ``shared``, the cells within SHARED of the centre follow ``shared_pattern(shared)``."""
    rng = random.Random(seed)
    center = center_of(size)
    terrain = {}
    for h in rectangle(size, size):
        terrain[h] = _terrain(rng.random())
    terrain[center] = "clear"
    hexsides = {}
    for h in terrain:
        nb = h.neighbor(rng.randrange(6))
        if nb in terrain and rng.random() < 0.05:
            hexsides[h, nb] = {"river"}
    if shared is not None:
        inner, rivers = shared_pattern(shared)
        terrain.update({center + d: t for d, t in inner.items() if center + d in terrain})
        near = {center + d for d in inner}
        hexsides = {k: v for k, v in hexsides.items() if k[0] not in near and k[1] not in near}
        hexsides.update({(center + a, center + b): v for (a, b), v in rivers.items()})
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


def interleaved(
    queries: dict[str, Callable[[], Any]], repeat: int = 9, number: int = 50
) -> dict[str, list[float]]:
    """Per query, the mean CPU seconds of ``number`` calls, for ``repeat`` repeats taken
    in turn (A, B, C, A, B, C, ...)."""
    for fn in queries.values():
        fn()  # warm up
    runs: dict[str, list[float]] = {name: [] for name in queries}
    for _ in range(repeat):
        for name, fn in queries.items():
            t0 = time.process_time()
            for _ in range(number):
                fn()
            runs[name].append((time.process_time() - t0) / number)
    return runs


def show(runs: list[float]) -> str:
    return f"min {min(runs) * 1e6:.0f} us, median {statistics.median(runs) * 1e6:.0f} us"


def ratio(a: list[float], b: list[float]) -> str:
    """The ratio of medians (and of mins)."""
    med = statistics.median(a) / statistics.median(b)
    return f"{med:.2f} (mins: {min(a) / min(b):.2f})"


def center_of(size: int) -> Hex:
    """The hex in the middle of a size x size map (always clear terrain)."""
    return offset_to_hex(size // 2, size // 2)


def main() -> None:
    print(f"python {sys.version.split()[0]} on {platform.machine()}, networkx {nx.__version__}")

    # 1. ZOC query vs networkx Dijkstra, 100x100, 300 enemies over the whole map.
    m100 = make_map(100)
    start = center_of(100)
    rng = random.Random(3)
    cells = [h for h in m100.indexed_cells() if h != start and h.distance(start) > 1]
    enemies = {h: ["enemy"] for h in rng.sample(cells, 300)}
    near = enemies_around(start, 300, 12)
    reach = reachable(m100, start, "foot", 8, enemies=enemies)  # compiles and caches
    reachable(m100, start, "float", 8, enemies=enemies)
    g = weighted_graph(m100)
    dist = nx.single_source_dijkstra_path_length(m100.graph, start, cutoff=8)
    runs = interleaved(
        {
            "zoc": lambda: reachable(m100, start, "foot", 8, enemies=enemies),
            "nx": lambda: nx.single_source_dijkstra_path_length(m100.graph, start, cutoff=8),
            "nxw": lambda: nx.single_source_dijkstra_path_length(g, start, cutoff=8),
            "free": lambda: reachable(m100, start, "foot", 8),
            "float": lambda: reachable(m100, start, "float", 8, enemies=enemies),
            "near": lambda: reachable(m100, start, "foot", 8, enemies=near),
        }
    )
    nxr = runs["nx"]
    print(
        f"100x100, 300 enemies spread over the map: reachable() {show(runs['zoc'])} "
        f"({len(reach)} end cells)\n"
        f"  networkx Dijkstra cutoff=8 on game_map.graph (the naive call, every step 1): "
        f"{show(nxr)} ({len(dist)} cells); ratio {ratio(runs['zoc'], nxr)} (target <= 0.5)\n"
        f"  networkx Dijkstra cutoff=8 on a weighted digraph with the same step costs: "
        f"{show(runs['nxw'])}; ratio {ratio(runs['zoc'], runs['nxw'])}\n"
        f"100x100, no units: reachable() {show(runs['free'])}; ratio to the naive networkx "
        f"call {ratio(runs['free'], nxr)}\n"
        f"100x100, 300 enemies, float costs (heap search): {show(runs['float'])}; "
        f"ratio {ratio(runs['float'], nxr)}\n"
        f"100x100, 300 enemies within 12 hexes of the start: reachable() {show(runs['near'])};"
        f" ratio to networkx {ratio(runs['near'], nxr)}"
    )

    # 2. Map-size independence: 300x300 vs 30x30, the same terrain and enemies near the start.
    queries, reached = {}, {}
    for size in (30, 300):
        m = make_map(size, seed=5, shared=6)
        s = center_of(size)
        en = enemies_around(s, 300, 12)
        reached[size] = {h - s: c for h, c in reachable(m, s, "foot", 8, enemies=en).costs.items()}
        queries[size] = lambda m=m, s=s, en=en: reachable(m, s, "foot", 8, enemies=en)
    if reached[30] != reached[300]:
        raise SystemExit(
            f"the two maps reach different cells: {len(reached[30])} vs {len(reached[300])}"
        )
    sizes = interleaved(queries)
    for size in (30, 300):
        print(
            f"{size}x{size}, 300 enemies within 12 hexes of the start: {show(sizes[size])} "
            f"({len(reached[size])} cells reached)"
        )
    print(f"ratio 300x300 / 30x30: {ratio(sizes[300], sizes[30])} (target <= 1.3)")


if __name__ == "__main__":
    main()
