"""Build the Stalingrad map file from the source geography (S1.1), reproducibly.

Inputs (all in ``hexwar_stalingrad/data``): ``geography.toml`` (places, rivers, railways,
roads, lakes, trench lines, from the historical reference), ``map_features.toml`` (game
features placed by coordinates: airfields, truck hexes, start hexes, turn-6 reserves,
supply sources, Volga crossings) and ``map_corrections.toml`` (hand corrections, each
with a reason). Output: the text of ``map.toml`` in the core map format
(``docs/movement.md``). ``tools/build_stalingrad_map.py`` writes it; a test checks that
the shipped file equals :func:`build_map_text` byte for byte.

How geography becomes hexes (docs/stalingrad/map.md):

- a point lies in the hex that contains its projection (:data:`THEATRE`);
- a river (not the Volga) puts its feature on every hexside whose centre-to-centre link
  it crosses, so two hexes are on opposite banks exactly when the link between them
  crosses the river;
- the Volga is water: every hex on the east (left) bank whose link to a neighbour
  crosses the river is ``volga`` (impassable), except crossings; so no step crosses
  the Volga except through a crossing hex;
- a railway or road is the chain of hexes its polyline passes through; where it crosses
  a river hexside, that hexside gets a ``bridge``.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.board.maps import rectangle
from hexwar.grid.coords import hex_to_offset, offset_to_hex
from hexwar.grid.geometry import Hex
from hexwar_stalingrad._checks import data_path
from tools.stalingrad_map.geography import Bridge, Geography, Line, load_geography
from tools.stalingrad_map.projection import THEATRE, Projection

__all__ = [
    "OFFSET",
    "SIDES",
    "MapFeatures",
    "MapPlan",
    "build_map_text",
    "label",
    "load_features",
    "plan_map",
]

OFFSET: Final = "odd-r"
SIDES: Final = ("rkka", "wehrmacht")
_SAMPLE_KM: Final = 0.5
_RUN_OFF_KM: Final = 150.0
_BRIDGE_REACH_KM: Final = 8.0
"""A bridge point lies within this distance of its river hexside's midpoint."""
_FORT_KINDS: Final = {"city": "city", "town": "town"}

Point = tuple[float, float]


def label(h: Hex) -> str:
    """The printed label of a hex on this map (column, row, from 1; see docs/movement.md).

    >>> label(Hex(0, 0)), label(offset_to_hex(8, 11, OFFSET))
    ('0101', '0912')
    """
    c = hex_to_offset(h, OFFSET)
    col, row = c.col, c.row
    return f"{col + 1:02d}{row + 1:02d}"


def parse_label(text: str) -> Hex:
    """The hex named by a label (inverse of :func:`label`)."""
    if len(text) != 4 or not text.isdigit():
        raise ValueError(f"malformed label {text!r} (expected 4 digits)")
    return offset_to_hex(int(text[:2]) - 1, int(text[2:]) - 1, OFFSET)


# -- the features and corrections files ------------------------------------------------------


@attrs.frozen
class Feature:
    """A game feature placed at a point: ``kind`` (airfield, truck, start, crossing...)."""

    kind: str
    lat: float
    lon: float
    entry: str
    side: str | None = None
    number: int | None = None
    reserve: bool = False
    note: str = ""
    at: Hex | None = None
    place: str | None = None


@attrs.frozen
class Correction:
    """A hand correction: set ``terrain`` at ``at``, or add/remove a hexside feature."""

    entry: str
    reason: str
    at: Hex | None = None
    terrain: str | None = None
    between: tuple[Hex, Hex] | None = None
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()
    move_feature: str | None = None
    to: Hex | None = None
    """``move_feature``: ``"place:<id>"`` or ``"start:<side>:<number>"``, moved ``to`` a hex."""


@attrs.frozen
class MapFeatures:
    """The map frame and the features placed on it."""

    name: str
    columns: int
    rows: int
    features: tuple[Feature, ...]
    supply_edges: tuple[tuple[str, int, int], ...]
    corrections: tuple[Correction, ...]


_FEATURE_KINDS: Final = ("airfield", "truck", "start", "crossing")


