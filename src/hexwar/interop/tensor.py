"""Dense observation tensors and action masks as numpy arrays (for the framework modules).

:class:`Dense` turns a token state's observation
(:meth:`~hexwar.interop.adapter.TokenState.observation_parts`) into a float32 array: a
copy of the seat's board array (the terrain planes, the same in every observation, and
the pieces and ZOC planes), then a ``1.0`` at the indices of the generic sections and
features, of the prefix's, and of the legal tokens. The board array is kept per seat and
patched in place: when the encoder's planes were patched from the ones the array holds,
only the indices that went and came are written
(:meth:`~hexwar.engine.observe.Encoder.planes_change`); else, as the encoder hands out
each plane's indices as the *same* tuple while it is unchanged, only a plane that changed
is written (its old indices cleared, its new ones set). The legal tokens' action mask is
kept per tuple of tokens (the same tuples recur): a mask is one copy, and the ``legal``
section one slice written from it. :meth:`Dense.observe` gives the tensor and the mask at
once (one look at the player to act and the legal tokens).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexwar.engine.memo import kept
from hexwar.interop.adapter import TokenState
from hexwar.interop.game import TokenGame

__all__ = ["Dense"]

Array = np.ndarray[Any, Any]
_Parts = tuple[tuple[int, ...], ...]


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
        #: the ``legal`` section's slice (token id ``i`` at ``legal_base + i``)
        self._legal_at = slice(encoder.legal_base, encoder.legal_base + self.actions)
        self._planes_change = encoder.planes_change
        self._ids = game.space._ids
        self._arrays: dict[int, tuple[tuple[int, ...], Array]] = {}
        #: legal tokens -> their action mask
        self._legal: dict[tuple[str, ...], Array] = {}
        #: seat -> the planes its board array holds, and the array
        self._boards: dict[int, tuple[_Parts, Array]] = {}

    def _array(self, part: tuple[int, ...]) -> Array:
        """``part`` as an index array (kept on its identity)."""
        entry = self._arrays.get(id(part))
        if entry is not None and entry[0] is part:
            return entry[1]
        found = np.array(part, np.intp)
        kept(self._arrays, id(part), (part, found))
        return found

    def _board(self, player: int, planes: _Parts) -> Array:
        """Seat ``player``'s board array (static planes and ``planes``): patched from the
        planes it held, by the indices that went and came if the encoder has them, else
        each part that is not the same tuple cleared and set again (the parts are
        disjoint ranges of planes). Never hand it out: copy it."""
        entry = self._boards.get(player)
        if entry is None:
            held: _Parts = ()
            dense = self._static.copy()
        else:
            held, dense = entry
            if held is planes:
                return dense
            change = self._planes_change(held, planes)
            if change is not None:
                gone, came = change
                if gone:
                    dense[gone] = 0.0
                if came:
                    dense[came] = 1.0
                self._boards[player] = (planes, dense)
                return dense
        for i, part in enumerate(planes):
            was = held[i] if i < len(held) else ()
            if was is not part:
                if was:
                    dense[self._array(was)] = 0.0
                if part:
                    dense[self._array(part)] = 1.0
        self._boards[player] = (planes, dense)
        return dense

    def _mask(self, tokens: tuple[str, ...]) -> Array:
        """The action mask of ``tokens`` (an int8 array, 1 at each token's id), kept per
        tuple of tokens (the same legal tokens recur, in other positions too; never hand
        it out: copy it). Built from a list of ids (each numpy call costs ~1 µs)."""
        found = self._legal.get(tokens)
        if found is None:
            found = self._no_mask.copy()
            found[list(map(self._ids.__getitem__, tokens))] = 1
            kept(self._legal, tokens, found)
        return found

    def observe(self, ts: TokenState, player: int, out: Array | None = None) -> tuple[Array, Array]:
        """Seat ``player``'s observation (written into ``out``, float32 ``size`` long, or
        a new array) and a new int8 action mask (1 for each token it may take now)."""
        acting = ts.current_player()
        planes, fixed, chosen = ts.observation_parts(player, acting)
        board = self._board(player, planes)
        if out is None:
            out = board.copy()
        else:
            np.copyto(out, board)
        tokens = ts.legal_tokens() if acting == player else ()
        if tokens:
            mask = self._mask(tokens)
            out[self._legal_at] = mask  # the board array's ``legal`` section is all zero
            mask = mask.copy()
        else:
            mask = self._no_mask.copy()
        out[[*fixed, *chosen]] = 1.0  # one write (each numpy call costs more than a short list)
        return out, mask

    def observation(self, ts: TokenState, player: int, out: Array | None = None) -> Array:
        """Seat ``player``'s observation: written into ``out`` (float32, ``size`` long),
        or a new array."""
        return self.observe(ts, player, out)[0]

    def mask(self, ts: TokenState, player: int) -> Array:
        """A new int8 action mask: 1 for each token seat ``player`` may take now."""
        tokens = ts.legal_tokens() if ts.current_player() == player else ()
        return self._mask(tokens).copy() if tokens else self._no_mask.copy()
