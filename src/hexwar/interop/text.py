"""Text forms of token states, each computed once per position (``State.derive``): what a
side sees (:func:`seen_text`), what a spectator sees (:func:`public_text`, nothing hidden
from any side) and its digest (:func:`public_digest`); and the sequencer cursor as JSON
data (the seat turn of a serialized :class:`~hexwar.interop.adapter.TokenState`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Final

from hexwar.engine.sequencer import Cursor
from hexwar.engine.state import State

__all__ = ["SPECTATOR", "cursor_in", "cursor_out", "public_digest", "public_text", "seen_text"]

#: The observer name of a spectator: no side, so every hidden entry and private action
#: is masked (:meth:`~hexwar.engine.state.State.observation`).
SPECTATOR: Final = ""


def seen_text(state: State, side: str) -> str:
    """``side``'s observation of ``state`` but the history, as JSON (once per position)."""

    def text() -> str:
        obs = state.observation(side)
        del obs["history"]
        return json.dumps(obs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    return state.derive(("interop-seen", side), text)


def public_text(state: State) -> str:
    """What a spectator sees of ``state`` (no side's hidden entries, no private action),
    as JSON, history aside (once per position)."""
    return seen_text(state, SPECTATOR)


def public_digest(state: State) -> str:
    """The first 16 hex digits of the SHA-256 of :func:`public_text` (once per position):
    states a spectator cannot tell apart have the same digest."""
    return state.derive(
        ("interop-public-digest",),
        lambda: hashlib.sha256(public_text(state).encode()).hexdigest()[:16],
    )


def cursor_out(c: Cursor) -> list[Any]:
    return [c.turn, c.stage, c.phase, c.mark, c.token, list(c.tokens)]


def cursor_in(data: Sequence[Any]) -> Cursor:
    turn, stage, phase, mark, token, tokens = data
    return Cursor(int(turn), int(stage), int(phase), str(mark), token, tuple(tokens))
