"""The map in force and its memoised ZOC-aware searches, by cell label.

A movement query asks the same searches again and again: the cells a piece of one
movement class may end its move in, from one start with some points, against the enemy
pieces where they stand. :func:`reach_labels` answers by label from a
:class:`~hexwar.board.movement.MoveSearch` prepared once per enemy placement, both kept
on the map (a :class:`SearchMemo` per map and movement class, bounded). The map in force
is the game's with the terrain costs of the moment (:func:`map_variant`, e.g. from
effects: :func:`effect_costs`); each variant has its own memos. :class:`FirstSteps` lists
the steps out of a cell, cheapest first: the cheap test "can it move at all?".

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.pieces import HEX_CODEC
>>> from hexwar.board.terrain import chart_from_dict
>>> chart = chart_from_dict({"terrain": {"clear": {}},
...     "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> board = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
>>> reach_labels(board, "foot", frozenset({"2,0"}), "0,0", 1, HEX_CODEC)
('-1,0', '-1,1', '0,-1', '0,1', '1,-1', '1,0')
>>> reach_labels(board, "foot", frozenset(), "0,0", 1, HEX_CODEC) is reach_labels(
...     board, "foot", frozenset(), "0,0", 1, HEX_CODEC)      # memoised
True
>>> first_steps(board, "foot", HEX_CODEC)["2,0"]
((1, '1,0'), (1, '1,1'), (1, '2,-1'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from hexwar.board.maps import COST_CACHE, GameMap
from hexwar.board.move_search import CompiledSteps, compiled_adjacency
from hexwar.board.movement import EnemyZone, MoveSearch, enemy_zone
from hexwar.board.pieces import CellCodec
from hexwar.engine.memo import StateMemo, kept
from hexwar.engine.state import State

__all__ = [
    "SEARCH_MEMO_SIZE",
    "Codec",
    "EffectCosts",
    "FirstSteps",
    "Overrides",
    "SearchMemo",
    "class_map",
    "effect_costs",
    "first_steps",
    "map_variant",
    "prepared_search",
    "reach_labels",
    "search_memo",
]

#: Terrain-cost overrides: ``(movement class, terrain, cost)``, cost ``None`` impassable.
Overrides = tuple[tuple[str, str, float | None], ...]
#: How labels name a map's cells (a :class:`~hexwar.board.maps.GameMap` is one).
Codec = CellCodec[Any]
#: The bound of the prepared searches kept per map and movement class (by enemy cells;
#: emptied when full), the one cache of the core under a bound of its own: each holds
#: arrays the size of the map. An entry is asked again mostly within one phase (the
#: enemy does not move in it), so a small bound costs no hits: «Сталинград»'s random
#: games ran the same bytecodes with 16 as with 64, and its bot too, while a process's
#: memory no longer grows with the games it plays. The end cells per (enemy cells,
#: start, points) are kept under the core's one bound (:func:`kept`).
SEARCH_MEMO_SIZE: Final = 16


def effect_costs(state: State, classes: Iterable[str], kind: str = "terrain_cost") -> Overrides:
    """The terrain costs that effects of ``kind`` in force set, sorted: params ``terrain``,
    ``cost`` (a number or ``"impassable"``) and ``movement_class`` (absent: every one of
    ``classes``); a later effect overrides an earlier one."""
    every, out = sorted(classes), dict[tuple[str, str], float | None]()
    for e in state.effects:
        if e.kind != kind:
            continue
        terrain, cost, mclass = e.param("terrain"), e.param("cost"), e.param("movement_class")
        assert isinstance(terrain, str)
        value = None if cost == "impassable" else cost
        assert value is None or isinstance(value, int | float)
        for c in every if mclass is None else [mclass]:
            assert isinstance(c, str)
            out[c, terrain] = value
    return tuple((c, t, v) for (c, t), v in sorted(out.items()))


class EffectCosts:
    """:func:`effect_costs` of ``classes`` (or of ``classes(state)``) as a reader of the
    state, found once per set of effects in force: what a
    :class:`~hexwar.mechanics.moves.PieceMoves` given ``overrides="terrain_cost"`` reads."""

    def __init__(
        self,
        classes: Iterable[str] | Callable[[State], Iterable[str]],
        kind: str = "terrain_cost",
    ) -> None:
        self.classes = classes if callable(classes) else tuple(sorted(classes))
        self.kind = kind
        self._memo: StateMemo[Overrides] = StateMemo(reads=("$effects",), compute=self._find)

    def __call__(self, state: State) -> Overrides:
        return self._memo(state) if state.effects else ()

    def _find(self, state: State) -> Overrides:
        classes = self.classes(state) if callable(self.classes) else self.classes
        return effect_costs(state, classes, self.kind)


def map_variant(game_map: GameMap[Any], overrides: Overrides) -> GameMap[Any]:
    """``game_map`` with ``overrides`` (:meth:`GameMap.with_movement_costs`), kept on it."""
    if not overrides:
        return game_map

    def build() -> GameMap[Any]:
        game_map.derived(_NAMES, dict)  # before the variant copies the cache: shared
        return game_map.with_movement_costs(overrides)

    return game_map.derived(("cost-variant", overrides), build)


def class_map(game_map: GameMap[Any], overrides: Overrides, movement_class: str) -> GameMap[Any]:
    """The map a piece of ``movement_class`` moves on: only its own overrides apply (the
    other classes' variants are the same map, one memo fewer)."""
    if overrides:
        overrides = tuple(o for o in overrides if o[0] == movement_class)
    return map_variant(game_map, overrides)


class SearchMemo:
    """The memoised searches of one map and movement class, cells named by ``codec``
    (its ``labels`` by cell index, ``indices`` and ``cells`` by label; ``None``: the
    map's own labels)."""

    def __init__(
        self, game_map: GameMap[Any], movement_class: str, codec: Codec | None = None
    ) -> None:
        self.game_map, self.movement_class = game_map, movement_class
        self.codec: Codec = codec or game_map
        names = _names(game_map, codec)
        self.labels, self.indices, self.cells = names.labels, names.indices, names.cells
        self.zones = names.zones
        self.searches: dict[frozenset[str], MoveSearch[Any]] = {}
        self.reach: dict[tuple[frozenset[str], str, int], tuple[str, ...]] = {}
        self.steps: FirstSteps | None = None

    def search(self, enemies: frozenset[str]) -> MoveSearch[Any]:
        """The search against enemy pieces on ``enemies`` (see :func:`prepared_search`)."""
        found = self.searches.get(enemies)
        if found is None:
            zone = self.zones.get(enemies)
            if zone is None:
                zone = enemy_zone(self.game_map, list(map(self.indices.__getitem__, enemies)))
                kept(self.zones, enemies, zone, SEARCH_MEMO_SIZE)
            found = MoveSearch.in_zone(self.game_map, self.movement_class, zone)
            kept(self.searches, enemies, found, SEARCH_MEMO_SIZE)
        return found

    def first_steps(self) -> FirstSteps:
        """The steps out of each cell (see :func:`first_steps`)."""
        if self.steps is None:
            steps = compiled_adjacency(self.game_map, self.movement_class)
            self.steps = FirstSteps(steps, self.labels, self.indices)
        return self.steps

    def path(self, enemies: frozenset[str], label: str, points: int, to: str) -> list[str]:
        """The labels of one cheapest route of a move from ``label`` to ``to`` (both
        included), against enemy pieces on ``enemies``."""
        cells, labels = self.cells, self.codec.label
        return [labels(c) for c in self.search(enemies).path(cells[label], points, cells[to])]

    def ends(self, enemies: frozenset[str], label: str, points: int) -> tuple[str, ...]:
        """The end cells of a move (see :func:`reach_labels`)."""
        key = (enemies, label, points)
        found = self.reach.get(key)
        if found is None:
            start = self.indices[label]
            ends = self.search(enemies).ends_from(start, points)
            del ends[start]  # staying put is no move
            found = tuple(sorted(map(self.labels.__getitem__, ends)))
            kept(self.reach, key, found)
        return found


#: The key of a map's :class:`_Names` by codec (no movement class: its cost variants
#: share them, :func:`map_variant`).
_NAMES: Final = "piece-moves-names"


def _names(game_map: GameMap[Any], codec: Codec | None) -> _Names:
    by_codec: dict[Codec | None, _Names] = game_map.derived(_NAMES, dict)
    found = by_codec.get(codec)
    if found is None:
        found = by_codec[codec] = _Names(game_map, codec)
    return found


class _Names:
    """A map's cells by ``codec``'s labels, and the enemy zones by enemy labels
    (:func:`~hexwar.board.movement.enemy_zone`): the same for the map's cost variants
    (the same cells, the same ZOC), which share them, so that every movement class's
    :class:`SearchMemo` resolves an enemy position once."""

    def __init__(self, game_map: GameMap[Any], codec: Codec | None) -> None:
        cells = game_map.indexed_cells()
        self.labels: tuple[str, ...] = tuple(map((codec or game_map).label, cells))
        self.indices = {lab: i for i, lab in enumerate(self.labels)}
        self.cells = dict(zip(self.labels, cells, strict=True))
        self.zones: dict[frozenset[str], EnemyZone] = {}


def search_memo(
    game_map: GameMap[Any], movement_class: str, codec: Codec | None = None
) -> SearchMemo:
    """The :class:`SearchMemo` of ``movement_class`` on ``game_map``, kept on the map
    (``codec`` ``None``: the map's own labels)."""
    key = (COST_CACHE, movement_class, "piece-moves", codec)
    return game_map.derived(key, lambda: SearchMemo(game_map, movement_class, codec))


def prepared_search(
    game_map: GameMap[Any],
    movement_class: str,
    enemies: frozenset[str],
    codec: Codec | None = None,
) -> MoveSearch[Any]:
    """The :class:`MoveSearch` against enemy pieces on the labels ``enemies`` (friendly
    pieces pass and exert no ZOC, so they are not part of it), memoised on the map.
    ``codec``: how the labels name the map's cells (default: the map's own labels)."""
    return search_memo(game_map, movement_class, codec).search(enemies)


def reach_labels(
    game_map: GameMap[Any],
    movement_class: str,
    enemies: frozenset[str],
    label: str,
    points: int,
    codec: Codec | None = None,
) -> tuple[str, ...]:
    """The labels a piece of ``movement_class`` on ``label`` with ``points`` may end its
    move in against enemy pieces on ``enemies``, friendly pieces ignored (sorted, without
    ``label``): a pure function of the arguments, memoised on the map."""
    return search_memo(game_map, movement_class, codec).ends(enemies, label, points)


class FirstSteps(dict[str, tuple[tuple[float, str], ...]]):
    """The steps out of each cell for one movement class on one map (ordinary and "stop"
    hexsides alike: a piece may end its move in any cell it can enter), label ->
    ``(cost, label)`` sorted by cost; each label's entry is built on first use."""

    def __init__(self, steps: CompiledSteps, labels: Sequence[str], indices: Mapping[str, int]):
        super().__init__()
        self._steps, self._labels, self._indices = steps, labels, indices

    def __missing__(self, label: str) -> tuple[tuple[float, str], ...]:
        i, steps = self._indices[label], self._steps
        found: tuple[tuple[float, str], ...] = ()
        row = (*steps.go[i], *steps.stop[i])
        if row:
            cells, costs = zip(*row, strict=True)
            found = tuple(sorted(zip(costs, map(self._labels.__getitem__, cells), strict=True)))
        self[label] = found
        return found


def first_steps(
    game_map: GameMap[Any], movement_class: str, codec: Codec | None = None
) -> FirstSteps:
    """:class:`FirstSteps` of ``movement_class`` on ``game_map``, kept on the map."""
    return search_memo(game_map, movement_class, codec).first_steps()
