"""A scenario of «Сталинград» as data: a directory of data files, loaded and cross-checked.

The shipped scenario is ``hexwar_stalingrad/data``; a copy of that directory, edited, is a
scenario of its own (``docs/stalingrad/variants.md``). :func:`load_scenario` reads every
file the rules use — ``terrain.toml``, ``map.toml``, ``oob.toml``, ``cards.toml``,
``tables.toml`` (the ground CRT, which air combat also uses, and the bombardment table),
``turns.toml``, ``victory.toml`` — through its validated loader, holds every file to the
stated size limits (:data:`LIMITS`), and cross-checks them: every start number on the map
used by exactly one counter and vice versa, one unit per start hex, start hexes passable,
turn-6 units on reserve markers, air bases on own airfields, ids usable as action tokens
and distinct, fronts known to the seats (S3.1), the victory area and supply sources on
the map (S11), card effects naming known terrain. The map builder's sources
(``geography.toml``, ``map_features.toml``, ``map_corrections.toml``) are optional; the
rules never read them (``map.toml`` is their product), so they are only parsed and held
to the size limits here — the builder (``tools/stalingrad_map``) checks their content.
An optional ``scenario.toml`` names the scenario (``name``, ``title``). Any other
``.toml`` file is refused (a misspelt file name would otherwise go unread). A failure is
a :class:`hexwar.base.errors.DataError` naming the file and the entry.

>>> sc = load_scenario()
>>> sc.game_map.label(sc.start_hex(sc.oob.ground_unit("r-26tc")))
'1004'
>>> sc.is_fortification(sc.place_hex("stalingrad"))
True
>>> sc.name, len(sc.digest)
('default', 64)
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.base.errors import DataError
from hexwar.board.map_load import map_from_dict
from hexwar.board.maps import GameMap
from hexwar.board.terrain import TerrainChart, chart_from_dict
from hexwar.grid.geometry import Hex
from hexwar.mechanics.crt import OddsTable, StrengthTable
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.cards import Card, cards_from_dict, check_decks
from hexwar_stalingrad.static import Static, VictoryData, victory_from_dict
from hexwar_stalingrad.tables import as_air_crt, tables_from_dict
from hexwar_stalingrad.turns import Turn, turns_from_dict
from hexwar_stalingrad.units import (
    FRONTS,
    SIDES,
    AirUnit,
    GroundUnit,
    OrderOfBattle,
    oob_from_dict,
)

__all__ = [
    "DATA_FILES",
    "FORTIFICATION_TERRAINS",
    "LIMITS",
    "RESERVED_TOKENS",
    "SHIPPED_NAME",
    "SOURCE_FILES",
    "Scenario",
    "data_digest_of",
    "load_scenario",
    "shipped_data_dir",
]

FORTIFICATION_TERRAINS: Final = frozenset({"town", "city"})
"""S9.2: towns and Stalingrad city hexes are fortifications (and trench hexes)."""

#: The files the rules read: every one must be in a scenario directory.
DATA_FILES: Final = (
    "terrain.toml",
    "map.toml",
    "oob.toml",
    "cards.toml",
    "tables.toml",
    "turns.toml",
    "victory.toml",
)
#: The map builder's sources (``tools/build_stalingrad_map.py``): optional, parsed if there.
SOURCE_FILES: Final = ("geography.toml", "map_features.toml", "map_corrections.toml")
#: The optional file naming the scenario.
NAME_FILE: Final = "scenario.toml"
#: The name of the shipped scenario (and of a scenario without ``scenario.toml``).
SHIPPED_NAME: Final = "default"

#: Stated size limits of a scenario (the shipped one is far inside each): a file beyond
#: one is refused at load, naming the file and the entry, instead of exhausting memory
#: or time in play.
LIMITS: Final[Mapping[str, int]] = {
    "file_bytes": 1_000_000,  # size of one data file
    "depth": 8,  # nesting of tables and arrays
    "items": 10_000,  # entries of one table or array
    "text": 4_000,  # characters of one string
    "number": 1_000_000,  # magnitude of any number
    "map_cells": 10_000,  # hexes of the map (the shipped map: 33 x 35 = 1,155)
    "counters": 1_000,  # ground and air counters
    "cards": 300,  # action cards
    "strength": 99,  # a counter's (ground or air) strength
    "movement": 30,  # a counter's movement allowance
    "cost": 30,  # a movement cost on the terrain chart or in a card effect
}
#: The cell tags of the map (``docs/stalingrad/map.md``) and what follows the colon:
#: ``side`` (``airfield:rkka``), ``id`` (``place:kalach``), ``start`` (``start:rkka:12``)
#: or nothing (``trench``).
TAGS: Final[Mapping[str, str]] = {
    "airfield": "side",  # S10.7
    "crossing": "",  # a Volga crossing (S6.6)
    "place": "id",  # a named place of the source geography
    "reserve": "side",  # a turn-6 reserve marker (S4.2)
    "start": "start",  # a numbered start hex (S3.2)
    "supply": "side",  # a supply source (ruling S11.1)
    "trench": "",  # a fortification (S9.2)
    "truck": "side",  # a replacement hex (S4.1)
}
#: Ids are action tokens (``move r-26tc 1004``): a letter or digit, then letters, digits
#: and ``_ . + -``, at most 48 characters.
ID_RE: Final = re.compile(r"[a-z0-9][a-z0-9_.+-]{0,47}")
#: Tokens an action uses for itself: a counter or card with one of these ids would make
#: an action text ambiguous (``advance none``, the closing ``done``).
RESERVED_TOKENS: Final = frozenset(
    {"done", "none", "end", "pool", "dead", "gone", "aloft", "full", "reduced", *SIDES} | {"common"}
)


@attrs.frozen(eq=False)
class Scenario:
    """Every piece of a scenario, loaded and cross-checked."""

    chart: TerrainChart
    game_map: GameMap[Hex]
    oob: OrderOfBattle
    cards: tuple[Card, ...]
    crt: OddsTable
    air_crt: OddsTable
    bombardment: StrengthTable
    turns: tuple[Turn, ...]
    victory: VictoryData = attrs.field(kw_only=True)
    #: ``scenario.toml``'s name, else :data:`SHIPPED_NAME`; a record's ``scenario`` field.
    name: str = attrs.field(kw_only=True, default=SHIPPED_NAME)
    title: str = attrs.field(kw_only=True, default="")
    #: SHA-256 of the directory's data files (:func:`data_digest_of`).
    digest: str = attrs.field(kw_only=True, default="")
    path: Path | None = attrs.field(kw_only=True, default=None)

    def start_hex(self, unit: GroundUnit) -> Hex:
        """The hex carrying the unit's side and start number (S3.2, S4.2)."""
        return self.game_map.tagged(f"start:{unit.side}:{unit.start}")[0]

    def place_hex(self, place: str) -> Hex:
        """The hex of a named place from the source geography (``KeyError`` if none)."""
        cells = self.game_map.tagged(f"place:{place}")
        if not cells:
            raise KeyError(place)
        return cells[0]

    def base_hex(self, unit: AirUnit) -> Hex:
        """The airfield an air unit starts on: a place id or ``@label``."""
        if unit.base.startswith("@"):
            return self.game_map.cell_at(unit.base[1:])
        return self.place_hex(unit.base)

    def is_fortification(self, cell: Hex) -> bool:
        """Trench, town or city hex (S9.2)."""
        return self.game_map.terrain(
            cell
        ) in FORTIFICATION_TERRAINS or "trench" in self.game_map.tags(cell)

    def city_hexes(self) -> list[Hex]:
        """The Stalingrad city hexes (S11.1)."""
        return [c for c in self.game_map if self.game_map.terrain(c) == "city"]

    def supply_sources(self) -> list[Hex]:
        """Wehrmacht supply-source hexes (ruling S11.1)."""
        return self.game_map.tagged("supply:wehrmacht")

    def airfields(self, side: str) -> list[Hex]:
        """The side's airfield hexes (S10.7)."""
        return self.game_map.tagged(f"airfield:{side}")

    def truck_hexes(self, side: str) -> list[Hex]:
        """The side's replacement (truck) hexes (S4.1)."""
        return self.game_map.tagged(f"truck:{side}")

    def initial_positions(self) -> dict[Hex, GroundUnit]:
        """Hex -> ground unit for the units on the map at the start (S3.2)."""
        return {self.start_hex(u): u for u in self.oob.ground if u.arrives == 1}

    def static(self) -> Static:
        """The compiled data the rules read (:class:`~hexwar_stalingrad.static.Static`)."""
        return Static(
            self.game_map,
            {u.id: u for u in self.oob.ground},
            {a.id: a for a in self.oob.air},
            {c.id: c for c in self.cards},
            self.crt,
            self.bombardment,
            self.turns,
            self.victory,
            self.air_crt,
            name=self.name,
            digest=self.digest,
        )


