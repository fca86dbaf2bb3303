"""Piece movement in one phase: ``move PIECE CELL`` (:class:`PieceMoves`, :class:`MoveQuery`).

Nearly every hex-and-counter game asks the same movement question: which of a side's
pieces may move now, with how many points, and in which cells may each end its move? A
:class:`PieceMoves` answers it from the game's data and hooks: the piece registry (cells
by the map's labels), the side's pieces in order, a points function, each piece's
movement class, the map with the terrain costs in force (``overrides``, e.g. from
effects: :func:`effect_costs`). The end cells come from the ZOC-aware search
(:class:`~hexwar.board.movement.MoveSearch`: enemy pieces block and exert ZOC, friendly
pieces pass and exert none, one piece ends per cell), memoised on its arguments
(:func:`reach_labels`). "May this piece move?" is first asked one step out (an adjacent
empty cell it can pay for: it may always end there), the search only for a piece that
test does not settle; the idle test stops at the first piece that moves.

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.board.terrain import chart_from_dict
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.grid.geometry import Hex
>>> chart = chart_from_dict({"terrain": {"clear": {}},
...     "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> board = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
>>> reg = Pieces(HEX_CODEC)               # cells stored as "q,r"
>>> moves = PieceMoves(reg, lambda state: board, classes=lambda state: {"r1": "foot"},
...                    points=lambda state, side: {"r1": 1}.__getitem__, codec=HEX_CODEC)
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("move", "red", end_when_idle=False),)),))
>>> state = Game().new_state()
>>> reg.place(state, "r1", Hex(0, 0), "red"); reg.place(state, "b1", Hex(2, 0), "blue")
>>> moves.movers(state, "red"), moves.ends(state, "red", ("r1",))
(['r1'], ['-1,0', '-1,1', '0,-1', '0,1', '1,-1', '1,0'])
>>> moves.play(state, moves.actions(state, "red")[0])
>>> reg.where(state, "r1"), moves.exists(state, "red")   # a piece moves once a phase
(Hex(q=-1, r=0), False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from hexwar.board.maps import COST_CACHE, GameMap
from hexwar.board.move_search import CompiledSteps, compiled_adjacency
from hexwar.board.movement import MoveSearch
from hexwar.board.pieces import CellCodec, Pieces
from hexwar.engine.actions import Action
from hexwar.engine.state import State

__all__ = [
    "REACH_MEMO_SIZE",
    "SEARCH_MEMO_SIZE",
    "FirstSteps",
    "MoveQuery",
    "Overrides",
    "PieceMoves",
    "class_map",
    "effect_costs",
    "first_steps",
    "map_variant",
    "prepared_search",
    "reach_labels",
]

#: Terrain-cost overrides: ``(movement class, terrain, cost)``, cost ``None`` impassable.
Overrides = tuple[tuple[str, str, float | None], ...]
#: Bounds of the memos kept per map and movement class: end cells per (enemy cells,
#: start, points) and prepared searches per enemy cells; a memo is emptied when full.
REACH_MEMO_SIZE: Final = 8192
Codec = CellCodec[Any]
SEARCH_MEMO_SIZE: Final = 64


# -- the map in force and its memoised searches ---------------------------------------------


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


def map_variant(game_map: GameMap[Any], overrides: Overrides) -> GameMap[Any]:
    """``game_map`` with ``overrides`` (:meth:`GameMap.with_movement_costs`), kept on it."""
    if not overrides:
        return game_map
    variant = game_map.with_movement_costs
    return game_map.derived(("cost-variant", overrides), lambda: variant(overrides))


def class_map(game_map: GameMap[Any], overrides: Overrides, movement_class: str) -> GameMap[Any]:
    """The map a piece of ``movement_class`` moves on: only its own overrides apply (the
    other classes' variants are the same map, one memo fewer)."""
    if overrides:
        overrides = tuple(o for o in overrides if o[0] == movement_class)
    return map_variant(game_map, overrides)


class _Memo:
    """The memoised searches of one map and movement class, cells named by ``codec``."""

    def __init__(self, game_map: GameMap[Any], movement_class: str, codec: Codec) -> None:
        self.game_map, self.movement_class, self.codec = game_map, movement_class, codec
        self.labels: tuple[str, ...] = tuple(map(codec.label, game_map.indexed_cells()))
        self.indices = {lab: i for i, lab in enumerate(self.labels)}
        self.searches: dict[frozenset[str], MoveSearch[Any]] = {}
        self.reach: dict[tuple[frozenset[str], str, int], tuple[str, ...]] = {}
        self.steps: FirstSteps | None = None

    def search(self, enemies: frozenset[str]) -> MoveSearch[Any]:
        found = self.searches.get(enemies)
        if found is None:
            if len(self.searches) >= SEARCH_MEMO_SIZE:
                self.searches.clear()
            cells = [self.codec.cell_at(lab) for lab in sorted(enemies)]
            found = MoveSearch(self.game_map, self.movement_class, enemies=cells)
            self.searches[enemies] = found
        return found

    def ends(self, enemies: frozenset[str], label: str, points: int) -> tuple[str, ...]:
        key = (enemies, label, points)
        found = self.reach.get(key)
        if found is None:
            if len(self.reach) >= REACH_MEMO_SIZE:
                self.reach.clear()
            search = self.search(enemies)
            ends = search.end_indices(self.codec.cell_at(label), points)
            at, start = self.labels, self.indices[label]
            found = self.reach[key] = tuple(sorted([at[i] for i in ends if i != start]))
        return found


def _memo(game_map: GameMap[Any], movement_class: str, codec: Codec | None = None) -> _Memo:
    key = (COST_CACHE, movement_class, "piece-moves", codec)
    return game_map.derived(key, lambda: _Memo(game_map, movement_class, codec or game_map))


def prepared_search(
    game_map: GameMap[Any],
    movement_class: str,
    enemies: frozenset[str],
    codec: Codec | None = None,
) -> MoveSearch[Any]:
    """The :class:`MoveSearch` against enemy pieces on the labels ``enemies`` (friendly
    pieces pass and exert no ZOC, so they are not part of it), memoised on the map.
    ``codec``: how the labels name the map's cells (default: the map's own labels)."""
    return _memo(game_map, movement_class, codec).search(enemies)


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
    return _memo(game_map, movement_class, codec).ends(enemies, label, points)


class FirstSteps(dict[str, tuple[tuple[float, str], ...]]):
    """The steps out of each cell for one movement class on one map (ordinary and "stop"
    hexsides alike: a piece may end its move in any cell it can enter), label ->
    ``(cost, label)`` sorted by cost; each label's entry is built on first use."""

    def __init__(self, steps: CompiledSteps, labels: Sequence[str], indices: Mapping[str, int]):
        super().__init__()
        self._steps, self._labels, self._indices = steps, labels, indices

    def __missing__(self, label: str) -> tuple[tuple[float, str], ...]:
        i, labels, steps = self._indices[label], self._labels, self._steps
        found = tuple(sorted((cost, labels[j]) for j, cost in (*steps.go[i], *steps.stop[i])))
        self[label] = found
        return found


def first_steps(
    game_map: GameMap[Any], movement_class: str, codec: Codec | None = None
) -> FirstSteps:
    """:class:`FirstSteps` of ``movement_class`` on ``game_map``, kept on the map."""
    memo = _memo(game_map, movement_class, codec)
    if memo.steps is None:
        steps = compiled_adjacency(game_map, movement_class)
        memo.steps = FirstSteps(steps, memo.labels, memo.indices)
    return memo.steps


# -- the query ----------------------------------------------------------------------------


@attrs.frozen(eq=False)
class PieceMoves:
    """Movement of pieces, one move each per phase (see the module docstring).

    ``pieces``: the registry; ``game_map(state)``: the map (its cells are named by
    ``codec``'s labels, by default the map's own, e.g. a registry of ``LABELS``);
    ``classes(state)``: piece -> movement class; ``points(state, side)``: the points of
    a piece of the side that has not moved yet (0 or less: it may not move), built once
    per query; ``order(state, side)``: the side's pieces in the order of the answers
    (default: sorted); ``overrides(state)``: the terrain costs in force (default: none),
    read once per position; ``moved``: the table marking a piece that moved; ``kind``:
    the action kind; ``name``: the key of the derived values.
    """

    pieces: Pieces[Any]
    game_map: Callable[[State], GameMap[Any]]
    classes: Callable[[State], Mapping[str, str]]
    points: Callable[[State, str], Callable[[str], int]]
    order: Callable[[State, str], Sequence[str]] | None = None
    overrides: Callable[[State], Overrides] | None = None
    moved: str = "moved"
    kind: str = "move"
    name: str = "piece-moves"
    codec: Codec | None = None
    _actions: dict[str, dict[str, Action]] = attrs.field(factory=dict, init=False, repr=False)

    def query(self, state: State, side: str) -> MoveQuery:
        """The side's movement query in this position."""
        return MoveQuery(self, state, side)

    def exists(self, state: State, side: str) -> bool:
        """Whether ``side`` has at least one move (stops at the first)."""
        return self.query(state, side).exists()

    def movers(self, state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
        """The side's pieces that may move and have a cell to end in, in order."""
        return self.query(state, side).movers()

    def ends(self, state: State, side: str, args: tuple[str, ...]) -> list[str]:
        """The cells (labels) the piece ``args[0]`` may end its move in, sorted."""
        query = self.query(state, side)
        label = query.place_of(args[0])
        return [] if label is None else query.ends(args[0], label, query.points(args[0]))

    def actions(self, state: State, side: str) -> list[Action]:
        """Every ``move PIECE CELL``, by piece in order, then by cell."""
        return self.query(state, side).actions()

    def action_table(self, piece: str) -> dict[str, Action]:
        """``piece``'s (interned) ``move PIECE CELL`` actions by label, filled on use."""
        table = self._actions.get(piece)
        if table is None:
            table = self._actions[piece] = _Actions(self.kind, piece)
        return table

    def play(self, state: State, action: Action) -> None:
        """Carry out ``move PIECE CELL``: the piece moves there, marked as moved."""
        piece, label = action.args
        self.pieces.move(state, piece, self.pieces.codec.cell_at(label))
        state.put(self.moved, piece, True)


class _Actions(dict[str, Action]):
    def __init__(self, kind: str, piece: str) -> None:
        super().__init__()
        self._kind, self._piece = kind, piece

    def __missing__(self, label: str) -> Action:
        found = self[label] = Action(self._kind, (self._piece, label))
        return found


class MoveQuery:
    """One side's movement query in one position: what it reads once (the occupied
    cells, the moved table, the terrain costs in force, the points function) and the
    per-piece answers built on it."""

    def __init__(
        self,
        moves: PieceMoves,
        state: State,
        side: str,
        points: Callable[[str], int] | None = None,
    ) -> None:
        self.moves, self.state, self.side = moves, state, side
        self.at = moves.pieces.occupied(state)
        self.moved = state.table(moves.moved)
        self.classes = moves.classes(state)
        get = moves.overrides
        self.overrides: Overrides = (
            () if get is None else state.derive((moves.name, "overrides"), lambda: get(state))
        )
        self.free_points = moves.points(state, side) if points is None else points
        self._memos: dict[str, _Memo] = {}
        self._steps: dict[str, FirstSteps] = {}

    def enemies(self) -> frozenset[str]:
        """The labels holding enemy pieces (one set per position and side)."""
        state, side, pieces = self.state, self.side, self.moves.pieces

        def build() -> frozenset[str]:
            entries = pieces.entries(state)
            return frozenset([lab for lab, s in self.at.items() if entries[s[0]][1] != side])

        return state.derive((self.moves.name, "enemies", side), build)

    def _order(self) -> Sequence[str]:
        order = self.moves.order
        if order is None:
            return self.moves.pieces.pieces_of(self.state, self.side)
        return order(self.state, self.side)

    def units(self) -> list[tuple[str, str]]:
        """``(piece, label)`` of the side's pieces on the map, in order."""
        entries = self.moves.pieces.entries(self.state)
        return [(p, e[0]) for p in self._order() if (e := entries.get(p)) is not None]

    def ready(self) -> tuple[tuple[str, str, int], ...]:
        """``(piece, label, points)`` of the side's pieces on the map that may move now
        (points > 0), in order."""
        return tuple(self._ready())

    def _ready(self) -> Iterator[tuple[str, str, int]]:
        entries, moved, points = self.moves.pieces.entries(self.state), self.moved, self.free_points
        for piece in self._order():
            entry = entries.get(piece)
            if entry is not None and not moved.get(piece) and (p := points(piece)) > 0:
                yield piece, entry[0], p

    def points(self, piece: str) -> int:
        """The piece's movement points now, 0 if it may not move."""
        return 0 if self.moved.get(piece) else max(0, self.free_points(piece))

    def _memo(self, mclass: str) -> _Memo:
        memo = self._memos.get(mclass)
        if memo is None:
            game_map = class_map(self.moves.game_map(self.state), self.overrides, mclass)
            memo = self._memos[mclass] = _memo(game_map, mclass, self.moves.codec)
        return memo

    def first_steps(self, mclass: str) -> FirstSteps:
        """The steps out of each cell for ``mclass`` under the costs in force."""
        steps = self._steps.get(mclass)
        if steps is None:
            memo = self._memo(mclass)
            steps = self._steps[mclass] = first_steps(memo.game_map, mclass, self.moves.codec)
        return steps

    def steps_out(self, piece: str, label: str, points: int) -> bool:
        """The cheap sufficient test: an adjacent empty cell the piece can pay for."""
        mclass = self.classes[piece]
        steps = self._steps.get(mclass)
        if steps is None:
            steps = self.first_steps(mclass)
        at = self.at
        for cost, lab in steps[label]:
            if cost > points:
                return False
            if lab not in at:
                return True
        return False

    def ends(self, piece: str, label: str, points: int) -> list[str]:
        """The cells (labels) ``piece`` on ``label`` may end its move in, sorted."""
        if points <= 0:
            return []
        mclass = self.classes[piece]
        memo = self._memos.get(mclass)
        if memo is None:
            memo = self._memo(mclass)
        at = self.at
        return [lab for lab in memo.ends(self.enemies(), label, points) if lab not in at]

    def may_move(self, piece: str, label: str) -> bool:
        """Whether ``piece`` on ``label`` has at least one cell to move to."""
        points = self.points(piece)
        if points <= 0:
            return False
        return self.steps_out(piece, label, points) or bool(self.ends(piece, label, points))

    def place_of(self, piece: str) -> str | None:
        """The label of one of the side's pieces on the map, or ``None``."""
        entry = self.moves.pieces.entries(self.state).get(piece)
        return None if entry is None or entry[1] != self.side else entry[0]

    def exists(self) -> bool:
        """Whether the side has a move: the cheap test piece by piece (stopping at the
        first that steps out), the search only for the pieces it does not settle."""
        later = []
        steps_out = self.steps_out
        for piece, label, points in self._ready():
            if steps_out(piece, label, points):
                return True
            later.append((piece, label, points))
        return any(self.ends(p, lab, n) for p, lab, n in later)

    def movers(self) -> list[str]:
        """The side's pieces that may move and have a cell to end in, in order."""
        at, classes, tables = self.at, self.classes, self._steps
        out = []
        for piece, label, points in self._ready():
            # steps_out inlined: one step out to an empty cell settles most pieces
            mclass = classes[piece]
            steps = tables.get(mclass)
            if steps is None:
                steps = self.first_steps(mclass)
            free = False
            for cost, lab in steps[label]:
                if cost > points:
                    break
                if lab not in at:
                    free = True
                    break
            if free or self.ends(piece, label, points):
                out.append(piece)
        return out

    def actions(self) -> list[Action]:
        """Every ``move PIECE CELL``, by piece in order, then by cell."""
        out: list[Action] = []
        table = self.moves.action_table
        for piece, label, points in self._ready():
            ends = self.ends(piece, label, points)
            if ends:
                out.extend(map(table(piece).__getitem__, ends))
        return out
