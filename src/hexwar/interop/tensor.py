"""Dense observation tensors and action masks as numpy arrays (for the framework modules).

:class:`Dense` turns a token state's observation
(:meth:`~hexwar.interop.adapter.TokenState.observation_parts`) into a float32 array: the
terrain planes (the same in every observation) and the pieces and ZOC planes come from a
kept array — one per planes tuple the encoder's memo hands out, keyed on that tuple's
identity (the entry holds the tuple, so the identity cannot be reused while it is kept) —
and only the rest (seats, turn, phase, prefix, legal tokens, selected cells, the game's
features: a few dozen ones) is written per call.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from hexwar.interop.adapter import TokenState
from hexwar.interop.game import TokenGame

__all__ = ["Dense"]

#: Dense board arrays kept per game (each ``observation_size`` float32 values).
_BOARDS_KEPT: Final = 64

Array = np.ndarray[Any, Any]


class Dense:
    """Dense observations and masks of one game's token states."""

    def __init__(self, game: TokenGame) -> None:
        encoder = game.encoder
        self.size = encoder.size
        self.actions = game.num_distinct_actions
        self._static = np.zeros(self.size, np.float32)
        if encoder.static_hot:
            self._static[np.array(encoder.static_hot, np.intp)] = 1.0
        self._boards: dict[int, tuple[tuple[int, ...], Array]] = {}

    def _board(self, planes: tuple[int, ...]) -> Array:
        """The static planes with ``planes`` set (kept; never hand it out: copy it)."""
        entry = self._boards.get(id(planes))
        if entry is not None and entry[0] is planes:
            return entry[1]
        dense = self._static.copy()
        if planes:
            dense[np.array(planes, np.intp)] = 1.0
        if len(self._boards) >= _BOARDS_KEPT:
            self._boards.clear()
        self._boards[id(planes)] = (planes, dense)
        return dense

    def observation(self, ts: TokenState, player: int, out: Array | None = None) -> Array:
        """Seat ``player``'s observation: written into ``out`` (float32, ``size`` long),
        or a new array."""
        planes, rest = ts.observation_parts(player)
        board = self._board(planes)
        if out is None:
            out = board.copy()
        else:
            np.copyto(out, board)
        if rest:
            out[rest] = 1.0
        return out

    def mask(self, ts: TokenState, player: int) -> Array:
        """A new int8 action mask: 1 for each token seat ``player`` may take now."""
        mask = np.zeros(self.actions, np.int8)
        if ts.current_player() == player:
            ids = ts.legal_ids()
            if ids:
                mask[list(ids)] = 1
        return mask
