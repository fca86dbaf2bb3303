"""Terrain charts: what one step costs, per movement class, terrain and hexside feature.

A chart is data (see ``docs/movement.md`` for the file format). It names the terrains,
the hexside features (rivers, bridges...), the linear features (roads, railways) and the
movement classes (the game's names: foot, motorized, cavalry, rail...), and answers one
question: what does a step into a cell cost a class? (:meth:`TerrainChart.step`).

>>> chart = chart_from_dict({
...     "terrain": {"clear": {}, "forest": {}, "lake": {"impassable": True}},
...     "hexside": {"river": {}, "bridge": {"negates": ["river"]}},
...     "linear": {"road": {}},
...     "movement": {"foot": {"terrain": {"clear": 1, "forest": 2},
...                           "hexside": {"river": "stop"}, "along": {"road": 1}}},
... })
>>> chart.step("foot", "forest")
Step(cost=2, stop=False)
>>> chart.step("foot", "forest", linear={"road"})
Step(cost=1, stop=False)
>>> chart.step("foot", "clear", hexside={"river"})
Step(cost=1, stop=True)
>>> chart.step("foot", "clear", hexside={"river", "bridge"})
Step(cost=1, stop=False)
>>> chart.step("foot", "lake") is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.base.errors import UnknownMovementClassError

__all__ = [
    "HexsideEffect",
    "HexsideFeature",
    "LinearFeature",
    "MovementClass",
    "Step",
    "Terrain",
    "TerrainChart",
    "chart_from_dict",
    "load_chart",
    "read_data_file",
]


@attrs.frozen
class Terrain:
    """A terrain type. ``impassable`` terrain blocks every class and is in no ZOC (S2.3)."""

    name: str
    title: str | None = None
    impassable: bool = False
    in_zoc: bool = True


@attrs.frozen
class HexsideFeature:
    """A feature between two cells (river, major river, bridge...).

    ``blocks_zoc``: ZOC does not extend across it (default ``False``, ruling S2.3).
    ``negates``: features ignored on a hexside that also has this one (a bridge).
    """

    name: str
    title: str | None = None
    blocks_zoc: bool = False
    negates: frozenset[str] = frozenset()


@attrs.frozen
class LinearFeature:
    """A feature running from a cell to an adjacent one (road, railway)."""

    name: str
    title: str | None = None


@attrs.frozen
class HexsideEffect:
    """What a hexside feature does to a class: extra ``cost``, ``stop`` there, or block."""

    cost: float = 0
    stop: bool = False
    impassable: bool = False


@attrs.frozen
class Step:
    """The price of one legal step: its ``cost`` and whether the unit must ``stop``."""

    cost: float
    stop: bool = False


@attrs.frozen
class MovementClass:
    """Costs for one movement class. A terrain cost of ``None`` means impassable.

    ``only``: if not empty, the class may step only along these linear features.
    """

    name: str
    terrain: Mapping[str, float | None] = attrs.field(factory=dict)
    hexside: Mapping[str, HexsideEffect] = attrs.field(factory=dict)
    along: Mapping[str, float] = attrs.field(factory=dict)
    only: frozenset[str] = frozenset()


@attrs.frozen(eq=False)
class TerrainChart:
    """Terrains, features and movement classes; compared by identity."""

    terrains: Mapping[str, Terrain]
    hexside_features: Mapping[str, HexsideFeature]
    linear_features: Mapping[str, LinearFeature]
    movement_classes: Mapping[str, MovementClass]
    name: str | None = None

    def movement_class(self, name: str) -> MovementClass:
        """The class called ``name``; raises :class:`UnknownMovementClassError`."""
        try:
            return self.movement_classes[name]
        except KeyError:
            known = ", ".join(sorted(self.movement_classes))
            raise UnknownMovementClassError(
                f"unknown movement class {name!r} (known: {known})"
            ) from None

    def active_features(self, hexside: Collection[str]) -> frozenset[str]:
        """The hexside features left after negation (a bridge cancels the river)."""
        present = frozenset(hexside)
        negated: set[str] = set()
        for f in present:
            negated |= self.hexside_features[f].negates
        return present - negated

    def blocks_zoc(self, hexside: Collection[str]) -> bool:
        """Whether ZOC stops at a hexside with these features (default: never, S2.3)."""
        return any(self.hexside_features[f].blocks_zoc for f in self.active_features(hexside))

    def step(
        self,
        movement_class: str,
        terrain: str,
        hexside: Collection[str] = (),
        linear: Collection[str] = (),
    ) -> Step | None:
        """The cost of a step into a cell of ``terrain``; ``None`` if it is impassable.

        ``hexside``: features on the crossed hexside; ``linear``: linear features running
        between the two cells. See ``docs/movement.md`` for the formula (ruling S6.6).
        """
        mc = self.movement_class(movement_class)
        if self.terrains[terrain].impassable:
            return None
        options: list[float] = []
        if not mc.only:
            base = mc.terrain.get(terrain)
            if base is not None:
                options.append(base)
        for feature in linear:
            if feature in mc.along and (not mc.only or feature in mc.only):
                options.append(mc.along[feature])
        if not options:
            return None
        cost = min(options)
        stop = False
        for f in sorted(self.active_features(hexside)):
            effect = mc.hexside.get(f)
            if effect is None:
                continue
            if effect.impassable:
                return None
            cost += effect.cost
            stop = stop or effect.stop
        return Step(cost, stop)


# -- loading ------------------------------------------------------------------------------


def load_chart(path: str | Path) -> TerrainChart:
    """Load and validate a terrain chart file (TOML or JSON)."""
    data, source = read_data_file(path)
    return chart_from_dict(data, source=source)


def chart_from_dict(data: Mapping[str, Any], source: str = "<data>") -> TerrainChart:
    """Build and validate a chart from the parsed file structure (see ``docs/movement.md``)."""
    ck = Checker(source)
    top = ck.table(dict(data), "top level")
    ck.keys(top, optional=("chart", "terrain", "hexside", "linear", "movement"), entry="top level")
    header = ck.table(top.get("chart", {}), "chart")
    ck.keys(header, optional=("name",), entry="chart")
    chart_name = ck.string(header["name"], "chart.name") if "name" in header else None

    raw_terrains = ck.table(top.get("terrain"), "terrain") if "terrain" in top else None
    if not raw_terrains:
        raise ck.fail("terrain", "missing field: at least one terrain is required")
    raw_hexsides = ck.table(top.get("hexside", {}), "hexside")
    raw_linear = ck.table(top.get("linear", {}), "linear")
    raw_classes = ck.table(top.get("movement"), "movement") if "movement" in top else None
    if not raw_classes:
        raise ck.fail("movement", "missing field: at least one movement class is required")

    terrains: dict[str, Terrain] = {}
    for name in sorted(raw_terrains):
        entry = f"terrain.{name}"
        t = ck.table(raw_terrains[name], entry)
        ck.keys(t, optional=("name", "impassable", "in_zoc"), entry=entry)
        title = ck.string(t["name"], f"{entry}.name") if "name" in t else None
        impassable = ck.boolean(t.get("impassable", False), f"{entry}.impassable")
        in_zoc = ck.boolean(t.get("in_zoc", not impassable), f"{entry}.in_zoc")
        terrains[name] = Terrain(name, title, impassable, in_zoc)

    hexside_features: dict[str, HexsideFeature] = {}
    for name in sorted(raw_hexsides):
        entry = f"hexside.{name}"
        h = ck.table(raw_hexsides[name], entry)
        ck.keys(h, optional=("name", "blocks_zoc", "negates"), entry=entry)
        title = ck.string(h["name"], f"{entry}.name") if "name" in h else None
        blocks = ck.boolean(h.get("blocks_zoc", False), f"{entry}.blocks_zoc")
        negates = ck.names(
            h.get("negates", []), raw_hexsides, "hexside feature", f"{entry}.negates"
        )
        if name in negates:
            raise ck.fail(f"{entry}.negates", f"feature {name!r} cannot negate itself")
        hexside_features[name] = HexsideFeature(name, title, blocks, negates)

    linear_features: dict[str, LinearFeature] = {}
    for name in sorted(raw_linear):
        entry = f"linear.{name}"
        lf = ck.table(raw_linear[name], entry)
        ck.keys(lf, optional=("name",), entry=entry)
        title = ck.string(lf["name"], f"{entry}.name") if "name" in lf else None
        linear_features[name] = LinearFeature(name, title)

    classes: dict[str, MovementClass] = {}
    for name in sorted(raw_classes):
        classes[name] = _movement_class(
            ck, name, raw_classes[name], terrains, hexside_features, linear_features
        )
    return TerrainChart(terrains, hexside_features, linear_features, classes, chart_name)


def _movement_class(
    ck: Checker,
    name: str,
    raw: object,
    terrains: Mapping[str, Terrain],
    hexside_features: Mapping[str, HexsideFeature],
    linear_features: Mapping[str, LinearFeature],
) -> MovementClass:
    entry = f"movement.{name}"
    m = ck.table(raw, entry)
    ck.keys(m, optional=("terrain", "hexside", "along", "only"), entry=entry)
    only = ck.names(m.get("only", []), linear_features, "linear feature", f"{entry}.only")

    terrain_costs: dict[str, float | None] = {}
    raw_terrain = ck.table(m.get("terrain", {}), f"{entry}.terrain")
    for t in sorted(raw_terrain):
        e = f"{entry}.terrain.{t}"
        if t not in terrains:
            raise ck.fail(e, f"unknown terrain {t!r}")
        v = raw_terrain[t]
        terrain_costs[t] = None if v == "impassable" else ck.cost(v, e)
    if not only:
        for t in sorted(terrains):
            if not terrains[t].impassable and t not in terrain_costs:
                raise ck.fail(f"{entry}.terrain", f"missing field: no cost for terrain {t!r}")

    effects: dict[str, HexsideEffect] = {}
    raw_hexside = ck.table(m.get("hexside", {}), f"{entry}.hexside")
    for f in sorted(raw_hexside):
        e = f"{entry}.hexside.{f}"
        if f not in hexside_features:
            raise ck.fail(e, f"unknown hexside feature {f!r}")
        v = raw_hexside[f]
        if v == "impassable":
            effects[f] = HexsideEffect(impassable=True)
        elif v == "stop":
            effects[f] = HexsideEffect(stop=True)
        elif isinstance(v, dict):
            ck.keys(v, optional=("cost", "stop"), entry=e)
            effects[f] = HexsideEffect(
                cost=ck.cost(v.get("cost", 0), f"{e}.cost"),
                stop=ck.boolean(v.get("stop", False), f"{e}.stop"),
            )
        elif isinstance(v, str):
            raise ck.fail(e, f"expected a number, 'impassable', 'stop' or a table, got {v!r}")
        else:
            effects[f] = HexsideEffect(cost=ck.cost(v, e))

    along: dict[str, float] = {}
    raw_along = ck.table(m.get("along", {}), f"{entry}.along")
    for f in sorted(raw_along):
        e = f"{entry}.along.{f}"
        if f not in linear_features:
            raise ck.fail(e, f"unknown linear feature {f!r}")
        along[f] = ck.cost(raw_along[f], e)
    missing = sorted(only - set(along))
    if missing:
        raise ck.fail(f"{entry}.along", f"missing field: no cost along {missing[0]!r} (in only)")
    return MovementClass(name, terrain_costs, effects, along, only)
