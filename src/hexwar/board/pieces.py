"""Where the pieces are: a unit-position registry kept in the state's tables.

Every game needs "which unit is where, and what stands in this cell" (Stalingrad's
``units``/``at`` tables, Triumph & Glory's ``stacks``, «Бой отрядов»'s ``units``). A
:class:`Pieces` registry keeps it in two flat tables, so clone, undo, save files and
replay cover it and a clone stays a few dict copies:

- ``pieces[id] = (label, side)``;
- ``stacks[label] = (id, ...)``: the occupants of a cell, **top first**; a newcomer goes
  to the bottom unless ``on_top`` (:func:`hexwar.board.stacking.arrive`, T&G 6.24).

Cells are stored as text through a :class:`CellCodec` (state values must be JSON-able):
a :class:`~hexwar.board.maps.GameMap` is one (its ``label`` / ``cell_at``), and
:data:`HEX_CODEC` (``"q,r"``), :data:`SQUARE_CODEC` (``"col,row"``) and :data:`LABELS`
(cells that are their own labels) need no map; ``Pieces()`` uses :data:`HEX_CODEC`. This
module holds the codecs and the writes; the reads (``where``, ``occupants``,
``friends_enemies``, ``reach`` ...) are in :mod:`hexwar.board.occupancy`.

>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> class Game(Ruleset):
...     sides = ("red", "blue")
...     sequence = TurnSequence((Stage("play", (Phase("move", side="red", end_when_idle=False),)),))
>>> state = Game().new_state()
>>> reg = Pieces()                            # cells are Hex, stored as "q,r"
>>> reg.place(state, "5TA", Hex(0, 0), "red")
>>> reg.place(state, "3PzK", Hex(1, 0), "blue")
>>> reg.place(state, "21A", Hex(0, 0), "red")
>>> reg.occupants(state, Hex(0, 0))           # top first, the newcomer at the bottom
('5TA', '21A')
>>> reg.move(state, "21A", Hex(0, 1))
>>> reg.where(state, "21A"), reg.side(state, "21A"), reg.pieces_of(state, "red")
(Hex(q=0, r=1), 'red', ['21A', '5TA'])
>>> friends, enemies = reg.friends_enemies(state, "red", exclude="21A")
>>> friends, enemies
({Hex(q=0, r=0): ('5TA',)}, {Hex(q=1, r=0): ('3PzK',)})
>>> state.table("stacks")["0,0"]
('5TA',)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Generic, Protocol, TypeVar, cast

import attrs

from hexwar.base.errors import PieceError
from hexwar.board.occupancy import PieceReads
from hexwar.board.stacking import arrive, depart, reorder
from hexwar.engine.actions import Value
from hexwar.engine.state import State
from hexwar.grid.geometry import Hex
from hexwar.grid.square import Square

__all__ = [
    "HEX_CODEC",
    "LABELS",
    "SQUARE_CODEC",
    "CellCodec",
    "LabelCodec",
    "Pieces",
    "TextCodec",
]

C = TypeVar("C")


class CellCodec(Protocol[C]):
    """Turns cells into the text stored in the state and back (a ``GameMap`` is one)."""

    def label(self, cell: C) -> str: ...  # pragma: no cover - protocol

    def cell_at(self, label: str) -> C: ...  # pragma: no cover - protocol


@attrs.frozen(eq=False)
class TextCodec(Generic[C]):
    """A codec of ``"a,b"`` labels for cells built from two integers (cached both ways).

    >>> SQUARE_CODEC.label(Square(3, 14)), SQUARE_CODEC.cell_at("3,14")
    ('3,14', Square(col=3, row=14))
    >>> HEX_CODEC.cell_at("x")
    Traceback (most recent call last):
    ...
    hexwar.base.errors.PieceError: 'x' is not a cell label of the form 'a,b'
    """

    make: Callable[[int, int], C]
    parts: Callable[[C], tuple[int, int]]
    _labels: dict[Any, str] = attrs.field(factory=dict, repr=False)
    _cells: dict[str, C] = attrs.field(factory=dict, repr=False)

    def label(self, cell: C) -> str:
        """The text of ``cell``."""
        text = self._labels.get(cell)
        if text is None:
            a, b = self.parts(cell)
            text = self._labels[cell] = f"{a},{b}"
        return text

    def cell_at(self, label: str) -> C:
        """The cell of ``label``."""
        cell = self._cells.get(label)
        if cell is None:
            try:
                a, b = label.split(",")
                cell = self.make(int(a), int(b))
            except ValueError:
                raise PieceError(f"{label!r} is not a cell label of the form 'a,b'") from None
            self._cells[label] = cell
        return cell


#: Axial hex cells as ``"q,r"``.
HEX_CODEC: Final[TextCodec[Hex]] = TextCodec(Hex, lambda h: (h.q, h.r))
#: Square cells as ``"col,row"``.
SQUARE_CODEC: Final[TextCodec[Square]] = TextCodec(Square, lambda s: (s.col, s.row))


@attrs.frozen
class LabelCodec:
    """Cells that are their own labels: the named areas of a point-to-point map, or map
    labels (``"0912"``) kept by rules code that works in labels. Any text but ``""``.

    >>> LABELS.label("0912"), LABELS.cell_at("Tsaritsyn")
    ('0912', 'Tsaritsyn')
    >>> LABELS.label("")
    Traceback (most recent call last):
    ...
    hexwar.base.errors.PieceError: a cell label is a non-empty text, not ''
    """

    def label(self, cell: str) -> str:
        """``cell`` itself."""
        if not isinstance(cell, str) or not cell:
            raise PieceError(f"a cell label is a non-empty text, not {cell!r}")
        return cell

    def cell_at(self, label: str) -> str:
        """``label`` itself."""
        return label


#: Cells named by their labels (:class:`LabelCodec`).
LABELS: Final = LabelCodec()


@attrs.frozen
class Pieces(PieceReads[C]):
    """A unit-position registry: which piece is in which cell, for which side, in what order.

    The registry object holds no game data (only the codec and the table names); every
    method takes the state. Writes are journaled state writes, so :meth:`State.undo`
    takes them back.

    ``attributes`` names per-piece tables (``state.get("strength", piece)``): set with
    :meth:`set_attr` or ``place(..., attributes=...)``, read with :meth:`get_attr`, and
    deleted with the piece by :meth:`remove`.

    ``shared`` names attributes (among ``attributes``) that all pieces of a cell share
    (T&G 6.11: all units in a hex face one way): a piece placed or moved into an occupied
    cell takes the stack's values; read and set them per cell with :meth:`cell_attr` and
    :meth:`set_cell_attr`.

    >>> from hexwar.engine.state import Ruleset
    >>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
    >>> class Game(Ruleset):
    ...     sequence = TurnSequence((Stage("play", (Phase("move", "red", end_when_idle=False),)),))
    >>> state = Game().new_state()
    >>> reg = Pieces(HEX_CODEC, attributes=("strength", "facing"))
    >>> reg.place(state, "5TA", Hex(0, 0), "red", attributes={"strength": 4, "facing": 2})
    >>> reg.set_attr(state, "5TA", "strength", 3)
    >>> reg.get_attr(state, "5TA", "strength"), state.get("facing", "5TA")
    (3, 2)
    >>> reg.remove(state, "5TA")
    >>> dict(state.table("strength")), reg.get_attr(state, "5TA", "facing")
    ({}, None)
    >>> reg.set_attr(state, "5TA", "morale", 1)
    Traceback (most recent call last):
    ...
    hexwar.base.errors.PieceError: 'morale' is not a piece attribute here ('strength', 'facing')
    """

    codec: CellCodec[C] = attrs.field(default=cast("CellCodec[Any]", HEX_CODEC))
    table: str = "pieces"
    stacks: str = "stacks"
    attributes: tuple[str, ...] = ()
    shared: tuple[str, ...] = attrs.field(default=())

    @shared.validator
    def _check_shared(self, _attribute: object, value: tuple[str, ...]) -> None:
        for name in value:
            self._attribute(name)

    # -- writing ---------------------------------------------------------------------

    def place(
        self,
        state: State,
        piece: str,
        cell: C,
        side: str,
        *,
        on_top: bool = False,
        attributes: Mapping[str, Value] | None = None,
    ) -> None:
        """Put a new piece of ``side`` into ``cell`` (at the bottom, or ``on_top``),
        with its initial ``attributes`` (name -> value, each one of :attr:`attributes`)."""
        if state.get(self.table, piece) is not None:
            raise PieceError(f"piece {piece!r} is already placed")
        for name in attributes or {}:
            self._attribute(name)
        label = self.codec.label(cell)
        self.codec.cell_at(label)  # fail early on a label the codec cannot read back
        state.put(self.table, piece, (label, side))
        for name, value in (attributes or {}).items():
            state.put(name, piece, value)
        self._join(state, piece, label, on_top)

    def set_attr(self, state: State, piece: str, name: str, value: Value) -> None:
        """Set attribute ``name`` of the placed ``piece`` (journaled)."""
        self._attribute(name)
        self._entry(state, piece)
        state.put(name, piece, value)

    def move(self, state: State, piece: str, cell: C, *, on_top: bool = False) -> None:
        """Move ``piece`` to ``cell``: it leaves its stack and joins the one there."""
        label, side = self._entry(state, piece)
        self._leave(state, piece, label)
        new = self.codec.label(cell)
        state.put(self.table, piece, (new, side))
        self._join(state, piece, new, on_top)

    def move_stack(self, state: State, cell: C, dest: C, *, on_top: bool = False) -> None:
        """Move every piece of ``cell`` to ``dest``, top first, keeping their order (a stack
        retreating as one); they join the pieces there below them, or above ``on_top``.

        >>> from hexwar.engine.state import Ruleset
        >>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
        >>> class Game(Ruleset):
        ...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
        >>> state, reg = Game().new_state(), Pieces(HEX_CODEC)
        >>> for piece, cell in (("a", Hex(0, 0)), ("b", Hex(0, 0)), ("c", Hex(1, 0))):
        ...     reg.place(state, piece, cell, "red")
        >>> reg.move_stack(state, Hex(0, 0), Hex(1, 0))
        >>> reg.occupants(state, Hex(1, 0)), reg.occupants(state, Hex(0, 0))
        (('c', 'a', 'b'), ())
        """
        pieces = self.occupants(state, cell)
        for piece in reversed(pieces) if on_top else pieces:
            self.move(state, piece, dest, on_top=on_top)

    def remove(self, state: State, piece: str) -> None:
        """Take ``piece`` off the map (destroyed, withdrawn), deleting its attributes."""
        label, _ = self._entry(state, piece)
        self._leave(state, piece, label)
        state.delete(self.table, piece)
        for name in self.attributes:
            state.delete(name, piece)

    def cell_attr(self, state: State, cell: C, name: str, default: Value = None) -> Value:
        """Shared attribute ``name`` of the pieces in ``cell`` (``default`` if empty).

        >>> from hexwar.engine.state import Ruleset
        >>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
        >>> class Game(Ruleset):
        ...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
        >>> state = Game().new_state()
        >>> reg = Pieces(HEX_CODEC, attributes=("facing",), shared=("facing",))
        >>> reg.place(state, "a", Hex(0, 0), "red", attributes={"facing": 2})
        >>> reg.place(state, "b", Hex(1, 0), "red", attributes={"facing": 5})
        >>> reg.move(state, "b", Hex(0, 0))       # joins the stack: takes its facing
        >>> reg.get_attr(state, "b", "facing")
        2
        >>> reg.set_cell_attr(state, Hex(0, 0), "facing", 4)   # the stack turns as one
        >>> reg.cell_attr(state, Hex(0, 0), "facing"), reg.get_attr(state, "a", "facing")
        (4, 4)
        """
        self._shared(name)
        stack = self.occupants(state, cell)
        return state.get(name, stack[0], default) if stack else default

    def set_cell_attr(self, state: State, cell: C, name: str, value: Value) -> None:
        """Set shared attribute ``name`` of every piece in ``cell`` (journaled)."""
        self._shared(name)
        for piece in self.occupants(state, cell):
            state.put(name, piece, value)

    def restack(self, state: State, cell: C, order: Sequence[str]) -> None:
        """Set the order of the stack in ``cell`` (top first; a permutation of it)."""
        label = self.codec.label(cell)
        state.put(self.stacks, label, reorder(self._stack(state, label), order))

    def hide(self, state: State, piece: str, side: str | None) -> None:
        """Hide ``piece``'s entry and its cell's stack from all but ``side`` (set-up).

        Other sides see the piece's entry as ``HIDDEN`` and do not see its cell at all.
        """
        label, _ = self._entry(state, piece)
        state.hide(self.table, piece, side)
        state.hide(self.stacks, label, side, key_too=True)  # which cells are held is secret

    def reveal(self, state: State, piece: str) -> None:
        """Make ``piece``'s entry and its cell's stack public again."""
        label, _ = self._entry(state, piece)
        state.reveal(self.table, piece)
        state.reveal(self.stacks, label)

    # -- observing -------------------------------------------------------------------

    def observation_view(
        self,
        game_map: Any,
        *,
        status: Callable[[Any, str], str] | None = None,
        statuses: tuple[str, ...] = ("",),
        depth: int = 1,
        reads: tuple[str, ...] = (),
    ) -> Any:
        """An :class:`~hexwar.engine.observed.ObservationView` whose board is this registry
        on ``game_map`` (a :class:`~hexwar.board.maps.GameMap`; its cells in index order,
        their terrain, their offset grid for a spatial observation): each piece the
        observer sees, by side and ``status(view, piece)`` (among ``statuses``; default
        one status), counted up to ``depth`` per cell. ``reads``: the tables ``status``
        reads besides this registry's. A hidden piece (:meth:`hide`) is not on the
        observer's board. (A ruleset's ``observation_view()`` may return it.)"""
        from hexwar.engine.observed import Board, ObservationView

        cells = game_map.indexed_cells()
        table = self.table

        def pieces(view: Any) -> list[tuple[str, str, str]]:
            out = []
            for piece, entry in view.table(table).items():
                if isinstance(entry, tuple):  # else hidden from the observer
                    label, side = entry
                    out.append((str(label), str(side), status(view, piece) if status else ""))
            return out

        board = Board(
            cells=tuple(self.codec.label(c) for c in cells),
            terrain=tuple(game_map.terrain(c) for c in cells),
            pieces=pieces,
            statuses=statuses,
            depth=depth,
            reads=(table, *reads),
            grid=game_map.offset_grid(),
        )
        return ObservationView(board=board)

    # -- internals -------------------------------------------------------------------

    def _shared(self, name: str) -> None:
        if name not in self.shared:
            raise PieceError(f"{name!r} is not a shared attribute here {self.shared}")

    def _join(self, state: State, piece: str, label: str, on_top: bool) -> None:
        stack = self._stack(state, label)
        for name in self.shared if stack else ():
            state.put(name, piece, state.get(name, stack[0]))
        state.put(self.stacks, label, arrive(stack, piece, on_top=on_top))

    def _stack(self, state: State, label: str) -> tuple[str, ...]:
        return state.get(self.stacks, label, ())  # type: ignore[return-value]

    def _leave(self, state: State, piece: str, label: str) -> None:
        rest = depart(self._stack(state, label), piece)
        if rest:
            state.put(self.stacks, label, rest)
        else:
            state.delete(self.stacks, label)