# -- size limits -------------------------------------------------------------------------------


def _limits(value: object, ck: Checker, entry: str, depth: int = 0) -> None:
    """Hold parsed data to :data:`LIMITS` (depth, items, text, numbers)."""
    if depth > LIMITS["depth"]:
        raise ck.fail(entry, f"nested deeper than {LIMITS['depth']} levels (size limit)")
    if isinstance(value, str):
        if len(value) > LIMITS["text"]:
            raise ck.fail(entry, f"a text of {len(value)} characters (limit {LIMITS['text']})")
    elif isinstance(value, bool):
        return
    elif isinstance(value, int | float):
        if not math.isfinite(value) or abs(value) > LIMITS["number"]:
            raise ck.fail(entry, f"number {value!r} beyond ±{LIMITS['number']:,} (size limit)")
    elif isinstance(value, dict | list):
        if len(value) > LIMITS["items"]:
            raise ck.fail(entry, f"{len(value)} entries (limit {LIMITS['items']:,})")
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in pairs:
            if isinstance(k, str) and len(k) > LIMITS["text"]:
                raise ck.fail(entry, f"a key of {len(k)} characters (limit {LIMITS['text']})")
            _limits(v, ck, f"{entry}.{k}" if isinstance(k, str) else f"{entry}[{k}]", depth + 1)