def load_features(
    path: str | Path | None = None, corrections_path: str | Path | None = None
) -> MapFeatures:
    """Load ``map_features.toml`` and ``map_corrections.toml`` (validated)."""
    data, source = read_data_file(path if path is not None else data_path("map_features.toml"))
    ck = Checker(source)
    geo = load_geography()
    head = ck.table(data.get("map"), "map")
    ck.keys(head, ("name", "columns", "rows"), (), "map")
    features: list[Feature] = []
    starts: dict[tuple[str, int], str] = {}
    for kind in _FEATURE_KINDS:
        for i, raw in enumerate(ck.items(data, kind)):
            e = f"{kind}[{i}]"
            required: tuple[str, ...] = {"start": ("side", "number"), "crossing": ()}.get(
                kind, ("side",)
            )
            ck.keys(raw, required, ("place", "lat", "lon", "at", "note", "reserve"), e)
            at = None
            if "at" in raw:
                try:
                    at = parse_label(ck.string(raw["at"], f"{e}.at"))
                except ValueError as err:
                    raise ck.fail(f"{e}.at", str(err)) from None
                lat, lon = THEATRE.center(at)
            elif "place" in raw:
                try:
                    p = geo.place(ck.string(raw["place"], f"{e}.place"))
                except KeyError:
                    raise ck.fail(f"{e}.place", f"unknown place {raw['place']!r}") from None
                lat, lon = p.lat, p.lon
            elif "lat" in raw and "lon" in raw:
                lat, lon = ck.number(raw["lat"], f"{e}.lat"), ck.number(raw["lon"], f"{e}.lon")
            else:
                raise ck.fail(e, "missing field 'place' (or 'lat' and 'lon', or 'at')")
            side = ck.choice(raw["side"], SIDES, f"{e}.side") if "side" in raw else None
            number = ck.integer(raw["number"], f"{e}.number", 1) if "number" in raw else None
            if kind == "start" and side is not None and number is not None:
                if (side, number) in starts:
                    raise ck.fail(
                        e, f"start number {side} {number} reused (first in {starts[side, number]})"
                    )
                starts[side, number] = e
            features.append(
                Feature(
                    kind,
                    lat,
                    lon,
                    e,
                    side,
                    number,
                    ck.boolean(raw.get("reserve", False), f"{e}.reserve"),
                    ck.string(raw["note"], f"{e}.note") if "note" in raw else "",
                    at,
                    raw.get("place"),
                )
            )
    edges = []
    for i, raw in enumerate(ck.items(data, "supply")):
        e = f"supply[{i}]"
        ck.keys(raw, ("edge", "first", "last"), ("note",), e)
        edge = ck.choice(raw["edge"], ("west", "south"), f"{e}.edge")
        edges.append((edge, ck.integer(raw["first"], e, 1), ck.integer(raw["last"], e, 1)))
    corrections = _load_corrections(corrections_path)
    return MapFeatures(
        ck.string(head["name"], "map.name"),
        ck.integer(head["columns"], "map.columns", 1),
        ck.integer(head["rows"], "map.rows", 1),
        tuple(features),
        tuple(edges),
        corrections,
    )


def _load_corrections(path: str | Path | None) -> tuple[Correction, ...]:
    data, source = read_data_file(path if path is not None else data_path("map_corrections.toml"))
    ck = Checker(source)

    def hex_at(v: object, entry: str) -> Hex:
        try:
            return parse_label(ck.string(v, entry))
        except ValueError as e:
            raise ck.fail(entry, str(e)) from None

    out = []
    for i, raw in enumerate(ck.items(data, "correction")):
        e = f"correction[{i}]"
        ck.keys(raw, ("reason",), ("at", "terrain", "between", "add", "remove", "feature", "to"), e)
        reason = ck.string(raw["reason"], f"{e}.reason")
        if "terrain" in raw:
            ck.keys(raw, ("reason", "at", "terrain"), (), e)
            out.append(
                Correction(
                    e, reason, at=hex_at(raw["at"], f"{e}.at"), terrain=ck.string(raw["terrain"], e)
                )
            )
        elif "between" in raw:
            ck.keys(raw, ("reason", "between"), ("add", "remove"), e)
            b = raw["between"]
            if not isinstance(b, list) or len(b) != 2:
                raise ck.fail(f"{e}.between", "bad hexside: expected two labels")
            a, c = hex_at(b[0], f"{e}.between[0]"), hex_at(b[1], f"{e}.between[1]")
            if a.distance(c) != 1:
                raise ck.fail(f"{e}.between", f"bad hexside: {b[0]} and {b[1]} are not adjacent")
            out.append(
                Correction(
                    e,
                    reason,
                    between=(min(a, c), max(a, c)),
                    add=tuple(ck.str_list(raw.get("add", []), f"{e}.add")),
                    remove=tuple(ck.str_list(raw.get("remove", []), f"{e}.remove")),
                )
            )
        elif "feature" in raw:
            ck.keys(raw, ("reason", "feature", "to"), (), e)
            out.append(
                Correction(
                    e,
                    reason,
                    move_feature=ck.string(raw["feature"], f"{e}.feature"),
                    to=hex_at(raw["to"], f"{e}.to"),
                )
            )
        else:
            raise ck.fail(e, "missing field: give 'terrain', 'between' or 'feature'")
    return tuple(out)


