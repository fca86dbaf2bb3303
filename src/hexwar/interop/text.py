"""Text forms of token states, each computed once per position (``State.derive``): what a
side sees (:func:`seen_text`), the position's
digest (:func:`digest`); and the sequencer cursor as JSON data (the seat turn of a
serialized :class:`~hexwar.interop.adapter.TokenState`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hexwar.engine.fileformat import position_digest
from hexwar.engine.sequencer import Cursor
from hexwar.engine.state import State

__all__ = ["cursor_in", "cursor_out", "digest", "seen_text"]


def seen_text(state: State, side: str) -> str:
    """``side``'s observation of ``state`` but the history, as JSON (once per position)."""

    def text() -> str:
        obs = state.observation(side)
        del obs["history"]
        return json.dumps(obs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    return state.derive(("interop-seen", side), text)


def digest(state: State) -> str:
    """The first 16 hex digits of the position's digest (once per position)."""
    return state.derive(("interop-digest",), lambda: position_digest(state)[:16])


def cursor_out(c: Cursor) -> list[Any]:
    return [c.turn, c.stage, c.phase, c.mark, c.token, list(c.tokens)]


def cursor_in(data: Sequence[Any]) -> Cursor:
    turn, stage, phase, mark, token, tokens = data
    return Cursor(int(turn), int(stage), int(phase), str(mark), token, tuple(tokens))
