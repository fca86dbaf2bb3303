"""The Stalingrad map's railways, roads and river mouths agree with the geography (S1.1).

Checked on the shipped ``map.toml`` (loaded by the core), with the line of each path
taken from the build plan (the plan renders to that file byte for byte, tested in
test_stalingrad_map.py):

- every railway and road crosses each river exactly as often as the geography lists
  bridges for it (``bridges`` in geography.toml, from the reference);
- no line has a dead-end spur: a hex touched by only one step of a line is one of the
  line's ends (the hexes of its first and last points, or where it leaves the land);
- Nizhne-Chirskaya lies below the Chir mouth, on the Chir's right bank and the Don's
  right bank, and the Chir and the Don together close off the Chir-Don angle.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict

import networkx as nx
import pytest
from tools.stalingrad_map import mapbuild
from tools.stalingrad_map.geography import Geography, Line, load_geography
from tools.stalingrad_map.projection import THEATRE

from hexwar.board.map_load import load_map
from hexwar.board.maps import GameMap
from hexwar.board.terrain import load_chart
from hexwar.grid.geometry import Hex
from hexwar_stalingrad._checks import data_path

Point = tuple[float, float]

GEO = load_geography()
RIVERS = [r for r in GEO.section("river") if r.kind != "volga"]
LINES = [*GEO.section("rail"), *GEO.section("road")]


@pytest.fixture(scope="module")
def game_map() -> GameMap[Hex]:
    return load_map(data_path("map.toml"), load_chart(data_path("terrain.toml")))


@pytest.fixture(scope="module")
def chains() -> dict[str, list[list[Hex]]]:
    out: dict[str, list[list[Hex]]] = defaultdict(list)
    for _section, line_id, cells in mapbuild.plan_map().paths:
        out[line_id].append(cells)
    return out


def _km(h: Hex) -> Point:
    return THEATRE.center_km(h)


def _rivers_of(a: Hex, b: Hex, features: frozenset[str]) -> list[str]:
    """The rivers a hexside with these features belongs to: those whose polyline the
    centre-to-centre link crosses, else (a hand-corrected hexside) the nearest one."""
    cands = [r for r in RIVERS if r.feature in features]
    pts = {r.id: mapbuild._polyline_km(THEATRE, r) for r in cands}
    crossed = [r.id for r in cands if mapbuild._crosses(_km(a), _km(b), pts[r.id])]
    if crossed or not cands:
        return crossed
    mid = ((_km(a)[0] + _km(b)[0]) / 2, (_km(a)[1] + _km(b)[1]) / 2)
    return [min(cands, key=lambda r: mapbuild._nearest_on(pts[r.id], mid)[0]).id]


def crossings(m: GameMap[Hex], cells_list: list[list[Hex]]) -> Counter[str]:
    """River crossings of one line on the map, by river id."""
    out: Counter[str] = Counter()
    for cells in cells_list:
        for a, b in itertools.pairwise(cells):
            assert "rail" in m.linear(a, b) or "road" in m.linear(a, b)
            features = m.hexside(a, b) - {"bridge"}
            out.update(_rivers_of(a, b, features))
    return out


def expected_crossings(line: Line) -> Counter[str]:
    return Counter(b.river for b in line.bridges)


@pytest.mark.parametrize("line", LINES, ids=lambda line: line.id)
def test_lines_cross_rivers_only_at_their_bridges(game_map, chains, line) -> None:  # type: ignore[no-untyped-def]
    got = crossings(game_map, chains[line.id])
    assert got == expected_crossings(line), f"{line.id}: {dict(got)}"


@pytest.mark.parametrize("line", LINES, ids=lambda line: line.id)
def test_every_river_crossing_of_a_line_is_bridged(game_map, chains, line) -> None:  # type: ignore[no-untyped-def]
    for cells in chains[line.id]:
        for a, b in itertools.pairwise(cells):
            if rivers := game_map.hexside(a, b) - {"bridge"}:
                assert "bridge" in game_map.hexside(a, b), (line.id, rivers)


def test_declared_bridges_lie_on_their_river_and_line() -> None:
    for line in LINES:
        lpts = [THEATRE.to_km(lat, lon) for lat, lon in line.points]
        for b in line.bridges:
            p = THEATRE.to_km(b.lat, b.lon)
            river = mapbuild._polyline_km(THEATRE, GEO.line(b.river))
            assert mapbuild._nearest_on(river, p)[0] <= 5.0, (line.id, b)
            assert mapbuild._nearest_on(lpts, p)[0] <= 5.0, (line.id, b)
            assert b.note, (line.id, b)


def termini(m: GameMap[Hex], line: Line) -> set[Hex]:
    """Where the line may end: its first and last points' hexes, and land hexes at the
    map edge or next to water (where a line leaves the map or meets the Volga)."""
    ends = {THEATRE.to_hex(*line.points[0]), THEATRE.to_hex(*line.points[-1])}
    water = {"volga", "lake"}
    for h in m:
        if len(m.neighbors(h)) < 6 or any(m.terrain(n) in water for n in m.neighbors(h)):
            ends.add(h)
    return ends


def dead_ends(m: GameMap[Hex], line: Line, cells_list: list[list[Hex]]) -> list[str]:
    g: nx.Graph[Hex] = nx.Graph()
    for cells in cells_list:
        nx.add_path(g, cells)
    allowed = termini(m, line)
    return sorted(m.label(h) for h, d in g.degree() if d == 1 and h not in allowed)


@pytest.mark.parametrize("line", LINES, ids=lambda line: line.id)
def test_no_line_has_a_dead_end_spur(game_map, chains, line) -> None:  # type: ignore[no-untyped-def]
    assert dead_ends(game_map, line, chains[line.id]) == []


def _region(m: GameMap[Hex], start: Hex, rivers: set[str]) -> set[Hex]:
    """The hexes reachable from ``start`` without crossing these river features (bridges
    are ignored: a bridge carries a road across, it does not join the banks)."""
    g = nx.Graph()
    g.add_nodes_from(m)
    g.add_edges_from((a, b) for a, b in m.graph.edges if not (m.hexside(a, b) & rivers))
    return set(nx.node_connected_component(g, start))


def _side(geo: Geography, place: str, river: str) -> float:
    p = geo.place(place)
    pts = mapbuild._polyline_km(THEATRE, geo.line(river))
    return mapbuild._nearest_on(pts, THEATRE.to_km(p.lat, p.lon))[1]  # > 0: right bank


def test_nizhne_chirskaya_is_below_the_chir_mouth(game_map) -> None:  # type: ignore[no-untyped-def]
    m = game_map
    # the history: Nizhne-Chirskaya and Tormosin on the right (south) bank of the Chir and
    # the right (west) bank of the Don; Verkhne-Chirsky in the Chir-Don angle
    assert _side(GEO, "nizhne_chirskaya", "chir") > 0
    assert _side(GEO, "nizhne_chirskaya", "don") > 0
    assert _side(GEO, "tormosin", "chir") > 0
    assert _side(GEO, "verkhne_chirsky", "chir") < 0 < _side(GEO, "verkhne_chirsky", "don")
    # the map: the Chir and the Don close the angle, and Nizhne-Chirskaya is outside it
    hexes = {
        p: m.tagged(f"place:{p}")[0] for p in ("nizhne_chirskaya", "tormosin", "verkhne_chirsky")
    }
    angle = _region(m, hexes["verkhne_chirsky"], {"chir", "don"})
    assert hexes["tormosin"] not in angle
    assert hexes["nizhne_chirskaya"] not in angle
    south = _region(m, hexes["tormosin"], {"chir", "don"})
    assert hexes["nizhne_chirskaya"] in south