def _read(path: Path) -> tuple[dict[str, Any], str]:
    source = str(path)
    if not path.is_file():
        raise DataError("missing data file (every scenario has it)", source=source)
    size = path.stat().st_size
    if size > LIMITS["file_bytes"]:
        raise DataError(
            f"{size:,} bytes (limit {LIMITS['file_bytes']:,} per data file)", source=source
        )
    data, source = read_data_file(path)
    ck = Checker(source)
    for key, value in sorted(data.items()):
        _limits(value, ck, key)
    return data, source


def _map_size(data: Mapping[str, Any], source: str) -> None:
    """The map's stated size before it is built (a huge map is refused, not allocated)."""
    head = data.get("map", {})
    if not isinstance(head, dict):
        return  # the map loader names the error
    limit = LIMITS["map_cells"]
    shape = head.get("shape", "rectangle")
    cols, rows, radius = head.get("columns"), head.get("rows"), head.get("radius")
    cells: int | None = None
    if shape == "rectangle" and isinstance(cols, int) and isinstance(rows, int):
        cells = cols * rows
    elif shape == "hexagon" and isinstance(radius, int):
        cells = 3 * radius * (radius + 1) + 1
    elif shape == "cells" and isinstance(data.get("cells"), list):
        cells = len(data["cells"])
    if cells is not None and cells > limit:
        raise DataError(f"a map of {cells:,} hexes (limit {limit:,})", source=source, entry="map")


# -- cross-checks ---------------------------------------------------------------------------------


