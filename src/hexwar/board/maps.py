"""Maps: cells with terrain, names and tags, hexside and linear features, as a graph.

A :class:`GameMap` wraps a ``networkx.Graph`` whose nodes are cells (attributes
``terrain``, ``name``, ``tags``) and whose edges join adjacent cells (attributes
``hexside`` and ``linear``: frozensets of feature names), plus the terrain chart that
prices its steps and the grid topology. Build one in code with :func:`build_map` or from
a file with :func:`~hexwar.board.map_load.load_map` (format: ``docs/movement.md``).

>>> from hexwar.board.terrain import chart_from_dict
>>> chart = chart_from_dict({"terrain": {"clear": {}, "forest": {}},
...     "hexside": {"river": {}}, "linear": {"road": {}},
...     "movement": {"foot": {"terrain": {"clear": 1, "forest": 2}, "hexside": {"river": 1}}}})
>>> m = build_map(chart, dict.fromkeys(hexagon(2), "clear") | {Hex(1, 0): "forest"},
...               hexsides={(Hex(0, 0), Hex(0, 1)): {"river"}})
>>> len(m), m.terrain(Hex(1, 0)), m.cost(Hex(0, 0), Hex(1, 0), "foot")
(19, 'forest', Step(cost=2, stop=False))
>>> m.cost(Hex(0, 0), Hex(0, 1), "foot")
Step(cost=2, stop=False)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar, cast

import attrs
import networkx as nx

from hexwar.base.errors import DataError
from hexwar.base.kept import kept
from hexwar.board.terrain import Step, TerrainChart
from hexwar.grid.coords import MapLabels, OffsetKind, hex_to_offset, offset_to_hex
from hexwar.grid.geometry import Hex
from hexwar.grid.square import HEX_GRID, Square, Topology

__all__ = [
    "OFFSET_LAYOUTS",
    "GameMap",
    "build_map",
    "hexagon",
    "rectangle",
    "square_rectangle",
    "step_levels",
]

C = TypeVar("C", bound=Hashable)
T = TypeVar("T")

OFFSET_LAYOUTS: Final = tuple(k.value for k in OffsetKind)
_EMPTY: Final[frozenset[str]] = frozenset()
#: The first element of a :class:`GameMap` cache key whose answer depends on one movement
#: class's costs: ``(COST_CACHE, movement_class, ...)``.
COST_CACHE: Final = "adj"


# -- shapes and offset coordinates (Red Blob's conversions) -------------------------------


def rectangle(columns: int, rows: int, offset: str = "odd-q") -> list[Hex]:
    """The hexes of a ``columns`` x ``rows`` rectangle in offset coordinates.

    >>> len(rectangle(3, 2))
    6
    """
    kind = OffsetKind(offset)
    return [offset_to_hex(c, r, kind) for c in range(columns) for r in range(rows)]


def hexagon(radius: int) -> list[Hex]:
    """The hexes within ``radius`` of ``Hex(0, 0)``, in ``(q, r)`` order."""
    return list(Hex(0, 0).within(radius))


def square_rectangle(columns: int, rows: int) -> list[Square]:
    """The squares ``Square(col, row)`` with ``col < columns`` and ``row < rows``."""
    return [Square(c, r) for c in range(columns) for r in range(rows)]


# -- the map ------------------------------------------------------------------------------


@attrs.frozen(eq=False)
class GameMap(Generic[C]):
    """A map: ``graph`` (networkx), its terrain ``chart`` and grid ``topology``.

    Treat the graph as read-only once built: movement caches compiled adjacency on the
    map. ``offset`` and ``label_digits`` define printed labels like ``"0912"``.
    """

    graph: nx.Graph
    chart: TerrainChart
    topology: Topology[Any] = HEX_GRID
    name: str | None = None
    offset: str | None = None
    label_digits: int = 2
    #: Answers derived from the map, kept on it; entries keyed ``(COST_CACHE, class,
    #: ...)`` depend on that movement class's costs (:meth:`with_movement_costs`).
    _cache: dict[Any, Any] = attrs.field(factory=dict, init=False, repr=False)

    def derived(self, key: Any, build: Callable[[], T]) -> T:
        """A value computed from this (immutable) map once and kept on it under ``key``
        (``(COST_CACHE, class, ...)`` keys are dropped by :meth:`with_movement_costs` for
        the classes it changes).

        >>> from hexwar.board.maps import build_map, hexagon
        >>> from hexwar.board.terrain import chart_from_dict
        >>> chart = chart_from_dict({"terrain": {"clear": {}},
        ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
        >>> m = build_map(chart, dict.fromkeys(hexagon(1), "clear"))
        >>> m.derived("size", lambda: len(m)), m.derived("size", lambda: 0)
        (7, 7)
        """
        try:
            return cast(T, self._cache[key])
        except KeyError:
            value = self._cache[key] = build()
            return value

    # -- cells -----------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.graph.number_of_nodes())

    def __contains__(self, cell: object) -> bool:
        return bool(self.graph.has_node(cell))

    def __iter__(self) -> Iterator[C]:
        """The cells in sorted order."""
        return iter(self.indexed_cells())

    def terrain(self, cell: C) -> str:
        return cast(str, self.graph.nodes[cell]["terrain"])

    def cell_name(self, cell: C) -> str | None:
        return cast("str | None", self.graph.nodes[cell]["name"])

    def tags(self, cell: C) -> frozenset[str]:
        return cast(frozenset[str], self.graph.nodes[cell]["tags"])

    def tagged(self, tag: str) -> list[C]:
        """The cells carrying ``tag``, sorted (from the map's tag index, built once)."""
        return list(self.derived("tag-index", self._tag_index).get(tag, ()))

    def _tag_index(self) -> dict[str, tuple[C, ...]]:
        out: dict[str, list[C]] = {}
        nodes = self.graph.nodes
        for cell in self.indexed_cells():
            for tag in nodes[cell]["tags"]:
                out.setdefault(tag, []).append(cell)
        return {tag: tuple(cells) for tag, cells in out.items()}

    def tag_values(self, key: str) -> dict[C, str]:
        """Cell -> ``value`` of its ``"<key>:<value>"`` tag, for the cells that have one
        (zones, rows, owners given as tags in the map file), in cell order.

        A cell with two such tags is a :class:`DataError`.

        >>> from hexwar.board.terrain import chart_from_dict
        >>> chart = chart_from_dict({"terrain": {"clear": {}},
        ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
        >>> m = build_map(chart, dict.fromkeys(hexagon(1), "clear"),
        ...               tags={Hex(0, 0): ["zone:red", "city"], Hex(1, 0): ["zone:blue"]})
        >>> m.tag_values("zone")
        {Hex(q=0, r=0): 'red', Hex(q=1, r=0): 'blue'}
        """
        out: dict[C, str] = {}
        prefix = key + ":"
        for cell in self.indexed_cells():
            for tag in sorted(self.tags(cell)):
                if tag.startswith(prefix):
                    if cell in out:
                        raise DataError(
                            f"two {key!r} tags", source=self.name or "<map>", entry=repr(cell)
                        )
                    out[cell] = tag[len(prefix) :]
        return out

    def feature_cells(self, feature: str) -> list[C]:
        """The cells (sorted) a linear ``feature`` (a road, a railway) runs through (from
        the map's feature index, built once)."""
        return list(self.derived("feature-index", self._feature_index).get(feature, ()))

    def _feature_index(self) -> dict[str, tuple[C, ...]]:
        out: dict[str, list[C]] = {}
        adj = self.graph.adj
        for cell in self.indexed_cells():
            features = set().union(*(edge["linear"] for edge in adj[cell].values()))
            for feature in sorted(features):
                out.setdefault(feature, []).append(cell)
        return {feature: tuple(cells) for feature, cells in out.items()}

    def neighbors(self, cell: C) -> list[C]:
        """The adjacent cells that are on the map, sorted (kept per cell on the map)."""
        known: dict[Any, tuple[C, ...]] = self.derived("neighbours", dict)
        found = known.get(cell)
        if found is None:
            found = known[cell] = tuple(sorted(self.graph.adj[cell]))
        return list(found)

    def hexside(self, a: C, b: C) -> frozenset[str]:
        """The hexside features between adjacent cells ``a`` and ``b``."""
        return cast(frozenset[str], self.graph.edges[a, b]["hexside"])

    def linear(self, a: C, b: C) -> frozenset[str]:
        """The linear features (roads, railways) running between ``a`` and ``b``."""
        return cast(frozenset[str], self.graph.edges[a, b]["linear"])

    def cost(self, a: C, b: C, movement_class: str) -> Step | None:
        """The price of the step ``a -> b`` for ``movement_class``; ``None`` if illegal."""
        if not self.graph.has_edge(a, b):
            return None
        edge = self.graph.edges[a, b]
        return self.chart.step(
            movement_class, self.terrain(b), hexside=edge["hexside"], linear=edge["linear"]
        )

    # -- labels ----------------------------------------------------------------------
    def label(self, cell: C) -> str:
        """The printed label: column then row, from 1, zero-padded (``"0912"``).

        Hex maps use :class:`hexwar.grid.coords.MapLabels` with ``first=1`` in the map's
        offset layout; square maps number their columns and rows the same way. Labels of
        the map's cells are cached both ways (rules code converts on every action).
        """
        known: dict[Any, str] = self._cache.setdefault("label_of", {})
        text = known.get(cell)
        if text is None:
            text = self._label(cell)
            if cell in self:
                known[cell] = text
                self._cache.setdefault("cell_of", {})[text] = cell
        return text

    def _label(self, cell: C) -> str:
        if isinstance(cell, Hex) and self.offset is not None:
            return _labels(self.offset, self.label_digits).label(cell)
        if not isinstance(cell, Square):
            raise ValueError("this map has no labels (no offset layout)")
        if cell.col < 0 or cell.row < 0:
            raise ValueError(f"{cell!r} has no label (negative coordinates)")
        d = self.label_digits
        return f"{cell.col + 1:0{d}d}{cell.row + 1:0{d}d}"

    def cell_at(self, label: str) -> C:
        """The cell with printed ``label``; a ``ValueError`` if malformed or off the map."""
        cached = self._cache.get("cell_of", {}).get(label)
        if cached is not None:
            return cast(C, cached)
        cell = parse_label(label, self.topology.name, self.offset, self.label_digits)
        if cell not in self:
            raise ValueError(f"label {label!r} is off the map")
        self._cache.setdefault("cell_of", {})[label] = cell
        self._cache.setdefault("label_of", {})[cell] = label
        return cast(C, cell)

    def within(self, cell: C, radius: int) -> tuple[C, ...]:
        """The map's cells at most ``radius`` from ``cell`` by the grid's own distance
        (``cell`` included when it is on the map), in sorted order; kept on the map under
        the core's bound (:func:`~hexwar.base.kept.kept`): fire ranges and command radii
        scan the few cells in reach, not the map.

        >>> from hexwar.board.terrain import chart_from_dict
        >>> from hexwar.grid.geometry import Hex
        >>> chart = chart_from_dict({"terrain": {"clear": {}},
        ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
        >>> m = build_map(chart, dict.fromkeys(hexagon(3), "clear"))
        >>> len(m), len(m.within(Hex(0, 0), 1)), len(m.within(Hex(3, 0), 1))
        (37, 7, 4)
        """

        store: dict[tuple[C, int], tuple[C, ...]] = self.derived(("within",), dict)
        found = store.get((cell, radius))
        if found is None:
            distance = self.topology.distance
            found = tuple(c for c in self.indexed_cells() if distance(cell, c) <= radius)
            kept(store, (cell, radius), found)
        return found

    # -- index (used by movement and ZOC) -----------------------------------------------
    def indexed_cells(self) -> tuple[C, ...]:
        """The cells in sorted order; position ``i`` is the cell's integer index."""
        cells = self._cache.get("cells")
        if cells is None:
            cells = tuple(sorted(self.graph.nodes))
            self._cache["cells"] = cells
            self._cache["index"] = {c: i for i, c in enumerate(cells)}
        return cast(tuple[C, ...], cells)

    def offset_grid(self) -> tuple[tuple[int, int], ...]:
        """``(row, column)`` of each cell of :meth:`indexed_cells` on the smallest
        rectangle of the map's offset layout (hexes: ``offset``, odd-q without one;
        squares: their own rows and columns), from ``(0, 0)``: the layout of a spatial
        observation.

        >>> from hexwar.board.terrain import chart_from_dict
        >>> chart = chart_from_dict({"terrain": {"clear": {}},
        ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
        >>> build_map(chart, dict.fromkeys(rectangle(3, 2), "clear")).offset_grid()
        ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2))
        """

        def build() -> tuple[tuple[int, int], ...]:
            at: list[tuple[int, int]] = []
            for cell in self.indexed_cells():
                if isinstance(cell, Hex):
                    o = hex_to_offset(cell, self.offset or "odd-q")
                    at.append((o.row, o.col))
                elif isinstance(cell, Square):
                    at.append((cell.row, cell.col))
                else:
                    raise ValueError(f"{cell!r}: no offset grid for this kind of cell")
            top = min((r for r, _ in at), default=0)
            left = min((c for _, c in at), default=0)
            return tuple((r - top, c - left) for r, c in at)

        return self.derived(("offset-grid",), build)

    def index(self) -> dict[C, int]:
        """Cell -> integer index, matching :meth:`indexed_cells`."""
        self.indexed_cells()
        return cast(dict[C, int], self._cache["index"])

    # -- derived by label ------------------------------------------------------------
    def path_steps(self, sources: tuple[str, ...]) -> Mapping[str, int]:
        """Fewest steps from the nearest of the cells labelled ``sources`` to every cell
        reached through cells whose terrain is not impassable (a breadth-first search on
        the graph: costs, hexsides, units and ZOC ignored), by label; kept per tuple of
        sources.

        >>> from hexwar.board.terrain import chart_from_dict
        >>> chart = chart_from_dict({"terrain": {"clear": {}, "lake": {"impassable": True}},
        ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
        >>> cells = rectangle(3, 2)                           # cells[2]: 0201, a lake
        >>> m = build_map(chart, dict.fromkeys(cells, "clear") | {cells[2]: "lake"}, offset="odd-q")
        >>> dict(m.path_steps(("0101",)))
        {'0101': 0, '0102': 1, '0202': 2, '0301': 4, '0302': 3}
        >>> m.zoc_labels()["0101"]                           # not the lake (not in ZOC)
        ('0102',)
        """

        def build() -> _StepCounts:
            cells, index, adj = self.indexed_cells(), self.index(), self.graph.adj
            terrains = self.chart.terrains
            return _StepCounts(
                tuple(self.label(c) for c in cells),
                tuple(tuple(sorted([index[n] for n in adj[c]])) for c in cells),
                tuple(not terrains[self.terrain(c)].impassable for c in cells),
            )

        return self.derived(("path-steps",), build)(sources)

    def zoc_projection(self) -> list[tuple[int, ...]]:
        """Per cell index ``i``: the indices of the cells a unit standing at ``i`` controls
        (``in_zoc`` terrain, across hexsides that do not block ZOC; static data, so kept on
        the map)."""

        def build() -> list[tuple[int, ...]]:
            cells, index, chart = self.indexed_cells(), self.index(), self.chart
            adj, terrain = self.graph.adj, self.graph.nodes
            in_zoc = {name: t.in_zoc for name, t in chart.terrains.items()}
            blocks: dict[frozenset[str], bool] = {}
            out: list[tuple[int, ...]] = []
            for cell in cells:
                targets = []
                for nb, edge in adj[cell].items():
                    side = edge["hexside"]
                    b = blocks.get(side)
                    if b is None:
                        b = blocks[side] = chart.blocks_zoc(side)
                    if not b and in_zoc[terrain[nb]["terrain"]]:
                        targets.append(index[nb])
                out.append(tuple(sorted(targets)))
            return out

        return self.derived("zoc", build)

    def zoc_labels(self) -> Mapping[str, tuple[str, ...]]:
        """Every cell's label -> the labels of the cells a unit standing on it controls
        (:meth:`zoc_projection` by label), in cell-index order; kept on the map."""

        def build() -> dict[str, tuple[str, ...]]:
            cells, proj = self.indexed_cells(), self.zoc_projection()
            return {
                self.label(c): tuple(self.label(cells[j]) for j in proj[i])
                for i, c in enumerate(cells)
            }

        return self.derived(("zoc-labels",), build)

    def with_movement_costs(self, costs: Iterable[tuple[str, str, float | None]]) -> GameMap[C]:
        """This map with some movement costs changed: ``(movement class, terrain, cost)``,
        ``None`` for impassable (mud, a frozen river, a card's effect).

        The graph is shared, and so is every cached answer that does not depend on the
        changed classes' costs (the cells, zones of control, the other classes'
        compiled steps), so a variant costs only the recompiling of what changed.

        >>> from hexwar.board.terrain import chart_from_dict
        >>> chart = chart_from_dict({"terrain": {"clear": {}, "marsh": {}},
        ...     "movement": {"foot": {"terrain": {"clear": 1, "marsh": 3}}}})
        >>> m = build_map(chart, {Hex(0, 0): "clear", Hex(1, 0): "marsh"})
        >>> m.with_movement_costs([("foot", "marsh", None)]).cost(Hex(0, 0), Hex(1, 0), "foot")
        >>> m.cost(Hex(0, 0), Hex(1, 0), "foot").cost
        3
        """
        costs = tuple(costs)
        if not costs:
            return self
        classes = dict(self.chart.movement_classes)
        for mclass, terrain, cost in costs:
            self.chart.movement_class(mclass)  # an unknown class fails here
            mc = classes[mclass]  # several changes of one class add up
            classes[mclass] = attrs.evolve(mc, terrain={**mc.terrain, terrain: cost})
        chart = attrs.evolve(self.chart, movement_classes=classes)
        variant = attrs.evolve(self, chart=chart)
        changed = {mclass for mclass, _, _ in costs}
        variant._cache.update(
            (k, v)
            for k, v in self._cache.items()
            if not (isinstance(k, tuple) and k[0] == COST_CACHE and k[1] in changed)
        )
        return variant


class _StepCounts:
    """Fewest steps from the nearest of some source cells to every cell reached through
    passable cells (a breadth-first search on neighbour indices, costs ignored), by
    label: ``counts(sources)``. Built once per tuple of sources (:func:`kept`); what
    :meth:`GameMap.path_steps` asks.

    >>> counts = _StepCounts(("a", "b", "c"), ((1,), (0, 2), (1,)), (True, True, True))
    >>> dict(counts(("a",)))
    {'a': 0, 'b': 1, 'c': 2}
    """

    def __init__(
        self,
        labels: Sequence[str],
        neighbors: Sequence[Sequence[int]],
        passable: Sequence[bool],
    ) -> None:
        self.labels, self.neighbors, self.passable = tuple(labels), neighbors, tuple(passable)
        self.index = {lab: i for i, lab in enumerate(self.labels)}
        self._kept: dict[tuple[str, ...], dict[str, int]] = {}

    def __call__(self, sources: tuple[str, ...]) -> Mapping[str, int]:
        found = self._kept.get(sources)
        if found is None:
            found = kept(self._kept, sources, self._count(sources))
        return found

    def _count(self, sources: tuple[str, ...]) -> dict[str, int]:
        index, labels = self.index, self.labels
        depth = [-1 if ok else -2 for ok in self.passable]  # -2: impassable
        starts = [i for s in sources if (i := index.get(s)) is not None]
        step_levels(self.neighbors, starts, depth)
        return {labels[i]: d for i, d in enumerate(depth) if d >= 0}


def step_levels(near: Sequence[Sequence[int]], starts: Iterable[int], depth: list[int]) -> None:
    """Breadth first over cell indices: each cell whose ``depth`` is ``-1`` (not reached;
    any other value is never entered) gets its number of steps over ``near`` (each cell's
    neighbours) from the nearest of ``starts``.

    >>> depth = [-1, -1, -2, -1]
    >>> step_levels([(1,), (0, 2), (1, 3), (2,)], [0], depth)
    >>> depth
    [0, 1, -2, -1]
    """
    frontier = [i for i in sorted(set(starts)) if depth[i] == -1]
    for i in frontier:
        depth[i] = 0
    d = 0
    while frontier:
        d += 1
        ahead = []
        for i in frontier:
            for j in near[i]:
                if depth[j] == -1:
                    depth[j] = d
                    ahead.append(j)
        frontier = ahead


def _labels(offset: str, digits: int) -> MapLabels:
    return MapLabels(OffsetKind(offset), col_digits=digits, row_digits=digits, first=1)


def parse_label(label: str, grid: str, offset: str | None, digits: int) -> Hashable:
    """The cell a map label names (``"0101"``: column 1, row 1) on a ``grid``."""
    if not grid.startswith("square"):
        if offset is None:
            raise ValueError("this map has no labels (no offset layout)")
        return _labels(offset, digits).parse(label)
    if len(label) != 2 * digits or not label.isdigit():
        raise ValueError(f"bad map label {label!r}: expected {digits} + {digits} digits")
    col, row = int(label[:digits]) - 1, int(label[digits:]) - 1
    if col < 0 or row < 0:
        raise ValueError(f"bad map label {label!r}: numbers start at 1")
    return Square(col, row)


def build_map(
    chart: TerrainChart,
    terrain: Mapping[C, str],
    *,
    topology: Topology[Any] = HEX_GRID,
    names: Mapping[C, str] | None = None,
    tags: Mapping[C, Iterable[str]] | None = None,
    hexsides: Mapping[tuple[C, C], Collection[str]] | None = None,
    paths: Iterable[tuple[str, Sequence[C]]] = (),
    name: str | None = None,
    offset: str | None = None,
    label_digits: int = 2,
    source: str = "<data>",
) -> GameMap[C]:
    """Build and validate a map from cells -> terrain, optional names, tags and features.

    ``hexsides`` maps a pair of adjacent cells to its hexside features; ``paths`` are
    ``(linear feature, cells)`` with consecutive cells adjacent. Errors are
    :class:`DataError` naming ``source`` and the entry.
    """

    def fail(entry: str, reason: str) -> DataError:
        return DataError(reason, source=source, entry=entry)

    g = nx.Graph()
    for cell, t in terrain.items():
        if t not in chart.terrains:
            raise fail(f"cell {cell!r}", f"unknown terrain {t!r}")
        g.add_node(cell, terrain=t, name=None, tags=_EMPTY)
    for cell, n in (names or {}).items():
        if cell not in g:
            raise fail(f"names[{cell!r}]", "cell is off the map")
        g.nodes[cell]["name"] = n
    for cell, ts in (tags or {}).items():
        if cell not in g:
            raise fail(f"tags[{cell!r}]", "cell is off the map")
        g.nodes[cell]["tags"] = frozenset(ts)
    for cell in terrain:
        for nb in topology.neighbors(cell):
            if nb in g and not g.has_edge(cell, nb):
                g.add_edge(cell, nb, hexside=_EMPTY, linear=_EMPTY)
    for (a, b), features in (hexsides or {}).items():
        entry = f"hexsides[{a!r}, {b!r}]"
        _check_edge(g, a, b, entry, fail)
        for f in features:
            if f not in chart.hexside_features:
                raise fail(entry, f"unknown hexside feature {f!r}")
        g.edges[a, b]["hexside"] = g.edges[a, b]["hexside"] | frozenset(features)
    for i, (feature, cells) in enumerate(paths):
        entry = f"paths[{i}]"
        if feature not in chart.linear_features:
            raise fail(entry, f"unknown linear feature {feature!r}")
        if len(cells) < 2:
            raise fail(entry, "a path needs at least two cells")
        for a, b in itertools.pairwise(cells):
            _check_edge(g, a, b, entry, fail)
            g.edges[a, b]["linear"] = g.edges[a, b]["linear"] | {feature}
    return GameMap(g, chart, topology, name, offset, label_digits)


def _check_edge(g: nx.Graph, a: object, b: object, entry: str, fail: Any) -> None:
    for c in (a, b):
        if c not in g:
            raise fail(entry, f"cell {c!r} is off the map")
    if not g.has_edge(a, b):
        raise fail(entry, f"cells {a!r} and {b!r} are not adjacent")
