"""The scenario data compiled once for the rules: map, counters, cards, tables, turn track.

Everything here is immutable and shared by every game state of a ruleset; the state only
holds what changes (see ``docs/stalingrad/rules.md``). :func:`load_static` loads a
scenario directory through :func:`hexwar_stalingrad.scenario.load_scenario` (every file
validated and cross-checked) and compiles it.

>>> data = load_static()
>>> data.game_map.label(data.game_map.cell_at("0912"))
'0912'
>>> data.ground["r-5ta-a"].side, data.start_hex("rkka", 1) is not None
('rkka', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, Generic, TypeVar, overload

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.board.maps import GameMap
from hexwar.grid.geometry import Hex
from hexwar.mechanics.crt import OddsTable, StrengthTable
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.cards import Card
from hexwar_stalingrad.turns import Turn
from hexwar_stalingrad.units import AirUnit, GroundUnit

__all__ = [
    "FORTIFICATION_TAGS",
    "FORTIFICATION_TERRAINS",
    "Static",
    "VictoryData",
    "load_static",
    "load_victory",
    "victory_from_dict",
]

#: Terrains and cell tags that count as fortifications for the bombardment table (S9.2).
FORTIFICATION_TERRAINS: Final = frozenset({"town", "city"})
FORTIFICATION_TAGS: Final = frozenset({"trench"})
#: The city of Stalingrad: the terrain of its hexes (S11.1).
CITY_TERRAIN: Final = "city"

T = TypeVar("T")


class _compiled(Generic[T]):  # noqa: N801 - used as a decorator
    """A :class:`Static` attribute compiled from the scenario when the object is made
    (:meth:`Static.__attrs_post_init__`; data, not a cache): the decorated method builds
    it, reading the attributes compiled before it."""

    def __init__(self, build: Callable[[Any], T]) -> None:
        self.build, self.__doc__ = build, build.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        owner._COMPILED = (*owner.__dict__.get("_COMPILED", ()), name)  # type: ignore[attr-defined]

    @overload
    def __get__(self, obj: None, owner: type) -> _compiled[T]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> T: ...
    def __get__(self, obj: object | None, owner: type) -> T | _compiled[T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.build(obj)  # only while being made
        return value


@attrs.frozen(eq=False, slots=False)
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
    #: The CRT as used for air combat (S10.5): nearest rounding, refused below 0.5.
    air_crt: OddsTable
    #: The scenario's name (a state's ``scenario``, a record's ``scenario`` field).
    name: str = attrs.field(default="default", kw_only=True)
    #: SHA-256 of the scenario's data files; ``None``: data built in memory, unknown.
    digest: str | None = attrs.field(default=None, kw_only=True)

    def __attrs_post_init__(self) -> None:
        for name in type(self)._COMPILED:  # type: ignore[attr-defined]
            getattr(self, name)

    @_compiled
    def step_tracks(self) -> Mapping[str, tuple[Mapping[str, int], ...]]:
        """Every ground unit's two steps (S1.3), printed ``strength`` and ``movement``, as
        :class:`~hexwar.mechanics.steps.StepCounters` takes them (data)."""
        return {
            unit: (
                {"strength": info.strength.full, "movement": info.movement.full},
                {"strength": info.strength.reduced, "movement": info.movement.reduced},
            )
            for unit, info in sorted(self.ground.items())
        }

    # -- cells ------------------------------------------------------------------------------

    @_compiled
    def labels(self) -> Mapping[Hex, str]:
        """Every hex of the map → its label."""
        return {c: self.game_map.label(c) for c in self.game_map}

    @_compiled
    def cells(self) -> Mapping[str, Hex]:
        """Every label → its hex."""
        return {lab: c for c, lab in self.labels.items()}

    def cell(self, label: str) -> Hex:
        """The hex of a map label (``KeyError`` if not on the map)."""
        return self.cells[label]

    def label(self, cell: Hex) -> str:
        """The map label of a hex (``KeyError`` if not on the map)."""
        return self.labels[cell]

    @_compiled
    def neighbors(self) -> Mapping[str, tuple[str, ...]]:
        """Adjacent labels of every label, sorted."""
        labels, adj = self.labels, self.game_map.graph.adj  # sorted by label, not by cell
        return {labels[c]: tuple(sorted([labels[n] for n in adj[c]])) for c in self.game_map}

    @_compiled
    def index_labels(self) -> tuple[str, ...]:
        """The label of each cell index of the map (``game_map.indexed_cells()``)."""
        return tuple(self.label(c) for c in self.game_map.indexed_cells())

    @_compiled
    def label_indices(self) -> Mapping[str, int]:
        """The cell index of each label (the inverse of :attr:`index_labels`)."""
        return {lab: i for i, lab in enumerate(self.index_labels)}

    @_compiled
    def neighbor_indices(self) -> tuple[tuple[int, ...], ...]:
        """The cell indices adjacent to each cell index."""
        m = self.game_map
        index, adj = m.index(), m.graph.adj  # sorted by index (int), not by cell
        return tuple(tuple(sorted([index[n] for n in adj[c]])) for c in m.indexed_cells())

    @_compiled
    def passable(self) -> frozenset[str]:
        """Labels of cells whose terrain is not impassable."""
        terrains = self.game_map.chart.terrains
        return frozenset(
            self.label(c)
            for c in self.game_map
            if not terrains[self.game_map.terrain(c)].impassable
        )

    @_compiled
    def impassable_cells(self) -> frozenset[Hex]:
        """The cells whose terrain is impassable (the Volga, salt lakes)."""
        return frozenset(self.cell(lab) for lab in self.cells if lab not in self.passable)

    @_compiled
    def zoc_of(self) -> Mapping[str, tuple[str, ...]]:
        """The labels a ground unit standing on a label controls (S2.1, S2.3): the map's
        :meth:`~hexwar.board.maps.GameMap.zoc_labels`."""
        return self.game_map.zoc_labels()

    @_compiled
    def fortified(self) -> frozenset[str]:
        """Labels of fortification hexes: trenches, towns, city (S9.2)."""
        m = self.game_map
        return frozenset(
            self.label(c)
            for c in m
            if m.terrain(c) in FORTIFICATION_TERRAINS or m.tags(c) & FORTIFICATION_TAGS
        )

    @_compiled
    def city(self) -> frozenset[str]:
        """Labels of the Stalingrad city hexes (S11.1)."""
        m = self.game_map
        return frozenset(self.label(c) for c in m if m.terrain(c) == CITY_TERRAIN)

    @_compiled
    def stalingrad_area(self) -> frozenset[str]:
        """Labels within ``victory.area_radius`` of a city hex (ruling S11.1)."""
        radius, cells = self.victory.area_radius, self.cells
        centres = [cells[c] for c in sorted(self.city)]
        return frozenset(
            lab for lab, cell in cells.items() if any(cell.distance(c) <= radius for c in centres)
        )

    @_compiled
    def _tags(self) -> Mapping[str, tuple[str, ...]]:
        m = self.game_map
        out: dict[str, list[str]] = {}
        for c in m:
            for tag in m.tags(c):
                out.setdefault(tag, []).append(self.label(c))
        return {tag: tuple(sorted(labels)) for tag, labels in out.items()}

    def tagged(self, tag: str) -> tuple[str, ...]:
        """Sorted labels of the cells carrying ``tag``."""
        return self._tags.get(tag, ())

    @_compiled
    def _foes(self) -> Mapping[str, frozenset[str]]:
        sides = sorted({u.side for u in self.ground.values()})
        return {s: frozenset(u for u, info in self.ground.items() if info.side != s) for s in sides}

    def foes(self, side: str) -> frozenset[str]:
        """The ground units not of ``side``."""
        return self._foes[side]

    @_compiled
    def _side_units(self) -> Mapping[tuple[str, str], tuple[str, ...]]:
        out: dict[tuple[str, str], list[str]] = {}
        for u, g in self.ground.items():
            out.setdefault(("ground", g.side), []).append(u)
        for u, a in self.air.items():
            out.setdefault(("air", a.side), []).append(u)
        return {k: tuple(sorted(v)) for k, v in out.items()}

    def side_ground(self, side: str) -> tuple[str, ...]:
        """The side's ground unit ids, sorted."""
        return self._side_units.get(("ground", side), ())

    def side_air(self, side: str) -> tuple[str, ...]:
        """The side's air unit ids, sorted."""
        return self._side_units.get(("air", side), ())

    def ring(self, label: str, radius: int) -> tuple[str, ...]:
        """The labels exactly ``radius`` hexes from ``label`` (sorted)."""
        labels = self.labels
        return tuple(sorted(labels[h] for h in self.cell(label).ring(radius) if h in labels))

    def zoc_closure(self, label: str) -> frozenset[str]:
        """``label`` and the hexes a ground unit on it controls (S2.1): :attr:`zoc_disks`."""
        return self.zoc_disks[label]

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

    def path_steps(self, sources: tuple[str, ...]) -> Mapping[str, int]:
        """Fewest hex steps from any of ``sources`` to every label reachable through
        passable hexes (units, ZOC and terrain costs ignored; breadth-first search on the
        map graph): the map's :meth:`~hexwar.board.maps.GameMap.path_steps`.

        >>> data = load_static()
        >>> steps = data.path_steps(("0912",))
        >>> steps["0912"], steps["0913"]
        (0, 1)
        """
        return self.game_map.path_steps(sources)

    @_compiled
    def zoc_disks(self) -> Mapping[str, frozenset[str]]:
        """Every label → itself and the hexes a ground unit on it controls (S2.1), one mapping."""
        return {lab: frozenset((lab, *zoc)) for lab, zoc in self.zoc_of.items()}

    @_compiled
    def zoc_controllers(self) -> Mapping[str, tuple[str, ...]]:
        """Every label → the labels from which a ground unit puts it in its ZOC (S2.1):
        the inverse of :attr:`zoc_of`, in cell-index order."""
        found: dict[str, list[str]] = {lab: [] for lab in self.index_labels}
        for lab, controlled in self.zoc_of.items():  # cell-index order
            for target in controlled:
                found[target].append(lab)
        return {lab: tuple(sources) for lab, sources in found.items()}

    @_compiled
    def zoc_sources(self) -> Mapping[str, frozenset[str]]:
        """Every label → the labels whose :attr:`zoc_disks` hold it (itself and its
        :attr:`zoc_controllers`): a hex is blocked by a side's units (on it or in their
        ZOC, S2.1) iff one of them stands on one of these."""
        controllers = self.zoc_controllers
        return {lab: frozenset((lab, *controllers[lab])) for lab in self.zoc_disks}

    def disk(self, label: str, radius: int) -> tuple[str, ...]:
        """The labels within ``radius`` of ``label`` (sorted)."""
        labels = self.labels
        return tuple(sorted(labels[h] for h in self.cell(label).spiral(radius) if h in labels))


def load_static(data_dir: str | Path | None = None) -> Static:
    """The compiled data of a scenario directory, loaded and cross-checked
    (:func:`hexwar_stalingrad.scenario.load_scenario`); the shipped data by default,
    loaded once per process (:data:`hexwar_stalingrad.scenario.SHIPPED_STATIC`)."""
    if data_dir is None:
        from hexwar_stalingrad.scenario import SHIPPED_STATIC

        return SHIPPED_STATIC
    from hexwar_stalingrad.scenario import load_scenario

    return load_scenario(data_dir).static()


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
    return victory_from_dict(data, source)


def victory_from_dict(data: Mapping[str, Any], source: str = "<data>") -> VictoryData:
    """Build and validate the victory parameters from parsed TOML."""
    ck = Checker(source)
    ck.keys(dict(data), ("area_radius",), (), "top level")
    return VictoryData(ck.integer(data["area_radius"], "area_radius", 0))
