"""What a game shows an observer: the :class:`Observed` view of a state (hidden values
masked) and the declarations an observation encoding is built from (:class:`Board`,
:class:`Feature`, :class:`ObservationView`). The encoder is :mod:`hexwar.engine.observe`,
which exports these names too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from hexwar.base.errors import HexwarError
from hexwar.engine.memo import kept
from hexwar.engine.state import _HIDDEN_KEYS_TABLE, _HIDDEN_TABLE, HIDDEN

if TYPE_CHECKING:
    from hexwar.engine.actions import Value
    from hexwar.engine.state import State

__all__ = ["Board", "Feature", "ObservationView", "Observed"]

#: (the hidden-entry tables' versions, observer) -> table -> whether it hides anything
#: from the observer (:meth:`Observed._masks`).
_MASKED: Final[dict[tuple[int, int, str], dict[str, bool]]] = {}


class Observed:
    """Read-only reads of ``state`` as ``side`` sees it: a value hidden from ``side``
    reads as :data:`hexwar.engine.state.HIDDEN`, an entry whose key is secret is absent."""

    __slots__ = ("_hidden", "_keys", "_masked", "_others", "side", "state")

    def __init__(self, state: State, side: str) -> None:
        self.state = state
        self.side = side
        self._hidden = state.table(_HIDDEN_TABLE)
        self._keys = state.table(_HIDDEN_KEYS_TABLE)
        # which tables hide something from ``side``: shared by the views of one version
        # of the two hidden-entry tables (versions are never reused: exact)
        key = (state.table_version(_HIDDEN_TABLE), state.table_version(_HIDDEN_KEYS_TABLE), side)
        masked = _MASKED.get(key)
        if masked is None:
            masked = kept(_MASKED, key, {})
        self._masked: dict[str, bool] = masked
        self._others: list[str] | None = None

    @classmethod
    def of(cls, state: State, side: str) -> Observed:
        """A view of ``state`` for ``side`` (the encoder's planes, features and
        ``selected`` plane each make one; their memos declare the hidden-entry tables a
        view reads when it is made)."""
        return cls(state, side)

    def get(self, table: str, key: str, default: Value = None) -> Value:
        """``table[key]`` as the observer sees it (``default`` if absent or secret)."""
        masks = self._hidden and self._masked.get(table)
        if masks is None:
            masks = self._masks(table)
        if masks:
            ref = f"{table}/{key}"
            if self._keys.get(ref, self.side) != self.side:
                return default
            if self._hidden.get(ref, self.side) != self.side:
                return HIDDEN if key in self.state.table(table) else default
        return self.state.get(table, key, default)

    def _masks(self, name: str) -> bool:
        """Whether anything of table ``name`` is hidden from the observer."""
        found = self._masked.get(name)
        if found is None:
            others = self._others
            if others is None:  # the refs hidden from the observer, listed once
                side = self.side
                others = self._others = [
                    ref
                    for hidden in (self._hidden, self._keys)
                    for ref, owner in hidden.items()
                    if owner != side
                ]
            start = f"{name}/"
            found = self._masked[name] = any(ref.startswith(start) for ref in others)
        return found

    def table(self, name: str) -> Mapping[str, Value]:
        """The entries of table ``name`` the observer sees (hidden values masked)."""
        t = self.state.table(name)
        if not self._hidden or not self._masks(name):
            return t
        return {key: v for key in t if (v := self.get(name, key, _ABSENT)) is not _ABSENT}

    @property
    def turn(self) -> int:
        """The turn number (public)."""
        return self.state.turn


_ABSENT: Final[Any] = object()


@attrs.frozen
class Board:
    """Per-cell planes of a game board.

    ``cells``: the cells' labels in plane order; ``terrain``: each cell's terrain name
    (same order); ``pieces(view)`` yields ``(cell label, side, status)`` for each piece the
    observer sees on the board (``status`` among ``statuses``: a step state, a facing...);
    ``depth``: how many pieces of one side and status per cell the planes count (``>= 1``,
    ``>= 2``, ...); ``zoc(view, side)``: the labels of the cells in ``side``'s zone of
    control (``None``: no ZOC planes). :class:`hexwar.engine.planes.BoardPlanes` encodes it.

    Planes, in order: one per terrain name (sorted), one per (side, status, count level),
    one ZOC plane per side, and ``selected`` (cells named by the prefix, or holding a piece
    it names: ``pieces_named``).

    ``reads``: the tables ``pieces`` and ``zoc`` read (as for
    :class:`~hexwar.engine.memo.StateMemo`, whose read checking covers them): the pieces
    and ZOC planes are then kept while those tables are unchanged; ``None``: kept for one
    position (every write computes them anew).

    **Piece by piece** (the planes then follow the entries that changed instead of
    being listed anew): ``piece(view, id)`` yields what ``pieces`` yields for the one
    piece ``id``, ``piece_zoc(view, id)`` its ZOC as ``(side, cell labels)`` (or
    ``None``), and ``keyed`` names the tables keyed by piece id that they read, each
    only at the key ``id``. ``pieces`` (and ``zoc``, with ``piece_zoc``) are then their
    union over the keys of the ``keyed`` tables (``reads`` is then ``keyed``, or more
    with a ``zoc`` of the whole view).
    """

    cells: tuple[str, ...]
    terrain: tuple[str, ...]
    pieces: Callable[[Observed], Iterable[tuple[str, str, str]]] | None = None
    statuses: tuple[str, ...] = ("",)
    depth: int = 1
    zoc: Callable[[Observed, str], Iterable[str]] | None = None
    #: piece id -> its cell label as the observer sees it (for the ``selected`` plane)
    pieces_named: Callable[[Observed, str], str | None] | None = None
    reads: tuple[str, ...] | None = None
    piece: Callable[[Observed, str], Iterable[tuple[str, str, str]]] | None = None
    piece_zoc: Callable[[Observed, str], tuple[str, Iterable[str]] | None] | None = None
    keyed: tuple[str, ...] = ()
    #: ``(row, column)`` of each cell (same order as ``cells``) on the map's offset grid
    #: (:meth:`hexwar.board.maps.GameMap.offset_grid`): the planes' spatial layout;
    #: ``None``: no spatial observation
    grid: tuple[tuple[int, int], ...] | None = None

    def __attrs_post_init__(self) -> None:
        if len(self.terrain) != len(self.cells):
            raise HexwarError(f"board: {len(self.cells)} cells but {len(self.terrain)} terrains")
        if len(set(self.cells)) != len(self.cells):
            raise HexwarError("board: cell labels repeat")
        if self.grid is not None and (
            len(self.grid) != len(self.cells) or len(set(self.grid)) != len(self.grid)
        ):
            raise HexwarError("board: grid needs one distinct (row, column) per cell")
        if self.depth < 1 or not self.statuses:
            raise HexwarError("board: depth >= 1 and at least one status")
        derived = getattr(self.pieces, "__func__", None) is Board._derived
        if self.piece is None:
            if self.pieces is None or derived or self.piece_zoc is not None or self.keyed:
                raise HexwarError("board: give pieces, or piece and keyed (piece_zoc needs piece)")
            return
        if not self.keyed or not (self.pieces is None or derived):
            raise HexwarError("board: piece needs keyed, and then pieces is derived from it")
        zoc_derived = getattr(self.zoc, "__func__", None) is Board._zoc
        if self.piece_zoc is not None and not (self.zoc is None or zoc_derived):
            raise HexwarError("board: zoc is derived from piece_zoc")
        set_ = object.__setattr__  # frozen: the derived forms bound to this board
        set_(self, "pieces", self._derived)
        if self.piece_zoc is not None:
            set_(self, "zoc", self._zoc)
        elif zoc_derived:
            set_(self, "zoc", None)

    def ids(self, view: Observed) -> Iterable[str]:
        """The piece ids of a board declared piece by piece: the keys of its ``keyed``
        tables as the observer sees them."""
        keys: dict[str, None] = {}
        for name in self.keyed:
            keys.update(dict.fromkeys(view.table(name)))
        return keys

    def _derived(self, view: Observed) -> Iterable[tuple[str, str, str]]:
        """``pieces`` of a board declared piece by piece."""
        piece = self.piece
        assert piece is not None
        return [p for i in self.ids(view) for p in piece(view, i)]

    def _zoc(self, view: Observed, side: str) -> Iterable[str]:
        """``zoc`` of a board declared piece by piece."""
        piece_zoc = self.piece_zoc
        assert piece_zoc is not None
        out: set[str] = set()
        for i in self.ids(view):
            found = piece_zoc(view, i)
            if found is not None and found[0] == side:
                out.update(found[1])
        return out


@attrs.frozen
class Feature:
    """A game-specific section of ``size`` bits: ``hot(view)`` gives the indices (0 ..
    size - 1) that are one for the observer (``view.side``).

    ``reads``: the tables ``hot`` reads (as for :class:`~hexwar.engine.memo.StateMemo`,
    pseudo-tables such as ``$cursor`` and ``$effects`` included; read checking covers
    them). When every feature declares them, the features are kept while the union of
    those tables is unchanged, and read checking checks that union; ``None``: computed
    anew for every position.
    """

    name: str
    size: int
    hot: Callable[[Observed], Iterable[int]]
    reads: tuple[str, ...] | None = None


@attrs.frozen
class ObservationView:
    """What a game adds to the generic sections: its :class:`Board` and its features."""

    board: Board | None = None
    features: tuple[Feature, ...] = ()
