"""Spatial observations: a game's board planes as ``(channels, height, width)`` arrays.

A game whose :class:`~hexwar.engine.observe.Board` declares ``grid`` (each cell's row and
column on the map's offset grid, :meth:`hexwar.board.maps.GameMap.offset_grid`; hex and
square maps alike) has its board planes laid out on that grid by :class:`Grid`: channel
``k`` is the flat vector's board plane ``k`` (terrain, pieces by side, status and count,
ZOC, selected cells: :class:`~hexwar.engine.planes.BoardPlanes`' order) and the last
channel is the validity plane (1 on the map's cells, 0 on the grid's holes). The other
sections (seat, turn, phase, prefix, legal tokens, a game's features) stay a vector
(:meth:`Grid.rest`); the flat vector itself is unchanged (:class:`~hexwar.interop.tensor.Dense`).

>>> from hexwar.interop.adapter import TokenGame
>>> from hexwar.interop.tensor import Dense
>>> game = TokenGame.from_name("stalingrad-short")
>>> grid = Grid(game)
>>> grid.shape  # 17 planes and the validity plane over the 35 x 33 offset grid
(18, 35, 33)
>>> flat = Dense(game).observation(game.new_initial_state(), 0)
>>> board = grid.spatial(flat)
>>> int(board[-1].sum()) == game.encoder.board_shape[1]  # every hex is valid
True
>>> grid.rest_size + game.encoder.section("board")[1] == flat.shape[0]
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexwar.base.errors import HexwarError
from hexwar.interop.game import TokenGame

__all__ = ["Grid"]

Array = np.ndarray[Any, Any]


class Grid:
    """The spatial layout of ``game``'s board planes (see the module text). A
    :class:`~hexwar.base.errors.HexwarError` when the game declares no board or no grid."""

    def __init__(self, game: TokenGame) -> None:
        encoder = game.encoder
        board = encoder.view.board
        shape = encoder.board_shape
        if board is None or shape is None or board.grid is None:
            raise HexwarError(
                f"{game.name}: no spatial observation: the ruleset's observation_view() "
                "declares no Board with a grid (Board(..., grid=game_map.offset_grid()))"
            )
        planes, cells = shape
        base, size = encoder.section("board")
        self.planes = planes
        self._rows = np.array([r for r, _ in board.grid], np.intp)
        self._cols = np.array([c for _, c in board.grid], np.intp)
        height, width = int(self._rows.max()) + 1, int(self._cols.max()) + 1
        #: ``(channels, height, width)``: the board planes and the validity plane
        self.shape: tuple[int, int, int] = (planes + 1, height, width)
        self.validity = np.zeros((height, width), np.float32)
        self.validity[self._rows, self._cols] = 1.0
        self._board = slice(base, base + size)
        self._cells = cells
        self._rest = np.concatenate(
            [np.arange(0, base, dtype=np.intp), np.arange(base + size, encoder.size, dtype=np.intp)]
        )
        #: the length of :meth:`rest`
        self.rest_size = int(self._rest.shape[0])

    def spatial(self, flat: Array, out: Array | None = None) -> Array:
        """The board planes of flat observation ``flat`` on the grid, written into
        ``out`` (float32, :attr:`shape`) or a new array."""
        if out is None:
            out = np.zeros(self.shape, np.float32)
            out[-1] = self.validity
        elif out.shape != self.shape:
            raise ValueError(f"out has shape {out.shape}, not {self.shape}")
        else:
            out[:-1] = 0.0
            out[-1] = self.validity
        out[:-1, self._rows, self._cols] = flat[self._board].reshape(self.planes, self._cells)
        return out

    def rest(self, flat: Array) -> Array:
        """The sections of ``flat`` other than the board, in order (a new array)."""
        out: Array = flat[self._rest]
        return out