# -- plane geometry --------------------------------------------------------------------------


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether segments ``p1-p2`` and ``q1-q2`` properly intersect.

    >>> segments_cross((0, 0), (2, 0), (1, -1), (1, 1))
    True
    >>> segments_cross((0, 0), (1, 0), (2, -1), (2, 1))
    False
    """
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def _crosses(a: Point, b: Point, pts: Sequence[Point]) -> bool:
    """Whether segment ``a-b`` crosses the polyline ``pts``."""
    return any(segments_cross(a, b, q1, q2) for q1, q2 in itertools.pairwise(pts))


def _polyline_km(proj: Projection, line: Line) -> list[Point]:
    """The polyline in plane km, extended to beyond the map where the river runs off it."""
    pts = [proj.to_km(lat, lon) for lat, lon in line.points]
    if "downstream" in line.runs_off:
        pts = _extend(pts, _RUN_OFF_KM)
    if "upstream" in line.runs_off:
        pts = _extend(pts[::-1], _RUN_OFF_KM)[::-1]
    return pts


def _nearest_on(pts: Sequence[Point], p: Point) -> tuple[float, float]:
    """Distance from ``p`` to the polyline and the signed side (< 0: left of the flow)."""
    best = (math.inf, 0.0)
    for a, b in itertools.pairwise(pts):
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
        n = (a[0] + t * dx, a[1] + t * dy)
        d = math.hypot(p[0] - n[0], p[1] - n[1])
        if d < best[0]:
            best = (d, dx * (p[1] - n[1]) - dy * (p[0] - n[0]))
    return best


def _extend(pts: list[Point], km: float) -> list[Point]:
    """The polyline with its last segment extended by ``km`` (the river runs on)."""
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    n = math.hypot(bx - ax, by - ay)
    return [*pts, (bx + (bx - ax) / n * km, by + (by - ay) / n * km)]


def _trace(proj: Projection, line: Line) -> list[Hex]:
    """The hexes a polyline passes through, in order, consecutive hexes adjacent."""
    out: list[Hex] = []
    pts = line.points
    for (la1, lo1), (la2, lo2) in itertools.pairwise(pts):
        steps = max(1, math.ceil(proj.km_between(la1, lo1, la2, lo2) / _SAMPLE_KM))
        for k in range(steps + 1):
            t = k / steps
            h = proj.to_hex(la1 + (la2 - la1) * t, lo1 + (lo2 - lo1) * t)
            if out and h == out[-1]:
                continue
            if out and out[-1].distance(h) > 1:
                out.extend(out[-1].line_to(h)[1:-1])
            out.append(h)
    return out


def _runs(trace: Sequence[Hex], land: set[Hex]) -> list[tuple[Hex, Hex]]:
    """The first and last hexes of each stretch of ``trace`` on land (2 hexes or more)."""
    out: list[tuple[Hex, Hex]] = []
    run: list[Hex] = []
    for step in [*trace, None]:
        if step is not None and step in land:
            run.append(step)
            continue
        if len(run) >= 2:
            out.append((run[0], run[-1]))
        run = []
    return out


def _route(
    proj: Projection,
    geo: Geography,
    line: Line,
    run: tuple[Hex, Hex],
    bridges: Sequence[Bridge],
    land: set[Hex],
    hexsides: dict[tuple[Hex, Hex], set[str]],
    centre: dict[Hex, Point],
) -> list[Hex]:
    """The hexes of a railway or road from ``run[0]`` to ``run[1]``, crossing rivers only
    at the line's bridges (docs/stalingrad/map.md, rule 4).

    The chain is the cheapest simple path through land hexes, a hex costing more the
    farther its centre lies from the line's polyline, that never steps across a river
    hexside except at a bridge: the river hexside nearest each bridge point, taken in
    the order of the bridges along the polyline. The hex of a polyline point (a station,
    a town) next to two consecutive hexes of the chain, on their bank, is then put
    between them. A polyline that runs beside a river therefore stays on one bank, and
    no hex is visited twice (no spurs).
    """
    pts = [proj.to_km(lat, lon) for lat, lon in line.points]
    start, end = run
    forward = _arc_position(pts, centre[start]) <= _arc_position(pts, centre[end])
    crossings: list[tuple[float, tuple[Hex, Hex]]] = []
    for bridge in bridges:
        p = proj.to_km(bridge.lat, bridge.lon)
        side = _bridge_side(geo.line(bridge.river), p, hexsides, centre, line.id)
        crossings.append((_arc_position(pts, p), side))
    crossings.sort(key=lambda c: c[0] if forward else -c[0])
    weight = {h: 1.0 + (_nearest_on(pts, centre[h])[0] / proj.hex_km) ** 2 for h in land}
    chain = [start]
    for _pos, (a, b) in crossings:
        leg = _cheapest(chain, [a, b], land, hexsides, weight)
        far = None if leg is None else b if leg[-1] == a else a
        if leg is None or far is None or far in chain:
            raise ValueError(f"{line.id}: no path over the bridge {label(a)}-{label(b)}")
        chain += [*leg[1:], far]
    leg = _cheapest(chain, [end], land, hexsides, weight)
    if leg is None:
        raise ValueError(f"{line.id}: no path to {label(end)} without crossing a river")
    chain += leg[1:]
    # Through the hexes of the line's own points (stations, towns) next to two consecutive
    # hexes of the chain on the same bank: one step out of the way.
    for stop in (proj.to_hex(lat, lon) for lat, lon in line.points):
        if stop in chain or stop not in land:
            continue
        for i, (a, b) in enumerate(itertools.pairwise(chain)):
            sides = ((min(a, stop), max(a, stop)), (min(stop, b), max(stop, b)))
            if a.distance(stop) == b.distance(stop) == 1 and not set(sides) & hexsides.keys():
                chain.insert(i + 1, stop)
                break
    return chain


def _arc_position(pts: Sequence[Point], p: Point) -> float:
    """How far along the polyline (km) the point nearest ``p`` lies."""
    best, pos, walked = math.inf, 0.0, 0.0
    for a, b in itertools.pairwise(pts):
        dx, dy = b[0] - a[0], b[1] - a[1]
        n2 = dx * dx + dy * dy
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n2))
        d = math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)
        if d < best:
            best, pos = d, walked + t * math.sqrt(n2)
        walked += math.sqrt(n2)
    return pos


def _bridge_side(
    river: Line,
    p: Point,
    hexsides: dict[tuple[Hex, Hex], set[str]],
    centre: dict[Hex, Point],
    line_id: str,
) -> tuple[Hex, Hex]:
    """The hexside carrying ``river``'s feature nearest the bridge point ``p``."""

    def gap(side: tuple[Hex, Hex]) -> float:
        (ax, ay), (bx, by) = centre[side[0]], centre[side[1]]
        return math.hypot((ax + bx) / 2 - p[0], (ay + by) / 2 - p[1])

    sides = sorted(s for s, fs in hexsides.items() if river.feature in fs)
    best = min(sides, key=gap, default=None)
    if best is None or gap(best) > _BRIDGE_REACH_KM:
        raise ValueError(f"{line_id}: no {river.id} hexside within {_BRIDGE_REACH_KM} km")
    return best