def _check_ids(oob: OrderOfBattle, cards: Iterable[Card]) -> None:
    """Ids are action tokens, not reserved words, unique across counters and cards."""
    seen: dict[str, str] = {}
    named = [
        *((u.id, "oob.toml", f"ground {u.id}") for u in oob.ground),
        *((a.id, "oob.toml", f"air {a.id}") for a in oob.air),
        *((c.id, "cards.toml", f"card {c.id}") for c in cards),
    ]
    for id_, source, where in named:
        if not ID_RE.fullmatch(id_):
            raise DataError(
                f"id {id_[:60]!r} is not a token: lowercase letters, digits and _ . + -, "
                "starting with a letter or digit, at most 48 characters (ids appear in "
                "action texts)",
                source=source,
                entry=where,
            )
        if id_ in RESERVED_TOKENS:
            raise DataError(
                f"id {id_!r} is a word actions use themselves", source=source, entry=where
            )
        if id_ in seen:
            raise DataError(f"id {id_!r} is also {seen[id_]}", source=source, entry=where)
        seen[id_] = where
    counters = len(oob.ground) + len(oob.air)
    if counters > LIMITS["counters"]:
        raise DataError(
            f"{counters} counters (limit {LIMITS['counters']})", source="oob.toml", entry="ground"
        )


def _check_counters(oob: OrderOfBattle, chart: TerrainChart) -> None:
    """Sizes (strength, movement), fronts (S3.1), movement classes (S6.6), both sides."""
    for u in oob.ground:
        where = f"ground {u.id}"
        for what, pair, limit in (
            ("strength", u.strength, LIMITS["strength"]),
            ("movement", u.movement, LIMITS["movement"]),
        ):
            if pair.full > limit:
                raise DataError(
                    f"{what} {pair.full} beyond {limit} (size limit)",
                    source="oob.toml",
                    entry=f"{where}.{what}",
                )
        if u.front not in FRONTS[u.side]:
            raise DataError(
                f"unknown {u.side} front {u.front!r} (S3.1 seats: {list(FRONTS[u.side])})",
                source="oob.toml",
                entry=f"{where}.front",
            )
        if u.movement_class not in chart.movement_classes:
            raise DataError(
                f"the terrain chart has no movement class {u.movement_class!r} for a {u.arm}",
                source="oob.toml",
                entry=f"{where}.arm",
            )
    for a in oob.air:
        if a.strength.full > LIMITS["strength"]:
            raise DataError(
                f"strength {a.strength.full} beyond {LIMITS['strength']} (size limit)",
                source="oob.toml",
                entry=f"air {a.id}.strength",
            )
    for side in SIDES:
        if not oob.side(side):
            raise DataError(f"no {side} ground unit", source="oob.toml", entry="ground")


def _check_chart(chart: TerrainChart) -> None:
    """Movement costs within :data:`LIMITS` (S6.6)."""
    limit = LIMITS["cost"]
    for name in sorted(chart.movement_classes):
        mc = chart.movement_classes[name]
        costs = [
            *((f"terrain.{k}", mc.terrain[k]) for k in sorted(mc.terrain)),
            *((f"hexside.{k}", mc.hexside[k].cost) for k in sorted(mc.hexside)),
            *((f"along.{k}", mc.along[k]) for k in sorted(mc.along)),
        ]
        for key, cost in costs:
            if cost is not None and cost > limit:
                raise DataError(
                    f"cost {cost} beyond {limit} (size limit)",
                    source="terrain.toml",
                    entry=f"movement.{name}.{key}",
                )


def _check_map(game_map: GameMap[Hex], victory: VictoryData) -> None:
    """S11: a city to hold, supply sources to trace to, an area radius the map can hold."""
    if not any(game_map.terrain(c) == "city" for c in game_map):
        raise DataError("no city hex (S11.1 needs Stalingrad)", source="map.toml", entry="cells")
    if not game_map.tagged("supply:wehrmacht"):
        raise DataError(
            "no 'supply:wehrmacht' hex (ruling S11.1 traces to one)",
            source="map.toml",
            entry="cells",
        )
    cells = list(game_map)
    span = max(a.distance(cells[0]) for a in cells) * 2
    if victory.area_radius > span:
        raise DataError(
            f"area radius {victory.area_radius} beyond the map's span {span} (ruling S11.1)",
            source="victory.toml",
            entry="area_radius",
        )


