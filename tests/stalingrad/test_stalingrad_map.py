"""The Stalingrad map (S1.1): reproducible build, core loading, fidelity to the geography."""

from __future__ import annotations

import itertools
import math
import re
from collections import deque
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tools.stalingrad_map import mapbuild
from tools.stalingrad_map.geography import load_geography
from tools.stalingrad_map.projection import THEATRE

from hexwar.board.map_load import load_map
from hexwar.board.terrain import load_chart
from hexwar.grid.geometry import Hex
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.scenario import load_scenario
from hexwar_stalingrad.static import load_static

REFERENCE = Path(__file__).resolve().parents[3] / "shared/reference/stalingrad-history.md"


@pytest.fixture(scope="module")
def sc():  # type: ignore[no-untyped-def]
    return load_scenario()


def test_map_script_regenerates_the_shipped_map_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "map.toml"
    mapbuild.main([str(out)])
    assert out.read_bytes() == data_path("map.toml").read_bytes()


def test_map_loads_through_the_core_loader() -> None:
    chart = load_chart(data_path("terrain.toml"))
    m = load_map(data_path("map.toml"), chart)
    assert len(m) == 33 * 35
    assert m.label(Hex(0, 0)) == "0101"


# -- projection ------------------------------------------------------------------------------

lat = st.floats(min_value=47.5, max_value=49.7)
lon = st.floats(min_value=41.75, max_value=45.3)


@settings(max_examples=200)
@given(lat, lon)
def test_projection_round_trips(la: float, lo: float) -> None:
    x, y = THEATRE.to_km(la, lo)
    la2, lo2 = THEATRE.from_km(x, y)
    assert math.isclose(la, la2, abs_tol=1e-9)
    assert math.isclose(lo, lo2, abs_tol=1e-9)


@settings(max_examples=200)
@given(lat, lon)
def test_a_point_lies_within_one_circumradius_of_its_hex_centre(la: float, lo: float) -> None:
    h = THEATRE.to_hex(la, lo)
    cx, cy = THEATRE.center_km(h)
    x, y = THEATRE.to_km(la, lo)
    assert math.hypot(x - cx, y - cy) <= THEATRE.size_km + 1e-9
    assert THEATRE.to_hex(*THEATRE.center(h)) == h


def test_projection_keeps_scale_on_the_reference_parallel() -> None:
    # one degree of longitude at 48.6 N is 111.32 * cos(48.6 deg) = 73.6 km
    assert THEATRE.km_between(48.6, 43.0, 48.6, 44.0) == pytest.approx(73.6, abs=0.1)
    # adjacent hex centres are hex_km apart
    a, b = THEATRE.center_km(Hex(5, 5)), THEATRE.center_km(Hex(5, 5).neighbor(1))
    assert math.hypot(a[0] - b[0], a[1] - b[1]) == pytest.approx(8.0)


# -- fidelity ----------------------------------------------------------------------------------


def test_geography_copies_the_reference_coordinates() -> None:
    if not REFERENCE.exists():
        pytest.skip("shared reference not present")
    text = REFERENCE.read_text(encoding="utf-8")
    rows = re.findall(r"^\|[^|]*\| (\d+\.\d+) \| (\d+\.\d+) \|", text, flags=re.M)
    table = {(float(a), float(b)) for a, b in rows}
    geo = load_geography()
    found = [p.id for p in geo.places if (p.lat, p.lon) in table]
    assert len(found) >= 50, found


def test_at_least_20_places_lie_within_one_hex_of_their_projection(sc) -> None:  # type: ignore[no-untyped-def]
    geo = load_geography()
    close = []
    for p in geo.places:
        h = sc.place_hex(p.id)
        assert h.distance(THEATRE.to_hex(p.lat, p.lon)) <= 1, p.id
        close.append(p.id)
    assert len(close) >= 20


def _ray_count_map(sc, start: Hex, feature: str, direction: str) -> int:  # type: ignore[no-untyped-def]
    """Hexsides with ``feature`` crossed walking from ``start`` to the map edge."""
    m, count, h = sc.game_map, 0, start
    steps = itertools.cycle((3,) if direction == "W" else (1, 2) if direction == "N" else (5, 4))
    for d in steps:
        nxt = h.neighbor(d)
        if nxt not in m:
            return count
        count += feature in m.hexside(h, nxt)
        h = nxt
    raise AssertionError  # pragma: no cover


def _ray_count_geo(la: float, lo: float, river: str, direction: str) -> int:
    geo = load_geography()
    pts = mapbuild._polyline_km(THEATRE, geo.line(river))
    x, y = THEATRE.to_km(la, lo)
    far = {"N": (x, -1e4), "W": (-1e4, y), "S": (x, 1e4)}[direction]
    return sum(mapbuild.segments_cross((x, y), far, a, b) for a, b in itertools.pairwise(pts))


