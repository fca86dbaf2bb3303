"""Reading a piece registry: where a piece is, what stands in a cell, friends and enemies.

:class:`PieceReads` holds every read of a :class:`hexwar.board.pieces.Pieces` registry
(which inherits it; :mod:`hexwar.board.pieces` holds the writes and the cell codecs). All
reads go through :meth:`State.get` and :meth:`State.table`, so a
:class:`~hexwar.engine.memo.StateMemo` declaring :attr:`PieceReads.reads` may cache them.

Games that work in cell labels (a point-to-point map, or a map whose rules code keeps
printed labels) read the two tables as mappings: :meth:`PieceReads.occupied` (label ->
stack, top first) and :meth:`PieceReads.entries` (piece -> ``(label, side)``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

import attrs

from hexwar.base.errors import PieceError
from hexwar.board.maps import GameMap
from hexwar.board.move_rules import DEFAULT_RULES, MoveRules
from hexwar.board.movement import Reach, reachable
from hexwar.engine.actions import Value
from hexwar.engine.memo import StateMemo
from hexwar.engine.state import State

__all__ = ["PieceReads", "Placed"]

C = TypeVar("C")


class _Codec(Protocol[C]):
    def label(self, cell: C) -> str: ...  # pragma: no cover - protocol

    def cell_at(self, label: str) -> C: ...  # pragma: no cover - protocol


class PieceReads(Generic[C]):
    """The reading half of :class:`~hexwar.board.pieces.Pieces` (see there)."""

    codec: _Codec[C]
    table: str
    stacks: str
    attributes: tuple[str, ...]

    @property
    def reads(self) -> tuple[str, ...]:
        """The state tables the registry keeps (a ``StateMemo``'s ``reads=`` over it)."""
        return (self.table, self.stacks, *self.attributes)

    def placed(self, sides: tuple[str, ...]) -> Placed:
        """The pieces on the map by side, as a :class:`Placed` (``placed(state, side)``)."""
        return Placed(self, sides)

    def is_placed(self, state: State, piece: str) -> bool:
        """Whether ``piece`` is on the map."""
        return state.get(self.table, piece) is not None

    def where(self, state: State, piece: str) -> C:
        """The cell ``piece`` is in; :class:`PieceError` if it is not placed."""
        return self.codec.cell_at(self._entry(state, piece)[0])

    def label_of(self, state: State, piece: str) -> str | None:
        """The stored label of ``piece``'s cell, ``None`` if it is not placed."""
        entry = state.get(self.table, piece)
        return entry[0] if isinstance(entry, tuple) else None  # type: ignore[return-value]

    def side(self, state: State, piece: str) -> str:
        """The side ``piece`` belongs to."""
        return self._entry(state, piece)[1]

    def adjacent(self, game_map: GameMap[C]) -> Mapping[str, tuple[str, ...]]:
        """Each cell of ``game_map`` by its label here -> its neighbours' labels: adjacency
        over the stored labels, without building cells (kept on the map, per codec).

        >>> from hexwar.board.maps import build_map, hexagon
        >>> from hexwar.board.pieces import Pieces
        >>> from hexwar.board.terrain import chart_from_dict
        >>> chart = chart_from_dict({"terrain": {"clear": {}},
        ...     "movement": {"foot": {"terrain": {"clear": 1}}}})
        >>> m = build_map(chart, dict.fromkeys(hexagon(1), "clear"))
        >>> Pieces().adjacent(m)["0,0"]
        ('-1,0', '-1,1', '0,-1', '0,1', '1,-1', '1,0')
        """
        codec = self.codec

        def build() -> dict[str, tuple[str, ...]]:
            label = codec.label
            return {label(c): tuple(map(label, game_map.neighbors(c))) for c in game_map}

        return game_map.derived(("adjacent-labels", codec), build)

    def occupants(self, state: State, cell: C) -> tuple[str, ...]:
        """The pieces in ``cell``, top first (``()`` if empty)."""
        stack = state.get(self.stacks, self.codec.label(cell))
        return stack if isinstance(stack, tuple) else ()  # type: ignore[return-value]

    def occupied(self, state: State) -> Mapping[str, tuple[str, ...]]:
        """Every occupied cell's label -> its pieces, top first (the stacks table, read-only;
        ``label in occupied`` is the fast "is anyone there?")."""
        return state.table(self.stacks)  # type: ignore[return-value]

    def entries(self, state: State) -> Mapping[str, tuple[str, str]]:
        """Every placed piece -> ``(label, side)`` (the pieces table, read-only)."""
        return state.table(self.table)  # type: ignore[return-value]

    def pieces_of(self, state: State, side: str | None = None) -> list[str]:
        """The placed pieces of ``side`` (all sides with ``None``), sorted."""
        return sorted(
            p
            for p, v in state.table(self.table).items()
            if side is None or v[1] == side  # type: ignore[index]
        )

    def get_attr(self, state: State, piece: str, name: str, default: Value = None) -> Value:
        """Attribute ``name`` of ``piece`` (``default`` if unset or the piece is gone)."""
        self._attribute(name)
        return state.get(name, piece, default)

    def group_by(
        self, state: State, key: Callable[[str], str], side: str | None = None
    ) -> dict[str, list[str]]:
        """The placed pieces (of ``side``) by ``key(piece)`` — their formation, activation
        group or division — groups and their pieces sorted.

        >>> from hexwar.board.pieces import HEX_CODEC, Pieces
        >>> from hexwar.engine.state import Ruleset
        >>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
        >>> from hexwar.grid.geometry import Hex
        >>> class Game(Ruleset):
        ...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
        >>> state, reg = Game().new_state(), Pieces(HEX_CODEC)
        >>> for piece in ("V-b", "I-a", "V-a"):
        ...     reg.place(state, piece, Hex(0, 0), "red")
        >>> reg.group_by(state, lambda p: p.split("-")[0])
        {'I': ['I-a'], 'V': ['V-a', 'V-b']}
        """
        groups: dict[str, list[str]] = {}
        for piece in self.pieces_of(state, side):
            groups.setdefault(key(piece), []).append(piece)
        return {g: groups[g] for g in sorted(groups)}

    def positions(self, state: State, side: str | None = None) -> dict[C, tuple[str, ...]]:
        """Every occupied cell -> its pieces (top first), of ``side`` only if given."""
        cell_at = self.codec.cell_at
        entries = state.table(self.table)
        out: dict[C, tuple[str, ...]] = {}
        for label, stack in state.table(self.stacks).items():
            ids: tuple[str, ...] = stack  # type: ignore[assignment]
            if side is not None:
                ids = tuple(p for p in ids if entries[p][1] == side)  # type: ignore[index]
            if ids:
                out[cell_at(label)] = ids
        return out

    def friends_enemies(
        self,
        state: State,
        side: str,
        *,
        exclude: str | None = None,
        unit: Callable[[str], Any] | None = None,
    ) -> tuple[dict[C, tuple[Any, ...]], dict[C, tuple[Any, ...]]]:
        """The ``friends=`` and ``enemies=`` mappings of :func:`hexwar.board.movement.reachable`.

        Cell -> pieces (top first) of ``side`` and of every other side; ``exclude`` (the
        mover) is left out; ``unit`` maps each id to what the rule predicates expect
        (e.g. a unit record), ids by default.
        """
        cell_at = self.codec.cell_at
        entries = state.table(self.table)
        friends: dict[C, tuple[Any, ...]] = {}
        enemies: dict[C, tuple[Any, ...]] = {}
        for label, stack in state.table(self.stacks).items():
            mine: list[Any] = []
            theirs: list[Any] = []
            for p in stack:  # type: ignore[union-attr]
                if p == exclude:
                    continue
                u = p if unit is None else unit(p)  # type: ignore[arg-type]
                (mine if entries[p][1] == side else theirs).append(u)  # type: ignore[index]
            if mine:
                friends[cell_at(label)] = tuple(mine)
            if theirs:
                enemies[cell_at(label)] = tuple(theirs)
        return friends, enemies

    def reach(
        self,
        state: State,
        piece: str,
        game_map: GameMap[C],
        movement_class: str,
        allowance: float,
        *,
        rules: MoveRules = DEFAULT_RULES,
        unit: Callable[[str], Any] | None = None,
    ) -> Reach[C]:
        """Where ``piece`` may move: :func:`~hexwar.board.movement.reachable` from its cell,
        with the other pieces of the registry as its friends and enemies.

        ``unit`` maps ids to what the rule predicates expect (the mover included).

        >>> from hexwar.board.maps import build_map, hexagon
        >>> from hexwar.board.pieces import HEX_CODEC, Pieces
        >>> from hexwar.engine.state import Ruleset
        >>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
        >>> from hexwar.board.terrain import chart_from_dict
        >>> from hexwar.grid.geometry import Hex
        >>> costs = {"foot": {"terrain": {"clear": 1}}}
        >>> chart = chart_from_dict({"terrain": {"clear": {}}, "movement": costs})
        >>> board = build_map(chart, dict.fromkeys(hexagon(2), "clear"))
        >>> class Game(Ruleset):
        ...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
        >>> state, reg = Game().new_state(), Pieces(HEX_CODEC)
        >>> reg.place(state, "a", Hex(0, 0), "red")
        >>> reg.place(state, "x", Hex(1, 0), "blue")
        >>> reach = reg.reach(state, "a", board, "foot", 1)
        >>> Hex(1, 0) in reach.costs, Hex(-1, 0) in reach.costs   # never into an enemy
        (False, True)
        """
        label, side = self._entry(state, piece)
        friends, enemies = self.friends_enemies(state, side, exclude=piece, unit=unit)
        mover = piece if unit is None else unit(piece)
        return reachable(
            game_map, self.codec.cell_at(label), movement_class, allowance, mover=mover,
            friends=friends, enemies=enemies, rules=rules,
        )  # fmt: skip

    def _attribute(self, name: str) -> None:
        if name not in self.attributes:
            raise PieceError(f"{name!r} is not a piece attribute here {self.attributes}")

    def _entry(self, state: State, piece: str) -> tuple[str, str]:
        entry = state.get(self.table, piece)
        if entry is None:
            raise PieceError(f"piece {piece!r} is not on the map")
        return entry  # type: ignore[return-value]


#: The placed pieces of one side (``None``: every side): ``(label, piece)``, sorted by piece.
Placement = tuple[tuple[str, str], ...]


@attrs.frozen(eq=False)
class Placed:
    """``placed(state, side)``: the pieces of ``pieces`` on the map by side, as
    ``(label, piece)`` sorted by piece; built for every side at once and kept per version
    of the registry's pieces table (positions that differ elsewhere share it)."""

    pieces: PieceReads[Any]
    sides: tuple[str, ...]
    _memo: StateMemo[dict[str | None, Placement]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        memo = StateMemo(reads=(self.pieces.table,), compute=self._find)
        object.__setattr__(self, "_memo", memo)

    def __call__(self, state: State, side: str | None = None) -> Placement:
        return self._memo(state)[side]

    def _find(self, state: State) -> dict[str | None, Placement]:
        entries = sorted(self.pieces.entries(state).items())
        out: dict[str | None, Placement] = {None: tuple((e[0], p) for p, e in entries)}
        for side in self.sides:
            out[side] = tuple((e[0], p) for p, e in entries if e[1] == side)
        return out