def _cheapest(
    used: Sequence[Hex],
    targets: Sequence[Hex],
    land: set[Hex],
    hexsides: dict[tuple[Hex, Hex], set[str]],
    weight: dict[Hex, float],
) -> list[Hex] | None:
    """The cheapest path from ``used[-1]`` to one of ``targets`` through land hexes not in
    ``used``, crossing no river hexside (Dijkstra; ties broken by hex coordinates)."""
    source, blocked, goal = used[-1], set(used[:-1]), set(targets)
    dist: dict[Hex, float] = {source: 0.0}
    back: dict[Hex, Hex] = {}
    heap: list[tuple[float, Hex]] = [(0.0, source)]
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist[h]:
            continue
        if h in goal:
            out = [h]
            while out[-1] != source:
                out.append(back[out[-1]])
            return out[::-1]
        for n in h.neighbors():
            if n not in land or n in blocked or (min(h, n), max(h, n)) in hexsides:
                continue
            nd = d + weight[n]
            if nd < dist.get(n, math.inf):
                dist[n], back[n] = nd, h
                heapq.heappush(heap, (nd, n))
    return None


# -- the plan --------------------------------------------------------------------------------


@attrs.frozen
class MapPlan:
    """Everything the map file says, before it is written as text."""

    name: str
    columns: int
    rows: int
    terrain: dict[Hex, str]
    names: dict[Hex, str]
    tags: dict[Hex, set[str]]
    hexsides: dict[tuple[Hex, Hex], set[str]]
    paths: list[tuple[str, str, list[Hex]]]