def _check_tags(game_map: GameMap[Hex]) -> None:
    """Every cell tag is one of :data:`TAGS` (a side where it names one); a place is on
    one hex."""
    places: dict[str, str] = {}
    for cell in game_map:
        label = game_map.label(cell)
        for tag in sorted(game_map.tags(cell)):
            kind, _, rest = tag.partition(":")
            if kind not in TAGS:
                raise DataError(
                    f"unknown tag {tag[:60]!r} (tags: {', '.join(TAGS)})",
                    source="map.toml",
                    entry=label,
                )
            if TAGS[kind] == "side" and rest not in SIDES:
                raise DataError(f"unknown side in tag {tag!r}", source="map.toml", entry=label)
            if TAGS[kind] == "id" and not ID_RE.fullmatch(rest):
                raise DataError(f"bad place id in tag {tag!r}", source="map.toml", entry=label)
            if TAGS[kind] == "" and rest:
                raise DataError(
                    f"tag {kind!r} takes no value: {tag!r}", source="map.toml", entry=label
                )
            if kind == "place":
                if rest in places:
                    raise DataError(
                        f"place {rest!r} is also on {places[rest]}", source="map.toml", entry=label
                    )
                places[rest] = label


def _check(
    game_map: GameMap[Hex], chart: TerrainChart, oob: OrderOfBattle, cards: Iterable[Card]
) -> None:
    """Cross-file consistency; raises :class:`DataError` naming the file and entry."""
    starts: dict[tuple[str, int], Hex] = {}
    for cell in game_map:
        tags = sorted(t for t in game_map.tags(cell) if t.startswith("start:"))
        if len(tags) > 1:
            raise DataError(
                f"two start numbers on one hex: {tags}",
                source="map.toml",
                entry=game_map.label(cell),
            )
        for t in tags:
            parts = t.split(":")
            if len(parts) != 3 or parts[1] not in SIDES or not parts[2].isdigit():
                raise DataError(
                    f"bad start tag {t!r} (start:SIDE:NUMBER)",
                    source="map.toml",
                    entry=game_map.label(cell),
                )
            starts[parts[1], int(parts[2])] = cell
    used: set[tuple[str, int]] = set()
    for u in oob.ground:
        key = (u.side, u.start)
        where = f"ground {u.id}"
        if key not in starts:
            raise DataError(
                f"start number {u.start} is not on the map", source="oob.toml", entry=where
            )
        cell = starts[key]
        if chart.terrains[game_map.terrain(cell)].impassable:
            raise DataError(
                f"start hex {game_map.label(cell)} is impassable", source="oob.toml", entry=where
            )
        reserve = f"reserve:{u.side}" in game_map.tags(cell)
        if reserve != (u.arrives == 6):
            raise DataError(
                f"start hex {game_map.label(cell)}: reserve marker {reserve}, arrives {u.arrives}",
                source="oob.toml",
                entry=where,
            )
        used.add(key)
    unused = sorted(set(starts) - used)
    if unused:
        raise DataError(f"start hex with no counter: {unused[0]}", source="map.toml", entry="start")
    bases: dict[tuple[Hex, int], str] = {}
    for a in oob.air:
        where = f"air {a.id}"
        try:
            cell = (
                game_map.cell_at(a.base[1:])
                if a.base.startswith("@")
                else game_map.tagged(f"place:{a.base}")[0]
            )
        except (IndexError, ValueError, KeyError):
            raise DataError(f"unknown base {a.base!r}", source="oob.toml", entry=where) from None
        if f"airfield:{a.side}" not in game_map.tags(cell):
            raise DataError(
                f"base {a.base!r} is not a {a.side} airfield", source="oob.toml", entry=where
            )
        if (cell, a.arrives) in bases:
            raise DataError(
                f"base {a.base!r} already holds {bases[cell, a.arrives]} (S10.7)",
                source="oob.toml",
                entry=where,
            )
        bases[cell, a.arrives] = a.id
    for card in cards:
        for k, eff in enumerate(card.effects):
            where = f"card {card.id}: effects[{k}]"
            terrain = eff.params.get("terrain")
            if terrain is not None and terrain not in chart.terrains:
                raise DataError(f"unknown terrain {terrain!r}", source="cards.toml", entry=where)
            mc = eff.params.get("movement_class")
            if mc is not None and mc not in chart.movement_classes:
                raise DataError(f"unknown movement class {mc!r}", source="cards.toml", entry=where)
            cost = eff.params.get("cost")
            if isinstance(cost, int | float) and cost > LIMITS["cost"]:
                raise DataError(
                    f"cost {cost} beyond {LIMITS['cost']} (size limit)",
                    source="cards.toml",
                    entry=f"{where}.cost",
                )


