"""Map files: a :class:`~hexwar.board.maps.GameMap` from TOML or JSON (``docs/movement.md``).

:func:`load_map` reads a file, :func:`map_from_dict` builds the map from its parsed
structure. Each section has its own validator (the ``[map]`` header, ``cells``,
``hexsides``, ``paths``); every error is a :class:`~hexwar.base.errors.DataError` naming
the file and the entry (``cells[3].at``, ``hexsides[0].between[1]``, ...).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.board.maps import (
    OFFSET_LAYOUTS,
    GameMap,
    build_map,
    hexagon,
    parse_label,
    rectangle,
    square_rectangle,
)
from hexwar.board.terrain import TerrainChart
from hexwar.grid.geometry import Hex
from hexwar.grid.square import HEX_GRID, SQUARE_GRID, Square, Topology

__all__ = ["load_map", "map_from_dict"]

_MAP_KEYS: Final = (
    "name",
    "grid",
    "shape",
    "columns",
    "rows",
    "offset",
    "radius",
    "default_terrain",
    "label_digits",
)


def load_map(path: str | Path, chart: TerrainChart) -> GameMap[Any]:
    """Load and validate a map file (TOML or JSON, format in ``docs/movement.md``)."""
    data, source = read_data_file(path)
    return map_from_dict(data, chart, source=source)


def map_from_dict(
    data: Mapping[str, Any], chart: TerrainChart, source: str = "<data>"
) -> GameMap[Any]:
    """Build and validate a map from the parsed file structure."""
    ck = Checker(source)
    top = ck.table(dict(data), "top level")
    ck.keys(top, optional=("map", "cells", "hexsides", "paths"), entry="top level")
    raw_head = ck.table(top.get("map", {}), "map")
    head = _header(ck, raw_head, chart)
    terrain, names, tags = _cells(ck, head, top, chart)
    hexsides = _hexsides(ck, head, top, chart)
    paths = _paths(ck, head, top, chart)
    name = ck.string(raw_head["name"], "map.name") if "name" in raw_head else None
    return build_map(
        chart,
        terrain,
        topology=head.topology,
        names=names,
        tags=tags,
        hexsides=hexsides,
        paths=paths,
        name=name,
        offset=head.offset,
        label_digits=head.digits,
        source=source,
    )


@attrs.frozen
class _Header:
    """The ``[map]`` section, checked: the grid, its cells (``None``: listed cells only),
    the label format and the default terrain; :meth:`locate` reads a cell reference."""

    ck: Checker
    grid: str
    topology: Topology[Any]
    offset: str | None
    digits: int
    shape_cells: list[Any] | None
    default: str | None
    shape_set: frozenset[Any] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "shape_set", frozenset(self.shape_cells or ()))

    def locate(self, v: object, entry: str) -> Hashable:
        """The cell a label (``"0101"``) or ``[q, r]`` names, on the map."""
        if isinstance(v, str):
            try:
                cell = parse_label(v, self.grid, self.offset, self.digits)
            except ValueError as e:
                raise self.ck.fail(entry, str(e)) from None
        elif (
            isinstance(v, list)
            and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        ):
            cell = Hex(v[0], v[1]) if self.grid == "hex" else Square(v[0], v[1])
        else:
            raise self.ck.fail(entry, f"expected a label or [q, r], got {v!r}")
        if self.shape_cells is not None and cell not in self.shape_set:
            raise self.ck.fail(entry, f"cell {v!r} is off the map")
        return cell


def _header(ck: Checker, head: dict[str, Any], chart: TerrainChart) -> _Header:
    ck.keys(head, optional=_MAP_KEYS, entry="map")
    grid = ck.choice(head.get("grid", "hex"), ("hex", "square"), "map.grid", "grid")
    shape = ck.string(head.get("shape", "rectangle"), "map.shape")
    digits = ck.integer(head.get("label_digits", 2), "map.label_digits", minimum=1)
    offset: str | None = None
    if "offset" in head:
        offset = ck.string(head["offset"], "map.offset")
        if offset not in OFFSET_LAYOUTS or grid != "hex":
            raise ck.fail("map.offset", f"unknown offset layout {offset!r} for a {grid} grid")
    shape_cells: list[Any] | None
    if shape == "rectangle":
        columns = ck.integer(head.get("columns"), "map.columns", minimum=1)
        rows = ck.integer(head.get("rows"), "map.rows", minimum=1)
        if grid == "hex":
            offset = offset or "odd-q"
            shape_cells = rectangle(columns, rows, offset)
        else:
            shape_cells = square_rectangle(columns, rows)
    elif shape == "hexagon":
        if grid != "hex":
            raise ck.fail("map.shape", "a hexagon needs a hex grid")
        shape_cells = hexagon(ck.integer(head.get("radius"), "map.radius", minimum=0))
    elif shape == "cells":
        shape_cells = None
    else:
        raise ck.fail("map.shape", f"unknown shape {shape!r} (rectangle, hexagon or cells)")
    default = None
    if "default_terrain" in head:
        default = ck.choice(
            head["default_terrain"], chart.terrains, "map.default_terrain", "terrain"
        )
    topology: Topology[Any] = HEX_GRID if grid == "hex" else SQUARE_GRID
    return _Header(ck, grid, topology, offset, digits, shape_cells, default)


def _cells(
    ck: Checker, head: _Header, top: dict[str, Any], chart: TerrainChart
) -> tuple[dict[Any, str], dict[Any, str], dict[Any, frozenset[str]]]:
    """The ``cells`` section: terrain, names and tags per cell, each cell given once."""
    terrain: dict[Any, str] = {}
    names: dict[Any, str] = {}
    tags: dict[Any, frozenset[str]] = {}
    seen: dict[Any, str] = {}
    for i, c in enumerate(ck.items(top, "cells")):
        entry = f"cells[{i}]"
        ck.keys(c, optional=("at", "cells", "terrain", "name", "tags"), entry=entry)
        if ("at" in c) == ("cells" in c):
            raise ck.fail(entry, "give exactly one of 'at' and 'cells'")
        if "at" in c:
            where = [head.locate(c["at"], f"{entry}.at")]
        else:
            raw = c["cells"]
            if not isinstance(raw, list) or not raw:
                raise ck.fail(f"{entry}.cells", "expected a non-empty list of cells")
            if "name" in c:
                raise ck.fail(f"{entry}.name", "a name needs a single cell ('at')")
            where = [head.locate(x, f"{entry}.cells[{k}]") for k, x in enumerate(raw)]
        if "terrain" in c:
            t = ck.choice(c["terrain"], chart.terrains, f"{entry}.terrain", "terrain")
        elif head.default is None:
            raise ck.fail(entry, "missing field 'terrain' (and no map.default_terrain)")
        else:
            t = head.default
        cell_tags = frozenset(ck.str_list(c.get("tags", []), f"{entry}.tags"))
        for cell in where:
            if cell in seen:
                raise ck.fail(entry, f"duplicate cell {cell!r} (first in {seen[cell]})")
            seen[cell] = entry
            terrain[cell] = t
            if cell_tags:
                tags[cell] = cell_tags
            if "name" in c:
                names[cell] = ck.string(c["name"], f"{entry}.name")
    for cell in head.shape_cells or ():
        if cell not in terrain:
            if head.default is None:
                raise ck.fail("cells", f"no terrain for {cell!r} (and no map.default_terrain)")
            terrain[cell] = head.default
    return terrain, names, tags


def _hexsides(
    ck: Checker, head: _Header, top: dict[str, Any], chart: TerrainChart
) -> dict[tuple[Any, Any], frozenset[str]]:
    """The ``hexsides`` section: features between adjacent cells, each side given once."""
    hexsides: dict[tuple[Any, Any], frozenset[str]] = {}
    seen_sides: dict[frozenset[Any], str] = {}
    for i, h in enumerate(ck.items(top, "hexsides")):
        entry = f"hexsides[{i}]"
        ck.keys(h, optional=("between", "features"), entry=entry)
        between = h.get("between")
        if not isinstance(between, list) or len(between) != 2:
            raise ck.fail(f"{entry}.between", "expected two cells")
        a, b = (head.locate(x, f"{entry}.between[{k}]") for k, x in enumerate(between))
        if not head.topology.are_adjacent(a, b):
            raise ck.fail(entry, f"cells {between[0]!r} and {between[1]!r} are not adjacent")
        side = frozenset((a, b))
        if side in seen_sides:
            raise ck.fail(entry, f"duplicate hexside (first in {seen_sides[side]})")
        seen_sides[side] = entry
        features = chart.hexside_features
        hexsides[a, b] = ck.names(
            h.get("features"), features, "hexside feature", f"{entry}.features"
        )
    return hexsides


def _paths(
    ck: Checker, head: _Header, top: dict[str, Any], chart: TerrainChart
) -> list[tuple[str, list[Any]]]:
    """The ``paths`` section: linear features along chains of adjacent cells."""
    paths: list[tuple[str, list[Any]]] = []
    for i, p in enumerate(ck.items(top, "paths")):
        entry = f"paths[{i}]"
        ck.keys(p, optional=("feature", "cells"), entry=entry)
        feature = ck.choice(
            p.get("feature"), chart.linear_features, f"{entry}.feature", "linear feature"
        )
        raw = p.get("cells")
        if not isinstance(raw, list) or len(raw) < 2:
            raise ck.fail(f"{entry}.cells", "expected a list of at least two cells")
        cells = [head.locate(x, f"{entry}.cells[{k}]") for k, x in enumerate(raw)]
        for k in range(1, len(cells)):
            if not head.topology.are_adjacent(cells[k - 1], cells[k]):
                raise ck.fail(
                    f"{entry}.cells[{k}]", f"{raw[k]!r} is not adjacent to {raw[k - 1]!r}"
                )
        paths.append((feature, cells))
    return paths