def plan_map(
    geo: Geography | None = None, feats: MapFeatures | None = None, proj: Projection = THEATRE
) -> MapPlan:
    """Project the geography and features onto the hex grid and apply the corrections."""
    geo = geo if geo is not None else load_geography()
    feats = feats if feats is not None else load_features()
    cells = rectangle(feats.columns, feats.rows, OFFSET)
    on_map = set(cells)
    terrain = dict.fromkeys(cells, "steppe")
    names: dict[Hex, str] = {}
    tags: dict[Hex, set[str]] = {h: set() for h in cells}
    centre = {h: proj.center_km(h) for h in cells}

    links = sorted({(min(a, b), max(a, b)) for a in cells for b in a.neighbors() if b in on_map})
    # The Volga: every hex on the east (left) bank next to a link that crosses the river.
    for river in geo.section("river"):
        if river.kind != "volga":
            continue
        pts = _polyline_km(proj, river)
        for a, b in links:
            if _crosses(centre[a], centre[b], pts):
                for h in (a, b):
                    if _nearest_on(pts, centre[h])[1] < 0:
                        terrain[h] = "volga"
    for lake in geo.lakes:
        h = proj.to_hex(lake.lat, lake.lon)
        if h in on_map:
            terrain[h] = "lake"
            names[h] = f"{lake.name} / {lake.name_ru}"
    # Places: name the hex after its most important place; city and town terrain.
    rank = {"city": 0, "town": 1, "village": 2}
    best: dict[Hex, int] = {}
    moves = {c.move_feature: c.to for c in feats.corrections if c.move_feature is not None}
    place_hex: dict[str, Hex] = {}
    for p in geo.places:
        h = moves.get(f"place:{p.id}") or proj.to_hex(p.lat, p.lon)
        place_hex[p.id] = h
        if h not in on_map:
            continue
        tags[h].add(f"place:{p.id}")
        if p.kind in _FORT_KINDS and terrain[h] != "city":
            terrain[h] = _FORT_KINDS[p.kind]
        if h not in best or rank[p.kind] < best[h]:
            best[h] = rank[p.kind]
            names[h] = f"{p.name} / {p.name_ru}"
        if p.airfield is not None:
            tags[h].add(f"airfield:{p.airfield}")
    for trench in geo.section("trench"):
        for h in _trace(proj, trench):
            if h in on_map and terrain[h] not in ("volga", "lake"):
                tags[h].add("trench")

    # Rivers as hexside features.
    hexsides: dict[tuple[Hex, Hex], set[str]] = {}
    for river in geo.section("river"):
        if river.kind == "volga" or river.feature is None:
            continue
        pts = _polyline_km(proj, river)
        for a, b in links:
            if _crosses(centre[a], centre[b], pts):
                hexsides.setdefault((a, b), set()).add(river.feature)

    for c in feats.corrections:
        if c.between is not None:
            fs = hexsides.setdefault(c.between, set())
            fs |= set(c.add)
            fs -= set(c.remove)
            if not fs:
                del hexsides[c.between]

    # Railways and roads: chains of on-map hexes that cross rivers only at their bridges.
    land = {h for h in cells if terrain[h] not in ("volga", "lake")}
    river_sides = frozenset(hexsides)
    paths: list[tuple[str, str, list[Hex]]] = []
    for section in ("rail", "road"):
        for line in geo.section(section):
            pts = [proj.to_km(lat, lon) for lat, lon in line.points]
            runs = _runs(_trace(proj, line), land)
            spans = [sorted(_arc_position(pts, centre[h]) for h in run) for run in runs]
            mine: list[list[Bridge]] = [[] for _ in runs]
            for bridge in line.bridges:  # each bridge to the stretch of the line it is on
                pos = _arc_position(pts, proj.to_km(bridge.lat, bridge.lon))
                gaps = [max(lo - pos, pos - hi, 0.0) for lo, hi in spans]
                if gaps:
                    mine[gaps.index(min(gaps))].append(bridge)
            for run, bridges in zip(runs, mine, strict=True):
                chain = _route(proj, geo, line, run, bridges, land, hexsides, centre)
                paths.append((section, line.id, chain))
    for _section, _id, chain in paths:
        for a, b in itertools.pairwise(chain):
            if (min(a, b), max(a, b)) in river_sides:
                hexsides[min(a, b), max(a, b)].add("bridge")

    # Game features.
    for f in feats.features:
        moved = f"start:{f.side}:{f.number}" if f.kind == "start" else ""
        h = moves.get(moved) or f.at or place_hex.get(f.place or "") or proj.to_hex(f.lat, f.lon)
        if h not in on_map:
            raise ValueError(f"{f.entry}: {f.kind} at {f.lat}, {f.lon} is off the map")
        if f.kind == "crossing":
            terrain[h] = "volga_crossing"
            tags[h].add("crossing")
        elif f.kind == "start":
            tags[h].add(f"start:{f.side}:{f.number}")
            if f.reserve:
                tags[h].add(f"reserve:{f.side}")
        else:
            tags[h].add(f"{f.kind}:{f.side}")
    for edge, first, last in feats.supply_edges:
        for k in range(first - 1, last):
            col, row = (0, k) if edge == "west" else (k, feats.rows - 1)
            tags[offset_to_hex(col, row, OFFSET)].add("supply:wehrmacht")

    # Hand corrections come last.
    for c in feats.corrections:
        if c.terrain is not None and c.at is not None:
            terrain[c.at] = c.terrain
    return MapPlan(feats.name, feats.columns, feats.rows, terrain, names, tags, hexsides, paths)


