"""The scenario data compiled once for the rules: map, counters, cards, tables, turn track.

Everything here is immutable and shared by every game state of a ruleset; the state only
holds what changes (see ``docs/stalingrad/rules.md``). Loading goes through the data
package's loaders (``units``, ``cards``, ``tables``, ``turns``) and the core's map loader.

>>> data = load_static()
>>> data.game_map.label(data.game_map.cell_at("0912"))
'0912'
>>> data.ground["r-5ta-a"].side, data.start_hex("rkka", 1) is not None
('rkka', True)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.actions import Action
from hexwar.crt import OddsTable, StrengthTable
from hexwar.datafile import Checker, read_data_file
from hexwar.geometry import Hex
from hexwar.maps import GameMap, load_map
from hexwar.terrain import TerrainChart, load_chart
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.cards import Card, load_cards
from hexwar_stalingrad.tables import load_bombardment, load_crt
from hexwar_stalingrad.turns import Turn, load_turns
from hexwar_stalingrad.units import AirUnit, GroundUnit, load_oob

__all__ = ["FORTIFICATION_TAGS", "FORTIFICATION_TERRAINS", "Static", "load_static"]

#: Terrains and cell tags that count as fortifications for the bombardment table (S9.2).
FORTIFICATION_TERRAINS: Final = frozenset({"town", "city"})
FORTIFICATION_TAGS: Final = frozenset({"trench"})
#: The city of Stalingrad: the terrain of its hexes (S11.1).
CITY_TERRAIN: Final = "city"


@attrs.frozen(eq=False)
class Static:
    """Compiled scenario data (shared, read-only)."""

    game_map: GameMap[Any]
    ground: Mapping[str, GroundUnit]
    air: Mapping[str, AirUnit]
    cards: Mapping[str, Card]
    crt: OddsTable
    bombardment: StrengthTable
    turns: tuple[Turn, ...]
    victory: VictoryData
    _cache: dict[Any, Any] = attrs.field(factory=dict, init=False, repr=False)

    # -- cells ------------------------------------------------------------------------------

    @functools.cached_property
    def labels(self) -> Mapping[Hex, str]:
        """Every hex of the map → its label."""
        return {c: self.game_map.label(c) for c in self.game_map}

    @functools.cached_property
    def cells(self) -> Mapping[str, Hex]:
        """Every label → its hex."""
        return {lab: c for c, lab in self.labels.items()}

    def cell(self, label: str) -> Hex:
        """The hex of a map label (``KeyError`` if not on the map)."""
        return self.cells[label]

    def label(self, cell: Hex) -> str:
        """The map label of a hex (``KeyError`` if not on the map)."""
        return self.labels[cell]

    @functools.cached_property
    def neighbors(self) -> Mapping[str, tuple[str, ...]]:
        """Adjacent labels of every label, sorted."""
        m = self.game_map
        return {self.label(c): tuple(sorted(self.label(n) for n in m.neighbors(c))) for c in m}

    @functools.cached_property
    def index_labels(self) -> tuple[str, ...]:
        """The label of each cell index of the map (``game_map.indexed_cells()``)."""
        return tuple(self.label(c) for c in self.game_map.indexed_cells())

    @functools.cached_property
    def label_indices(self) -> Mapping[str, int]:
        """Every label → its cell index (the inverse of :attr:`index_labels`)."""
        return {lab: i for i, lab in enumerate(self.index_labels)}

    @functools.cached_property
    def neighbor_indices(self) -> tuple[tuple[int, ...], ...]:
        """The cell indices adjacent to each cell index."""
        m = self.game_map
        index = m.index()
        return tuple(tuple(sorted(index[n] for n in m.neighbors(c))) for c in m.indexed_cells())

    @functools.cached_property
    def passable(self) -> frozenset[str]:
        """Labels of cells whose terrain is not impassable."""
        terrains = self.game_map.chart.terrains
        return frozenset(
            self.label(c)
            for c in self.game_map
            if not terrains[self.game_map.terrain(c)].impassable
        )

    @functools.cached_property
    def zoc_of(self) -> Mapping[str, tuple[str, ...]]:
        """The labels a ground unit standing on a label controls (S2.1, S2.3)."""
        from hexwar.zoc import zoc_projection

        cells = self.game_map.indexed_cells()
        proj = zoc_projection(self.game_map)
        return {
            self.label(c): tuple(self.label(cells[j]) for j in proj[i]) for i, c in enumerate(cells)
        }

    @functools.cached_property
    def fortified(self) -> frozenset[str]:
        """Labels of fortification hexes: trenches, towns, city (S9.2)."""
        m = self.game_map
        return frozenset(
            self.label(c)
            for c in m
            if m.terrain(c) in FORTIFICATION_TERRAINS or m.tags(c) & FORTIFICATION_TAGS
        )

    @functools.cached_property
    def city(self) -> frozenset[str]:
        """Labels of the Stalingrad city hexes (S11.1)."""
        m = self.game_map
        return frozenset(self.label(c) for c in m if m.terrain(c) == CITY_TERRAIN)

    @functools.cached_property
    def stalingrad_area(self) -> frozenset[str]:
        """Labels within ``victory.area_radius`` of a city hex (ruling S11.1)."""
        radius = self.victory.area_radius
        return frozenset(lab for c in sorted(self.city) for lab in self.disk(c, radius))

    def tagged(self, tag: str) -> tuple[str, ...]:
        """Sorted labels of the cells carrying ``tag``."""
        key = ("tag", tag)
        if key not in self._cache:
            self._cache[key] = tuple(sorted(self.label(c) for c in self.game_map.tagged(tag)))
        out: tuple[str, ...] = self._cache[key]
        return out

    def start_hex(self, side: str, number: int) -> str | None:
        """The label of a side's numbered start hex (S3.2), or ``None``."""
        found = self.tagged(f"start:{side}:{number}")
        return found[0] if found else None

    def place(self, place: str) -> str | None:
        """The label of a named place (``kalach``) or ``@label``."""
        if place.startswith("@"):
            return place[1:]
        found = self.tagged(f"place:{place}")
        return found[0] if found else None

    def distance(self, a: str, b: str) -> int:
        """Hex distance between two labels."""
        return self.cell(a).distance(self.cell(b))

    @functools.cached_property
    def axial(self) -> Mapping[str, tuple[int, int]]:
        """Every label → its axial coordinates ``(q, r)``: hex distance by arithmetic,
        without building cells (``distance`` in a tight loop).

        >>> data = load_static()
        >>> (q1, r1), (q2, r2) = data.axial["0912"], data.axial["0915"]
        >>> (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2
        3
        """
        return {lab: (c.q, c.r) for lab, c in self.cells.items()}

    def path_steps(self, sources: tuple[str, ...]) -> Mapping[str, int]:
        """Fewest hex steps from any of ``sources`` to every label reachable through
        passable hexes (units, ZOC and terrain costs ignored; breadth-first search on the
        map graph). Built once per source tuple and kept with the map data.

        >>> data = load_static()
        >>> steps = data.path_steps(("0912",))
        >>> steps["0912"], steps["0913"]
        (0, 1)
        """
        key = ("path_steps", sources)
        found: dict[str, int] | None = self._cache.get(key)
        if found is None:
            passable, neighbors = self.passable, self.neighbors
            found = dict.fromkeys(sorted(set(sources) & passable), 0)
            frontier = list(found)
            depth = 0
            while frontier:
                depth += 1
                nxt = []
                for lab in frontier:
                    for n in neighbors[lab]:
                        if n not in found and n in passable:
                            found[n] = depth
                            nxt.append(n)
                frontier = nxt
            self._cache[key] = found
        return found

    @functools.cached_property
    def zoc_disks(self) -> Mapping[str, frozenset[str]]:
        """Every label → that label and the hexes a ground unit on it controls (S2.1)."""
        return {lab: frozenset((lab, *zoc)) for lab, zoc in self.zoc_of.items()}

    def disk(self, label: str, radius: int) -> tuple[str, ...]:
        """The labels within ``radius`` of ``label`` (sorted; cached)."""
        key = ("disk", label, radius)
        found: tuple[str, ...] | None = self._cache.get(key)
        if found is None:
            centre = self.cell(label)
            m = self.game_map
            found = tuple(sorted(self.label(h) for h in centre.spiral(radius) if h in m))
            self._cache[key] = found
        return found

    def move_action(self, unit: str, label: str) -> Action:
        """The (interned) action ``move UNIT HEX``."""
        return self.interned("move", unit, label)

    def move_table(self, unit: str) -> Mapping[str, Action]:
        """``unit``'s interned ``move UNIT HEX`` actions by hex label (built on first use)."""
        found: _MoveTable | None = self._cache.get(("move_table", unit))
        if found is None:
            found = self._cache["move_table", unit] = _MoveTable(self, unit)
        return found

    def interned(self, kind: str, *args: str) -> Action:
        """The (interned) action ``KIND ARGS...``: built once, then shared."""
        key = ("action", kind, *args)
        found: Action | None = self._cache.get(key)
        if found is None:
            found = self._cache[key] = Action(kind, args)
        return found

    # -- maps under card effects ----------------------------------------------------------

    def map_with(self, overrides: tuple[tuple[str, str, float | None], ...]) -> GameMap[Any]:
        """The map with terrain costs overridden: ``(movement class, terrain, cost)``.

        ``cost`` ``None`` is impassable. Used by the ``terrain_cost`` card effect; each
        variant has its own compiled movement cache.
        """
        if not overrides:
            return self.game_map
        key = ("variant", overrides)
        found: GameMap[Any] | None = self._cache.get(key)
        if found is not None:
            return found
        chart = self.game_map.chart
        classes = dict(chart.movement_classes)
        for mclass, terrain, cost in overrides:
            mc = classes[mclass]
            classes[mclass] = attrs.evolve(mc, terrain={**mc.terrain, terrain: cost})
        new_chart: TerrainChart = attrs.evolve(chart, movement_classes=classes)
        variant = attrs.evolve(self.game_map, chart=new_chart)
        variant._cache.update(
            {
                k: v
                for k, v in self.game_map._cache.items()
                if not (isinstance(k, tuple) and k[:1] == ("adj",))
            }
        )
        self._cache[key] = variant
        return variant