# (place, river id, hexside feature, ray direction, crossings expected on the way: odd = the
# place is on the far side of the river from the map edge the ray reaches)
RIVER_SIDES = [
    ("kalach", "don", "don", "W", 1),  # Kalach east (left bank) of the Don
    ("golubinsky", "don", "don", "W", 0),  # Golubinsky on the right bank
    ("vertyachy", "don", "don", "W", 1),  # Vertyachy crossing on the left bank
    ("peskovatka", "don", "don", "W", 1),
    ("kachalinskaya", "don", "don", "W", 1),
    ("rychkovsky", "don", "don", "W", 1),  # Rychkovsky opposite Nizhne-Chirskaya
    ("nizhne_chirskaya", "don", "don", "W", 0),
    ("kletskaya", "don", "don", "N", 1),  # Kletskaya and Serafimovich south of the Don
    ("serafimovich", "don", "don", "N", 1),
    ("kotelnikovo", "yesaulovsky_aksay", "aksay", "N", 1),  # south of the Aksay
    ("abganerovo", "yesaulovsky_aksay", "aksay", "S", 1),  # north of the Aksay
    ("verkhne_kumsky", "myshkova", "myshkova", "N", 1),  # south of the Myshkova
    ("marinovka", "myshkova", "myshkova", "S", 1),  # the pocket north of the Myshkova
]


@pytest.mark.parametrize(("place", "river", "feature", "direction", "expected"), RIVER_SIDES)
def test_places_are_on_the_right_bank(sc, place, river, feature, direction, expected) -> None:  # type: ignore[no-untyped-def]
    p = load_geography().place(place)
    assert _ray_count_geo(p.lat, p.lon, river, direction) % 2 == expected  # the history
    assert _ray_count_map(sc, sc.place_hex(place), feature, direction) % 2 == expected  # the map


def test_the_city_is_west_of_the_volga_and_separated_from_the_east_bank(sc) -> None:  # type: ignore[no-untyped-def]
    m = sc.game_map
    passable = [c for c in m if not sc.chart.terrains[m.terrain(c)].impassable]
    g = m.graph.subgraph(c for c in passable if m.terrain(c) != "volga_crossing")
    west, east = sc.place_hex("stalingrad"), sc.place_hex("srednyaya_akhtuba")
    assert m.terrain(west) == "city"
    assert not nx.has_path(g, west, east)  # impassable except at designated crossings
    assert nx.has_path(m.graph.subgraph(passable), west, east)  # ... which do connect
    for crossing in m.tagged("crossing"):
        assert m.terrain(crossing) == "volga_crossing"
    assert len(sc.city_hexes()) >= 5


# (from, to, km in reference section 8) for pairs up to ~120 km
DISTANCES = [
    ("stalingrad", "kalach", 73),
    ("kalach", "sovetsky", 13),
    ("marinovka", "rynok", 61),
    ("rynok", "krasnoarmeysk", 35),
    ("serafimovich", "perelazovsky", 50),
    ("serafimovich", "kalach", 114),
    ("kletskaya", "kalach", 77),
    ("abganerovo", "stalingrad", 74),
    ("kalach", "nizhne_chirskaya", 49),
    ("nizhne_chirskaya", "marinovka", 65),
    ("kalach", "surovikino", 51),
    ("kotelnikovo", "verkhne_kumsky", 56),
    ("verkhne_kumsky", "vasilyevka", 26),
    ("kotelnikovo", "vasilyevka", 81),
    ("vasilyevka", "marinovka", 48),
    ("vasilyevka", "stalingrad", 80),
    ("pitomnik", "gumrak", 11),
]


@pytest.mark.parametrize(("a", "b", "km"), DISTANCES)
def test_hex_distances_match_the_reference_within_one_hex(sc, a, b, km) -> None:  # type: ignore[no-untyped-def]
    d = sc.place_hex(a).distance(sc.place_hex(b))
    assert abs(d - km / THEATRE.hex_km) <= 1


LONG = [
    ("perelazovsky", "kalach", 86),
    ("plodovitoye", "sovetsky", 77),
    ("nizhne_chirskaya", "stalingrad", 112),
    ("tormosin", "nizhne_chirskaya", 37),
    ("kalach", "kotelnikovo", 121),
    ("kotelnikovo", "stalingrad", 157),
    ("morozovsk", "pitomnik", 183),
    ("serafimovich", "kotelnikovo", 218),
]


@pytest.mark.parametrize(("a", "b", "km"), DISTANCES + LONG)
def test_hex_distances_stay_within_the_hex_metric_bounds(sc, a, b, km) -> None:  # type: ignore[no-untyped-def]
    """Hex distance >= plane distance / hex_km and <= that / cos 30 deg (docs/stalingrad/map.md)."""
    d = sc.place_hex(a).distance(sc.place_hex(b))
    hexes = km / THEATRE.hex_km
    assert hexes - 1.2 <= d <= hexes / math.cos(math.radians(30)) + 1.2


def test_zoc_sources_invert_the_zoc_disks_s2_1() -> None:
    data = load_static()
    pairs = {(lab, h) for lab, disk in data.zoc_disks.items() for h in disk}
    assert pairs == {(lab, h) for h, found in data.zoc_sources.items() for lab in found}


def test_path_steps_are_breadth_first_steps_through_passable_hexes() -> None:
    data = load_static()
    for sources in [(sorted(data.passable)[100],), tuple(sorted(data.city))]:
        want = dict.fromkeys(sorted(set(sources) & data.passable), 0)
        queue = deque(want)
        while queue:
            lab = queue.popleft()
            for n in data.neighbors[lab]:
                if n in data.passable and n not in want:
                    want[n] = want[lab] + 1
                    queue.append(n)
        assert data.path_steps(sources) == want
