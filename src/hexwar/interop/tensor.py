"""Dense observation tensors and action masks as numpy arrays (for the framework modules).

:class:`Dense` turns a token state's observation
(:meth:`~hexwar.interop.adapter.TokenState.observation_parts`) into a float32 array: a
copy of the board (the terrain planes, the same in every observation, and the pieces
and ZOC planes: one array kept per planes tuple), then a ``1.0`` at the indices of the
generic sections and features, of the prefix's, and of the legal tokens, in one write
(a numpy call costs more than a list of a few dozen indices). The encoder hands out the
planes as the *same* tuple while they are unchanged, and the legal tokens come as the
engine's kept tuple per position and prefix, so the board array and the legal ids are
kept by identity (the entry holds the tuple, so the identity cannot be reused while it
is kept): a step is one copy and one write for the tensor, one for the mask.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from hexwar.interop.adapter import TokenState
from hexwar.interop.game import TokenGame

__all__ = ["Dense"]

#: Index arrays kept per game (parts of observations, legal-token tuples).
_KEPT: Final = 1024
#: Dense board arrays kept per game (each ``observation_size`` float32 values).
_BOARDS_KEPT: Final = 16

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
        self._no_mask = np.zeros(self.actions, np.int8)
        self._legal_base = encoder.legal_base
        self._ids = game.space._ids
        self._arrays: dict[int, tuple[tuple[Any, ...], Array]] = {}
        self._legal: dict[int, tuple[tuple[str, ...], tuple[list[int], list[int]]]] = {}
        self._boards: dict[int, tuple[tuple[tuple[int, ...], ...], Array]] = {}

    def _array(self, part: tuple[int, ...]) -> Array:
        """``part`` as an index array (kept on its identity)."""
        entry = self._arrays.get(id(part))
        if entry is not None and entry[0] is part:
            return entry[1]
        found = np.array(part, np.intp)
        if len(self._arrays) >= _KEPT:
            self._arrays.clear()
        self._arrays[id(part)] = (part, found)
        return found

    def _board(self, planes: tuple[tuple[int, ...], ...]) -> Array:
        """The static planes with ``planes`` set (kept on its identity; never hand it out:
        copy it)."""
        entry = self._boards.get(id(planes))
        if entry is not None and entry[0] is planes:
            return entry[1]
        dense = self._static.copy()
        for part in planes:
            if part:
                dense[self._array(part)] = 1.0
        if len(self._boards) >= _BOARDS_KEPT:
            self._boards.clear()
        self._boards[id(planes)] = (planes, dense)
        return dense

    def _legal_ids(self, tokens: tuple[str, ...]) -> tuple[list[int], list[int]]:
        """The ids of ``tokens``, and the ``legal`` section's indices of them (kept on
        the tuple's identity: the observation and the mask share them)."""
        entry = self._legal.get(id(tokens))
        if entry is not None and entry[0] is tokens:
            return entry[1]
        ids = list(map(self._ids.__getitem__, tokens))
        base = self._legal_base
        found = ids, [base + i for i in ids]
        if len(self._legal) >= _KEPT:
            self._legal.clear()
        self._legal[id(tokens)] = (tokens, found)
        return found

    def observation(self, ts: TokenState, player: int, out: Array | None = None) -> Array:
        """Seat ``player``'s observation: written into ``out`` (float32, ``size`` long),
        or a new array."""
        planes, fixed, chosen = ts.observation_parts(player)
        board = self._board(planes)
        if out is None:
            out = board.copy()
        else:
            np.copyto(out, board)
        rest = [*fixed, *chosen]
        if ts.current_player() == player:
            tokens = ts.legal_tokens()
            if tokens:
                rest += self._legal_ids(tokens)[1]
        out[rest] = 1.0  # one write (each numpy call costs more than a short list)
        return out

    def mask(self, ts: TokenState, player: int) -> Array:
        """A new int8 action mask: 1 for each token seat ``player`` may take now."""
        mask = self._no_mask.copy()
        if ts.current_player() == player:
            tokens = ts.legal_tokens()
            if tokens:
                mask[self._legal_ids(tokens)[0]] = 1
        return mask
