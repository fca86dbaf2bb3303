"""The Stalingrad scenario as data: map, terrain chart, counters, cards, tables, turn track.

:func:`load_scenario` loads every shipped data file through its validated loader (the
map, terrain chart and tables through the core's) and cross-checks them: every start
number on the map used by exactly one counter and vice versa, one unit per start hex,
start hexes passable, turn-6 units on reserve markers, air bases on own airfields, card
effects naming known terrain. A failure is a :class:`hexwar.base.errors.DataError` naming the
file and the entry.

>>> sc = load_scenario()
>>> sc.game_map.label(sc.start_hex(sc.oob.ground_unit("r-26tc")))
'1004'
>>> sc.is_fortification(sc.place_hex("stalingrad"))
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.errors import DataError
from hexwar.board.maps import GameMap, load_map
from hexwar.board.terrain import TerrainChart, load_chart
from hexwar.grid.geometry import Hex
from hexwar.mechanics.crt import OddsTable, StrengthTable
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.cards import Card, check_decks, load_cards
from hexwar_stalingrad.tables import air_crt, load_bombardment, load_crt
from hexwar_stalingrad.turns import Turn, load_turns
from hexwar_stalingrad.units import SIDES, AirUnit, GroundUnit, OrderOfBattle, load_oob

__all__ = ["FORTIFICATION_TERRAINS", "Scenario", "load_scenario"]

FORTIFICATION_TERRAINS: Final = frozenset({"town", "city"})
"""S9.2: towns and Stalingrad city hexes are fortifications (and trench hexes)."""


@attrs.frozen(eq=False)
class Scenario:
    """Every piece of the scenario, loaded and cross-checked."""

    chart: TerrainChart
    game_map: GameMap[Hex]
    oob: OrderOfBattle
    cards: tuple[Card, ...]
    crt: OddsTable
    air_crt: OddsTable
    bombardment: StrengthTable
    turns: tuple[Turn, ...]

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
            _, side, number = t.split(":")
            if side not in SIDES:
                raise DataError(
                    f"unknown side in {t!r}", source="map.toml", entry=game_map.label(cell)
                )
            starts[side, int(number)] = cell
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
        except (IndexError, ValueError):
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


def load_scenario(data_dir: str | Path | None = None) -> Scenario:
    """Load and cross-check all scenario data (the shipped files by default)."""
    if data_dir is None:
        return _load_shipped()
    return _load(Path(data_dir))


@functools.cache
def _load_shipped() -> Scenario:
    return _load(data_path("map.toml").parent)


def _load(d: Path) -> Scenario:
    chart = load_chart(d / "terrain.toml")
    game_map: GameMap[Any] = load_map(d / "map.toml", chart)
    oob = load_oob(d / "oob.toml")
    cards = load_cards(d / "cards.toml")
    check_decks(cards)
    _check(game_map, chart, oob, cards)
    return Scenario(
        chart,
        game_map,
        oob,
        cards,
        load_crt(d / "tables.toml"),
        air_crt(d / "tables.toml"),
        load_bombardment(d / "tables.toml"),
        load_turns(d / "turns.toml"),
    )