# -- loading ------------------------------------------------------------------------------------


def data_digest_of(directory: str | Path) -> str:
    """SHA-256 over a scenario directory's ``.toml`` files: each file's name, length and
    bytes, in name order (the digest records and save files carry)."""
    h = hashlib.sha256()
    for path in sorted(Path(directory).glob("*.toml"), key=lambda p: p.name):
        raw = path.read_bytes()
        h.update(f"{path.name}\0{len(raw)}\0".encode())
        h.update(raw)
    return h.hexdigest()


def shipped_data_dir() -> Path:
    """The directory of the shipped scenario (copy it to start a variant)."""
    return data_path("map.toml").parent


def load_scenario(data_dir: str | Path | None = None) -> Scenario:
    """Load and cross-check a scenario directory (the shipped data by default)."""
    if data_dir is None:
        return SHIPPED
    return _load(Path(data_dir))


def _name(d: Path) -> tuple[str, str]:
    path = d / NAME_FILE
    if not path.exists():
        return SHIPPED_NAME, ""
    data, source = _read(path)
    ck = Checker(source)
    ck.keys(data, ("name",), ("title", "description"), "top level")
    name = ck.string(data["name"], "name")
    if not ID_RE.fullmatch(name):
        raise ck.fail("name", f"{name[:60]!r} is not a name: lowercase letters, digits, _ . + -")
    title = ck.string(data["title"], "title") if "title" in data else ""
    if "description" in data:
        ck.string(data["description"], "description")
    return name, title


def _load(d: Path) -> Scenario:
    if not d.is_dir():
        raise DataError("not a scenario directory", source=str(d))
    known = {*DATA_FILES, *SOURCE_FILES, NAME_FILE}
    for path in sorted(d.glob("*.toml")):
        if path.name not in known:
            raise DataError(
                f"unknown data file {path.name!r} (a scenario holds {', '.join(DATA_FILES)}, "
                f"optionally {', '.join((*SOURCE_FILES, NAME_FILE))})",
                source=str(path),
            )
    name, title = _name(d)
    files = {f: _read(d / f) for f in DATA_FILES}
    chart = chart_from_dict(*files["terrain.toml"])
    _check_chart(chart)
    map_data, map_source = files["map.toml"]
    _map_size(map_data, map_source)
    game_map: GameMap[Any] = map_from_dict(map_data, chart, source=map_source)
    oob = oob_from_dict(*files["oob.toml"])
    cards = cards_from_dict(*files["cards.toml"])
    if len(cards) > LIMITS["cards"]:
        raise DataError(
            f"{len(cards)} cards (limit {LIMITS['cards']})", source="cards.toml", entry="card"
        )
    check_decks(cards)
    tables, tables_source = files["tables.toml"]
    crt, bombardment = tables_from_dict(tables, tables_source)
    turns = turns_from_dict(*files["turns.toml"])
    victory = victory_from_dict(*files["victory.toml"])
    _check_ids(oob, cards)
    _check_counters(oob, chart)
    _check_tags(game_map)
    _check(game_map, chart, oob, cards)
    _check_map(game_map, victory)
    _check_sources(d)
    return Scenario(
        chart,
        game_map,
        oob,
        cards,
        crt,
        as_air_crt(crt),
        bombardment,
        turns,
        victory=victory,
        name=name,
        title=title,
        digest=data_digest_of(d),
        path=d,
    )


def _check_sources(d: Path) -> None:
    """The map builder's sources, when the scenario has them: parsed and held to the size
    limits (the builder, ``tools/stalingrad_map``, checks their content when it runs)."""
    for f in SOURCE_FILES:
        if (d / f).exists():
            _read(d / f)


#: The shipped scenario, loaded and cross-checked when this module is imported (data, once
#: per process), and the compiled data its rulesets share.
SHIPPED: Final = _load(shipped_data_dir())
SHIPPED_STATIC: Final = SHIPPED.static()
