"""The theatre's source geography: places, rivers, railways, roads, lakes, trench lines.

Loaded from ``data/geography.toml``, a copy of the coordinates in the historical
reference (the project's own, used to build the map data). The map script projects it onto
the hex grid (:mod:`tools.stalingrad_map.mapbuild`).

>>> geo = load_geography()
>>> geo.place("kalach").name_ru
'Калач'
>>> geo.line("don").points[0]
(49.59, 42.45)
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar_stalingrad._checks import data_path

__all__ = ["PLACE_KINDS", "Bridge", "Geography", "Line", "Place", "load_geography"]

PLACE_KINDS: Final = frozenset({"city", "town", "village"})
_LINE_SECTIONS: Final = ("river", "rail", "road", "trench")
_RIVER_KINDS: Final = frozenset({"volga", "river"})

LatLon = tuple[float, float]


@attrs.frozen
class Place:
    """A named point (lat, lon in WGS84 degrees). ``approx``: the reference's ±5-10 km."""

    id: str
    name: str
    name_ru: str
    lat: float
    lon: float
    kind: str
    approx: bool = False
    airfield: str | None = None


@attrs.frozen
class Bridge:
    """Where a railway or road crosses a river (reference sections 1.2 and 3).

    ``river`` is a river's id; the crossing is at ``place`` (a place id) or at ``lat``,
    ``lon``. A line crosses each river exactly at its bridges, nowhere else.
    """

    river: str
    lat: float
    lon: float
    place: str | None = None
    note: str = ""


@attrs.frozen
class Line:
    """A polyline (river, railway, road, trench line), upstream/first point first."""

    id: str
    section: str
    name: str
    points: tuple[LatLon, ...]
    name_ru: str | None = None
    kind: str | None = None
    feature: str | None = None
    runs_off: frozenset[str] = frozenset()
    bridges: tuple[Bridge, ...] = ()
    """Railways and roads: the river crossings, in no particular order."""


@attrs.frozen
class Geography:
    """All source geography, each collection sorted as in the file."""

    places: tuple[Place, ...]
    lines: tuple[Line, ...]
    lakes: tuple[Place, ...]

    def place(self, id: str) -> Place:
        """The place (or lake) called ``id``; ``KeyError`` if unknown."""
        for p in (*self.places, *self.lakes):
            if p.id == id:
                return p
        raise KeyError(id)

    def line(self, id: str) -> Line:
        """The polyline called ``id``; ``KeyError`` if unknown."""
        for line in self.lines:
            if line.id == id:
                return line
        raise KeyError(id)

    def section(self, section: str) -> tuple[Line, ...]:
        """The polylines of one section (``river``, ``rail``, ``road``, ``trench``)."""
        return tuple(line for line in self.lines if line.section == section)


def _latlon(ck: Checker, lat: object, lon: object, entry: str) -> LatLon:
    la, lo = ck.number(lat, f"{entry}.lat"), ck.number(lon, f"{entry}.lon")
    if not (-90 <= la <= 90 and -180 <= lo <= 180):
        raise ck.fail(entry, f"coordinates out of range: {la}, {lo}")
    return la, lo