# -- writing ---------------------------------------------------------------------------------


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _labels(hexes: Iterable[Hex]) -> str:
    return "[" + ", ".join(_q(label(h)) for h in hexes) + "]"


def render_plan(plan: MapPlan) -> str:
    """The map file text; cells, hexsides and paths in a fixed, sorted order."""
    out = [
        "# GENERATED by tools/build_stalingrad_map.py from geography.toml, map_features.toml",
        "# and map_corrections.toml. Do not edit by hand: edit those files and re-run the script.",
        "",
        "[map]",
        f"name = {_q(plan.name)}",
        'grid = "hex"',
        'shape = "rectangle"',
        f"columns = {plan.columns}",
        f"rows = {plan.rows}",
        f"offset = {_q(OFFSET)}",
        'default_terrain = "steppe"',
    ]

    def order(h: Hex) -> tuple[int, int]:
        c = hex_to_offset(h, OFFSET)
        col, row = c.col, c.row
        return row, col

    for h in sorted(plan.terrain, key=order):
        t, tags, name = plan.terrain[h], sorted(plan.tags[h]), plan.names.get(h)
        if t == "steppe" and not tags and name is None:
            continue
        out += ["", "[[cells]]", f"at = {_q(label(h))}"]
        if t != "steppe":
            out.append(f"terrain = {_q(t)}")
        if name is not None:
            out.append(f"name = {_q(name)}")
        if tags:
            out.append("tags = [" + ", ".join(_q(x) for x in tags) + "]")
    for a, b in sorted(plan.hexsides, key=lambda ab: (order(ab[0]), order(ab[1]))):
        fs = ", ".join(_q(f) for f in sorted(plan.hexsides[a, b]))
        out += ["", "[[hexsides]]", f"between = {_labels((a, b))}", f"features = [{fs}]"]
    for section, line_id, run in plan.paths:
        out += ["", "[[paths]]", f"# {line_id}", f"feature = {_q(section)}"]
        out.append(f"cells = {_labels(run)}")
    return "\n".join(out) + "\n"


def build_map_text() -> str:
    """The shipped ``map.toml``, rebuilt from the source files."""
    return render_plan(plan_map())


def ascii_map(plan: MapPlan) -> str:
    """A rough text picture of the plan, for checking by eye (``.`` steppe, ``~`` Volga...)."""
    glyph = {
        "steppe": ".",
        "town": "t",
        "city": "C",
        "volga": "~",
        "volga_crossing": "=",
        "lake": "o",
    }
    rows = []
    for row in range(plan.rows):
        line = " " if row & 1 else ""
        for col in range(plan.columns):
            h = offset_to_hex(col, row, OFFSET)
            g = glyph[plan.terrain[h]]
            starts = [t for t in plan.tags[h] if t.startswith("start:")]
            if starts:
                g = "R" if starts[0].startswith("start:rkka") else "W"
            line += g + " "
        rows.append(f"{row + 1:02d} " + line)
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> Any:
    """Write the map file (default: the packaged ``map.toml``)."""
    target = Path(argv[0]) if argv else data_path("map.toml")
    target.write_text(build_map_text(), encoding="utf-8")
    return target
