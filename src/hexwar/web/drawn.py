"""The boards a game's pages are sent: drawn once per position and side, outside the
game's lock (a mixin of :class:`~hexwar.web.session.Session`)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from hexwar.engine.state import State
from hexwar.web.games import WebGame
from hexwar.web.views import render_view, snapshot

__all__ = ["BoardCache"]


class BoardCache:
    """The drawn boards of the current position, by side (needs ``game``, ``state``,
    ``lock`` and ``_drawn`` from the class it is mixed into)."""

    game: WebGame
    state: State
    lock: threading.RLock
    _drawn: dict[tuple[int, str | None], str | None]

    def board_svg(self, side: str | None) -> str | None:
        """The board as ``side`` sees it now (see :meth:`board_job`)."""
        return self.board_job(side)()

    def board_job(self, side: str | None) -> Callable[[], str | None]:
        """Take what the board of this position needs (call it under :attr:`lock` to match
        other data read there); the returned call draws it outside the lock, so that
        drawing never holds up the bots. Drawn once per position and side; each cell and
        counter tagged ``data-label``."""
        with self.lock:
            n = len(self.state.history)
            key = (n, side)
            if key in self._drawn:
                done = self._drawn[key]
                return lambda: done
            found = snapshot(self.game, self.state, side)

        def job() -> str | None:
            svg = None if found is None else render_view(*found)
            with self.lock:
                kept = {k: v for k, v in self._drawn.items() if k[0] == n}
                self._drawn = {key: svg} | kept
            return svg

        return job