def load_geography(path: str | Path | None = None) -> Geography:
    """Load and validate ``geography.toml`` (the shipped one by default)."""
    data, source = read_data_file(path if path is not None else data_path("geography.toml"))
    ck = Checker(source)
    seen: set[str] = set()

    def new_id(value: object, entry: str) -> str:
        id_ = ck.string(value, f"{entry}.id")
        if id_ in seen:
            raise ck.fail(entry, f"duplicate id {id_!r}")
        seen.add(id_)
        return id_

    places = []
    for i, raw in enumerate(ck.items(data, "place")):
        e = f"place[{i}]"
        ck.keys(raw, ("id", "name", "name_ru", "lat", "lon", "kind"), ("approx", "airfield"), e)
        lat, lon = _latlon(ck, raw["lat"], raw["lon"], e)
        airfield = raw.get("airfield")
        places.append(
            Place(
                new_id(raw["id"], e),
                ck.string(raw["name"], f"{e}.name"),
                ck.string(raw["name_ru"], f"{e}.name_ru"),
                lat,
                lon,
                ck.choice(raw["kind"], PLACE_KINDS, f"{e}.kind"),
                ck.boolean(raw.get("approx", False), f"{e}.approx"),
                None
                if airfield is None
                else ck.choice(airfield, ("rkka", "wehrmacht"), f"{e}.airfield"),
            )
        )
    lakes = []
    for i, raw in enumerate(ck.items(data, "lake")):
        e = f"lake[{i}]"
        ck.keys(raw, ("id", "name", "name_ru", "lat", "lon"), (), e)
        lat, lon = _latlon(ck, raw["lat"], raw["lon"], e)
        lakes.append(
            Place(
                new_id(raw["id"], e),
                ck.string(raw["name"], f"{e}.name"),
                ck.string(raw["name_ru"], f"{e}.name_ru"),
                lat,
                lon,
                "lake",
                approx=True,
            )
        )
    lines = []
    for section in _LINE_SECTIONS:
        for i, raw in enumerate(ck.items(data, section)):
            e = f"{section}[{i}]"
            required = ("id", "name", "points") + (
                ("kind", "name_ru", "feature") if section == "river" else ()
            )
            optional = {"river": ("runs_off",), "rail": ("bridges",), "road": ("bridges",)}
            ck.keys(raw, required, optional.get(section, ()), e)
            runs_off = frozenset(ck.str_list(raw.get("runs_off", []), f"{e}.runs_off"))
            if not runs_off <= {"upstream", "downstream"}:
                raise ck.fail(f"{e}.runs_off", f"unknown value in {sorted(runs_off)}")
            pts = raw["points"]
            if not isinstance(pts, list) or len(pts) < 2:
                raise ck.fail(f"{e}.points", "wrong type: expected a list of >= 2 [lat, lon]")
            points = []
            for j, pt in enumerate(pts):
                if not isinstance(pt, list) or len(pt) != 2:
                    raise ck.fail(f"{e}.points[{j}]", f"expected [lat, lon], got {pt!r}")
                points.append(_latlon(ck, pt[0], pt[1], f"{e}.points[{j}]"))
            lines.append(
                Line(
                    new_id(raw["id"], e),
                    section,
                    ck.string(raw["name"], f"{e}.name"),
                    tuple(points),
                    ck.string(raw["name_ru"], f"{e}.name_ru") if section == "river" else None,
                    ck.choice(raw["kind"], _RIVER_KINDS, f"{e}.kind")
                    if section == "river"
                    else None,
                    ck.string(raw["feature"], f"{e}.feature") if section == "river" else None,
                    runs_off,
                    _bridges(ck, raw.get("bridges", []), places, e),
                )
            )
    rivers = {line.id for line in lines if line.section == "river"}
    for line in lines:
        for j, b in enumerate(line.bridges):
            if b.river not in rivers:
                raise ck.fail(f"{line.id}.bridges[{j}].river", f"unknown river {b.river!r}")
    return Geography(tuple(places), tuple(lines), tuple(lakes))


def _bridges(ck: Checker, raw: object, places: list[Place], entry: str) -> tuple[Bridge, ...]:
    """The ``bridges`` of a railway or road: ``{river, place | lat + lon, note}`` tables."""
    if not isinstance(raw, list):
        raise ck.fail(f"{entry}.bridges", "wrong type: expected a list of tables")
    out = []
    by_id = {p.id: p for p in places}
    for j, b in enumerate(raw):
        e = f"{entry}.bridges[{j}]"
        b = ck.table(b, e)
        ck.keys(b, ("river",), ("place", "lat", "lon", "note"), e)
        note = ck.string(b["note"], f"{e}.note") if "note" in b else ""
        river = ck.string(b["river"], f"{e}.river")
        if "place" in b:
            ck.keys(b, ("river", "place"), ("note",), e)
            pid = ck.string(b["place"], f"{e}.place")
            if pid not in by_id:
                raise ck.fail(f"{e}.place", f"unknown place {pid!r}")
            p = by_id[pid]
            out.append(Bridge(river, p.lat, p.lon, pid, note))
        elif "lat" in b and "lon" in b:
            lat, lon = _latlon(ck, b["lat"], b["lon"], e)
            out.append(Bridge(river, lat, lon, None, note))
        else:
            raise ck.fail(e, "missing field 'place' (or 'lat' and 'lon')")
    return tuple(out)
