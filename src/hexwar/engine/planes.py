"""The per-cell planes of an observation (:class:`BoardPlanes`, used by
:class:`hexwar.engine.observe.Encoder`): terrain, each side's pieces by status and count,
each side's ZOC, the cells the prefix selects.

The terrain planes are the same in every observation (:attr:`BoardPlanes.static_hot`,
listed once); the pieces and ZOC planes are memoised on the tables the board declares it
reads (:attr:`~hexwar.engine.observed.Board.reads`, through
:class:`~hexwar.engine.memo.StateMemo`, so read checking covers them), else per position.
A piece costs one dict lookup (its ``(cell, side, status)`` index, kept once seen).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final

from hexwar.base.errors import HexwarError
from hexwar.engine.observed import Board, Observed

if TYPE_CHECKING:
    from hexwar.engine.state import State

__all__ = ["BoardPlanes"]

#: Planes kept per board (by table versions or position, and observer); ZOC planes kept
#: per labels set.
_CACHE_LIMIT: Final = 512


class BoardPlanes:
    """The planes of ``board`` for a game of ``sides``, the first at index ``base`` of
    the observation: one per terrain name (sorted), one per (side, status, count level),
    one ZOC plane per side (if ``board.zoc``), and ``selected``."""

    def __init__(self, board: Board, sides: Sequence[str], base: int) -> None:
        self.board = board
        n = self.cells = len(board.cells)
        self.terrains = tuple(sorted(set(board.terrain)))
        self.cell_index = {c: i for i, c in enumerate(board.cells)}
        n_status, depth = len(board.statuses), board.depth
        self.planes = (
            len(self.terrains)
            + len(sides) * n_status * depth
            + (len(sides) if board.zoc is not None else 0)
            + 1
        )
        self.size = self.planes * n
        t_index = {t: i for i, t in enumerate(self.terrains)}
        #: the ones every observation has (the terrain planes), ascending
        self.static_hot = tuple(base + t_index[t] * n + i for i, t in enumerate(board.terrain))
        first_piece = base + len(self.terrains) * n
        #: (side, status) -> the first index of its first count level's plane
        self._plane_at = {
            (side, status): first_piece + (s * n_status + k) * depth * n
            for s, side in enumerate(sides)
            for k, status in enumerate(board.statuses)
        }
        zoc_base = first_piece + len(sides) * n_status * depth * n
        self._zoc_at = tuple((side, zoc_base + s * n) for s, side in enumerate(sides))
        self._zoc_cache: dict[tuple[int, frozenset[str]], tuple[int, ...]] = {}
        #: (label, side, status) -> its index in the first count level's plane
        self._index: dict[tuple[str, str, str], int] = {}
        self._index_limit = n * len(self._plane_at)
        self.selected_base = base + (self.planes - 1) * n
        self.hot = self._memo()

    def _memo(self) -> Callable[[State, str], tuple[tuple[int, ...], ...]]:
        """The pieces and ZOC planes of ``(state, side)``, memoised (see the module text)."""
        if self.board.reads is None:
            cache: dict[tuple[int, str], tuple[tuple[int, ...], ...]] = {}

            def per_position(state: State, side: str) -> tuple[tuple[int, ...], ...]:
                key = (state.version, side)
                found = cache.get(key)
                if found is None:
                    if len(cache) >= _CACHE_LIMIT:
                        cache.clear()
                    found = cache[key] = self._now(state, side)
                return found

            return per_position
        from hexwar.engine.memo import StateMemo
        from hexwar.engine.state import _HIDDEN_KEYS_TABLE, _HIDDEN_TABLE

        reads = (*self.board.reads, _HIDDEN_TABLE, _HIDDEN_KEYS_TABLE)
        return StateMemo(reads, self._now, _CACHE_LIMIT)

    def _now(self, state: State, side: str) -> tuple[tuple[int, ...], ...]:
        """The ones of the pieces planes, then of each side's ZOC plane (computed)."""
        board = self.board
        view = Observed(state, side)
        index, index_of = self._index, self._index_of
        depth, n = board.depth, self.cells
        if depth == 1:  # a set of indices; -1: off the board (a pool, a box)
            ones = {index[p] if p in index else index_of(p) for p in board.pieces(view)}
            ones.discard(-1)
            hot = sorted(ones)
        else:
            counts: dict[int, int] = {}  # (side, status) plane's index + cell -> pieces
            for piece in board.pieces(view):
                at = index[piece] if piece in index else index_of(piece)
                if at >= 0:
                    counts[at] = counts.get(at, 0) + 1
            hot = sorted(at + k * n for at, c in counts.items() for k in range(min(c, depth)))
        if board.zoc is None:
            return (tuple(hot),)
        zoc = board.zoc
        return (tuple(hot), *[self._zoc_plane(base, zoc(view, s)) for s, base in self._zoc_at])

    def _index_of(self, piece: tuple[str, str, str]) -> int:
        """The index of a ``(label, side, status)`` piece in its plane's first count
        level (kept), ``-1`` off the board."""
        label, owner, status = piece
        i = self.cell_index.get(label)
        at = self._plane_at.get((owner, status))
        if at is None and i is not None:
            raise HexwarError(
                f"board: piece of side {owner!r} with status {status!r} is not declared"
            )
        found = -1 if i is None or at is None else at + i
        if len(self._index) < self._index_limit:
            self._index[piece] = found
        return found

    def _zoc_plane(self, base: int, labels: Iterable[str]) -> tuple[int, ...]:
        """The ones of a ZOC plane starting at ``base`` (kept per frozenset of labels)."""
        key = (base, labels) if isinstance(labels, frozenset) else None
        found = None if key is None else self._zoc_cache.get(key)
        if found is None:
            cells = self.cell_index
            found = tuple(sorted([base + cells[lab] for lab in labels if lab in cells]))
            if key is not None:
                if len(self._zoc_cache) >= _CACHE_LIMIT:
                    self._zoc_cache.clear()
                self._zoc_cache[key] = found
        return found

    def selected(self, state: State, side: str, prefix: Sequence[str]) -> list[int]:
        """The ``selected`` plane: cells the prefix names or where a piece it names is."""
        board = self.board
        cells = self.cell_index
        marked = {cells[t] for t in prefix[1:] if t in cells}
        if board.pieces_named is not None:
            view = Observed(state, side)
            for t in prefix[1:]:
                where = board.pieces_named(view, t)
                if where is not None and where in cells:
                    marked.add(cells[where])
        base = self.selected_base
        return [base + i for i in sorted(marked)]