@functools.cache
def load_static() -> Static:
    """The shipped scenario data (loaded once per process)."""
    chart = load_chart(data_path("terrain.toml"))
    game_map = load_map(data_path("map.toml"), chart)
    oob = load_oob()
    return Static(
        game_map,
        {u.id: u for u in oob.ground},
        {a.id: a for a in oob.air},
        {c.id: c for c in load_cards()},
        load_crt(),
        load_bombardment(),
        load_turns(),
        load_victory(),
    )


@attrs.frozen
class VictoryData:
    """Victory parameters (S11) from ``victory.toml``."""

    #: Ruling S11.1: the 6th Army units that must be blocked are those within this many
    #: hexes of a Stalingrad city hex.
    area_radius: int


def load_victory(path: str | Path | None = None) -> VictoryData:
    """Load and validate ``victory.toml``.

    >>> load_victory().area_radius
    15
    """
    data, source = read_data_file(path if path is not None else data_path("victory.toml"))
    ck = Checker(source)
    ck.keys(data, ("area_radius",), (), "victory")
    return VictoryData(ck.integer(data["area_radius"], "area_radius", 0))


class _MoveTable(dict[str, Action]):
    """Label → the interned ``move UNIT LABEL``; a missing label is made on first use."""

    def __init__(self, data: Static, unit: str) -> None:
        super().__init__()
        self._data, self._unit = data, unit

    def __missing__(self, label: str) -> Action:
        action = self[label] = self._data.move_action(self._unit, label)
        return action
