"""Piece movement in one phase: ``move PIECE CELL`` (:class:`PieceMoves`, :class:`MoveQuery`).

Nearly every hex-and-counter game asks the same movement question: which of a side's
pieces may move now, with how many points, and in which cells may each end its move? A
:class:`PieceMoves` answers it from the game's data and hooks: the piece registry (cells
by the map's labels), the side's pieces in order, a points function, each piece's
movement class, the map with the terrain costs in force (``overrides``, e.g. from
effects: :func:`~hexwar.mechanics.move_memo.effect_costs`). The end cells come from the
ZOC-aware search (:class:`~hexwar.board.movement.MoveSearch`: enemy pieces block and
exert ZOC, friendly pieces pass and exert none, one piece ends per cell), memoised on
its arguments (:func:`~hexwar.mechanics.move_memo.reach_labels`). "May this piece
move?" is first asked one step out (an adjacent empty cell it can pay for: it may always
end there), the search only for a piece that test does not settle; the idle test stops at
the first piece that moves.

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
>>> list(moves.movers(state, "red")), moves.ends(state, "red", ("r1",))
(['r1'], ['-1,0', '-1,1', '0,-1', '0,1', '1,-1', '1,0'])
>>> first = moves.actions(state, "red")[0]
>>> moves.path(state, first)                 # the route it would take (asked before it)
[Hex(q=0, r=0), Hex(q=-1, r=0)]
>>> moves.play(state, first)
>>> reg.where(state, "r1"), moves.exists(state, "red")   # a piece moves once a phase
(Hex(q=-1, r=0), False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import filterfalse, repeat
from operator import itemgetter
from typing import Any

import attrs

from hexwar.base.errors import PieceError
from hexwar.board.maps import GameMap
from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action
from hexwar.engine.kinds import Kind, Kinds, Values
from hexwar.engine.memo import StateMemo, kept
from hexwar.engine.sequencer import Phase
from hexwar.engine.state import State
from hexwar.mechanics.move_memo import (
    SEARCH_MEMO_SIZE,
    Codec,
    EffectCosts,
    FirstSteps,
    Overrides,
    SearchMemo,
    class_map,
    search_memo,
)

__all__ = ["MoveQuery", "PieceMoves", "Points", "SideZoc"]

#: A piece's movement points in one query (0 or less: it may not move).
Points = Callable[[str], int]


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
    asked once per query (keep it per position with :meth:`State.derive` if it is
    dear), or the kind of the effects that set them (``"terrain_cost"``: the costs
    their params give, :func:`~hexwar.mechanics.move_memo.effect_costs` over the map's
    movement classes, found once per set of effects in force); ``moved``: the table
    marking a piece that moved; ``kind``: the action kind; ``name``: the key of the
    derived values; ``codec``: see ``game_map``.
    """

    pieces: Pieces[Any]
    game_map: Callable[[State], GameMap[Any]]
    classes: Callable[[State], Mapping[str, str]]
    points: Callable[[State, str], Callable[[str], int]]
    order: Callable[[State, str], Sequence[str]] | None = None
    overrides: Callable[[State], Overrides] | str | None = None
    moved: str = "moved"
    kind: str = "move"
    name: str = "piece-moves"
    codec: Codec | None = None
    _actions: dict[str, dict[str, Action]] = attrs.field(factory=dict, init=False, repr=False)
    _memos: dict[Any, SearchMemo] = attrs.field(factory=dict, init=False, repr=False)
    _last: list[Any] = attrs.field(factory=list, init=False, repr=False)
    #: per side, the last set of enemy cells found: an equal set found later is this one
    _enemy_sets: dict[str, frozenset[str]] = attrs.field(factory=dict, init=False, repr=False)
    _costs: Callable[[State], Overrides] | None = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        costs = self.overrides
        if isinstance(costs, str):
            costs = EffectCosts(lambda state: self.game_map(state).chart.movement_classes, costs)
        object.__setattr__(self, "_costs", costs)

    def terrain_costs(self, state: State) -> Overrides:
        """The terrain costs in force now (:attr:`overrides`), as the searches use them."""
        return () if self._costs is None else self._costs(state)

    def memo(self, state: State, overrides: Overrides, movement_class: str) -> SearchMemo:
        """The searches of ``movement_class`` on the map in force (kept by map and costs)."""
        base = self.game_map(state)
        key = (base, overrides, movement_class)
        found = self._memos.get(key)
        if found is None:
            game_map = class_map(base, overrides, movement_class)
            found = search_memo(game_map, movement_class, self.codec)
            kept(self._memos, key, found, SEARCH_MEMO_SIZE)
        return found

    def map_for(self, state: State, movement_class: str) -> GameMap[Any]:
        """The map a piece of ``movement_class`` moves on now: its terrain costs under the
        :attr:`overrides` in force (the same map variant the searches use)."""
        return class_map(self.game_map(state), self.terrain_costs(state), movement_class)

    def query(self, state: State, side: str) -> MoveQuery:
        """The side's movement query in this position: the last one is kept for the idle
        test, the pieces and the end cells of a token-wise move, keyed by the state object
        and its :attr:`~State.version` (a query reads its state lazily: a clone builds its
        own; kept here, not in the state's derived values, so that no query and state
        hold each other in a cycle only the garbage collector frees)."""
        last = self._last
        if last and last[0] is state and last[1] == state.version and last[2] == side:
            found: MoveQuery = last[3]
            return found
        found = MoveQuery(self, state, side)
        self._last[:] = (state, state.version, side, found)
        return found

    def exists(self, state: State, side: str) -> bool:
        """Whether ``side`` has at least one move (stops at the first)."""
        return self.query(state, side).exists()

    def movers(self, state: State, side: str, args: tuple[str, ...] = ()) -> Iterator[str]:
        """The side's pieces that may move and have a cell to end in, in order (lazily:
        an idle test stops at the first)."""
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

    def path(self, state: State, action: Action) -> list[Any]:
        """The cells (the registry's) of one cheapest route of the legal move ``move PIECE
        CELL``, its start first: what a unit passes through (towns it takes on the way,
        :meth:`hexwar.mechanics.control.Control.enter`). Ask before :meth:`play`: a
        targeted search, run only for a game that wants the route."""
        piece, label = action.args
        query = self.query(state, self.pieces.side(state, piece))
        start = query.place_of(piece)
        if start is None:
            raise PieceError(f"{piece!r} is not a piece on the map of the side to move")
        mclass = query.classes[piece]
        labels = query._memo(mclass).path(query.enemies(), start, query.points(piece), label)
        return [self.pieces.codec.cell_at(lab) for lab in labels]

    def play(self, state: State, action: Action) -> None:
        """Carry out ``move PIECE CELL``: the piece moves there, marked as moved (no
        search: the route, when a game needs it, is :meth:`path`)."""
        piece, label = action.args
        self.pieces.move(state, piece, self.pieces.codec.cell_at(label))
        state.put(self.moved, piece, True)

    def action_kind(
        self,
        then: Callable[[State, list[Any]], None] | None = None,
        *,
        piece: str = "a unit of yours that has not moved and can",
        cell: str = "a cell that unit can reach",
    ) -> Kind[str]:
        """The ``move PIECE CELL`` kind (named :attr:`kind`) of a phase: the side's pieces
        that may move (:meth:`movers`), then the cells each may end in (:meth:`ends`); it
        plays the move (:meth:`play`), then ``then(state, path)`` if given (the route it
        took, :meth:`path`, searched only then: towns taken on the way). ``piece`` and
        ``cell`` say what each step means (the reason when a token may not follow)."""

        def does(state: State, action: Action) -> None:
            if then is None:
                self.play(state, action)
                return
            path = self.path(state, action)
            self.play(state, action)
            then(state, path)

        steps = (Values(self.movers, checked=True, means=piece), Values(self.ends, means=cell))
        return Kind(self.kind, steps, does=does)

    def phase(
        self,
        name: str,
        side: str | Callable[[State], str],
        then: Callable[[State, list[Any]], None] | None = None,
        *,
        piece: str = "a unit of yours that has not moved and can",
        cell: str = "a cell that unit can reach",
        **options: Any,
    ) -> Phase:
        """A movement phase for ``side``: its one kind is :meth:`action_kind` (``then``,
        ``piece``, ``cell`` as there), the :attr:`moved` table its ``scratch`` (``options``
        as for :class:`~hexwar.engine.sequencer.Phase`)."""
        scratch = (self.moved, *options.pop("scratch", ()))
        kinds = Kinds((self.action_kind(then, piece=piece, cell=cell),))
        return Phase(name, side=side, scratch=scratch, kinds=kinds, **options)


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
        self.overrides: Overrides = moves.terrain_costs(state)
        self.free_points = moves.points(state, side) if points is None else points
        self._memos: dict[str, SearchMemo] = {}
        self._steps: dict[str, FirstSteps] = {}
        self._enemies: frozenset[str] | None = None

    def enemies(self) -> frozenset[str]:
        """The labels holding enemy pieces (one set per position and side)."""
        found = self._enemies
        if found is None:
            key = (self.moves.name, "enemies", self.side)
            found = self._enemies = self.state.derive(key, self._find_enemies)
        return found

    def _find_enemies(self) -> frozenset[str]:
        # the (label, owner) pairs of every piece less those of an owner ``side``: the
        # cells holding a piece of another side, stacks of any mix included (set
        # operations, no loop over the pieces)
        pairs = set(self.moves.pieces.entries(self.state).values())
        pairs.difference_update(zip(self.at, repeat(self.side)))
        found = frozenset(map(itemgetter(0), pairs))
        last = self.moves._enemy_sets.get(self.side)
        if found == last:  # the enemies have not moved: the same object as before, so the
            return last  # searches and ends kept under it share it and match by identity
        self.moves._enemy_sets[self.side] = found
        return found

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
        entries, points = self.moves.pieces.entries(self.state), self.free_points
        order = self.moves.order  # called here, not through _order: one call fewer
        pieces = order(self.state, self.side) if order is not None else self._order()
        # on the map and not moved yet (both tested in C), then the points
        for piece in filterfalse(self.moved.get, filter(entries.__contains__, pieces)):
            if (p := points(piece)) > 0:
                yield piece, entries[piece][0], p

    def points(self, piece: str) -> int:
        """The piece's movement points now, 0 if it may not move."""
        return 0 if self.moved.get(piece) else max(0, self.free_points(piece))

    def _memo(self, mclass: str) -> SearchMemo:
        memo = self._memos[mclass] = self.moves.memo(self.state, self.overrides, mclass)
        return memo

    def first_steps(self, mclass: str) -> FirstSteps:
        """The steps out of each cell for ``mclass`` under the costs in force."""
        steps = self._steps.get(mclass)
        if steps is None:
            steps = self._steps[mclass] = self._memo(mclass).first_steps()
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
        return list(filterfalse(self.at.__contains__, memo.ends(self.enemies(), label, points)))

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

    def movers(self) -> Iterator[str]:
        """The side's pieces that may move and have a cell to end in, in order (lazily)."""
        steps_out, ends = self.steps_out, self.ends
        for piece, label, points in self._ready():
            if steps_out(piece, label, points) or ends(piece, label, points):
                yield piece

    def actions(self) -> list[Action]:
        """Every ``move PIECE CELL``, by piece in order, then by cell."""
        out: list[Action] = []
        table = self.moves.action_table
        for piece, label, points in self._ready():
            ends = self.ends(piece, label, points)
            if ends:
                out.extend(map(table(piece).__getitem__, ends))
        return out


@attrs.frozen(eq=False)
class SideZoc:
    """The cells (labels) in the zone of control of a side's pieces, ``zoc(state, side)``:
    the cells ``zoc_of(state)[label]`` that a piece on ``label`` controls, over the cells
    the side's pieces stand on; memoised on the registry's tables."""

    pieces: Pieces[Any]
    zoc_of: Callable[[State], Mapping[str, Iterable[str]]]
    _memo: StateMemo[frozenset[str]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        reads = (self.pieces.stacks, self.pieces.table)
        memo = StateMemo(reads=reads, compute=self._find)
        object.__setattr__(self, "_memo", memo)

    def __call__(self, state: State, side: str) -> frozenset[str]:
        return self._memo(state, side)

    def _find(self, state: State, side: str) -> frozenset[str]:
        zoc_of = self.zoc_of(state)
        out: set[str] = set()
        for label, owner in self.pieces.entries(state).values():
            if owner == side:
                out.update(zoc_of[label])
        return frozenset(out)
